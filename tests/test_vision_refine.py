"""Sub-pixel corner refinement on the image edges, and reading a card from its visible part."""
import cv2
import numpy as np

from vision import detect, synth
from vision.geometry import Camera, long_side
from vision.identify import Identity, Templates, visibility_masks, visible_pixels
from vision.recognise import Recogniser, _Page, overlapped


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


def test_refine_edges_reads_the_same_from_the_bgr_frame_as_from_its_grey():
    """Only the part of the frame round the card is turned grey: the same profiles, so the same
    corners, as from the whole frame's grey, at the frame's edges too."""
    fr = _frame([synth.Placed("4C", True, 450, 250, 25), synth.Placed("7O", True, 20, 30, 10)])
    gray = cv2.cvtColor(fr.image, cv2.COLOR_BGR2GRAY)
    rng = np.random.default_rng(1)
    for t in fr.truth:
        for _ in range(3):
            off = t.corners.astype(np.float32) + rng.uniform(-4, 4, (4, 2)).astype(np.float32)
            assert np.array_equal(detect.refine_edges(fr.image, off), detect.refine_edges(gray, off))
    mx = rng.uniform(-30, 1300, (40, 20)).astype(np.float32)
    my = rng.uniform(-30, 750, (40, 20)).astype(np.float32)
    whole = cv2.remap(gray, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    assert np.array_equal(detect._remapped(fr.image, mx, my), whole.astype(np.float32))


def test_visibility_masks():
    cover = np.zeros((72, 48), np.uint8)
    cover[36:] = 1  # bottom half covered
    keep, corners = visibility_masks(cover)
    assert keep.reshape(4, 3)[:2].all() and not keep.reshape(4, 3)[2:].any()
    assert corners.tolist() == [True, False]
    cover[:] = 1
    assert visibility_masks(cover) is None


def _trump_under_the_stock():
    """The built-in deck, a frame of the 11 of copas half under a stock of four backs, its truth."""
    deck = synth.builtin(40)
    cards = [synth.Placed("11C", True, 300, 260, 92)] + [
        synth.Placed(None, False, 262 + 0.5 * k, 260 - 0.3 * k, 2 * k - 2) for k in range(4)]
    fr = _frame(cards, seed=4)
    return deck, fr, fr.truth[0]


def test_trump_half_under_the_stock_is_read():
    deck, fr, t = _trump_under_the_stock()
    assert 0.5 < t.visible < 0.8
    seen = Recogniser(Templates.from_deck(deck)).recognise(fr.image)
    near = [s for s in seen if np.hypot(*(s.corners.mean(0) - t.corners.mean(0))) < 15]
    assert near and near[0].code == "11C", [(s.code, s.identity.candidate) for s in near]
    assert not any(s.code not in (None, "11C") for s in seen)


def test_visible_pixels_keep_the_seen_rows_of_a_partly_covered_cell():
    cover = np.zeros((72, 48), np.uint8)
    cover[43:] = 1  # the bottom 40% covered: the third row of cells (50-75%) is partly seen
    px = visible_pixels(cover).reshape(4, 3, -1)  # cell rows, cell columns, pixels of a cell
    assert px[:2].all()  # the top half is seen
    assert not px[3].any()  # the bottom row of cells is hidden
    seen = px[2].reshape(3, 9, 8)  # the rows of grid pixels in the partly covered cells
    assert seen[:, :2].all() and not seen[:, 3:].any()  # seen above the cover, less a margin


def test_a_half_covered_card_compared_over_its_visible_pixels_either_way_round():
    deck = synth.builtin(40)
    t = Templates.from_deck(deck)
    cover = np.zeros((72, 48), np.uint8)
    cover[40:] = 1
    keep, corners = visibility_masks(cover)
    rect = t.rects["7E"]
    for turned in (False, True):
        img = cv2.rotate(rect, cv2.ROTATE_180) if turned else rect
        cov = cover[::-1, ::-1].copy() if turned else cover
        vis = visibility_masks(cov) + (visible_pixels(cov),)
        s, _ = t._query(img, 0, vis)
        o, best = np.unravel_index(int(np.argmax(s)), s.shape)
        assert t.codes[best] == "7E" and bool(o) == turned
        assert s[o, best] > 0.97


def test_a_trump_judged_to_lie_on_the_stock_is_read_as_the_card_below():
    deck, fr, t = _trump_under_the_stock()
    dets = detect.detect_cards(fr.image)
    k = min(range(len(dets)), key=lambda i: np.hypot(*(dets[i].corners.mean(0) - t.corners.mean(0))))
    partners = [False] * len(dets)
    overlapped(dets, partners=partners)
    assert partners[k]
    rec = Recogniser(Templates.from_deck(deck))
    unknown = Identity(None, True, 0.0, candidate="11C")
    page = _Page(fr.image)
    typical = float(np.median([long_side(d.corners) for d in dets]))
    ident, placed = rec._read_as_below(page, dets, k, typical, unknown, dets[k])
    assert ident.code == "11C" and ident.view == "masked"
