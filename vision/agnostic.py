"""Deck-agnostic reader, for a deck nobody has enrolled.

What works today: telling a face from a back without knowing the deck (a face has flat paper
somewhere inside its frame; a back is patterned edge to edge), and reading the suit from the
frame-line breaks along the short edges (unbroken: oros, one break: copas, two: espadas, three:
bastos). The rank (corner numeral) is not read yet, so every face is reported as unknown: the
reader never guesses a code. The suit is kept on `Identity.candidate` as e.g. "?C" for diagnostics.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.identify import Identity

SUIT_BY_BREAKS = {0: "O", 1: "C", 2: "E", 3: "B"}


def flat_fraction(rect_bgr: np.ndarray) -> float:
    """Fraction of interior cells with almost no fine texture (plain paper)."""
    g = cv2.cvtColor(cv2.resize(rect_bgr, (62, 96), interpolation=cv2.INTER_AREA),
                     cv2.COLOR_BGR2GRAY).astype(np.float32)
    inner = g[8:-8, 6:-6]
    hp = np.abs(inner - cv2.GaussianBlur(inner, (0, 0), 1.5))
    h, w = (inner.shape[0] // 8) * 8, (inner.shape[1] // 8) * 8
    cells = hp[:h, :w].reshape(h // 8, 8, w // 8, 8).mean(axis=(1, 3))
    return float((cells < 2.5).mean())


def frame_breaks(rect_bgr: np.ndarray) -> int:
    """Gaps in the frame line along the top edge, between the two corner index areas; -1 when no
    frame line is found."""
    g = cv2.cvtColor(rect_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = g.shape
    band = g[int(0.02 * h):int(0.14 * h), int(0.3 * w):int(0.92 * w)]
    if band.size == 0:
        return -1
    # the frame line is the darkest row of the band; a break is a run where that row is light
    rows = band.mean(axis=1)
    r = int(np.argmin(rows))
    line = band[max(r - 1, 0):r + 2].min(axis=0)
    paper = float(np.percentile(band, 90))
    dark = line < paper - 0.35 * (paper - float(line.min()) + 1e-3)
    if dark.mean() < 0.4:
        return -1
    gaps, run = 0, 0
    for v in dark:
        if not v:
            run += 1
        else:
            if run >= 2:
                gaps += 1
            run = 0
    return gaps


class Reader:
    """Identifier interface like `Templates`; conservative: never returns a code it cannot read."""

    def identify(self, rect_bgr: np.ndarray, threshold: float = 0.5) -> Identity:
        flat = flat_fraction(rect_bgr)
        if flat < 0.02:
            return Identity(None, False, 0.7)
        best = None
        for rotated, img in ((False, rect_bgr), (True, cv2.rotate(rect_bgr, cv2.ROTATE_180))):
            n = frame_breaks(img)
            if n in SUIT_BY_BREAKS:
                best = (rotated, SUIT_BY_BREAKS[n])
                break
        if best is None:
            return Identity(None, True, 0.0)
        return Identity(None, True, 0.0, best[0], candidate="?" + best[1])
