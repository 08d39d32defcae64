"""`brisca-table simulate --rules PRESET --seed N --out DIR`: a rendered game with its ground truth."""
from __future__ import annotations

import json
from pathlib import Path


def configure(p):
    p.add_argument("--rules", default="classic-2")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="folder for frames/, zones.json and record.json")
    p.add_argument("--deck", default=None, help="a folder of card images named by code (default: built-in deck)")
    p.add_argument("--dealer", type=int, default=0)


def run(args) -> int:
    import cv2

    from table.cli import UsageError
    from table.rules import Rules, RulesError
    from table.simulation import pixel_setup, played_record
    from vision.simgame import GameFilm, SimOptions, render_frame

    try:
        rules = Rules.parse(args.rules)
    except RulesError as e:
        raise UsageError(str(e)) from None
    if not 0 <= args.dealer < rules.players:
        raise UsageError(f"--dealer must be a seat 0..{rules.players - 1}")
    out = Path(args.out)
    (out / "frames").mkdir(parents=True, exist_ok=True)
    rec = played_record(rules, args.seed, dealer=args.dealer)
    setup = pixel_setup(args.deck, args.seed, size=rules.deck_size)
    film = GameFilm(rec, SimOptions(), args.seed)
    n = 0
    for f in film.frames():
        r = render_frame(f, setup.deck, setup.camera, setup.table, setup.nuisances, args.seed)
        cv2.imwrite(str(out / "frames" / f"frame_{f.index:05d}.jpg"), r.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        n += 1
        if n % 100 == 0:
            print(f"  {n} frames", flush=True)
    (out / "zones.json").write_text(json.dumps(film.layout.to_json(), indent=1))
    (out / "record.json").write_text(rec.dumps())
    print(f"{n} frames at 10 fps in {out / 'frames'}; zones in {out / 'zones.json'}; "
          f"ground truth in {out / 'record.json'}")
    print(f"track it: brisca-table track {out / 'frames'} --rules {args.rules} --zones {out / 'zones.json'} "
          f"--dealer {args.dealer}")
    return 0
