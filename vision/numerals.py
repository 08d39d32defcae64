"""The loops of the index numeral: a 6 from a 7, an 8 from a 9, on any deck (`loops`).

A covered 6 whose extra pinta's place is hidden may be a 7, and an 8 a 9: their pintas in view
are the same. The index numeral says which, and what tells these digits apart in every type face
is where their loops are: a 6 has one in its lower half, a 7 none, an 8 one in each half, a 9 one
in its upper half. At the camera's resolution the numeral is a few pixels tall and a loop is a
pocket of lighter pixels inside darker strokes, often with a faint gap in its rim. So pockets are
found in grey levels, not by a threshold: the numeral's darkness is filled from the border inward
(a morphological fill of holes in grey), and a pocket is where the filled level stands well above
the darkness (its depth: how much darker the weakest point of the rim is than the pocket).

Only neutral pixels count as the numeral's ink: the pinta beside the index is coloured. A
corner whose numeral is faint, or is no glyph of a numeral's size, says nothing. Measured on the
index corners of Naipes' 6s to 9s in benchmark-kind scenes (seeds 20000+ and 50000+, thirty-
second session): the 6s' pockets lie 0.47-0.71 of the glyph's height down, the 8s' lower ones
0.61-0.82, the 9s' 0.15-0.37; no 7 or 9 showed a pocket in `LOWER` as deep as `DEPTH`.
Fournier's numerals are too faint at this resolution and say nothing.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import cv2
import numpy as np

from vision.blobs import components

CORNER = (2, 28, 2, 22)  # y0, y1, x0, x1 of the upright index corner in the rectified card
# (120 x 180); the other corner is this one of the card turned
SCALE = 2  # the corner is looked at twice enlarged (cubic): a pocket is a pixel or two across
NEUTRAL = 18  # Lab chroma under which a pixel may be the numeral's ink
CONTRAST = 40  # the darkest neutral pixel this far under the paper's lightness (8-bit L), or faint
GLYPH = 0.4  # of the darkest: the filled numeral's extent
GLYPH_H, GLYPH_W = (14, 36), (6, 26)  # its box, enlarged pixels (the frame line is longer)
DEPTH = 0.18  # of the darkest: a pocket at least this deep (the 6s' loops 0.15-0.38; a 7's
# stroke and a 9's tail made 0.14-0.16 at most)
POCKET_PX = 3  # enlarged pixels in a pocket at least
LOWER = (0.55, 0.8)  # where a 6's or 8's lower loop lies, of the glyph's height from its top
UPPER = (0.12, 0.42)  # where a 9's (or 8's upper) loop lies


def _fill_holes(dark: np.ndarray) -> np.ndarray:
    """Grey-level fill of holes: each pixel raised to the darkest level it is ringed by
    (reconstruction by erosion from the border)."""
    marker = np.full_like(dark, dark.max())
    marker[0, :], marker[-1, :], marker[:, 0], marker[:, -1] = \
        dark[0, :], dark[-1, :], dark[:, 0], dark[:, -1]
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(4 * sum(dark.shape)):
        grown = np.maximum(cv2.erode(marker, kernel), dark)
        if np.array_equal(grown, marker):
            break
        marker = grown
    return marker


def pockets(corner_bgr: np.ndarray) -> Optional[List[Tuple[float, float]]]:
    """(place down the glyph, depth) of each pocket in the numeral of an index corner, or None
    when the corner shows no numeral plainly."""
    lab = cv2.resize(cv2.cvtColor(corner_bgr, cv2.COLOR_BGR2Lab).astype(np.float32), None,
                     fx=SCALE, fy=SCALE, interpolation=cv2.INTER_CUBIC)
    light = lab[..., 0]
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    paper = float(np.percentile(light, 90))
    dark = np.where(chroma < NEUTRAL, np.maximum(paper - light, 0), 0).astype(np.float32)
    top = float(dark.max())
    if top < CONTRAST:
        return None
    filled = _fill_holes(dark)
    n, labels, stats, _ = components((filled > GLYPH * top).astype(np.uint8))
    h_img, w_img = dark.shape
    glyph = None
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if GLYPH_H[0] <= h <= GLYPH_H[1] and GLYPH_W[0] <= w <= GLYPH_W[1] and x > 0 and y > 0 \
                and x + w < w_img and y + h < h_img and (glyph is None or area > stats[glyph, 4]):
            glyph = i
    if glyph is None:
        return None
    x, y, w, h = stats[glyph, :4]
    depth = np.zeros_like(dark)
    depth[y:y + h, x:x + w] = (filled - dark)[y:y + h, x:x + w]
    m, plabels, pstats, pcentres = components((depth > DEPTH * top).astype(np.uint8))
    return [(float((pcentres[j][1] - y) / h), float(depth[plabels == j].max() / top))
            for j in range(1, m) if pstats[j, cv2.CC_STAT_AREA] >= POCKET_PX]


def loops(rect_bgr: np.ndarray, cover: Optional[np.ndarray] = None) -> Optional[str]:
    """'lower' if the card's index numeral has a loop in its lower half (a 6 or an 8), 'upper'
    if only in its upper half (a 9), None if no corner in view says plainly, or they disagree.
    ``cover``: 0/1 at the card's size, 1 where something lies over it."""
    y0, y1, x0, x1 = CORNER
    said = set()
    for turned in (False, True):
        img = cv2.rotate(rect_bgr, cv2.ROTATE_180) if turned else rect_bgr
        if cover is not None:
            c = cover[::-1, ::-1] if turned else cover  # any dtype: bool maps too
            if c[y0:y1, x0:x1].any():
                continue
        found = pockets(img[y0:y1, x0:x1])
        if not found:
            continue
        if any(LOWER[0] <= place <= LOWER[1] for place, _ in found):
            said.add("lower")
        elif any(UPPER[0] <= place <= UPPER[1] for place, _ in found):
            said.add("upper")
    return said.pop() if len(said) == 1 else None
