"""`brisca-table play`: a hand in the terminal, you at seat 0 typing card codes, the robot elsewhere."""
from __future__ import annotations

import random
import sys


def configure(p):
    p.add_argument("--rules", default="classic-2", help="rules preset")
    p.add_argument("--seed", type=int, default=None, help="deal seed (default: a random deal)")
    p.add_argument("--budget-ms", type=float, default=300.0)
    p.add_argument("--player", default="robot", choices=("robot", "greedy", "random"),
                   help="who plays the other seats")
    p.add_argument("--lang", default="es", choices=("es", "en"))


def run(args) -> int:
    from table.cards import CARDS_BY_INDEX, CardError
    from table.cli import UsageError
    from table.game import Game, IllegalAction, UNKNOWN, parse_action
    from table.robot.announce import announce
    from table.robot.players import make_player
    from table.rules import Rules, RulesError

    try:
        rules = Rules.parse(args.rules)
    except RulesError as e:
        raise UsageError(str(e)) from None
    if rules.auction:
        raise UsageError("Subastada cannot be played here yet")
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    g = Game.random(rules, random.Random(seed), dealer=rules.players - 1)
    bot = make_player(args.player, args.budget_ms, seed)
    out = sys.stdout
    out.write(f"{rules}  seed {seed}  trump {g.trump} ({g.trump.suit.name_es()})\n"
              "You are seat 0. Type a card code (3C, 12B, 1O) or 'swap 7O'; 'q' quits.\n")
    while not g.is_over():
        seat = g.turn
        if seat == 0:
            view = g.view(0)
            hand = " ".join(str(CARDS_BY_INDEX[c]) for c in sorted(view.hands[0]) if c != UNKNOWN)
            table = " ".join(f"{s}:{CARDS_BY_INDEX[c]}" for s, c in g.trick) or "-"
            out.write(f"\ntrick {table}   stock {g.stock_count}   points {g.side_points()}\n"
                      f"your hand: {hand}   legal: {' '.join(map(str, g.legal_actions))}\n> ")
            out.flush()
            line = sys.stdin.readline()
            if not line or line.strip().lower() in ("q", "quit", "exit"):
                out.write("bye\n")
                return 0
            try:
                action = parse_action(line.strip())
                trick = g.apply(action, 0)
            except (CardError, IllegalAction) as e:
                out.write(f"not allowed: {e}\n")
                continue
        else:
            action = bot.choose(g.view(seat))
            out.write(f"seat {seat}: {announce(action, g.view(seat), args.lang)}\n")
            trick = g.apply(action, seat)
        if trick is not None:
            out.write(f"  trick to seat {trick.winner} (+{trick.points})\n")
    o = g.outcome()
    out.write(f"\npoints {list(o.points)}: " + ("draw\n" if o.winner is None else f"side {o.winner} wins\n"))
    return 0
