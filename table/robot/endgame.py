"""Exact play of a fully known position: alpha-beta with a transposition memo.

Once every card is known (the 2-player hand after the stock runs out, or one determinization of
the hidden cards during search) the rest of the hand is a perfect-information game. With two
sides it is zero-sum in points, so minimax on "points my side takes from here" is also the
win/lose optimum: I can guarantee the minimax value and the other side can hold me to it.
Three independent players are solved max^n (each seat maximizes its own points).

The position is kept as one bitmask per hand and the draw order of the stock as a tuple (the
turned-up card last), so a node is a few int operations. Every node visited is counted in
:attr:`Solver.nodes`; the robot spends its budget in nodes, which keeps it deterministic.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from table.game import POINTS, STRENGTH, SUIT, Game

_INF = 10 ** 6

# bits of each suit (index = suit * 12 + rank - 1)
SUIT_MASK = [((1 << 12) - 1) << (12 * s) for s in range(4)]


def _bits(m: int) -> List[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


class Solver:
    """Solves positions of one hand (fixed rules and trump); reusable, with a per-position memo."""

    def __init__(self, n: int, trump_suit: int, side_of: Sequence[int], partner_of: Sequence[Optional[int]],
                 arrastre: str = "off") -> None:
        self.n = n
        self.ts = trump_suit
        self.side = list(side_of)
        self.partner = list(partner_of)
        self.arrastre = arrastre
        self.nodes = 0
        self.two_sides = len(set(self.side)) == 2

    @classmethod
    def for_game(cls, g: Game) -> "Solver":
        r = g.rules
        return cls(g.n, g.trump_suit, [r.side_of(s) for s in range(g.n)],
                   [r.partner_of(s) for s in range(g.n)], r.arrastre)

    # -- legal moves ------------------------------------------------------------------------------
    def _moves(self, hand: int, trick: tuple, seat: int, stock_empty: bool) -> List[int]:
        if trick and stock_empty and self.arrastre != "off":
            hand = self._restrict(hand, trick, seat)
        return _bits(hand)

    def _restrict(self, hand: int, trick: tuple, seat: int) -> int:
        """Arrastre on masks, the same rule as Game._restrict."""
        ts = self.ts
        led = SUIT[trick[0][1]]
        follow = hand & SUIT_MASK[led]
        if self.arrastre == "follow":
            return follow or hand
        ws, wc = _winner(trick, ts)
        partner_winning = self.partner[seat] == ws
        if follow:
            if partner_winning or SUIT[wc] != led:
                return follow
            beat = 0
            for c in _bits(follow):
                if STRENGTH[c] > STRENGTH[wc]:
                    beat |= 1 << c
            return beat or follow
        if partner_winning:
            return hand
        trumps = hand & SUIT_MASK[ts]
        if not trumps:
            return hand
        if SUIT[wc] == ts:
            over = 0
            for c in _bits(trumps):
                if STRENGTH[c] > STRENGTH[wc]:
                    over |= 1 << c
            return over or trumps
        return trumps

    # -- entry points -----------------------------------------------------------------------------
    def position(self, g: Game) -> Tuple[tuple, tuple, tuple, int]:
        """(hands as masks, stock draw order, trick, turn) of a fully known Game."""
        hands = []
        for h in g.hands:
            m = 0
            for c in h:
                if c < 0:
                    raise ValueError("the solver needs every card known")
                m |= 1 << c
            hands.append(m)
        stock = tuple(g.stock) + ((g.trump_card,) if g.trump_card is not None else ())
        if any(c < 0 for c in stock):
            raise ValueError("the solver needs the stock order known")
        return tuple(hands), stock, tuple(g.trick), g.turn

    def values(self, g: Game) -> List[int]:
        """Points each side takes from here to the end under optimal play by everyone."""
        hands, stock, trick, turn = self.position(g)
        return self.solve(hands, stock, trick, turn)

    def solve(self, hands: tuple, stock: tuple, trick: tuple, turn: int) -> List[int]:
        if self.two_sides:
            self._memo: Dict = {}
            self._stock = stock
            v = self._ab(hands, 0, trick, turn, -_INF, _INF)
            total = _remaining_points(hands, stock, trick)
            return [v, total - v]
        self._memo = {}
        self._stock = stock
        per_seat = self._maxn(hands, 0, trick, turn)
        out = [0] * (max(self.side) + 1)
        for s, p in enumerate(per_seat):
            out[self.side[s]] += p
        return out

    def move_values(self, g: Game) -> Dict[int, List[int]]:
        """For each legal card of the seat to move: the side points taken from here if it is played
        and everyone plays perfectly afterwards (points already in the current trick included)."""
        hands, stock, trick, turn = self.position(g)
        return self.root_values(hands, stock, trick, turn, self._moves(hands[turn], trick, turn, not stock))

    def root_values(self, hands: tuple, stock: tuple, trick: tuple, turn: int,
                    cards: Sequence[int]) -> Dict[int, List[int]]:
        """Side points from here on for each of ``cards`` played now, one memo shared by all."""
        self._memo = {}
        self._stock = stock
        total = _remaining_points(hands, stock, trick)
        out = {}
        for c in cards:
            nh, si, nt, nturn, w, pts = self._step(hands, stock, 0, trick, turn, c)
            if self.two_sides:
                v = self._ab(nh, si, nt, nturn, -_INF, _INF)
                if w is not None and self.side[w] == 0:
                    v += pts
                out[c] = [v, total - v]
            else:
                per_seat = self._maxn(nh, si, nt, nturn)
                res = [0] * (max(self.side) + 1)
                for s, p in enumerate(per_seat):
                    res[self.side[s]] += p
                if w is not None:
                    res[self.side[w]] += pts
                out[c] = res
        return out

    # -- search -----------------------------------------------------------------------------------
    def _step(self, hands, stock, si, trick, turn, c):
        """Play ``c``; returns (hands, stock index, trick, turn, trick winner or None, its points)."""
        n = self.n
        nh = list(hands)
        nh[turn] &= ~(1 << c)
        nt = trick + ((turn, c),)
        if len(nt) < n:
            return tuple(nh), si, nt, (turn + 1) % n, None, 0
        w, _ = _winner(nt, self.ts)
        pts = 0
        for _, x in nt:
            pts += POINTS[x]
        if si < len(stock):
            for k in range(n):
                nh[(w + k) % n] |= 1 << stock[si + k]
            si += n
        return tuple(nh), si, (), w, w, pts

    def _ab(self, hands, si, trick, turn, alpha, beta):
        """Points side 0 takes from here, alpha-beta with a bounds memo."""
        self.nodes += 1
        hand = hands[turn]
        if not hand:
            return 0
        key = (hands, si, trick, turn)
        memo = self._memo
        entry = memo.get(key)
        if entry is not None:
            lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            if lo == hi:
                return lo
        a0, b0 = alpha, beta
        stock = self._stock
        moves = self._moves(hand, trick, turn, si >= len(stock))
        maxing = self.side[turn] == 0
        if len(moves) > 1:
            moves.sort(key=_order_key(trick, self.ts), reverse=True)
        best = -_INF if maxing else _INF
        n = self.n
        side = self.side
        for c in moves:
            nt = trick + ((turn, c),)
            nh = list(hands)
            nh[turn] = hand & ~(1 << c)
            if len(nt) < n:
                v = self._ab(tuple(nh), si, nt, (turn + 1) % n, alpha, beta)
            else:
                w, _ = _winner(nt, self.ts)
                gain = 0
                if side[w] == 0:
                    for _, x in nt:
                        gain += POINTS[x]
                nsi = si
                if si < len(stock):
                    for k in range(n):
                        nh[(w + k) % n] |= 1 << stock[si + k]
                    nsi = si + n
                v = gain + self._ab(tuple(nh), nsi, (), w, alpha - gain, beta - gain)
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        lo, hi = (entry if entry is not None else (-_INF, _INF))
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        memo[key] = (lo, hi)
        return best

    def _maxn(self, hands, si, trick, turn):
        """Points per seat from here; each seat maximizes its own (3 independent players)."""
        self.nodes += 1
        n = self.n
        hand = hands[turn]
        if not hand:
            return (0,) * n
        key = (hands, si, trick, turn)
        got = self._memo.get(key)
        if got is not None:
            return got
        stock = self._stock
        best = None
        for c in self._moves(hand, trick, turn, si >= len(stock)):
            nh, nsi, nt, nturn, w, pts = self._step(hands, stock, si, trick, turn, c)
            v = self._maxn(nh, nsi, nt, nturn)
            if w is not None and pts:
                v = v[:w] + (v[w] + pts,) + v[w + 1:]
            if best is None or v[turn] > best[turn]:
                best = v
        self._memo[key] = best
        return best


def _winner(trick, ts):
    ws, wc = trick[0]
    bs, bst = SUIT[wc], STRENGTH[wc]
    for s, c in trick[1:]:
        sc = SUIT[c]
        if sc == bs:
            if STRENGTH[c] > bst:
                ws, wc, bst = s, c, STRENGTH[c]
        elif sc == ts:
            ws, wc, bs, bst = s, c, sc, STRENGTH[c]
    return ws, wc


def _order_key(trick, ts):
    """Move ordering: try big cards first (they decide tricks), trumps last when leading."""
    if not trick:
        return lambda c: (SUIT[c] != ts, POINTS[c], STRENGTH[c])
    return lambda c: (POINTS[c], STRENGTH[c])


def _remaining_points(hands, stock, trick) -> int:
    t = 0
    for h in hands:
        for c in _bits(h):
            t += POINTS[c]
    for c in stock:
        t += POINTS[c]
    for _, c in trick:
        t += POINTS[c]
    return t


def last_tricks_2p(first: List[int], second: List[int], trump_suit: int, arrastre: str = "off") -> int:
    """Points the leader (holding ``first``) takes from here: 2 players, stock gone, trick empty.

    The rollouts' endgame: plain minimax on lists with a cut at each level and no memo (three tricks
    are at most 36 lines, cheaper than setting up a :class:`Solver`)."""
    return _lt(first, second, trump_suit, arrastre)


def _follow_2p(hand, led, ts, arrastre):
    """Arrastre for the second of two players (the led card is the one to beat)."""
    if arrastre == "off":
        return hand
    follow = [c for c in hand if SUIT[c] == SUIT[led]]
    if arrastre == "follow":
        return follow or hand
    if follow:
        return [c for c in follow if STRENGTH[c] > STRENGTH[led]] or follow
    return [c for c in hand if SUIT[c] == ts] or hand


def _lt(a, b, ts, arr):
    if len(a) == 1:
        x, y = a[0], b[0]
        if SUIT[y] == SUIT[x]:
            return 0 if STRENGTH[y] > STRENGTH[x] else POINTS[x] + POINTS[y]
        return 0 if SUIT[y] == ts else POINTS[x] + POINTS[y]
    total = 0
    for c in a:
        total += POINTS[c]
    for c in b:
        total += POINTS[c]
    best = -1
    for x in a:
        ra = [c for c in a if c != x]
        sx = SUIT[x]
        worst = _INF
        for y in _follow_2p(b, x, ts, arr):
            rb = [c for c in b if c != y]
            pts = POINTS[x] + POINTS[y]
            sy = SUIT[y]
            if (STRENGTH[y] > STRENGTH[x]) if sy == sx else sy == ts:
                v = total - pts - _lt(rb, ra, ts, arr)
            else:
                v = pts + _lt(ra, rb, ts, arr)
            if v < worst:
                worst = v
                if worst <= best:
                    break
        if worst > best:
            best = worst
    return best
