"""`brisca-table bench rules`: complete random 2-player hands per second on one core."""
from __future__ import annotations

import random
import time


def configure(p):
    p.add_argument("--rules", default="classic-2")
    p.add_argument("--seconds", type=float, default=3.0, help="time to spend on each measurement")
    p.add_argument("--seed", type=int, default=1)


def _measure(fn, seconds):
    n, t0 = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        if n % 64 == 0 and time.perf_counter() - t0 >= seconds:
            return n, time.perf_counter() - t0


def run(args) -> int:
    from table.game import Game
    from table.rules import Rules

    rules = Rules.parse(args.rules)
    rng = random.Random(args.seed)

    def fast():
        Game.random(rules, rng).random_playout(rng)

    def checked():
        g = Game.random(rules, rng)
        while not g.is_over():
            g.apply(rng.choice(list(g.legal_actions)))

    print(f"rules {rules}; one core; {args.seconds:g} s per measurement")
    for name, fn in (("search path (deal + fast_play playout)", fast),
                     ("checked path (legal_actions + apply, swaps included)", checked)):
        n, dt = _measure(fn, args.seconds)
        print(f"{name}: {n / dt:,.0f} complete hands/s ({n} hands in {dt:.2f} s)")
    return 0
