"""Spanish cards as small typed values that parse and print themselves.

A card code is the rank number then the suit letter: ``1O`` (ace of oros), ``12B`` (rey of bastos).
Parsing is case-insensitive; ``str()`` gives the canonical code.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Iterable, Tuple


class CardError(ValueError):
    """Raised for text that is not a card code (or a suit or rank)."""


class Suit(enum.Enum):
    """The four Spanish suits, in the order oros, copas, espadas, bastos."""

    OROS = "O"
    COPAS = "C"
    ESPADAS = "E"
    BASTOS = "B"

    @classmethod
    def parse(cls, text: str) -> "Suit":
        t = str(text).strip().upper()
        for s in cls:
            if t == s.value or t == s.name:
                return s
        raise CardError(f"not a suit: {text!r} (use O, C, E or B)")

    @property
    def letter(self) -> str:
        return self.value

    @property
    def index(self) -> int:
        return _SUIT_ORDER.index(self)

    def name_es(self) -> str:
        return _SUIT_ES[self]

    def name_en(self) -> str:
        return _SUIT_EN[self]

    def __str__(self) -> str:
        return self.value


_SUIT_ORDER = [Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS]
_SUIT_ES = {Suit.OROS: "oros", Suit.COPAS: "copas", Suit.ESPADAS: "espadas", Suit.BASTOS: "bastos"}
_SUIT_EN = {Suit.OROS: "coins", Suit.COPAS: "cups", Suit.ESPADAS: "swords", Suit.BASTOS: "clubs"}
SUITS: Tuple[Suit, ...] = tuple(_SUIT_ORDER)


class Rank(enum.IntEnum):
    """Ranks by their printed number. Strength and points are properties, not the int value."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    SOTA = 10
    CABALLO = 11
    REY = 12

    @classmethod
    def parse(cls, text) -> "Rank":
        try:
            n = int(str(text).strip())
            return cls(n)
        except (ValueError, TypeError):
            raise CardError(f"not a rank: {text!r} (use 1-12)") from None

    @property
    def points(self) -> int:
        return _POINTS.get(self, 0)

    @property
    def strength(self) -> int:
        """Trick strength: higher wins. 1 > 3 > 12 > 11 > 10 > 9 > 8 > 7 > 6 > 5 > 4 > 2."""
        return _STRENGTH[self]

    def name_es(self) -> str:
        return _RANK_ES[self]

    def name_en(self) -> str:
        return _RANK_EN[self]


_POINTS = {Rank.ACE: 11, Rank.THREE: 10, Rank.REY: 4, Rank.CABALLO: 3, Rank.SOTA: 2}
_STRENGTH_ORDER = [Rank.TWO, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE,
                   Rank.SOTA, Rank.CABALLO, Rank.REY, Rank.THREE, Rank.ACE]
_STRENGTH = {r: i for i, r in enumerate(_STRENGTH_ORDER)}
_RANK_ES = {Rank.ACE: "as", Rank.TWO: "dos", Rank.THREE: "tres", Rank.FOUR: "cuatro",
            Rank.FIVE: "cinco", Rank.SIX: "seis", Rank.SEVEN: "siete", Rank.EIGHT: "ocho",
            Rank.NINE: "nueve", Rank.SOTA: "sota", Rank.CABALLO: "caballo", Rank.REY: "rey"}
_RANK_EN = {Rank.ACE: "ace", Rank.TWO: "two", Rank.THREE: "three", Rank.FOUR: "four",
            Rank.FIVE: "five", Rank.SIX: "six", Rank.SEVEN: "seven", Rank.EIGHT: "eight",
            Rank.NINE: "nine", Rank.SOTA: "jack", Rank.CABALLO: "knight", Rank.REY: "king"}


@dataclass(frozen=True, order=False)
class Card:
    """One card. ``Card.parse("12b") == Card(Rank.REY, Suit.BASTOS)``; ``str(card) == "12B"``."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> "Card":
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"not a card code: {text!r}")
        t = text.strip().upper()
        if len(t) < 2 or not t[:-1].isdigit():
            raise CardError(f"not a card code: {text!r} (expected rank then suit, like 3C or 12B)")
        try:
            return _BY_CODE[t[:-1].lstrip("0") + t[-1]]
        except KeyError:
            pass
        if t[-1] not in "OCEB":
            raise CardError(f"not a card code: {text!r} (suit must be O, C, E or B)")
        raise CardError(f"not a card code: {text!r} (no rank {t[:-1]})")

    @property
    def code(self) -> str:
        return f"{int(self.rank)}{self.suit.value}"

    @property
    def points(self) -> int:
        return self.rank.points

    @property
    def strength(self) -> int:
        return self.rank.strength

    @property
    def index(self) -> int:
        """Dense index 0..47: suit * 12 + rank - 1 (stable, for bitsets and arrays)."""
        return self.suit.index * 12 + int(self.rank) - 1

    def name_es(self) -> str:
        """Spanish name for speech and display: "as de oros"."""
        return f"{self.rank.name_es()} de {self.suit.name_es()}"

    def name_en(self) -> str:
        """English name: "ace of coins"."""
        return f"{self.rank.name_en()} of {self.suit.name_en()}"

    def name(self, lang: str = "es") -> str:
        return self.name_en() if lang.startswith("en") else self.name_es()

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __lt__(self, other: "Card") -> bool:
        """Sorting order: by suit (O, C, E, B) then by trick strength."""
        return (self.suit.index, self.strength) < (other.suit.index, other.strength)


_ALL = [Card(r, s) for s in SUITS for r in Rank]
_BY_CODE = {c.code: c for c in _ALL}
CARDS_BY_INDEX = {c.index: c for c in _ALL}

RANKS_40 = (Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN,
            Rank.SOTA, Rank.CABALLO, Rank.REY)
RANKS_48 = RANKS_40[:7] + (Rank.EIGHT, Rank.NINE) + RANKS_40[7:]
RANKS_20 = (Rank.ACE, Rank.THREE, Rank.SOTA, Rank.CABALLO, Rank.REY)


def deck(size: int = 40) -> list:
    """A fresh ordered deck: 40 (Spanish), 48 (with 8s and 9s), 36 (no twos), 39 (no 2 of oros),
    or 20 (aces, threes and face cards)."""
    if size == 40:
        ranks = RANKS_40
    elif size == 48:
        ranks = RANKS_48
    elif size == 36:
        ranks = tuple(r for r in RANKS_40 if r != Rank.TWO)
    elif size == 20:
        ranks = RANKS_20
    elif size == 39:
        return [c for c in deck(40) if c != Card(Rank.TWO, Suit.OROS)]
    else:
        raise CardError(f"no {size}-card deck (use 20, 36, 39, 40 or 48)")
    return [Card(r, s) for s in SUITS for r in ranks]


def parse_cards(codes: Iterable[str]) -> list:
    return [Card.parse(c) for c in codes]


def card_names(lang: str = "es") -> dict:
    return {c.code: c.name(lang) for c in _ALL}
