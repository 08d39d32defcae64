"""The index numeral: a 6 from a 7, an 8 from a 9, on any deck, by its loops (`loops`) or by
its shape (`shows`).

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

Where the loops are blurred shut, the numeral's whole shape still tells a 7's bar over a slanting
stroke from a 6's round foot: `shows` compares it with the digits drawn in OpenCV's Hershey type
faces at the camera's scale (no deck's own numerals), and takes sepia ink too, the frame line
left out. Measured on index corners of fully visible cards (thirty-ninth session, seeds 20000+
and 50000+ to choose `LIKE` and `APART`, 70000+ to check): of the 6s' and 7s' corners, it told
54 of 122 Naipes, 28 of 148 Fournier and 66 of 148 built-in ones on the check set, and none
wrongly; of the 8s' and 9s', 9 of 104 Naipes (the Hershey 9 is unlike Naipes'), none wrongly.
Another digit's numeral (a card miscounted) was taken for a 6 or a 7 on 5-12 of 236-302 corners.

A face of thick and hairline strokes (Naipes') loses its hairlines to blur: found over `GLYPH`
of its darkest stroke, an 8 is an X and a 9 a bar. So each corner is looked at twice
(`GROWN_LOOK`): as found, and grown into the fainter ink joined to it (`GLYPH_GROWN`), each
against the drawings found the same way (forty-fourth session: the 8s' and 9s' corners told 35-41
of 124-130 against 10-11, none wrongly; docs/vision.md).
"""
from __future__ import annotations

import functools
from typing import Dict, List, Optional, Sequence, Tuple

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


def _glyph(corner_bgr: np.ndarray, neutral: float = NEUTRAL, unlined: bool = False,
           grown: bool = False):
    """The numeral of an index corner, enlarged SCALE times: (box x, y, w, h; its darkness; that
    darkness with its holes filled; its pixels; the darkest level), or None when the corner
    shows no numeral plainly. Only pixels under ``neutral`` Lab chroma count as its ink;
    ``unlined``: straight lines longer than any stroke of a numeral (the frame line's, which
    runs past the index, joined to it where blurred) are no ink either, and ``grown``: then
    the darkest level is the ink left's, and the numeral takes in its faint strokes
    (`GLYPH_GROWN`)."""
    lab = cv2.resize(cv2.cvtColor(corner_bgr, cv2.COLOR_BGR2Lab).astype(np.float32), None,
                     fx=SCALE, fy=SCALE, interpolation=cv2.INTER_CUBIC)
    light = lab[..., 0]
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    paper = float(np.percentile(light, 90))
    dark = np.where(chroma < neutral, np.maximum(paper - light, 0), 0).astype(np.float32)
    top = float(dark.max())
    if top < CONTRAST:
        return None
    if unlined:
        dark = _unlined(dark, top)
        if grown:  # (a frame line darker than the numeral cut it to its darkest stroke)
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
    box = tuple(int(v) for v in stats[glyph, :4])
    if grown:
        pixels = _grown(filled, labels == glyph, box, top)
        ys, xs = np.nonzero(pixels)
        x, y = int(xs.min()), int(ys.min())
        return (x, y, int(xs.max()) - x + 1, int(ys.max()) - y + 1), dark, filled, pixels, top
    return box, dark, filled, labels == glyph, top


GLYPH_GROWN = (0.2, 3)  # a numeral's faint strokes: its filled darkness over this share of the
# darkest, joined to its dark part (`GLYPH`) within this many enlarged pixels of that part's box
# (the frame line runs on past it). A high-contrast face's hairlines are faint once blurred:
# Naipes' 8s and 9s were found as their thick strokes alone, an X and a bar


def _grown(filled: np.ndarray, pixels: np.ndarray, box: Tuple[int, int, int, int],
           top: float) -> np.ndarray:
    """``pixels``, a numeral's dark part, and the fainter ink joined to them (`GLYPH_GROWN`)."""
    share, pad = GLYPH_GROWN
    x, y, w, h = box
    near = np.zeros_like(pixels)
    near[max(y - pad, 0):y + h + pad, max(x - pad, 0):x + w + pad] = True
    _, labels, _, _ = components(((filled > share * top) & near).astype(np.uint8))
    keep = np.unique(labels[pixels])
    return np.isin(labels, keep[keep > 0])


LINE_PX = (28, 28)  # enlarged pixels: a straight run of ink this long, across and down, is a frame
# line (a numeral is 25 tall at most, `GLYPH_H`; a 7's bar is 16 across at most)


def _unlined(dark: np.ndarray, top: float) -> np.ndarray:
    """``dark`` less its straight horizontal and vertical runs of LINE_PX or more, and a pixel
    round them."""
    ink = (dark > GLYPH * top).astype(np.uint8)
    lines = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, LINE_PX[0]), np.uint8)) | \
        cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((LINE_PX[1], 1), np.uint8))
    if not lines.any():
        return dark
    return np.where(cv2.dilate(lines, np.ones((3, 3), np.uint8)) > 0, 0, dark).astype(np.float32)


def pockets(corner_bgr: np.ndarray) -> Optional[List[Tuple[float, float]]]:
    """(place down the glyph, depth) of each pocket in the numeral of an index corner, or None
    when the corner shows no numeral plainly."""
    found = _glyph(corner_bgr)
    if found is None:
        return None
    (x, y, w, h), dark, filled, _, top = found
    depth = np.zeros_like(dark)
    depth[y:y + h, x:x + w] = (filled - dark)[y:y + h, x:x + w]
    m, plabels, pstats, pcentres = components((depth > DEPTH * top).astype(np.uint8))
    return [(float((pcentres[j][1] - y) / h), float(depth[plabels == j].max() / top))
            for j in range(1, m) if pstats[j, cv2.CC_STAT_AREA] >= POCKET_PX]


def _corners_in_view(rect_bgr: np.ndarray, cover: Optional[np.ndarray] = None) -> List[np.ndarray]:
    """The card's two index corners (`CORNER`, upright), those no part of ``cover`` lies over
    (0/1 or bool at the card's size, 1 where something lies over it)."""
    y0, y1, x0, x1 = CORNER
    out = []
    for turned in (False, True):
        if cover is not None:
            c = cover[::-1, ::-1] if turned else cover  # any dtype: bool maps too
            if c[y0:y1, x0:x1].any():
                continue
        img = cv2.rotate(rect_bgr, cv2.ROTATE_180) if turned else rect_bgr
        out.append(img[y0:y1, x0:x1])
    return out


def loops(rect_bgr: np.ndarray, cover: Optional[np.ndarray] = None) -> Optional[str]:
    """'lower' if the card's index numeral has a loop in its lower half (a 6 or an 8), 'upper'
    if only in its upper half (a 9), None if no corner in view says plainly, or they disagree.
    ``cover``: 0/1 at the card's size, 1 where something lies over it."""
    said = set()
    for corner in _corners_in_view(rect_bgr, cover):
        found = pockets(corner)
        if not found:
            continue
        if any(LOWER[0] <= place <= LOWER[1] for place, _ in found):
            said.add("lower")
        elif any(UPPER[0] <= place <= UPPER[1] for place, _ in found):
            said.add("upper")
    return said.pop() if len(said) == 1 else None


# Which of two digits a numeral shows (`shows`), by its likeness to the digits drawn in OpenCV's
# Hershey type faces: no deck's own numerals, so an unfamiliar deck is read alike. Each digit is
# drawn as a camera sees an index corner (`_drawn_corner`: a few pixels tall, blurred) and found
# by the same `_glyph` as a card's.
SHAPE = (12, 18)  # a glyph is compared resized to this (width, height), zero-mean, unit norm
FACES = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL)
DRAWN_PX = 9  # the drawn digit's height (rectified pixels: a printed index, 95 mm card)
DRAWN_BLURS = (0.0, 0.6, 1.0)  # sigmas (rectified pixels) it is drawn at
DRAWN_STROKES = (1, 2, 3)  # stroke weights: lines 3, 6 and 9 px wide drawn at 8x (0.4-1.1 px)
LIKE = 0.6  # a numeral like neither digit's drawings this well says nothing (a blurred blob,
# a pinta's edge taken for a glyph)
APART = 0.25  # ... nor one this little more like one digit than the other
DIGITS = "123456789"  # the digits a numeral is told among (a figure's 10, 11, 12 are two)
INKS = (NEUTRAL, 30)  # the chroma under which a pixel is the numeral's ink: grey first, then
# a sepia print's (Fournier's brown numerals have 20-30)


def _drawn_corner(digit: str, face: int, stroke: int, sigma: float) -> np.ndarray:
    """An index corner (BGR, `CORNER`'s size) with ``digit`` drawn dark on paper at the camera's
    scale: drawn 8x, shrunk by area, blurred."""
    k = 8
    h, w = CORNER[1] - CORNER[0], CORNER[3] - CORNER[2]
    big = np.full((h * k, w * k), 235, np.uint8)
    scale = cv2.getFontScaleFromHeight(face, DRAWN_PX * k, stroke)
    (tw, th), _ = cv2.getTextSize(digit, face, scale, stroke)
    cv2.putText(big, digit, ((w * k - tw) // 2, (h * k + th) // 2), face, scale, 60, stroke * k // 3 + 1,
                cv2.LINE_AA)
    small = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
    if sigma:
        small = cv2.GaussianBlur(small, (0, 0), sigma)
    return cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)


def _shape(found) -> np.ndarray:
    """A `_glyph`'s darkness over its box, at `SHAPE`, zero-mean and of unit norm."""
    (x, y, w, h), dark, _, pixels, _ = found
    d = cv2.resize((dark * pixels)[y:y + h, x:x + w], SHAPE, interpolation=cv2.INTER_AREA).ravel()
    d = d - d.mean()
    return d / (np.linalg.norm(d) + 1e-9)


_DRAWN: dict = {}  # (digit, and the settings it was drawn with) -> its shapes


def drawn(digit: str, grown: bool = False) -> np.ndarray:
    """The shapes of ``digit`` drawn in every face, stroke and blur (one row each), found as a
    card's numeral is (``grown``: as `_glyph`'s), made once for the settings of the moment
    (`bench compare` may change them)."""
    key = (digit, grown, FACES, DRAWN_PX, DRAWN_BLURS, DRAWN_STROKES, SHAPE,
           GLYPH_GROWN if grown else None)
    if key not in _DRAWN:
        rows = []
        for face in FACES:
            for italic in (0, cv2.FONT_ITALIC):
                for stroke in DRAWN_STROKES:
                    for sigma in DRAWN_BLURS:
                        found = _glyph(_drawn_corner(digit, face | italic, stroke, sigma),
                                       grown=grown)
                        if found is not None:
                            rows.append(_shape(found))
        _DRAWN[key] = np.stack(rows)
    return _DRAWN[key]


def drawings() -> Dict[str, np.ndarray]:
    """Every digit's drawings (`drawn`), both looks, made once (about a second)."""
    return {(d, grown): drawn(d, grown) for d in DIGITS for grown in (False, True)}


def glyph_shape(corner_bgr: np.ndarray, grown: bool = False) -> Optional[np.ndarray]:
    """The shape (`_shape`) of an index corner's numeral, its ink grey or else sepia (`INKS`), the
    frame line left out (``grown``: with its faint strokes, `GLYPH_GROWN`); None when the corner
    shows no numeral plainly."""
    for ink in INKS:
        found = _glyph(corner_bgr, ink, unlined=True, grown=grown)
        if found is not None:
            return _shape(found)
    return None


def likeness(shape: np.ndarray, grown: bool = False) -> Dict[str, float]:
    """How like each digit's drawings (`drawn`) a numeral's shape is: the best correlation."""
    return {d: float((drawn(d, grown) @ shape).max()) for d in DIGITS}


def corner_likeness(corner_bgr: np.ndarray, grown: bool = False) -> Optional[Dict[str, float]]:
    """The `likeness` of an index corner's numeral (`glyph_shape`), or None when it shows none
    plainly; remembered for the last corners looked at, whose pixels and the settings of the
    moment are the same (the readers ask of one corner in turn: a 6 or a 7, a 7 or an 8,
    another digit?), not to be changed."""
    settings = (NEUTRAL, CONTRAST, GLYPH, GLYPH_H, GLYPH_W, GLYPH_GROWN, LINE_PX, INKS, SHAPE,
                FACES, DRAWN_PX, DRAWN_BLURS, DRAWN_STROKES, DIGITS)
    return _corner_likeness(corner_bgr.tobytes(), corner_bgr.shape, grown, settings)


@functools.lru_cache(maxsize=16)
def _corner_likeness(data: bytes, shape: tuple, grown: bool, settings: tuple):
    found = glyph_shape(np.frombuffer(data, np.uint8).reshape(shape), grown)
    return None if found is None else likeness(found, grown)


def gainsays(rect_bgr: np.ndarray, digit: str, cover: Optional[np.ndarray] = None,
             among: Optional[Sequence[str]] = None) -> bool:
    """Whether a corner's numeral in view plainly shows another digit than ``digit``: liked best
    of all, by `LIKE` at least and by `APART` more than ``digit`` (a count taken without the
    numeral's word is vetoed so). ``cover``: as for `loops`; ``among``: the digits that may
    gainsay it (default: any)."""
    for corner in _corners_in_view(rect_bgr, cover):
        like = corner_likeness(corner)
        if like is None:
            continue
        best = max(like, key=like.get)
        if best != digit and like[best] >= LIKE and like[best] - like[digit] >= APART and \
                (among is None or best in among):
            return True
    return False


def shows(rect_bgr: np.ndarray, a: str, b: str, cover: Optional[np.ndarray] = None) -> Optional[str]:
    """Which of the digits ``a`` and ``b`` the card's index numeral in view shows, or None when
    no corner says plainly, or they disagree (`corner_shows`). ``cover``: as for `loops`."""
    said = set()
    for corner in _corners_in_view(rect_bgr, cover):
        said |= corner_shows(corner, a, b)
    return said.pop() if len(said) == 1 else None


GROWN_LOOK = True  # a numeral is also looked at with its faint strokes (`GLYPH_GROWN`), against
# the digits' drawings found alike, by `GROWN_APART`; the two looks must not disagree
GROWN_APART = {"89": 0.1}  # by pair, else `APART`: an 8 and a 9 differ by one stroke, the lower
# loop's left side, so their drawings' likeness differs less (measured: docs/vision.md)


def corner_shows(corner_bgr: np.ndarray, a: str, b: str) -> set:
    """The digits of ``a`` and ``b`` an index corner's numeral plainly shows, in each look (as
    found, and grown when `GROWN_LOOK`): one that it is like by `LIKE` at least and by the
    look's margin more than the other, and like no other digit more (a card's pintas miscounted
    must not be confirmed by a third rank's numeral that happens to look more like one of
    the two). Empty when it says neither; both when its looks disagree."""
    said = set()
    for grown in (False, True) if GROWN_LOOK else (False,):
        like = corner_likeness(corner_bgr, grown)
        if like is None:
            continue
        apart = GROWN_APART.get(min(a, b) + max(a, b), APART) if grown else APART
        best = a if like[a] > like[b] else b
        if like[best] >= LIKE and abs(like[a] - like[b]) >= apart and \
                max(like, key=like.get) == best:
            said.add(best)
    return said
