"""The event types and their JSON form.

Everything that happens at the table is an appended event: the tracker's plays and swaps, the
referee's corrections and undos, alerts, the robot's announcements, device health. Nothing is ever
edited in place; state is what you get by folding the events in order (see :mod:`table.ledger`).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Dict, Optional


class EventError(ValueError):
    """A malformed event: unknown type, missing or badly typed field."""


# type -> required data fields (and their types). Optional fields are free.
SCHEMA: Dict[str, Dict[str, type]] = {
    "match_start": {"rules": object, "seats": list},   # + robot_seat, first_dealer
    "hand_start": {"dealer": int, "trump": str},        # trump: the turned-up card ("" in Subastada)
    "play": {"seat": int, "card": str},                 # + confidence, frame
    "swap": {"seat": int, "gave": str},                 # + took
    "trick": {"winner": int, "points": int},            # + frame (the photo of the whole trick)
    "hand_end": {"points": list},                       # + winner
    "match_end": {},                                    # + winner
    "alert": {"kind": str, "message": str},             # + seat, card
    "alert_cleared": {},                                # + kind
    "correction": {"target": int},                      # + play/swap/seat, by, why
    "undo": {"target": int},                            # + by
    "announce": {"seat": int, "text": str},             # + action, lang
    "robot_hand": {"cards": list},
    "device": {"name": str, "ok": bool},                # + detail
    "auction": {"bids": list},                          # Subastada: + call, trump, bidder
}


@dataclass
class Event:
    """One stored event. ``id`` is assigned by the store; ``key`` makes appends idempotent."""

    type: str
    data: Dict[str, Any] = field(default_factory=dict)
    ts: float = field(default_factory=time.time)
    id: Optional[int] = None
    key: Optional[str] = None
    frame: Optional[str] = None  # relative path of the JPEG that proves it

    def __post_init__(self) -> None:
        validate(self.type, self.data)

    def to_json(self) -> dict:
        d = {"id": self.id, "type": self.type, "ts": round(self.ts, 3), "data": self.data}
        if self.frame:
            d["frame"] = self.frame
        return d

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))


def validate(type_: str, data: Any) -> None:
    if type_ not in SCHEMA:
        raise EventError(f"unknown event type {type_!r} (known: {', '.join(SCHEMA)})")
    if not isinstance(data, dict):
        raise EventError(f"{type_}: data must be an object")
    for name, kind in SCHEMA[type_].items():
        if name not in data:
            raise EventError(f"{type_}: missing field {name!r}")
        v = data[name]
        if kind is int and (not isinstance(v, int) or isinstance(v, bool)):
            raise EventError(f"{type_}: field {name!r} must be an integer, not {v!r}")
        if kind in (str, list, bool) and not isinstance(v, kind):
            raise EventError(f"{type_}: field {name!r} must be a {kind.__name__}, not {v!r}")
