"""The simulated table for the demo and the service tests: people at a table, filmed.

It knows each hand's shuffled deck (from the seed), plays the human seats with the greedy player, and
for the robot's seat waits until the robot has announced its move and then "a person" places that
card. It reads the table's state only from the ledger (what the service stored), so after a crash it
rebuilds the same world from the event log and carries on where the table was.
"""
from __future__ import annotations

import random
import threading
import time
from typing import Callable, Iterator, Tuple

from table.cards import deck as make_deck
from table.game import Game, parse_action
from table.record import Record


class SimulatedTable:
    """Yields (timestamp, frame) where a frame is an image (pixels) or a ready Observation (truth)."""

    def __init__(self, read_ledger: Callable, seed: int = 1, mode: str = "pixels", deck_dir: str = "",
                 fps: float = 10.0, realtime: bool = True, max_hands: int = 0) -> None:
        self.read_ledger = read_ledger   # a function returning a consistent snapshot (see service)
        self.seed = seed
        self.mode = mode
        self.deck_dir = deck_dir or None
        self.fps = fps
        self.realtime = realtime
        self.max_hands = max_hands
        self.stopped = threading.Event()
        self.hands_filmed = 0
        self.finished = False
        self.image_to_table = None
        self.layout = None

    def stop(self) -> None:
        self.stopped.set()

    def frames(self) -> Iterator[Tuple[float, object]]:
        from table.robot.players import make_player
        from table.simulation import pixel_setup
        from vision.simgame import GameFilm, SimOptions, render_frame, truth_observation

        t0 = time.monotonic()
        k = 0
        setup = None
        while not self.stopped.is_set():
            snap = self.read_ledger()
            if snap is None or snap["match"] is None:
                time.sleep(0.05)
                continue
            m = snap["match"]
            hand_no = len(m.hands) + (0 if m.hands and not m.hands[-1].complete else 1)
            if self.max_hands and sum(h.complete for h in m.hands) >= self.max_hands:
                self.finished = True  # the stored match has as many hands as asked for
                return
            rules = m.rules
            seed = self.seed * 1_000_003 + m.number * 1009 + hand_no
            cards = make_deck(rules.deck_size)
            random.Random(seed).shuffle(cards)
            dealer = m.match().dealer if not (m.hands and not m.hands[-1].complete) else m.hands[-1].record.dealer
            rec = Record(rules, m.seats, dealer, None, [], cards)
            world = Game.deal(rules, cards, dealer)
            rec.trump = world.trump
            done = list(m.hands[-1].record.effective_actions()) if (m.hands and not m.hands[-1].complete) else []
            state = {"catching_up": bool(done)}
            greedy = make_player("greedy", seed=seed)
            robot_seat = m.robot_seat

            def actions():
                for seat, a in done:  # fast-forward over what the log already holds
                    world.apply(a, seat)
                    yield seat, a
                state["catching_up"] = False
                while not world.is_over() and not self.stopped.is_set():
                    seat = world.turn
                    if seat == robot_seat:
                        snap2 = self.read_ledger()
                        ann = snap2.get("announcement") if snap2 else None
                        act = None
                        if ann and ann.get("seat") == seat and ann.get("action"):
                            act = parse_action(ann["action"])
                            if act not in world.legal_actions:
                                act = None
                        if act is None:
                            yield None  # the robot is thinking: the table waits
                            continue
                    else:
                        act = greedy.choose(world.view(seat))
                    world.apply(act, seat)
                    yield seat, act

            opts = SimOptions(robot_seat=robot_seat, hover_prob=0.1, nudge_prob=0.1)
            film = GameFilm(rec, opts, seed, actions())
            self.layout = film.layout
            if self.mode == "pixels" and setup is None:  # one camera and cloth for the whole session
                from vision.geometry import Camera
                # the demo's camera is mounted as hardware.md says: centred, 75 cm up, square on
                setup = pixel_setup(self.deck_dir, self.seed, size=rules.deck_size, camera=Camera())
            for f in film.frames():
                if self.stopped.is_set():
                    return
                if state["catching_up"]:
                    continue
                if self.realtime:
                    k += 1
                    delay = t0 + k / self.fps - time.monotonic()
                    if delay > 0:
                        time.sleep(delay)
                    elif delay < -1.0:
                        t0 -= delay  # we fell behind (a slow machine): do not race to catch up
                ts = time.time()
                if setup is None:
                    yield ts, truth_observation(f, film.layout)
                else:
                    r = render_frame(f, setup.deck, setup.camera, setup.table, setup.nuisances, seed)
                    if self.image_to_table is None:
                        import numpy as np
                        self.image_to_table = np.linalg.inv(r.homography)
                    yield ts, r.image
            self.hands_filmed += 1
            # wait until the service has seen the hand end before filming the next one
            deadline = time.monotonic() + 5
            while not self.stopped.is_set() and time.monotonic() < deadline:
                snap = self.read_ledger()
                mm = snap["match"] if snap else None
                if mm and (not mm.hands or mm.hands[-1].complete or mm is not m):
                    break
                time.sleep(0.05)
