"""`brisca-table score RECORD [--json]`: replay a record and print the tricks, points and result."""
from __future__ import annotations

import json
import sys


def configure(p):
    p.add_argument("record", help="a brisca-record/1 JSON file (or its PBN-style text)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args) -> int:
    from table.cli import UsageError
    from table.record import Record, RecordError

    try:
        rec = Record.load(args.record)
        result = rec.score()
    except RecordError as e:
        raise UsageError(f"{args.record}: {e}") from None
    if args.json:
        print(json.dumps(result))
        return 0
    print(format_score(rec, result))
    return 0


def format_score(rec, result) -> str:
    names = rec.seats
    lines = [f"{rec.rules}  trump {rec.trump or '-'}  dealer {names[rec.dealer]}"]
    for i, t in enumerate(result["tricks"], 1):
        cards = "  ".join(f"{names[c['seat']]} {c['card']}" for c in t["cards"])
        lines.append(f"{i:2d}. {cards}  -> {names[t['winner']]} +{t['points']}")
    sides = side_names(rec)
    pts = ", ".join(f"{s} {p}" for s, p in zip(sides, result["points"]))
    lines.append(f"points: {pts}")
    if not result["complete"]:
        lines.append("result: hand not finished")
    elif result["winner"] is None:
        lines.append("result: draw")
    else:
        lines.append(f"result: {sides[result['winner']]} wins")
    return "\n".join(lines)


def side_names(rec):
    if rec.rules.partnerships:
        return [f"{rec.seats[0]}+{rec.seats[2]}", f"{rec.seats[1]}+{rec.seats[3]}"]
    if rec.rules.auction:
        return ["bidder's side", "defenders"]
    return list(rec.seats)
