"""The suit from the breaks in the frame line along a card's short sides.

A Spanish deck prints a thin frame line a few pixels in from the card's edge. Along each short
side it is unbroken on oros, broken once on copas, twice on espadas and three times on bastos,
and every deck measured spaces the breaks alike: copas' gap in the middle, a fifth of the card
wide; espadas' two at a third and two thirds; bastos' three at a quarter, a half and three
quarters. The picture never covers it, so where a figure's held pinta is hidden or blurred away
the line still names the suit (`frame_suit`).

Each short side is read on its own, the card turned so that side is on top (`read_side`): the
line's row is found in each half of the side (an outline a little off tilts it), and each column
along it is line (a thin dark row), paper (light: a break) or neither (ink touching it, or a part
hidden by another card or a hand). The breaks must lie where one suit's lie, and the places where
the suits that could be mistaken for it would break must show line: a break hidden under ink is
never taken for no break. Measured on figures and number cards at the pipeline's outlines
(seeds 20000 and 70000, 100 scenes a deck): over 80% of the printed decks' fully visible cards
named, none wrong (docs/vision.md, fortieth session).
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import cv2
import numpy as np

from vision.card_colours import card_hsv

LINE_DARKER = 8.0  # a line pixel is this much darker (grey levels) than the pixels 3 px above and
# below it (the card blurred by 0.7 px: a one-pixel line at the camera's scale)
BAND = (0.03, 0.14)  # the rows of the card, from the side, where the line lies (printed decks
# 0.05-0.07; the built-in deck's 0.12)
SPAN = (0.05, 0.95)  # the columns it is read over (the line runs from 0.07 to 0.93)
ROW_SHARE = 0.6  # the line's row: the outermost whose line pixels are this share of the most any
# row has (the darkest row may be a figure's shadow or its feet below it)
PAPER_DEPTH = 0.4  # a pixel of the line's row is paper if less than this share of the line's
# depth below the paper (over the line's row and the ones either side of it)
LINE_DEPTH = 0.6  # ... and line only if at least this share of it: the speckle of old paper passes
# the thin-row test, never this deep
PAPER_SAT = 40  # ... and no more saturated than the paper by this (a yellow crown over the line
# is as light as paper in grey: a Fournier rey of oros's read as a break)
GAP = 0.04  # a break is at least this wide (share of the card's width; a one- or two-pixel
# light run inside the line is noise)
BREAKS = {"C": (0.5,), "E": (0.335, 0.665), "B": (0.255, 0.5, 0.745)}  # break centres (share
# of the width, measured on the reference decks: within 0.02 of these; the built-in deck's 0.36
# and 0.64, 0.29 and 0.71)
PLACE = 0.05  # a break's centre within this of its place
WIDTHS = {"C": (0.07, 0.36), "E": (0.07, 0.24), "B": (0.05, 0.17)}  # and of this width (printed
# decks' copas 0.20-0.28, espadas 0.15-0.17, bastos 0.10-0.12; the built-in deck's 0.09; two
# espadas breaks run together are 0.5 wide)
MUST_SHOW_LINE = {"O": (0.255, 0.335, 0.5, 0.665, 0.745), "C": (0.255, 0.745), "E": (0.5,),
                  "B": ()}  # where the suits that could be mistaken for it break, the line must
# show: at least `LINE_THERE` of `THERE` either side line, and no paper
THERE, LINE_THERE = 0.03, 0.5
WHOLE_LINE = (0.07, 0.9, 0.8)  # and an unbroken line (oros) must be line over this much of these
# columns: a figure's feet or shadow can pass for a line, never over the whole side
LINE_END = (0.85, 0.9, 0.6)  # ... and run on to the corner away from the index: a figure's
# shadow stops short of it (a Naipes rey of bastos's feet end, its faint line at 0.03 of the
# card passed over, read as oros: seed 30073)
THROUGH = 0.1  # a card lies on top where its line shows through another card's part of the band
# over this share of the card's width (`through`)

LINE, PAPER, OTHER = 1, 0, 2


def frame_suit(rect_bgr: np.ndarray, covered: Optional[np.ndarray] = None) -> Optional[str]:
    """The suit ('O', 'C', 'E' or 'B') both short sides' frame lines agree on, or the one side
    read names; None if neither is read or they disagree. ``covered``: 1 where another card or a
    hand lies over the card (any size): no line is read there (another card's paper would pass
    for a break)."""
    h, w = rect_bgr.shape[:2]
    hidden = None
    if covered is not None:
        hidden = cv2.resize(covered.astype(np.uint8), (w, h),
                            interpolation=cv2.INTER_NEAREST) > 0
    read = set()
    for side in _sides(rect_bgr):
        states, x0, rows = side_states(*side[:2])
        if hidden is not None:
            states[_turned(hidden, side)[rows, x0 + np.arange(states.size)]] = OTHER
        suit = read_side(states, x0, w)
        if suit is not None:
            read.add(suit)
    return read.pop() if len(read) == 1 else None


def through(rect_bgr: np.ndarray, overlap: np.ndarray) -> Optional[str]:
    """The suit a short side's frame line names, read whole, where that line shows over at least
    `THROUGH` of the card's width inside ``overlap`` (1 where another card overlaps this one,
    whichever lies on top; any size): the card's own line runs on there, so it lies on top.
    None if no side so names one suit. (Another card lying on this one shows its paper where
    the line would run, which reads as breaks: a Fournier caballo under a card turned alike, its
    first break under the other card's paper, read whole as a sota: seed 30008.)"""
    h, w = rect_bgr.shape[:2]
    over = cv2.resize(overlap.astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST) > 0
    y0, y1 = _band(h)
    crossed = [np.count_nonzero(o[y0:y1].any(axis=0)) >= THROUGH * w
               for o in (over, over[::-1, ::-1])]
    if not any(crossed):
        return None  # (the overlap crosses no side's line: the dearer part is not done)
    read = set()
    for side, crossing in zip(_sides(rect_bgr), crossed):
        if not crossing:
            continue
        states, x0, rows = side_states(*side[:2])
        states = _filled(states)
        inside = _turned(over, side)[rows, x0 + np.arange(states.size)]
        if np.count_nonzero((states == LINE) & inside) < THROUGH * w:
            continue  # (its line must show there: another card's paper passes for a break)
        suit = read_side(states, x0, w, filled=True)
        if suit is not None:
            read.add(suit)
    return read.pop() if len(read) == 1 else None


def _sides(rect_bgr: np.ndarray) -> List[Tuple[np.ndarray, np.ndarray, bool]]:
    """The card's grey plane (float, blurred 0.7 px) and its saturation, as it lies and turned:
    each short side on top in turn, and whether turned."""
    grey = cv2.GaussianBlur(cv2.cvtColor(rect_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32),
                            (0, 0), 0.7)
    sat = card_hsv(rect_bgr)[..., 1]
    return [(grey, sat, False), (grey[::-1, ::-1], sat[::-1, ::-1], True)]


def _turned(mask: np.ndarray, side: Tuple[np.ndarray, np.ndarray, bool]) -> np.ndarray:
    """A card-sized map as the side's planes lie."""
    return mask[::-1, ::-1] if side[2] else mask


def _band(h: int) -> Tuple[int, int]:
    """The rows of a card ``h`` px long where the top side's line is looked for (`BAND`)."""
    return max(int(BAND[0] * h), 3), int(BAND[1] * h)


def read_side(states: np.ndarray, x0: int, w: int, filled: bool = False) -> Optional[str]:
    """The suit a side's `side_states` name, or None (``filled``: already `_filled`)."""
    if not filled:
        states = _filled(states)
    gaps = breaks(states, w)
    centres = [(a + b) / 2 / w + x0 / w for a, b in gaps]
    widths = [(b - a) / w for a, b in gaps]
    for suit in ("O", "C", "E", "B"):
        places = BREAKS.get(suit, ())
        if len(places) != len(centres):
            continue
        if suit != "O":
            lo, hi = WIDTHS[suit]
            if not all(abs(c - p) <= PLACE and lo <= d <= hi
                       for c, p, d in zip(centres, places, widths)):
                return None
        elif _line_share(states, x0, w, *WHOLE_LINE[:2]) < WHOLE_LINE[2] or \
                _line_share(states, x0, w, *LINE_END[:2]) < LINE_END[2]:
            return None
        return suit if all(_shows_line(states, x0, w, c) for c in MUST_SHOW_LINE[suit]) else None
    return None


def side_states(grey: np.ndarray, sat: np.ndarray) -> Tuple[np.ndarray, int, np.ndarray]:
    """Each column of the top side's frame line (over `SPAN`) on a card's grey (float, blurred)
    and saturation planes: `LINE`, `PAPER` or `OTHER`; the first column's index in the card;
    and the line's row in each column (of the card)."""
    h, w = grey.shape
    y0, y1 = _band(h)
    x0, x1 = int(SPAN[0] * w), int(SPAN[1] * w)
    mid = grey[y0:y1, x0:x1]
    thin = (np.minimum(grey[y0 - 3:y1 - 3, x0:x1], grey[y0 + 3:y1 + 3, x0:x1]) - mid) \
        > LINE_DARKER
    near = thin.copy()  # a row's line pixels, a pixel either way allowed
    near[1:] |= thin[:-1]
    near[:-1] |= thin[1:]
    n = x1 - x0
    rows = []
    for a, b in ((0, n // 2), (n // 2, n)):
        counts = near[:, a:b].sum(axis=1)
        rows.append(int(np.flatnonzero(counts >= ROW_SHARE * counts.max())[0]))
    xs = np.arange(n)
    row = np.round(rows[0] + (rows[1] - rows[0]) * (xs - n / 4) / (n / 2)).astype(int)
    row = row.clip(1, mid.shape[0] - 2)
    on_line = near[row, xs]
    darkest = np.minimum(np.minimum(mid[row - 1, xs], mid[row, xs]), mid[row + 1, xs])
    paper = _quantile(mid.ravel(), 0.9)
    depth = _quantile(paper - darkest[on_line], 0.5) if np.count_nonzero(on_line) >= 5 else 0.0
    part = sat[y0:y1, x0:x1]
    papery = part[mid >= paper - 5]
    paper_sat = _quantile(papery, 0.5) if papery.size else 0.0
    vivid = np.maximum(np.maximum(part[row - 1, xs], part[row, xs]), part[row + 1, xs])
    light = (paper - darkest < PAPER_DEPTH * depth) & (vivid <= paper_sat + PAPER_SAT)
    deep = paper - darkest >= LINE_DEPTH * depth
    alone = (sat[y0 + row - 3, x0 + xs] <= paper_sat + PAPER_SAT) & \
        (sat[y0 + row + 3, x0 + xs] <= paper_sat + PAPER_SAT)
    states = np.where(on_line & deep & alone, LINE, np.where(light, PAPER, OTHER))
    return states, x0, y0 + row


def _quantile(values: np.ndarray, q: float) -> float:
    """The linear quantile of a flat array (numpy's default method, up to float rounding), by
    partition: np.percentile's checks cost more than the work on these few thousand values."""
    k = q * (values.size - 1)
    lo = int(k)
    hi = min(lo + 1, values.size - 1)
    part = np.partition(values, (lo, hi))
    return float(part[lo] + (k - lo) * (float(part[hi]) - float(part[lo])))


def breaks(states: np.ndarray, w: int) -> List[Tuple[int, int]]:
    """The breaks of a side's states (`_filled`) as (start, end) columns: paper runs of at least
    `GAP` of the card's width ``w`` with something other than paper at both ends."""
    runs = _runs(states)
    return [(a, b) for k, (v, a, b) in enumerate(runs)
            if v == PAPER and b - a >= GAP * w and 0 < k < len(runs) - 1]


def _filled(states: np.ndarray) -> np.ndarray:
    """``states`` with each paper run of two columns or less inside the side taken as line, and
    then each run of two or less of something else between paper as paper (a speck in a
    break)."""
    out = states.copy()
    runs = _runs(states)
    for k, (v, a, b) in enumerate(runs):
        if v == PAPER and b - a <= 2 and 0 < k < len(runs) - 1:
            out[a:b] = LINE
    runs = _runs(out)
    for k, (v, a, b) in enumerate(runs):
        if v == OTHER and b - a <= 2 and 0 < k < len(runs) - 1 and \
                runs[k - 1][0] == PAPER and runs[k + 1][0] == PAPER:
            out[a:b] = PAPER
    return out


def _runs(states: np.ndarray) -> List[Tuple[int, int, int]]:
    """(state, start, end) of each run of equal states."""
    edges = np.flatnonzero(np.diff(states)) + 1
    starts = np.concatenate(([0], edges))
    ends = np.concatenate((edges, [len(states)]))
    return [(int(states[a]), int(a), int(b)) for a, b in zip(starts, ends)]


def _line_share(states: np.ndarray, x0: int, w: int, a: float, b: float) -> float:
    """The share of the side's columns from ``a`` to ``b`` (shares of the width) that are line."""
    return float(np.mean(states[int(a * w) - x0:int(b * w) - x0] == LINE))


def _shows_line(states: np.ndarray, x0: int, w: int, centre: float) -> bool:
    """Whether the side shows line (no paper) about ``centre`` (share of the width)."""
    part = states[int((centre - THERE) * w) - x0:int((centre + THERE) * w) - x0]
    return part.size > 0 and float(np.mean(part == LINE)) >= LINE_THERE and \
        not np.any(part == PAPER)
