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


NUMERAL_BOX = (2, 24, 2, 17)  # y0, y1, x0, x1 of the upright index numeral in the rectified card
# (120 x 180): the top-left corner, and the bottom-right one turned, both ways up alike. Tight: a
# larger box takes in the corner pinta, which a 6 and an 8 of oros share (measured on the
# benchmark's learning row: with 32 x 26 the true rank lost to the read one on 7 of 9 wrong
# template readings, with this box on none)
NUMERAL_PAD = 6  # how far (rectified pixels) the numeral may lie from where the outline puts it
NUMERAL_BLUR = 3.0  # the numeral's strokes, less the paper's shading (a sigma-3 high-pass)
NUMERAL_MARGIN = 0.05  # the numeral must look this much more like the read rank's than like a
# look-alike's (normalised correlation, at an index corner in view): on the benchmark's learning
# row every wrong template reading whose true rank's numeral was known scored 0.0 or less
# (at one index corner in view at least, the other not leading the other way: all of them
# leading gave 2-11 fewer right readings on the 100-scene sets and no wrong one fewer)
NUMERAL_LIKE = 0.6  # ... and like the read rank's at least this well
GLYPHS = 16  # index corners kept a rank (two a sighting)...
GLYPHS_A_SUIT = 4  # ... and of one suit (`Learner._glyphs` compares those of the other suits)
GLYPHS_MIN = 2  # a rank's numeral is compared once a sighting of it is in (both corners)
SUIT_CUE = True  # a look-alike of another suit is ruled out by the visible pintas' shapes
NUMERAL_CUE = True  # ... one of another rank by the visible index numeral
RUNNERS_TOO = True  # ... which must then also rule out the template reading's runners-up of its
# suit (a Naipes 7 of oros read as the 8, its template known, once the 10 was ruled out; a built-in
# 11 of copas read as the 10 once the 10s of the other suits were); only those `near` it, as for
# the look-alikes (twenty-fourth session's six sets: 14 more right alone, none wrong)


RUNNERS_PAIR = 0.35  # ... unless the pair test sides with the reading by this much (a Fournier
# caballo of oros under the stock, read at pair 0.40-0.46, waited for its numeral against the rey)


NEAR_PINTAS = 2  # a template reading of a number card is mistaken for its suit's cards this
# many pintas off at most (60 scenes of each printed deck from seed 50000, every suit-mate then
# a look-alike: of the wrong template readings of a suit-mate, 11 one pinta off, 7 two, none
# further; with one only, a whole Naipes 8 of oros was read as the 6, its 7 and 9 known)
FIGURES = ("10", "11", "12")
HELD_SUIT = True  # a figure's rank-mate of another suit is ruled out by the pinta it holds
# (`_suit_in_view`; twenty-fourth session's six sets: 20 more learning readings, none wrong)
UNPLACED_HIDDEN = True  # a card that may be covered where no known card lies (its outline poorly
# seen) read as a number card must be told from the card with one pinta more by its numeral: a
# Fournier 7 of bastos, a card over its lying club, was read whole as the 6 at 0.96 (seed 20013)
PAIR_NEAR = 0.2  # a covered card read so whose runner-up is a suit-mate NEAR_PINTAS off must be
# told from it by its numeral (`Learner._trusted`): of the template readings trusted with such a
# runner-up on 100 scenes of each printed deck, the one wrong had 0.149, 6 of 60 right ones less
PAIR_NEAR_SEVEN = 0.4  # ... and below this for a 6 or a 7 whose runner-up is a 7 or a 6 (of any
# suit; its own suit's is then asked for): under the stock they often show the same pintas (a
# Fournier trump 6 of oros read as the 7 at 0.999, pair test 0.35, seed 50058; at 0.4 for every
# near runner-up, 15 right readings of four sets lost)

CODES_40 = [str(c) for c in deck(40)]
CODES_48 = [str(c) for c in deck(48)]


def look_alikes(code: str, codes=CODES_40) -> List[str]:
    """The codes a template reading of `code` is confused with, of the deck's `codes`: its suit's
    near ranks (`near`: a pinta or two more or less, another figure) and its rank's other suits
    (a figure in another colour). A template reading is trusted only when all of them are known
    too: a card of a code never seen would otherwise be named after the look-alike that is."""
    rank, suit = code[:-1], code[-1]
    return [c for c in codes if c != code and (c[:-1] == rank or c[-1] == suit and
                                                 near(c[:-1], rank))]


def near(a: str, b: str) -> bool:
    """Whether a template reading of one rank may be of the other, in one suit: two figures, or
    two pinta cards (the ace one) at most NEAR_PINTAS pintas apart."""
    fa, fb = a in FIGURES, b in FIGURES
    return fa and fb if fa or fb else abs(int(a) - int(b)) <= NEAR_PINTAS


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
        self.glyphs: Dict[str, List[np.ndarray]] = {}  # rank -> its index numerals seen
        self.glyph_suits: Dict[str, List[str]] = {}  # rank -> the suit of each of them
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
                                          alternatives=alternatives,
                                          under_hand=kw.get("under_hand", False),
                                          beside=kw.get("beside"))
        if ident.code is not None:
            if not occluded and cover is None and ident.confidence >= LEARN_CONFIDENCE and \
                    ident.view in ("whole", "picture") and self.wants(ident.code):
                self.learn(ident.code, _rect(image, corners))
            return ident
        if ident.candidate == "back" or self.templates is None:
            return ident
        again = self.templates.identify_quad(image, corners, threshold, occluded=occluded,
                                             cover=cover, alternatives=alternatives, **kw)
        return again if self._trusted(again, lambda: _rect(image, corners), cover,
                                      occluded) else ident

    def identify(self, rect_bgr: np.ndarray, threshold: float = 0.5) -> Identity:
        ident = self.reader.identify(rect_bgr, threshold)
        if ident.code is not None or ident.candidate == "back" or self.templates is None:
            return ident
        again = self.templates.identify(rect_bgr, threshold)
        return again if self._trusted(again, lambda: rect_bgr) else ident

    def pinta_check(self, image, corners, ident: Identity, maybe_covered: bool,
                    threshold: float = 0.5) -> Identity:
        """`Templates.pinta_check` on a template reading (one with runners-up: the agnostic
        reader names none, and has counted the pintas already)."""
        if self.templates is None or not ident.runners:
            return ident
        return self.templates.pinta_check(image, corners, ident, maybe_covered, threshold)

    def _trusted(self, ident: Identity, rect=None, cover: Optional[np.ndarray] = None,
                 occluded: bool = False) -> bool:
        """A template reading counts when it is sure (LEARNED_SURE) and its code is known, and
        every look-alike of it is known too or ruled out by what the agnostic reader can see:
        one of another suit by the visible pintas' shapes (`visible_suit`), one of another rank
        by the visible index numeral, matched against the numerals learned from the other suits
        of each rank (`numeral_lead`, `_glyphs`). A covered card's runner-up of its suit a pinta
        or two off must be ruled out so too, known or not, if the pair test hardly sides with
        the reading (PAIR_NEAR), and a number card that may be covered where no card is known
        to lie (``occluded``, no ``cover``) must be told from the card with one pinta more
        (UNPLACED_HIDDEN). ``rect``: makes the rectified card, only if a look-alike must be
        ruled out; ``cover``: where other cards cover it (1, any size)."""
        if ident.code is None or ident.confidence < LEARNED_SURE or ident.code not in self.sightings:
            return False
        codes = CODES_48 if any(c[:-1] in ("8", "9") for c in self.sightings) else CODES_40
        rank, suit = ident.code[:-1], ident.code[-1]
        alike = look_alikes(ident.code, codes)
        unknown = [c for c in alike if c not in self.sightings]
        # a covered card whose runner-up is a suit-mate a pinta or two off, the pair test hardly
        # siding with the reading: the part in view may be the same on both (a Fournier 6 of oros
        # under the stock shows the 7's top four coins), so its numeral must tell them apart
        # the card with one pinta more, which a pinta hidden would turn into this one (a built-in
        # 7 of espadas, 72% in view, read as the 6 with the ace the runner-up)
        more = {str(int(rank) + 1)} if rank not in FIGURES and f"{int(rank) + 1}{suit}" in codes \
            else set()
        hidden = set()
        if UNPLACED_HIDDEN and cover is None and occluded:
            hidden = more  # covered somewhere unknown
        seven = {rank, ident.runners[0][:-1] if ident.runners else ""} == {"6", "7"}
        if cover is not None and ident.pair < (PAIR_NEAR_SEVEN if seven else PAIR_NEAR):
            hidden = more | {c[:-1] for c in ident.runners[:1]
                             if c[-1] == suit and near(c[:-1], rank)}
        if not unknown and not hidden:
            return True
        if rect is None:
            return False
        card = rect()
        if any(c[:-1] == rank for c in unknown) and \
                (not SUIT_CUE or _suit_in_view(card, cover, rank) != suit):
            return False
        others = {c[:-1] for c in unknown if c[:-1] != rank} | hidden
        if RUNNERS_TOO and ident.pair < RUNNERS_PAIR:  # a near runner-up of the suit, known
            # or not, is ruled out too, unless the pair test sides with the reading plainly
            others |= {c[:-1] for c in ident.runners if c[-1] == suit and c[:-1] != rank and
                       near(c[:-1], rank)}
        if not others:
            return True
        glyphs = {r: self._glyphs(r, suit) for r in others | {rank}}
        if not NUMERAL_CUE or any(len(g) < GLYPHS_MIN for g in glyphs.values()):
            return False
        corners = numerals_in_view(card, cover)
        if not corners:
            return False
        like = {r: [_likeness_to(q, g) for q in corners] for r, g in glyphs.items()}

        def leads(a: str, b: str) -> bool:
            return any(_leads(x, y, _margin(a, b)) for x, y in zip(like[a], like[b]))
        # one corner in view is enough where the other says nothing (a hand over it, an outline
        # cut short), not where it shows the other numeral
        return all(leads(rank, r) and not leads(r, rank) for r in others)

    def _glyphs(self, rank: str, suit: str) -> List[np.ndarray]:
        """The numerals learned of ``rank``, from suits other than ``suit`` (the card's, as read):
        an index box takes in a little of the corner pinta, so a numeral of the card's own suit
        looked more like it than any other suit's (a Naipes 8 of bastos under the stock looked
        like the 9 of bastos's numeral at 0.85, the 8 of oros's at 0.49)."""
        return [g for g, s in zip(self.glyphs.get(rank, ()), self.glyph_suits.get(rank, ()))
                if s != suit]

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
        rank = self.glyphs.setdefault(code[:-1], [])
        suits = self.glyph_suits.setdefault(code[:-1], [])
        if len(rank) < GLYPHS and suits.count(code[-1]) < GLYPHS_A_SUIT:
            y0, y1, x0, x1 = NUMERAL_BOX
            rank.extend(g[y0:y1, x0:x1].copy() for g in _index_corners(rect_bgr))
            suits.extend([code[-1]] * 2)  # one numeral a corner
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


def _index_corners(rect_bgr: np.ndarray) -> List[np.ndarray]:
    """The card's lightness, high-passed (`NUMERAL_BLUR`), as is and turned: the top-left index
    corner of each is an upright numeral, whichever way up the card lies."""
    import cv2

    g = cv2.cvtColor(rect_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    g -= cv2.GaussianBlur(g, (0, 0), NUMERAL_BLUR)
    return [g, np.ascontiguousarray(g[::-1, ::-1])]


def _cover_over(cover: Optional[np.ndarray], shape) -> Optional[np.ndarray]:
    """A cover map (1 where covered, any size) at the size of a rectified card of ``shape``."""
    import cv2

    if cover is None:
        return None
    return cv2.resize(cover.astype(np.float32), (shape[1], shape[0]), interpolation=cv2.INTER_AREA)


def numerals_in_view(rect_bgr: np.ndarray, cover: Optional[np.ndarray] = None) -> List[np.ndarray]:
    """The index corners of the card not under another card (``cover``: 1 where covered, any
    size), each the numeral's box with NUMERAL_PAD around it, upright."""
    y0, y1, x0, x1 = NUMERAL_BOX
    c = _cover_over(cover, rect_bgr.shape)
    out = []
    for k, g in enumerate(_index_corners(rect_bgr)):
        if c is not None:
            ck = c if k == 0 else c[::-1, ::-1]
            if float(ck[:y1 + NUMERAL_PAD, :x1 + NUMERAL_PAD].mean()) > 0.02:
                continue
        g = np.pad(g, NUMERAL_PAD, mode="edge")
        out.append(np.ascontiguousarray(g[y0:y1 + 2 * NUMERAL_PAD, x0:x1 + 2 * NUMERAL_PAD]))
    return out


def _likeness_to(corner: np.ndarray, glyphs: List[np.ndarray]) -> float:
    import cv2

    return max(float(cv2.matchTemplate(corner, g, cv2.TM_CCOEFF_NORMED).max()) for g in glyphs)


def numeral_lead(corner: np.ndarray, mine: List[np.ndarray], other: List[np.ndarray],
                 margin: float = NUMERAL_MARGIN) -> bool:
    """Whether an index corner in view (`numerals_in_view`) shows the numeral of the rank whose
    learned numerals are ``mine`` rather than ``other``'s: like it at NUMERAL_LIKE, and by
    ``margin`` more, each placed where it fits best."""
    return _leads(_likeness_to(corner, mine), _likeness_to(corner, other), margin)


def _leads(mine: float, other: float, margin: float) -> bool:
    """`numeral_lead` from the corner's likeness to the two numerals."""
    return mine >= NUMERAL_LIKE and mine - other >= margin


def _margin(a: str, b: str) -> float:
    """NUMERAL_MARGIN, doubled between two figures: 10, 11 and 12 share their first digit, so
    only half the numeral tells them apart (a built-in 12 of espadas, one corner in view, looked
    0.06 more like the 11)."""
    return NUMERAL_MARGIN * (2.0 if len(a) == 2 and len(b) == 2 else 1.0)


def _suit_in_view(rect_bgr: np.ndarray, cover: Optional[np.ndarray], rank: str) -> Optional[str]:
    """`visible_suit`, or for a figure showing no whole pinta the suit of the one it holds
    (`pictures.held_suit`, over the part in view)."""
    suit = visible_suit(rect_bgr, cover)
    if suit is None and rank in FIGURES and HELD_SUIT:
        from vision.pictures import held_suit

        suit = held_suit(rect_bgr, cover)
    return suit


def visible_suit(rect_bgr: np.ndarray, cover: Optional[np.ndarray] = None) -> Optional[str]:
    """The suit every whole pinta in view agrees on by its shape (`agnostic.Pinta.suit`), or
    None: a pinta reaching the outline, or any part of it under another card (``cover``), is
    left out; one of no suit's shape is passed over, one of another suit's says None."""
    from vision.agnostic import pintas

    h, w = rect_bgr.shape[:2]
    c = _cover_over(cover, rect_bgr.shape)
    suits = set()
    for b in pintas(rect_bgr):
        if b.at_edge:
            continue
        if c is not None:
            x0, y0, x1, y1 = b.box
            box = c[max(int(y0 * h) - 2, 0):int(np.ceil(y1 * h)) + 2,
                    max(int(x0 * w) - 2, 0):int(np.ceil(x1 * w)) + 2]
            if box.size == 0 or float(box.max()) > 0:
                continue
        s = b.suit()
        if s is not None:
            suits.add(s)
    return suits.pop() if len(suits) == 1 else None
