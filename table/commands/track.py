"""`brisca-table track (VIDEO | FRAMES_DIR) --rules PRESET --zones ZONES.json [--json]
[--correct EVENT=CARD ...]`.

Corrections name a play or swap by its event id (as printed by an earlier run: the same recording
gives the same ids) and are applied the moment that event is stored, as a referee at the table
would, so the rest of the recording is tracked from the corrected hand."""
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
    p.add_argument("--correct", action="append", default=[], metavar="EVENT=CARD",
                   help="replace the reading of play/swap event EVENT by CARD (repeatable)")
    p.add_argument("--by", default="cli", help="who makes the corrections (kept with them)")
    p.add_argument("--why", default="misread", help="why (kept with the corrections)")


def run(args) -> int:
    import tempfile

    from table.cli import UsageError
    from table.events import Event
    from table.ledger import Ledger
    from table.rules import Rules, RulesError
    from table.store import EventStore
    from table.tracker import Tracker
    from vision.calibrate import CalibrationError, Zones, calibrate_markers
    from vision.observe import Observer
    from vision.sources import SourceError, open_source

    try:
        rules = Rules.parse(args.rules)
    except RulesError as e:
        raise UsageError(str(e)) from None
    try:
        raw = json.loads(Path(args.zones).read_text())
        zones = Zones.from_json(raw)
    except (OSError, ValueError, KeyError) as e:
        raise UsageError(f"{args.zones}: not a usable zones file ({e})") from None
    seats = args.seats.split(",") if args.seats else [f"P{i}" for i in range(rules.players)]
    if len(seats) != rules.players:
        raise UsageError(f"--seats names {len(seats)} seats, {rules.preset} has {rules.players}")
    corrections = _parse_corrections(args.correct)
    try:
        source = open_source(args.source)
    except SourceError as e:
        raise UsageError(str(e)) from None
    from vision import synth
    from vision.identify import Templates
    from vision.recognise import Recogniser

    ident = Templates.from_folder(args.deck) if args.deck else Templates.from_deck(synth.builtin(48))
    observer = None
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(tmp)
        led = Ledger()
        store.add_listener(led.apply)
        store.append(Event("match_start", {"rules": rules.to_json(), "seats": seats, "first_dealer": args.dealer}))
        tracker = Tracker(led, store.append)
        for i, frame in enumerate(source):
            if observer is None:  # the table's ArUco corner markers give the calibration
                try:
                    cal = calibrate_markers(frame.image, zones.width_mm, zones.height_mm)
                except CalibrationError as e:
                    if i == 0:
                        print(f"calibration: {e}; waiting for a frame with the markers", file=sys.stderr)
                    continue
                observer = Observer(Recogniser(ident, card_long_px=cal.card_long_px()), cal.image_to_table,
                                    lambda x, y: zones.locate((x, y)))
            tracker.observe(observer.observe(frame.image, i / args.fps, i))
            if corrections:
                _apply_corrections(corrections, store, led, args)
        source.close()
        if corrections:
            raise UsageError("--correct names events that were never plays or swaps: "
                             + ", ".join(str(t) for t in sorted(corrections)))
        if observer is None:
            raise UsageError(f"{args.source}: no frame showed the table's corner markers (ids 0-3, DICT_4X4_50)")
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


def _parse_corrections(items):
    from table.cards import Card, CardError
    from table.cli import UsageError

    out = {}
    for item in items:
        target, _, code = item.partition("=")
        try:
            out[int(target)] = Card.parse(code).code
        except (ValueError, CardError):
            raise UsageError(f"--correct {item!r}: expected EVENT=CARD, like 17=7B") from None
    return out


def _apply_corrections(pending: dict, store, led, args) -> None:
    """Append the corrections whose target is now stored (and drop them from ``pending``)."""
    from table.cli import UsageError
    from table.events import Event
    from table.game import Swap

    last = store.last_id
    for target in sorted(t for t in pending if t <= last):
        h, idx = led.find_action(target)
        if h is None:
            raise UsageError(f"--correct {target}: event {target} is not a play or swap")
        kind = "swap" if isinstance(h.record.actions[idx][1], Swap) else "play"
        store.append(Event("correction", {"target": target, kind: pending.pop(target), "by": args.by,
                                          "why": args.why}))
