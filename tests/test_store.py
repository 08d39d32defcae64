"""The SQLite event log: durable, idempotent, migrating, pruning; and the ledger folded from it."""
import random
import sqlite3

import pytest

from table.events import Event, EventError
from table.game import Game
from table.ledger import Ledger
from table.store import EventStore, StoreError


def test_append_is_durable_and_ordered(tmp_path):
    s = EventStore(tmp_path)
    a = s.append(Event("device", {"name": "camera", "ok": True}))
    b = s.append(Event("alert", {"kind": "out_of_turn", "message": "card out of turn: seat 2"}))
    assert (a.id, b.id) == (1, 2)
    s.close()
    s2 = EventStore(tmp_path)  # a fresh process sees both
    assert [e.type for e in s2.events()] == ["device", "alert"] and s2.last_id == 2
    assert s2.schema_version == 2
    assert sqlite3.connect(tmp_path / "events.sqlite3").execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_keys_make_appends_idempotent(tmp_path):
    s = EventStore(tmp_path)
    first = s.append(Event("play", {"seat": 0, "card": "3C"}, key="m1h1a0"))
    again = s.append(Event("play", {"seat": 0, "card": "3C"}, key="m1h1a0"))
    assert first.id == again.id and len(s.events()) == 1


def test_malformed_events_are_refused():
    with pytest.raises(EventError, match="unknown event type"):
        Event("dance", {})
    with pytest.raises(EventError, match="'seat' must be an integer"):
        Event("play", {"seat": "0", "card": "3C"})


def test_migrates_an_old_schema(tmp_path):
    db = sqlite3.connect(tmp_path / "events.sqlite3")
    db.executescript("""CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, ts REAL NOT NULL, type TEXT NOT NULL,
                             data TEXT NOT NULL, frame TEXT);
        INSERT INTO meta VALUES ('schema', '1');
        INSERT INTO events (ts, type, data) VALUES (1.0, 'device', '{"name": "camera", "ok": true}');""")
    db.commit()
    db.close()
    s = EventStore(tmp_path)
    assert s.schema_version == 2 and s.events()[0].data["name"] == "camera"
    s.append(Event("alert_cleared", {}, key="k"))
    db = sqlite3.connect(tmp_path / "events.sqlite3")
    db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    db.commit()
    s.close()
    with pytest.raises(StoreError, match="newer"):
        EventStore(tmp_path)


def test_frames_are_stored_and_pruned(tmp_path):
    s = EventStore(tmp_path)
    rels = [s.save_frame(b"\xff\xd8fake-jpeg" + bytes(100), kind="trick", name=f"f{i}.jpg") for i in range(5)]
    assert all(s.frame_path(r).exists() for r in rels)
    assert s.prune_frames(max_bytes=250) == 3
    assert sum(s.frame_path(r).exists() for r in rels) == 2
    with pytest.raises(StoreError):
        s.frame_path("../events.sqlite3")


def test_ledger_folds_a_hand_and_a_correction(tmp_path):
    s = EventStore(tmp_path)
    g = Game.random("classic-2", random.Random(3), dealer=1)
    s.append(Event("match_start", {"rules": "classic-2", "seats": ["Ana", "Robot"], "robot_seat": 1}))
    turned = str(g.trump)
    s.append(Event("hand_start", {"dealer": 1, "trump": turned}))
    ids = []
    rng = random.Random(1)
    while not g.is_over():
        a = rng.choice([a for a in g.legal_actions if type(a).__name__ == "Play"])
        seat = g.turn
        g.apply(a)
        ids.append(s.append(Event("play", {"seat": seat, "card": str(a.card)})).id)
    led = Ledger.fold(s.events())
    assert led.game.is_over() and led.game.side_points() == g.side_points()
    assert led.match.match().hands_won == [int(g.outcome().winner == 0), int(g.outcome().winner == 1)]
    st = led.state()
    assert st["hand"]["over"] and st["hand"]["points"] == g.side_points()
    # a correction that breaks the hand is shown as an error, never silently scored
    s.append(Event("correction", {"target": ids[0], "play": turned, "by": "ref", "why": "test"}))
    led = Ledger.fold(s.events())
    assert led.hand.error and "action 0" in led.hand.error
    # undoing the correction's target brings the remaining actions back in order
    s.append(Event("undo", {"target": ids[-1], "by": "ref"}))
    led = Ledger.fold(s.events())
    assert len(led.hand.record.actions) == len(ids) - 1
