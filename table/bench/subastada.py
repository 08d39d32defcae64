"""`brisca-table bench subastada`: the Subastada robot in one seat, four greedy players in the others.

Each deal is played twice with the same cards and dealer: once with the robot in seat ``r`` and once
with the greedy player in that seat (an all-greedy table). The report gives the robot's mean match
points per hand, the mean of the four greedy players at the robot's table, and the duplicate
baseline (the greedy player's mean in the same seat with the same cards), with 95% confidence
intervals (normal approximation). The robot's seat and the dealer rotate over the deals. Deals are
spread over worker processes; every figure is measured, none is hard-coded.
"""
from __future__ import annotations

import json
import math
import random
import sys
import time


def configure(p):
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--worlds", type=int, default=64, help="robot: determinized worlds per card decision")
    p.add_argument("--bid-samples", type=int, default=48, help="robot: sampled deals per candidate contract")
    p.add_argument("--jobs", type=int, default=0, help="worker processes (0: one per CPU)")
    p.add_argument("--progress", type=int, default=50, help="print a progress line every N deals (0: never)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object too")


def play_hand(rules, deck, dealer, players):
    """One Subastada hand: auction, call, trump and 8 tricks. Returns (game, decision times of seat 'timed')."""
    from table import subastada as S
    from table.game import Game
    g = Game.deal(rules, deck, dealer)
    c = S.Contract.start(g)
    while not c.ready:
        seat = c.to_act
        c.apply(g, seat, players[seat].choose(g.view(seat)))
    while not g.is_over():
        seat = g.turn
        g.apply(players[seat].choose(g.view(seat)), seat)
    return g


def one_deal(job):
    """Worker: the deal with the robot in its seat, and the all-greedy duplicate."""
    from table import subastada as S
    from table.game import deck_indices
    from table.robot.subastada import SubastadaGreedy, SubastadaRobot
    from table.rules import Rules
    d, seed, worlds, bid_samples = job
    rules = Rules.parse("subastada-5")
    deck = list(deck_indices(40))
    random.Random(seed * 1_000_003 + d).shuffle(deck)
    dealer, r = (d // 5) % 5, d % 5
    greedy = SubastadaGreedy()
    robot = SubastadaRobot(seed=seed, worlds=worlds, bid_samples=bid_samples)
    t0 = time.process_time()
    g = play_hand(rules, deck, dealer, [robot if s == r else greedy for s in range(5)])
    cpu = time.process_time() - t0
    b = play_hand(rules, deck, dealer, [greedy] * 5)
    mp, mb = S.hand_match_points(g), S.hand_match_points(b)
    c, cb = g.contract, b.contract
    return {"deal": d, "robot": mp[r], "greedy": sum(mp[s] for s in range(5) if s != r) / 4,
            "baseline": mb[r], "robot_bid": c.bidder == r, "robot_made": c.bidder == r and g.outcome().winner == 0,
            "robot_partner": c.partner == r and c.bidder != r, "bid": c.high,
            "baseline_bid": cb.bidder == r, "baseline_made": cb.bidder == r and b.outcome().winner == 0,
            "made": g.outcome().winner == 0, "cpu_s": cpu}


def _ci(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return m, 1.96 * sd / math.sqrt(n) if n > 1 else float("nan")


def summarize(rows):
    rob, gre, base = [r["robot"] for r in rows], [r["greedy"] for r in rows], [r["baseline"] for r in rows]
    diff = [r["robot"] - r["baseline"] for r in rows]
    n = len(rows)
    bids = sum(r["robot_bid"] for r in rows)
    bbids = sum(r["baseline_bid"] for r in rows)
    out = {"deals": n}
    for name, xs in (("robot", rob), ("greedy", gre), ("baseline", base), ("robot_minus_baseline", diff)):
        m, h = _ci(xs)
        out[name] = {"mean": m, "ci95": [m - h, m + h]}
    out.update({"robot_bidder_share": bids / n, "robot_made_share": (sum(r["robot_made"] for r in rows) / bids) if bids else None,
                "baseline_bidder_share": bbids / n,
                "baseline_made_share": (sum(r["baseline_made"] for r in rows) / bbids) if bbids else None,
                "contracts_made_share": sum(r["made"] for r in rows) / n,
                "mean_bid": sum(r["bid"] for r in rows) / n,
                "cpu_s_per_hand": sum(r["cpu_s"] for r in rows) / n})
    return out


def _line(s):
    return (f"robot {s['robot']['mean']:+.3f} [{s['robot']['ci95'][0]:+.3f}, {s['robot']['ci95'][1]:+.3f}]  "
            f"greedy at its table {s['greedy']['mean']:+.3f}  "
            f"greedy in its seat (duplicate) {s['baseline']['mean']:+.3f}  "
            f"robot-baseline {s['robot_minus_baseline']['mean']:+.3f} "
            f"[{s['robot_minus_baseline']['ci95'][0]:+.3f}, {s['robot_minus_baseline']['ci95'][1]:+.3f}]")


def run(args) -> int:
    import multiprocessing as mp
    import os

    jobs = args.jobs or os.cpu_count() or 1
    print(f"bench subastada: subastada-5, standard scoring; the robot (worlds {args.worlds}, bid samples "
          f"{args.bid_samples}) in one seat among four greedy players; {args.deals} deals, each replayed "
          f"all-greedy as a duplicate baseline; seed {args.seed}; {jobs} processes", flush=True)
    todo = [(d, args.seed, args.worlds, args.bid_samples) for d in range(args.deals)]
    rows = []
    t0 = time.perf_counter()
    try:
        if jobs > 1:
            pool = mp.Pool(jobs)
            it = pool.imap_unordered(one_deal, todo, chunksize=2)
        else:
            pool, it = None, map(one_deal, todo)
        for row in it:
            rows.append(row)
            k = len(rows)
            if args.progress and k > 1 and (k % args.progress == 0 or k == args.deals):
                print(f"  {k}/{args.deals} deals  {_line(summarize(rows))}  ({time.perf_counter() - t0:.0f} s)",
                      flush=True)
    except KeyboardInterrupt:
        print("interrupted: summary of the deals played so far", flush=True)
    finally:
        if jobs > 1:
            pool.terminate()
    if len(rows) < 2:
        print("too few deals for a summary")
        return 1
    s = summarize(rows)
    print(f"robot among 4 greedy players, {s['deals']} deals: match points per hand: {_line(s)}")
    print(f"  the robot won the auction in {s['robot_bidder_share']:.1%} of hands and made "
          f"{(s['robot_made_share'] or 0):.1%} of its contracts; the greedy player in its seat won "
          f"{s['baseline_bidder_share']:.1%} and made {(s['baseline_made_share'] or 0):.1%}; mean winning bid "
          f"{s['mean_bid']:.1f}; robot CPU {s['cpu_s_per_hand']:.2f} s per hand")
    if args.json:
        print(json.dumps({"seed": args.seed, "worlds": args.worlds, "bid_samples": args.bid_samples, **s}))
    sys.stdout.flush()
    return 0
