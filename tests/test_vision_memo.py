"""The readers' memo of a step's last result (vision/memo.py)."""
import numpy as np

from vision.memo import KEPT, last_result, one_card, recalled, remember


def _counted_step():
    """A `last_result` step that sums a card, and the list it notes each making in."""
    calls = []

    @last_result
    def step(card):
        calls.append(1)
        return card.sum()

    return step, calls


def test_a_step_is_remembered_only_while_one_card_is_read():
    step, calls = _counted_step()
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


def test_a_step_keeps_its_last_few_calls_and_can_be_told_one():
    step, calls = _counted_step()
    cards = [np.full((2, 2), k) for k in range(KEPT + 1)]
    with one_card():
        for card in cards[:KEPT]:
            step(card)
        assert [step(card) for card in cards[:KEPT]] == [0, 4, 8, 12][:KEPT]
        assert len(calls) == KEPT  # the card and the card painted over, and back: made once each
        step(cards[KEPT])  # one more: the oldest is let go
        step(cards[0])
        assert len(calls) == KEPT + 2
        other = np.zeros((2, 2))
        remember(step, 99.0, other)  # made another way
        assert step(other) == 99.0 and recalled(step, other) == 99.0
        assert len(calls) == KEPT + 2
    assert recalled(step, other) is None  # (outside `one_card`: nothing is remembered)


def test_a_card_painted_over_gets_the_same_lab_from_the_cards():
    """`pass_on_lab`: the Lab of a card with its image turned in one part and one colour in
    another, from the card's Lab, is the Lab OpenCV makes of it."""
    import cv2

    from vision.card_colours import card_lab, pass_on_lab

    rng = np.random.default_rng(0)
    card = rng.integers(0, 256, (180, 120, 3), np.uint8)
    turned = rng.random((180, 120)) < 0.3
    painted = ~turned & (rng.random((180, 120)) < 0.2)
    made = card.copy()
    np.copyto(made, card[::-1, ::-1], where=turned[..., None])
    made[painted] = (201, 198, 180)
    with one_card():
        card_lab(card)
        pass_on_lab(card, made, turned, painted)
        assert np.array_equal(card_lab(made), cv2.cvtColor(made, cv2.COLOR_BGR2Lab))


def test_paint_and_turn_in_are_numpys_masked_assignments():
    from vision.card_colours import paint, turn_in

    rng = np.random.default_rng(3)
    card = rng.integers(0, 256, (180, 120, 3), np.uint8)
    where = rng.random((180, 120)) < 0.4
    a, b = card.copy(), card.copy()
    a[where] = (200.7, 13.2, 99.9)  # numpy casts the colour as astype does
    paint(b, where, np.asarray((200.7, 13.2, 99.9)).astype(np.uint8))
    assert np.array_equal(a, b)
    a, b = card.copy(), card.copy()
    np.copyto(a, card[::-1, ::-1], where=where[..., None])
    turn_in(b, card, where.astype(np.uint8))
    assert np.array_equal(a, b)
