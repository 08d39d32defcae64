"""`brisca-table train-policy`: make the robot's rollout policy from its own searched decisions.

One round of expert iteration (see :mod:`table.robot.learn`): the robot plays ``--hands`` hands and
its decisions are appended to ``--data`` (kept, so a stopped run resumes and a second run adds to
it); then a policy is fitted to all the decisions in the file and written to ``--out``. Use the
result with ``--from`` for the next round, and try it with
``brisca-table bench robot --robot-option policy=FILE``.
"""
from __future__ import annotations

import time
from pathlib import Path

DEFAULT_RULES = "classic-2,{\"preset\":\"classic-2\",\"swap\":\"off\"},arrastre-2,catalana-2"


def configure(p):
    p.add_argument("--out", required=True, help="the policy file to write (JSON)")
    p.add_argument("--data", default=None, help="decisions file, JSON lines (default: OUT with .decisions.jsonl)")
    p.add_argument("--hands", type=int, default=1500, help="hands of robot play to add to the data (0: fit only)")
    p.add_argument("--rules", default=DEFAULT_RULES,
                   help="comma-separated presets or JSON settings, played in turn (2-player rules)")
    p.add_argument("--budget-ms", type=float, default=40.0, help="the labelling robot's budget per decision")
    p.add_argument("--from", dest="start", default="default",
                   help="the policy the labelling robot searches with: a file, 'default' (the shipped one) "
                        "or 'greedy' (the club heuristic)")
    p.add_argument("--tau", type=float, default=0.03, help="temperature turning the robot's scores into targets")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="hands played in parallel processes")


def _split_rules(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return [r.strip() for r in out + [cur] if r.strip()]


def run(args) -> int:
    from table.cli import UsageError
    from table.robot.learn import fit, load_decisions, make_decisions
    from table.robot.policy import LinearPolicy
    from table.rules import Rules, RulesError

    rules = _split_rules(args.rules)
    for r in rules:
        try:
            parsed = Rules.parse_text(r)
        except (RulesError, ValueError) as e:
            raise UsageError(f"--rules {r!r}: {e}") from None
        if parsed.players != 2:
            raise UsageError(f"--rules {r!r}: the policy is trained on 2-player games")
    out = Path(args.out)
    data = Path(args.data) if args.data else out.with_suffix(".decisions.jsonl")
    start = None if args.start == "greedy" else args.start
    if start not in (None, "default"):
        if not Path(start).is_file():
            raise UsageError(f"--from {start}: no such policy file")
        try:
            LinearPolicy.load(start)
        except (ValueError, KeyError, TypeError) as e:
            raise UsageError(f"--from {start}: not a policy file of these features ({e})") from None
    if args.hands > 0:
        print(f"train-policy: {args.hands} hands of robot play ({args.budget_ms:g} ms a decision, "
              f"rollouts: {args.start}) on {', '.join(rules)}; decisions appended to {data}", flush=True)
        t0 = time.perf_counter()

        def progress(k, n):
            if k % 50 == 0 or k == args.hands:
                print(f"  {k}/{args.hands} hands, {n} decisions ({time.perf_counter() - t0:.0f} s)", flush=True)

        make_decisions(data, args.hands, rules, args.budget_ms, start, seed=args.seed, jobs=args.jobs,
                       progress=progress)
    if not data.is_file():
        raise UsageError(f"no decisions in {data}: play some hands first (--hands N)")
    decisions = load_decisions(data)
    print(f"fitting on {len(decisions)} decisions from {data}", flush=True)
    try:
        policy, stats = fit(decisions, tau=args.tau, seed=args.seed,
                            progress=lambda step, s: print(f"  step {step}: train loss {s['train_loss']:.4f}, "
                                                           f"held-out loss {s['val_loss']:.4f}", flush=True))
    except ValueError as e:
        raise UsageError(str(e)) from None
    policy.save(out, **stats)
    print(f"wrote {out}: picks the robot's own card in {100 * stats['val_agreement']:.1f}% of held-out "
          f"decisions ({100 * stats['train_agreement']:.1f}% of those fitted)")
    return 0
