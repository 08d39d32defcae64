"""Find card quadrilaterals in an overhead frame and rectify them.

Cards are lighter than the cloth. A half-resolution foreground mask (relative to a local cloth level,
so lighting gradients do not matter) gives blobs. A blob that is one clean quadrilateral is one
card. Blobs of touching or overlapping cards, or cards merged with a hand, are split by hypothesising
a card of the known size at every right-angled corner of the blob outline and keeping the
hypotheses that the mask supports, one per card centre. Where part of a blob is still unexplained
(a card whose corners are all under other cards or a hand), a card is hypothesised at either end of
each long straight outline edge beside that part. A hand (`vision.hands`) is cut out of the mask
first, and the outline where it was is unknown: no side is fitted to it, no corner taken from it.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace
from typing import List, Optional

import cv2
import numpy as np

from vision import histogram
from vision.geometry import CARD_ASPECT, RECT_H, RECT_W, long_side, order_corners
from vision.hands import Hands, find_hands
from vision.timing import Stages, stages_or_none

WORK_SCALE = 0.5  # detection runs at half resolution
# switches, for measuring each change against the previous behaviour
SEGMENT_CORNERS = False  # blob parts no outline corner explains: corners of long straight image
# edges (finds about half the cards missed in merged blobs, but costs ~3 ms CPU per frame: off)
REFINED_SIZE = True  # card size from the refined sides of single cards, not the chamfered polygon
ONE_SCALE = True  # one card scale where the perspective size model agrees with the typical size
RECT_CHECK = True  # reject refined merged-blob quadrilaterals whose opposite sides differ
CHAMFER_EDGES = True  # pair the long edges either side of a short edge at a rounded corner
TRIM_FIT = True  # refit each side on the outline points near the first fit
LOCAL_MIN = 3  # single cards needed for the perspective size model
LOCAL_CLIP = 0.06  # the size model may stray this far from the typical card size
EDGE_HYPOTHESES = True  # cards along long straight outline edges, where no corner explains a blob part
EDGE_MIN = 0.7  # such an edge is at least this many card widths long (half a long side is 0.77)
EDGE_PENALTY = 0.05  # and its card scores a little less than one found at a right-angled corner
EDGE_UNEXPLAINED = 4  # its card has its centre, or this many of ten points over it, unexplained
SEGMENT_GATE = 0.5  # unexplained blob area (in cards) that starts the search for edge corners
SEGMENT_MAX = 12  # edge corners tried per blob
WEAK_HYPOTHESES = True  # a card scoring a little under HYP_MIN, where it explains an unexplained part
HYP_WEAK = 1.4  # ... at least this
WEAK_UNEXPLAINED = 4  # ... with its centre and this many of nine grid points unexplained
HIDDEN_END = True  # a merged-blob card with one short side unfitted: that end placed from its width
HIDDEN_END_TOL = 0.15  # ... when the card so made is at most this longer than it was
HIDDEN_END_SQUARE = 0.08  # ... and its end in view is square to its long sides: |cos| at most
# this (a card's corners in the frames of fitting seeds: 0.064 at most, perspective and all)
UNKNOWN = 2  # `_edge_planes`' outline plane where a hand lies
UNKNOWN_CREDIT = 0.65  # what a side point where a hand lies counts for in a hypothesis' side support
# (a hand rests on cards more often than beside them: 0.5 / 0.65 / 0.8 gave 64 / 59 / 60 failures)
HAND_SEEN = 0.5  # ... and a card hypothesised where a hand lies shows this much of itself
HAND_COVER = 0.02  # a card a hand covers this much of is read as partly covered
HAND_SLIDE = True  # an edge that runs under a hand: cards with their corner under it too
SLIDE_STEPS = (0.25, 0.5, 0.75, 1.0)  # ... that far on, in parts of the length the edge lacks
COVER_SIZE = (48, 72)  # width, height of the maps of what covers a card (hands here, cards in `recognise`)
MARKERS = True  # calibration markers' blobs are not split into cards (`_marker`)
MARKER_BLACK = 60  # a marker's black: grey levels under this (its pattern is 36-41% of it)
MARKER_DARK = 0.25  # ... a blob this much black
EDGE_FRAGMENTS = True  # small blobs at the frame's edge are not split into cards (`_edge_fragment`)
EDGE_FRAGMENT = 0.5  # ... smaller than this many cards' area
HANDS = True  # a hand's outline is unknown to the side fits and corners (`vision.hands`)
HYP_MIN = 1.5  # a card hypothesis needs mask support plus side support above this
ALTERNATES = True  # a corner's card turned the other way, when the blob supports it nearly as well
ALTERNATE_GAP = 0.25  # ... within this of the best: read if the best placement stays unknown
# (and a hypothesis that a better one suppressed, near its centre but placed differently)
_HALF = 0.5  # pixel-centre offset between the half-resolution grid and the full one
_NEXT = [1, 2, 3, 0]  # each corner's neighbour (np.roll costs ~10 us on a 4x2 array, here per hypothesis)


@dataclass
class Detection:
    corners: np.ndarray  # 4x2 float32 full-resolution image pixels, portrait order (TL TR BR BL)
    score: float  # how well the mask supports the quadrilateral, 0..1
    alternates: tuple = ()  # other placements the blob supported nearly as well (`ALTERNATES`)
    hand: Optional[np.ndarray] = None  # where a hand lies over the card, if one does: a map over
    # its rectified image (COVER_SIZE, 1 = hand), like `recognise.cover_maps`' maps of other cards
    alternate_hands: tuple = ()  # the same for each of `alternates` (None where no hand lies)


def _centre(quad: np.ndarray) -> np.ndarray:
    """A quadrilateral's corner mean: the same sum as ``quad.mean(axis=0)`` without numpy's
    per-call overhead (it runs some 200 times a frame)."""
    return (quad[0] + quad[1] + quad[2] + quad[3]) * 0.25


def foreground_mask(gray: np.ndarray) -> np.ndarray:
    """Pixels of a grey frame clearly lighter than the local cloth level."""
    h, w = gray.shape
    tiny = cv2.resize(gray, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    # closing lifts the cloth level to its light pattern parts; opening then removes the cards
    cloth = cv2.morphologyEx(tiny, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    cloth = cv2.morphologyEx(cloth, cv2.MORPH_OPEN, np.ones((41, 41), np.uint8))
    cloth = cv2.blur(cloth, (9, 9))
    # where cards crowd the frame the opening keeps card level: cap it by the dark class (Otsu)
    t, _ = cv2.threshold(tiny, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    dark = _dark_level(tiny, t)
    if dark is not None:
        cloth = np.minimum(cloth, np.uint8(min(255, dark + 10)))
    cloth = cv2.resize(cloth, (w, h), interpolation=cv2.INTER_LINEAR)
    diff = cv2.subtract(gray, cloth)
    _, mask = cv2.threshold(diff, 40, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    # fill holes (a card's own dark artwork or back pattern), then drop specks
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    mask[:] = 0
    cv2.drawContours(mask, [c for c in contours if cv2.contourArea(c) > 40], -1, 255, -1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return mask


def _dark_level(tiny: np.ndarray, t: float) -> Optional[float]:
    """The 90th percentile of the uint8 pixels at most ``t`` (None if there are none), read off
    their histogram (`histogram.percentile`: np.percentile's own numbers; its selection over the
    pixels took a millisecond a frame)."""
    hist = cv2.calcHist([tiny], [0], None, [256], [0, 256]).ravel()
    cum = np.cumsum(hist[:int(math.floor(t)) + 1]).astype(np.int64)
    if not len(cum) or not cum[-1]:
        return None
    return histogram.percentile(cum, 90)


def _line_intersection(p1, d1, p2, d2) -> Optional[np.ndarray]:
    det = d1[1] * d2[0] - d1[0] * d2[1]
    if abs(det) < 1e-6:
        return None
    r = p2 - p1
    t = (r[1] * d2[0] - r[0] * d2[1]) / det
    return p1 + t * d1


def _edge_arrays(poly: np.ndarray, min_len: float):
    """The straight edges of a closed polygon at least min_len long, as arrays: (their indices,
    starts, ends, directions, lengths). Worked out for all edges at once (a merged blob's polygon
    has dozens)."""
    n = len(poly)
    d = np.empty_like(poly)
    d[:-1] = poly[1:] - poly[:-1]
    d[-1] = poly[0] - poly[-1]
    lns = np.hypot(d[:, 0], d[:, 1])
    long_ = np.flatnonzero(lns >= min_len)
    return long_, poly[long_], poly[(long_ + 1) % n], d[long_] / lns[long_, None], lns[long_]


def _corners(poly: np.ndarray, min_len: float):
    """Right-angled convex corners between consecutive long edges (allowing a short chamfer
    between them, which is how a rounded card corner looks): (point, dir_a, len_a, dir_b, len_b),
    with dir_a/dir_b pointing away from the corner along the two edges. The edges' numbers are
    taken out as Python floats for the pair tests (numpy's per-call cost on 2-vectors was most of
    the time: some twenty pairs a blob); the same operations in the same order, and the
    directions come out as tuples. (np.dot of two 2-vectors is their plain sum of products: the
    same on 200 000 random pairs.)"""
    n = len(poly)
    idx, starts, ends, dirs, lens = (a.tolist() for a in _edge_arrays(poly, min_len))
    m = len(idx)
    out = []
    area_sign = np.sign(cv2.contourArea(poly.astype(np.float32), oriented=True)) or 1.0
    pairs = [(k, (k + 1) % m) for k in range(m)]
    if CHAMFER_EDGES and m >= 4:
        # a rounded corner can come out of the polygon approximation as one edge just long
        # enough to count: pair the edges either side of it too
        pairs += [(k, (k + 2) % m) for k in range(m)]
    for k, k2 in pairs:
        i, j = idx[k], idx[k2]
        gap = (j - i) % n
        if gap < 1 or gap > 3 or m < 2:
            continue
        l1, l2 = lens[k], lens[k2]
        (ax, ay), (bx, by) = starts[k2], ends[k]  # the second edge's start, the first's end
        if gap > 1 and np.hypot(ax - bx, ay - by) > max(0.35 * min(l1, l2), 6, min_len):
            continue
        (d1x, d1y), (d2x, d2y) = dirs[k], dirs[k2]
        if abs(d1x * d2x + d1y * d2y) > 0.26:  # not within ~15 degrees of a right angle
            continue
        turn = d1x * d2y - d1y * d2x
        p = _meet(tuple(starts[k]) + (d1x, d1y), (ax, ay, d2x, d2y))
        if p is None:
            continue
        out.append((np.array(p), (-d1x, -d1y), l1, (d2x, d2y), l2, turn * area_sign))
    return out


def _quad_supports(mask: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Fraction of each quadrilateral (k, 4, 2) inside the foreground mask, 0 for one that runs off
    the frame. Each is filled exactly as drawn (cv2.fillConvexPoly over its bounding box); the
    boxes and the integer corners are worked out for all at once, since numpy's per-call overhead
    on four points was most of the time of one."""
    out = np.zeros(len(quads))
    if not len(quads):
        return out
    lo, hi = quads.min(axis=1), quads.max(axis=1)
    x0s, y0s = np.floor(lo[:, 0]).astype(int), np.floor(lo[:, 1]).astype(int)
    x1s, y1s = np.ceil(hi[:, 0]).astype(int) + 1, np.ceil(hi[:, 1]).astype(int) + 1
    h, w = mask.shape
    ok = (x0s >= -2) & (y0s >= -2) & (x1s <= w + 2) & (y1s <= h + 2)
    x0s, y0s = np.maximum(x0s, 0), np.maximum(y0s, 0)
    x1s, y1s = np.minimum(x1s, w), np.minimum(y1s, h)
    pts = np.rint(quads - np.stack([x0s, y0s], axis=1)[:, None, :]).astype(np.int32)
    for k in np.nonzero(ok)[0].tolist():
        roi = mask[y0s[k]:y1s[k], x0s[k]:x1s[k]]
        poly = np.zeros(roi.shape, np.uint8)
        cv2.fillConvexPoly(poly, pts[k], 255)
        area = cv2.countNonZero(poly)
        if area:
            # the filled 255s where the mask is set, summed: exactly 255 times the pixels of
            # both, in a third of the time of cv2.bitwise_and and cv2.countNonZero
            out[k] = cv2.norm(poly, cv2.NORM_L1, mask=roi) / 255 / area
    return out


def _clean_quad(contour: np.ndarray):
    """The contour as a single card, if it is one: convex, four sides, card aspect ratio."""
    area = cv2.contourArea(contour)
    hull = cv2.convexHull(contour)
    harea = cv2.contourArea(hull)
    if harea <= 0 or area / harea < 0.93:
        return None
    peri = cv2.arcLength(hull, True)
    approx = cv2.approxPolyDP(hull, 0.02 * peri, True).reshape(-1, 2).astype(np.float64)
    if len(approx) == 4:
        quad = approx
    else:
        rect = cv2.minAreaRect(hull)
        quad = cv2.boxPoints(rect).astype(np.float64)
        if area / max(rect[1][0] * rect[1][1], 1) < 0.9:
            return None
    q = order_corners(quad)
    short = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[2])) / 2
    long_ = (np.linalg.norm(q[2] - q[1]) + np.linalg.norm(q[0] - q[3])) / 2
    if short <= 0 or not (1.3 < long_ / short < 1.8):
        return None
    return q, long_


_T10 = np.linspace(0.1, 0.9, 10)
_LEFT = np.array([-1.0, 1.0])  # (dx, dy)[::-1] * _LEFT = (-dy, dx), the normal of a side
_OFFS = np.array([0.0, 1.5, 2.5, -2.0, -3.5, -5.0])


def _side_supports(edges: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """For each quadrilateral (k, 4, 2): the fraction of points along its four sides that lie on
    the blob outline or on an edge where the card is lighter than a band just outside it (cloth,
    or the shadow a top card casts). A frame line printed inside a card has light card beyond it,
    so it does not count. ``edges``: near the blob outline or not, and the grey level, as flat
    planes (`_edge_planes`), read for every quadrilateral at once."""
    d = quads[:, _NEXT] - quads
    n = d[..., ::-1] * _LEFT / (np.hypot(d[..., 0], d[..., 1])[..., None] + 1e-9)
    c = ((quads[:, 0] + quads[:, 1] + quads[:, 2] + quads[:, 3]) * 0.25)[:, None, :] - quads
    n[c[..., 0] * n[..., 0] + c[..., 1] * n[..., 1] < 0] *= -1  # normals point into the card
    p = quads[:, :, None, :] + _T10[None, None, :, None] * d[:, :, None, :]  # (k, 4, 10, 2)
    # the nearest pixel of each point (k, offset, side, point), x and y made apart: the same sums
    # as on (..., 2) points; then gathered from the flat planes by flat index, the outline at
    # the first offset and the grey level at the others (indexing (h, w) planes with two index
    # arrays took four times as long)
    near, grey, (h, w) = edges
    ij = []
    for c_, size in ((0, w), (1, h)):
        q = p[:, None, :, :, c_] + _OFFS[None, :, None, None] * n[:, None, :, None, c_]
        # np.minimum/np.maximum: the same as np.clip without its per-call overhead (a hot path)
        ij.append(np.minimum(np.maximum((q + 0.5).astype(np.int32), 0), size - 1))
    flat = ij[1] * w + ij[0]
    at = near[flat[:, 0]]
    on_outline = at == 1
    g = grey[flat[:, 1:]].astype(np.float32)
    inside = (g[:, 0] + g[:, 1]) * 0.5
    outside = (g[:, 2] + g[:, 3] + g[:, 4]) / 3.0
    hits = on_outline | ((inside - outside) > 18)
    unknown = at == UNKNOWN
    if not unknown.any():
        return np.count_nonzero(hits, axis=(1, 2)) / (4 * len(_T10))
    # where a hand lies nothing is known: such a point counts as part of a hit (UNKNOWN_CREDIT), so
    # a side under the fingers is taken neither for a side that is not there nor for one seen
    # (counted over the points seen alone, cards laid over a hand won over cards beside it)
    n_unknown = np.count_nonzero(unknown, axis=(1, 2))
    return (np.count_nonzero(hits & ~unknown, axis=(1, 2)) + UNKNOWN_CREDIT * n_unknown) / (4 * len(_T10))


def _edge_planes(near_outline: np.ndarray, gray_u8: np.ndarray) -> tuple:
    """What `_side_supports` reads: 1 within 1.5 px of the blob outline, and the grey level, as
    flat uint8 views, and their (h, w). Each is gathered from apart: interleaving the two with
    cv2.merge cost 1.3 ms a frame (most of it faulting in fresh memory), a float32 np.dstack 3."""
    return near_outline.reshape(-1), gray_u8.reshape(-1), near_outline.shape


def _corner_hypotheses(corners, mask, long_px, edges, scales, centre_in_mask=True,
                       hands: Optional[Hands] = None) -> list:
    """For each corner (p, da, la, db, lb): the best-supported card of the known size with a corner
    at p and sides along da and db (unit vectors pointing away from the corner; la, lb: how far
    each side is seen), as (score, quad, the best (score, quad) turned the other way or None), or
    None. ``centre_in_mask``: also require the card's centre on the blob (corners found from image
    edges inside a blob need it; corners of the blob outline do not). The other turn is kept for
    `_alternate`: side support can favour a wrong turn when the card's sides run over other cards.
    Every corner's cards (scales, both turns) are placed and scored in one go."""
    if not corners:
        return []
    short_px = long_px / CARD_ASPECT
    order = sorted(scales, key=lambda v: abs(v - 1.0))
    p = np.array([c[0] for c in corners], np.float64)[:, None, None, :]
    da = np.array([c[1] for c in corners], np.float64)[:, None, None, :]
    db = np.array([c[3] for c in corners], np.float64)[:, None, None, :]
    la = np.array([c[2] for c in corners], np.float64)[:, None, None]
    lb = np.array([c[4] for c in corners], np.float64)[:, None, None]
    sc = np.array(order, np.float64)
    # (corner, scale, turn): the side along da is the long one (turn 0) or the short one
    ua = np.stack([long_px * sc, short_px * sc], axis=1)[None]
    ub = np.stack([short_px * sc, long_px * sc], axis=1)[None]
    ok = ~((la > ua * 1.12) | (lb > ub * 1.12))
    a = p + da * ua[..., None]
    b = db * ub[..., None]
    # (corner, scale, turn, corner of the card, 2), filled in place (np.stack of the broadcast
    # arrays copied them twice)
    quads = np.empty(a.shape[:3] + (4, 2))
    quads[:, :, :, 0] = p
    quads[:, :, :, 1] = a
    quads[:, :, :, 2] = a + b
    quads[:, :, :, 3] = p + b
    if centre_in_mask:
        h, w = mask.shape
        cx, cy = np.moveaxis(p + (da * ua[..., None] + db * ub[..., None]) * 0.5, -1, 0)
        on = (cx >= 0) & (cx < w) & (cy >= 0) & (cy < h)
        ok &= on
        ok[on] &= mask[cy[on].astype(int), cx[on].astype(int)] > 0
    inside = np.zeros(ok.shape)
    inside[ok] = _quad_supports(mask, quads[ok])
    ok &= inside >= 0.9
    if hands is not None and ok.any():
        # a card under a hand shows at least half of itself: less is a hand (or an arm over a
        # calibration marker), not a card
        seen = np.zeros(ok.shape)
        seen[ok] = _quad_supports(hands.cut, quads[ok])
        ok &= seen >= HAND_SEEN
    score = np.full(ok.shape, -np.inf)
    penalty = np.abs(sc - 1.0)[np.nonzero(ok)[1]]  # each kept card's scale's
    score[ok] = inside[ok] + _side_supports(edges, quads[ok]) - penalty
    out = []
    for i in range(len(corners)):
        best, best_turn = None, 0
        turned = [None, None]  # the best of each orientation
        for j, s_ in enumerate(order):
            # another scale pays its distance from 1 and scores at most 2: it cannot win
            if best is not None and best[0] >= 2.0 - abs(s_ - 1.0):
                break
            for o in (0, 1):
                if not ok[i, j, o]:
                    continue
                s = float(score[i, j, o])
                if best is None or s > best[0]:
                    best, best_turn = (s, quads[i, j, o]), o
                if turned[o] is None or s > turned[o][0]:
                    turned[o] = (s, quads[i, j, o])
        out.append(None if best is None else (best[0], best[1], turned[1 - best_turn]))
    return out


def _apart(a: np.ndarray, b: np.ndarray, dist: float) -> bool:
    """Whether some corner of quadrilateral a is further than `dist` from every corner of b."""
    d = a[:, None, :] - b[None, :, :]
    return float((d * d).sum(axis=2).min(axis=1).max()) > dist * dist


def _alternate(best) -> Optional[np.ndarray]:
    """The other orientation's card of a `_corner_hypotheses` entry, if nearly as well supported."""
    if not ALTERNATES or best[2] is None:
        return None
    s, quad = best[2]
    return quad if s > HYP_MIN and s >= best[0] - ALTERNATE_GAP else None


def _segment_corners(gray_u8: np.ndarray, contour: np.ndarray, short_px: float, where=None):
    """Right-angled corners where two long straight image edges meet, inside a merged blob as well
    as on its outline (the corner of a top card lying on another card is not on the blob outline):
    (point, dir_a, len_a, dir_b, len_b) with the directions pointing away from the corner."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = 3
    H, W = gray_u8.shape
    x0, y0, x1, y1 = max(x - pad, 0), max(y - pad, 0), min(x + w + pad, W), min(y + h + pad, H)
    r = max(3, int(0.25 * short_px))
    if where is not None:  # only the box around that part of the blob, plus a margin
        bx, by, bw, bh = cv2.boundingRect(where)
        x0, y0 = max(x0, x + bx - r - 1), max(y0, y + by - r - 1)
        x1, y1 = min(x1, x + bx + bw + r + 1), min(y1, y + by + bh + r + 1)
    roi = gray_u8[y0:y1, x0:x1]
    blob = np.zeros(roi.shape, np.uint8)
    cv2.drawContours(blob, [contour - np.array([x0, y0], np.int32)], -1, 255, -1)
    blob = cv2.dilate(blob, np.ones((5, 5), np.uint8))
    if where is not None:  # only edges near that part of the blob (`where` is in the blob's box)
        near = np.zeros((y1 - y0 + 2 * h, x1 - x0 + 2 * w), np.uint8)
        near[y - y0 + h:y - y0 + 2 * h, x - x0 + w:x - x0 + 2 * w] = where
        near = near[h:h + y1 - y0, w:w + x1 - x0]
        blob &= cv2.dilate(near, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
    edges = cv2.Canny(roi, 50, 120)
    edges &= blob
    segs = cv2.HoughLinesP(edges, 1, np.pi / 180, threshold=max(8, int(0.3 * short_px)),
                           minLineLength=0.35 * short_px, maxLineGap=3)
    if segs is None or len(segs) < 2:
        return []
    segs = segs.reshape(-1, 4).astype(np.float64)[:60]
    a = segs[:, :2] + [x0, y0]
    b = segs[:, 2:] + [x0, y0]
    d = b - a
    ln = np.hypot(d[:, 0], d[:, 1]) + 1e-9
    d /= ln[:, None]
    tol = max(3.0, 0.12 * short_px)
    out = []
    dots = np.abs(d @ d.T)
    ii, jj = np.nonzero(np.triu(dots < 0.12, 1))
    for i, j in zip(ii, jj):
        p = _line_intersection(a[i], d[i], a[j], d[j])
        if p is None:
            continue
        dirs = []
        for k in (i, j):
            t = float((p - a[k]) @ d[k])
            if -tol <= t <= tol:
                dirs.append((d[k], ln[k] - t))
            elif ln[k] - tol <= t <= ln[k] + tol:
                dirs.append((-d[k], t))
            else:
                break
        if len(dirs) != 2:
            continue
        (da, la), (db, lb) = dirs
        # Hough finds an edge several times over: one corner per place and pair of directions
        if any(np.hypot(*(p - o[0])) < tol and da @ o[1] + db @ o[3] > 1.9 for o in out):
            continue
        out.append((p, da, la, db, lb))
    return out


def _hypotheses(contour: np.ndarray, mask: np.ndarray, long_px: float, edges,
                scales=(0.94, 1.0, 1.06), floor: float = None, hands: Optional[Hands] = None):
    """Card quadrilaterals hypothesised at the blob's right-angled corners: both orientations and
    three scales (perspective), scored by mask coverage plus side support (at least ``floor``,
    HYP_MIN unless given)."""
    poly = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2).astype(np.float64)
    short_px = long_px / CARD_ASPECT
    corners = [c[:5] for c in _corners(poly, max(6.0, short_px * 0.18)) if c[5] > 0]
    if hands is not None and corners:  # a corner where the hand was is a fingertip's or a notch's
        covered = hands.at(np.array([c[0] for c in corners])).tolist()
        corners = [c for c, no in zip(corners, covered) if not no]
    return [(best[0] - 1.0, best[1], _alternate(best))
            for best in _corner_hypotheses(corners, mask, long_px, edges, scales, False, hands)
            if best is not None and best[0] > (HYP_MIN if floor is None else floor)]


def _edge_hypotheses(contour, mask, long_px, edges, scales, unexplained, origin,
                     hands: Optional[Hands] = None):
    """Cards hypothesised along the long straight edges of the blob outline that run beside the
    part no other hypothesis explains: the card lies on the blob's side of the edge, with a corner
    at either end of it, and is scored like a corner hypothesis. Every edge is tested at once."""
    poly = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2).astype(np.float64)
    short_px = long_px / CARD_ASPECT
    origin = np.asarray(origin, np.float64)
    _, a, b, d, lns = _edge_arrays(poly, EDGE_MIN * short_px)
    mid = (a + b) / 2
    n = _inward(d, mid, mask)
    beside = _lookup(unexplained, (mid + 0.25 * short_px * n - origin).astype(int))
    if hands is not None:
        beside &= ~hands.at(mid)  # the hand's edge
    ends, dirs, owner = _edge_ends(a, b, d, lns, np.flatnonzero(beside), long_px, short_px, hands)
    if not len(owner):
        return []
    sizes = np.array([[long_px, short_px], [short_px, long_px]])
    # (end, orientation, point): a 3 x 3 grid over each card, then its centre
    along = dirs[:, None, None, :] * (sizes[:, 0, None] * _FA)[None, :, :, None]
    across = n[owner][:, None, None, :] * (sizes[:, 1, None] * _FB)[None, :, :, None]
    pts = (ends[:, None, None, :] + along + across).astype(int)
    on = _lookup(mask, pts[:, :, :9]).all(axis=2)
    # a card lying on an explained one can have its centre inside that one's outline (its
    # hidden part, placed from the typical size): then a good part of the card will do
    free = _lookup(unexplained, pts - origin.astype(int))
    on &= free[:, :, 9] | (free.sum(axis=2) >= EDGE_UNEXPLAINED)
    on &= lns[owner][:, None] <= sizes[:, 0] * 1.12
    # only where the card would lie on the blob and in the unexplained part
    tried = [(ends[e], dirs[e], float(lns[owner[e]]), n[owner[e]], 0.0)
             for e in np.flatnonzero(on.any(axis=1)).tolist()]
    return [(best[0] - 1.0 - EDGE_PENALTY, best[1], None)
            for best in _corner_hypotheses(tried, mask, long_px, edges, scales, True, hands)
            if best is not None and best[0] > HYP_MIN]


def _inward(d: np.ndarray, mid: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Each edge's normal (edges along d, with middles mid) towards the blob: the left one, turned
    where the mask 3 px along it is unset or off the frame."""
    n = np.stack([-d[:, 1], d[:, 0]], axis=1)
    probe = mid + 3 * n
    h, w = mask.shape
    px, py = probe[:, 0], probe[:, 1]
    on = (px >= 0) & (px < w) & (py >= 0) & (py < h)
    on[on] = mask[py[on].astype(int), px[on].astype(int)] > 0
    n[~on] *= -1
    return n


def _edge_ends(a, b, d, lns, which, long_px: float, short_px: float, hands: Optional[Hands]):
    """The corners tried along edges ``which`` (from a to b, along d, lns long): both ends, in
    order, as (points, directions away from them, the edge of each). An edge that runs on under a
    hand has its card's corner not at its end but further on (`HAND_SLIDE`)."""
    ends, dirs, owner = [], [], []
    slid_a = slid_b = np.zeros(len(a), bool)
    if hands is not None and HAND_SLIDE:
        slid_a, slid_b = hands.at(a - 2.0 * d), hands.at(b + 2.0 * d)
    for k in which:
        ln = float(lns[k])
        for p, u, slid in ((a[k], d[k], slid_a[k]), (b[k], -d[k], slid_b[k])):
            if not slid:
                ends.append(p)
                dirs.append(u)
                owner.append(k)
                continue
            for size in (long_px, short_px):
                for f in SLIDE_STEPS:
                    if (size - ln) * f > 2.0:
                        ends.append(p - u * (size - ln) * f)
                        dirs.append(u)
                        owner.append(k)
    return np.array(ends), np.array(dirs), np.array(owner, int)


_FA = np.array([0.15, 0.15, 0.15, 0.5, 0.5, 0.5, 0.85, 0.85, 0.85, 0.5])  # a 3 x 3 grid, then the centre
_FB = np.array([0.15, 0.5, 0.85, 0.15, 0.5, 0.85, 0.15, 0.5, 0.85, 0.5])


def _inside(m: np.ndarray, p) -> bool:
    x, y = int(p[0]), int(p[1])
    return 0 <= x < m.shape[1] and 0 <= y < m.shape[0] and bool(m[y, x])


def _lookup(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """m at integer points (..., 2) as x, y; False outside."""
    x, y = pts[..., 0], pts[..., 1]
    ok = (x >= 0) & (x < m.shape[1]) & (y >= 0) & (y < m.shape[0])
    out = np.zeros(x.shape, bool)
    out[ok] = m[y[ok], x[ok]] > 0
    return out


_SNAP_OFFS = np.array([1.0, 2.0, -1.5, -3.0, -4.5])  # two inside the side, three outside
_T12 = np.linspace(0.15, 0.85, 12)  # where along the side the profiles are read


def _snap_side(gray: np.ndarray, a, b, centre) -> np.ndarray:
    """A side that is not on the blob outline (it crosses another card) moved along its normal to
    the strongest light-inside / darker-outside edge nearby; returns a point on the new line."""
    ab = b - a
    d = ab / (np.hypot(*ab) + 1e-9)
    n = np.array([-d[1], d[0]])
    if np.dot(centre - a, n) < 0:
        n = -n
    rng = max(3.0, 0.07 * float(np.hypot(*ab)) * CARD_ASPECT)
    shifts = np.arange(-rng, rng + 0.01, 0.5)
    h, w = gray.shape

    # the five profiles across the side (offset, shift, place along it), read in one gather from
    # the flat image; x and y are made apart, each the same sums as on (..., 2) points, without
    # picking every other number out of those afterwards
    at = []
    for c, size in ((0, w), (1, h)):
        base = a[c] + _T12[None, :] * ab[c] + shifts[:, None] * n[c]
        q = np.rint(base[None] + _SNAP_OFFS[:, None, None] * n[c]).astype(int)
        at.append(np.minimum(np.maximum(q, 0), size - 1))
    g = gray.reshape(-1)[at[1] * w + at[0]].astype(np.float32)
    step = (g[0] + g[1]) * 0.5 - (g[2] + g[3] + g[4]) / 3.0  # inside less outside
    np.maximum(step, -40, out=step)
    np.minimum(step, 40, out=step)
    # step.mean(axis=1) as numpy makes it (sum, then divided by the count as an intp), without
    # the Python layer of np.mean
    resp = np.add.reduce(step, axis=1)
    np.true_divide(resp, np.intp(step.shape[1]), out=resp, casting="unsafe")
    k = int(np.argmax(resp))
    return a + n * shifts[k] if resp[k] > 12 else a


def _fit_line(pts: np.ndarray, fits: Optional[dict]):
    """cv2.fitLine (Huber) of float32 points as (x0, y0, vx, vy), looked up in ``fits`` if these
    very points were fitted before: a card's second `_refine` often selects the same points along
    a side as its first (a seventh of the fits of a frame), and the fit depends on them alone."""
    key = pts.tobytes() if fits is not None else None
    line = fits.get(key) if fits is not None else None
    if line is None:
        vx, vy, x0, y0 = cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        line = (x0, y0, vx, vy)
        if fits is not None:
            fits[key] = line
    return line


def _meet(l1: tuple, l2: tuple):
    """`_line_intersection` of two lines given as (x, y, dx, dy) scalars: the same operations, in
    the same order and the same types, on scalars rather than 2-vectors (numpy's per-call cost on
    a 2-vector was most of the time of one, four times a `_refine`)."""
    x1, y1, dx1, dy1 = l1
    x2, y2, dx2, dy2 = l2
    det = dy1 * dx2 - dx1 * dy2
    if abs(det) < 1e-6:
        return None
    rx, ry = x2 - x1, y2 - y1
    t = (ry * dx2 - rx * dy2) / det
    return x1 + t * dx1, y1 + t * dy1


def _refine(quad: np.ndarray, pts: np.ndarray, tol: float = 2.5, gray=None,
            supported: Optional[list] = None, fits: Optional[dict] = None) -> np.ndarray:
    """Fit a straight line to the outline points along each side and intersect neighbours: the
    true corner of a rounded card is where its straight edges meet. Sides without support (hidden
    under another card or a hand) keep their line. ``supported``, if given, gets per side whether
    outline points placed it. ``fits``: `_fit_line`'s lookup, shared by the refinements of one
    card."""
    lines = []
    # only outline points near the quadrilateral matter (a merged blob's outline is long)
    lo, hi = quad.min(axis=0) - tol, quad.max(axis=0) + tol
    x, y = pts[:, 0], pts[:, 1]  # by column: half the time of comparing the pairs
    pts = pts[(x >= lo[0]) & (x <= hi[0]) & (y >= lo[1]) & (y <= hi[1])]
    # every side at once: position along it (t) and distance from it, for every point
    dv = quad[_NEXT] - quad
    lns = np.hypot(dv[:, 0], dv[:, 1])
    lns[lns == 0] = 1.0
    dv = dv / lns[:, None]
    nv = dv[:, ::-1] * _LEFT  # (-dy, dx)
    ts = pts @ dv.T - (quad * dv).sum(axis=1)
    dists = pts @ nv.T - (quad * nv).sum(axis=1)
    near = (np.abs(dists) < tol) & (ts > 0.15 * lns) & (ts < 0.85 * lns)
    # the lines as scalars for `_meet`: Python floats for a float64 quadrilateral; numpy scalars
    # of the arrays' own types otherwise, so that a float32 quadrilateral's unsupported sides
    # meet in float32 arithmetic, as the 2-vectors did
    exact = quad.dtype != np.float64
    f64 = np.float64 if exact else float
    for i in range(4):
        ln = float(lns[i])
        sel = pts[near[:, i]]
        enough = len(sel) >= max(6, 0.25 * ln)
        if supported is not None:
            supported.append(enough)
        if enough:
            x0, y0, vx, vy = _fit_line(sel.astype(np.float32), fits)
            if TRIM_FIT:
                # points of a neighbouring card's outline pull the fit: refit on the points near it
                res = np.abs((sel[:, 0] - x0) * vy - (sel[:, 1] - y0) * vx)
                close = sel[res < 1.5]
                if len(close) >= max(6, 0.25 * ln) and len(close) < len(sel):
                    x0, y0, vx, vy = _fit_line(close.astype(np.float32), fits)
            lines.append((f64(x0), f64(y0), f64(vx), f64(vy)))
        else:
            a = _snap_side(gray, quad[i], quad[(i + 1) % 4], _centre(quad)) if gray is not None \
                else quad[i]
            lines.append(tuple(a) + tuple(dv[i]) if exact else tuple(a.tolist()) + tuple(dv[i].tolist()))
    out = []
    limit = 0.2 * float(lns[0]) + 4  # a corner that moves further is a bad fit: keep the quad
    for i in range(4):
        p = _meet(lines[i - 1], lines[i])
        if p is None or math.hypot(p[0] - quad[i, 0], p[1] - quad[i, 1]) > limit:
            return quad
        out.append(p)
    return np.array(out)


def _local_scale(cleans):
    """Perspective makes cards nearer the camera bigger: fit long side = a + b x + c y over the
    clean single cards (needs three or more), for splitting merged blobs with the right size."""
    rows = [(1.0, *r[0].mean(axis=0), r[1]) for r in cleans if r is not None]
    if len(rows) < LOCAL_MIN:
        return None
    a = np.array(rows)
    coef, *_ = np.linalg.lstsq(a[:, :3], a[:, 3], rcond=None)
    return coef


def _size_ok(q: np.ndarray, long_px: float, tol: float = 0.05) -> bool:
    sides = np.hypot(*(q[_NEXT] - q).T)
    short = (sides[0] + sides[2]) / 2
    long_ = (sides[1] + sides[3]) / 2
    if RECT_CHECK:
        # one side fitted to a neighbouring card's edge skews the quadrilateral: perspective
        # barely changes a card's opposite sides
        if abs(sides[0] - sides[2]) > 0.06 * short or abs(sides[1] - sides[3]) > 0.06 * long_:
            return False
    return abs(long_ / long_px - 1) < tol and abs(short * CARD_ASPECT / long_px - 1) < tol


def _square(contour: np.ndarray) -> bool:
    """A convex, nearly square blob: no card or pile of cards looks like that, a marker does."""
    hull = cv2.convexHull(contour)
    harea = cv2.contourArea(hull)
    if harea <= 0 or cv2.contourArea(contour) / harea < 0.93:
        return False
    (_, _), (a, b), _ = cv2.minAreaRect(hull)
    return min(a, b) > 0 and max(a, b) / min(a, b) < 1.15


def _marker(contour: np.ndarray, gray: np.ndarray) -> bool:
    """A calibration marker: a convex, nearly square blob (`_square`) a quarter of it black or more
    (MARKER_DARK). No card splits out of one, and its hypotheses and edges cost a millisecond
    each. A square blob can be a card: the part a hand or a face-down card the mask misses leaves
    of it, or cards side by side; on five frame sets such cards were 4% black at most."""
    if not MARKERS or not _square(contour):
        return False
    x, y, w, h = cv2.boundingRect(contour)
    blob = np.zeros((h, w), np.uint8)
    cv2.drawContours(blob, [contour - np.array([x, y], np.int32)], -1, 255, -1)
    dark = cv2.inRange(gray[y:y + h, x:x + w], 0, MARKER_BLACK - 1) & blob
    return cv2.countNonZero(dark) >= MARKER_DARK * cv2.countNonZero(blob)


def _edge_fragment(contour: np.ndarray, shape, long_px: float) -> bool:
    """A blob at the frame's edge smaller than EDGE_FRAGMENT cards (the table beyond the cloth in
    a corner of the view, mostly): not split into cards. A card so little of which is in view
    is not read (the benchmark counts cards at least half visible); on five frame sets none was
    found in one, and their hypotheses cost 0.6 ms a frame."""
    if not EDGE_FRAGMENTS:
        return False
    x, y, w, h = cv2.boundingRect(contour)
    at_edge = x <= 0 or y <= 0 or x + w >= shape[1] or y + h >= shape[0]
    return at_edge and cv2.contourArea(contour) < EDGE_FRAGMENT * long_px * long_px / CARD_ASPECT


def _on_outline(contour: np.ndarray, a, b, tol: float = 2.0) -> bool:
    """Whether the segment a-b runs along the blob outline (a whole side of a card), not across
    the blob between the corners of two different cards that happen to line up."""
    for t in np.linspace(0.1, 0.9, 9):
        x, y = a + t * (b - a)
        if abs(cv2.pointPolygonTest(contour, (float(x), float(y)), True)) > tol:
            return False
    return True


def _card_length_hint(cleans, contours, lo: float = 30.0, hi: float = 200.0) -> Optional[float]:
    """The card's long side in work pixels: from single clean cards if there are any, else from
    the complete straight sides (right angles at both ends) of the merged blobs."""
    lengths = [r[1] for r in cleans if r is not None]
    if lengths:
        return float(np.median(lengths))
    sides = []
    for c in contours:
        if _square(c):
            continue  # a calibration marker's white square: its sides would outvote the cards'
        poly = cv2.approxPolyDP(c, 1.5, True).reshape(-1, 2).astype(np.float64)
        corners = _corners(poly, 6.0)
        pts = [k[0] for k in corners]
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                ln = float(np.hypot(*(pts[i] - pts[j])))
                # both ends are corners and the segment runs along one corner's edge
                d = (pts[j] - pts[i]) / (ln + 1e-9)
                if ln > 12 and max(abs(d @ corners[i][1]), abs(d @ corners[i][3])) > 0.99 \
                        and _on_outline(c, pts[i], pts[j]):
                    # the other sides seen at its two corners: a side is no card's long side if
                    # the sides across it run on longer than a card is wide
                    across = max(_across(corners[k], d) for k in (i, j))
                    sides.append((ln, across <= 1.15 * ln / CARD_ASPECT, across <= 1.15 * ln * CARD_ASPECT))
    if not sides:
        return None

    def as_long(x, cand):
        return x[1] and abs(x[0] / cand - 1) < 0.06

    def as_short(x, cand):
        return x[2] and abs(x[0] * CARD_ASPECT / cand - 1) < 0.06

    best, votes = None, -1
    for side in sides:
        for cand, ok in ((side[0], side[1]), (side[0] * CARD_ASPECT, side[2])):
            if not ok or not lo <= cand <= hi:
                continue
            v = sum(1 for x in sides if as_long(x, cand) or as_short(x, cand))
            if v > votes or (v == votes and cand > best):
                best, votes = cand, v
    return best


def _across(corner, d) -> float:
    """How far the side of ``corner`` that does not run along ``d`` is seen."""
    _, da, la, db, lb, _ = corner
    return lb if abs(float(d @ da)) > abs(float(d @ db)) else la


def detect_cards(image: np.ndarray, card_long_px: Optional[float] = None,
                 min_long_px: float = 70.0, stages: Optional[Stages] = None) -> List[Detection]:
    """Every card-shaped quadrilateral in a BGR frame, face up or down. `card_long_px` (the card's
    long side in full-resolution pixels, e.g. from calibration) helps split merged blobs.
    ``stages``, if given, gets the milliseconds of each step ("mask", "lone cards", "blob
    hypotheses", "blob fits")."""
    stages = stages_or_none(stages)
    with stages.time("mask"):
        small, gray, mask, contours = _blobs(image, min_long_px)
        hands = None
        if HANDS:
            min_long = min_long_px * WORK_SCALE
            hands = find_hands(small, mask, min_long * min_long / CARD_ASPECT)
            if hands is not None:
                mask, contours = hands.cut, _card_sized(hands.cut, min_long_px)
    with stages.time("lone cards"):
        cleans = _lone_cards(contours, hands)
    found = _split_blobs(small, gray, mask, contours, cleans, card_long_px, min_long_px, stages, hands)
    return found if hands is None else [_under_hand(d, hands) for d in found]


def _under_hand(d: Detection, hands: Hands) -> Detection:
    """The detection with the maps of where a hand lies over it and over each of its alternate
    placements (read in its stead when it stays unknown), where one covers HAND_COVER of it."""
    hand = _hand_over(d.corners, hands)
    others = tuple(_hand_over(q, hands) for q in d.alternates)
    if hand is None and not any(o is not None for o in others):
        return d
    return replace(d, hand=hand, alternate_hands=others)


def _hand_over(corners: np.ndarray, hands: Hands, size=COVER_SIZE) -> Optional[np.ndarray]:
    """The map of where a hand lies over the card at ``corners`` (COVER_SIZE, 1 = hand), or None
    if it covers less than HAND_COVER of it."""
    w, h = size
    q = ((corners - _HALF) * WORK_SCALE).astype(np.float32)
    lo, hi = q.min(axis=0), q.max(axis=0)
    x0, y0, x1, y1 = hands.box
    if lo[0] > x1 or lo[1] > y1 or hi[0] < x0 or hi[1] < y0:
        return None
    m = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    cov = cv2.warpPerspective(hands.mask, m, (w, h), flags=cv2.INTER_NEAREST)
    return cov if cv2.countNonZero(cov) > HAND_COVER * w * h else None


def _blobs(image: np.ndarray, min_long_px: float):
    """The half frame, its grey, the foreground mask and the outlines of its card-sized blobs."""
    s = WORK_SCALE
    h, w = image.shape[:2]
    if s == 0.5 and h % 2 == 0 and w % 2 == 0:
        # halving even sides: bilinear samples fall midway, the same 2x2 mean as INTER_AREA at
        # 2.5x the speed
        small = cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_LINEAR)
    else:
        small = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    mask = foreground_mask(gray)
    return small, gray, mask, _card_sized(mask, min_long_px)


def _card_sized(mask: np.ndarray, min_long_px: float) -> list:
    """The outlines of a half-resolution mask's blobs big enough to be a card, or to hold one."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_long = min_long_px * WORK_SCALE
    return [c for c in contours if cv2.contourArea(c) > (min_long * min_long / CARD_ASPECT) * 0.4]


def _fit_points(c: np.ndarray, hands: Optional[Hands]) -> np.ndarray:
    """A blob outline's points the side fits may use: not those where a hand was."""
    pts = c.reshape(-1, 2).astype(np.float64)
    return pts if hands is None else pts[~hands.at(pts)]


def _lone_cards(contours, hands: Optional[Hands] = None) -> list:
    """Per blob, (corners, long side) if it is one card alone, else None. A single card's corners
    are where its straight sides meet, not the chamfers the polygon approximation cuts across its
    rounded corners: the card size is measured from the refined sides. A blob a hand cuts is no
    lone card: it may be a card under the fingers, or a piece of one."""
    refined = []
    for c in contours:
        r = _clean_quad(c)
        if r is not None and hands is not None and hands.at(c.reshape(-1, 2)).any():
            r = None
        if r is None:
            refined.append(None)
            continue
        pts = c.reshape(-1, 2).astype(np.float64)
        fits: dict = {}
        q = order_corners(_refine(_refine(r[0], pts, 0.08 * r[1] + 2, fits=fits), pts, fits=fits))
        long_ = long_side(q)
        refined.append((q, long_ if REFINED_SIZE and 0.9 < long_ / r[1] < 1.15 else r[1]))
    return refined


def _split_blobs(small, gray, mask, contours, cleans, card_long_px, min_long_px, stages: Stages,
                 hands: Optional[Hands] = None):
    """The lone cards as found, and the blobs of touching or overlapping cards split into cards
    hypothesised at their corners and edges, each fitted to the outline."""
    s = WORK_SCALE
    min_long = min_long_px * s
    hint = (card_long_px * s if card_long_px else
            _card_length_hint(cleans, contours, min_long, 0.3 * small.shape[1]))
    edges = None
    local = _local_scale(cleans) if not card_long_px else None
    found: List[Detection] = []
    for c, r in zip(contours, cleans):
        if r is not None and r[1] >= min_long and (hint is None or 0.75 < r[1] / hint < 1.3):
            found.append(Detection((r[0] / s + _HALF).astype(np.float32), 1.0))
            continue
        if hint is None or _marker(c, gray):
            continue
        blob_hint = hint
        if local is not None:
            m = c.reshape(-1, 2).mean(axis=0)
            blob_hint = float(np.clip(local @ [1.0, m[0], m[1]], (1 - LOCAL_CLIP) * hint,
                                      (1 + LOCAL_CLIP) * hint))
        if _edge_fragment(c, mask.shape, blob_hint):
            continue
        # a perspective model of the card size extrapolates poorly near the frame edges: where
        # it strays from the typical size, try a smaller and a larger card too
        scales = (1.0,) if card_long_px or (ONE_SCALE and local is not None and abs(blob_hint / hint - 1) < 0.03) \
            else (0.94, 1.0, 1.06)
        with stages.time("blob hypotheses"):
            if edges is None:
                outline = np.zeros(mask.shape, np.uint8)
                cv2.drawContours(outline, contours, -1, 1, 1)
                if hands is not None:
                    outline[hands.near] = UNKNOWN  # a hand's outline neither supports a side nor not
                # within 1.5 px of the outline is its 3 x 3 neighbourhood: a dilation, not the
                # distance transform it replaces (the same pixels, 1 ms less a frame)
                edges = _edge_planes(cv2.dilate(outline, np.ones((3, 3), np.uint8)), gray)
            kept, scores, others = _blob_cards(c, mask if hands is None else hands.support, gray,
                                               blob_hint, edges, scales, hands)
        with stages.time("blob fits"):
            found += _fitted(c, kept, scores, others, blob_hint, gray, hands)
    return found


def _blob_cards(c, mask, gray, blob_hint: float, edges, scales, hands: Optional[Hands] = None):
    """The cards of a merged blob, as (quads, their scores, their alternate placements): the
    best-supported hypotheses at its corners, one per card centre, then cards along the long
    outline edges beside whatever part of the blob they leave unexplained."""
    floor = HYP_WEAK if WEAK_HYPOTHESES else None
    every = sorted(_hypotheses(c, mask, blob_hint, edges, scales, floor, hands),
                   key=lambda t: -t[0])
    hyps = [h for h in every if h[0] + 1.0 > HYP_MIN]
    weak = [h for h in every if h[0] + 1.0 <= HYP_MIN]
    kept: List[np.ndarray] = []
    scores: List[float] = []
    others: List[List[np.ndarray]] = []  # per kept card, its alternate placements
    # the kept cards' centres as floats: `_centre` and np.linalg.norm's sums, in the same order,
    # without numpy's per-call cost on 2-vectors for every pair of candidate and kept card
    centres: List[tuple] = []

    def keep(cands):
        for score, quad, other in cands:
            (ax, ay), (bx, by), (cx, cy), (dx, dy) = quad.tolist()
            x, y = (ax + bx + cx + dx) * 0.25, (ay + by + cy + dy) * 0.25
            j = next((j for j, (kx, ky) in enumerate(centres)
                      if math.sqrt((x - kx) * (x - kx) + (y - ky) * (y - ky)) < blob_hint * 0.3), None)
            if j is not None:
                # nearly as well supported, placed differently: an alternate of that card
                if ALTERNATES and score >= scores[j] - ALTERNATE_GAP and len(others[j]) < 2 \
                        and _apart(quad, kept[j], 0.1 * blob_hint):
                    others[j].append(quad)
                continue
            kept.append(quad)
            centres.append((x, y))
            scores.append(score)
            others.append([] if other is None else [other])
    keep(hyps)
    if SEGMENT_CORNERS or EDGE_HYPOTHESES:
        # part of the blob no hypothesis explains: a card with no right-angled corner on the
        # outline (its corners under other cards or a hand, or inside the blob)
        x, y, w, h = cv2.boundingRect(c)
        blob = np.zeros((h, w), np.uint8)
        cv2.drawContours(blob, [c - np.array([x, y], np.int32)], -1, 255, -1)
        for k in kept:
            cv2.fillConvexPoly(blob, np.round(k - [x, y]).astype(np.int32), 0)
        filled = len(kept)  # cards whose part of the blob is cleared from `blob`
        if cv2.countNonZero(blob) > SEGMENT_GATE * blob_hint * blob_hint / CARD_ASPECT:
            short_px = blob_hint / CARD_ASPECT
            if EDGE_HYPOTHESES:
                # a long straight stretch of outline is one side of a card, and one of its ends
                # is often that card's corner
                keep(sorted(_edge_hypotheses(c, mask, blob_hint, edges, scales, blob,
                                             (x, y), hands), key=lambda t: -t[0]))
            if SEGMENT_CORNERS:
                # corners where long straight image edges meet inside the blob
                corners = sorted(_segment_corners(gray, c, short_px, blob), key=lambda t: -t[2] - t[4])
                seg = [(best[0] - 1.0, best[1], None)  # the longest edges first
                       for best in _corner_hypotheses(corners[:SEGMENT_MAX], mask, blob_hint, edges, scales)
                       if best is not None and best[0] > HYP_MIN]
                keep(sorted(seg, key=lambda t: -t[0]))
        if weak and kept:
            # a card with half its sides hidden (the trump under the stock) scores a little
            # under HYP_MIN: taken last, only beside a card well placed in the same blob (not
            # from a hand alone), where it explains what the others leave unexplained
            for k in kept[filled:]:  # the edge hypotheses' cards
                cv2.fillConvexPoly(blob, np.round(k - [x, y]).astype(np.int32), 0)
            keep([h for h in weak if _explains(h[1], blob, (x, y))])
    return kept, scores, others


def _explains(quad: np.ndarray, unexplained: np.ndarray, origin) -> bool:
    """Whether a card hypothesis lies mostly over the part of its blob no kept card explains:
    its centre and WEAK_UNEXPLAINED of the nine points of a 3 x 3 grid over it."""
    a, b, d = quad[0], quad[1] - quad[0], quad[3] - quad[0]
    pts = (a + _FA[:, None] * b + _FB[:, None] * d - np.asarray(origin, np.float64)).astype(int)
    free = _lookup(unexplained, pts)
    return bool(free[9]) and int(free[:9].sum()) >= WEAK_UNEXPLAINED


def _fitted(c, kept, scores, others, blob_hint: float, gray,
            hands: Optional[Hands] = None) -> List[Detection]:
    """A merged blob's cards with their sides fitted to its outline (or, where a side crosses
    another card, snapped to the image edge there), in full-resolution pixels."""
    s = WORK_SCALE
    if not kept:
        return []
    pts = _fit_points(c, hands)
    found = []
    for score, quad, alts in zip(scores, kept, others):
        q0 = order_corners(quad).astype(np.float64)
        supported: list = []
        fits: dict = {}
        q1 = _refine(q0, pts, 0.08 * blob_hint + 2, supported=supported, fits=fits)
        q2 = _refine(q1, pts, 2.5, gray, fits=fits)
        # a side hidden under another card can latch onto that card's edge: keep the card size
        q0_long = long_side(q0)
        q = next((x for x in (q2, q1) if _size_ok(x, q0_long)), None)
        if HIDDEN_END:  # the fit, or the fit refused for its size, with its hidden end pushed out
            pushed = _hidden_end(q2, supported, q0_long) if q is None else \
                _hidden_end(q, supported, long_side(q))
            q = pushed if pushed is not None else q
        if q is None:
            q = q0
        # alternates are read rarely (a card left unknown), and the reading refines its edges:
        # not fitted to the outline here, which would cost a millisecond a frame
        found.append(Detection((order_corners(q) / s + _HALF).astype(np.float32), float(score),
                               tuple((order_corners(a) / s + _HALF).astype(np.float32) for a in alts)))
    return found


def _hidden_end(q: np.ndarray, supported: list, long_px: float) -> Optional[np.ndarray]:
    """A card whose sides fitted the outline all but one short side (the trump under the stock):
    that end pushed out to the length the fitted width gives, if that is longer than
    ``long_px`` (the hypothesis's, or the fit's) by at most HIDDEN_END_TOL. A hypothesis smaller
    than its card stays inside the blob and is supported as well as the right one, so a hidden
    end tends to come out short: by 2-8% where it was pushed out on fitting, check and benchmark
    seeds, and pushed out it was nearer the truth for 90-100% of the cards. Where the fit was
    refused for its size, the card was also read with its long sides misplaced. Where the width
    says shorter, the hypothesis was nearer the truth as often as not: left alone."""
    if supported == [False, True, True, True]:
        seen, hidden = (3, 2), (0, 1)
    elif supported == [True, True, False, True]:
        seen, hidden = (0, 1), (3, 2)
    else:
        return None
    end = q[seen[1]] - q[seen[0]]
    width = float(np.hypot(*end))
    alongs = [q[x] - q[v] for v, x in zip(seen, hidden)]  # each long side, from the end in view
    if any(abs(float(a @ end)) > HIDDEN_END_SQUARE * width * float(np.hypot(*a)) for a in alongs):
        return None  # a fitted end askew to the long sides measures no width
    length = CARD_ASPECT * width
    if not 1.0 < length / long_px <= 1.0 + HIDDEN_END_TOL:
        return None
    out = q.copy()
    for v, x, a in zip(seen, hidden, alongs):
        out[x] = q[v] + a * (length / (float(np.hypot(*a)) + 1e-9))
    return out if _size_ok(out, length) else None


def rectify(image: np.ndarray, corners: np.ndarray, size=(RECT_W, RECT_H)) -> np.ndarray:
    """The card as an upright portrait image (corners in TL TR BR BL order)."""
    w, h = size
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(np.float32(corners), dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def side_variants(corners: np.ndarray, steps=(-0.06, 0.06)):
    """The quadrilateral with one side at a time moved outwards or inwards by a fraction of the
    card: candidates when a side was placed from the card size rather than seen."""
    q = np.asarray(corners, dtype=np.float32)
    out = []
    for i in range(4):
        j, k, m = (i + 1) % 4, (i + 2) % 4, (i + 3) % 4
        # side i-j moves along the direction from the opposite side (m-k) towards it
        for st in steps:
            v = q.copy()
            v[i] = q[i] + (q[i] - q[m]) * st
            v[j] = q[j] + (q[j] - q[k]) * st
            out.append(v)
    return out



def _remapped(image: np.ndarray, mx: np.ndarray, my: np.ndarray) -> np.ndarray:
    """The grey of ``image`` (grey or BGR) at float32 points (``mx``, ``my``), bilinear, the
    image's edge pixels repeated beyond it, as float32: read from the part of the image that
    holds the points and their neighbours only, the same numbers as from the whole. (The points
    move by whole pixels with it, exactly in float32, and OpenCV's interpolation weights are of
    their fractions alone; a border the part has that the image has not is never reached.)"""
    h, w = image.shape[:2]
    x0 = min(max(math.floor(float(mx.min())) - 1, 0), w - 1)
    y0 = min(max(math.floor(float(my.min())) - 1, 0), h - 1)
    x1 = max(min(math.floor(float(mx.max())) + 3, w), x0 + 1)
    y1 = max(min(math.floor(float(my.max())) + 3, h), y0 + 1)
    part = image[y0:y1, x0:x1]
    if part.ndim == 3:
        part = cv2.cvtColor(part, cv2.COLOR_BGR2GRAY)
    return cv2.remap(part, mx - np.float32(x0), my - np.float32(y0), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).astype(np.float32)


def _fit_offsets(t: np.ndarray, o: np.ndarray, w: np.ndarray, need: float):
    """Per side (rows), offset = p + r t through the points with w set, trimming outliers twice:
    (p, r, ok) arrays of 4. A round that keeps the points it fitted is a fixed point: every
    further round would fit them again to the same numbers, so the rounds stop there."""
    keep = w.copy()
    for _ in range(3):
        kept = keep
        n = keep.sum(axis=1)
        nn = np.maximum(n, 1)
        tm = (keep * t).sum(axis=1) / nn
        om = (keep * o).sum(axis=1) / nn
        dt = t - tm[:, None]
        kdt = keep * dt  # the first product of both sums below, made once
        var = (kdt * dt).sum(axis=1) + 1e-9
        r = (kdt * (o - om[:, None])).sum(axis=1) / var
        p = om - r * tm
        res = np.abs(o - (p[:, None] + r[:, None] * t))
        lim = np.maximum(0.75, 2.5 * (keep * res).sum(axis=1) / nn)
        keep = w & (res < lim[:, None])
        if np.array_equal(keep, kept):
            break
    return p, r, (keep.sum(axis=1) >= need) & (w.sum(axis=1) >= need)


@functools.lru_cache(maxsize=8)
def _samples_along(samples: int) -> np.ndarray:
    """Where along each side `refine_edges` reads its profiles (made once: np.linspace costs
    as much as the products it feeds)."""
    return np.linspace(0.12, 0.88, samples)


def refine_edges(frame: np.ndarray, corners: np.ndarray, reach: float = 7.0, samples: int = 24,
                 min_frac: float = 0.45) -> np.ndarray:
    """Sub-pixel corners from the full-resolution image: along each side, find where the card is
    lighter than just beyond it (the strongest step in a short profile across the side), fit a
    straight line to those points (robustly, dropping points on artwork or another card's edge)
    and intersect neighbouring lines. Sides without enough evidence (hidden under another card)
    keep their line. ``frame``: the full-resolution frame, grey (uint8 or float32) or BGR, of
    which only the part the profiles cross is turned grey (the whole frame's grey took 0.3 ms
    a frame, for the few cards read again)."""
    q = np.asarray(corners, np.float64)
    c = _centre(q)
    offs = np.arange(-reach, reach + 0.01, 0.5)
    t = _samples_along(samples)
    a = q
    d = q[_NEXT] - q
    ln = np.hypot(d[:, 0], d[:, 1]) + 1e-9
    d = d / ln[:, None]
    n = d[:, ::-1] * _LEFT  # (-dy, dx)
    flip = np.einsum("ij,ij->i", c - a, n) < 0
    n[flip] *= -1  # n points into the card
    # where the profiles are read, (side, sample, offset) for x and then y: made apart, the same
    # numbers as from (..., 2) points, and remap gets them as the whole arrays it wants
    along = t[None, :] * ln[:, None]
    maps = []
    for c_ in (0, 1):
        base = a[:, None, c_] + along * d[:, None, c_]
        xy = base[:, :, None] + offs[None, None, :] * n[:, None, None, c_]
        maps.append(xy.reshape(4 * samples, len(offs)).astype(np.float32))
    prof = _remapped(frame, *maps)
    k = 4  # 2 px either side, in half-pixel steps
    m = prof.shape[1]
    cs = np.zeros((prof.shape[0], m + 1), prof.dtype)  # a running sum with a 0 in front
    np.cumsum(prof, axis=1, out=cs[:, 1:])  # (np.pad took a fifth of this function's time)
    idx = np.arange(k, m - k)
    resp = (cs[:, idx + k] - 2 * cs[:, idx] + cs[:, idx - k]) / k  # inside mean - outside mean
    rows = np.arange(resp.shape[0])
    j = np.minimum(np.maximum(np.argmax(resp, axis=1), 1), resp.shape[1] - 2)
    r0, r1, r2 = resp[rows, j - 1], resp[rows, j], resp[rows, j + 1]
    den = r0 - 2 * r1 + r2
    safe = np.where(np.abs(den) > 1e-6, den, 1.0)
    frac = np.minimum(np.maximum(np.where(np.abs(den) > 1e-6, 0.5 * (r0 - r2) / safe, 0.0), -1), 1)
    # the step lies between the last outside and the first inside sample
    off = (offs[idx[j]] - 0.25 + frac * 0.5).reshape(4, samples)
    strong = (r1 > 20).reshape(4, samples)
    need = min_frac * samples
    ps, rs, ok = _fit_offsets(along, off, strong, need)
    # the four lines and their corners on Python floats (`_meet`): the same operations as on
    # 2-vectors (np.linalg.norm of one is the square root of its plain sum of squares)
    lines = []
    for (ax, ay), (dx, dy), (nx, ny), pi, ri, oki in zip(a.tolist(), d.tolist(), n.tolist(),
                                                          ps.tolist(), rs.tolist(), ok.tolist()):
        if not oki:
            lines.append((ax, ay, dx, dy))
            continue
        ddx, ddy = dx + ri * nx, dy + ri * ny
        norm = np.hypot(ddx, ddy)
        lines.append((ax + pi * nx, ay + pi * ny, ddx / norm, ddy / norm))
    out = []
    for i, (qx, qy) in enumerate(q.tolist()):
        p = _meet(lines[i - 1], lines[i])
        if p is None:
            return q.astype(np.float32)
        ex, ey = p[0] - qx, p[1] - qy
        if math.sqrt(ex * ex + ey * ey) > 2 * reach:
            return q.astype(np.float32)
        out.append(p)
    return np.array(out, np.float32)
