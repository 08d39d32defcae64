"""The robot seat in Brisca Subastada: bidding, the call, the trump, and card play with a hidden partner.

Two players share the :class:`~table.robot.players.Player` interface (``choose(view) -> action``, where
the action is a :mod:`table.subastada` Bid/Pass/Call/Declare during the auction, else a Play):

- :class:`SubastadaGreedy`, the baseline: it values its hand with a fixed formula (its own card
  points, its length and top cards in its best suit), bids up to that value one point at a time, calls
  the strongest trump it lacks, declares its best suit and plays the club heuristic
  (:func:`~table.robot.players.greedy_card`) with the allies it is sure of.
- :class:`SubastadaRobot`: it values its hand by *sampling*: for each candidate contract (a trump and
  a called card; calling its own card means playing alone) it deals the 32 cards it cannot see to the
  other four seats at random many times and plays each deal out with the greedy policy. The called
  card lands in a random hand each time, so the partner uncertainty is in the estimate. From the
  sampled points it gets, for every bid level, the chance of making it and so the expected match
  points of bidding that much; it keeps bidding while that beats the expected value of defending.
  In play it runs determinized rollouts: worlds consistent with what it saw (suits a seat showed it
  lacks, the called card not yet played) with the partner being whoever holds the called card in
  that world; before the reveal each world is weighted by how much each seat's plays looked like a
  partner's (feeding points to a trick the bidder was winning, or overtaking the bidder).

Both are deterministic given their seed and the position.
"""
from __future__ import annotations

import random as _random
from typing import Dict, List, Sequence, Tuple

from table.cards import CARDS_BY_INDEX
from table.game import POINTS, STRENGTH, SUIT, Game, Play
from table.robot.inference import determinize, voids
from table.robot.players import Player, _beats, _current_winner, greedy_card
from table import subastada as S

DEFEND_VALUE = 0.35  # expected match points of a defender (the contract fails about a third of the time)


# -- shared helpers -------------------------------------------------------------------------------------
def known_allies(view: Game, seat: int) -> set:
    """Seats ``seat`` knows to be on its side now."""
    c = view.contract
    if c is None or c.bidder is None:
        return set()
    if seat == c.bidder:
        return {c.partner} - {None, seat}
    if c.partner == seat:
        return {c.bidder}
    if c.revealed:  # a defender once the partner is known: the other defenders
        return {s for s in range(view.n) if s not in (seat, c.bidder, c.partner)}
    return set()


def play_greedy(cards: List[int], g: Game, seat: int, allies) -> int:
    """The club heuristic with a set of allies: 'my partner is winning' means an ally is winning."""
    if len(cards) == 1:
        return cards[0]
    partner = None
    if g.trick:
        ws, _ = _current_winner(g.trick, g.trump_suit)
        if ws in allies:
            partner = ws
    return greedy_card(cards, g.trick, g.trump_suit, seat, partner, g.n)


def rollout(g: Game) -> List[int]:
    """Play a full-information world to the end, every seat greedy and aware of the true sides."""
    c = g.contract
    side = [0 if s in (c.bidder, c.partner) else 1 for s in range(g.n)]
    allies = [{t for t in range(g.n) if t != s and side[t] == side[s]} for s in range(g.n)]
    hands = g.hands
    while hands[g.turn]:
        seat = g.turn
        legal = g.fast_legal()
        g.fast_play(legal[0] if len(legal) == 1 else play_greedy(legal, g, seat, allies[seat]))
    pts = [0, 0]
    for s, p in enumerate(g.points):
        pts[side[s]] += p
    return pts


def best_suit(hand: Sequence[int]) -> Tuple[int, float]:
    """The suit a hand would make trump, and a rough strength: length, points and top cards."""
    best, bv = 0, -1.0
    for s in range(4):
        cs = [c for c in hand if SUIT[c] == s]
        v = 10 * len(cs) + sum(POINTS[c] for c in cs) + sum(STRENGTH[c] for c in cs) / 4
        if v > bv:
            best, bv = s, v
    return best, bv


def strongest_missing(hand: Sequence[int], suit: int, skip: int = 0) -> int:
    """The ``skip``-th strongest card of ``suit`` not in ``hand`` (the classic call: the trump ace)."""
    cards = sorted((c for c in S._deck40() if SUIT[c] == suit and c not in hand), key=lambda c: -STRENGTH[c])
    return cards[min(skip, len(cards) - 1)]


# -- the baseline --------------------------------------------------------------------------------------
class SubastadaGreedy(Player):
    """Formula bidding and the club heuristic: the benchmark's opponents."""

    name = "greedy"

    def __init__(self, base: float = 20.0) -> None:
        self.base = base

    def value(self, hand: Sequence[int]) -> int:
        """The most this hand bids: a formula, not a search."""
        s, _ = best_suit(hand)
        trumps = [c for c in hand if SUIT[c] == s]
        own = sum(POINTS[c] for c in hand)
        top = sum(8 if STRENGTH[c] == 11 else 4 if STRENGTH[c] == 10 else 0 for c in trumps)
        return int(self.base + own + 5 * len(trumps) + top)

    def choose(self, view: Game):
        c = view.contract
        seat = c.to_act if c is not None and not c.ready else view.turn
        if c is not None and not c.ready:
            hand = view.hands[seat]
            if c.stage == "bidding":
                nxt = c.min_bid if c.high is None else c.high + 1
                if nxt <= min(S.MAX_BID, self.value(hand)) or S.Pass() not in c.legal():
                    return S.Bid(nxt)
                return S.Pass()
            suit, _ = best_suit(hand)
            if c.stage == "call":
                return S.Call(CARDS_BY_INDEX[strongest_missing(hand, suit)])
            return S.Declare(suit)
        cards = [a.card.index for a in view.legal_actions]
        return Play(CARDS_BY_INDEX[play_greedy(cards, view, view.turn, known_allies(view, view.turn))])


# -- the robot -----------------------------------------------------------------------------------------
class SubastadaRobot(Player):
    """Sampled bidding and determinized card play (see the module docstring)."""

    name = "robot"

    def __init__(self, seed: int = 0, bid_samples: int = 48, worlds: int = 64,
                 defend_value: float = DEFEND_VALUE, margin_weight: float = 0.05) -> None:
        self.seed = seed
        self.bid_samples = bid_samples
        self.worlds = worlds
        self.defend_value = defend_value
        self.margin_weight = margin_weight
        self._plan: Dict[tuple, Dict] = {}
        self.last: Dict = {}

    # -- the interface --------------------------------------------------------------------------------
    def choose(self, view: Game):
        c = view.contract
        if c is not None and not c.ready:
            return self._contract_action(view, c)
        legal = [a.card.index for a in view.legal_actions]
        if len(legal) == 1:
            self.last = {"forced": True}
            return Play(CARDS_BY_INDEX[legal[0]])
        scores = self.evaluate(view, legal)
        best = max(legal, key=lambda x: (scores[x], -x))
        return Play(CARDS_BY_INDEX[best])

    # -- the auction ----------------------------------------------------------------------------------
    def candidates(self, hand: Sequence[int]) -> List[Tuple[int, int]]:
        """(trump, called card) pairs worth sampling: for each suit, its strongest missing card, and the
        second strongest when the suit is long; plus playing alone (calling one's own card) when the
        hand already holds the top trumps."""
        out = []
        for s in range(4):
            mine = [c for c in hand if SUIT[c] == s]
            out.append((s, strongest_missing(hand, s)))
            if len(mine) >= 3:
                out.append((s, strongest_missing(hand, s, 1)))
            tops = [c for c in mine if STRENGTH[c] >= 10]  # the ace and the three
            if len(tops) == 2 and len(mine) >= 4:
                out.append((s, max(mine, key=lambda c: STRENGTH[c])))  # one's own ace: alone
        return list(dict.fromkeys(out))

    def plan(self, view: Game, seat: int) -> Dict:
        """Sampled points of each candidate contract for this hand (computed once per hand)."""
        hand = tuple(sorted(view.hands[seat]))
        key = (seat, view.dealer, hand)
        p = self._plan.get(key)
        if p is not None:
            return p
        rng = _random.Random(f"{self.seed}/bid/{seat}/{view.dealer}/{hand}")
        unseen = [c for c in S._deck40() if c not in hand]
        others = [s for s in range(view.n) if s != seat]
        deals = []
        for _ in range(self.bid_samples):
            rng.shuffle(unseen)
            deals.append([unseen[8 * i:8 * i + 8] for i in range(len(others))])
        results = {}
        for trump, call in self.candidates(hand):
            pts = []
            for d in deals:
                g = view.copy()
                for i, s in enumerate(others):
                    g.hands[s] = list(d[i])
                g.hands[seat] = list(hand)
                c = S.Contract(view.n, view.dealer, view.rules.min_bid, view.rules.scoring)
                c.stage, c.bidder, c.high, c.called, c.trump = "play", seat, view.rules.min_bid, call, trump
                c.partner = next(s for s in range(view.n) if call in g.hands[s])
                g.contract = c
                g.trump_suit = trump
                pts.append(rollout(g)[0])
            results[(trump, call)] = (call in hand, sorted(pts))
        p = {"results": results}
        self._plan = {key: p}  # one hand at a time
        return p

    def expected(self, alone: bool, pts: Sequence[int], bid: int) -> float:
        """Expected match points of the bidder for a bid, from the sampled points (standard scoring)."""
        k = 2 if alone else 1
        made = sum(1 for x in pts if x >= bid) / len(pts)
        return 2 * k * (2 * made - 1)

    def best_contract(self, view: Game, seat: int, bid: int) -> Tuple[float, int, int]:
        res = self.plan(view, seat)["results"]
        return max((self.expected(alone, pts, bid), trump, call) for (trump, call), (alone, pts) in res.items())

    def _contract_action(self, view: Game, c: S.Contract):
        seat = c.to_act
        if c.stage == "bidding":
            nxt = c.min_bid if c.high is None else c.high + 1
            ev, trump, call = self.best_contract(view, seat, nxt)
            self.last = {"bid_ev": round(ev, 3), "level": nxt}
            if nxt <= S.MAX_BID and (ev > self.defend_value or S.Pass() not in c.legal()):
                return S.Bid(nxt)
            return S.Pass()
        ev, trump, call = self.best_contract(view, seat, c.high)
        if c.stage == "call":
            return S.Call(CARDS_BY_INDEX[call])
        return S.Declare(trump if c.called is None else self._trump_for(view, seat, c))

    def _trump_for(self, view: Game, seat: int, c: S.Contract) -> int:
        res = self.plan(view, seat)["results"]
        best = [(self.expected(alone, pts, c.high), t) for (t, call), (alone, pts) in res.items() if call == c.called]
        if best:
            return max(best)[1]
        return best_suit(view.hands[seat])[0]

    # -- card play --------------------------------------------------------------------------------------
    def partner_weights(self, view: Game) -> List[float]:
        """How partner-like each seat has played so far (1 = no evidence)."""
        c = view.contract
        w = [1.0] * view.n
        if c.revealed or c.bidder is None:
            return w
        plays = [list(t[1]) for t in view.tricks] + ([list(view.trick)] if view.trick else [])
        for trick in plays:
            for i in range(1, len(trick)):
                s, card = trick[i]
                if s == c.bidder:
                    continue
                ws, wc = _current_winner(trick[:i], view.trump_suit)
                if ws == c.bidder and POINTS[card] >= 3 and SUIT[card] != view.trump_suit:
                    w[s] *= 2.0  # fed points to the bidder
                elif ws == c.bidder and _beats(card, wc, view.trump_suit) and \
                        sum(POINTS[x] for _, x in trick[:i]) >= 10:
                    w[s] *= 0.5  # took a rich trick off the bidder
        return w

    def evaluate(self, view: Game, cards: List[int]) -> Dict[int, float]:
        c = view.contract
        seat = view.turn
        plays = [(s, x) for s, kind, x in view.history if kind == 0]
        rng = _random.Random(f"{self.seed}/play/{view.dealer}/{plays}/{seat}")
        vd = voids(view)
        weights = self.partner_weights(view)
        totals = {x: 0.0 for x in cards}
        wsum = 0.0
        for _ in range(self.worlds):
            g = determinize(view, rng, vd)
            wc = g.contract
            if wc.partner is None:
                wc.partner = next((s for s in range(g.n) if wc.called in g.hands[s]), None)
                if wc.partner is None:  # cannot happen in a consistent view; be safe
                    wc.partner = wc.bidder
            w = weights[wc.partner] if not c.revealed else 1.0
            for x in cards:
                h = g.copy()
                h.fast_play(x)
                if x == wc.called:
                    h.contract.revealed = True
                pts = rollout(h)
                mp = S.match_points(h.contract, pts, view.rules.scoring)[seat]
                mine = pts[0 if seat in (wc.bidder, wc.partner) else 1]
                totals[x] += w * (mp + self.margin_weight * mine / 10.0)
            wsum += w
        self.last = {"worlds": self.worlds,
                     "scores": {CARDS_BY_INDEX[x].code: round(totals[x] / wsum, 3) for x in cards}}
        return {x: totals[x] / wsum for x in cards}


def make_subastada_player(name: str, seed: int = 0, **kw) -> Player:
    if name == "greedy":
        return SubastadaGreedy()
    if name == "robot":
        return SubastadaRobot(seed=seed, **kw)
    raise ValueError(f"unknown Subastada player {name!r} (use greedy or robot)")
