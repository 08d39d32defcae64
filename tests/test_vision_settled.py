"""Cards lying still keep their readings from frame to frame (`vision.settled`), on real rendered
frames of one camera: each frame has its own sensor noise, as a camera's do."""
import numpy as np
import pytest

from vision import synth
from vision.geometry import Camera
from vision.identify import Templates
from vision.recognise import Recogniser, SeenCard
from vision.settled import SettledCards

CAMERA = Camera(height_mm=750, hfov_deg=66, pitch_deg=3, roll_deg=-2)


@pytest.fixture(scope="module")
def recogniser():
    return Recogniser(Templates.from_deck(synth.builtin(40)))


def _frame(cards, noise_seed: int):
    nz = synth.Nuisances(light=(0.95, 0.2, -0.15), glare=(0, 0, 0, 0), blur=0.6, noise=3, jpeg=85)
    scene = synth.Scene(cards, synth.builtin(40), CAMERA, synth.TableSpec(cloth_seed=11), nz)
    return synth.render_scene(scene, seed=noise_seed).image


def _cards(trump="7O", dx=0.0):
    return [synth.Placed(trump, True, 260 + dx, 260, 95), synth.Placed(None, False, 230, 260, 0),
            synth.Placed("3C", True, 520, 230, 20), synth.Placed("5E", True, 720, 150, 180),
            synth.Placed("4O", True, 730, 370, 10)]


def _codes(seen):
    return sorted(c.code or "-" for c in seen)


def test_a_card_read_alike_twice_is_kept_unread_until_it_changes(recogniser):
    settled = SettledCards()
    first = recogniser.recognise(_frame(_cards(), 1), settled=settled)
    assert {"7O", "3C", "5E", "4O"} <= set(_codes(first))
    assert settled.kept == 0  # nothing is kept before two reads agree
    second = recogniser.recognise(_frame(_cards(), 2), settled=settled)
    assert settled.kept == 0 and _codes(second) == _codes(first)
    read = settled.read
    third = recogniser.recognise(_frame(_cards(), 3), settled=settled)
    assert _codes(third) == _codes(first)
    assert settled.kept == 5 and settled.read == read  # the four faces up and the back
    # the 7 of trumps swapped for the trump at the very same place: read afresh
    swapped = recogniser.recognise(_frame(_cards(trump="2O"), 4), settled=settled)
    assert "2O" in _codes(swapped) and "7O" not in _codes(swapped)
    assert settled.kept == 5 + 4 and settled.read == read + 1


def test_a_card_moved_is_read_again(recogniser):
    settled = SettledCards()
    for k in range(2):
        recogniser.recognise(_frame(_cards(), 10 + k), settled=settled)
    moved = recogniser.recognise(_frame(_cards(dx=8.0), 12), settled=settled)  # 8 mm
    assert "7O" in _codes(moved)
    assert settled.kept == 4  # the trump was read again, the three others and the back kept


def test_a_settled_card_is_read_again_every_refresh_frames(recogniser):
    settled = SettledCards(refresh=2)
    for k in range(6):  # read, read (agreed), kept, kept, read (due), kept
        recogniser.recognise(_frame(_cards(), 20 + k), settled=settled)
    assert settled.kept == 3 * 5
    assert settled.read == 3 * 5


def test_a_face_left_unknown_is_read_again_every_other_frame(recogniser):
    frame = _frame(_cards(), 40)
    corners = recogniser.recognise(frame)[0].corners
    unknown = SeenCard(None, True, 0.1, corners)
    settled = SettledCards()
    kept = []
    for _ in range(7):
        settled.new_frame()
        got = settled.recall(frame, corners)
        if got is None:
            settled.keep(unknown)
        kept.append(got is not None)
        settled.next_frame()
    assert kept == [False, False, True, False, True, False, True]


def test_without_a_settled_store_every_card_is_read(recogniser):
    frame = _frame(_cards(), 30)
    assert _codes(recogniser.recognise(frame)) == _codes(recogniser.recognise(frame))


def test_a_frame_nothing_changed_in_keeps_its_detections(recogniser):
    settled = SettledCards()
    recogniser.recognise(_frame(_cards(), 50), settled=settled)
    recogniser.recognise(_frame(_cards(), 51), settled=settled)  # other noise, nothing moved
    assert settled.frames_kept == 1
    moved = recogniser.recognise(_frame(_cards(dx=8.0), 52), settled=settled)
    assert settled.frames_kept == 1 and "7O" in _codes(moved)  # detected again


def test_a_card_with_a_pinta_more_at_the_very_same_place_is_read_again(recogniser):
    """The 7 of trumps swapped for a trump 6 of the suit: the built-in deck's thin swords change
    the look least of the three decks."""
    settled = SettledCards()
    for k in range(3):
        recogniser.recognise(_frame(_cards(trump="6E"), 60 + k), settled=settled)
    kept = settled.kept
    swapped = recogniser.recognise(_frame(_cards(trump="7E"), 63), settled=settled)
    assert "7E" in _codes(swapped) and "6E" not in _codes(swapped)
    assert settled.kept == kept + 4


def test_the_observer_keeps_a_still_tables_detections_from_its_motion_thumbnail(recogniser):
    """The observer's motion flag and the settled store share the frame's thumbnail."""
    from vision.observe import Observer

    observer = Observer(recogniser, np.eye(3), lambda x, y: None)
    seen = [observer.observe(_frame(_cards(), 70 + k), float(k)) for k in range(3)]
    assert seen[0].moving and not seen[1].moving and not seen[2].moving
    assert observer.settled.frames_kept == 1
    assert observer.settled._given is None  # taken by the frame it was made for
    assert sorted(c.code or "-" for c in seen[2].cards) == sorted(c.code or "-" for c in seen[1].cards)
