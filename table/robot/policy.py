"""A learned rollout policy: a linear score of each legal card from what its seat can see.

The robot's search plays sampled worlds out to the end; how good its estimate is depends on how
well the rollout policy models both sides. The club heuristic (:func:`~table.robot.players.greedy_card`)
is a fair model of a careful player but a poor one of a strong player. This policy is trained to
imitate the robot's own searched decisions (expert iteration: ``brisca-table train-policy``, see
:mod:`table.robot.learn`), so its rollouts play more like the robot does.

It sees only what the seat to move could see: its own hand, the trick, the cards already played
and the size of the stock. It never looks at the other hands of a sampled world, which would make
rollouts clairvoyant. The score of a card is ``w . features(card)``; the highest score is played.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from table.game import POINTS, STRENGTH, SUIT
from table.robot.players import _beats, _current_winner

# Cards of the same suit that are stronger: a bitmask per card index.
_HIGHER = [sum(1 << d for d in range(48) if SUIT[d] == SUIT[c] and STRENGTH[d] > STRENGTH[c])
           for c in range(48)]
_SUIT_MASK = [sum(1 << d for d in range(48) if SUIT[d] == s) for s in range(4)]

COMMON = ("trump", "points", "strength", "trump_strength", "brisca", "trump_brisca", "higher_unseen",
          "boss", "boss_points", "suit_count", "trumps_held", "stock_trump", "stock_points",
          "trumps_unseen", "boss_trump", "draw_strength", "draw_trump")
FOLLOW = ("wins", "wins_table", "wins_trump", "wins_points", "loses_points", "table_trump", "last",
          "last_wins", "wins_table_stock", "partner_wins", "partner_points", "partner_trump", "wins_draw")
NAMES = tuple(f"lead_{x}" for x in COMMON) + tuple(f"follow_{x}" for x in COMMON) + FOLLOW
N_FEATURES = len(NAMES)
_NC = len(COMMON)


def _draw_value(c: int) -> float:
    """What the face-up trump is worth to whoever draws it: its points and its strength."""
    return 0.0 if c < 0 else (POINTS[c] + STRENGTH[c]) / 22.0


def features(cards: Sequence[int], hand: Sequence[int], trick: Sequence[Tuple[int, int]], ts: int,
             unseen: int, stock_frac: float, partner: Optional[int], n: int, last_draw: int = -1) -> List[List[float]]:
    """One feature vector per legal card in ``cards``.

    ``hand`` is the seat's whole hand, ``unseen`` the bitmask of cards neither played nor in the
    hand (the deck's other cards), ``stock_frac`` the share of the stock still to be drawn,
    ``last_draw`` the face-up trump that this trick's loser will draw (:func:`last_draw`), or -1.
    """
    draw = _draw_value(last_draw)
    trumps_held = sum(1 for x in hand if SUIT[x] == ts)
    trumps_unseen = (unseen & _SUIT_MASK[ts]).bit_count() if ts >= 0 else 0
    suit_counts = [0, 0, 0, 0]
    for x in hand:
        suit_counts[SUIT[x]] += 1
    follow = bool(trick)
    if follow:
        ws, wc = _current_winner(trick, ts)
        table = sum(POINTS[x] for _, x in trick) / 11.0
        last = 1.0 if len(trick) == n - 1 else 0.0
        pw = 1.0 if partner is not None and ws == partner else 0.0
    out = []
    for c in cards:
        t = 1.0 if SUIT[c] == ts else 0.0
        p = POINTS[c] / 11.0
        st = STRENGTH[c] / 11.0
        br = 1.0 if POINTS[c] >= 10 else 0.0
        hu = (_HIGHER[c] & unseen).bit_count()
        boss = 1.0 if hu == 0 else 0.0
        common = [t, p, st, t * st, br, t * br, min(hu, 8) / 4.0, boss, boss * p,
                  (suit_counts[SUIT[c]] - 1) / 2.0, t * (trumps_held - 1) / 2.0, stock_frac * t,
                  stock_frac * p, t * trumps_unseen / 10.0, t * boss, draw * st, draw * t]
        if not follow:
            out.append(common + [0.0] * (_NC + len(FOLLOW)))
            continue
        win = 1.0 if _beats(c, wc, ts) and not pw else 0.0
        out.append([0.0] * _NC + common + [
            win, win * table, win * t, win * p, (1.0 - win) * p * (1.0 - pw), table * t, last,
            last * win, win * table * stock_frac, pw, pw * p, pw * t, win * draw])
    return out


def seat_inputs(g, seat: int) -> Tuple[List[int], int, float]:
    """(hand, unseen mask, share of the stock left) of ``seat`` in a game or in its own view."""
    hand = g.hands[seat]
    hm = 0
    for x in hand:
        hm |= 1 << x
    r = g.rules
    total = r.deck_size - g.n * r.hand_size
    return hand, g.deck_mask & ~g.played & ~hm, (g.stock_count / total if total > 0 else 0.0)


def last_draw(g) -> int:
    """In the 2-player game, the face-up trump when this trick's loser will draw it (the last draw);
    else -1."""
    if g.n == 2 and g.stock_count == 2 and g.trump_card is not None:
        return g.trump_card
    return -1


def policy_inputs(view, cards: Sequence[int]) -> dict:
    """The arguments of :func:`features` for ``cards`` of the seat to move in ``view`` (plain data)."""
    seat = view.turn
    hand, unseen, sf = seat_inputs(view, seat)
    return {"cards": list(cards), "hand": list(hand), "trick": [list(p) for p in view.trick],
            "ts": view.trump_suit, "unseen": unseen, "stock_frac": sf,
            "partner": view.rules.partner_of(seat), "n": view.n, "last_draw": last_draw(view)}


def view_features(view, cards: Sequence[int]) -> List[List[float]]:
    """:func:`features` of ``cards`` for the seat to move in ``view``."""
    return features(**policy_inputs(view, cards))


class LinearPolicy:
    """``policy.card(cards, hand, trick, ts, unseen, stock_frac, partner, n)`` -> the card to play.

    :meth:`card` is the rollout's hot path: it computes the same score as ``w . features`` but adds
    the parts that depend only on the card and the trump suit from a table made once.
    """

    def __init__(self, weights: Sequence[float]) -> None:
        if len(weights) != N_FEATURES:
            raise ValueError(f"a policy needs {N_FEATURES} weights, got {len(weights)}")
        self.weights = [float(w) for w in weights]
        w = self.weights
        self._blocks = (w[:_NC], w[_NC:2 * _NC])
        self._follow = w[2 * _NC:]
        # static part of the common block per (lead/follow, trump suit, card)
        self._static = [[[self._static_part(b, c, ts) for c in range(48)] for ts in range(4)]
                        for b in self._blocks]

    @staticmethod
    def _static_part(b, c, ts):
        t = 1.0 if SUIT[c] == ts else 0.0
        p = POINTS[c] / 11.0
        st = STRENGTH[c] / 11.0
        br = 1.0 if POINTS[c] >= 10 else 0.0
        return b[0] * t + b[1] * p + b[2] * st + b[3] * t * st + b[4] * br + b[5] * t * br

    @classmethod
    def load(cls, path) -> "LinearPolicy":
        data = json.loads(Path(path).read_text())
        if data.get("features") != list(NAMES):
            raise ValueError(f"{path}: the policy was trained on other features")
        return cls(data["weights"])

    def save(self, path, **info) -> None:
        Path(path).write_text(json.dumps({"features": list(NAMES), "weights": self.weights, **info},
                                         indent=1) + "\n")

    def scores(self, cards, hand, trick, ts, unseen, stock_frac, partner, n, last_draw=-1) -> List[float]:
        """The score of each card, from :func:`features` (the reference for :meth:`card`)."""
        w = self.weights
        return [sum(a * b for a, b in zip(w, f))
                for f in features(cards, hand, trick, ts, unseen, stock_frac, partner, n, last_draw)]

    def card(self, cards, hand, trick, ts, unseen, sf, partner, n, last_draw=-1) -> int:
        if ts < 0:
            s = self.scores(cards, hand, trick, ts, unseen, sf, partner, n, last_draw)
            return cards[max(range(len(cards)), key=lambda i: (s[i], -cards[i]))]
        follow = 1 if trick else 0
        b = self._blocks[follow]
        static = self._static[follow][ts]
        counts = [0, 0, 0, 0]
        for x in hand:
            counts[SUIT[x]] += 1
        th = counts[ts]
        tu = (unseen & _SUIT_MASK[ts]).bit_count() / 10.0
        trump_dyn = b[10] * (th - 1) / 2.0 + b[11] * sf + b[13] * tu
        draw = _draw_value(last_draw)
        if draw:
            trump_dyn += b[16] * draw
        if follow:
            f = self._follow
            ws, wc = _current_winner(trick, ts)
            table = sum(POINTS[x] for _, x in trick) / 11.0
            last = len(trick) == n - 1
            pw = partner is not None and ws == partner
            base = f[6] if last else 0.0
            if pw:
                base += f[9]
        best = None
        best_score = 0.0
        for c in cards:
            t = SUIT[c] == ts
            p = POINTS[c] / 11.0
            hu = (_HIGHER[c] & unseen).bit_count()
            v = static[c] + b[6] * (hu if hu < 8 else 8) / 4.0 + b[9] * (counts[SUIT[c]] - 1) / 2.0 \
                + b[12] * sf * p
            if draw:
                v += b[15] * draw * STRENGTH[c] / 11.0
            if hu == 0:
                v += b[7] + b[8] * p + (b[14] if t else 0.0)
            if t:
                v += trump_dyn
            if follow:
                v += base
                if t:
                    v += f[5] * table
                if pw:
                    v += f[10] * p + (f[11] if t else 0.0)
                elif _beats(c, wc, ts):
                    v += f[0] + f[1] * table + f[3] * p + f[8] * table * sf + (f[2] if t else 0.0) \
                        + (f[7] if last else 0.0) + f[12] * draw
                else:
                    v += f[4] * p
            if best is None or v > best_score or (v == best_score and c < best):
                best, best_score = c, v
        return best


SHIPPED = Path(__file__).with_name("rollout-2p.json")


@lru_cache(maxsize=1)
def shipped_policy() -> LinearPolicy:
    """The policy made by ``brisca-table train-policy`` that the robot uses in 2-player games."""
    return LinearPolicy.load(SHIPPED)
