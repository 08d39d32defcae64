"""The tracker over simulated games: stability, plays, swaps, alerts, corrections."""
import random

import pytest

from table.cards import deck
from table.events import Event
from table.game import Game
from table.ledger import Ledger
from table.record import Record
from table.rules import Rules
from table.store import EventStore
from table.tracker import Tracker, TrackerConfig
from vision.observe import Observation, SeenCard
from vision.simgame import GameFilm, Layout, SimOptions, truth_observation


class Table:
    """Store + ledger + tracker, wired as the service wires them."""

    def __init__(self, path, rules="classic-2", seats=("Ana", "Luis"), robot_seat=None):
        self.store = EventStore(path)
        self.ledger = Ledger.fold(self.store.events())
        self.store.add_listener(self.ledger.apply)
        self.rules = Rules.parse(rules)
        self.store.append(Event("match_start", {"rules": self.rules.to_json(), "seats": list(seats),
                                                "robot_seat": robot_seat}, key="m1"))
        self.tracker = Tracker(self.ledger, self.store.append)

    def types(self):
        return [e.type for e in self.store.events()]


def played_record(preset, seed, swap_prob=0.5):
    rules = Rules.parse(preset)
    rng = random.Random(seed)
    cards = deck(rules.deck_size)
    rng.shuffle(cards)
    g = Game.deal(rules, cards, 0)
    while not g.is_over():
        legal = list(g.legal_actions)
        swaps = [a for a in legal if type(a).__name__ == "Swap"]
        g.apply(swaps[0] if swaps and rng.random() < swap_prob else rng.choice([a for a in legal if a not in swaps]))
    return Record.from_game(g, [f"P{i}" for i in range(rules.players)], cards)


def run_film(table, rec, seed=0, options=None, misread=0.0):
    film = GameFilm(rec, options or SimOptions(), seed)
    rng = random.Random(seed)
    codes = [str(c) for c in deck(rec.rules.deck_size)]
    for f in film.frames():
        table.tracker.observe(truth_observation(f, film.layout, rng, misread, codes))
    return film


@pytest.mark.parametrize("preset", ["classic-2", "classic-3", "partners-4", "arrastre-2"])
@pytest.mark.parametrize("seed", [1, 2])
def test_tracked_record_equals_ground_truth(tmp_path, preset, seed):
    rec = played_record(preset, seed)
    t = Table(tmp_path, preset, [f"P{i}" for i in range(rec.rules.players)])
    run_film(t, rec, seed, SimOptions(hover_prob=0.3, nudge_prob=0.3))
    hand = t.ledger.hand
    assert hand.error is None and not t.ledger.alerts
    assert [(s, str(a)) for s, a in hand.record.actions] == [(s, str(a)) for s, a in rec.actions]
    assert hand.game.is_over()
    plays = sum("swap" not in str(a) for _, a in rec.actions)
    assert t.types().count("trick") == plays // rec.rules.players
    assert "hand_end" in t.types()


def test_card_hidden_by_a_hand_for_a_second_counts_once(tmp_path):
    rec = played_record("classic-2", 3, swap_prob=0)
    t = Table(tmp_path)
    run_film(t, rec, 3, SimOptions(hover_prob=1.0, nudge_prob=0.0))
    assert t.types().count("play") == 40 and t.ledger.hand.game.is_over()


def test_nudged_card_is_not_played_twice(tmp_path):
    rec = played_record("classic-2", 4, swap_prob=0)
    t = Table(tmp_path)
    run_film(t, rec, 4, SimOptions(hover_prob=0.0, nudge_prob=1.0))
    assert t.types().count("play") == 40 and not t.ledger.alerts


def test_swap_is_detected(tmp_path):
    for seed in range(20):
        rec = played_record("classic-2", seed, swap_prob=1.0)
        if any(type(a).__name__ == "Swap" for _, a in rec.actions):
            break
    t = Table(tmp_path)
    run_film(t, rec, seed)
    swaps = [e for e in t.store.events() if e.type == "swap"]
    assert swaps and [str(a) for _, a in t.ledger.hand.record.actions] == [str(a) for _, a in rec.actions]


def _obs(ts, cards, moving=False):
    lay = Layout.for_players(2)
    return Observation(ts, tuple(SeenCard(c, True, 0.95, x, y, lay.zone_of(x, y)) for c, x, y in cards), moving)


def _start(t, trump="5O"):
    for i in range(6):
        t.tracker.observe(_obs(i / 10, [(trump, 105, 250)]))
    assert t.ledger.hand is not None and str(t.ledger.hand.record.trump) == trump


def test_card_out_of_turn_raises_an_alert_and_waits(tmp_path):
    t = Table(tmp_path)
    _start(t)  # dealer 0: seat 1 leads
    for i in range(6, 14):  # seat 0 plays first: out of turn
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("3C", 450, 330)]))
    alerts = [e for e in t.store.events() if e.type == "alert"]
    assert alerts and alerts[-1].data["kind"] == "out_of_turn" and "seat 0" in alerts[-1].data["message"]
    assert "play" not in t.types()
    # seat 1 now plays: the waiting card becomes legal and both count, in turn order
    for i in range(14, 22):
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("3C", 450, 330), ("1C", 450, 170)]))
    plays = [(e.data["seat"], e.data["card"]) for e in t.store.events() if e.type == "play"]
    assert plays == [(1, "1C"), (0, "3C")]
    assert not t.ledger.alerts


def test_moving_frames_settle_nothing(tmp_path):
    t = Table(tmp_path)
    for i in range(30):
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250)], moving=True))
    assert t.ledger.hand is None


def test_low_confidence_alerts_and_a_correction_rescores(tmp_path):
    t = Table(tmp_path)
    _start(t)
    lay = Layout.for_players(2)
    for i in range(6, 24):  # an unreadable card: after a while an alert, and no play
        t.tracker.observe(Observation(i / 10, (SeenCard("5O", True, .95, 105, 250, "stock"),
                                               SeenCard(None, True, 0.1, 450, 170, lay.zone_of(450, 170)))))
    assert [e.data["kind"] for e in t.store.events() if e.type == "alert"] == ["unreadable"]
    assert "play" not in t.types()
    # someone straightens the card; now the camera is sure it is the 4 of cups, but it was the ace
    t.tracker.observe(_obs(2.35, [], moving=True))
    for i in range(24, 32):
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("4C", 450, 170)]))
    for i in range(32, 40):
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("4C", 450, 170), ("3C", 450, 330)]))
    assert t.ledger.game.points == [10, 0]
    target = next(e.id for e in t.store.events() if e.type == "play" and e.data["card"] == "4C")
    t.store.append(Event("correction", {"target": target, "play": "1C", "by": "referee", "why": "misread"}))
    assert t.ledger.game.points == [0, 21]
    assert t.ledger.hand.record.actions[0][1].card.code == "4C"  # the original reading is kept


def test_an_unread_trump_that_turns_into_a_seven_needs_confirmation(tmp_path):
    t = Table(tmp_path)
    for i in range(20):  # the turned-up card cannot be read (tucked too far under the stock)
        t.tracker.observe(Observation(i / 10, (SeenCard(None, True, 0.2, 105, 250, "stock"),)))
    t.tracker.observe(_obs(2.05, [], moving=True))  # someone reaches over the stock...
    for i in range(21, 28):  # ...and now a 7 lies there: was it turned up, or swapped in?
        t.tracker.observe(_obs(i / 10, [("7O", 105, 250)]))
    assert t.ledger.hand is None
    assert [e.data["kind"] for e in t.store.events() if e.type == "alert"][-1] == "trump_check"
    t.tracker.confirm()
    for i in range(28, 34):
        t.tracker.observe(_obs(i / 10, [("7O", 105, 250)]))
    assert str(t.ledger.hand.record.trump) == "7O"


def test_readings_are_weighed_by_confidence():
    """Confident frames outweigh more numerous unsure ones of a look-alike; equally sure frames
    that disagree stay a misread."""
    from table.tracker import Track
    t = Track(0, 0, "play0", True, 0.0, 0.0)
    for _ in range(6):
        t.add_reading("7B", 0.9)
    for _ in range(5):
        t.add_reading("6B", 0.6)
    code, agreement, _conf = t.reading()
    assert code == "7B" and agreement >= TrackerConfig().min_agreement
    even = Track(0, 0, "play0", True, 0.0, 0.0)
    for _ in range(3):
        even.add_reading("7B", 0.9)
        even.add_reading("6B", 0.9)
    assert even.reading()[1] < TrackerConfig().min_agreement


def test_a_counted_card_that_reads_differently_later_raises_an_alert(tmp_path):
    """The count stands (never a silent re-score); the referee's correction settles it."""
    t = Table(tmp_path)
    _start(t)
    for i in range(6, 14):  # seat 1 leads; the camera reads its card as the 6 of clubs
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("6B", 450, 170)]))
    t.tracker.observe(_obs(1.45, [], moving=True))  # a hand passes; now it clearly reads the 7
    for i in range(15, 23):
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("7B", 450, 170)]))
    assert [e.data["card"] for e in t.store.events() if e.type == "play"] == ["6B"]
    assert [a.data["kind"] for a in t.ledger.alerts] == ["recount"]
    assert "6B" in t.ledger.alerts[0].data["message"] and "7B" in t.ledger.alerts[0].data["message"]
    target = next(e.id for e in t.store.events() if e.type == "play")
    t.store.append(Event("correction", {"target": target, "play": "7B", "by": "referee", "why": "misread"}))
    for i in range(23, 27):
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("7B", 450, 170)]))
    assert not t.ledger.alerts and str(t.ledger.game.current_trick()[0][1]) == "7B"


def test_a_card_already_played_in_a_collected_trick_raises_an_alert(tmp_path):
    t = Table(tmp_path)
    _start(t)
    for i in range(6, 14):  # trick 1: seat 1 leads 6B, seat 0 answers 3C
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("6B", 450, 170)]))
    for i in range(14, 22):
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("6B", 450, 170), ("3C", 450, 330)]))
    assert t.types().count("trick") == 1
    t.tracker.observe(_obs(2.25, [], moving=True))  # collected
    for i in range(23, 30):
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250)]))
    winner = t.ledger.game.turn
    y = 170 if winner == 1 else 330
    for i in range(30, 40):  # the winner leads a card read as the 6B again
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("6B", 450, y)]))
    assert t.types().count("play") == 2
    kinds = [a.data["kind"] for a in t.ledger.alerts]
    assert kinds == ["already_played"] and "trick 1" in t.ledger.alerts[0].data["message"]
    t.tracker.observe(_obs(4.05, [], moving=True))  # the card is taken back
    for i in range(41, 50):
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250)]))
    assert not t.ledger.alerts


def test_a_trick_taken_in_before_every_card_counted_stops_the_count(tmp_path):
    """Seat 0's card was never read and the trick was taken in: the next trick's cards must not be
    counted into this one. The referee enters the missing card and counting resumes."""
    t = Table(tmp_path)
    _start(t)
    for i in range(6, 14):  # seat 1 leads the 1C; seat 0's answer is never readable
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("1C", 450, 170)]))
    t.tracker.observe(_obs(1.45, [], moving=True))  # the trick is taken in
    for i in range(15, 40):
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250)]))
    assert [a.data["kind"] for a in t.ledger.alerts] == ["trick_gone"]
    for i in range(40, 50):  # a card lands in seat 0's zone: whose trick is it? nothing counts
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("4E", 450, 330)]))
    assert [e.data["card"] for e in t.store.events() if e.type == "play"] == ["1C"]
    t.store.append(Event("play", {"seat": 0, "card": "2C", "by": "referee"}))  # from the referee page
    assert t.ledger.game.points == [0, 11] and t.ledger.game.turn == 1
    for i in range(50, 58):
        t.tracker.observe(_obs(i / 10, [("5O", 105, 250), ("4E", 450, 330)]))
    assert not any(a.data["kind"] == "trick_gone" for a in t.ledger.alerts)


def test_a_card_read_the_same_in_many_frames_counts_under_the_confidence_bar(tmp_path):
    """A reader calibrated cautiously names a card at 0.55 frame after frame: enough frames, all
    agreeing, settle it; a few do not, and neither do many that disagree."""
    lay = Layout.for_players(2)
    play = lay.zone_of(450, 170)

    def table_after(readings):
        t = Table(tmp_path / str(len(list(tmp_path.iterdir()))))
        _start(t)
        for i, code in enumerate(readings):
            t.tracker.observe(Observation(0.6 + i / 10, (SeenCard("5O", True, .95, 105, 250, "stock"),
                                                         SeenCard(code, True, 0.55, 450, 170, play))))
        return t

    assert "play" in table_after(["4C"] * 10).types()
    assert "play" not in table_after(["4C"] * 5).types()
    assert "play" not in table_after(["4C", "5C"] * 5).types()


def test_a_reading_of_a_card_the_games_deck_lacks_abstains(tmp_path):
    """An 8 read in a 40-card game (five coins run together measured six) is no card on this
    table: those frames abstain, and the frames that read the 7 count it, with no misread alert."""
    lay = Layout.for_players(2)
    play = lay.zone_of(450, 170)
    t = Table(tmp_path)
    _start(t)
    for i, code in enumerate(["8O", "7O"] * 5):
        t.tracker.observe(Observation(0.6 + i / 10, (SeenCard("5O", True, .95, 105, 250, "stock"),
                                                     SeenCard(code, True, 0.97, 450, 170, play))))
    plays = [e.data["card"] for e in t.store.events() if e.type == "play"]
    assert plays == ["7O"]
    assert not [e for e in t.store.events() if e.type == "alert"]
