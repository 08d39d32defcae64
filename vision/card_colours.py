"""A rectified card's colour spaces, made once for all the readers of one card (`memo`)."""
from typing import Optional

import cv2
import numpy as np

from vision.memo import last_result, recalled, remember


@last_result  # the card's, and the card's painted over (`pictures`) or filled (`_filled`)
def card_lab(rect_bgr: np.ndarray) -> np.ndarray:
    """The card's 8-bit Lab (L x 2.55; a and b + 128): not to be changed."""
    return cv2.cvtColor(rect_bgr, cv2.COLOR_BGR2Lab)


@last_result  # the readers look at the card's colours one after another (margin, held pinta...)
def card_hsv(rect_bgr: np.ndarray) -> np.ndarray:
    """The card's 8-bit HSV: not to be changed."""
    return cv2.cvtColor(rect_bgr, cv2.COLOR_BGR2HSV)


@last_result  # (the hue and saturation most readers want, made apart once)
def hsv_planes(rect_bgr: np.ndarray) -> tuple:
    """The card's hue, saturation and value, each a plane (`card_hsv` split): not to be
    changed."""
    return tuple(cv2.split(card_hsv(rect_bgr)))


def hue_saturation(bgr: np.ndarray) -> tuple:
    """The hue and saturation planes of any BGR image (a part of a card, a card turned): not
    remembered, as `hsv_planes` is the card's."""
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
    return cv2.extractChannel(hsv, 0), cv2.extractChannel(hsv, 1)


def pass_on_lab(card: np.ndarray, made: np.ndarray, turned: Optional[np.ndarray] = None,
                painted: Optional[np.ndarray] = None) -> None:
    """Tell `card_lab` the Lab of ``made``: the ``card`` with its own image turned about its
    centre where ``turned`` (bool) is set, and one colour where ``painted`` is. Lab is made
    pixel by pixel, so the card's Lab moved the same way and that colour's are the same numbers
    in 0.4 of the time (if the card's is remembered: else ``made``'s is made when asked)."""
    lab = recalled(card_lab, card)
    if lab is None:
        return
    out = lab.copy()
    if turned is not None:
        turn_in(out, lab, turned)
    if painted is not None:
        k = int(np.argmax(painted))  # (the first pixel painted)
        if painted.flat[k]:
            y, x = divmod(k, painted.shape[1])
            paint(out, painted, cv2.cvtColor(made[y:y + 1, x:x + 1], cv2.COLOR_BGR2Lab)[0, 0])
    remember(card_lab, out, made)


def paint(image: np.ndarray, where: np.ndarray, colour) -> None:
    """``image`` (h x w x 3, uint8) set to ``colour`` (three 0-255 values) where ``where`` (bool
    or 0/1, h x w) is set, in place: OpenCV's masked copy of a one-colour image (numpy's masked
    assignment over three channels took ten times as long, 0.13 ms a card)."""
    h, w = where.shape
    cv2.copyTo(cv2.merge([np.full((h, w), int(v), np.uint8) for v in colour]), _mask(where),
               image)


def turn_in(image: np.ndarray, source: np.ndarray, where: np.ndarray) -> None:
    """``image`` set to ``source`` (of its size) turned about its centre where ``where`` is set,
    in place (as `paint`)."""
    cv2.copyTo(cv2.flip(source, -1), _mask(where), image)


def _mask(where: np.ndarray) -> np.ndarray:
    return where.view(np.uint8) if where.dtype == bool else where
