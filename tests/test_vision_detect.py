"""Detection under overlap (a trick), occlusion by a hand, stacks of backs, glare, small cards."""
import numpy as np

from vision import detect, synth
from vision.geometry import CARD_ASPECT, Camera, order_corners


def _scene(camera=None, hands=()):
    cards = [
        # the stock with the trump crosswise under it
        synth.Placed("7B", True, 260, 260, 95), synth.Placed(None, False, 230, 260, 0),
        synth.Placed(None, False, 231, 261, 2), synth.Placed(None, False, 229, 259, -1),
        # a trick of three overlapping cards
        synth.Placed("3C", True, 500, 230, 20), synth.Placed("12E", True, 540, 260, -35),
        synth.Placed("1O", True, 575, 225, 70),
        # loose cards
        synth.Placed("5E", True, 720, 150, 180), synth.Placed("4O", True, 730, 370, 10),
    ]
    camera = camera or Camera(height_mm=750, hfov_deg=66, pitch_deg=3, roll_deg=-2)
    nz = synth.Nuisances(light=(0.95, 0.2, -0.15), glare=(700, 300, 60, 90), blur=0.6, noise=3,
                         jpeg=85, hands=hands)
    return synth.render_scene(synth.Scene(cards, synth.builtin(40), camera,
                                          synth.TableSpec(cloth_seed=11), nz), seed=2)


def _matched(truth, dets, tol=10.0):
    c = truth.corners.mean(axis=0)
    return [d for d in dets if np.hypot(*(d.corners.mean(axis=0) - c)) < tol]


def test_overlapping_trick_and_stock():
    fr = _scene()
    dets = detect.detect_cards(fr.image)
    for t in fr.truth:
        if t.visible > 0.5:
            m = _matched(t, dets)
            assert m, f"missed {t.code} (visible {t.visible:.2f})"
            err = min(np.abs(np.roll(m[0].corners, k, 0) - order_corners(t.corners)).max() for k in (0, 2))
            if t.visible > 0.95:
                assert err < 8, (t.code, err)
    assert len(dets) <= sum(t.visible > 0.3 for t in fr.truth) + 1


def test_hand_over_the_trick():
    hand = synth.Hand(600, 300, 30.0, 170)
    fr = _scene(hands=(hand,))
    dets = detect.detect_cards(fr.image)
    seen = [t for t in fr.truth if t.visible > 0.7]
    found = [t for t in seen if _matched(t, dets)]
    assert len(found) >= len(seen) - 1
    # the hand itself is not a card: no detection centred on the palm
    from vision.geometry import apply_h

    palm = apply_h(fr.homography, [[600 + 0.55 * 170 * np.cos(np.pi / 6), 300 + 0.55 * 170 * np.sin(np.pi / 6)]])[0]
    assert not [d for d in dets if np.hypot(*(d.corners.mean(axis=0) - palm)) < 25]


def test_small_cards_far_camera():
    fr = _scene(camera=Camera(height_mm=900, hfov_deg=74))
    long_sides = [np.linalg.norm(t.corners[1] - t.corners[2]) for t in fr.truth]
    assert max(long_sides) < 100  # about the 90 px the brief asks for
    dets = detect.detect_cards(fr.image)
    top = [t for t in fr.truth if t.visible > 0.95]
    assert sum(bool(_matched(t, dets)) for t in top) >= len(top) - 1


def test_rectify_is_upright_portrait():
    fr = _scene()
    t = next(t for t in fr.truth if t.code == "4O")
    rect = detect.rectify(fr.image, t.corners)
    assert rect.shape == (detect.RECT_H, detect.RECT_W, 3)


def test_segment_corners_inside_a_blob():
    # a card lying on others has its corners inside the merged blob, not on its outline: they are
    # found where two long straight image edges meet at a right angle
    import cv2

    img = np.full((200, 260), 60, np.uint8)
    cv2.rectangle(img, (20, 20), (240, 180), 170, -1)
    ang = np.deg2rad(20)
    d1, d2 = np.array([np.cos(ang), np.sin(ang)]), np.array([-np.sin(ang), np.cos(ang)])
    c, long_, short = np.array([130.0, 100.0]), 90.0, 60.0
    card = np.array([c - d1 * short / 2 - d2 * long_ / 2, c + d1 * short / 2 - d2 * long_ / 2,
                     c + d1 * short / 2 + d2 * long_ / 2, c - d1 * short / 2 + d2 * long_ / 2])
    cv2.fillConvexPoly(img, np.round(card * 16).astype(np.int32), 240, shift=4)
    mask = (img > 100).astype(np.uint8) * 255
    contour = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0][0]
    found = detect._segment_corners(img, contour, short)
    near = [min(np.hypot(*(p[0] - k)) for p in found) for k in card]
    assert sum(n < 2.5 for n in near) >= 3, near


def test_size_check_rejects_a_skewed_quadrilateral():
    q = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], float)
    assert detect._size_ok(q, 90.0)
    skewed = q.copy()
    skewed[1] += [4, -9]  # one side fitted to a neighbouring card's edge
    assert not detect._size_ok(skewed, 90.0)


def test_a_rounded_corner_cut_by_one_long_chamfer_is_still_a_corner():
    # the polygon of a merged blob can cut a rounded card corner with one edge just long enough to
    # count as a side: the sides either side of it still meet at the card's corner
    poly = np.array([[0, 0], [60, 0], [60, 80], [52, 90], [0, 90]], float)  # chamfer of 12.8
    corners = [c[0] for c in detect._corners(poly, 12.0) if c[5] > 0]
    assert min(np.hypot(*(p - [60, 90])) for p in corners) < 1.0, corners



def _card_quad(cx, cy, angle_deg, long_=60.0, short=40.0):
    a = np.deg2rad(angle_deg)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    c = np.array([cx, cy])
    return np.array([c - u * short / 2 - v * long_ / 2, c + u * short / 2 - v * long_ / 2,
                     c + u * short / 2 + v * long_ / 2, c - u * short / 2 + v * long_ / 2])


def test_card_size_from_merged_blobs_when_no_card_lies_alone():
    # every card touches another, so the card size must come from the sides of the merged blobs;
    # the white squares of the four calibration markers must not outvote them
    import cv2

    mask = np.zeros((360, 640), np.uint8)
    for x, y in ((20, 20), (570, 30), (15, 290), (560, 300)):
        cv2.rectangle(mask, (x, y), (x + 44, y + 44), 255, -1)
    for cx, cy, ang in ((200, 150, 5), (560 - 380, 150 + 50, 95), (400, 200, -20), (445, 230, 65)):
        cv2.fillConvexPoly(mask, np.round(_card_quad(cx, cy, ang) * 16).astype(np.int32), 255, shift=4)
    contours = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]
    cleans = [detect._clean_quad(c) for c in contours]
    assert not any(cleans[i] for i in range(len(cleans)) if cv2.contourArea(contours[i]) > 2500)
    hint = detect._card_length_hint([None] * len(contours), contours, 35.0, 190.0)
    assert hint is not None and abs(hint / 60.0 - 1) < 0.05, hint


def test_a_card_with_both_ends_covered_is_found_from_its_sides():
    # two cards across both ends of a third hide all four of its corners: only its long sides
    # show on the outline of the merged blob
    cards = [synth.Placed("5C", True, 400, 300, 0), synth.Placed("12B", True, 400, 230, 90),
             synth.Placed("3O", True, 400, 372, 90)]
    camera = Camera(height_mm=750, hfov_deg=66, pitch_deg=3, roll_deg=-2)
    frame = synth.render_scene(synth.Scene(cards, synth.builtin(40), camera,
                                           synth.TableSpec(cloth_seed=5), synth.Nuisances()), seed=1)
    dets = detect.detect_cards(frame.image)
    assert len(dets) == 3
    for t in frame.truth:
        assert _matched(t, dets), t.code


def test_a_card_placed_wrongly_in_a_merged_blob_is_read_at_its_alternate(monkeypatch):
    # a fitting scene (seed 50109): in a blob of touching cards, a hypothesis spanning two cards
    # outscores the 10 of bastos's own and suppresses it. Kept as an alternate placement, it is
    # read when the wrong placement stays unknown.
    from vision.identify import Templates
    from vision.recognise import Recogniser

    deck = synth.builtin(40)
    fr = synth.render_scene(synth.random_scene(np.random.default_rng(50109), deck), seed=109)
    truth = fr.truth[5]
    assert truth.code == "10B"
    recogniser = Recogniser(Templates.from_deck(deck))

    def read_there():
        c = truth.corners.mean(axis=0)
        return [s.code for s in recogniser.recognise(fr.image)
                if np.hypot(*(s.corners.mean(axis=0) - c)) < 20]

    assert read_there() == ["10B"]
    monkeypatch.setattr(detect, "ALTERNATES", False)
    assert read_there() != ["10B"]


def test_detection_says_where_its_time_goes():
    """The stages a caller passes are filled with each step's milliseconds (a frame with a merged
    trick has all four steps), and counting them changes no detection."""
    from vision.timing import Stages

    frame = _scene()
    stages = Stages()
    timed = detect.detect_cards(frame.image, stages=stages)
    plain = detect.detect_cards(frame.image)
    assert set(stages) == {"mask", "lone cards", "blob hypotheses", "blob fits"}
    assert all(ms > 0 for ms in stages.values())
    assert [d.corners.tolist() for d in timed] == [d.corners.tolist() for d in plain]


def test_the_trump_under_the_stock_is_taken_where_it_explains_the_blob(monkeypatch):
    """Half its sides hidden under the stock, the trump's card scores a little under HYP_MIN at
    its two visible corners. It is taken there because it explains the part of the blob the
    stock leaves unexplained (a built-in scene of the fitting seeds, 50081)."""
    frame = synth.render_scene(synth.random_scene(np.random.default_rng(50081), synth.builtin(40)), seed=81)
    trump = next(t for t in frame.truth if t.code == "4O")
    centre, long_ = trump.corners.mean(axis=0), np.hypot(*(trump.corners[1] - trump.corners[2]))

    def found():
        return any(np.hypot(*(d.corners.mean(axis=0) - centre)) < 0.2 * long_
                   for d in detect.detect_cards(frame.image))

    assert found()
    monkeypatch.setattr(detect, "WEAK_HYPOTHESES", False)
    assert not found()


def test_the_trump_under_the_stock_is_as_long_as_its_width_says(monkeypatch):
    """The trump's hypothesis stays inside its blob when it is too short, so its hidden end came
    out 10 px short and the card, read with its pintas misplaced, stayed unknown. Its fitted
    sides measure the width; the hidden end is pushed out to match (a built-in scene of the
    check seeds, 70054: its 7 of espadas)."""
    deck = synth.builtin(40)
    frame = synth.render_scene(synth.random_scene(np.random.default_rng(70054), deck), seed=54)
    trump = next(t for t in frame.truth if t.code == "7E")

    def placed():
        dets = detect.detect_cards(frame.image)
        d = min(dets, key=lambda d: np.hypot(*(d.corners.mean(axis=0) - trump.corners.mean(axis=0))))
        return min(np.abs(np.roll(d.corners, k, 0) - order_corners(trump.corners)).max() for k in (0, 2))

    assert placed() < 6.0
    monkeypatch.setattr(detect, "HIDDEN_END", False)
    assert placed() > 9.0


def test_a_hidden_end_is_pushed_out_only_square_and_longer():
    """`_hidden_end` lengthens a card from the width of its end in view; a shorter card, or an
    end askew to the long sides (a side fitted to something else), is left to the hypothesis."""
    q = np.array([[0, 0], [60, 0], [60, 80], [0, 80]], float)  # top end seen, bottom end hidden
    out = detect._hidden_end(q, [True, True, False, True], 86.0)
    assert out is not None
    assert np.allclose(out[:2], q[:2]) and np.allclose(out[2:, 1], 60 * CARD_ASPECT)
    assert detect._hidden_end(q, [True, True, False, True], 95.0) is None  # width says shorter
    askew = q.copy()
    askew[1] = [60, 12]
    assert detect._hidden_end(askew, [True, True, False, True], 86.0) is None
    assert detect._hidden_end(q, [True, False, False, True], 86.0) is None  # two sides unfitted


def test_calibration_markers_are_not_split_into_cards():
    """A marker's blob (square, a third of it black) is no card; a square light blob (what a hand
    leaves of a card) still is looked at."""
    gray = np.full((200, 400), 60, np.uint8)
    gray[40:100, 40:100] = 255
    gray[50:90, 50:70] = 10  # the marker's black pattern
    gray[60:80, 75:90] = 10
    gray[40:100, 200:260] = 230  # a light square: part of a card
    contours = detect._card_sized(detect.foreground_mask(gray), 40.0)
    kinds = sorted((int(c.reshape(-1, 2)[:, 0].min()), detect._marker(c, gray)) for c in contours)
    assert [k for _, k in kinds] == [True, False]


def test_small_blobs_at_the_frame_edge_are_fragments():
    """A blob smaller than half a card is left alone at the frame's edge, looked at inside it."""
    square = np.array([[0, 0], [20, 0], [20, 20], [0, 20]], np.int32).reshape(-1, 1, 2)
    assert detect._edge_fragment(square, (360, 640), 40.0)
    assert not detect._edge_fragment(square + 100, (360, 640), 40.0)
    assert not detect._edge_fragment(square * 3, (360, 640), 40.0)  # bigger than half a card
