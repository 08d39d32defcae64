"""The plain state that the table's devices show. Devices never import game logic: the service
turns game events into a TableState and hands the same value to the LEDs, the Pico and the web."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Tuple

SUIT_LETTERS = "OCEB"
SUIT_NAMES = ("oros", "copas", "espadas", "bastos")


def suit_letter(suit) -> Optional[str]:
    """Accepts a Suit, a letter or a Spanish name; returns "O"/"C"/"E"/"B" or None."""
    if suit is None or suit == "":
        return None
    text = str(getattr(suit, "value", suit)).strip()
    if text.lower() in SUIT_NAMES:
        return SUIT_LETTERS[SUIT_NAMES.index(text.lower())]
    if text.upper() in SUIT_LETTERS and len(text) == 1:
        return text.upper()
    raise ValueError(f"not a suit: {suit!r}")


@dataclass(frozen=True)
class TableState:
    """What the lights show. ``points``/``hands_won`` are per side (two for pairs, one per player
    otherwise); ``trick_winner`` with ``tricks_played`` makes the winner flash exactly once."""

    trump: Optional[str] = None
    seats: int = 4
    turn: Optional[int] = None
    points: Tuple[int, ...] = ()
    hands_won: Tuple[int, ...] = ()
    trick_winner: Optional[int] = None
    tricks_played: int = 0
    alert: bool = False
    watching: bool = True
    names: Tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self):
        object.__setattr__(self, "trump", suit_letter(self.trump))
        object.__setattr__(self, "points", tuple(int(p) for p in self.points))
        object.__setattr__(self, "hands_won", tuple(int(h) for h in self.hands_won))
        if not 1 <= self.seats <= 5:
            raise ValueError(f"seats must be 1..5, not {self.seats}")
        for s in (self.turn, self.trick_winner):
            if s is not None and not 0 <= s < self.seats:
                raise ValueError(f"seat {s} out of range for {self.seats} seats")

    def to_wire(self) -> dict:
        """The firmware protocol's state dict (firmware/protocol.py encode_state)."""
        return {"trump": self.trump, "seats": self.seats, "turn": self.turn,
                "points": list(self.points), "hands": list(self.hands_won),
                "winner": self.trick_winner, "tricks": self.tricks_played, "alert": self.alert}
