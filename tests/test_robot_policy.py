"""The learned rollout policy: what it sees, its fast path, its training."""
from __future__ import annotations

import json
import random

import pytest

from table.cli import main
from table.game import Game
from table.robot.learn import fit, load_decisions
from table.robot.policy import (N_FEATURES, NAMES, LinearPolicy, features, last_draw, policy_inputs,
                                seat_inputs, shipped_policy, view_features)
from table.robot.search import RobotPlayer

PRESETS = ["classic-2", "arrastre-2", "catalana-2", "rapida-2", "classic-3", "partners-4"]


def _positions(count, seed=1):
    rng = random.Random(seed)
    while count:
        g = Game.random(rng.choice(PRESETS), rng)
        for _ in range(rng.randrange(0, 30)):
            if not g.hands[g.turn]:
                break
            g.fast_play(rng.choice(g.fast_legal()))
        if g.hands[g.turn]:
            count -= 1
            yield g


def test_fast_path_scores_like_the_features():
    rng = random.Random(7)
    pol = LinearPolicy([rng.uniform(-2, 2) for _ in range(N_FEATURES)])
    for g in _positions(3000):
        seat = g.turn
        hand, unseen, sf = seat_inputs(g, seat)
        cards = g.fast_legal()
        draw = last_draw(g) if rng.random() < 0.5 else rng.randrange(40)
        args = (cards, hand, g.trick, g.trump_suit, unseen, sf, g.rules.partner_of(seat), g.n, draw)
        s = pol.scores(*args)
        top = max(s)
        assert s[cards.index(pol.card(*args))] == pytest.approx(top, abs=1e-9)


def test_policy_sees_only_what_the_seat_sees():
    """The features of a sampled world (every hand known) equal those of the seat's own view: a
    rollout never plays on the other hands."""
    for g in _positions(300, seed=2):
        cards = g.fast_legal()
        seat = g.turn
        hand, unseen, sf = seat_inputs(g, seat)
        world = features(cards, hand, g.trick, g.trump_suit, unseen, sf, g.rules.partner_of(seat), g.n,
                         last_draw(g))
        assert view_features(g.view(seat), cards) == world


def test_shipped_policy_matches_the_features_it_was_trained_on():
    assert len(shipped_policy().weights) == N_FEATURES
    with pytest.raises(ValueError, match="weights"):
        LinearPolicy([0.0] * 3)


def test_load_rejects_a_policy_of_other_features(tmp_path):
    p = tmp_path / "old.json"
    p.write_text(json.dumps({"features": ["points"], "weights": [1.0]}))
    with pytest.raises(ValueError, match="other features"):
        LinearPolicy.load(p)


def test_fit_recovers_a_known_preference():
    """Decisions of real positions labelled by a known linear score: the fitted policy picks the same
    card."""
    rng = random.Random(3)
    truth = LinearPolicy([rng.uniform(-2, 2) for _ in range(N_FEATURES)])
    decisions = []
    for g in _positions(600, seed=4):
        cards = g.fast_legal()
        if len(cards) > 1:
            inputs = policy_inputs(g.view(g.turn), cards)
            decisions.append((inputs, [s / 20 for s in truth.scores(**inputs)]))
    policy, stats = fit(decisions, steps=1500)
    assert stats["val_agreement"] > 0.85
    assert len(policy.weights) == N_FEATURES


def test_train_policy_command_appends_decisions_and_writes_a_policy(tmp_path, capsys):
    out = tmp_path / "p.json"
    data = tmp_path / "d.jsonl"
    assert main(["train-policy", "--out", str(out), "--data", str(data), "--hands", "4", "--budget-ms", "3",
                 "--rules", "rapida-2", "--from", "greedy"]) == 0
    first = len(load_decisions(data))
    assert first > 10
    with open(data, "a") as f:
        f.write('[[[0.1, 0.2')  # a run stopped mid-write: the torn line is skipped
    assert main(["train-policy", "--out", str(out), "--data", str(data), "--hands", "2", "--budget-ms", "3",
                 "--rules", "rapida-2", "--seed", "9", "--from", str(out)]) == 0
    assert len(load_decisions(data)) > first
    saved = json.loads(out.read_text())
    assert saved["features"] == list(NAMES) and saved["decisions"] == len(load_decisions(data))
    assert "held-out" in capsys.readouterr().out
    # the robot searches with it
    g = Game.random("rapida-2", random.Random(5))
    assert RobotPlayer(budget_ms=5, policy=str(out)).choose(g.view(g.turn)) in g.legal_actions


def test_train_policy_rejects_bad_input(tmp_path, capsys):
    assert main(["train-policy", "--out", str(tmp_path / "p.json"), "--rules", "partners-4", "--hands", "1"]) == 2
    assert main(["train-policy", "--out", str(tmp_path / "p.json"), "--hands", "0"]) == 2
    assert main(["train-policy", "--out", str(tmp_path / "p.json"), "--from", str(tmp_path / "nope.json")]) == 2
    (tmp_path / "old.json").write_text('{"features": ["points"], "weights": [1.0]}')
    assert main(["train-policy", "--out", str(tmp_path / "p.json"), "--from", str(tmp_path / "old.json")]) == 2
    err = capsys.readouterr().err
    assert "2-player" in err and "no decisions" in err and "no such policy" in err
    assert "not a policy file of these features" in err
