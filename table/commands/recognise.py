"""`brisca-table recognise IMAGE... [--deck DECKDIR | --learn] [--json]`: every card in still images."""
from __future__ import annotations

import json
import sys


def configure(p):
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--deck", metavar="DECKDIR",
                   help="enrolled deck (from `enroll`) or a folder of card images named by code; "
                        "without it the deck-agnostic reader is used")
    p.add_argument("--learn", action="store_true",
                   help="without --deck: learn the deck from the surest readings of the images "
                        "read so far, and read covered cards with it (images of one game, in order)")
    p.add_argument("--json", action="store_true", help="one JSON object per image, one per line")
    p.add_argument("--threshold", type=float, default=0.5,
                   help="confidence below which a card is reported as unknown (null)")
    p.add_argument("--calibration", metavar="FILE", help="table calibration JSON (card size hint)")


def run(args) -> int:
    import cv2

    from table.cli import UsageError
    from vision.recognise import Recogniser
    from vision.sources import read_image

    cv2.setNumThreads(1)
    if args.deck:
        from vision.identify import Templates

        try:
            identifier = Templates.from_folder(args.deck)
        except (OSError, ValueError) as e:
            raise UsageError(f"cannot load deck {args.deck}: {e}")
    elif args.learn:
        from vision.learn import Learner

        identifier = Learner()
    else:
        from vision.agnostic import Reader

        identifier = Reader()
    hint = None
    if args.calibration:
        from vision.calibrate import Calibration

        hint = Calibration.load(args.calibration).card_long_px()
    rec = Recogniser(identifier, threshold=args.threshold, card_long_px=hint)
    failed = 0
    for path in args.images:
        img = read_image(path, warn=False)  # reported below, one line per file
        if img is None:
            failed += 1
            msg = f"{path}: cannot read image (missing, corrupt or not an image)"
            if args.json:
                print(json.dumps({"image": path, "error": msg}), flush=True)
            print(f"brisca-table recognise: {msg}", file=sys.stderr, flush=True)
            continue
        seen = rec.recognise(img)
        if args.json:
            print(json.dumps({"image": path, "cards": [s.as_json() for s in seen]}), flush=True)
        else:
            print(f"{path}: {len(seen)} card(s)")
            for s in seen:
                name = s.code or ("back" if not s.face_up else "unknown")
                cx, cy = s.corners.mean(axis=0)
                print(f"  {name:8} {s.confidence:5.2f}  at ({cx:.0f}, {cy:.0f})")
    return 1 if failed else 0
