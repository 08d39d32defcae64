"""The recogniser's handling of overlapping cards: cover maps, and which card lies on top."""
import numpy as np
import pytest


def _overlapping_frame():
    """A built-in deck scene of the benchmark's kind with overlapping cards in it."""
    from vision import synth

    deck = synth.builtin(40)
    return synth.render_scene(synth.random_scene(np.random.default_rng(30028), deck), seed=28)


def test_a_cover_map_is_every_overlapping_cards_part_together():
    """`cover_maps` is the union of the parts each overlapping detection covers
    (`_Outlines.neighbour_maps`), and a card no other overlaps has none."""
    from vision import detect
    from vision.recognise import _Outlines, cover_maps, overlapped

    dets = detect.detect_cards(_overlapping_frame().image)
    covered = overlapped(dets)
    assert any(covered)
    maps = cover_maps(dets, [True] * len(dets))
    outlines = _Outlines(dets)
    for k, cover in enumerate(maps):
        parts = outlines.neighbour_maps(k)
        if not parts:
            assert cover is None
            continue
        union = np.zeros_like(parts[0][1])
        for j, one in parts:
            assert j != k and one.any() and set(np.unique(one)) <= {0, 1}
            union |= one
        assert np.array_equal(cover, union)


@pytest.mark.parametrize("name, seed, code", [("builtin-40", 30028, "11E"),
                                             ("naipes-libres", 30016, "5O"),
                                             ("fournier-1878", 60009, "10O")])
def test_a_covered_card_is_read_again_without_the_cards_it_lies_on(scene_reading, monkeypatch,
                                                                    name, seed, code):
    """Fresh-seed scenes: a card judged to lie under cards it in fact lies on (the detection
    scores order about a quarter of the overlapping pairs wrongly), its picture running into
    their parts, is left unknown; read again without the parts its own frame line runs on
    through (`ON_TOP_READ`), it is read."""
    from vision import recognise

    assert scene_reading(name, seed, code) == code
    monkeypatch.setattr(recognise, "ON_TOP_READ", False)
    assert scene_reading(name, seed, code) is None


def _two_cards(shadow: bool = True):
    """A dark cloth with two cards drawn on it, the second over the first's corner: each white,
    a dark picture in its middle, and the top one casting a soft shadow as a lamp makes it."""
    import cv2

    image = np.full((300, 400, 3), 60, np.uint8)
    below = np.array([[60, 50], [200, 50], [200, 260], [60, 260]], np.float64)
    top = np.array([[150, 120], [330, 90], [360, 270], [180, 290]], np.float64)
    for quad in (below, top):
        if shadow and quad is top:
            shade = np.zeros(image.shape[:2], np.uint8)
            cv2.fillConvexPoly(shade, np.int32(quad + 3), 255)
            shade = cv2.GaussianBlur(shade, (0, 0), 2) > 60
            image[shade] = (image[shade] * 0.7).astype(np.uint8)
        cv2.fillConvexPoly(image, np.int32(quad), (235, 235, 230))
        inner = quad.mean(axis=0) + (quad - quad.mean(axis=0)) * 0.75
        cv2.fillConvexPoly(image, np.int32(inner), (40, 70, 160))
    return image, top, below


def test_a_card_lies_on_another_whose_sides_it_hides():
    """`on_top.lies_on`: the card drawn last shows its sides across the other, whose sides it
    hides, so it lies on that one and not the other way round; two cards side by side, neither
    over the other, say nothing."""
    from vision import on_top

    image, top, below = _two_cards()
    assert on_top.lies_on(image, top, below)
    assert not on_top.lies_on(image, below, top)
    apart = below + (300, 0)
    assert not on_top.lies_on(image, below, apart) and not on_top.lies_on(image, apart, below)


def test_the_order_of_two_rendered_cards_from_their_sides():
    """A built-in deck scene (seed 30021): of two overlapping cards, the one laid last is said
    to lie on the other from the image along their sides, and not the other way round."""
    from vision import detect, on_top, synth
    from table.bench.vision import match

    frame = synth.render_scene(synth.random_scene(np.random.default_rng(30021), synth.builtin(40)),
                               seed=21)
    dets = detect.detect_cards(frame.image)
    pairs, _ = match(frame.truth, dets)
    truth_of = {j: i for i, j in pairs.items()}
    k, j = 1, 4
    assert truth_of[k] > truth_of[j]  # (card k was laid after card j: it lies on it)
    assert on_top.lies_on(frame.image, dets[k].corners, dets[j].corners)
    assert not on_top.lies_on(frame.image, dets[j].corners, dets[k].corners)


@pytest.mark.parametrize("name, seed, code", [("builtin-40", 30007, "11O"),
                                             ("fournier-1878", 60020, "1B"),
                                             ("naipes-libres", 60039, "4E")])
def test_a_covered_card_whose_sides_show_across_a_card_is_read_without_it(
        scene_reading, monkeypatch, name, seed, code):
    """Fresh-seed scenes: a card judged to lie under one it lies on, its frame line saying
    nothing there, whose sides show across that card while that card's sides do not across
    it (`on_top.lies_on`), is read again without that card's part (`ON_TOP_SIDES`)."""
    from vision import recognise

    assert scene_reading(name, seed, code) == code
    monkeypatch.setattr(recognise, "ON_TOP_SIDES", False)
    assert scene_reading(name, seed, code) is None


@pytest.mark.parametrize("name, seed, code", [("fournier-1878", 30050, "4B"),
                                             ("naipes-libres", 60015, "5O")])
def test_a_covered_card_still_unknown_is_read_as_the_looser_order_says(
        scene_reading, monkeypatch, name, seed, code):
    """Fresh-seed scenes: a covered card left unknown after the second look at which card lies
    on top (the line and the sides below `ON_TOP_LINE` and `on_top.SHOWN`) is read once more
    without the parts the looser `ON_TOP_LOOSE` says it lies on: read, and unknown without."""
    from vision import recognise

    assert scene_reading(name, seed, code) == code
    monkeypatch.setattr(recognise, "ON_TOP_LOOSE", None)
    assert scene_reading(name, seed, code) is None


def test_the_shares_of_sides_shown_are_what_lies_on_judges():
    """`both_shown` gives the two shares `lies_on` judges: the drawn card on top shows its sides
    (at least `SHOWN`), the one below hides them; thresholds passed in replace the module's."""
    from vision import on_top

    image, top, below = _two_cards()
    mine, theirs = on_top.both_shown(image, top, below)
    assert mine >= on_top.SHOWN and theirs <= on_top.HIDDEN
    assert on_top.lies_on(image, top, below, shown=mine, hidden=theirs)
    assert not on_top.lies_on(image, top, below, shown=min(mine + 0.01, 1.01), hidden=theirs)
