"""The ace of oros by its medallion's rim, when the whole silhouette cannot say (`read_medallion`).

A Spanish ace of oros is one large gold coin near the card's centre, larger than any coin of the
number cards. When part of the card is hidden (the trump under the stock shows one end of it)
or the coin's silhouette runs into its wreath and banners, the silhouette reader
(`pictures.Silhouette.emblem`) has nothing whole to measure. What is left in view is an arc of the
coin's rim: the edge of a gold region that lies on one circle. The circle is found by voting
(every point of the gold region's visible edge votes for the circles through it, over the centres
an ace's coin may have) and is the medallion's when it is large, its rim is gold on the inside
all round, and the disc is gold where it is in view.

The coins of the number cards are smaller: the best circle of a 2's, 5's or 3's coin is its own
(0.2-0.28 of the card's width), and a circle of a medallion's size drawn through it runs over
paper inside its rim. A rey's gold robe is straight-sided: a circle touching it has paper inside
its rim on one side. Measured on the two printed reference decks rendered into camera scenes
(docs/vision.md, thirty-second session).
"""
from __future__ import annotations

import functools
from typing import Optional, Tuple

import cv2
import numpy as np

from vision.blobs import components
from vision.card_colours import hsv_planes

GOLD_HUE = (8, 35)  # OpenCV hue (0-180) of gold ink: yellow to orange
GOLD_SAT = 150  # ...this saturated at least (Fournier's aged paper is yellow too, at 85-100)
GOLD_LEAST = 0.05  # of the card: a gold region smaller than this is no medallion
CENTRE_X = (0.45, 0.55)  # where the coin's centre may lie, of the card's width: on the middle
# column (the medallions 0.47-0.54; a Fournier ace of oros under a misplaced outline, turned
# and shifted, showed its coin's arc about 0.58)
CENTRE_Y = (0.33, 0.67)  # ... and of its height: off the middle by a sixth at most, towards the
# banner (the medallions 0.36-0.64; a Naipes rey's robe, its side and hem, fitted one at 0.69)
RADII = (0.18, 0.42)  # the circles voted for, of the card's width (number cards' coins included,
# so that theirs win on them)
MEDALLION_RADIUS = 0.3  # the winning circle is a medallion's from this radius (Naipes' coin 0.31-
# 0.33, Fournier's with its ring 0.35-0.41; the number cards' coins 0.28 at most)
RIM_TOL = 1.5  # px: an edge point this near the circle votes for it
RIM_SHARE = 0.25  # votes per pixel of the circle's length at least (a third of the rim in view:
# Fournier's medallions 0.29-0.39, its wreath and ribbons break the rim; Naipes' 0.55-0.87)
RIM_GOLD = 0.85  # of the circle at 0.85 of its radius, where in view, this share is gold (the
# medallions 0.88-1.0; a rey's robe 0.74, a cup 0.48 at most)
DISC_GOLD = 0.8  # of the disc in view, this share is gold (the medallions 0.83-1.0)
DISC_SEEN = 0.35  # of the disc at least in view
EDGE_CLEAR_PX = 2  # edge points this near the cover or the card's edge are the cut, not the rim


def gold_mask(rect_bgr: np.ndarray) -> np.ndarray:
    """0/1 per pixel: saturated yellow to orange ink."""
    hue, sat, _ = hsv_planes(rect_bgr)
    return ((hue >= GOLD_HUE[0]) & (hue < GOLD_HUE[1]) & (sat >= GOLD_SAT)).astype(np.uint8)


def _votes_grid(w: int, h: int):
    """For `best_circle` on a card of ``w`` x ``h`` px: the centres' columns and rows, the
    smallest radius and the number of radius bins, each whole squared distance's bin (its root
    rounded; a last, dump bin when out of range) and each centre's first slot in the flat
    histogram. Whole squared distances, and the roots by table: the same bins as float
    distances rounded (no root of a whole number lies within 1e-3 of a half), at half the time.
    Made once for each card size and each setting of the limits."""
    return _grid(w, h, CENTRE_X, CENTRE_Y, RADII)


@functools.lru_cache(maxsize=4)
def _grid(w: int, h: int, centre_x, centre_y, radii):
    """`_votes_grid` for these limits."""
    x0, x1 = int(centre_x[0] * w), int(centre_x[1] * w) + 1
    y0, y1 = int(centre_y[0] * h), int(centre_y[1] * h) + 1
    r0, r1 = int(radii[0] * w), int(np.ceil(radii[1] * w))
    bins = r1 - r0 + 3
    bin_of = np.rint(np.sqrt(np.arange((w + 1) ** 2 + (h + 1) ** 2, dtype=np.float64)))
    bin_of = bin_of.astype(np.int32) - (r0 - 1)
    bin_of[(bin_of < 0) | (bin_of >= bins)] = bins
    first = (np.arange((x1 - x0) * (y1 - y0), dtype=np.int32) * (bins + 1)).reshape(y1 - y0, -1)
    if first.size * (bins + 1) <= 1 << 16:  # the slots as 16-bit numbers (`best_circle`)
        bin_of, first = bin_of.astype(np.uint16), first.astype(np.uint16)
    return np.arange(x0, x1, dtype=np.int32), np.arange(y0, y1, dtype=np.int32), r0, bins, \
        bin_of, first


def best_circle(points: np.ndarray, w: int, h: int) -> Tuple[float, float, float, float]:
    """(votes per pixel of length, radius, cx, cy) of the circle the most ``points`` (x, y, whole
    pixels in the card) lie on within `RIM_TOL`, over the centres in `CENTRE_X` x `CENTRE_Y` and
    the radii in `RADII`: each point's distance to each centre, binned by the pixel, is its
    vote."""
    xs, ys, r0, bins, bin_of, first = _votes_grid(w, h)
    p = np.asarray(points).astype(np.int32)
    dx2 = (p[:, 0, None] - xs) ** 2
    dy2 = (p[:, 1, None] - ys) ** 2
    slot = bin_of[dy2[:, :, None] + dx2[:, None, :]]  # point x centre row x centre column
    slot += first
    size = first.size * (bins + 1)
    if slot.dtype == np.uint16:  # OpenCV's histogram of 16-bit numbers: the same counts as
        hist = cv2.calcHist([slot.reshape(-1, 1)], [0], None, [size], [0, size]).ravel()
        hist = hist.astype(np.int64)  # numpy's, in 0.6 of its time (with the 16-bit gather)
    else:
        hist = np.bincount(slot.ravel(), minlength=size)
    hist = hist.reshape(first.size, bins + 1)[:, :bins]
    votes = hist[:, :-2] + hist[:, 1:-1] + hist[:, 2:]  # within a pixel and a half of r
    radii = np.arange(r0, r0 + votes.shape[1], dtype=np.float32)
    per_px = votes / (2 * np.pi * radii)
    i, j = np.unravel_index(int(np.argmax(per_px)), per_px.shape)
    return float(per_px[i, j]), float(radii[j]), float(xs[i % len(xs)]), float(ys[i // len(xs)])


def read_medallion(rect_bgr: np.ndarray, cover: Optional[np.ndarray] = None
                   ) -> Tuple[Optional[str], str]:
    """('1O', why) if the card in view shows an ace of oros's medallion, else (None, why).
    ``cover``: 0/1 at the card's size, 1 where something lies over it (grown over its edge)."""
    h, w = rect_bgr.shape[:2]
    seen = np.ones((h, w), bool) if cover is None else cover == 0
    gold = gold_mask(rect_bgr)
    g = cv2.morphologyEx(gold & seen.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = components(g)
    if n < 2:
        return None, "no gold"
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[i, cv2.CC_STAT_AREA] < GOLD_LEAST * h * w:
        return None, "too little gold"
    contours, _ = cv2.findContours((labels == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    pts = np.concatenate([c.reshape(-1, 2) for c in contours])
    cut = cv2.dilate((~seen).astype(np.uint8), np.ones((2 * EDGE_CLEAR_PX + 1,) * 2, np.uint8))
    m = EDGE_CLEAR_PX + 1
    keep = (cut[pts[:, 1], pts[:, 0]] == 0) & (pts[:, 0] > m) & (pts[:, 0] < w - 1 - m) & \
        (pts[:, 1] > m) & (pts[:, 1] < h - 1 - m)
    pts = pts[keep].astype(np.float32)
    if len(pts) < 20:
        return None, "no rim in view"
    share, r, cx, cy = best_circle(pts, w, h)
    if r < MEDALLION_RADIUS * w:
        return None, "a coin of a number card's size"
    if share < RIM_SHARE:
        return None, "too little of a round rim"
    theta = np.linspace(0, 2 * np.pi, 96, endpoint=False)
    px = np.rint(cx + 0.85 * r * np.cos(theta)).astype(int)
    py = np.rint(cy + 0.85 * r * np.sin(theta)).astype(int)
    on = (px >= 0) & (px < w) & (py >= 0) & (py < h)
    px, py = px[on], py[on]
    inner = seen[py, px]
    if inner.sum() < 10:
        return None, "the rim's inside hidden"
    soft = cv2.blur(gold.astype(np.float32), (3, 3))
    if float((soft[py, px][inner] >= 0.5).mean()) < RIM_GOLD:
        return None, "paper inside the rim"
    disc = np.zeros((h, w), np.uint8)
    cv2.circle(disc, (int(round(cx)), int(round(cy))), int(round(0.95 * r)), 1, -1)
    in_view = (disc > 0) & seen
    if in_view.sum() < DISC_SEEN * disc.sum():
        return None, "too little of the disc in view"
    if float(gold[in_view].mean()) < DISC_GOLD:
        return None, "a disc not gold"
    return "1O", "ok"
