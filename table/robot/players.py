"""Players behind one small interface: given a seat's view of the game, return an action.

``player.choose(view)`` gets a :class:`~table.game.Game` as the seat to move sees it
(``game.view(seat)``; hidden cards are ``UNKNOWN``) and returns one of ``view.legal_actions``.
Players do no I/O and keep no state between calls except their random generator, so one player
object can serve many hands.

The greedy heuristic is also the robot's rollout policy, so it is written on card ints
(:func:`greedy_card`) and works on a full-information game as well as on a view.
"""
from __future__ import annotations

import random as _random
from typing import List, Optional, Sequence, Tuple

from table.cards import CARDS_BY_INDEX, Rank
from table.game import POINTS, STRENGTH, SUIT, Action, Game, Play, Swap


class Player:
    """The interface the service, the bot protocol and the benchmark call."""

    name = "player"

    def choose(self, view: Game) -> Action:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class RandomPlayer(Player):
    """Uniformly random legal action: the floor every other player must beat."""

    name = "random"

    def __init__(self, seed: Optional[int] = None) -> None:
        self.rng = _random.Random(seed)

    def choose(self, view: Game) -> Action:
        return self.rng.choice(list(view.legal_actions))


class GreedyPlayer(Player):
    """A decent club player's rules of thumb (see :func:`greedy_card`); always takes the swap."""

    name = "greedy"

    def choose(self, view: Game) -> Action:
        legal = list(view.legal_actions)
        for a in legal:
            if isinstance(a, Swap):
                return a
        cards = [a.card.index for a in legal]
        c = greedy_card(cards, view.trick, view.trump_suit, view.turn, view.rules.partner_of(view.turn),
                        view.n)
        return Play(CARDS_BY_INDEX[c])


_THREE = Rank.THREE.strength


# -- the heuristic --------------------------------------------------------------------------------
def _keep_value(c: int, trump_suit: int) -> int:
    """How much a card is worth keeping: points, plus a premium for trumps (they win tricks later)."""
    v = POINTS[c] * 4 + STRENGTH[c]
    if SUIT[c] == trump_suit:
        v += 30 + 2 * STRENGTH[c]
    return v


def _beats(c: int, best: int, trump_suit: int) -> bool:
    """Does card ``c`` beat the card now winning the trick?"""
    sc, sb = SUIT[c], SUIT[best]
    if sc == sb:
        return STRENGTH[c] > STRENGTH[best]
    return sc == trump_suit


def _current_winner(trick: Sequence[Tuple[int, int]], trump_suit: int) -> Tuple[int, int]:
    ws, wc = trick[0]
    for s, c in trick[1:]:
        if _beats(c, wc, trump_suit):
            ws, wc = s, c
    return ws, wc


def greedy_card(cards: List[int], trick: Sequence[Tuple[int, int]], trump_suit: int, seat: int,
                partner: Optional[int], n: int) -> int:
    """The club heuristic, on card ints. ``cards`` are the legal plays (known cards only).

    Leading: lead a blank (0-point) card of a plain suit, the weakest first; else the cheapest card,
    keeping aces, threes and trumps for last. Following, when an opponent is winning: take a trick
    worth points as cheaply as possible (with a card of the suit led if one beats it, since it also
    adds its points; with a low trump only when the trick is worth 10 or more, or a blank trump when
    it is worth something and we hold more than one trump); never spend a trump on an empty trick;
    otherwise throw the least valuable card. When the partner is winning and we play last (or the
    partner's card is a high trump), feed points: the richest plain card; else throw cheap.
    """
    if len(cards) == 1:
        return cards[0]
    ts = trump_suit

    def cheapest(cs):
        return min(cs, key=lambda c: (_keep_value(c, ts), c))

    if not trick:
        blanks = [c for c in cards if POINTS[c] == 0 and SUIT[c] != ts]
        if blanks:
            return min(blanks, key=lambda c: (STRENGTH[c], c))
        plain_small = [c for c in cards if SUIT[c] != ts and POINTS[c] < 10]
        if plain_small:
            return min(plain_small, key=lambda c: (POINTS[c], STRENGTH[c], c))
        return cheapest(cards)

    ws, wc = _current_winner(trick, ts)
    last = len(trick) == n - 1
    table_points = sum(POINTS[c] for _, c in trick)
    if partner is not None and ws == partner:
        safe = last or (SUIT[wc] == ts and STRENGTH[wc] >= _THREE)  # partner's trump 3/ace
        if safe:
            feed = [c for c in cards if SUIT[c] != ts]
            if feed:
                return max(feed, key=lambda c: (POINTS[c], -STRENGTH[c], -c))
        return cheapest(cards)

    winners = [c for c in cards if _beats(c, wc, ts)]
    same_suit = [c for c in winners if SUIT[c] == SUIT[trick[0][1]] and SUIT[c] != ts]
    if same_suit and (last or table_points + max(POINTS[c] for c in same_suit) > 0):
        # a card of the suit led that wins also brings its own points home: use the richest one
        # when we are last (nobody can overtake), else the cheapest.
        return max(same_suit, key=lambda c: (POINTS[c], c)) if last else cheapest(same_suit)
    trumps = [c for c in winners if SUIT[c] == ts]
    if trumps:
        n_trumps = sum(1 for c in cards if SUIT[c] == ts)
        blank_trumps = [c for c in trumps if POINTS[c] == 0]
        if table_points >= 10:
            return min(trumps, key=lambda c: (POINTS[c] >= 10, STRENGTH[c], c))
        if table_points >= 2 and blank_trumps and n_trumps > 1:
            return min(blank_trumps, key=lambda c: (STRENGTH[c], c))
    losers = [c for c in cards if c not in winners] or cards
    return min(losers, key=lambda c: (POINTS[c], SUIT[c] == ts, STRENGTH[c], c))


def known_legal_cards(view: Game) -> List[int]:
    """The legal card ints of the seat to move in a view (its own hand is known)."""
    return [a.card.index for a in view.legal_actions if isinstance(a, Play)]


PLAYERS = {"random": RandomPlayer, "greedy": GreedyPlayer}


def make_player(name: str, budget_ms: Optional[float] = None, seed: Optional[int] = None,
                max_ms: Optional[float] = None) -> Player:
    """``random``, ``greedy`` or ``robot`` (the strong player; ``max_ms`` caps its wall-clock time)."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "greedy":
        return GreedyPlayer()
    if name == "robot":
        from table.robot.search import RobotPlayer
        return RobotPlayer(budget_ms=300 if budget_ms is None else budget_ms, seed=seed or 0, max_ms=max_ms)
    raise ValueError(f"unknown player {name!r} (use random, greedy or robot)")
