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


def pass_on_lab(card: np.ndarray, made: np.ndarray, turned: Optional[np.ndarray] = None,
                painted: Optional[np.ndarray] = None) -> None:
    """Tell `card_lab` the Lab of ``made``: the ``card`` with its own image turned about its
    centre where ``turned`` (bool) is set, and one colour where ``painted`` is. Lab is made
    pixel by pixel, so the card's Lab moved the same way and that colour's are the same numbers
    at a fifth of the time (if the card's is remembered: else ``made``'s is made when asked)."""
    lab = recalled(card_lab, card)
    if lab is None:
        return
    out = lab.copy()
    if turned is not None:
        np.copyto(out, lab[::-1, ::-1], where=turned[..., None])
    if painted is not None:
        k = int(np.argmax(painted))  # (the first pixel painted)
        if painted.flat[k]:
            y, x = divmod(k, painted.shape[1])
            out[painted] = cv2.cvtColor(made[y:y + 1, x:x + 1], cv2.COLOR_BGR2Lab)[0, 0]
    remember(card_lab, out, made)
