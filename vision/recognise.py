"""The whole still-image pipeline: detect, rectify, identify. Used by the CLI, the benchmark and the
live observer, so all three measure and run the same code."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import cv2
import numpy as np

from vision import detect, on_top
from vision.geometry import long_side
from vision.identify import PAIR_MARGIN, Identity, searched, visibility_masks
from vision.timing import Stages, stages_or_none

ALIGN_BELOW = 0.85  # a reading whose best template matches worse than this gets its outline moved
ALIGN_SIZE = 0.15  # ... if the outline is within this fraction of the frame's typical card length
ALIGN_HAND = 0.3  # ... and if no more than this of it lies under a hand (the search then fits what it sees of
                  # the card beside the hand: an arm over the stock's trump was read as a 5 of oros)
INDEX_AFTER_SEARCH = True  # a card still unknown after `align` gets the index test


@dataclass
class SeenCard:
    code: Optional[str]
    face_up: bool
    confidence: float
    corners: np.ndarray  # 4x2 image pixels, TL TR BR BL of the card as identified (upright)
    identity: Optional[Identity] = None

    def as_json(self) -> dict:
        return {"card": self.code, "face": "up" if self.face_up else "down",
                "confidence": round(float(self.confidence), 3),
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


@dataclass
class Timing:
    detect_ms: float = 0.0
    identify_ms: float = 0.0
    per_stage: Dict[str, float] = field(default_factory=Stages)  # `DETECT_STAGES`, `IDENTIFY_STAGES`


# The steps of a frame's reading, as `Timing.per_stage` names them, in pipeline order
DETECT_STAGES = ("mask", "lone cards", "blob hypotheses", "blob fits")
IDENTIFY_STAGES = ("templates", "overlaps", "settled", "first read", "refit edges", "align",
                   "pinta check")


ORDER_TIE = 0.02  # detection scores this near: either card may lie on top, both are read as below


def overlapping_pairs(dets, min_frac: float = 0.02) -> List[Tuple[int, int]]:
    """The pairs (i, j), i < j, of detections whose outlines overlap by more than ``min_frac`` of
    the smaller one."""
    quads = [d.corners.astype(np.float32) for d in dets]
    areas = [cv2.contourArea(q) for q in quads]
    centres = [detect._centre(q) for q in quads]
    out = []
    for i in range(len(quads)):
        for j in range(i + 1, len(quads)):
            if np.linalg.norm(centres[i] - centres[j]) > 1.3 * (areas[i] ** 0.5 + areas[j] ** 0.5):
                continue
            inter, _ = cv2.intersectConvexConvex(quads[i], quads[j])
            if inter > min_frac * min(areas[i], areas[j]):
                out.append((i, j))
    return out


def below(a: detect.Detection, b: detect.Detection) -> Tuple[bool, bool]:
    """Whether each of two overlapping cards is taken to lie below the other: the one whose sides
    are less visible (lower detection score); both when the scores are within `ORDER_TIE`.
    (`brisca-table bench vision` reports how often this order is right.)"""
    return a.score <= b.score + ORDER_TIE, b.score <= a.score + ORDER_TIE


def overlapped(dets, min_frac: float = 0.02, partners: Optional[List[bool]] = None) -> List[bool]:
    """Which detections lie partly under another one (a trick, the trump under the stock), by
    `below` over each overlapping pair. ``partners``, if given, is set True for every detection
    that overlaps another at all."""
    out = [False] * len(dets)
    for i, j in overlapping_pairs(dets, min_frac):
        if partners is not None:
            partners[i] = partners[j] = True
        bi, bj = below(dets[i], dets[j])
        out[i] |= bi
        out[j] |= bj
    return out


def cover_maps(dets, covered, size=detect.COVER_SIZE,
               outlines: Optional["_Outlines"] = None) -> List[Optional[np.ndarray]]:
    """For each detection flagged as lying under another, where the overlapping detections cover
    it, as a map over its rectified image (1 = covered); None when nothing lies on it.
    ``outlines``: the detections' `_Outlines`, if already measured."""
    out: List[Optional[np.ndarray]] = [None] * len(dets)
    geometry = _Outlines(dets) if outlines is None else outlines
    for i in range(len(dets)):
        if covered[i]:
            for _, one in geometry.neighbour_maps(i, size):
                out[i] = one if out[i] is None else np.maximum(out[i], one, out=out[i])
    return out


class _Outlines:
    """The detections' outlines, centres and diagonals, measured once for every pair."""

    def __init__(self, dets):
        self.quads = [d.corners.astype(np.float32) for d in dets]
        self.centres = [detect._centre(q) for q in self.quads]
        self.diagonals = [np.linalg.norm(q[0] - q[2]) for q in self.quads]

    def neighbour_maps(self, i: int, size=detect.COVER_SIZE) -> List[Tuple[int, np.ndarray]]:
        """(j, where detection j overlaps detection i, as a map over i's rectified image)."""
        w, h = size
        q = self.quads[i]
        m = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
        out = []
        for j, qj in enumerate(self.quads):
            reach = 1.2 * (self.diagonals[i] + self.diagonals[j]) / 2
            if j == i or np.linalg.norm(self.centres[i] - self.centres[j]) > reach:
                continue
            inter, _ = cv2.intersectConvexConvex(q, qj)
            if inter <= 0:
                continue
            pj = cv2.perspectiveTransform(qj.reshape(-1, 1, 2), m).reshape(-1, 2)
            one = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(one, np.round(pj * 4).astype(np.int32), 1, shift=2)
            out.append((j, one))
        return out


OTHER_ORDER = True  # an unknown card judged on top in an overlap is also read as the one below
ON_TOP_READ = True  # an unknown covered card is read again without the parts of the cards it
# lies on, as its own frame line says (`ON_TOP_LINE`): which card lies on top is judged from
# the detection scores, wrong for about a quarter of the overlapping pairs
ON_TOP_PARTNERS = True  # ... and a card judged on top, read as the one below too (`OTHER_ORDER`)
ON_TOP_SIDES = True  # ... or as the image along the two cards' sides says (`on_top.lies_on`)
ON_TOP_LINE = 0.8  # the share of its frame line through a card's part that says it lies on it
ON_TOP_LOOSE: Optional[Tuple[float, float, float]] = (0.6, 0.5, 0.45)  # ... and, the card still
# unknown, looser (line, `on_top.SHOWN`, `on_top.HIDDEN`), after the strict ones: in their place
# they also drop the part of a card lying over it, and it is read with too little covered (a
# built-in caballo of oros lost so)
ALL_BESIDE = np.ones(detect.COVER_SIZE[::-1], np.uint8)  # `Recogniser._read`'s default ``beside``


def _with_hand(cover: Optional[np.ndarray], hand: Optional[np.ndarray]) -> Optional[np.ndarray]:
    """A card's cover map with a hand's map over it added (either may be None)."""
    if hand is None:
        return cover
    return hand if cover is None else np.maximum(cover, hand)


def doubtful(ident: Identity) -> bool:
    """A reading over threshold that is still worth a second look at the card's outline: a near-tie
    with the runner-up, or a whole card matching its template only fairly."""
    return ident.margin < PAIR_MARGIN or (ident.view == "whole" and ident.score < 0.9)


class Recogniser:
    """Holds the identifier (templates loaded once) and runs frames through the pipeline.
    `identifier` has identify(rect) -> Identity: a `Templates` or an agnostic `Reader`."""

    def __init__(self, identifier, threshold: float = 0.5, card_long_px: Optional[float] = None):
        self.identifier = identifier
        self.threshold = threshold
        self.card_long_px = card_long_px
        self.last = Timing()
        self.use_cover = True
        self.refine = True
        self.reaches = (7.0, 16.0)  # px: sides a little off, then a side placed quite wrongly
        self.align = hasattr(identifier, "align")

    def recognise(self, image: np.ndarray, settled=None) -> List[SeenCard]:
        """Every card in ``image``. ``settled``: the `vision.settled.SettledCards` of the camera
        the frame comes from (the frames of one camera in order): a card that has not moved or
        changed since two reads agreed on it keeps that reading, unread."""
        t0 = time.perf_counter()
        stages = Stages()

        def find(frame: np.ndarray) -> list:
            return detect.detect_cards(frame, self.card_long_px, stages=stages)

        dets = find(image) if settled is None else settled.detections(image, find)
        t1 = time.perf_counter()
        if hasattr(self.identifier, "new_frame"):  # identification's: a learner remakes its
            with stages.time("templates"):  # templates here (it was timed as detection's)
                self.identifier.new_frame()
        out = []
        partners = [False] * len(dets)
        with stages.time("overlaps"):
            covered = overlapped(dets, partners=partners)
            typical = float(np.median([long_side(d.corners) for d in dets])) if dets else 0.0
            outlines = _Outlines(dets)  # (for the maps here, and the second looks below)
            beside = cover_maps(dets, partners, outlines=outlines)  # where other cards overlap
            # each, either on top; a card's map is the same whichever lies on top, so the
            # covered ones' are among them
            covers = [b if c and self.use_cover else None for b, c in zip(beside, covered)]
            if self.use_cover:
                for k, d in enumerate(dets):
                    if d.hand is not None:  # a hand over the card covers it as a card would
                        covered[k] = True
                        covers[k] = _with_hand(covers[k], d.hand)
        page = _Page(image, stages)
        if settled is not None:
            settled.new_frame()
        for k, (d, occ, cov) in enumerate(zip(dets, covered, covers)):
            if settled is not None:
                with stages.time("settled"):
                    kept = settled.recall(image, d.corners)
                if kept is not None:
                    out.append(kept)
                    continue
            if hasattr(self.identifier, "identify_quad"):
                ident, placed = self._read(page, d, occ, cov, typical, beside[k])
                if OTHER_ORDER and partners[k] and not occ and ident.code is None and \
                        ident.candidate != "back" and self.use_cover:
                    ident, placed = self._read_as_below(page, dets, k, typical, ident, placed,
                                                        outlines)
                if ON_TOP_READ and ident.code is None and ident.candidate != "back" and \
                        (cov is not None or partners[k] and ON_TOP_PARTNERS) and self.use_cover:
                    ident, placed = self._read_on_top(page, dets, k, typical, ident, placed,
                                                      outlines, beside[k])
                if ident.code is None and ident.candidate != "back" and d.alternates:
                    ident, placed = self._read_alternate(page, dets, k, typical, ident, placed)
                if hasattr(self.identifier, "pinta_check"):
                    maybe_covered = occ or partners[k] or cov is not None or placed.score < 0.9
                    with stages.time("pinta check"):
                        ident = self.identifier.pinta_check(image, placed.corners, ident,
                                                            maybe_covered, self.threshold)
                d = placed
            else:
                with stages.time("first read"):
                    ident = self.identifier.identify(detect.rectify(image, d.corners), self.threshold)
            corners = np.roll(d.corners, 2, axis=0) if ident.rotated else d.corners
            out.append(SeenCard(ident.code, ident.face_up, ident.confidence, corners, ident))
            if settled is not None:
                settled.keep(out[-1])
        if settled is not None:
            settled.next_frame()
        t2 = time.perf_counter()
        self.last = Timing((t1 - t0) * 1e3, (t2 - t1) * 1e3, stages)
        return out

    def _read(self, page: "_Page", d: detect.Detection, occ: bool, cov, typical: float,
              beside: Optional[np.ndarray] = ALL_BESIDE):
        """One detection through the identifier, with the second looks a doubtful reading earns:
        (identity, the detection as finally placed). ``beside``: where other detections overlap
        it, whichever lies on top (`cover_maps`; None: nowhere); the second looks at other
        placements of a card in a merged blob take it all overlapped."""
        image, stages = page.image, page.stages
        kw = dict(occluded=occ or d.score < 0.9, cover=cov, under_hand=d.hand is not None,
                  beside=beside)
        under_hand = 0.0 if d.hand is None else float(d.hand.mean())
        alts = ()
        if self.refine and cov is not None:
            # a partly covered card is read from what is left of it: place its sides on the
            # image edges first, a few pixels matter more there
            with stages.time("refit edges"):
                q = detect.refine_edges(page.image, d.corners)
            if float(np.abs(q - d.corners).max()) > 0.3:
                alts = (d.corners,)
                d = detect.Detection(q, d.score)
        with stages.time("first read"):
            ident: Identity = self.identifier.identify_quad(image, d.corners, self.threshold,
                                                            alternatives=alts, **kw)
        if self.refine and not alts and ident.candidate != "back" and not ident.settled and \
                (ident.code is None or doubtful(ident)):
            with stages.time("refit edges"):
                ident, d = self._refined(page, d, ident, kw)
        if self.align and ident.candidate != "back" and ident.score < ALIGN_BELOW and \
                (ident.code is None or doubtful(ident)) and under_hand <= ALIGN_HAND and \
                abs(long_side(d.corners) / typical - 1.0) < ALIGN_SIZE:
            # the artwork matches poorly where the outline says the card is: the outline was
            # placed from a merged blob, 10-20 px off. Move it to where the artwork fits. (An
            # outline of the wrong size is no misplaced card: the visible part of a covered one,
            # say. Moving it would only find some template that fits.)
            with stages.time("align"):
                ident, d = self._aligned(image, d, ident, kw)
        return ident, d

    def _aligned(self, image: np.ndarray, d: detect.Detection, ident: Identity, kw):
        """The reading at the outline `align` moves to where the artwork fits, if better."""
        cov = kw["cover"]
        q = self.identifier.align(image, d.corners)
        again = searched(self.identifier.identify_quad(image, q, self.threshold, **kw),
                         self.threshold, covered=cov is not None)
        if INDEX_AFTER_SEARCH:
            # the search's penalties may leave a clear winner unknown: its numeral may still say
            vis = visibility_masks(cov) if cov is not None else None
            again = self.identifier.index_test(image, q, again, (True, True) if vis is None else vis[1])
        if again.score > ident.score + 0.01 and (again.code is not None or ident.code is None):
            ident, d = again, detect.Detection(q, d.score)
        return ident, d

    def _read_as_below(self, page: "_Page", dets, k: int, typical: float, ident: Identity,
                       placed: detect.Detection, outlines: Optional["_Outlines"] = None):
        """A card judged to lie on another and left unknown, read again as the one below, over
        the part the other leaves visible: the detection scores that decide the order get about
        a fifth of the overlapping pairs of fitting scenes wrong (a trump whose outline was
        fitted more cleanly than the stock's is read whole, stock and all, and stays unknown).
        Taken only when sure and when the pair test does not side with the runner-up (a trump
        read over its visible half with its outline 12 px off otherwise turned a 10 into an 11
        on fitting scenes). The other way round (a card judged below read whole) named the 8 of
        oros under the stock a 7 four times in 150 fitting scenes: not done. ``outlines``: the
        frame's `_Outlines`, if already measured."""
        alone = [j == k for j in range(len(dets))]
        cov = _with_hand(cover_maps(dets, alone, outlines=outlines)[k], dets[k].hand)
        again, there = self._read(page, dets[k], True, cov, typical)
        if again.code is not None and again.pair > 0.0:
            return again, there
        return ident, placed

    def _read_on_top(self, page: "_Page", dets, k: int, typical: float, ident: Identity,
                     placed: detect.Detection, outlines: "_Outlines", beside):
        """A covered card left unknown, read again without the parts of the cards overlapping
        it that it lies on: its own frame line runs on through them (`pictures.frame_line_through`)
        or its sides show across them and theirs do not across it (`on_top.lies_on`). With none
        left, and no hand over it, it is read as a card in full view. Still unknown, it is read
        once more as the looser `ON_TOP_LOOSE` says, if that drops other parts."""
        from vision import pictures  # (which imports the agnostic reader: not for templates)

        rect = detect.rectify(page.image, dets[k].corners)
        looks = [_Look(j, one, pictures.frame_line_through(rect, one))
                 for j, one in outlines.neighbour_maps(k)]
        tried = set()
        for line_at, shown, hidden in ((ON_TOP_LINE, on_top.SHOWN, on_top.HIDDEN),) + \
                ((ON_TOP_LOOSE,) if ON_TOP_LOOSE is not None else ()):
            drop = tuple(look.lies_on(page.image, dets, k, line_at, shown, hidden)
                         for look in looks)
            if not any(drop) or drop in tried:
                continue
            tried.add(drop)
            kept = None
            for look, dropped in zip(looks, drop):
                if not dropped:
                    kept = look.part if kept is None else np.maximum(kept, look.part)
            kept = _with_hand(kept, dets[k].hand)
            again, there = self._read(page, dets[k], kept is not None, kept, typical, beside)
            if again.code is not None:
                return again, there
        return ident, placed

    def _read_alternate(self, page: "_Page", dets, k: int, typical: float, ident: Identity,
                        placed: detect.Detection):
        """A detection left unknown, read at its alternate placements (`detect.ALTERNATES`: in a
        merged blob, the card at the same corner turned the other way, or a card a better-scoring
        hypothesis suppressed; side support can favour a card whose sides run along other cards'
        edges). Not where another detection already is: that card is read there. A hand over
        it there covers it as at the first placement."""
        hands = dets[k].alternate_hands or (None,) * len(dets[k].alternates)
        for q, hand in zip(dets[k].alternates, hands):
            centre = q.mean(axis=0)
            if any(j != k and np.hypot(*(centre - d.corners.mean(axis=0))) < 0.3 * typical
                   for j, d in enumerate(dets)):
                continue
            again, there = self._read(page, detect.Detection(q, dets[k].score, hand=hand), True,
                                      hand, typical)
            if again.code is not None:
                return again, there
        return ident, placed

    def _refined(self, page: "_Page", d: detect.Detection, ident: Identity, kw):
        """Unsure, or sure by a hair: place the sides on the image edges to sub-pixel accuracy and
        retry. A side placed a few pixels short (a card touching the stock) turns a 7 into a 6
        with a fair score: the better-fitting quad wins."""
        tried = [d.corners]
        for reach in self.reaches:
            q = detect.refine_edges(page.image, d.corners, reach=reach)
            if min(float(np.abs(q - p).max()) for p in tried) <= 0.3:
                continue
            tried.append(q)
            again = self.identifier.identify_quad(page.image, q, self.threshold,
                                                  alternatives=(d.corners,), **kw)
            if ident.code is None and again.code is not None:
                return again, detect.Detection(q, d.score)
            if ident.code is not None and again.score > ident.score + 0.01:
                ident, d = again, detect.Detection(q, d.score)  # may now be unsure
        return ident, d


class _Look:
    """What says whether a card lies on one of the cards overlapping it (`Recogniser._read_on_top`):
    that card's part of it as a map, its own frame line's share through that part, and the two
    cards' sides (`on_top.both_shown`, measured when first asked for)."""

    def __init__(self, j: int, part: np.ndarray, line: Optional[float]):
        self.j, self.part, self.line = j, part, line
        self._sides: Optional[Tuple[Optional[float], Optional[float]]] = None

    def lies_on(self, image: np.ndarray, dets, k: int, line_at: float, shown: float,
                hidden: float) -> bool:
        """Whether card ``k`` lies on card ``j``: its line runs through at ``line_at`` or more,
        or (`ON_TOP_SIDES`) its sides show there at ``shown`` and ``j``'s at most ``hidden``."""
        if self.line is not None and self.line >= line_at:
            return True
        if not ON_TOP_SIDES:
            return False
        if self._sides is None:
            self._sides = on_top.both_shown(image, dets[k].corners, dets[self.j].corners)
        return on_top.shares_say_on(*self._sides, shown, hidden)


class _Page:
    """The frame being read, and the milliseconds of its steps."""

    def __init__(self, image: np.ndarray, stages: Optional[Stages] = None):
        self.image = image
        self.stages = stages_or_none(stages)
