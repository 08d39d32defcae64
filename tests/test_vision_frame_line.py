"""The suit from the breaks in a card's frame line (`vision.frame_line`): named on any deck's
cards or not at all, never another suit, and never through what covers the card."""
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import agnostic, frame_line, pictures, synth
from vision.geometry import RECT_H, RECT_W

DECKS = Path(__file__).resolve().parents[1].parent / "shared" / "decks"


def _rect(face: np.ndarray, blur: float = 0.0) -> np.ndarray:
    """A card image at the rectified card's size, blurred as a camera would."""
    rect = cv2.resize(face[..., :3], (RECT_W, RECT_H), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(rect, (0, 0), blur) if blur else rect


@pytest.mark.parametrize("blur", [0.0, 1.0])
def test_the_built_in_decks_cards_are_named_their_suit(blur):
    deck = synth.builtin(40)
    named = {code: frame_line.frame_suit(_rect(face, blur)) for code, face in deck.faces.items()}
    assert all(suit in (None, code[-1]) for code, suit in named.items())
    assert sum(suit == code[-1] for code, suit in named.items()) >= 36


@pytest.mark.parametrize("name", ["fournier-1878", "naipes-libres"])
@pytest.mark.parametrize("blur", [0.0, 1.0])
def test_a_printed_decks_cards_are_named_their_suit_or_nothing(name, blur):
    """Sharp or blurred: Fournier's speckled paper and the scan's dark edge are no line, a
    crown over the line no break (measured 34-37 of 40 named, Naipes 46-48 of 48)."""
    if not (DECKS / name).is_dir():
        pytest.skip(f"reference deck {name} not found at {DECKS / name} (test data lives beside the repo)")
    deck = synth.load_deck(DECKS / name)
    named = {code: frame_line.frame_suit(_rect(face, blur)) for code, face in deck.faces.items()}
    wrong = {code: suit for code, suit in named.items() if suit not in (None, code[-1])}
    assert not wrong
    assert sum(suit == code[-1] for code, suit in named.items()) >= 0.8 * len(named)


def test_another_cards_paper_over_the_line_is_no_break_where_the_card_is_covered():
    """Paper laid over the middle of an oros's lines looks like copas' break; told where the card
    is covered, the reader says nothing rather than either suit."""
    card = _rect(synth.builtin(40).faces["4O"], 0.7)
    assert frame_line.frame_suit(card) == "O"
    covered = np.zeros((RECT_H, RECT_W), np.uint8)
    covered[:25, 48:72] = covered[-25:, 48:72] = 1
    painted = card.copy()
    painted[covered > 0] = 250
    assert frame_line.frame_suit(painted) == "C"
    assert frame_line.frame_suit(painted, covered) is None
    assert frame_line.frame_suit(painted, covered[::3, ::3]) is None  # (a map of any size)


def test_one_side_read_is_enough_and_two_sides_must_agree():
    card = _rect(synth.builtin(40).faces["4B"], 0.7)
    hidden = np.zeros((RECT_H, RECT_W), np.uint8)
    hidden[RECT_H // 2:] = 1
    assert frame_line.frame_suit(card, hidden) == "B"
    other = _rect(synth.builtin(40).faces["4C"], 0.7)
    both = card.copy()
    both[RECT_H // 2:] = other[RECT_H // 2:]
    assert frame_line.frame_suit(both) is None


@pytest.mark.parametrize("name,seed,code", [("naipes-libres", 60068, "10C"),
                                            ("fournier-1878", 60021, "11C")])
def test_a_figure_whose_held_pinta_is_not_found_takes_its_frame_lines_suit(
        scene_reading, monkeypatch, name, seed, code):
    """Fresh-seed scenes: the figure's silhouette names its rank, its held cup is not found."""
    assert scene_reading(name, seed, code) == code
    monkeypatch.setattr(pictures, "FRAME_SUIT", False)
    assert scene_reading(name, seed, code) is None


def test_any_card_image_is_read_without_error():
    for shape in [(RECT_H, RECT_W, 3), (40, 30, 3), (RECT_H, RECT_W * 2, 3)]:
        for fill in (0, 255):
            assert frame_line.frame_suit(np.full(shape, fill, np.uint8)) is None
    noise = np.random.default_rng(0).integers(0, 256, (RECT_H, RECT_W, 3), dtype=np.uint8)
    assert frame_line.frame_suit(noise) in (None, "O", "C", "E", "B")


def test_a_card_lies_on_top_where_its_own_line_shows_through_the_overlap():
    """Where another card overlaps this one, this one's line seen there says it lies on top; the
    other card's paper there (this one below) shows no line, though it passes for a break."""
    card = _rect(synth.builtin(40).faces["4B"], 0.7)
    overlap = np.zeros((RECT_H, RECT_W), np.uint8)
    overlap[:, :RECT_W * 2 // 5] = 1
    assert frame_line.through(card, overlap) == "B"
    below = card.copy()
    below[overlap > 0] = 250
    assert frame_line.through(below, overlap) is None
    assert frame_line.through(card, np.zeros_like(overlap)) is None  # (nothing crosses it)


@pytest.mark.parametrize("name,seed,code", [("fournier-1878", 60068, "10C"),
                                            ("naipes-libres", 60049, "11C")])
def test_a_figure_whose_line_runs_on_through_the_other_card_is_read_whole(
        scene_reading, monkeypatch, name, seed, code):
    """Fresh-seed scenes: a figure judged under another card, its picture running into the
    overlap, whose short side's line shows there naming the suit it reads whole."""
    assert scene_reading(name, seed, code) == code
    monkeypatch.setattr(pictures, "SHORT_SIDES_ON_TOP", False)
    monkeypatch.setattr(pictures, "SMALL_OVERLAP", 0.12)  # (the 11C's overlap is 0.2 of it at
    # most: read whole so too)
    assert scene_reading(name, seed, code) is None


@pytest.mark.parametrize("name,seed", [("fournier-1878", 60041), ("naipes-libres", 60014)])
def test_the_three_crossed_clubs_partly_covered_are_read_filled_with_the_frame_lines_suit(
        scene_reading, monkeypatch, name, seed):
    """Fresh-seed scenes: a 3 of bastos under another card, filled from its own image turned,
    is nearly the crossed clubs' silhouette; its frame line in view says bastos."""
    assert scene_reading(name, seed, "3B") == "3B"
    monkeypatch.setattr(agnostic, "FILLED_CROSSED_CLUBS", False)
    monkeypatch.setattr(pictures, "SMALL_OVERLAP", 0.12)  # (Naipes' is 0.2 of it overlapped at
    # most: read whole so too, an emblem it may be, `SMALL_EMBLEMS`)
    assert scene_reading(name, seed, "3B") is None
