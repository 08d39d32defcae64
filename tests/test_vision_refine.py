"""Sub-pixel corner refinement on the image edges, and reading a card from its visible cells."""
import cv2
import numpy as np

from vision import detect, synth
from vision.geometry import Camera
from vision.identify import Templates, visibility_masks
from vision.recognise import Recogniser


def _frame(cards, seed=3):
    camera = Camera(height_mm=750, hfov_deg=66, pitch_deg=3, roll_deg=-2)
    nz = synth.Nuisances(light=(0.95, 0.2, -0.15), glare=(0, 0, 0, 0), blur=0.6, noise=3, jpeg=85)
    return synth.render_scene(synth.Scene(cards, synth.builtin(40), camera,
                                          synth.TableSpec(cloth_seed=5), nz), seed=seed)


def _err(a, b):
    return min(float(np.abs(np.roll(a, k, 0) - b).max()) for k in range(4))


def test_refine_edges_pulls_displaced_sides_back():
    fr = _frame([synth.Placed("4C", True, 450, 250, 25)])
    truth = fr.truth[0].corners.astype(np.float32)
    gray = cv2.cvtColor(fr.image, cv2.COLOR_BGR2GRAY)
    rng = np.random.default_rng(0)
    for _ in range(5):
        off = truth + rng.uniform(-4, 4, truth.shape).astype(np.float32)
        q = detect.refine_edges(gray, off)
        assert _err(q, truth) < 1.5, _err(q, truth)
        assert _err(q, truth) < _err(off, truth)


def test_visibility_masks():
    cover = np.zeros((72, 48), np.uint8)
    cover[36:] = 1  # bottom half covered
    keep, corners = visibility_masks(cover)
    assert keep.reshape(4, 3)[:2].all() and not keep.reshape(4, 3)[2:].any()
    assert corners.tolist() == [True, False]
    cover[:] = 1
    assert visibility_masks(cover) is None


def test_trump_half_under_the_stock_is_read():
    deck = synth.builtin(40)
    cards = [synth.Placed("11C", True, 300, 260, 92)] + [
        synth.Placed(None, False, 262 + 0.5 * k, 260 - 0.3 * k, 2 * k - 2) for k in range(4)]
    fr = _frame(cards, seed=4)
    t = fr.truth[0]
    assert 0.5 < t.visible < 0.8
    seen = Recogniser(Templates.from_deck(deck)).recognise(fr.image)
    near = [s for s in seen if np.hypot(*(s.corners.mean(0) - t.corners.mean(0))) < 15]
    assert near and near[0].code == "11C", [(s.code, s.identity.candidate) for s in near]
    assert not any(s.code not in (None, "11C") for s in seen)
