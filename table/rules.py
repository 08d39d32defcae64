"""Rules: the variant settings of a hand of Brisca, validated, with named presets.

In records and the bot protocol a rules object is a preset name or
``{"preset": NAME, <setting>: <value>, ...}``; :meth:`Rules.parse` accepts both and
:meth:`Rules.to_json` prints the shortest form that round-trips.
"""
from __future__ import annotations

import json

from dataclasses import dataclass, fields, replace
from typing import Any, Dict, Optional, Union


class RulesError(ValueError):
    """Raised for an unknown preset, an unknown setting or a setting with a bad value."""


SWAP = ("seven-and-two", "seven", "off")
SWAP_TIMING = ("own-turn", "after-winning")
ARRASTRE = ("off", "follow", "full")
DIRECTION = ("counterclockwise", "clockwise")
THREE_PLAYER_DECK = (36, 39)
SCORING = ("standard", "zero-sum")  # Subastada match points, see table.subastada.match_points


@dataclass(frozen=True)
class MatchFormat:
    """How hands add up to a match: first to N hands, best of N, or a continuous tally."""

    kind: str = "first_to"  # "first_to" | "best_of" | "continuous"
    n: int = 3

    @classmethod
    def parse(cls, value: Any) -> "MatchFormat":
        if isinstance(value, MatchFormat):
            return value
        if value == "continuous":
            return cls("continuous", 0)
        if isinstance(value, dict) and len(value) == 1:
            (k, n), = value.items()
            if k in ("first_to", "best_of") and isinstance(n, int) and not isinstance(n, bool) and n >= 1:
                if k == "best_of" and n % 2 == 0:
                    raise RulesError(f"match: best_of needs an odd number of hands, not {n}")
                return cls(k, n)
        raise RulesError(f'match: expected {{"first_to": N}}, {{"best_of": N}} or "continuous", not {value!r}')

    def to_json(self):
        return "continuous" if self.kind == "continuous" else {self.kind: self.n}

    @property
    def hands_to_win(self) -> Optional[int]:
        """Hands a side needs to take the match, or None for a continuous tally."""
        if self.kind == "first_to":
            return self.n
        if self.kind == "best_of":
            return self.n // 2 + 1
        return None

    def __str__(self) -> str:
        return {"first_to": f"first to {self.n}", "best_of": f"best of {self.n}"}.get(self.kind, "continuous")


@dataclass(frozen=True)
class Rules:
    """Every setting that changes how a hand is dealt, played or scored."""

    preset: str = "classic-2"
    players: int = 2
    deck_size: int = 40
    hand_size: int = 3
    partnerships: bool = False
    swap: str = "seven-and-two"
    swap_timing: str = "own-turn"
    arrastre: str = "off"
    open_hands: bool = False
    direction: str = "counterclockwise"
    three_player_deck: Optional[int] = None
    match: MatchFormat = MatchFormat()
    auction: bool = False  # Subastada: no stock, an auction, a called partner, must follow suit
    min_bid: int = 61      # Subastada: the lowest opening bid (bids go up in steps of 1, up to 120)
    scoring: str = "standard"  # Subastada match points per hand (table.subastada.match_points)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def preset_names(cls):
        return list(PRESETS)

    @classmethod
    def from_preset(cls, name: str) -> "Rules":
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown rules preset {name!r} (known: {', '.join(PRESETS)})") from None

    @classmethod
    def parse_text(cls, text: str) -> "Rules":
        """A preset name or a JSON settings object, as typed on a command line."""
        text = text.strip()
        if not text.startswith("{"):
            return cls.parse(text)
        try:
            value = json.loads(text)
        except ValueError as e:
            raise RulesError(f"rules: not a JSON object ({e})") from None
        return cls.parse(value)

    @classmethod
    def parse(cls, value: Union[str, Dict[str, Any], "Rules"]) -> "Rules":
        """A preset name or ``{"preset": NAME, ...overrides}``."""
        if isinstance(value, Rules):
            return value
        if isinstance(value, str):
            return cls.from_preset(value)
        if not isinstance(value, dict):
            raise RulesError(f"rules must be a preset name or an object, not {type(value).__name__}")
        settings = dict(value)
        name = settings.pop("preset", "classic-2")
        if not isinstance(name, str):
            raise RulesError(f"preset: expected a name, not {name!r}")
        return cls.from_preset(name).with_settings(**settings)

    def with_settings(self, **settings) -> "Rules":
        """A copy with some settings changed, each validated."""
        changes = {}
        for key, value in settings.items():
            if key not in OVERRIDABLE:
                raise RulesError(f"unknown rules setting {key!r} (known: {', '.join(OVERRIDABLE)})")
            changes[key] = _validate(key, value)
        new = replace(self, **changes)
        if "three_player_deck" in changes:
            if new.players != 3:
                raise RulesError("three_player_deck: applies only to 3-player rules")
            new = replace(new, deck_size=new.three_player_deck)
        if not new.auction:
            for key in ("min_bid", "scoring"):
                if key in changes and changes[key] != getattr(PRESETS["classic-2"], key):
                    raise RulesError(f"{key}: applies only to auction (Subastada) rules")
        if new.auction and new.swap != "off":
            raise RulesError("swap: Subastada has no stock, so no trump swap")
        return new

    # -- printing -----------------------------------------------------------------------------
    def overrides(self) -> Dict[str, Any]:
        base = PRESETS[self.preset]
        out = {}
        for key in OVERRIDABLE:
            v = getattr(self, key)
            if v != getattr(base, key):
                out[key] = v.to_json() if isinstance(v, MatchFormat) else v
        return out

    def to_json(self):
        ov = self.overrides()
        return self.preset if not ov else {"preset": self.preset, **ov}

    def settings(self) -> Dict[str, Any]:
        """Every setting, for `brisca-table rules` and the dashboard."""
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.to_json() if isinstance(v, MatchFormat) else v
        return out

    def __str__(self) -> str:
        ov = self.overrides()
        return self.preset + ("" if not ov else " " + " ".join(f"{k}={v}" for k, v in ov.items()))

    # -- derived ------------------------------------------------------------------------------
    @property
    def sides(self) -> int:
        """Number of scoring sides: 2 for partnerships, else one per seat."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def partner_of(self, seat: int) -> Optional[int]:
        return (seat + 2) % 4 if self.partnerships else None


OVERRIDABLE = ("swap", "swap_timing", "arrastre", "open_hands", "direction", "three_player_deck", "match",
               "min_bid", "scoring")


def _validate(key: str, value: Any):
    choices = {"swap": SWAP, "swap_timing": SWAP_TIMING, "arrastre": ARRASTRE, "direction": DIRECTION,
               "three_player_deck": THREE_PLAYER_DECK, "scoring": SCORING}
    if key in choices:
        if value not in choices[key] or isinstance(value, bool):
            raise RulesError(f"{key}: expected one of {', '.join(map(str, choices[key]))}, not {value!r}")
        return value
    if key == "open_hands":
        if not isinstance(value, bool):
            raise RulesError(f"open_hands: expected true or false, not {value!r}")
        return value
    if key == "match":
        return MatchFormat.parse(value)
    if key == "min_bid":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 120:
            raise RulesError(f"min_bid: expected a number of points 1..120, not {value!r}")
        return value
    raise RulesError(f"unknown rules setting {key!r}")  # pragma: no cover


PRESETS: Dict[str, Rules] = {}


def _preset(name: str, **kw) -> None:
    PRESETS[name] = Rules(preset=name, **kw)


_preset("classic-2")
_preset("classic-3", players=3, deck_size=36, three_player_deck=36)
_preset("partners-4", players=4, partnerships=True)
_preset("catalana-2", deck_size=48)
_preset("rapida-2", deck_size=20)
_preset("descubierta-2", open_hands=True)
_preset("arrastre-2", arrastre="full")
_preset("arrastre-4", players=4, partnerships=True, arrastre="full")
_preset("valenciana-2", arrastre="follow")
_preset("subastada-5", players=5, hand_size=8, swap="off", arrastre="follow", auction=True,
        match=MatchFormat("continuous", 0))

DESCRIPTIONS = {
    "classic-2": "two players, 40 cards, swap the 7 (or 2) of trumps on your turn",
    "classic-3": "three players, 36 cards (twos removed), most points wins",
    "partners-4": "four players as partners, seats 0+2 against 1+3",
    "catalana-2": "Brisca Catalana: 48 cards, 8s and 9s between 7 and sota, worth 0",
    "rapida-2": "Brisca Rapida: 20 cards (aces, threes, sotas, caballos, reyes)",
    "descubierta-2": "Brisca Descubierta: all hands played open",
    "arrastre-2": "arrastre once the stock is gone: follow, beat if possible, else trump",
    "arrastre-4": "partners with arrastre; following is enough when your partner is winning",
    "valenciana-2": "Brisca Valenciana: follow suit once the stock is gone",
    "subastada-5": "Brisca Subastada: five players, 8 cards each, auction and a called partner",
}
