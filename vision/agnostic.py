"""Deck-agnostic reader (placeholder until the numeral reader lands): always unknown."""
from __future__ import annotations

from vision.identify import Identity


class Reader:
    def identify(self, rect, threshold: float = 0.5) -> Identity:
        return Identity(None, True, 0.0)
