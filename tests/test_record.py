import json
import random

import pytest

from table.cards import deck
from table.game import Game
from table.record import Record, RecordError
from table.rules import PRESETS, Rules

PLAYABLE = [n for n, r in PRESETS.items() if not r.auction]


def random_record(preset, seed, with_deck=True, overrides=None):
    rules = Rules.parse(preset)
    if overrides:
        rules = rules.with_settings(**overrides)
    rng = random.Random(seed)
    cards = deck(rules.deck_size)
    rng.shuffle(cards)
    dealer = rng.randrange(rules.players)
    g = Game.deal(rules, cards, dealer)
    while not g.is_over():
        g.apply(rng.choice(list(g.legal_actions)))
    return Record.from_game(g, [f"P{i}" for i in range(rules.players)], cards if with_deck else None), g


@pytest.mark.parametrize("preset", PLAYABLE)
@pytest.mark.parametrize("with_deck", [True, False])
def test_every_preset_round_trips_json_and_pbn(preset, with_deck):
    for seed in range(5):
        rec, g = random_record(preset, seed, with_deck, {"direction": "clockwise"} if seed == 1 else None)
        again = Record.from_json(json.loads(json.dumps(rec.to_json())))
        assert again.to_json() == rec.to_json()
        pbn = rec.to_pbn()
        back = Record.from_pbn(pbn)
        assert back.to_json() == rec.to_json()
        score = back.score()
        assert score["complete"] and list(score["points"]) == g.side_points()
        assert sum(t["points"] for t in score["tricks"]) == 120


def test_replay_names_the_bad_action():
    rec, _ = random_record("classic-2", 3)
    data = rec.to_json()
    i = [i for i, a in enumerate(data["actions"]) if "play" in a][5]
    data["actions"][i]["seat"] = 1 - data["actions"][i]["seat"]
    with pytest.raises(RecordError, match=rf"action {i}: NotYourTurn"):
        Record.from_json(data).score()
    data = rec.to_json()
    plays = [i for i, a in enumerate(data["actions"]) if "play" in a]
    data["actions"][plays[7]]["play"] = data["actions"][plays[0]]["play"]
    with pytest.raises(RecordError, match=rf"action {plays[7]}: CardAlreadyPlayed"):
        Record.from_json(data).score()


@pytest.mark.parametrize("mutate, msg", [
    (lambda d: d.update(format="brisca/0"), "format"),
    (lambda d: d.update(seats=["A"]), "seats"),
    (lambda d: d.update(dealer=7), "dealer"),
    (lambda d: d.update(trump="99Z"), "trump"),
    (lambda d: d["actions"].append({"seat": 0, "play": "3X"}), "action"),
    (lambda d: d["actions"].append({"play": "3C"}), "integer 'seat'"),
    (lambda d: d.update(rules={"preset": "classic-2", "swap": "maybe"}), "rules: swap"),
])
def test_malformed_records_have_clear_errors(mutate, msg):
    rec, _ = random_record("classic-2", 1)
    data = rec.to_json()
    mutate(data)
    with pytest.raises(RecordError, match=msg):
        Record.from_json(data).score()


def test_hidden_record_checks_what_can_be_checked():
    rec, _ = random_record("classic-2", 2, with_deck=False)
    data = rec.to_json()
    # the turned-up trump cannot be played before it can have been drawn
    data["actions"][0]["play"] = data["trump"]
    with pytest.raises(RecordError, match="action 0: CardNotInHand.*turned-up trump"):
        Record.from_json(data).score()


def test_deck_must_turn_up_the_recorded_trump():
    rec, _ = random_record("classic-2", 4)
    data = rec.to_json()
    data["trump"] = next(c for c in data["deck"] if c != data["trump"])
    with pytest.raises(RecordError, match="trump: the deck turns up"):
        Record.from_json(data).score()


def test_corrections_rescore_and_keep_the_original():
    rec, _ = random_record("classic-2", 6, with_deck=False)
    data = rec.to_json()
    assert "play" in data["actions"][1] or pytest.skip("seed starts with a swap")
    data["actions"] = data["actions"][:4]  # two tricks into the hand
    rec = Record.from_json(data)
    second = data["actions"][1]["play"]
    # a misread: the second card was read as some unseen card; the referee corrects it
    unseen = next(c.code for c in deck(40) if c.code not in {a.get("play") for a in data["actions"]} and c.code != data["trump"])
    data["actions"][1]["play"] = unseen
    wrong = Record.from_json(data).score()
    data["corrections"] = [{"action": 1, "play": second, "by": "referee", "at": "2026-11-29T22:00:00Z",
                            "why": "misread", "was": {"play": unseen}}]
    fixed = Record.from_json(data)
    assert fixed.score() == rec.score() != wrong
    assert not fixed.score()["complete"]
    assert fixed.actions[1][1].card.code == unseen  # the original reading is kept
    assert Record.from_pbn(fixed.to_pbn()).to_json() == fixed.to_json()
