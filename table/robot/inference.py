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



# -- reading the other seats' last plays ----------------------------------------------------------
def play_likelihood(view: Game, eps: float):
    """A weight function for sampled worlds: how well each world explains every other seat's most
    recent play, under the model "a seat plays what the club heuristic would, except with
    probability ``eps``" (spread over its other cards).

    A world in which the opponent would have led a blank rather than the three it led, or would
    have trumped the ten it let go, is less likely than one in which that play was natural. Only the
    last play of each seat is read: its hand then was the play plus today's hand, less at most one
    card drawn since (averaged over which one, unless it was the public trump card). Returns None
    when no play tells anything (nothing played yet, or ``eps`` outside (0, 1)).
    """
    from table.robot.players import greedy_card

    if not 0 < eps < 1 or not view.history:
        return None
    r = view.rules
    n = view.n
    s0 = r.deck_size - n * r.hand_size  # cards under the stock at the deal, the trump card included
    ts = view.trump_suit
    done = len(view.tricks)
    reads = []  # (seat, card played, trick before it, drawn card or None for "unknown", draws)
    for s in range(n):
        if s == view.turn or UNKNOWN not in view.hands[s]:
            continue
        in_trick = [i for i, (seat, _) in enumerate(view.trick) if seat == s]
        if in_trick:
            i = in_trick[0]
            reads.append((s, view.trick[i][1], tuple(view.trick[:i]), None, 0))
            continue
        if not done:
            continue
        _leader, plays, winner, _pts = view.tricks[-1]
        i = next(k for k, (seat, _) in enumerate(plays) if seat == s)
        left = s0 - (done - 1) * n  # stock (with the trump card) before the draw after that trick
        if r.arrastre != "off" and left <= 0:
            continue  # the follow rule constrained that play; voids() reads it
        pos = (s - winner) % n
        if left <= 0 or pos >= left:
            reads.append((s, plays[i][1], tuple(plays[:i]), None, 0))
        elif pos == left - 1:  # this seat drew the card under the stock: public, so known
            trump_then = view.swapped[-1][1] if view.swapped else view.turned_up
            reads.append((s, plays[i][1], tuple(plays[:i]), trump_then, 1))
        else:
            reads.append((s, plays[i][1], tuple(plays[:i]), None, 1))
    if not reads:
        return None

    def one(hand, played, before, seat) -> float:
        k = len(hand)
        if k <= 1:
            return 1.0
        guess = greedy_card(hand, before, ts, seat, r.partner_of(seat), n)
        return 1.0 - eps if guess == played else eps / (k - 1)

    def weight(world: Game) -> float:
        w = 1.0
        for s, played, before, drawn, draws in reads:
            h = world.hands[s]
            if not draws:
                w *= one([played] + h, played, before, s)
            elif drawn is not None:
                w *= one([played] + [c for c in h if c != drawn], played, before, s)
            else:
                w *= sum(one([played] + [x for x in h if x != d], played, before, s) for d in h) / len(h)
        return w

    return weight
