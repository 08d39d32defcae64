"""`brisca-table score RECORD [--json]`: replay a record and print the tricks, points and result."""
from __future__ import annotations

import json


def configure(p):
    p.add_argument("record", help="a brisca-record/1 JSON file (or its PBN-style text)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args) -> int:
    from table.cli import UsageError
    from table.record import Record, RecordError

    try:
        rec = Record.load(args.record)
        result = rec.score()
        if rec.rules.auction:
            result.update(contract_result(rec))
    except RecordError as e:
        raise UsageError(f"{args.record}: {e}") from None
    if args.json:
        print(json.dumps(result))
        return 0
    print(format_score(rec, result))
    return 0


def format_score(rec, result) -> str:
    names = rec.seats
    c = result.get("contract")
    trump = rec.trump or (c and c["trump"]) or "-"
    lines = [f"{rec.rules}  trump {trump}  dealer {names[rec.dealer]}"]
    if c is not None:
        lines.append("auction: " + ", ".join(f"{names[b['seat']]} {'pass' if b.get('pass') else b['bid']}"
                                             for b in c["bids"]))
        if c["bidder"] is not None:
            who = ("alone" if c["alone"] else f"partner {names[c['partner']]}" if c["partner"] is not None
                   else "partner not revealed yet")
            lines.append(f"contract: {names[c['bidder']]} bids {c['bid']}, calls {c['call'] or '-'}, "
                         f"trump {c['trump'] or '-'}; {who}")
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
    elif c is not None and c.get("bid") is not None:
        made = result["winner"] == 0
        lines.append(f"result: contract {'made' if made else 'failed'} ({result['points'][0]} of {c['bid']}): "
                     f"{'the bidder' + chr(39) + 's side wins' if made else 'the defenders win'}")
    else:
        lines.append(f"result: {sides[result['winner']]} wins")
    if result.get("match_points"):
        lines.append("match points: " + ", ".join(f"{n} {p:+d}" for n, p in zip(names, result["match_points"])))
    return "\n".join(lines)


def contract_result(rec) -> dict:
    """Subastada: the auction, the call, the trump, the partner once revealed and the match points."""
    from table import subastada

    g, _ = rec.replay()
    if g.contract is None:
        return {"contract": None, "match_points": None}
    mp = subastada.hand_match_points(g) if g.is_over() and g.contract.ready else None
    return {"contract": g.contract.summary(), "match_points": mp}


def side_names(rec):
    if rec.rules.partnerships:
        return [f"{rec.seats[0]}+{rec.seats[2]}", f"{rec.seats[1]}+{rec.seats[3]}"]
    if rec.rules.auction:
        return ["bidder's side", "defenders"]  # who is on which side: see the contract line
    return list(rec.seats)
