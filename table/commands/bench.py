"""`brisca-table bench TARGET ...`: benchmarks that measure and print numbers (never hard-coded)."""
from __future__ import annotations

import importlib

# target -> module with configure(parser) and run(args). Heavy imports stay inside run().
TARGETS = {
    "display": "table.bench.display",
    "rules": "table.bench.rules",
    "tracker": "table.bench.tracker",
    "robot": "table.bench.robot",
    "vision": "table.bench.vision",
    "compare": "table.bench.compare",
    "web": "table.bench.web",
    "subastada": "table.bench.subastada",
}


def configure(parser):
    sub = parser.add_subparsers(dest="target", metavar="TARGET")
    for name, mod in TARGETS.items():
        sp = sub.add_parser(name)
        try:
            importlib.import_module(mod).configure(sp)
        except ImportError as e:  # a benchmark whose extra is not installed stays listed
            sp.description = f"unavailable here: {e}"


def run(args) -> int:
    if not args.target:
        print("targets: " + ", ".join(TARGETS))
        return 2
    return importlib.import_module(TARGETS[args.target]).run(args)
