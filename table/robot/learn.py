"""Training the rollout policy (:mod:`table.robot.policy`) by expert iteration.

1. **Decisions.** The robot plays hands (against itself, the greedy player and the random player,
   so the positions cover strong and weak play) and every searched decision of the stock phase is
   kept: the features of each legal card and the robot's score for it. They are appended to a JSON
   lines file, one hand per line, so a stopped run keeps what it made and a second run adds to it.
2. **Fit.** A conditional logit (softmax over the legal cards of a decision of ``w . features``)
   is fitted to the robot's scores turned into a distribution, ``softmax(score / tau)``: the
   policy learns how much better each card is, not only which one won. Plain numpy, Adam, a small
   L2 penalty; a fifth of the decisions is held out to report how often the policy picks the
   robot's card.
3. **Iterate.** The robot searching with the new policy plays better; its decisions make the next
   policy (``--from``).
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Callable, Iterable, List, Optional, Sequence, Tuple

# What the seat to move could see at a decision (the arguments of policy.features, ``trick`` as
# [seat, card] pairs) and the robot's score of each legal card. Inputs, not features, are stored,
# so that the features can change without playing the hands again.
Decision = Tuple[dict, List[float]]


def play_hand(index: int, rules_text: str, budget_ms: float, policy: Optional[str]) -> List[Decision]:
    """One hand of robot play; the robot's searched decisions before the stock runs out.

    ``index`` picks the deal, the dealer, the robot's seat and the opponent (the robot itself,
    greedy or random, in turn)."""
    from table.cards import Card
    from table.game import Game, deck_indices
    from table.robot.players import GreedyPlayer, RandomPlayer
    from table.robot.policy import policy_inputs
    from table.robot.search import RobotPlayer
    from table.rules import Rules

    rules = Rules.parse_text(rules_text)
    rng = random.Random(index)
    deck = list(deck_indices(rules.deck_size))
    rng.shuffle(deck)
    g = Game.deal(rules, deck, dealer=index % rules.players)
    robot = RobotPlayer(budget_ms=budget_ms, seed=index, policy=policy)
    kind = (index // 4) % 3
    opponent = [robot, GreedyPlayer(), RandomPlayer(index)][kind]
    robot_seat = rng.randrange(rules.players)
    out: List[Decision] = []
    while not g.is_over():
        seat = g.turn
        view = g.view(seat)
        player = robot if (seat == robot_seat or kind == 0) else opponent
        action = player.choose(view)
        last = robot.last if player is robot else {}
        if "scores" in last and not last.get("exact"):
            codes = list(last["scores"])
            cards = [Card.parse(k).index for k in codes]
            out.append((policy_inputs(view, cards), [last["scores"][k] for k in codes]))
        g.apply(action, seat)
    return out


def _play_hand(args):
    return play_hand(*args)


def make_decisions(path, hands: int, rules: Sequence[str], budget_ms: float, policy: Optional[str],
                   seed: int = 0, jobs: int = 1, progress: Optional[Callable[[int, int], None]] = None) -> int:
    """Play ``hands`` hands (rules in turn) and append their decisions to ``path``; returns the
    number of decisions written."""
    tasks = [(seed + i, rules[i % len(rules)], budget_ms, policy) for i in range(hands)]
    written = 0
    with open(path, "a") as f:
        if jobs > 1:
            import multiprocessing
            pool = multiprocessing.get_context("spawn").Pool(jobs)
            results: Iterable = pool.imap_unordered(_play_hand, tasks)
        else:
            pool = None
            results = map(_play_hand, tasks)
        try:
            for k, decisions in enumerate(results):
                for d in decisions:
                    f.write(json.dumps(d) + "\n")
                f.flush()
                written += len(decisions)
                if progress:
                    progress(k + 1, written)
        finally:
            if pool:
                pool.terminate()
    return written


def load_decisions(path) -> List[Decision]:
    """The decisions of a JSON lines file; a torn last line (a run stopped mid-write) is skipped."""
    out = []
    for line in Path(path).read_text().splitlines():
        try:
            inputs, scores = json.loads(line)
            ok = len(inputs["cards"]) == len(scores) > 0
        except (ValueError, TypeError, KeyError):
            continue
        if ok:
            out.append((inputs, scores))
    return out


def fit(decisions: Sequence[Decision], tau: float = 0.03, l2: float = 1e-4, steps: int = 3000,
        seed: int = 0, progress: Optional[Callable[[int, dict], None]] = None):
    """Fit a :class:`~table.robot.policy.LinearPolicy` to the decisions; returns (policy, stats)."""
    import numpy as np

    from table.robot.policy import N_FEATURES, LinearPolicy, features

    if len(decisions) < 10:
        raise ValueError(f"too few decisions to fit a policy ({len(decisions)})")
    order = np.random.default_rng(seed).permutation(len(decisions))
    n_val = len(decisions) // 5

    def pack(ix):
        xs, ts, gs = [], [], []
        for gi, i in enumerate(ix):
            inputs, scores = decisions[i]
            feats = features(**inputs)
            s = np.asarray(scores, dtype=float)
            e = np.exp((s - s.max()) / tau)
            xs.extend(feats)
            ts.extend(e / e.sum())
            gs.extend([gi] * len(feats))
        return np.asarray(xs, dtype=float).reshape(-1, N_FEATURES), np.asarray(ts), np.asarray(gs), len(ix)

    train, val = pack(order[n_val:]), pack(order[:n_val])

    def probs(w, data):
        x, _t, g, n = data
        z = x @ w
        m = np.full(n, -np.inf)
        np.maximum.at(m, g, z)
        e = np.exp(z - m[g])
        tot = np.zeros(n)
        np.add.at(tot, g, e)
        return e / tot[g]

    def loss(w, data):
        _x, t, _g, n = data
        return float(-(t * np.log(probs(w, data) + 1e-12)).sum() / n + l2 * (w @ w))

    def agreement(w, data):
        """How often the policy's card is the robot's best card."""
        x, t, g, n = data
        z = x @ w
        best_z = np.full(n, -1)
        best_t = np.full(n, -1)
        for i in range(len(g)):  # first maximum of each decision
            if best_z[g[i]] < 0 or z[i] > z[best_z[g[i]]]:
                best_z[g[i]] = i
            if best_t[g[i]] < 0 or t[i] > t[best_t[g[i]]]:
                best_t[g[i]] = i
        return float(np.mean(best_z == best_t)) if n else float("nan")

    w = np.zeros(N_FEATURES)
    m1 = np.zeros_like(w)
    m2 = np.zeros_like(w)
    lr = 0.05
    x, t, _g, n = train
    for step in range(1, steps + 1):
        grad = x.T @ (probs(w, train) - t) / n + 2 * l2 * w
        m1 = 0.9 * m1 + 0.1 * grad
        m2 = 0.999 * m2 + 0.001 * grad * grad
        w -= lr * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
        if progress and (step % 500 == 0 or step == steps):
            progress(step, {"train_loss": loss(w, train), "val_loss": loss(w, val)})
    stats = {"decisions": len(decisions), "tau": tau, "l2": l2,
             "train_loss": loss(w, train), "val_loss": loss(w, val),
             "train_agreement": agreement(w, train), "val_agreement": agreement(w, val)}
    return LinearPolicy([float(v) for v in w]), stats
