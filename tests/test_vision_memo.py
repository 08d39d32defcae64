"""The readers' memo of a step's last result (vision/memo.py)."""
import numpy as np

from vision.memo import last_result, one_card


def test_a_step_is_remembered_only_while_one_card_is_read():
    calls = []

    @last_result
    def step(card):
        calls.append(1)
        return card.sum()

    card = np.ones((4, 4))
    step(card)
    card[0, 0] = 5  # a caller outside the readers may draw on a card between two calls
    assert step(card) == 20 and len(calls) == 2
    with one_card():
        assert step(card) == 20 and step(card) == 20  # the same card: made once
        assert step(card.copy()) == 20  # another array: made again
    assert len(calls) == 4
    with one_card():
        step(card)
    assert len(calls) == 5  # forgotten once the card was read
