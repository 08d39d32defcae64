"""Which of two overlapping cards lies on top, from the image along their sides.

A card's sides run on, in plain view, across a card it lies on; the sides of a card under it
are hidden where it lies. So along the part of each card's sides inside the other, the image
shows an edge (a step in grey level across the side) for the card on top, and only by chance
(its picture's own edges) for the card below. The detection scores that order overlapping cards
(`recognise.below`) get about a quarter of the pairs wrong; this test is for a second look at a
card left unknown, not for every pair: measured on fresh scenes (seeds 200000+, 40 a deck, the
three decks), it called 56 of 305 pairs with the card on top, and 2 of 404 the wrong way round.
"""
from __future__ import annotations

from typing import Optional, Tuple

import cv2
import numpy as np

STEP_PX = 2.0  # points this far apart along a side
END_PX = 6.0  # ... none this near its corners (rounded, and where the sides meet)
INSIDE_PX = 4.0  # ... nor this near the other card's outline (its own edge lies there)
EDGE_LEVELS = 12.0  # grey levels between the two sides of a side that make an edge there
LEAST_POINTS = 8  # points a side's part inside the other card needs to say anything
SHOWN = 0.8  # a card lies on another whose part of its sides inside that one shows this much edge
HIDDEN = 0.6  # ... and whose sides inside it show at most this much (by chance: its picture)
BLUR = 0.8  # the grey image's smoothing (sigma, px): sensor noise is no edge
_IN, _OUT = (1.5, 2.5), (-2.0, -3.5, -5.0)  # px across a side: into its card, and out of it


def lies_on(image: np.ndarray, top: np.ndarray, other: np.ndarray,
            shown: Optional[float] = None, hidden: Optional[float] = None) -> bool:
    """Whether the card outlined by ``top`` (4 x 2 image points) plainly lies on the card
    outlined by ``other``, where they overlap: its sides show there (`SHOWN`, or ``shown``),
    the other's do not (`HIDDEN`, or ``hidden``)."""
    return shares_say_on(*both_shown(image, top, other),
                         SHOWN if shown is None else shown, HIDDEN if hidden is None else hidden)


def shares_say_on(mine: Optional[float], theirs: Optional[float], shown: float = SHOWN,
                  hidden: float = HIDDEN) -> bool:
    """Whether `both_shown`'s two shares say the first card lies on the other: its sides show
    at ``shown`` or more, the other's at ``hidden`` at most, each measured."""
    return mine is not None and theirs is not None and mine >= shown and theirs <= hidden


def both_shown(image: np.ndarray, top: np.ndarray, other: np.ndarray
               ) -> Tuple[Optional[float], Optional[float]]:
    """(`sides_shown` of ``top``'s sides inside ``other``, and of ``other``'s inside ``top``),
    each None where too few points say anything."""
    quads = [np.asarray(q, np.float64) for q in (top, other)]
    lo = np.floor(np.min([q.min(axis=0) for q in quads], axis=0) - 8).astype(int)
    hi = np.ceil(np.max([q.max(axis=0) for q in quads], axis=0) + 8).astype(int)
    h, w = image.shape[:2]
    x0, y0 = max(lo[0], 0), max(lo[1], 0)
    x1, y1 = min(hi[0], w), min(hi[1], h)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None, None
    roi = image[y0:y1, x0:x1]
    grey = cv2.GaussianBlur(roi if roi.ndim == 2 else cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY),
                            (0, 0), BLUR).astype(np.float32)
    shift = np.array([x0, y0], np.float64)
    return sides_shown(grey, quads[0] - shift, quads[1] - shift), \
        sides_shown(grey, quads[1] - shift, quads[0] - shift)


def sides_shown(grey: np.ndarray, quad: np.ndarray, other: np.ndarray) -> Optional[float]:
    """The share of points along ``quad``'s sides inside ``other`` (both convex, in ``grey``'s
    pixels) where the image shows an edge along the side; None for fewer than LEAST_POINTS."""
    centre = quad.mean(axis=0)
    points, normals = [], []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(np.hypot(*(b - a)))
        if length <= 2 * END_PX:
            continue
        d = (b - a) / length
        n = np.array([-d[1], d[0]])
        if np.dot(centre - a, n) < 0:
            n = -n  # into the card
        t = np.arange(END_PX, length - END_PX, STEP_PX)
        points.append(a + t[:, None] * d)
        normals.append(np.repeat(n[None], len(t), axis=0))
    if not points:
        return None
    p, n = np.concatenate(points), np.concatenate(normals)
    inside_other = _inside(p, other, INSIDE_PX)
    p, n = p[inside_other], n[inside_other]
    if len(p) < LEAST_POINTS:
        return None
    h, w = grey.shape

    def level(offsets) -> tuple:
        at = p[:, None, :] + np.asarray(offsets)[None, :, None] * n[:, None, :]
        xi, yi = np.rint(at[..., 0]).astype(int), np.rint(at[..., 1]).astype(int)
        ok = ((xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)).all(axis=1)
        return grey[np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)].mean(axis=1), ok

    inside, ok_in = level(_IN)
    outside, ok_out = level(_OUT)
    ok = ok_in & ok_out
    if np.count_nonzero(ok) < LEAST_POINTS:
        return None
    return float(np.mean(np.abs(inside[ok] - outside[ok]) > EDGE_LEVELS))


def _inside(points: np.ndarray, quad: np.ndarray, margin: float) -> np.ndarray:
    """Which ``points`` lie inside the convex ``quad`` at least ``margin`` from its sides."""
    centre = quad.mean(axis=0)
    keep = np.ones(len(points), bool)
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        n = np.array([-d[1], d[0]]) / (np.hypot(*d) + 1e-9)
        if np.dot(centre - a, n) < 0:
            n = -n
        keep &= (points - a) @ n >= margin
    return keep
