"""Hands over the table, told apart from cards for detection.

A hand touching a card joins it in one foreground blob, and the hand's outline then places the
card's sides and corners: a finger's edge is as straight as a card's over a few pixels. Cutting the
hand out of the mask alone leaves notches where the fingers lay, which pull the sides a few pixels
off. So the hand is cut out and the outline next to it is *unknown*: no side is fitted to it, no
corner is taken from it, and a card may still lie under the hand (the hypotheses' mask keeps it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

SKIN_LO = ((0, 50, 90), (170, 50, 90), (23, 110, 90))  # HSV (OpenCV units): orange-red to pink
SKIN_HI = ((22, 170, 255), (179, 170, 255), (30, 170, 255))  # hues (a tan palm: 20-21),
# moderately saturated: paper is greyer, red ink more saturated; and an olive skin's yellower hue
# (23-30), more saturated than Fournier's aged paper (85-100)
SKIN_SMOOTH = 6.0  # grey levels: the median local (5 x 5) deviation of skin is 1-3, a speckled back's 12+
SKIN_MIN_AREA = 0.5  # a hand is at least this many cards' area (card art or a fringe is less)
NEAR_PX = 2  # outline this close to the hand (half-resolution px) is where the hand was


@dataclass(frozen=True)
class Hands:
    """The hands in a half-resolution frame: ``near``, the pixels within NEAR_PX of a hand (bool);
    ``cut``, the foreground mask without them (the cards' outlines); ``support``, the mask with
    them still in (a card may lie under a hand); ``mask``, the hands themselves, and their ``box``."""
    near: np.ndarray
    cut: np.ndarray
    support: np.ndarray
    mask: np.ndarray  # 1 on a hand, 0 elsewhere (uint8)
    box: tuple  # x0, y0, x1, y1 of the hands' pixels

    def at(self, pts: np.ndarray) -> np.ndarray:
        """For (n, 2) x, y points: whether each lies where a hand was."""
        h, w = self.near.shape
        xs = np.clip(np.rint(pts[:, 0]).astype(int), 0, w - 1)
        ys = np.clip(np.rint(pts[:, 1]).astype(int), 0, h - 1)
        return self.near[ys, xs]

    def covers(self, point) -> bool:
        """Whether one x, y point lies where a hand was (`at`)."""
        return bool(self.at(np.asarray(point, np.float64)[None])[0])


def hand_mask(bgr: np.ndarray, lighter: np.ndarray, card_area: float) -> Optional[np.ndarray]:
    """The hands among the pixels ``lighter`` than the cloth of a BGR frame (None if there are
    none): smooth, skin-coloured regions at least SKIN_MIN_AREA cards big that reach the frame's
    edge (a hand comes in on an arm from beyond it; the cards lie wholly in view). A skin-coloured
    cloth is not lighter than itself; the thin fringe where a card meets a red cloth is opened
    away; Fournier's speckled tan back is skin-coloured but not smooth. Skin is looked for at half
    the frame's resolution (a hand is big), and the mask made at the frame's."""
    h, w = lighter.shape
    small = cv2.resize(bgr, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    skin = cv2.inRange(hsv, SKIN_LO[0], SKIN_HI[0])
    for lo, hi in zip(SKIN_LO[1:], SKIN_HI[1:]):
        skin |= cv2.inRange(hsv, lo, hi)
    lit = cv2.resize(lighter, (w // 2, h // 2), interpolation=cv2.INTER_NEAREST)
    skin = cv2.morphologyEx(skin & lit, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # the regions as outlines: connected-component labelling of the whole plane costs 2 ms
    contours, _ = cv2.findContours(skin, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hh, ww = skin.shape
    out = None
    for c in contours:
        x, y, bw, bh = cv2.boundingRect(c)
        if not (x <= 0 or y <= 0 or x + bw >= ww or y + bh >= hh):
            continue
        region = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(region, [c - np.array([x, y], np.int32)], -1, 255, -1)
        region &= skin[y:y + bh, x:x + bw]
        if 4 * cv2.countNonZero(region) < SKIN_MIN_AREA * card_area:
            continue
        box = (2 * x, 2 * y, 2 * bw, 2 * bh)
        full = cv2.resize(region, (2 * bw, 2 * bh), interpolation=cv2.INTER_NEAREST)
        if not _smooth(bgr, full, box):
            continue
        if out is None:
            out = np.zeros((h, w), np.uint8)
        out[box[1]:box[1] + box[3], box[0]:box[0] + box[2]] |= full
    return None if out is None else out & lighter


def _smooth(bgr: np.ndarray, region: np.ndarray, box) -> bool:
    """Whether ``region`` (a mask over ``box`` of the frame) is smooth: its median 5 x 5 grey
    deviation at most SKIN_SMOOTH."""
    x, y, w, h = box
    g = cv2.cvtColor(bgr[y:y + h, x:x + w], cv2.COLOR_BGR2GRAY).astype(np.float32)
    m = cv2.blur(g, (5, 5))
    sd = np.sqrt(np.maximum(cv2.blur(g * g, (5, 5)) - m * m, 0))
    return float(np.median(sd[region[:g.shape[0], :g.shape[1]] > 0])) <= SKIN_SMOOTH


def find_hands(bgr: np.ndarray, mask: np.ndarray, card_area: float) -> Optional[Hands]:
    """The hands of a half-resolution frame whose foreground is ``mask``, or None."""
    hands = hand_mask(bgr, mask, card_area)
    if hands is None:
        return None
    k = 2 * NEAR_PX + 1
    # what is left of the foreground beside a hand, with the fringe the hand leaves opened away
    # there only: an opening of the whole mask would move every card's outline
    cut = cv2.subtract(mask, hands)
    beside = cv2.dilate(hands, np.ones((7, 7), np.uint8)) > 0
    cut[beside] = cv2.morphologyEx(cut, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))[beside]
    x, y, w, h = cv2.boundingRect(hands)
    return Hands(cv2.dilate(hands, np.ones((k, k), np.uint8)) > 0, cut, mask, (hands > 0).astype(np.uint8),
                 (x, y, x + w, y + h))
