"""A deck nobody enrolled, enrolled while it is played (`Learner`).

The deck-agnostic reader (`agnostic.Reader`) names the whole cards it can count or whose figure
it knows, and leaves a card under another unknown: too little of its pintas shows, and the
numeral of a printed deck is a few blurred pixels. But in a game every card is seen whole at some
point, and a card read surely while whole is a picture of that code in this very deck, under
this camera and light. The `Learner` keeps those pictures as the templates of an enrolled deck
(`identify.Templates`) and reads with them what the agnostic reader leaves unknown, once it has
seen enough of the deck to tell the card from its look-alikes.
"""
from __future__ import annotations

from typing import Dict, List, Optional

import numpy as np

from table.cards import deck
from vision.identify import Identity, Templates, features_both

LEARN_CONFIDENCE = 0.9  # a reading this sure teaches (the pinta count 0.97, a known figure 0.9)
SIGHTINGS = 4  # pictures of one code averaged into its template (glare and blur differ by frame)
SAME_LOOK = 0.5  # a new sighting must match the code's template at least this well...
CONFLICT = 0.9  # ... and the templates must not read it as another code this surely
LEARNED_SURE = 0.85  # a template reading counts from this confidence: learned templates are camera
# views, noisier than a printed deck's, and the enrolled calibration over-states them (the two
# wrong template readings of about 450 on seeds 150000+ and 230000+, a 7 of oros read as the 6 and a
# 6 as the 7, had 0.80 and 0.66; 16 right ones fell under it)


CODES_40 = [str(c) for c in deck(40)]
CODES_48 = [str(c) for c in deck(48)]


def look_alikes(code: str, codes=CODES_40) -> List[str]:
    """The codes a template reading of `code` is confused with, of the deck's `codes`: its suit's
    other ranks (a pip more or less) and its rank's other suits (a figure in another colour). A
    template reading is trusted only when all of them are known too: a card of a code never seen
    would otherwise be named after the look-alike that is."""
    rank, suit = code[:-1], code[-1]
    return [c for c in codes if c != code and (c[-1] == suit or c[:-1] == rank)]


class Learner:
    """Identifier interface like `Templates` (the `Recogniser` drives it): the agnostic reader
    first, then, for a card it leaves unknown, the templates learned from its surest readings.
    No `align`: the search's outline would be read by the agnostic reader first, whose readings
    `identify.searched` cannot calibrate (a built-in 2 of copas under the stock became a 12 of
    oros at 0.57 on the fitting seeds).

    ``reader``: the deck-agnostic reader (default `agnostic.Reader()`). `learned` lists the codes
    known so far; `templates` is None until enough of them are, and takes in what a frame taught
    from the next frame on."""

    def __init__(self, reader=None, min_codes: int = 13):
        if reader is None:
            from vision.agnostic import Reader

            reader = Reader()
        self.reader = reader
        self.min_codes = min_codes
        self.sightings: Dict[str, List[np.ndarray]] = {}
        self.templates: Optional[Templates] = None  # made anew by `new_frame` after teaching
        self._taught_since: set = set()  # codes taught since the templates were made
        self._made: Dict[str, tuple] = {}  # code -> (template, its features) as last made
        self.taught = 0  # sightings kept
        self.refused = 0  # sure readings that did not look like the code's template

    @property
    def learned(self) -> List[str]:
        return sorted(self.sightings)

    def new_frame(self) -> None:
        """The templates made again from what the last frame taught: once a frame, and only the
        codes taught made anew (all 40 took about 13 ms, a fifth of the learner's frame)."""
        if self._taught_since and len(self.sightings) >= self.min_codes:
            for c, seen in self.sightings.items():
                if c in self._taught_since or c not in self._made:
                    rect = _mean(seen)
                    self._made[c] = (rect, features_both(rect))
            self.templates = Templates({c: self._made[c][0] for c in self.sightings}, "learned",
                                       numerals=False,
                                       made={c: m[1] for c, m in self._made.items()})
        self._taught_since = set()
        if self.templates is not None:
            self.templates.new_frame()

    # -------------------------------------------------------------- reading
    def identify_quad(self, image: np.ndarray, corners: np.ndarray, threshold: float = 0.5,
                      occluded: bool = False, cover: Optional[np.ndarray] = None, alternatives=(),
                      **kw) -> Identity:
        ident = self.reader.identify_quad(image, corners, threshold, occluded=occluded, cover=cover,
                                          alternatives=alternatives)
        if ident.code is not None:
            if not occluded and cover is None and ident.confidence >= LEARN_CONFIDENCE and \
                    ident.view in ("whole", "picture") and self.wants(ident.code):
                self.learn(ident.code, _rect(image, corners))
            return ident
        if ident.candidate == "back" or self.templates is None:
            return ident
        again = self.templates.identify_quad(image, corners, threshold, occluded=occluded,
                                             cover=cover, alternatives=alternatives, **kw)
        return again if self._trusted(again) else ident

    def identify(self, rect_bgr: np.ndarray, threshold: float = 0.5) -> Identity:
        ident = self.reader.identify(rect_bgr, threshold)
        if ident.code is not None or ident.candidate == "back" or self.templates is None:
            return ident
        again = self.templates.identify(rect_bgr, threshold)
        return again if self._trusted(again) else ident

    def pinta_check(self, image, corners, ident: Identity, maybe_covered: bool,
                    threshold: float = 0.5) -> Identity:
        """`Templates.pinta_check` on a template reading (one with runners-up: the agnostic
        reader names none, and has counted the pintas already)."""
        if self.templates is None or not ident.runners:
            return ident
        return self.templates.pinta_check(image, corners, ident, maybe_covered, threshold)

    def _trusted(self, ident: Identity) -> bool:
        """A template reading counts when it is sure (LEARNED_SURE) and its code and every
        look-alike of it are known."""
        if ident.code is None or ident.confidence < LEARNED_SURE:
            return False
        codes = CODES_48 if any(c[:-1] in ("8", "9") for c in self.sightings) else CODES_40
        return all(c in self.sightings for c in look_alikes(ident.code, codes))

    # -------------------------------------------------------------- learning
    def wants(self, code: str) -> bool:
        """Whether a sighting of `code` would be kept: a card of the deck with fewer than
        SIGHTINGS pictures so far (asked before a card is rectified for `learn`)."""
        return code in CODES_48 and len(self.sightings.get(code, ())) < SIGHTINGS

    def learn(self, code: str, rect_bgr: np.ndarray) -> bool:
        """Keep a sure reading's rectified card as a picture of `code`, turned to lie as the
        code's first picture does; refused if it looks unlike that picture, or if the templates,
        which know the code, read it surely as another (one wrong agnostic reading must not teach
        a wrong template). Returns whether it was kept."""
        if not self.wants(code):
            return False
        have = self.sightings.get(code, [])
        if have and self.templates is not None:  # (a code not yet known reads as a look-alike)
            other = self.templates.identify(rect_bgr)
            if other.code is not None and other.code != code and other.confidence >= CONFLICT:
                self.refused += 1
                return False
        if have:
            rect_bgr = _turned_like(rect_bgr, have[0])
            if rect_bgr is None:
                self.refused += 1
                return False
        self.sightings[code] = have + [rect_bgr]
        self.taught += 1
        self._taught_since.add(code)
        return True


def _rect(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    from vision.detect import rectify

    return rectify(image, corners)


def _mean(rects: List[np.ndarray]) -> np.ndarray:
    return np.mean(np.stack(rects).astype(np.float32), axis=0).round().astype(np.uint8)


def _likeness(a: np.ndarray, b: np.ndarray) -> float:
    """Correlation of two rectified cards' grey levels."""
    x = a.astype(np.float32).mean(axis=2).ravel()
    y = b.astype(np.float32).mean(axis=2).ravel()
    x -= x.mean()
    y -= y.mean()
    return float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y) + 1e-9))


def _turned_like(rect_bgr: np.ndarray, first: np.ndarray) -> Optional[np.ndarray]:
    """`rect_bgr` the way round that matches `first`, or None if neither way does (SAME_LOOK)."""
    turned = rect_bgr[::-1, ::-1]
    a, b = _likeness(rect_bgr, first), _likeness(turned, first)
    if max(a, b) < SAME_LOOK:
        return None
    return np.ascontiguousarray(turned if b > a else rect_bgr)
