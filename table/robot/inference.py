"""Card tracking: what each other seat can hold, and sampling the hidden cards consistently.

Everything the seat has seen is already in its view of the game: cards played (``played``), the
card under the stock, cards known in a hand (its own, open hands, and the card taken by a swap,
which is public in ``public``). What is left (``unaccounted_mask``) is spread over the hidden slots
of the other hands and the stock. Without a follow rule every spread is equally likely; with
arrastre a seat that did not follow suit once the stock was gone has none of that suit, and under
``full`` one that neither followed nor trumped (its partner not winning) has no trumps either.
"""
from __future__ import annotations

import random as _random
from typing import Dict, List, Optional, Set

from table.game import SUIT, UNKNOWN, Game
from table.robot.endgame import _winner


def voids(view: Game) -> Dict[int, Set[int]]:
    """Suits each seat is known to lack (only arrastre reveals any)."""
    out: Dict[int, Set[int]] = {s: set() for s in range(view.n)}
    r = view.rules
    if r.arrastre == "off":
        return out
    first = (r.deck_size - view.n * r.hand_size) // view.n  # index of the first trick with no stock
    tricks = [list(t[1]) for t in view.tricks[first:]]
    if view.stock_count == 0 and view.trick:
        tricks.append(list(view.trick))
    ts = view.trump_suit
    for plays in tricks:
        led = SUIT[plays[0][1]]
        for i in range(1, len(plays)):
            seat, c = plays[i]
            if SUIT[c] == led:
                continue
            out[seat].add(led)
            if r.arrastre == "full" and SUIT[c] != ts:
                ws, _ = _winner(plays[:i], ts)
                if r.partner_of(seat) != ws:
                    out[seat].add(ts)
    return out


def hidden_slots(view: Game) -> int:
    return sum(h.count(UNKNOWN) for h in view.hands) + view.stock.count(UNKNOWN)


def unique_world(view: Game) -> bool:
    """True when the hidden cards can lie only one way (e.g. 2 players once the stock is gone)."""
    holders = [s for s, h in enumerate(view.hands) if UNKNOWN in h]
    in_stock = view.stock.count(UNKNOWN)
    return (not holders and in_stock <= 1) or (len(holders) == 1 and not in_stock)


def determinize(view: Game, rng: _random.Random, void: Optional[Dict[int, Set[int]]] = None) -> Game:
    """A full-information copy of ``view``: hidden slots filled with the unaccounted cards, at random
    but respecting known voids, and the stock in a random order."""
    g = view.copy()
    pool = list(Game._iter_mask(view.unaccounted_mask()))
    rng.shuffle(pool)
    void = void or {}
    if any(void.get(s) for s in range(g.n)):
        pool = _deal_with_voids(g, pool, void, rng)
    else:
        pool = _fill_hidden(g.hands, pool)
    st = g.stock
    k = 0
    for i, c in enumerate(st):
        if c == UNKNOWN:
            st[i] = pool[k]
            k += 1
    return g


def _deal_with_voids(g: Game, pool: List[int], void: Dict[int, Set[int]], rng: _random.Random) -> List[int]:
    """Fill the most constrained hands first; retry a few shuffles, then fall back to ignoring voids
    (a view that contradicts itself should not stop the robot)."""
    order = sorted(range(g.n), key=lambda s: -len(void.get(s, ())))
    for _attempt in range(20):
        left = pool[:]
        fills = {}
        ok = True
        for s in order:
            need = g.hands[s].count(UNKNOWN)
            if not need:
                continue
            bad = void.get(s, set())
            allowed = [c for c in left if SUIT[c] not in bad]
            if len(allowed) < need:
                ok = False
                break
            pick = allowed[:need]
            fills[s] = pick
            for c in pick:
                left.remove(c)
        if ok:
            for s, pick in fills.items():
                h = g.hands[s]
                it = iter(pick)
                for i, c in enumerate(h):
                    if c == UNKNOWN:
                        h[i] = next(it)
            return left
        rng.shuffle(pool)
    return _fill_hidden(g.hands, pool)


def _fill_hidden(hands: List[List[int]], pool: List[int]) -> List[int]:
    """Deal ``pool`` into the UNKNOWN slots of ``hands`` in order; return what is left."""
    k = 0
    for h in hands:
        for i, c in enumerate(h):
            if c == UNKNOWN:
                h[i] = pool[k]
                k += 1
    return pool[k:]

