"""`brisca-table bench robot`: the robot against an opponent over duplicate deals.

Each deal is played once per seating, the robot's seats rotating (2 and 4 players: twice, seats
swapped; 3 players: three times, the robot in each seat), so luck of the cards cancels out. The
share of hands won by the robot's side (a draw counts half) gets a 95% confidence interval from the
spread of the per-deal shares (normal approximation). Decision times are those of the robot's
searched decisions (forced plays and swaps, which take no search, are left out), both wall-clock
and CPU time of the deciding thread: on a shared machine the CPU time is the one-core figure.
"""
from __future__ import annotations

import math
import random
import sys
import time


def configure(p):
    p.add_argument("--opponent", default="greedy",
                   help='greedy, random, robot, briscolabot, or bot:"COMMAND" (any bot-protocol engine)')
    p.add_argument("--rules", default="classic-2", help="preset name or a JSON settings object")
    p.add_argument("--deals", type=int, default=100)
    p.add_argument("--first-deal", type=int, default=0,
                   help="start at this deal of the seed's sequence (to extend an earlier --json run)")
    p.add_argument("--budget-ms", type=float, default=300.0, help="robot budget per decision")
    p.add_argument("--opponent-budget-ms", type=float, default=None, help="when the opponent is a robot")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--progress", type=int, default=10, help="print a progress line every N deals (0: never)")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object too")
    p.add_argument("--jobs", type=int, default=1, help="deals played in parallel processes")
    p.add_argument("--robot-option", action="append", default=[], metavar="NAME=VALUE",
                   help="a RobotPlayer setting to try (e.g. margin_weight=0.3); repeatable")
    p.add_argument("--combine", nargs="+", metavar="LOG",
                   help="play nothing: join the --json summaries of earlier runs of the same settings "
                        "over consecutive deals (e.g. deals 0-499 and 500-999) into one")


def _rules(text):
    from table.rules import Rules
    return Rules.parse_text(text)


def _opponent(spec, rules, seed, budget_ms):
    from table.robot.players import GreedyPlayer, RandomPlayer
    if spec == "greedy":
        return GreedyPlayer()
    if spec == "random":
        return RandomPlayer(seed + 7)
    if spec == "robot":
        from table.robot.search import RobotPlayer
        return RobotPlayer(budget_ms=budget_ms, seed=seed + 7)
    if spec == "briscolabot":
        from table.robot.peer import BriscolaBotPlayer
        return BriscolaBotPlayer()
    if spec.startswith("bot:"):
        from table.robot.protocol import BotProcess
        return BotProcess(spec[4:])
    raise ValueError(f"unknown opponent {spec!r}")


def seatings(n):
    """Robot seat sets per replay of a deal."""
    if n == 2:
        return [{0}, {1}]
    if n == 4:
        return [{0, 2}, {1, 3}]
    return [{s} for s in range(n)]


def play_deal(rules, deck, robot_seats, robot, opponent, times):
    """Play one hand; returns (robot side's result 1/0.5/0, robot side margin)."""
    from table.game import Game
    g = Game.deal(rules, deck, dealer=0)
    while not g.is_over():
        seat = g.turn
        view = g.view(seat)
        if seat in robot_seats:
            t0, c0 = time.perf_counter(), time.thread_time()
            action = robot.choose(view)
            dt, dc = time.perf_counter() - t0, time.thread_time() - c0
            if "worlds" in robot.last:
                times.append((dt, dc))
        else:
            action = opponent.choose(view)
        g.apply(action, seat)
    o = g.outcome()
    side = rules.side_of(min(robot_seats))
    mine = o.points[side]
    other = max(p for s, p in enumerate(o.points) if s != side)
    result = 1.0 if o.winner == side else 0.5 if mine == other else 0.0
    return result, mine - other


def share_ci(shares):
    """Mean of the per-deal shares and its 95% interval (normal approximation over deals)."""
    n = len(shares)
    mean = sum(shares) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n > 1 else float("nan")
    return mean, [mean - half, mean + half]


def summarize(shares, margins, times):
    mean, ci = share_ci(shares)
    ts = sorted(t for t, _ in times)
    cs = sorted(c for _, c in times)
    return {
        "deals": len(shares), "hands": len(margins), "share": mean, "ci95": ci,
        "margin": sum(margins) / len(margins),
        "decisions": len(ts),
        "mean_ms": 1000 * sum(ts) / len(ts) if ts else 0.0,
        "p95_ms": 1000 * ts[min(len(ts) - 1, int(0.95 * len(ts)))] if ts else 0.0,
        "cpu_mean_ms": 1000 * sum(cs) / len(cs) if cs else 0.0,
        "cpu_p95_ms": 1000 * cs[min(len(cs) - 1, int(0.95 * len(cs)))] if cs else 0.0,
    }


_SAME = ("rules", "opponent", "budget_ms", "seed", "options")
_SUMMARY = ("per_deal", "deals", "hands", "margin", "decisions", "mean_ms", "cpu_mean_ms", "p95_ms",
            "cpu_p95_ms") + _SAME  # what --combine needs of each part


def combine(parts):
    """One summary from the --json summaries of runs over consecutive deal ranges of the same settings.

    The share and its interval come from the per-deal shares, as in one run; the margin and the mean
    decision times are weighted by hands and decisions. The p95 times cannot be joined exactly from
    summaries: the largest of the parts' p95 is given (``p95_of_parts``)."""
    parts = sorted(parts, key=lambda x: x.get("first_deal", 0))
    for key in _SAME:
        if any(p.get(key) != parts[0].get(key) for p in parts):
            raise ValueError(f"the runs differ in {key}: " + ", ".join(repr(p.get(key)) for p in parts))
    nxt = parts[0].get("first_deal", 0)
    for p in parts:
        if p.get("first_deal", 0) != nxt or len(p["per_deal"]) != p["deals"]:
            raise ValueError(f"the runs do not cover consecutive deals: one starts at deal "
                             f"{p.get('first_deal', 0)}, the next expected is {nxt}")
        nxt += p["deals"]
    shares = [x for p in parts for x in p["per_deal"]]
    mean, ci = share_ci(shares)
    hands = sum(p["hands"] for p in parts)
    dec = sum(p["decisions"] for p in parts)
    s = {"deals": len(shares), "hands": hands, "share": mean, "ci95": ci,
         "margin": sum(p["margin"] * p["hands"] for p in parts) / hands, "decisions": dec,
         "p95_of_parts": True}
    for k in ("mean_ms", "cpu_mean_ms"):
        s[k] = sum(p[k] * p["decisions"] for p in parts) / dec if dec else 0.0
    for k in ("p95_ms", "cpu_p95_ms"):
        s[k] = max(p[k] for p in parts)
    return {**{k: parts[0][k] for k in _SAME}, "first_deal": parts[0].get("first_deal", 0), **s,
            "per_deal": shares}


def _read_summary(path):
    """The --json summary line of a bench robot output file."""
    import json
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror}") from None
    for line in reversed(lines):
        if line.startswith("{"):
            try:
                data = json.loads(line)
            except ValueError:
                break
            if isinstance(data, dict) and all(k in data for k in _SUMMARY):
                return data
    raise ValueError(f"{path}: no --json summary of bench robot in it")


def _report(s, opponent, rules_text, note=""):
    lo, hi = s["ci95"]
    p95 = "largest part's p95" if s.get("p95_of_parts") else "p95"
    print(f"robot vs {opponent} on {rules_text}: {s['deals']} deals, {s['hands']} hands; "
          f"share of hands won {s['share']:.3f} (95% CI {lo:.3f}-{hi:.3f}); "
          f"mean margin {s['margin']:+.1f} points; decision time mean {s['mean_ms']:.0f} ms, "
          f"{p95} {s['p95_ms']:.0f} ms (CPU time of the deciding thread: mean {s['cpu_mean_ms']:.0f} ms, "
          f"{p95} {s['cpu_p95_ms']:.0f} ms) over {s['decisions']} searched decisions{note}")


def _robot_options(items):
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--robot-option {item!r}: expected NAME=VALUE")
        name = name.strip()
        if name == "policy":  # a rollout policy file (see brisca-table train-policy)
            out[name] = value
            continue
        try:
            out[name] = float(value) if "." in value else int(value)
        except ValueError:
            raise SystemExit(f"--robot-option {item!r}: the value must be a number") from None
    return out


_WORKER = {}


def _init_worker(rules_text, opponent, seed, budget_ms, opponent_budget_ms, options):
    from table.robot.search import RobotPlayer
    rules = _rules(rules_text)
    _WORKER.update(rules=rules, seed=seed, seats=seatings(rules.players),
                   robot=RobotPlayer(budget_ms=budget_ms, seed=seed, **options),
                   opp=_opponent(opponent, rules, seed, opponent_budget_ms))


def _deal(d):
    """Play deal ``d`` in every seating: (share, margins, decision times)."""
    from table.game import deck_indices
    w = _WORKER
    rules = w["rules"]
    deck = list(deck_indices(rules.deck_size))
    random.Random(w["seed"] * 1_000_003 + d).shuffle(deck)
    res, ms, times = [], [], []
    for rs in w["seats"]:
        r, m = play_deal(rules, deck, rs, w["robot"], w["opp"], times)
        res.append(r)
        ms.append(m)
    return sum(res) / len(res), ms, times


def run(args) -> int:
    import json
    import signal

    def _stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _stop)  # a stopped run still prints the summary of its deals
    signal.signal(signal.SIGINT, _stop)
    if args.combine:
        try:
            s = combine([_read_summary(p) for p in args.combine])
        except ValueError as e:
            print(f"bench robot --combine: {e}", file=sys.stderr)
            return 2
        from table.rules import Rules
        _report(s, s["opponent"], Rules.parse(s["rules"]),
                f"; deals {s['first_deal']}-{s['first_deal'] + s['deals'] - 1} of seed {s['seed']}, "
                f"{len(args.combine)} runs joined")
        if args.json:
            print(json.dumps(s))
        return 0
    if args.first_deal < 0:
        raise SystemExit("--first-deal: a deal number, 0 or more")
    rules = _rules(args.rules)
    options = _robot_options(args.robot_option)
    init = (args.rules, args.opponent, args.seed, args.budget_ms,
            args.opponent_budget_ms or args.budget_ms, options)
    seats = seatings(rules.players)
    extra = f"; robot options {options}" if options else ""
    start = f" from deal {args.first_deal}" if args.first_deal else ""
    print(f"bench robot: rules {rules}; opponent {args.opponent}; {args.deals} duplicate deals "
          f"x {len(seats)} seatings{start}; robot budget {args.budget_ms:g} ms; seed {args.seed}; "
          f"{args.jobs} process(es){extra}", flush=True)
    pool = None
    if args.jobs > 1:
        import multiprocessing
        pool = multiprocessing.get_context("spawn").Pool(args.jobs, _init_worker, init)
        results = pool.imap(_deal, range(args.first_deal, args.first_deal + args.deals))
    else:
        _init_worker(*init)
        results = map(_deal, range(args.first_deal, args.first_deal + args.deals))
    shares, margins, times = [], [], []
    t0 = time.perf_counter()
    try:
        for d, (share, ms, ts) in enumerate(results):
            shares.append(share)
            margins.extend(ms)  # only whole deals count, also when a run is stopped
            times.extend(ts)
            if args.progress and ((d + 1) % args.progress == 0 or d + 1 == args.deals):
                s = summarize(shares, margins, times) if len(shares) > 1 else None
                if s:
                    print(f"  {d + 1}/{args.deals} deals  share {s['share']:.3f} "
                          f"[{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}]  margin {s['margin']:+.1f}  "
                          f"decision mean {s['mean_ms']:.0f} ms p95 {s['p95_ms']:.0f} ms "
                          f"(cpu {s['cpu_mean_ms']:.0f}/{s['cpu_p95_ms']:.0f})  "
                          f"({time.perf_counter() - t0:.0f} s)", flush=True)
    except KeyboardInterrupt:
        print("interrupted: summary of the deals played so far", flush=True)
    finally:
        if pool:
            pool.terminate()
        opp = _WORKER.get("opp")
        if opp is not None and hasattr(opp, "close"):
            opp.close()
    if len(shares) < 2:
        print("too few deals for a summary")
        return 1
    s = summarize(shares, margins, times)
    _report(s, args.opponent, rules)
    opp = _WORKER.get("opp")
    if getattr(opp, "fallbacks", 0):
        print(f"note: the opponent named an unplayable card {opp.fallbacks} times (played its first legal card)")
    if args.json:
        print(json.dumps({"rules": rules.to_json(), "opponent": args.opponent, "budget_ms": args.budget_ms,
                          "seed": args.seed, "options": options, "first_deal": args.first_deal, **s,
                          "per_deal": shares}))
    sys.stdout.flush()
    return 0
