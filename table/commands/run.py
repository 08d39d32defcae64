"""`brisca-table run`: the table service. Until the service lands: a hand between two computer players."""
from __future__ import annotations

import random
import time


def configure(p):
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--rules", default="classic-2")
    p.add_argument("--delay", type=float, default=0.3, help="seconds between tricks")


def run(args) -> int:
    from table.commands.score import format_score
    from table.game import Game
    from table.record import Record
    from table.rules import Rules

    rng = random.Random(args.seed)
    rules = Rules.parse(args.rules)
    seats = ["Ana", "Luis", "Marta", "Pablo", "Rosa"][:rules.players]
    g = Game.random(rules, rng)
    deck_seen = None
    while not g.is_over():
        t = g.apply(rng.choice(list(g.legal_actions)))
        if t is not None:
            cards = "  ".join(f"{seats[s]} {c}" for s, c in t.plays)
            print(f"trick {len(g.tricks):2d}: {cards} -> {seats[t.winner]} +{t.points}  points {g.side_points()}",
                  flush=True)
            time.sleep(args.delay)
    rec = Record.from_game(g, seats, deck_seen)
    print(format_score(rec, rec.score()))
    return 0
