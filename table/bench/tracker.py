"""`brisca-table bench tracker`: simulated games through the real pipeline, tracked and compared
with their ground truth; tracker frames per second."""
from __future__ import annotations

import time
from pathlib import Path


def configure(p):
    p.add_argument("--games", type=int, default=100, help="games per preset")
    p.add_argument("--presets", default="classic-2,classic-3,partners-4")
    p.add_argument("--decks", default="builtin,fournier-1878,naipes-libres",
                   help="builtin and/or folder names under ../shared/decks (missing ones are skipped)")
    p.add_argument("--mode", choices=["pixels", "truth"], default="pixels",
                   help="pixels: render and read every frame; truth: ground-truth observations (logic only)")
    p.add_argument("--seed", type=int, default=1000)


def run(args) -> int:
    import tempfile

    import cv2

    from table.events import Event
    from table.ledger import Ledger
    from table.simulation import film_observations, pixel_setup, played_record
    from table.store import EventStore
    from table.tracker import Tracker
    from vision.simgame import GameFilm, SimOptions

    cv2.setNumThreads(1)
    shared = Path(__file__).resolve().parents[2].parent / "shared" / "decks"
    decks = []
    for name in args.decks.split(","):
        if name == "builtin":
            decks.append(("builtin", None))
        elif (shared / name).is_dir():
            decks.append((name, str(shared / name)))
        else:
            print(f"deck {name}: not found under {shared}, skipped")
    print(f"mode {args.mode}; {args.games} games per preset; decks {', '.join(d for d, _ in decks)}; "
          "hands over the table, nudges and glare on")
    total_frames, total_track_s, total_vision_s = 0, 0.0, 0.0
    for preset in args.presets.split(","):
        equal = alerted = silent_wrong = 0
        t_start = time.perf_counter()
        for i in range(args.games):
            seed = args.seed + i
            deck_name, deck_dir = decks[i % len(decks)]
            rec = played_record(preset, seed)
            film = GameFilm(rec, SimOptions(hover_prob=0.15, nudge_prob=0.15), seed)
            setup = pixel_setup(deck_dir, seed) if args.mode == "pixels" else None
            with tempfile.TemporaryDirectory() as tmp:
                store = EventStore(tmp)
                led = Ledger()
                store.add_listener(led.apply)
                store.append(Event("match_start", {"rules": rec.rules.to_json(), "seats": rec.seats,
                                                   "first_dealer": rec.dealer}))
                tracker = Tracker(led, store.append)
                timing = {}
                for obs in film_observations(film, setup, seed, timing):
                    t0 = time.perf_counter()
                    tracker.observe(obs)
                    total_track_s += time.perf_counter() - t0
                    total_frames += 1
                total_vision_s += sum(timing.get("vision", []))
                got = led.hand.record.actions if led.hand else []
                same = [(s, str(a)) for s, a in got] == [(s, str(a)) for s, a in rec.actions]
                raised = any(e.type == "alert" for e in store.events()) or (led.hand is not None and led.hand.error)
                equal += same
                if not same:
                    alerted += bool(raised)
                    silent_wrong += not raised
                store.close()
            done = i + 1
            if done % 5 == 0 or done == args.games:
                el = time.perf_counter() - t_start
                print(f"  {preset}: {done}/{args.games} games, {equal} exact, {el:.0f} s", flush=True)
        n = args.games
        print(f"{preset}: tracked record equals ground truth in {equal}/{n} games ({100 * equal / n:.1f}%); "
              f"of the {n - equal} others, {alerted} raised an alert, {silent_wrong} were wrong in silence")
    if total_frames:
        print(f"tracker alone: {total_frames / total_track_s:,.0f} frames/s over {total_frames} frames "
              f"(needs 10)")
        if total_vision_s:
            per = total_vision_s / total_frames * 1e3
            print(f"vision + tracker per frame: {per + total_track_s / total_frames * 1e3:.1f} ms "
                  f"(= {1000 / (per + total_track_s / total_frames * 1e3):.1f} frames/s on one core; "
                  "moving frames skip recognition)")
    return 0
