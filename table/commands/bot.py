"""`brisca-table bot`: answer bot-protocol requests on stdin with one JSON line each (docs/bot-protocol.md)."""
from __future__ import annotations

import sys


def configure(p):
    p.add_argument("--player", default="robot", choices=("robot", "greedy", "random"))
    p.add_argument("--budget-ms", type=float, default=300.0, help="robot search budget per decision")
    p.add_argument("--seed", type=int, default=0)


def run(args) -> int:
    from table.robot.players import make_player
    from table.robot.protocol import serve

    return serve(make_player(args.player, args.budget_ms, args.seed), sys.stdin, sys.stdout)
