"""A simulated game written to the event log the way the tracker would: match and hand starts,
plays (with settle frames when asked) and trick events with a photo. Used by the tests, the
screenshots and `brisca-table bench web`."""
from __future__ import annotations

import random
from typing import Callable, Iterator, List, Optional

from table.events import Event
from table.game import Game, Play


def frame_jpeg(text: str, size=(240, 160), colour=(40, 90, 60)) -> bytes:
    """A small labelled JPEG standing in for a camera frame."""
    import cv2
    import numpy as np

    w, h = size
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = colour
    cv2.rectangle(img, (8, 8), (w - 8, h - 8), (230, 230, 230), 2)
    cv2.putText(img, text, (16, h // 2 + 10), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (255, 255, 255), 2, cv2.LINE_AA)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 70])
    assert ok
    return buf.tobytes()


def start_match(store, rules="classic-2", seats=("Ana", "Robot"), robot_seat: Optional[int] = 1) -> Event:
    return store.append(Event("match_start", {"rules": rules, "seats": list(seats), "robot_seat": robot_seat}))


def play_hand(store, seed: int = 3, rules="classic-2", dealer: int = 0, frames: bool = False,
              upto: Optional[int] = None, on_event: Optional[Callable[[Event], None]] = None) -> Iterator[Event]:
    """Deal a random hand and append its events one by one (a generator: the caller paces it).
    ``upto`` stops after that many plays."""
    g = Game.random(rules, random.Random(seed), dealer=dealer)
    yield store.append(Event("hand_start", {"dealer": dealer, "trump": str(g.trump)}))
    rng = random.Random(seed + 1)
    plays = 0
    while not g.is_over() and (upto is None or plays < upto):
        a = rng.choice([a for a in g.legal_actions if isinstance(a, Play)])
        seat = g.turn
        t = g.apply(a)
        rel = store.save_frame(frame_jpeg(f"{seat}: {a.card}"), kind="settle") if frames else None
        yield store.append(Event("play", {"seat": seat, "card": str(a.card), "confidence": 0.97}, frame=rel))
        plays += 1
        if t is not None:
            rel = store.save_frame(frame_jpeg("  ".join(str(c) for _, c in t.plays), (320, 200), (30, 60, 110)),
                                   kind="trick") if frames else None
            yield store.append(Event("trick", {"winner": t.winner, "points": t.points, "number": len(g.tricks)},
                                     frame=rel))
    if g.is_over():
        out = g.outcome()
        yield store.append(Event("hand_end", {"points": list(out.points), "winner": out.winner}))


def append_hand(store, **kw) -> List[Event]:
    return list(play_hand(store, **kw))


def simulated_events(n: int, seed: int = 1, rules="classic-2", seats=("Ana", "Robot")) -> List[Event]:
    """``n`` unstored events of simulated hands (a match start, then hand starts, plays, tricks and
    hand ends), for timing the appends themselves."""
    out: List[Event] = [Event("match_start", {"rules": rules, "seats": list(seats), "robot_seat": 1})]
    rng = random.Random(seed)
    hand = 0
    while len(out) < n:
        g = Game.random(rules, random.Random(rng.random()), dealer=hand % len(seats))
        out.append(Event("hand_start", {"dealer": g.dealer, "trump": str(g.trump)}))
        while not g.is_over():
            a = rng.choice([a for a in g.legal_actions if isinstance(a, Play)])
            seat = g.turn
            t = g.apply(a)
            out.append(Event("play", {"seat": seat, "card": str(a.card), "confidence": 0.97}))
            if t is not None:
                out.append(Event("trick", {"winner": t.winner, "points": t.points, "number": len(g.tricks)}))
        o = g.outcome()
        out.append(Event("hand_end", {"points": list(o.points), "winner": o.winner}))
        hand += 1
    return out[:n]
