"""Hands over the table: found by colour, cut out of the cards' outlines, read as a cover."""
import numpy as np
import pytest

from vision import detect, hands, identify, synth
from vision.geometry import Camera, apply_h
from vision.recognise import Recogniser


def _frame(seed: int, k: int, deck=None):
    """A benchmark-like scene (`table.bench.vision` renders its scenes the same way)."""
    scene = synth.random_scene(np.random.default_rng(seed + k), deck or synth.builtin(40))
    return synth.render_scene(scene, seed=k)


def _half(image):
    small, _, mask, _ = detect._blobs(image, 70.0)
    return small, mask


def test_a_hand_reaching_in_is_found_and_the_cards_are_not():
    cards = [synth.Placed("4O", True, 420, 250, 10), synth.Placed("7C", True, 600, 260, -20),
             synth.Placed(None, False, 250, 250, 3)]
    hand = synth.Hand(470, 260, 0.0, 200)
    scene = synth.Scene(cards, synth.builtin(40), Camera(height_mm=750, hfov_deg=66),
                        synth.TableSpec(cloth_seed=3), synth.Nuisances(hands=(hand,)))
    fr = synth.render_scene(scene, seed=1)
    small, mask = _half(fr.image)
    found = hands.find_hands(small, mask, 45 * 45 / 1.55)
    assert found is not None
    palm = apply_h(fr.homography, [[470 + 0.6 * 200, 260]])[0] * detect.WORK_SCALE
    assert found.mask[int(palm[1]), int(palm[0])]
    for t in fr.truth:  # no card's centre is taken for the hand
        c = t.corners.mean(axis=0) * detect.WORK_SCALE
        if t.visible > 0.9:
            assert not found.mask[int(c[1]), int(c[0])], t.code
    # and a frame with no hand has none
    quiet = synth.render_scene(synth.with_nuisances(scene, hands=()), seed=1)
    assert hands.find_hands(*_half(quiet.image), 45 * 45 / 1.55) is None


def test_an_olive_skinned_hand_is_found(monkeypatch):
    """The simulator's skins run from pink to olive: an olive hand's hue (OpenCV 25 here) is
    yellower than the orange-red to pink range, and its saturation higher than aged paper's."""
    cards = [synth.Placed("4O", True, 420, 250, 10), synth.Placed("7C", True, 600, 260, -20)]
    hand = synth.Hand(470, 260, 0.0, 200, skin=(97, 171, 184))
    scene = synth.Scene(cards, synth.builtin(40), Camera(height_mm=750, hfov_deg=66),
                        synth.TableSpec(cloth_seed=3), synth.Nuisances(hands=(hand,)))
    small, mask = _half(synth.render_scene(scene, seed=1).image)
    found = hands.find_hands(small, mask, 45 * 45 / 1.55)
    assert found is not None
    monkeypatch.setattr(hands, "SKIN_LO", hands.SKIN_LO[:2])
    monkeypatch.setattr(hands, "SKIN_HI", hands.SKIN_HI[:2])
    assert hands.find_hands(small, mask, 45 * 45 / 1.55) is None


def test_a_card_back_of_skin_colour_is_no_hand(shared_dir):
    # Fournier's speckled tan back matches skin on colour alone; it is not smooth
    deck = synth.load_deck(shared_dir / "decks" / "fournier-1878")
    cards = [synth.Placed(None, False, 300 + 20 * i, 250, 5 * i) for i in range(4)]
    scene = synth.Scene(cards, deck, Camera(height_mm=700, hfov_deg=60), synth.TableSpec(cloth_seed=5),
                        synth.Nuisances())
    fr = synth.render_scene(scene, seed=2)
    assert hands.find_hands(*_half(fr.image), 45 * 45 / 1.55) is None


@pytest.mark.parametrize("seed,k,code", [(150000, 22, "11B"), (150000, 11, "3C"), (230000, 8, "2B")])
def test_a_card_a_hand_touches_is_read(seed, k, code):
    # fresh seeds where the hand's outline used to place the card's sides or corners (and, for
    # the 2 of bastos, whose one outline corner is under the fingers, no corner was in view)
    fr = _frame(seed, k)
    truth = next(t for t in fr.truth if t.code == code)
    seen = Recogniser(identify.Templates.from_deck(synth.builtin(40))).recognise(fr.image)
    c = truth.corners.mean(axis=0)
    near = [s for s in seen if np.hypot(*(s.corners.mean(axis=0) - c)) < 20]
    assert [s.code for s in near] == [code]


def test_a_hand_over_a_card_is_its_cover_map():
    fr = _frame(150000, 22)
    dets = detect.detect_cards(fr.image)
    covered = [d for d in dets if d.hand is not None]
    assert covered, "the hand lies over a card"
    for d in covered:
        assert d.hand.shape == (72, 48) and set(np.unique(d.hand)) <= {0, 1}
        assert d.hand.mean() > detect.HAND_COVER


def test_a_hand_over_a_cards_alternate_placement_is_mapped_too():
    """A detection left unknown is read again at its alternate placements: a hand lying there
    covers the card there as it does at the first placement (each alternate gets its own map)."""
    from vision.hands import Hands

    half = np.zeros((360, 640), np.uint8)
    half[100:160, 200:260] = 1  # a hand, in half-resolution pixels
    hands = Hands(near=half > 0, cut=half, support=half, mask=half, box=(200, 100, 259, 159))

    def quad(x, y):  # a card's corners at full resolution, 80 x 120 px
        return np.float32([[x, y], [x + 80, y], [x + 80, y + 120], [x, y + 120]])
    clear, under = quad(100, 100), quad(380, 180)  # the second has the hand over its middle
    d = detect._under_hand(detect.Detection(clear, 0.9, alternates=(under, clear)), hands)
    assert d.hand is None
    assert d.alternate_hands[0] is not None and d.alternate_hands[0].mean() > detect.HAND_COVER
    assert d.alternate_hands[1] is None
    assert detect._under_hand(detect.Detection(clear, 0.9), hands).alternate_hands == ()


def test_the_numeral_names_no_card_that_might_be_a_back():
    # an ArUco marker under an arm: its artwork as much a back as a 6 of bastos, its pattern a "6"
    t = identify.Templates.from_deck(synth.builtin(40))
    ident = identify.Identity(None, True, 0.0, candidate="6B", score=0.31, margin=0.004,
                              runners=("back", "4O"), gaps=(0.004, 0.005))
    assert t.index_test(np.zeros((720, 1280, 3), np.uint8), np.zeros((4, 2)), ident) is ident
