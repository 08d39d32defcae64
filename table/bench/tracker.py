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
    p.add_argument("--agnostic", action="store_true",
                   help="read the cards as for a deck nobody enrolled: the deck-agnostic reader, "
                        "learning the deck from its surest readings as the game goes (`vision.learn`)")
    p.add_argument("--no-settle", action="store_true",
                   help="read every card in every still frame, as before `vision.settled` (to measure "
                        "what keeping the readings of cards lying still saves)")
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--jobs", type=int, default=1, help="games run in parallel processes")


def one_game(job):
    """Track one simulated game; returns (exact, alerted, frames, tracker seconds, vision seconds)."""
    import tempfile

    import cv2

    from table.events import Event
    from table.ledger import Ledger
    from table.simulation import film_observations, pixel_setup, played_record
    from table.store import EventStore
    from table.tracker import Tracker
    from vision.simgame import GameFilm, SimOptions

    cv2.setNumThreads(1)
    preset, seed, deck_dir, mode, agnostic, settle = job
    rec = played_record(preset, seed)
    film = GameFilm(rec, SimOptions(hover_prob=0.15, nudge_prob=0.15), seed)
    setup = pixel_setup(deck_dir, seed, enrolled=not agnostic, size=rec.rules.deck_size) \
        if mode == "pixels" else None
    frames, track_s = 0, 0.0
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(tmp)
        led = Ledger()
        store.add_listener(led.apply)
        store.append(Event("match_start", {"rules": rec.rules.to_json(), "seats": rec.seats,
                                           "first_dealer": rec.dealer}))
        tracker = Tracker(led, store.append)
        timing = {}
        for obs in film_observations(film, setup, seed, timing, settle=settle):
            t0 = time.perf_counter()
            tracker.observe(obs)
            track_s += time.perf_counter() - t0
            frames += 1
        got = led.hand.record.actions if led.hand else []
        same = [(s, str(a)) for s, a in got] == [(s, str(a)) for s, a in rec.actions]
        raised = any(e.type == "alert" for e in store.events()) or bool(led.hand is not None and led.hand.error)
        store.close()
    return same, raised, frames, track_s, sum(timing.get("vision", [])), \
        (sum(timing.get("still", [])), len(timing.get("still", ())), timing.get("kept", 0),
         timing.get("read", 0), timing.get("frames kept", 0))


def run(args) -> int:
    shared = Path(__file__).resolve().parents[2].parent / "shared" / "decks"
    decks = []
    for name in args.decks.split(","):
        if name == "builtin":
            decks.append(("builtin", None))
        elif (shared / name).is_dir():
            decks.append((name, str(shared / name)))
        else:
            print(f"deck {name}: not found under {shared}, skipped")
    reader = "deck-agnostic reader, learning the deck" if args.agnostic else "enrolled deck"
    if args.no_settle:
        reader += ", every card read in every still frame"
    print(f"mode {args.mode}; {args.games} games per preset; decks {', '.join(d for d, _ in decks)}; "
          f"{reader}; hands over the table, nudges and glare on; {args.jobs} process(es)", flush=True)
    pool = None
    if args.jobs > 1:
        import multiprocessing
        pool = multiprocessing.get_context("spawn").Pool(args.jobs)
    total_frames, total_track_s, total_vision_s = 0, 0.0, 0.0
    still = (0.0, 0, 0, 0, 0)  # still frames' seconds, count, cards kept, read, frames kept
    try:
        for preset in args.presets.split(","):
            jobs = [(preset, args.seed + i, decks[i % len(decks)][1], args.mode, args.agnostic,
                     not args.no_settle) for i in range(args.games)]
            results = pool.imap(one_game, jobs) if pool else map(one_game, jobs)
            equal = alerted = silent = 0
            t_start = time.perf_counter()
            per_deck = {}
            misses = []
            for i, (same, raised, frames, track_s, vision_s, game_still) in enumerate(results, 1):
                still = tuple(a + b for a, b in zip(still, game_still))
                deck_name = decks[(i - 1) % len(decks)][0]
                if not same:
                    misses.append(f"seed {args.seed + i - 1} ({deck_name}, {'alert' if raised else 'SILENT'})")
                d = per_deck.setdefault(deck_name, [0, 0])
                d[0] += same
                d[1] += 1
                equal += same
                alerted += (not same) and raised
                silent += (not same) and not raised
                total_frames += frames
                total_track_s += track_s
                total_vision_s += vision_s
                if i % 5 == 0 or i == args.games:
                    print(f"  {preset}: {i}/{args.games} games, {equal} exact, "
                          f"{time.perf_counter() - t_start:.0f} s", flush=True)
            n = args.games
            decks_txt = ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in per_deck.items())
            print(f"{preset}: tracked record equals ground truth in {equal}/{n} games "
                  f"({100 * equal / n:.1f}%; {decks_txt}); of the {n - equal} others, {alerted} raised an "
                  f"alert, {silent} were wrong in silence", flush=True)
            if misses:
                print(f"  not exact: {'; '.join(misses)}", flush=True)
    finally:
        if pool:
            pool.close()
    if total_frames:
        print(f"tracker alone: {total_frames / total_track_s:,.0f} frames/s over {total_frames} frames "
              "(needs 10)")
        if total_vision_s:
            per = (total_vision_s + total_track_s) / total_frames * 1e3
            print(f"vision + tracker per frame: {per:.1f} ms mean (= {1000 / per:.0f} frames/s on one core; "
                  "moving frames skip recognition)")
        still_s, still_n, kept, read, frames_kept = still
        if still_n:
            print(f"vision per still frame: {still_s / still_n * 1e3:.1f} ms mean over {still_n} frames; "
                  f"{kept} of {kept + read} cards kept from the frame before, unread, and the "
                  f"detections of {frames_kept} frames (vision.settled)")
    return 0
