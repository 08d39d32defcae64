"""The project's own procedurally drawn Spanish deck, so a fresh machine can render scenes.

It follows the conventions the deck-agnostic reader relies on: a frame line along the edges broken
0/1/2/3 times for oros/copas/espadas/bastos, corner numerals top-left and (rotated) bottom-right,
suit pips in the classic layouts, and simple figures for sota, caballo and rey.
"""
from __future__ import annotations

import functools

import cv2
import numpy as np

from table.cards import Card, Suit, deck

W, H = 246, 380  # 4 px per mm
INK = (40, 40, 40)
SUIT_COLOURS = {  # BGR
    "O": ((40, 180, 235), (20, 110, 170)),
    "C": ((40, 40, 200), (30, 160, 220)),
    "E": ((190, 120, 50), (40, 170, 220)),
    "B": ((40, 140, 60), (40, 60, 160)),
}
BREAKS = {"O": 0, "C": 1, "E": 2, "B": 3}

# pip centres in card fractions (x, y) per rank
_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.27), (0.5, 0.73)],
    3: [(0.5, 0.22), (0.5, 0.5), (0.5, 0.78)],
    4: [(0.33, 0.27), (0.67, 0.27), (0.33, 0.73), (0.67, 0.73)],
    5: [(0.33, 0.25), (0.67, 0.25), (0.5, 0.5), (0.33, 0.75), (0.67, 0.75)],
    6: [(0.33, 0.22), (0.67, 0.22), (0.33, 0.5), (0.67, 0.5), (0.33, 0.78), (0.67, 0.78)],
    7: [(0.33, 0.2), (0.67, 0.2), (0.5, 0.36), (0.33, 0.52), (0.67, 0.52), (0.33, 0.8), (0.67, 0.8)],
    8: [(0.33, 0.2), (0.67, 0.2), (0.33, 0.4), (0.67, 0.4), (0.33, 0.6), (0.67, 0.6),
        (0.33, 0.8), (0.67, 0.8)],
    9: [(0.33, 0.2), (0.67, 0.2), (0.33, 0.4), (0.67, 0.4), (0.5, 0.5), (0.33, 0.6), (0.67, 0.6),
        (0.33, 0.8), (0.67, 0.8)],
}


def _pip(img, suit: str, cx: int, cy: int, s: float):
    """Draw one suit symbol of size s (pixels, about its height) centred at (cx, cy)."""
    main, accent = SUIT_COLOURS[suit]
    if suit == "O":
        r = int(s * 0.42)
        cv2.circle(img, (cx, cy), r, main, -1, cv2.LINE_AA)
        cv2.circle(img, (cx, cy), r, accent, max(2, int(s * 0.06)), cv2.LINE_AA)
        cv2.circle(img, (cx, cy), int(r * 0.45), accent, max(1, int(s * 0.04)), cv2.LINE_AA)
    elif suit == "C":
        w = s * 0.38
        bowl = np.array([[cx - w, cy - s * 0.4], [cx + w, cy - s * 0.4], [cx + w * 0.55, cy],
                         [cx - w * 0.55, cy]], np.int32)
        cv2.fillConvexPoly(img, bowl, main, cv2.LINE_AA)
        cv2.rectangle(img, (int(cx - w), int(cy - s * 0.45)), (int(cx + w), int(cy - s * 0.36)),
                      accent, -1)
        cv2.rectangle(img, (int(cx - s * 0.06), int(cy)), (int(cx + s * 0.06), int(cy + s * 0.28)),
                      accent, -1)
        cv2.ellipse(img, (cx, int(cy + s * 0.36)), (int(w * 0.8), int(s * 0.09)), 0, 0, 360, main,
                    -1, cv2.LINE_AA)
    elif suit == "E":
        t = max(3, int(s * 0.09))
        cv2.line(img, (cx, int(cy - s * 0.5)), (cx, int(cy + s * 0.25)), main, t, cv2.LINE_AA)
        cv2.line(img, (int(cx - s * 0.2), int(cy + s * 0.25)), (int(cx + s * 0.2), int(cy + s * 0.25)),
                 accent, t, cv2.LINE_AA)
        cv2.line(img, (cx, int(cy + s * 0.25)), (cx, int(cy + s * 0.48)), accent, t + 1, cv2.LINE_AA)
    else:  # bastos: a knotty club, thick at the top
        pts = np.array([[cx - s * 0.07, cy + s * 0.5], [cx + s * 0.07, cy + s * 0.5],
                        [cx + s * 0.2, cy - s * 0.35], [cx, cy - s * 0.52],
                        [cx - s * 0.2, cy - s * 0.35]], np.int32)
        cv2.fillPoly(img, [pts], main, cv2.LINE_AA)
        for k in (-0.15, 0.1, 0.3):
            cv2.circle(img, (int(cx + s * 0.1), int(cy + s * k)), max(2, int(s * 0.04)), accent, -1)


def _frame(img, suit: str):
    """Frame line inset from the edges, with the suit's number of breaks on top and bottom."""
    m = 22
    x0, y0, x1, y1 = m, m + 24, W - m, H - m - 24
    cv2.line(img, (x0, y0), (x0, y1), INK, 2)
    cv2.line(img, (x1, y0), (x1, y1), INK, 2)
    n = BREAKS[suit]
    gap = 22
    for y in (y0, y1):
        span = x1 - x0
        cuts = [x0 + span * (i + 1) / (n + 1) for i in range(n)]
        edges = [x0] + [v for c in cuts for v in (c - gap / 2, c + gap / 2)] + [x1]
        for a, b in zip(edges[0::2], edges[1::2]):
            cv2.line(img, (int(a), y), (int(b), y), INK, 2)


def _numeral(img, rank: int, colour):
    txt = str(rank)
    scale = 1.15 if rank < 10 else 1.0
    (tw, th), _ = cv2.getTextSize(txt, cv2.FONT_HERSHEY_DUPLEX, scale, 2)
    cv2.putText(img, txt, (12, 12 + th), cv2.FONT_HERSHEY_DUPLEX, scale, colour, 2, cv2.LINE_AA)


def _figure(img, rank: int, suit: str):
    """A simple figure: sota standing, caballo on a horse, rey crowned; tinted by suit."""
    main, accent = SUIT_COLOURS[suit]
    # the cloak carries the suit (so figures of one rank differ by far more than the small pip),
    # the trim and headgear carry the rank
    skin = (150, 190, 235)
    cloak = {"O": (30, 150, 210), "C": (50, 50, 180), "E": (170, 100, 40), "B": (50, 120, 50)}[suit]
    trim = {10: (200, 200, 200), 11: (40, 40, 40), 12: (30, 190, 240)}[rank]
    cx = W // 2
    if rank == 11:
        cv2.ellipse(img, (cx, 270), (80, 38), 0, 0, 360, (60, 100, 150), -1, cv2.LINE_AA)
        for dx in (-60, -30, 35, 65):
            cv2.line(img, (cx + dx, 290), (cx + dx + 5, 335), (60, 100, 150), 9, cv2.LINE_AA)
        cv2.ellipse(img, (cx - 85, 230), (22, 32), -30, 0, 360, (60, 100, 150), -1, cv2.LINE_AA)
        body_top, body_bot = 150, 262
    else:
        body_top, body_bot = 140, 330
    # the rey wears a wide royal mantle and holds his pip on the other side: the sota and the rey
    # of a suit must differ in large shapes too, not only in a crown a small card blurs away
    hem = 72 if rank == 12 else 50
    cv2.fillPoly(img, [np.array([[cx - 30, body_top], [cx + 30, body_top], [cx + hem, body_bot],
                                 [cx - hem, body_bot]], np.int32)], cloak, cv2.LINE_AA)
    cv2.line(img, (cx - hem, body_bot - 6), (cx + hem, body_bot - 6), trim, 8)
    cv2.line(img, (cx, body_top), (cx, body_bot - 10), trim, 5)
    cv2.circle(img, (cx, body_top - 25), 24, skin, -1, cv2.LINE_AA)
    if rank == 12:
        crown = np.array([[cx - 22, body_top - 45], [cx - 22, body_top - 68], [cx - 10, body_top - 55],
                          [cx, body_top - 72], [cx + 10, body_top - 55], [cx + 22, body_top - 68],
                          [cx + 22, body_top - 45]], np.int32)
        cv2.fillPoly(img, [crown], (30, 190, 240), cv2.LINE_AA)
    else:
        cv2.ellipse(img, (cx, body_top - 45), (28, 10), 0, 0, 360, accent, -1, cv2.LINE_AA)
    _pip(img, suit, cx - 62 if rank == 12 else cx + 62, body_top + 10, 54)


@functools.lru_cache(maxsize=None)
def draw_card(code: str) -> np.ndarray:
    """The face of one card as BGRA (W x H portrait), transparent outside the rounded corners."""
    card = Card.parse(code)
    rank, suit = int(card.rank), card.suit.letter
    img = np.full((H, W, 3), (232, 242, 246), np.uint8)
    _frame(img, suit)
    colour = SUIT_COLOURS[suit][0] if suit != "O" else (20, 110, 170)
    _numeral(img, rank, colour)
    rot = cv2.rotate(img, cv2.ROTATE_180)
    _numeral(rot, rank, colour)
    img = cv2.rotate(rot, cv2.ROTATE_180)
    if rank <= 9:
        size = 96 if rank == 1 else 62
        for fx, fy in _PIPS[rank]:
            _pip(img, suit, int(fx * W), int(fy * H), size)
    else:
        _figure(img, rank, suit)
    return _with_rounded_alpha(img)


@functools.lru_cache(maxsize=None)
def draw_back() -> np.ndarray:
    """A card back: white border, dense symmetric blue lattice."""
    img = np.full((H, W, 3), (235, 240, 242), np.uint8)
    inner = np.full((H - 36, W - 36, 3), (120, 40, 30), np.uint8)
    for y in range(0, inner.shape[0], 14):
        for x in range(0, inner.shape[1], 14):
            cv2.circle(inner, (x + 7, y + 7), 4, (210, 170, 150), -1, cv2.LINE_AA)
    for k in range(-inner.shape[0], inner.shape[1], 28):
        cv2.line(inner, (k, 0), (k + inner.shape[0], inner.shape[0]), (200, 150, 120), 1, cv2.LINE_AA)
        cv2.line(inner, (k + inner.shape[0], 0), (k, inner.shape[0]), (200, 150, 120), 1, cv2.LINE_AA)
    img[18:H - 18, 18:W - 18] = inner
    return _with_rounded_alpha(img)


def _with_rounded_alpha(img: np.ndarray, r: int = 14) -> np.ndarray:
    a = np.zeros(img.shape[:2], np.uint8)
    cv2.rectangle(a, (r, 0), (W - 1 - r, H - 1), 255, -1)
    cv2.rectangle(a, (0, r), (W - 1, H - 1 - r), 255, -1)
    for cx, cy in ((r, r), (W - 1 - r, r), (r, H - 1 - r), (W - 1 - r, H - 1 - r)):
        cv2.circle(a, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return np.dstack([img, a])


def builtin_faces(size: int = 48) -> dict:
    return {str(c): draw_card(str(c)) for c in deck(size)}


SUITS = [s.letter for s in Suit]
