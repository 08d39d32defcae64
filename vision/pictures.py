"""Picture cards of a deck nobody enrolled: figures and the aces drawn as one big emblem.

Spanish decks differ in their drawing but share their iconography. The rey (12) is a crowned king
in a long robe that fills its outline; the caballo (11) a rider on a brown horse, a compact mass
with legs cut out of it; the sota (10) a page standing, slender. The ace of copas is one large
cup, mirror-symmetric; the ace of oros a large round medallion; the ace of bastos one long club;
the 3 of bastos three clubs crossed.
So the card's ink taken as one silhouette (`silhouette`) tells these apart: how much of the card
it covers, how much of its own outline it fills (solidity), how long it is, and how nearly it is
its own mirror image. The pintas cannot: a figure holds one pinta, often run into its arm.

A figure's suit is the pinta it holds up, in the upper part of the card (`figure_suit`): a round
gold coin, a long green club, a thin steel blade, or a small red cup standing apart from the
figure. Each is looked for by colour and shape alone, in both turns of the card; the suit is
named only when exactly one of the four is found.

The limits below were measured on the two printed reference decks rendered into camera scenes
(seeds 20000+ at the true corners and 50000+ through the whole pipeline; docs/vision.md), with a
dead zone between every two classes. The built-in deck draws its figures as plain shapes that
match none of them: the layout reader reads those. A hidden part changes every measure, so a card
that overlaps another is read only if its picture stays clear of the overlap (`read_picture`),
or from its head end alone when that end is in view (`read_head_end`: the trump under the
stock), and one that may be covered somewhere unknown only as `read_unplaced` allows.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import cv2
import numpy as np

from vision import agnostic, frame_line, histogram
from vision.blobs import components
from vision.card_colours import card_hsv, hsv_planes, hue_saturation, paint, pass_on_lab
from vision.memo import last_result

MAIN_SHARE = 0.8  # the silhouette must hold this much of the card's ink (a picture is one blob)
SMALL_OVERLAP = 0.2  # an overlap of at most this share of a card is read through: it hides
# too little of a figure to make it another's (figures read whole on cards judged under another,
# benchmark and fitting seeds: none wrong below 0.29 overlapped; docs/vision.md, sixteenth session;
# 0.12 until the forty-fifth: 0.2 read 22 more figures and aces on `bench compare` seeds 30000+,
# 60000+, 90000+ and 120000+, none wrong; 0.25 read a caballo of bastos as a sota, seed 30008)
SMALL_SURE = 0.12  # ... and over this share, a figure so read must not read as another from its
# head end (`HEAD_END_AGREES`): a Fournier caballo of espadas 0.196 overlapped, its horse's head
# under the other card, read whole as a sota (fresh seed 730020)
FIGURES = ("10", "11", "12")  # read so only: an emblem's limits are one-sided (a caballo with a
# corner of another card in its picture read as a medallion, 0.095 overlapped)
ON_TOP_MARGIN = 0.65  # a card judged under another whose margin is this much paper all round
# (`margin_paper`) lies on top: read whole (figures whose picture ran into a larger overlap,
# benchmark and fitting seeds: the wrong readings 0.39 at most, 13 of the 31 right 0.67-0.93)
HEAD_END_AGREES = True  # ...and a figure so read whole must not read as another from its head end
# (`read_head_end`): the margin cannot tell a card on top from one under another card whose
# paper lies over its margin (a Fournier caballo of bastos, its horse under a 3 of espadas, margin
# 0.72, read whole as a sota: seed 10014 seen from a whole table's height)
COVERED_EMBLEMS = ("1C", "1B", "1E", "3B")  # ...and so are these emblems (not the ace of oros:
# its whole readings on cards that may be covered, benchmark and fitting seeds, 10 wrong, one
# at margin 0.55; none of these four wrong at any margin, 18 right at 0.65 and over; read on a
# card that may be covered somewhere unknown at any margin, twenty-fourth session's six sets:
# 36 more right, none wrong)
MEDALLION_MARGIN = 0.8  # ...but the ace of oros is kept on one whose margin is this much paper
# (its wrong readings above at 0.55 at most; twenty-fourth session's six sets, at 0.65 or 0.8
# alike: 10 more right, none wrong)
SMALL_EMBLEMS = True  # one of COVERED_EMBLEMS read whole on a card overlapped by at most
# SMALL_OVERLAP is kept whatever its margin (Fournier's ace of copas and of bastos on top of the
# trick, 0.11 overlapped, margins 0.38 and 0: the other card's edge runs along them)
MARGIN_PAPER = 0.55  # a card that may be covered somewhere unknown is read only if every
# eighth of each side's margin is this much paper (measured on such cards of the check seeds
# read as figures: the 4 wrong ones, under a hand, another card or beyond a misplaced outline,
# 0.33 at most; 20 of the 39 right ones 0.58 and over)
MEDALLION_LONG = (1.72, 0.72)  # an ace of oros with its banners may be this long if at least this
# symmetric (Fournier's, fitting and check seeds: 1.49-1.68 long, symmetry 0.75-0.90; the caballos
# as yellow and large 1.65-1.83 long but 0.50-0.61 symmetric; a Naipes 8 of oros's coins run into
# one silhouette 0.93 symmetric but 1.75 long)...
MEDALLION_SMALL = 0.32  # ...and as small as this (its banners apart: Fournier's 0.35, share
# 0.77-0.79; no other card's silhouette 0.28-0.36 of the card passes the medallion's limits at
# that symmetry, fitting and check seeds at the true corners)
SOTA_SOLIDITY = 0.76  # a page blurred fills more of its outline (a Naipes sota of bastos in a game:
# 0.74, 2.79 long); still slender (`Silhouette.slenderness` 2.25 asks 2.71+ long at 0.73), which
# no rey (2.25 long at most) nor caballo is. At the true corners of the fitting and check seeds no
# other card's silhouette passes the sota's limits with solidity up to 0.78
CABALLO_LENGTH = {False: 1.65, True: 1.3}  # least elongation of a rider; on a card nothing overlaps,
# a rider blurred, its club apart, may be compact (Fournier's caballo of bastos in a game: 1.36
# long, 0.50 symmetric; 1.65-1.83 at the true corners of the fitting and check seeds), lopsided
# (0.66 at most) unlike the medallion (0.75 and up). Not on a card another overlaps: the other
# card's ink, or its cut, makes a picture compact too (a built-in caballo, 1.39 long, with a
# corner of a card over it took that card's frame line for a held blade: 150000+ seeds)
CROSSED_CLUBS = (1.9, 0.39)  # least elongation, largest share of the card of the 3 of bastos's
# three clubs crossed (1.95 and 0.36 at the true corners; on the outlines the pipeline finds, a
# little inside the card's edge, Fournier's measured 1.93 long and 0.37 of the card: eight seed
# sets, thirty-second session)
FRAME_SUIT = True  # a figure whose held pinta is not found takes the suit its frame line's
# breaks name (`frame_line.frame_suit`), read clear of the cards over it
SHORT_SIDES_ON_TOP = True  # ...or lies on top where a short side's frame line runs on through the
# overlap naming the suit it is read as (`frame_line.through`)
PAGE_TURNED = 0.58  # a page's silhouette is at most this like itself turned (`_turned_likeness`:
# sotas in full view 0.35-0.52, the 3 of bastos's crossed clubs 0.63-0.68; seeds 20000 and 50000
# x 60 per printed deck). A Fournier 3 of bastos, its crossed clubs 0.66 symmetric at the
# pipeline's outline (the 3B's least is 0.72), was read 10E at 0.9 (seed 400076): 0.64 turned.
# None: not asked
PICTURE_CONFIDENCE = 0.9  # measured: see docs/vision.md (thirteenth session)


@dataclass(frozen=True)
class Silhouette:
    """The card's largest ink blob, measured the same whichever way up the card lies."""
    area: float  # fraction of the rectified card
    solidity: float  # area / convex hull area
    elongation: float  # long axis / short axis of the second moments
    share: float  # fraction of all the card's ink blobs' area in this one
    symmetry: float  # overlap (intersection over union) with its mirror image about its own axis
    hues: Dict[str, float]  # fraction of its pixels in each hue class (`agnostic.HUES`)
    turned: float = 0.0  # overlap (intersection over union) with itself turned about its centroid

    @property
    def slenderness(self) -> float:
        """Elongation less what a filled outline adds: a standing page is long for how little of
        its hull it fills; a rider on a horse is compact (measured: pages 2.37 and up, riders
        1.95 and under)."""
        return self.elongation - 4.0 * (self.solidity - 0.62)

    def rank(self, alone: bool = False) -> Optional[str]:
        """'10', '11' or '12' if the silhouette is clearly a figure of that rank, else None.
        ``alone``: nothing overlaps the card, so a compact rider is a rider (`CABALLO_LENGTH`)."""
        a, s, e, y = self.area, self.solidity, self.elongation, self.symmetry
        if self.share < MAIN_SHARE:
            return None
        if s >= 0.78 and 1.5 <= e <= 2.25 and a >= 0.27 and 0.6 <= y <= 0.9:
            return "12"  # robe: fills its outline (0.8-0.92; a rider 0.75 at most)
        if 0.62 <= s <= 0.77 and CABALLO_LENGTH[alone] <= e and self.slenderness <= 2.1 and \
                y <= 0.66 and a >= 0.26 and self.hues["orange"] >= 0.15:
            return "11"  # a brown horse (an ace of oros's medallion is as solid, rounder, yellow)
        if 0.48 <= s <= SOTA_SOLIDITY and e <= 3.85 and self.slenderness >= 2.25 and \
                0.35 <= y <= 0.68 and 0.17 <= a <= 0.34 and \
                (PAGE_TURNED is None or self.turned <= PAGE_TURNED):
            return "10"  # a club alone (the ace of bastos) is as long, but far from symmetric
        return None

    def _medallion(self) -> Tuple[float, float]:
        """The longest and the smallest an ace of oros's silhouette may be: 1.65 and 0.36, or
        `MEDALLION_LONG` and `MEDALLION_SMALL` if it is nearly its own mirror image (a medallion
        is round, a rider on a horse lopsided)."""
        if self.symmetry >= MEDALLION_LONG[1]:
            return MEDALLION_LONG[0], MEDALLION_SMALL
        return 1.65, 0.36

    def emblem(self) -> Optional[str]:
        """The card drawn as one emblem this silhouette is, if clearly one: the aces '1C', '1O',
        '1B' and '1E' (a sword wound with ribbons), and the 3 of bastos (its three clubs crossed:
        one blob)."""
        a, s, e, y, h = self.area, self.solidity, self.elongation, self.symmetry, self.hues
        if self.share >= 0.9 and y >= 0.88 and 0.6 <= s <= 0.76 and 1.85 <= e <= 2.5 and \
                0.2 <= a <= 0.35 and h["green"] + h["blue"] < 0.1:
            return "1C"  # a red and gold cup, its own mirror image (figures 0.86 at most: a
            # king; the crossed green clubs below as much)
        longest, smallest = self._medallion()
        if self.share >= 0.65 and a >= smallest and e <= longest and 0.5 <= s <= 0.76 and \
                h["yellow"] >= 0.15:
            return "1O"  # a medallion: large and round (a rider is longer, a king more solid)
        if e >= 3.9 and y <= 0.3 and 0.1 <= a <= 0.22 and h["green"] >= 0.25 and h["blue"] < 0.03:
            return "1B"  # one long green club, not symmetric (a page holding one: 0.41 and up)
        if self.ribboned_sword(area=(0.18, 0.29), solidity=(0.46, 0.6), elongation=(1.86, 2.05),
                               share=0.93, symmetry=(0.25, 0.38), cool=0.12):
            return "1E"  # a sword wound with ribbons: hollow, far from symmetric (measured on
            # Fournier's: 0.28-0.36 symmetric, solidity 0.49-0.57, elongation 1.89-1.99, area
            # 0.2-0.27; the nearest others: the 3 of copas 0.17-0.19 symmetric and 1.78-1.84
            # long, a sota of copas 0.38 symmetric but 0.32 of the card and 2.09 long)
        if self.crossed_clubs(symmetry=(0.72, 0.92), solidity=(0.54, 0.66),
                              elongation=(CROSSED_CLUBS[0], 2.25), area=(0.27, CROSSED_CLUBS[1]),
                              green=0.12):
            return "3B"  # three clubs crossed: nearly symmetric, hollow between them (a page
            # is 0.68 symmetric at most; a cup is solid red and gold)
        return None

    def filled_cup(self, area: Tuple[float, float], solidity: Tuple[float, float],
                   elongation: Tuple[float, float], share: float, symmetry: float,
                   warm: float, cool: float) -> bool:
        """Whether the silhouette is half a cup joined to its own image turned (a card filled
        from its image turned, `agnostic._filled`) within these limits (``area``,
        ``solidity``, ``elongation``: (least, most) pairs): one blob holding the ink, its own
        mirror image, in the cup's red and gold (``warm``: least share of red and orange), no
        green or blue to speak of (``cool``: most)."""
        h = self.hues
        return self._within(area=area, solidity=solidity, elongation=elongation) and \
            self.share >= share and self.symmetry >= symmetry and \
            h["red"] + h["orange"] >= warm and h["green"] + h["blue"] < cool

    def ribboned_sword(self, area: Tuple[float, float], solidity: Tuple[float, float],
                       elongation: Tuple[float, float], share: float,
                       symmetry: Tuple[float, float], cool: float) -> bool:
        """Whether the silhouette is the ace of espadas's sword wound with ribbons within these
        limits (each a (least, most) pair, ``share`` the least, ``cool`` the most green and
        blue): hollow, far from its own mirror image."""
        return self.share >= share and self._within(
            symmetry=symmetry, solidity=solidity, elongation=elongation, area=area) and \
            self.hues["green"] + self.hues["blue"] < cool

    def crossed_clubs(self, symmetry: Tuple[float, float], solidity: Tuple[float, float],
                      elongation: Tuple[float, float], area: Tuple[float, float],
                      green: float) -> bool:
        """Whether the silhouette is the 3 of bastos's three clubs crossed within these limits
        (each a (least, most) pair; ``green``: its least share of green): one blob holding all
        the ink (0.95), green and yellow clubs, no blue steel (0.1 at most)."""
        return self.share >= 0.95 and self._within(
            symmetry=symmetry, solidity=solidity, elongation=elongation, area=area) and \
            self.hues["green"] >= green and self.hues["blue"] <= 0.1

    def _within(self, **limits: Tuple[float, float]) -> bool:
        """Whether each named measure lies within its (least, most) limits."""
        return all(least <= getattr(self, name) <= most for name, (least, most) in limits.items())


FILLED_CUP = dict(area=(0.22, 0.35), solidity=(0.74, 0.88), elongation=(1.55, 2.05), share=0.95,
                  symmetry=0.75, warm=0.2, cool=0.1)  # half the ace of copas joined to its own
# image turned (`Silhouette.filled_cup`), the trump under the stock with one end in view: the
# printed decks' at seeds 20000+ and 50000+, 0.27-0.33 of the card, solidity 0.78-0.84 (the whole
# cup's 0.6-0.76), 1.63-2.0 long, 0.78-0.96 symmetric, red and orange 0.21-0.44, green and blue
# 0.04 at most. The nearest other cards filled so: a rey of oros (Naipes' 0.85 of the ink in one
# blob, 0.05 red and orange; Fournier's 0.09 green and 0.08-0.12 blue), the ace of oros's
# medallion (1.01-1.10 long, solidity 0.92-0.95)
FILLED_SWORD = dict(area=(0.22, 0.32), solidity=(0.48, 0.6), elongation=(1.75, 1.92), share=0.93,
                    symmetry=(0.36, 0.48), cool=0.12)  # the ace of espadas's ribboned sword,
# half of it joined to its own image turned (`Silhouette.ribboned_sword`), the trump under the
# stock: Fournier's at seeds 20000+ and 50000+, 0.26-0.29 of the card, solidity 0.53-0.57,
# 1.80-1.85 long, 0.41-0.44 symmetric (the whole sword's 0.28-0.36), green and blue 0.07 at most;
# no other card filled so within 0.2-0.34, 0.45-0.62, 1.7-2.0 and 0.34-0.5
FILLED_CLUBS = dict(symmetry=(0.62, 1.0), solidity=(0.52, 0.7), elongation=(1.75, 2.4),
                    area=(0.27, 0.39), green=0.07)  # the 3 of bastos's crossed clubs filled from
# the card turned (`agnostic._filled`; `Silhouette.crossed_clubs`): the fill skews its shape and
# colours (the printed decks' filled under another card, benchmark seeds: 0.65-0.92 symmetric,
# solidity 0.55-0.67, 1.79-2.32 long, 0.30-0.34 of the card, green 0.08-0.31, blue 0.08 at most).
# Symmetry 0.7 and solidity 0.54-0.68 before: Fournier's 0.64-0.71 symmetric and 0.53, and a
# Naipes one 0.685 solid, were left unread (benchmark seed 10022, fresh seeds 150031, 150051);
# the frame line's three breaks still decide, and sotas are 0.35-0.52 symmetric


def silhouette(rect_bgr: np.ndarray, ink: Optional[np.ndarray] = None,
               clear_of: Optional[np.ndarray] = None) -> Optional[Silhouette]:
    """The `Silhouette` of a rectified card, or None if it has no ink. ``ink``: the card's
    `agnostic._ink`, if already made. ``clear_of``: a 0/1 map the size of the card; None too if
    the silhouette reaches into it."""
    if ink is None:
        ink = agnostic._ink(rect_bgr)
    mask = agnostic._in_box(ink, even=False)  # the box its limits were measured in
    largest = _largest_blob(mask)
    if largest is None:
        return None
    blob, area, total, (x, y), cx = largest
    bh, bw = blob.shape
    if clear_of is not None and (clear_of[y:y + bh, x:x + bw] & blob).any():
        return None
    symmetry = _mirror_likeness(blob, cx)
    elongation, solidity = agnostic.blob_shape(blob, area)
    hues = agnostic.hue_shares(agnostic._hue_classes(rect_bgr[y:y + bh, x:x + bw]), blob, area)
    return Silhouette(area / float(mask.size), solidity, elongation, area / max(total, 1),
                      symmetry, hues, _turned_likeness(blob))


def _turned_likeness(blob: np.ndarray) -> float:
    """Intersection over union of a 0/1 blob (its bounding box) and its image turned half a
    circle about its centroid: a figure stands head up, unlike its image turned; a layout of
    pintas, or the 3 of bastos's clubs crossed, is much its own."""
    m = cv2.moments(blob, True)
    if not m["m00"]:
        return 0.0
    cx, cy = m["m10"] / m["m00"], m["m01"] / m["m00"]
    turned = cv2.warpAffine(blob, np.float32([[-1, 0, 2 * cx], [0, -1, 2 * cy]]),
                            blob.shape[::-1], flags=cv2.INTER_NEAREST)
    return int(np.count_nonzero(blob & turned)) / max(int(np.count_nonzero(blob | turned)), 1)


def _largest_blob(mask: np.ndarray
                  ) -> Optional[Tuple[np.ndarray, int, int, Tuple[int, int], float]]:
    """The largest 8-connected blob of a 0/1 mask: (its 0/1 bounding box, its area, the area of
    all the mask's blobs of 12 px or more, the box's (x, y), its centroid's column in the box),
    or None if the mask is empty."""
    n, labels, stats, centres = components(mask)
    if n < 2:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    i = 1 + int(np.argmax(areas))
    x, y, bw, bh = (int(v) for v in stats[i, :4])
    blob = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
    return blob, int(areas[i - 1]), int(areas[areas >= 12].sum()), (x, y), \
        float(centres[i][0]) - x


def _mirror_likeness(blob: np.ndarray, cx: float) -> float:
    """Intersection over union of a 0/1 blob (its bounding box) and its mirror image about its
    own vertical axis through column ``cx`` (the card's axis is off when the outline is)."""
    bw = blob.shape[1]
    shift = int(round(2 * cx - (bw - 1)))
    mirrored = np.zeros_like(blob)
    src = blob[:, ::-1]
    if shift >= 0:
        mirrored[:, shift:] = src[:, :bw - shift]
    else:
        mirrored[:, :bw + shift] = src[:, -shift:]
    union = int(np.count_nonzero(blob | mirrored))
    return int(np.count_nonzero(blob & mirrored)) / max(union, 1)


def read_picture(rect_bgr: np.ndarray, ink: Optional[np.ndarray] = None,
                 overlap: Optional[np.ndarray] = None,
                 under_hand: bool = False) -> Tuple[Optional[str], str]:
    """(code, why) of a card that shows no countable pintas: a card drawn as one emblem (an ace,
    the crossed 3 of bastos), a figure by its silhouette and the pinta it holds; or (None, why
    not). ``overlap``: where other cards overlap this one, whichever lies on top (1, any size).
    The card is then read over the rest only, and only if its picture stays clear of the
    overlap: a picture that runs up to another card's edge may go on under it. Failing that, a
    card overlapped over at most `SMALL_OVERLAP` of it is read whole, and kept if a figure
    (over `SMALL_SURE` of it, one its head end reads as no other figure): which of two cards
    lies on top is often judged wrong (the card on top then looks cut), and so small a part
    turns no figure into another. Not under a hand (``under_hand``: part of
    ``overlap`` is one): a hand lies on top, and its fingers join the picture read whole (a
    sota's legs with two fingers over them made a compact mass as brown as a horse: a caballo).
    Last, a figure is read from its head end (`read_head_end`), under a hand too."""
    code, why = _read_clear(rect_bgr, ink, overlap, alone=overlap is None)
    if code is None and overlap is not None and not under_hand:
        share = float(np.mean(overlap > 0))
        small = share <= SMALL_OVERLAP
        margin = margin_paper(rect_bgr)
        line = frame_line_through(rect_bgr, overlap)
        on_top = line is not None and line >= ON_TOP_LINE
        whole = None
        if small or margin >= ON_TOP_MARGIN or on_top:
            whole, _ = _read_clear(rect_bgr, ink, None, covered=overlap)
        elif SHORT_SIDES_ON_TOP:
            suit = frame_line.through(rect_bgr, overlap)
            if suit is not None:
                whole, _ = _read_clear(rect_bgr, ink, None, covered=overlap)
                on_top = whole is not None and whole[-1] == suit
                whole = whole if on_top else None
        if whole is not None and (_kept_whole(whole, ON_TOP_MARGIN if on_top else margin)
                                  or small and SMALL_EMBLEMS and whole in COVERED_EMBLEMS):
            if HEAD_END_AGREES and not (share <= SMALL_SURE or on_top) and \
                    whole[:-1] in FIGURES:
                end, _ = read_head_end(rect_bgr, overlap)
                if end is not None and end != whole:
                    return None, f"read whole {whole}, from its head end {end}"
            return whole, "ok (read whole: " + (
                "its frame line runs on through the overlap, so it lies on top)" if on_top
                else "its margin is paper all round, so it lies on top)"
                if margin >= ON_TOP_MARGIN else "the overlap is too small to hide much of it)")
    if code is None and overlap is not None and HEAD_END_READ and \
            (not under_hand or HEAD_END_UNDER_HAND):
        end, end_why = read_head_end(rect_bgr, overlap, under_hand)
        if end is not None:
            return end, end_why
    if code is None and under_hand and HAND_BOTH_ENDS and \
            float(np.mean(overlap > 0)) <= SMALL_OVERLAP:
        return _read_beside_hand(rect_bgr, overlap)
    return code, why


HAND_BOTH_ENDS = True  # a figure a little of which a hand covers (`SMALL_OVERLAP` at most), its
# foot end in view, is read whole with the hand painted paper, and kept only where its head end
# alone reads the same (`_read_beside_hand`): a Naipes sota of bastos in full view but for a
# fingertip touching its feet was read neither way (fresh seed 150013)


def _read_beside_hand(rect_bgr: np.ndarray, overlap: np.ndarray) -> Tuple[Optional[str], str]:
    """(code, why) of a figure a hand covers a little of (``overlap``, 1 where it lies, any
    size), or (None, why not): read whole with the hand painted paper, as the fingers' ink is no
    part of the picture; and from its head end whatever the foot end shows (`read_head_end`'s
    ``with_foot``). Each alone is unsafe beside a hand: what the paint leaves may be a figure cut
    into another's shape, and a head end read with the foot end in view was an ace of espadas's
    hilt end read as a sota (seed 110074). The two must name the same figure."""
    painted, near = _painted(rect_bgr, overlap)
    if near is None:
        return None, "nothing overlaps it"
    whole, why = _read_clear(painted, None, None, covered=overlap)
    if whole is None or whole[:-1] not in FIGURES:
        return None, f"beside a hand, read whole: {whole or why}"
    end, why = read_head_end(rect_bgr, overlap, True, with_foot=True)
    if end != whole:
        return None, f"beside a hand, read whole {whole}, from its head end {end or why}"
    return whole, "ok (beside a hand: read whole and from its head end alike)"


HEAD_END_READ = True  # a figure whose picture runs under another card (the trump under the
# stock) may be read from its head end (`read_head_end`)
HEAD_END_UNDER_HAND = True  # ...under a hand too, as a sota or a rey: the hand's map may leave a
# finger out, as tan as a horse (a Naipes sota under one read as a caballo, seed 90009)
HEAD_END = 0.52  # ...the part of the card above this (one way up) in view, but for at most
HEAD_COVERED = 0.25  # this share of it under another card (a corner of a card in the trick; at
# 0.5 a caballo of copas whose cup was hidden read as one of espadas, seeds 20000 x 200)...
HELD_CLEAR = 0.1  # ...and with more of it than this covered, the pinta held up must lie 3 px or
_HELD_AWAY = np.ones((7, 7), np.uint8)  # more from any card over it: one cut there may be another
# suit's, or part of that card (the red banner of a Naipes trump ace of oros beside a card's
# corner passed for a rey's cup, 12C). Up to 0.1 covered, as before the thirty-first session, a
# pinta held up beside the cover is kept (eight figures read so on eight seed sets)
FOOT_HIDDEN = 0.15  # a sota or a rey is read from the head end only with at least this share of
# the rest hidden: a card whose foot end is in view too was read whole and found no figure (a
# Fournier ace of espadas, a finger over one corner, read as a sota from its hilt end: seed
# 110074). A horse's head beside the rider is a caballo's however much is in view (a Naipes
# caballo of oros, a strip along one side hidden: seed 170086)
FOOT_HORSE = 0.25  # ... and a sota only where the foot end in view shows less horse than this
# (`_foot_horse`): a Naipes caballo of espadas, the horse's head under a card beside the rider,
# read as a sota from its head end (0.31 of horse, seed 90099); None: not asked
FOOT_ROWS = (0.52, 0.7)  # the foot end's rows where a horse's body lies beside a page's legs
FOOT_SPAN = 0.8  # ... in columns short of this share of the card's width: tan across the card
# is no horse but another card's back or the cloth beside the cover (Fournier's sotas under the
# stock, 0.96-1.0 of the columns: seven lost on two seed sets without this)...
FOOT_ROW_FULL = 0.9  # ... or with a row of them this full of it (another Fournier sota, 1.0 in
# 0.74 of the columns, seed 120042; the horses' bodies 0.53-0.6)
HORSE_ROWS = (0.28, 0.52)  # where the horse's head and neck lie, beside the rider's body
HORSE_SIDES = ((0.06, 0.4), (0.6, 0.94))  # ...on one side or the other
HORSE_HUES = (8, 21)  # OpenCV hue: tan to brown (a red cloak is 0-7; gold is as yellow but vivid)
HORSE_SAT = (60, 185)  # ...and saturation: a horse is dull beside a cloak or a coin (200 or so)
HORSE_SHARE = 0.28  # the share of one side's band in the horse's colours (measured, head end up,
# seeds 20000 x 200 at the pipeline's outlines, the lower half hidden: caballos 0.31-0.55,
# every other card 0.24 at most but one Fournier ace of espadas's ribbons, 0.34, no pinta held)


REY_HORSE = 0.35  # a silhouette read as a rey's is none if either end shows this much horse
# (`horse_share`): a Naipes caballo of copas or of oros with a corner of another card over it
# read whole as a rey, 0.56 and 0.39 (reyes, whole or in part, seeds 20000 x 200 and 10000 x 40,
# 0.30 at most; sotas are left alone: a Fournier sota's brown legs reach 0.82)


def horse_share(rect_bgr: np.ndarray, clear: np.ndarray, ink: Optional[np.ndarray] = None,
                hue_sat: Optional[tuple] = None) -> float:
    """The larger share of the two `HORSE_SIDES` bands over `HORSE_ROWS` of the card (head end
    up) that is ink in a horse's colours, counting only where ``clear`` (bool, card-sized).
    ``ink``, ``hue_sat``: the card's `agnostic._ink` and hue and saturation planes, if already
    made."""
    h, w = rect_bgr.shape[:2]
    hue, sat = hue_saturation(rect_bgr) if hue_sat is None else hue_sat
    if ink is None:
        ink = agnostic._ink(rect_bgr)
    horse = (ink > 0) & clear & (hue >= HORSE_HUES[0]) & (hue <= HORSE_HUES[1]) & \
        (sat >= HORSE_SAT[0]) & (sat <= HORSE_SAT[1])
    y0, y1 = int(HORSE_ROWS[0] * h), int(HORSE_ROWS[1] * h)
    return max(float(horse[y0:y1, int(a * w):int(b * w)].mean()) for a, b in HORSE_SIDES)


CABALLO_HORSE = 0.3  # a silhouette read as a caballo's shows at least this much horse at one end
# (`horse_share`; caballos in view 0.33 and up, seeds 60000 x 60 per printed deck; a Fournier
# rey of oros with a card's corner over his cloak read whole as a caballo, 0.29: seed 170016)
PAGE_NO_HORSE = 0.2  # a page's head end shows less horse than this (sotas 0.11 at most)
REY_NO_HORSE = 0.28  # a rey's, less than this: a caballo's is 0.31 or more, as much as makes one
# (`HORSE_SHARE`); Fournier's rey of oros under the stock, his red cloak, 0.21-0.22...
REY_NO_HORSE_FILL = 0.73  # ... if over `PAGE_NO_HORSE`, filling this much at the chest (that rey
# 0.77-0.78; riders 0.57-0.72: a Naipes caballo of espadas, 0.22 of horse, filled 0.62)
PAGE_ONE = 0.78  # ... is one figure: its largest blob this share of the end's ink (0.8 and up;
# a coin held up apart from the page, 0.78-0.85. Was 0.85: forty-second session, `bench compare`
# seeds 30000+ to 120000+ +7 and 1 lost, none wrong)
PAGE_BIG = 0.2  # ... covering this much of the end at least (0.22-0.36)
PAGE_FILL = 0.55  # ... slender: ink over at most this much of rows 0.3-0.5 (sotas 0.40-0.55;
# reyes' shoulders and cloak 0.55-0.80, riders with their horse 0.57-0.72). Was 0.53 (forty-second
# session: with `REY_FILL_HEAD_ALONE`, +19 cards on four `bench compare` seed sets, none wrong)
PAGE_SYMMETRY = 0.7  # ... not its own mirror image (0.42-0.69; a Naipes 8 of copas's cups run
# together 0.85)
PAGE_TOP = (2, 0.72)  # ... and at its top (8% of the card) at most two parts, a head and a
# pinta held up, no wider than this (0.17-0.70; the crossed 3 of bastos: four club ends)
REY_WIDE = True  # a rey is read from his head end too (`_HeadEnd.rey`):
REY_ONE, REY_BIG = 0.55, 0.18  # one figure, though an ermine collar may part it (Fournier's
# 0.87 and up, 0.31-0.41 of the end; Naipes' 0.58-0.82 of the ink, 0.2-0.31 of the end)
REY_FILL = 0.6  # ... wide: ink over this much of rows 0.3-0.5 at least (Fournier's 0.64-0.80,
# Naipes' 0.55-0.64; sotas 0.56 at most, but a Fournier page holding his cup up 0.57-0.61)...
REY_FILL_HEAD_ALONE = 0.5  # ... or this much, his crowned head alone at the top of the card (a
# page holds his pinta up beside his head: two parts there). Naipes' reyes of oros and bastos
# 0.57-0.59 were left unread under `REY_FILL`; at 0.55 a Naipes rey of oros under the stock,
# 0.5498, was left unread (benchmark seed 10035). At 0.5: +3 Naipes reyes on four `bench
# compare` seed sets, none lost or wrong (sotas fill as much, but are pages first)
REY_FILL_BESIDE = 0.66  # ... and this much when his head is not alone at the top of the card:
# a Fournier page holding his cup up beside his head filled 0.64 and read 12C (fresh seed 730027);
# `bench compare` at 0.6 on seeds 30000+, 60000+, 90000+ and 120000+: no rey lost
REY_SYMMETRY = 0.88  # ... not its own mirror image (0.45-0.84; a Naipes 9 of oros's coins run
REY_HUE_MOST = 0.9  # together 0.93, and 0.95 of one hue; a rey's robe 0.88 at most). `REY_SYMMETRY`
# was 0.85: a Naipes rey of oros under the stock, arms folded, is 0.86 (fresh seed 740022);
# `bench compare` on eight seed sets +5 (Fournier's and Naipes' reyes of copas too), none wrong
# (all measured head end up, the lower half hidden or under the stock, seeds 20000 x 200 and
# 10000 x 40 at the pipeline's outlines)


def read_head_end(rect_bgr: np.ndarray, overlap: np.ndarray, under_hand: bool = False,
                  with_foot: bool = False) -> Tuple[Optional[str], str]:
    """(code, why) of a figure read from its head end alone, or (None, why not). The end with the
    head is the one holding the pinta: with the card's upper `HEAD_END` in view (either way
    up), all but `HEAD_COVERED` of it clear of every other card (``overlap``: 1 where one lies,
    any size), exactly one pinta held up there (`_held`) gives the suit, and the figure:
    - a caballo rides a horse whose head and neck rise in front of him, level with his body: a
      band beside the rider in a horse's dull tan or brown (`horse_share`);
    - a sota is a page standing, slender: no horse there, one figure (`_HeadEnd.page`);
    - a rey's shoulders and cloak fill the card at the chest (`_HeadEnd.rey`).
    A sota or a rey only with the foot end partly hidden (`FOOT_HIDDEN`). The end with the
    feet holds no pinta up. ``under_hand``: part of ``overlap`` is a hand, and no caballo is
    read (`HEAD_END_UNDER_HAND`); ``with_foot``: a sota or a rey is read with the foot end in
    view too (`_read_beside_hand`, whose whole reading must agree)."""
    h = rect_bgr.shape[0]
    painted, near = _painted(rect_bgr, overlap)
    if near is None:
        return None, "nothing overlaps it"
    for turn in (False, True):
        img = cv2.rotate(painted, cv2.ROTATE_180) if turn else painted
        covered = cv2.rotate(near, cv2.ROTATE_180) if turn else near
        head_covered = float(covered[:int(HEAD_END * h)].mean())
        if head_covered > HEAD_COVERED:
            continue
        ink = agnostic._ink(painted)  # the card's ink turned is the turned card's (`_ink`)
        ink, clear = cv2.rotate(ink, cv2.ROTATE_180) if turn else ink, covered == 0
        hue_sat = hue_saturation(img)  # (for the horse at either end)
        horse = horse_share(img, clear, ink, hue_sat)
        foot_in_view = covered[int(HEAD_END * h):].mean() < FOOT_HIDDEN and not with_foot
        end = _head_end(img, clear, ink) if horse < max(PAGE_NO_HORSE, REY_NO_HORSE) and \
            not foot_in_view else None
        if horse >= HORSE_SHARE:
            if under_hand:
                continue  # a finger the hand's map leaves out is as tan as a horse
            rank, why = "11", "ok (a caballo: its horse's head beside the rider)"
        elif end is not None and horse < PAGE_NO_HORSE and end.page() and \
                (FOOT_HORSE is None or _foot_horse(img, clear, ink, hue_sat) < FOOT_HORSE):
            rank, why = "10", "ok (a sota: a page standing, slender, the rest hidden)"
        elif end is not None and REY_WIDE and end.rey() and (
                horse < PAGE_NO_HORSE or horse < REY_NO_HORSE and end.fill >= REY_NO_HORSE_FILL):
            rank, why = "12", "ok (a rey: his shoulders and cloak fill the card, the rest hidden)"
        else:
            continue
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)  # the pinta held up, last: the dearest test
        away = cv2.dilate(covered[:int(STRIP * h)].astype(np.uint8), _HELD_AWAY) \
            if HELD_CLEAR and head_covered > HELD_CLEAR else None
        held = _held(hsv[:int(STRIP * h)], h, *_paper_vs(hsv), away)
        if len(held) == 1:
            return rank + next(iter(held)), why
    return None, "no head end in view, or no figure read there"


def _foot_horse(rect_bgr: np.ndarray, clear: np.ndarray, ink: np.ndarray,
                hue_sat: Optional[tuple] = None) -> float:
    """The share of the card's `FOOT_ROWS` in view (head end up; ``clear``: True where in view)
    that is ink in a horse's colours (`HORSE_HUES`, `HORSE_SAT`); 0 where that ink spans the
    card (`FOOT_SPAN`) or fills a row (`FOOT_ROW_FULL`). ``hue_sat``: the card's hue and
    saturation planes, if already made."""
    h, w = rect_bgr.shape[:2]
    rows = slice(int(FOOT_ROWS[0] * h), int(FOOT_ROWS[1] * h))
    cols = slice(int(0.08 * w), int(0.92 * w))
    hue, sat = (plane[rows, cols] for plane in
                (hue_saturation(rect_bgr) if hue_sat is None else hue_sat))
    seen = clear[rows, cols]
    horse = (ink[rows, cols] > 0) & seen & (hue >= HORSE_HUES[0]) & (hue <= HORSE_HUES[1]) & \
        (sat >= HORSE_SAT[0]) & (sat <= HORSE_SAT[1])
    seen_rows = np.count_nonzero(seen, axis=1)
    if np.count_nonzero(np.count_nonzero(horse, axis=0) >= 2) >= FOOT_SPAN * horse.shape[1] or \
            np.any(np.count_nonzero(horse, axis=1) >= FOOT_ROW_FULL * np.maximum(seen_rows, 1)):
        return 0.0  # (a band across the card)
    return float(np.count_nonzero(horse)) / max(int(np.count_nonzero(seen)), 1)


@dataclass(frozen=True)
class _HeadEnd:
    """The figure a card's head end (upper `HEAD_END`) shows, measured for `read_head_end`."""
    fill: float  # share of rows 0.3-0.5 (x 0.08-0.92) of the card that is ink in view
    one: float  # its largest blob's share of the end's ink
    size: float  # ... and of the end
    symmetry: float  # ... and its likeness to its own mirror image (`_mirror_likeness`)
    top_parts: int  # how many parts the blob's top (8% of the card) falls into
    top_width: float  # ... spanning this share of the card's width
    hue_most: float  # the largest share of the blob in one hue class (`agnostic.HUES`)

    def page(self) -> bool:
        """A page standing: one figure of some size, slender, not its own mirror image, a head
        (and maybe a pinta held up) at its top."""
        return self.one >= PAGE_ONE and self.size >= PAGE_BIG and self.fill <= PAGE_FILL and \
            self.symmetry <= PAGE_SYMMETRY and self.top_parts <= PAGE_TOP[0] and \
            self.top_width <= PAGE_TOP[1]

    def rey(self) -> bool:
        """A king: one figure whose shoulders and cloak fill the card at the chest, in several
        colours (a robe, a cloak, a face; pintas run together are one colour) and not its own
        mirror image as pintas laid out are."""
        wide = self.fill >= (min(REY_FILL, REY_FILL_HEAD_ALONE) if self.top_parts == 1
                             else REY_FILL_BESIDE)
        return self.one >= REY_ONE and self.size >= REY_BIG and wide and \
            self.symmetry <= REY_SYMMETRY and self.hue_most <= REY_HUE_MOST


def _head_end(rect_bgr: np.ndarray, clear: np.ndarray, ink: np.ndarray) -> Optional[_HeadEnd]:
    """The `_HeadEnd` of a card (head end up; ``clear``: card-sized, True where in view;
    ``ink``: its `agnostic._ink`), or None if the end has no ink."""
    h, w = rect_bgr.shape[:2]
    band = (ink[int(0.3 * h):int(0.5 * h), int(0.08 * w):int(0.92 * w)] > 0) & \
        clear[int(0.3 * h):int(0.5 * h), int(0.08 * w):int(0.92 * w)]
    end = agnostic._in_box(ink, even=False)
    end[int(HEAD_END * h):] = 0
    largest = _largest_blob(end)
    if largest is None:
        return None
    blob, area, total, (x, y), cx = largest
    top = blob[:int(0.08 * h)].any(axis=0)
    cols = np.flatnonzero(top)
    hues = agnostic.hue_shares(agnostic._hue_classes(rect_bgr[y:y + blob.shape[0],
                                                              x:x + blob.shape[1]]), blob, area)
    return _HeadEnd(float(band.mean()), area / max(total, 1),
                    area / (HEAD_END * h * w), _mirror_likeness(blob, cx),
                    int(top[0]) + int(np.count_nonzero(top[1:] & ~top[:-1])),
                    (cols[-1] - cols[0] + 1) / w, max(hues.values()))


ON_TOP_LINE = 0.95  # a card whose frame line runs on through this much of the overlap lies on top
# (cards judged under another at the benchmark's outlines, the other card's outline projected:
# the cards below 0.87 at most, built-in, and 0.5 and 0.64 for the printed decks; of the cards
# on top, with a frame line to follow there, 24 of 37, 17 of 40 and 16 of 37 at 0.95 or more)
LINE_DARKER = 8.0  # a frame line is this much darker (grey levels) than 2.5 px either side of it
LINE_FOUND = 0.6  # ... and found along this much of a side's middle away from the overlap
LINE_SEEN_PX = 20  # the overlap must cross this many pixels of the frame line to say anything


def frame_line_through(rect_bgr: np.ndarray, overlap: np.ndarray) -> Optional[float]:
    """How much of the card's frame line (the thin line printed a few pixels in from each side)
    runs on through ``overlap`` (where another card overlaps it, 1, any size), where it was found
    beside it: a card on top shows its own line there, a card below the other card's picture,
    which has no line along this card's sides. None if the overlap crosses too little of a
    frame line found. Each side's line is looked for over its middle 70% (the index corners
    aside), 3-15 px in, a pixel either way allowed."""
    h, w = rect_bgr.shape[:2]
    o = cv2.resize(overlap.astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
    beside = cv2.dilate(o, _S7) == 0
    inside = cv2.erode(o, _S7) > 0
    g = cv2.GaussianBlur(cv2.cvtColor(rect_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 0.7)
    across = np.zeros((h, w), np.uint8)  # a line running down the card (left and right sides)
    along = np.zeros((h, w), np.uint8)  # ... and across it (top and bottom)
    across[:, 3:-3] = (np.minimum(g[:, :-6], g[:, 6:]) - g[:, 3:-3]) > LINE_DARKER
    along[3:-3] = (np.minimum(g[:-6], g[6:]) - g[3:-3]) > LINE_DARKER
    across = cv2.dilate(across, np.ones((1, 3), np.uint8))
    along = cv2.dilate(along, np.ones((3, 1), np.uint8))
    seen = hits = 0
    for side in range(4):  # each side's 13 depths at once: columns (rows) of one slice
        n = h if side < 2 else w
        t0, t1 = int(0.15 * n), int(0.85 * n)
        depths = np.arange(3, 16)
        if side in (1, 3):  # from the right and the bottom edges
            depths = (w if side == 1 else h) - 1 - depths
        pick = (lambda a: a[t0:t1, depths]) if side < 2 else (lambda a: a[depths, t0:t1].T)
        line, out, within = pick(across if side < 2 else along), pick(beside), pick(inside)
        outs = np.count_nonzero(out, axis=0)
        found = np.count_nonzero(line & out, axis=0) / np.maximum(outs, 1)
        found[outs < 15] = -1.0
        d = int(np.argmax(found))  # the first of equals, as the depths are tried outward
        if found[d] < LINE_FOUND:
            continue
        if np.count_nonzero(within[:, d]) >= 8:
            seen += int(np.count_nonzero(within[:, d]))
            hits += int(np.count_nonzero(line[:, d] & within[:, d]))
    return hits / seen if seen >= LINE_SEEN_PX else None


def _kept_whole(code: str, margin: float) -> bool:
    """Whether a card that may be covered, read whole as ``code``, keeps it: a figure (a hidden
    part turns no figure into another), or an emblem but the medallion if its margin
    (`margin_paper`) says nothing lies over it. The medallion's limits are one-sided: any large
    round yellow blob (five coins under a card, a caballo with a corner of another card in its
    picture) passes them."""
    return code[:-1] in FIGURES or (code in COVERED_EMBLEMS and margin >= ON_TOP_MARGIN)


def read_unplaced(rect_bgr: np.ndarray, ink: Optional[np.ndarray] = None,
                  beside: Optional[np.ndarray] = None) -> Tuple[Optional[str], str]:
    """`read_picture` of a card that may be covered somewhere unknown (its outline poorly
    supported: most such cards are whole): read whole, and kept if one of `COVERED_EMBLEMS`
    (whatever its margin: a Fournier ace lying on another card, or with its outline a little
    off, has other cards' edges or the table in its margin), or else if its margin is paper all
    round (a hand or a card over it, or the table beyond a misplaced outline, crosses the
    margin) and it is a figure or, its margin clearer still, an emblem (`_kept_whole`), the ace
    of oros only with the clearest margin of all (`MEDALLION_MARGIN`). With its margin paper all
    round, nothing overlaps it: a compact rider is a rider (`UNPLACED_ALONE`). A figure whose
    margin is crossed may still be read clear of what crosses it and of ``beside``, where other
    cards overlap it (`UNPLACED_CLEAR`: a card lying on it may look like its paper)."""
    margin = margin_paper(rect_bgr)  # paper all round: nothing overlaps it (`UNPLACED_ALONE`)
    code, why = _read_clear(rect_bgr, ink, None, alone=UNPLACED_ALONE and margin >= ON_TOP_MARGIN)
    if code in COVERED_EMBLEMS:
        return code, why
    if margin < MARGIN_PAPER:
        if not UNPLACED_CLEAR or code is None or code[:-1] not in FIGURES:
            return None, "a margin not all paper: the card may be covered"
        return _read_clear_of_outline(rect_bgr, ink, code, beside)
    if code == "1O" and margin >= MEDALLION_MARGIN:
        return code, why
    if code is not None and not _kept_whole(code, margin):
        return None, f"{code} read on a card that may be covered"
    return code, why


UNPLACED_ALONE = True  # `read_unplaced`: a card whose margin is paper all round (`ON_TOP_MARGIN`)
# is read as one nothing overlaps (`Silhouette.rank`'s ``alone``): a Fournier caballo of bastos in
# full view, his rider blurred compact (1.38 long, margin 0.83), was left unknown (seed 400042)
UNPLACED_CLEAR = True  # a figure read whole on a card that may be covered, whose margin is not all
# paper, is kept if it reads the same over the part clear of whatever crosses the outline
# (`_read_clear_of_outline`; thirtieth session: fingertips over the margin, a neighbour's edge)


def _read_clear_of_outline(rect_bgr: np.ndarray, ink: Optional[np.ndarray], whole: str,
                           beside: Optional[np.ndarray] = None) -> Tuple[Optional[str], str]:
    """``whole``, a figure read whole on a card whose margin is crossed, if the card reads the
    same with the ink joined to its outline (fingertips, the cloth or a card beyond it) and
    ``beside`` (where other cards overlap it, any size) taken as an overlap: painted paper, and
    the silhouette clear of it. A figure that runs into what crosses the margin may go on under
    it, and is not read (a rider's horse under a hand leaves a sota)."""
    if ink is None:
        ink = agnostic._ink(rect_bgr)
    beyond = agnostic._reaching_outline(ink)
    if beside is not None:
        h, w = ink.shape
        beyond = beyond | cv2.resize(beside.astype(np.uint8), (w, h),
                                     interpolation=cv2.INTER_NEAREST)
    if not beyond.any():
        return None, "a margin not all paper: the card may be covered"
    code, why = _read_clear(rect_bgr, None, beyond)
    if code != whole:
        return None, f"a margin not all paper, and clear of it {why if code is None else code}"
    return code, "ok (clear of what crosses its margin)"


def margin_paper(rect_bgr: np.ndarray, parts: int = 8) -> float:
    """The least paper share over the card's margin (1.5-6% of its width in from the edge),
    each side cut in ``parts`` pieces: a cover anywhere on the edge shows in one piece. Counted
    by running sums along the four bands, not a mean a piece (32 means took a millisecond a
    frame); the same shares to the last bit (whole counts over whole sizes)."""
    hsv = card_hsv(rect_bgr)
    paper_v, paper_s = _paper_vs(hsv)
    paper = (hsv[..., 2] > 0.75 * paper_v) & (hsv[..., 1] < paper_s + 40)
    h, w = paper.shape
    a, b = int(0.015 * w), int(0.06 * w)
    least = 1.0
    for n, bands in ((h, (paper[:, a:b], paper[:, w - b:w - a])),
                     (w, (paper[a:b].T, paper[h - b:h - a].T))):
        cuts = [k * n // parts for k in range(parts + 1)]
        sizes = np.diff(cuts) * (b - a)
        some = sizes > 0  # (an empty piece says nothing, as its nan mean said nothing before)
        for band in bands:
            run = np.concatenate(([0], np.cumsum(np.count_nonzero(band, axis=1))))[cuts]
            least = min([least, *(np.diff(run)[some] / sizes[some]).tolist()])
    return least


MEDALLION_HORSE = 0.3  # a silhouette read as the ace of oros's medallion is none if either end
# shows this much horse (`horse_share`): a Fournier caballo of espadas read whole, 0.47 (1.64 long,
# 0.37 of the card: just within a medallion's limits), was read 1O at 0.9 (seed 240024); aces of
# oros read whole 0.04 at most


def _horse_either_end(rect_bgr: np.ndarray, ink: Optional[np.ndarray],
                      clear_of: Optional[np.ndarray]) -> float:
    """`horse_share` of the card either way up, the larger, counting only outside ``clear_of``
    (nonzero where another card lies near, or None)."""
    clear = np.ones(rect_bgr.shape[:2], bool) if clear_of is None else clear_of == 0
    ink = agnostic._ink(rect_bgr) if ink is None else ink
    hue_sat = hsv_planes(rect_bgr)[:2]  # (turned with the card: made pixel by pixel)
    return max(horse_share(rect_bgr, clear, ink, hue_sat),
               horse_share(cv2.rotate(rect_bgr, cv2.ROTATE_180), clear[::-1, ::-1],
                           cv2.rotate(ink, cv2.ROTATE_180),
                           tuple(cv2.rotate(p, cv2.ROTATE_180) for p in hue_sat)))


def _read_clear(rect_bgr: np.ndarray, ink: Optional[np.ndarray],
                overlap: Optional[np.ndarray], alone: bool = False,
                covered: Optional[np.ndarray] = None) -> Tuple[Optional[str], str]:
    """`read_picture` over the part of the card ``overlap`` leaves clear (all of it if None);
    ``alone``: nothing overlaps the card (`Silhouette.rank`); ``covered``: where other cards
    lie over it though it is read whole (1, any size): no frame line is read there."""
    clear_of = None
    card = rect_bgr  # (the frame line is read on the card as it is, where nothing covers it)
    if covered is None:
        covered = overlap
    if overlap is not None:
        rect_bgr, near = _painted(rect_bgr, overlap)
        if near is not None:
            ink, clear_of = None, cv2.dilate(near, _S3)
    sil = silhouette(rect_bgr, ink, clear_of)
    if sil is None:
        return None, "no ink" if clear_of is None else \
            "no ink, or a picture that may go on under another card"
    code = sil.emblem()
    if code == "1O" and MEDALLION_HORSE is not None and \
            _horse_either_end(rect_bgr, ink, clear_of) >= MEDALLION_HORSE:
        return None, "a medallion's silhouette with a horse's head beside it"
    if code is not None:
        return code, "ok"
    rank = sil.rank(alone)
    if rank is None:
        return None, "no picture of a known shape"
    if rank == "12" and REY_HORSE is not None or rank == "11" and CABALLO_HORSE:
        horse = _horse_either_end(rect_bgr, ink, clear_of)
        if rank == "12" and horse >= REY_HORSE:
            return None, "a rey's silhouette with a horse's head beside it"
        if rank == "11" and horse < CABALLO_HORSE:
            return None, "a caballo's silhouette with no horse's head beside it"
    suit, why = figure_suit(rect_bgr)
    if suit is None and FRAME_SUIT:
        suit = frame_line.frame_suit(card, covered)
        why = f"{why}, and no suit from its frame line"
        if suit is not None:
            return rank + suit, "ok (the suit from its frame line's breaks)"
    if suit is None:
        return None, f"a {rank} holding {why}"
    return rank + suit, "ok"


@last_result  # read over the part left clear (`_read_clear`), then from its head end
def _painted(rect_bgr: np.ndarray, overlap: np.ndarray
             ) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """The card with where ``overlap`` lies (1, any size), and a little round it, painted paper
    (the other card's ink is no part of this one), and that part (None if none)."""
    h, w = rect_bgr.shape[:2]
    near = cv2.dilate(cv2.resize(overlap.astype(np.uint8), (w, h),
                                 interpolation=cv2.INTER_NEAREST), _CLEAR)
    if not near.any():
        return rect_bgr, None
    painted = rect_bgr.copy()
    paint(painted, near, np.asarray(_paper(rect_bgr)).astype(np.uint8))  # (as numpy casts)
    pass_on_lab(rect_bgr, painted, painted=near)  # its ink is asked for next (`silhouette`)
    return painted, near


def held_suit(rect_bgr: np.ndarray, overlap: Optional[np.ndarray] = None) -> Optional[str]:
    """The suit of the pinta a figure holds (`figure_suit`) over the part of the card ``overlap``
    (1 where another card lies, any size) leaves clear; None if none is found or two are."""
    if overlap is not None:
        rect_bgr, _ = _painted(rect_bgr, overlap)
    return figure_suit(rect_bgr)[0]


def _paper(rect_bgr: np.ndarray) -> Tuple[float, float, float]:
    """The card's paper colour: the mean of its lightest third (histogram and mask: no sort)."""
    grey = cv2.cvtColor(rect_bgr, cv2.COLOR_BGR2GRAY)
    counts = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel())
    light = (grey >= np.searchsorted(counts, 0.67 * counts[-1])).astype(np.uint8)
    return cv2.mean(rect_bgr, mask=light)[:3]


# ----------------------------------------------------------------------------- figure suits
# sizes in pixels are of the 120 x 180 rectified card (`detect.rectify`)
STRIP = 0.6  # the held pinta is looked for in the upper part of the card only (both turns)
_K3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
_K9 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
_K11 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11))
_S3, _S7, _S11 = np.ones((3, 3), np.uint8), np.ones((7, 7), np.uint8), np.ones((11, 11), np.uint8)
_CLEAR = np.ones((5, 5), np.uint8)  # an overlap's outline may be 2 px off
HELD_COIN_HOLES = True  # a held coin's holes are filled before it is measured: the lines drawn
# inside Naipes' coins (a lion's face), opened, left it 1.38 long (a sota and a caballo of oros
# under the stock, fresh seeds 740081 and 740029)
COIN_OPENINGS = (_K11, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15)))  # a held coin
# (about 30 px across) is parted from what touches it by an opening of 11 px, or, joined to a
# horse's head by a wider neck (Fournier's caballo of oros: 1.37 long, 0.67 round at 11 px), of
# 15 px (1.04 long, 0.93 round); the ring of little gold around it is measured on the unopened gold
CLUB_ELONGATION = 1.7  # a held club is long (1.8 missed a Fournier rey of bastos's club blurred
# short in a tracked game, 1.73: the game stopped on it)
CLUB_CUT = 0.4  # no club found, the green is looked at again cut off this far down the card: a
# Naipes rey of bastos holds his club at his chest, its handle run into his green sleeve...
CLUB_CUT_SOLID = 0.7  # ... and this solid (the hand round its handle: 0.73 and 0.79 measured; 0.75,
# as for a club standing clear, left two Naipes reyes of bastos unread on seeds 30000+ and 60000+)
CLUB_CUT_WIDTH = 11.0  # ... and there a club is this wide at least (px, of its length): the green
# sleeve of the Naipes rey of espadas, cut so, is a bar 9 px wide (the reyes' clubs 13-16)
CLUB_PARTED = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))  # no club found, the green is
# looked at again opened this wide (None: not): a Naipes rey of bastos turned holds his club run
# into his green sleeve through his hand, a neck 3-4 px wide (fresh seeds 780043 and 780047, in
# full view); parted, the club is as wide as `CLUB_PARTED_WIDTH` at least
CLUB_PARTED_WIDTH = 10.0  # (px; `CLUB_CUT_WIDTH` before: a Fournier sota of bastos, his club run
# into his green sash, parted 10.5 wide, was left unread, benchmark seed 10026; no other card
# changed on four `bench compare` seed sets)
CUP_ELONGATION = 1.9  # a cup's red bowl is compact...
CUP_FLAT_ELONGATION = 2.3  # ...or, drawn wide and shallow, lies flat (measured: cups held up
CUP_FLAT = 0.85  # 1.07-2.16, the widest Fournier's sota's, all lying at 0.97 or flatter)
BLADE_ELONGATION, BLADE_SOLIDITY = 3.3, 0.65  # a thin steel part long and even enough...
GREY_OVER_PAPER = 15  # a grey blade is at most this much more saturated than the paper
ALL_BLUE, ALL_BLUE_LENGTH, ALL_BLUE_WIDTH = 0.8, 26, 3.0  # a blade this blue may be this short
# and thin (Naipes' caballo's, 29-33 px long, 3.3-4.6 wide, blue 0.87-1.0 where the blue shows)
SHORT_BLADE = (26, 4.0, 0.9)  # a grey blade may be this short (px) if it is this long for its width
# and this solid: a clean bar (Fournier's caballo of espadas holds his blade slanting up from his
# fist: 26-30 px of it show above the hand; thirtieth session)
FAR_BLADE = (20, 0.4, 0.95)  # ... or this short if this blue and solid (and SHORT_BLADE's
# elongation): a far Naipes rey's blade, its light tip lost to blur, showed 22 px, 0.49 blue, 4.5
# long, 1.02 solid (never read in a game film)
BLADE_RUN = 11  # px a row: a blade 6.5 px wide slanting as far as a blade may (`lying` 0.8)
BLUE_BLADE = 0.3  # ...or, if this much of it is blue steel, (measured: the Naipes rey of
BLUE_BLADE_ELONGATION, BLUE_BLADE_SOLIDITY = 3.0, 0.58  # espadas's blade 0.38-0.60 blue, 3.1-3.6
# long, solidity 0.59-0.65; the grey bars on Naipes caballos as loose as these 0.00 blue)
CUP_DEPTH = 0.22  # a held cup's bowl ends above this (the cup test's own limit): red below it
# is cut off, so a bowl touching the horse's head below (Fournier's caballo) stands alone
CUP_STEM = 0.5  # ...if it narrows to its stem at the cut: at most this share of its width
# (measured: Fournier's caballo's bowl 0-7 px of 17-19; a sota of espadas's red cut 20 of 22)


@dataclass
class _Part:
    """One colour blob of a figure card's upper part: place (fractions of the card) and shape."""
    area: int
    x0: float
    y0: float
    x1: float
    y1: float
    elongation: float
    length: float  # px, about the full length of a bar
    solidity: float
    roundness: float  # area / the enclosing circle's area
    lying: float  # |cos| of the long axis's angle from the x axis: 0 upright, 1 lying flat
    blob: Optional[np.ndarray] = None

    @property
    def width(self) -> float:
        return self.area / max(self.length, 1.0)


@dataclass(frozen=True)
class _Place:
    """Where a blob lies and how big it is, before it is measured (as in `_Part`)."""
    area: int
    x0: float
    y0: float
    x1: float
    y1: float


def _parts(mask: np.ndarray, min_area: int, card: Tuple[int, int],
           keep: bool = False, low: float = 0.56, where=None) -> List[_Part]:
    """The 8-connected blobs of ``mask`` of at least ``min_area`` px that lie high enough on a
    card of ``card`` (w, h) px for a held pinta (from its upper 30%, down to ``low`` at most);
    ``keep``: with each one's full-size 0/1 mask; ``where``: a test of a blob's `_Place` it must
    pass to be measured at all (its shape costs most)."""
    n, labels, stats, _ = components(mask)
    w_card, h_card = card
    out = []
    rows = stats.tolist()  # (Python numbers, read once: numpy's scalars cost more each)
    for i in range(1, n):
        x, y, w, h, area = rows[i]
        if area < min_area or y > 0.3 * h_card or y + h > low * h_card:
            continue
        if where is not None and not where(_Place(area, x / w_card, y / h_card,
                                                  (x + w) / w_card, (y + h) / h_card)):
            continue
        blob = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
        lo, hi, angle = agnostic.blob_axes(blob, area)
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        pts = np.vstack(contours)
        hull = cv2.contourArea(cv2.convexHull(pts))
        _, r = cv2.minEnclosingCircle(pts)
        out.append(_Part(area, x / w_card, y / h_card, (x + w) / w_card, (y + h) / h_card,
                         math.sqrt(hi / max(lo, 1e-6)), 4 * math.sqrt(max(hi, 0.0)),
                         area / max(hull, 1.0), area / (math.pi * r * r + 1e-6),
                         abs(math.cos(angle)),
                         (labels == i).astype(np.uint8) if keep else None))
    return out


def _holes_filled(mask: np.ndarray) -> np.ndarray:
    """``mask`` (0/1) with every hole it encloses filled: a coin drawn with lines inside it (the
    Naipes lion's face) is one solid disc."""
    outside = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    cv2.floodFill(outside, None, (0, 0), 1)
    return mask | (1 - outside[1:-1, 1:-1])


def _interior(mask: np.ndarray, h: int) -> np.ndarray:
    """``mask`` (the upper strip of a card ``h`` px long) without the outline and frame."""
    out = np.zeros_like(mask)
    w = mask.shape[1]
    y0, x0, x1 = int(0.045 * h), int(0.085 * w), int(0.915 * w)
    out[y0:, x0:x1] = mask[y0:, x0:x1]
    return out


def _held(hsv: np.ndarray, h: int, paper_v: float, paper_s: float,
          away: Optional[np.ndarray] = None) -> Dict[str, str]:
    """The pintas held up in the upper strip ``hsv`` of a card ``h`` px long, as it lies: suit ->
    what was seen. ``paper_v``, ``paper_s``: the paper's value and saturation; ``away``: where
    a pinta may not reach (strip-sized, nonzero near another card lying over this one: a pinta
    cut there may be another suit's, or part of that card)."""
    sat = hsv[..., 1]
    w = hsv.shape[1]
    card = (w, h)
    found = {}
    found_at = {}  # suit -> the part, to drop those that reach ``away``

    # oros: a gold coin, round and solid once an opening parts it from a hand or a horse's head,
    # standing out (little gold around it), beside the figure's middle
    gold = _interior(_within(hsv, (17, 101, 0), (34, 255, 255)), h)
    enough = cv2.countNonZero(gold) >= 400  # (an opening only takes pixels away: too few for a
    # coin, none is found)
    solid = _holes_filled(gold) if HELD_COIN_HOLES and enough else gold
    for kernel in COIN_OPENINGS if enough else ():
        for p in _parts(cv2.morphologyEx(solid, cv2.MORPH_OPEN, kernel), 400, card, keep=True,
                        where=_coin_place):
            if p.elongation <= 1.3 and p.solidity >= 0.93 and p.roundness >= 0.72:
                ring = cv2.dilate(p.blob, _S11) & (1 - cv2.dilate(p.blob, _S3))
                if float(gold[ring > 0].mean()) <= 0.16:
                    found["O"] = f"a coin at ({p.x0:.2f}, {p.y0:.2f})"
                    found_at["O"] = p
        if "O" in found:
            break

    # bastos: a solid club, yellow-green to green, of a club's width, from near the top
    all_green = _interior(_within(hsv, (29, 91, 0), (90, 255, 255)), h)
    for opening in (_K3,) + ((CLUB_PARTED,) if CLUB_PARTED is not None else ()):
        green = cv2.morphologyEx(all_green, cv2.MORPH_OPEN, opening)
        parted = opening is not _K3  # (a club parted from a sleeve it ran into through the hand)
        for cut in (None,) + ((int(CLUB_CUT * h),) if CLUB_CUT else ()):
            if cut is not None:  # a club held at the chest, run into a sleeve or robe of its green
                green[cut:] = 0
            for p in _parts(green, 370, card, where=_club_place) \
                    if cv2.countNonZero(green) >= 370 else ():
                if p.elongation >= CLUB_ELONGATION and \
                        p.solidity >= (0.75 if cut is None else CLUB_CUT_SOLID) and \
                        (9.0 if cut is None and not parted else
                         CLUB_PARTED_WIDTH if cut is None else CLUB_CUT_WIDTH) <= p.width \
                        <= 17.0 and 30 <= p.length <= 70:
                    found["B"] = f"a club at ({p.x0:.2f}, {p.y0:.2f})"
                    found_at["B"] = p
            if "B" in found:
                break
        if "B" in found:
            break

    # espadas: a thin straight bar of grey or blue steel, roughly upright, from near the top
    # (thin: it survives a 3 x 3 opening but not a 9 x 9 one)
    blue = _within(hsv, (90, 51, 0), (135, 255, 255))
    steel = _within(hsv, (0, 0, math.floor(0.35 * paper_v) + 1),
                    (255, 79, math.ceil(0.8 * paper_v) - 1)) | blue
    blue = blue.view(bool)
    steel = cv2.morphologyEx(_interior(steel, h), cv2.MORPH_OPEN, _K3)
    thin = cv2.morphologyEx(steel & (1 - cv2.morphologyEx(steel, cv2.MORPH_OPEN, _K9)),
                            cv2.MORPH_OPEN, _K3) if cv2.countNonZero(steel) >= 100 else None
    for p in _parts(thin, 100, card, keep=True, low=1.0, where=_blade_place) \
            if thin is not None else ():  # a blade may run into the figure
        for q in (p, _blade_top(p, card)):
            if q is not None and _blade(q, h, blue, sat, paper_s):
                found["E"] = f"a blade at ({q.x0:.2f}, {q.y0:.2f})"
                found_at["E"] = q

    # copas: a small compact red bowl near the top, beside the figure (not over its head: red
    # shoes of a turned card), with paper on both sides of it
    warm = _interior(_within(hsv, (0, 101, 0), (19, 255, 255)) |
                     _within(hsv, (165, 101, 0), (255, 255, 255)), h)
    cut = int(CUP_DEPTH * h)
    warm[cut:] = 0  # a bowl resting on a horse's head is one red blob with it
    paper = _within(hsv, (0, 0, math.floor(0.8 * paper_v) + 1),
                    (255, math.ceil(paper_s + 35) - 1, 255)).view(bool)
    for p in _parts(cv2.morphologyEx(warm, cv2.MORPH_OPEN, _K3), 100, card, keep=True,
                    where=_cup_place) if cv2.countNonZero(warm) >= 100 else ():
        if _bowl(p) and p.solidity >= 0.9 and _narrows(p, cut, w):
            x0, x1 = int(round(p.x0 * w)), int(round(p.x1 * w))
            y0, y1 = int(round(p.y0 * h)), int(round(p.y1 * h))
            left = float(paper[y0:y1, max(x0 - 5, 0):max(x0 - 1, 1)].mean())
            right = float(paper[y0:y1, x1 + 1:x1 + 5].mean())
            if min(left, right) >= 0.6:
                found["C"] = f"a cup at ({p.x0:.2f}, {p.y0:.2f})"
                found_at["C"] = p
    if away is not None:
        for suit, q in found_at.items():
            box = away[int(q.y0 * h):int(np.ceil(q.y1 * h)) + 1,
                       int(q.x0 * w):int(np.ceil(q.x1 * w)) + 1]
            if box.any():
                del found[suit]
    return found


def _within(hsv: np.ndarray, lo: Tuple[int, int, int], hi: Tuple[int, int, int]) -> np.ndarray:
    """0/1 where each of hue, saturation and value lies in [lo, hi] (whole numbers: a value
    over a limit t is one of at least floor(t) + 1, under it of at most ceil(t) - 1): OpenCV's
    range test, the same masks as numpy's comparisons at a fraction of their time."""
    lo = tuple(max(int(v), 0) for v in lo)
    hi = tuple(min(int(v), 255) for v in hi)
    if any(a > b for a, b in zip(lo, hi)):
        return np.zeros(hsv.shape[:2], np.uint8)
    return cv2.inRange(hsv, lo, hi) & 1


def _coin_place(p: _Place) -> bool:
    """A held coin's size and place: beside the figure's middle, in the card's upper part."""
    cx = 0.5 * (p.x0 + p.x1)
    return p.area <= 1000 and p.y1 <= 0.42 and (cx <= 0.42 or cx >= 0.58)


def _club_place(p: _Place) -> bool:
    """A held club's size and place: from near the top."""
    return p.area <= 1100 and p.y0 <= 0.2 and p.y1 <= 0.52


def _blade_place(p: _Place) -> bool:
    """A held blade's place: from near the top (and so its top's, `_blade_top`)."""
    return p.y0 <= 0.16


def _cup_place(p: _Place) -> bool:
    """A held cup's size and place: a small bowl near the top, beside the figure."""
    return p.area <= 420 and p.y0 <= 0.14 and p.y1 <= 0.22 and (p.x1 <= 0.42 or p.x0 >= 0.58)


def _blade(p: _Part, h: int, blue: np.ndarray, sat: np.ndarray, paper_s: float) -> bool:
    """Whether a thin steel part is a blade held up: long (a blade all blue steel may be shorter:
    Naipes' caballo's blade tip stops where its blue fades), of a blade's width, from near the
    top, roughly upright and straight, and steel: blue, or grey no more coloured than the paper
    (a brown leg shaded, of a page or of the turned card's horse, is more; measured on 200
    scenes: grey blades -27 to +5 over the paper's saturation, brown legs and sleeves +24 to
    +48)."""
    m = p.blob > 0
    steel_blue = float(blue[m].mean())
    if steel_blue < BLUE_BLADE and float(sat[m].mean()) > paper_s + GREY_OVER_PAPER:
        return False
    if steel_blue >= ALL_BLUE:
        long_enough, wide_enough = p.length >= ALL_BLUE_LENGTH, p.width >= ALL_BLUE_WIDTH
    else:
        short, elongation, solidity = SHORT_BLADE
        long_enough = p.length >= 30 or \
            (p.length >= short and p.elongation >= elongation and p.solidity >= solidity) or \
            (p.length >= FAR_BLADE[0] and steel_blue >= FAR_BLADE[1] and
             p.elongation >= elongation and p.solidity >= FAR_BLADE[2])
        wide_enough = p.width >= 3.3
    return long_enough and wide_enough and p.width <= 6.5 and p.y0 <= 0.16 and p.y1 <= 0.55 and \
        p.lying <= 0.8 and (p.y1 - p.y0) * h >= 0.6 * p.length and _straight(p, steel_blue)


def _blade_top(p: _Part, card: Tuple[int, int]) -> Optional[_Part]:
    """A thin part's top, down to the first row where it widens or forks: a blade held in a hand
    runs on through its hilt into the steel shading of the arm or robe below, which makes the
    whole part neither thin nor straight (Fournier's rey and caballo of espadas); None if the
    part starts too low, or is thin all the way down (then it is its own top)."""
    if p.y0 > 0.16:
        return None
    ys = np.flatnonzero(p.blob.any(axis=1))
    top = np.zeros_like(p.blob)
    for y in range(int(ys[0]), int(ys[-1]) + 1):
        row = p.blob[y]
        xs = np.flatnonzero(row)
        if xs.size == 0 or xs[-1] - xs[0] + 1 > BLADE_RUN or xs.size < xs[-1] - xs[0] + 1:
            break  # wider than a blade slanting, or two runs: a hilt, an arm
        top[y] = row
    if top.sum() == p.blob.sum():
        return None
    parts = _parts(top, 100, card, keep=True)
    return parts[0] if len(parts) == 1 else None


def _straight(p: _Part, blue: float) -> bool:
    """Whether a thin steel part is as straight and even as a blade: a grey one must be clearly
    so (grey shading on a rider or a horse's harness makes thin bars too), a blue one, steel by
    its colour, less so (a wide blade held slanting frays where it crosses the figure). ``blue``:
    the share of it that is blue."""
    if p.elongation >= BLADE_ELONGATION and p.solidity >= BLADE_SOLIDITY:
        return True
    return p.elongation >= BLUE_BLADE_ELONGATION and p.solidity >= BLUE_BLADE_SOLIDITY and \
        blue >= BLUE_BLADE


def _narrows(p: _Part, cut: int, w: int) -> bool:
    """Whether a red part cut off at row ``cut`` (`CUP_DEPTH`) narrows there, as a bowl does to
    its stem: a red robe or sleeve cut across is as wide at the cut as above it."""
    return float(p.blob[cut - 1].sum()) <= CUP_STEM * (p.x1 - p.x0) * w  # 0 if not cut


def _bowl(p: _Part) -> bool:
    """Whether a red part is shaped like a cup's bowl: compact, or wide and shallow and lying
    flat (a goblet's bowl held up may be wider than it is deep, never slanted)."""
    return p.elongation <= CUP_ELONGATION or \
        (p.elongation <= CUP_FLAT_ELONGATION and p.lying >= CUP_FLAT)


def figure_suit(rect_bgr: np.ndarray) -> Tuple[Optional[str], str]:
    """(suit, what was seen) of a figure card's rectified image, either way up; (None, why) when
    no held pinta, or pintas of two suits, are found."""
    hsv = card_hsv(rect_bgr)
    h = hsv.shape[0]
    paper_v, paper_s = _paper_vs(hsv)
    n = int(STRIP * h)
    up = _held(hsv[:n], h, paper_v, paper_s)
    down = _held(cv2.rotate(hsv[h - n:], cv2.ROTATE_180), h, paper_v, paper_s)
    suits = set(up) | set(down)
    if len(suits) == 1:
        suit = suits.pop()
        return suit, up.get(suit) or down[suit] + " (turned)"
    if not suits:
        return None, "no pinta"
    return None, "pintas of several suits (" + ", ".join(sorted(suits)) + ")"


def _paper_vs(hsv: np.ndarray) -> Tuple[float, float]:
    """The paper's value and saturation on a card's HSV image: the light part of its interior.
    The 80th percentile of the value (numpy's, linear between neighbours) and the median
    saturation of the pixels within 5 of it, from histograms: the same numbers at a third of
    np.percentile's and np.median's time (every call of the benchmark's 120 frames compared)."""
    h, w = hsv.shape[:2]
    inner = hsv[int(0.11 * h):int(0.89 * h), int(0.12 * w):int(0.88 * w)]
    paper_v = float(histogram.percentile(
        np.cumsum(cv2.calcHist([inner], [2], None, [256], [0, 256]).ravel()), 80))
    light = (inner[..., 2] >= paper_v - 5).astype(np.uint8)
    return paper_v, histogram.median(
        np.cumsum(cv2.calcHist([inner], [1], light, [256], [0, 256]).ravel()))
