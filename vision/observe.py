"""Observations: what vision reports per frame, in table coordinates. Knows nothing about rules."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Tuple


@dataclass(frozen=True)
class SeenCard:
    """One card seen in one frame: its reading (None when unknown), face, confidence, where it lies
    (centre in table mm) and the zone that contains the centre (None outside every zone)."""

    code: Optional[str]
    face_up: bool
    confidence: float
    x: float
    y: float
    zone: Optional[str] = None
    polygon: Tuple[Tuple[float, float], ...] = ()


@dataclass(frozen=True)
class Observation:
    """Everything seen in one frame. ``moving`` is set while something (a hand) moves over the
    table: the tracker does not let such frames settle anything."""

    ts: float
    cards: Tuple[SeenCard, ...] = ()
    moving: bool = False
    index: int = 0
    image: Optional[object] = field(default=None, compare=False, repr=False)  # the BGR frame, for evidence
