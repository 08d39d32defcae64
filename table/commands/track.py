"""`brisca-table track (VIDEO | FRAMES_DIR) --rules PRESET --zones ZONES.json [--json]`."""
from __future__ import annotations

import json
import sys
from pathlib import Path


def configure(p):
    p.add_argument("source", help="a video file or a folder of frames (played at --fps)")
    p.add_argument("--rules", default="classic-2")
    p.add_argument("--zones", required=True, help="zones JSON (table mm polygons, and the calibration)")
    p.add_argument("--deck", default=None, help="enrolled deck folder (default: the built-in deck)")
    p.add_argument("--dealer", type=int, default=0, help="the seat that dealt the first hand")
    p.add_argument("--seats", default=None, help="comma-separated names in playing order")
    p.add_argument("--fps", type=float, default=10.0)
    p.add_argument("--json", action="store_true")


def run(args) -> int:
    import tempfile

    import numpy as np

    from table.cli import UsageError
    from table.events import Event
    from table.ledger import Ledger
    from table.rules import Rules, RulesError
    from table.store import EventStore
    from table.tracker import Tracker
    from vision.observe import Observer

    try:
        rules = Rules.parse(args.rules)
        zones = json.loads(Path(args.zones).read_text())
        h = np.array(zones["image_to_table"], dtype=np.float64)
        polys = {k: [tuple(p) for p in v] for k, v in zones["zones"].items()}
    except RulesError as e:
        raise UsageError(str(e)) from None
    except (OSError, ValueError, KeyError) as e:
        raise UsageError(f"{args.zones}: not a usable zones file ({e})") from None
    seats = args.seats.split(",") if args.seats else [f"P{i}" for i in range(rules.players)]
    if len(seats) != rules.players:
        raise UsageError(f"--seats names {len(seats)} seats, {rules.preset} has {rules.players}")
    from vision.simgame import _inside
    from vision.identify import Templates
    from vision.recognise import Recogniser
    from vision import synth

    def zone_of(x, y):
        return next((k for k, poly in polys.items() if _inside(poly, x, y)), None)

    ident = Templates.from_folder(args.deck) if args.deck else Templates.from_deck(synth.builtin(48))
    observer = Observer(Recogniser(ident), h, zone_of)
    frames = _frames(args.source, args.fps)
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(tmp)
        led = Ledger()
        store.add_listener(led.apply)
        store.append(Event("match_start", {"rules": rules.to_json(), "seats": seats, "first_dealer": args.dealer}))
        tracker = Tracker(led, store.append)
        for i, (ts, img) in enumerate(frames):
            tracker.observe(observer.observe(img, ts, i))
        events = store.events()
        hand = led.hand
        score = hand.record.score() if hand and not hand.error else None
        if args.json:
            print(json.dumps({"events": [e.to_json() for e in events], "score": score,
                              "record": hand.record.to_json() if hand else None}))
        else:
            for e in events:
                print(f"{e.id:4d} {e.type:12s} {json.dumps(e.data, ensure_ascii=False)}")
            if score:
                print(f"points {score['points']}  winner {score['winner']}  complete {score['complete']}")
            elif hand and hand.error:
                print(f"the hand needs a correction: {hand.error}", file=sys.stderr)
        store.close()
    return 0


def _frames(source: str, fps: float):
    """(timestamp, BGR image) from a folder of images (sorted by name) or a video file."""
    import cv2

    from table.cli import UsageError

    p = Path(source)
    if p.is_dir():
        files = sorted(f for f in p.iterdir() if f.suffix.lower() in (".jpg", ".jpeg", ".png", ".bmp"))
        if not files:
            raise UsageError(f"{source}: no images")
        for i, f in enumerate(files):
            img = cv2.imread(str(f))
            if img is None:
                print(f"{f}: not a readable image, skipped", file=sys.stderr)
                continue
            yield i / fps, img
        return
    cap = cv2.VideoCapture(str(p))
    if not cap.isOpened():
        raise UsageError(f"{source}: cannot open as a video or a folder")
    i = 0
    while True:
        ok, img = cap.read()
        if not ok:
            break
        yield i / fps, img
        i += 1
    cap.release()
