"""Shared geometry: card size, canonical rectified size, corner ordering, a pinhole overhead camera.

Kept apart so detect/identify/synth/calibrate agree on one card shape and one corner order
(top-left, top-right, bottom-right, bottom-left of the upright card).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

CARD_W_MM = 61.5
CARD_H_MM = 95.0
CARD_ASPECT = CARD_H_MM / CARD_W_MM  # long / short, about 1.545

# Canonical upright rectified card (portrait), in pixels: about the size a card has in a 720p
# frame, so the small corner numeral keeps its shape. Exactly 5x the identifier's 24 x 36 feature
# grid, so that shrinking to it is OpenCV's fast whole-factor area resize (35 us a card against
# 113 us from 124 x 192: about 1.3 ms a frame). The 3% stretch against the card's true aspect is
# the same for templates and cards, and the benchmark's accuracy did not move.
RECT_W = 120
RECT_H = 180


def card_corners_mm(x: float, y: float, angle_deg: float) -> np.ndarray:
    """Corners (TL, TR, BR, BL) of an upright card centred at (x, y) on the table, rotated
    clockwise by angle_deg (table y grows downwards, as in images)."""
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    hw, hh = CARD_W_MM / 2, CARD_H_MM / 2
    local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], dtype=np.float64)
    rot = np.array([[c, -s], [s, c]])
    return local @ rot.T + np.array([x, y])


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Order four points clockwise (image coordinates) starting from the end of a short side so
    that TL->TR is a short edge: the portrait convention. Which short side is 'top' stays
    ambiguous (0 vs 180 degrees); the identifier resolves it. Worked out on the four points in
    plain Python and applied as one reordering (numpy's per-call overhead on four points was
    most of its time, and it runs some 20 times a frame)."""
    q = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    pts = q.tolist()
    cx, cy = sum(p[0] for p in pts) / 4, sum(p[1] for p in pts) / 4
    idx = sorted(range(4), key=lambda i: math.atan2(pts[i][1] - cy, pts[i][0] - cx))  # clockwise (y down)
    a, b, c = (pts[i] for i in idx[:3])
    if math.hypot(b[0] - a[0], b[1] - a[1]) > math.hypot(c[0] - b[0], c[1] - b[1]):
        idx = idx[1:] + idx[:1]  # the first edge is long: start one corner on
    # start at the top-most of the two candidate starts (0 or 2) for stable output
    if pts[idx[2]][1] + pts[idx[3]][1] < pts[idx[0]][1] + pts[idx[1]][1]:
        idx = idx[2:] + idx[:2]
    return q[idx]


def long_side(q: np.ndarray) -> float:
    """Mean length of a quadrilateral's two long sides (corners in portrait order, TL TR BR BL)."""
    return float(np.hypot(*(q[2] - q[1])) + np.hypot(*(q[3] - q[0]))) / 2


def apply_h(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    ph = np.hstack([p, np.ones((len(p), 1))]) @ np.asarray(h, dtype=np.float64).T
    return ph[:, :2] / ph[:, 2:3]


@dataclass(frozen=True)
class Camera:
    """A pinhole camera above the table looking down. Table coordinates are mm with the origin at
    the table's top-left corner; the camera sits above (cx_mm, cy_mm) at height_mm, tilted by
    pitch/roll (degrees) and turned by yaw."""

    width: int = 1280
    height: int = 720
    hfov_deg: float = 66.0
    height_mm: float = 750.0
    cx_mm: float = 450.0
    cy_mm: float = 250.0
    pitch_deg: float = 0.0
    roll_deg: float = 0.0
    yaw_deg: float = 0.0

    def homography(self) -> np.ndarray:
        """3x3 homography mapping table mm (x, y, 1) to image pixels."""
        f = (self.width / 2) / math.tan(math.radians(self.hfov_deg) / 2)
        k = np.array([[f, 0, self.width / 2], [0, f, self.height / 2], [0, 0, 1.0]])
        p, r, yw = (math.radians(v) for v in (self.pitch_deg, self.roll_deg, self.yaw_deg))
        rx = np.array([[1, 0, 0], [0, math.cos(p), -math.sin(p)], [0, math.sin(p), math.cos(p)]])
        ry = np.array([[math.cos(r), 0, math.sin(r)], [0, 1, 0], [-math.sin(r), 0, math.cos(r)]])
        rz = np.array([[math.cos(yw), -math.sin(yw), 0], [math.sin(yw), math.cos(yw), 0], [0, 0, 1]])
        # camera looking straight down: camera x = table x, camera y = table y, z into the table
        rot = rx @ ry @ rz
        centre = np.array([self.cx_mm, self.cy_mm, -self.height_mm])
        t = -rot @ centre
        h = k @ np.column_stack([rot[:, 0], rot[:, 1], t])
        return h / h[2, 2]
