"""Match: a series of hands with the deal passing in playing order, hands won, the match winner."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from table.game import Outcome
from table.rules import Rules


class MatchOver(ValueError):
    """A hand was added to a match that is already decided."""


@dataclass
class Match:
    """Hands won per side; a 60-60 (drawn) hand counts for nobody."""

    rules: Rules
    first_dealer: int = 0
    results: List[Optional[int]] = field(default_factory=list)  # winning side per hand, None = draw

    def __post_init__(self) -> None:
        self.rules = Rules.parse(self.rules)

    @property
    def dealer(self) -> int:
        """Dealer of the next hand: the deal passes in playing order."""
        return (self.first_dealer + len(self.results)) % self.rules.players

    @property
    def hands_won(self) -> List[int]:
        won = [0] * self.rules.sides
        for w in self.results:
            if w is not None:
                won[w] += 1
        return won

    def add(self, outcome: Outcome) -> None:
        if self.is_over():
            raise MatchOver("the match is already decided")
        if not outcome.complete:
            raise ValueError("only a complete hand counts in a match")
        self.results.append(outcome.winner)

    def winner(self) -> Optional[int]:
        need = self.rules.match.hands_to_win
        if need is None:
            return None
        for side, n in enumerate(self.hands_won):
            if n >= need:
                return side
        return None

    def is_over(self) -> bool:
        return self.winner() is not None

    def leader(self) -> Optional[int]:
        """The side ahead in a continuous tally (None when level)."""
        won = self.hands_won
        top = max(won)
        return won.index(top) if won.count(top) == 1 else None
