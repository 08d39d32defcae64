"""The `brisca-table` command: a thin dispatcher that imports only the chosen subcommand."""
from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module, one-line help). Each module has configure(parser) and run(args) -> exit status.
COMMANDS = {
    "run": ("table.commands.run", "run the table service (default: the simulated demo table)"),
    "score": ("table.commands.score", "replay a game record and print tricks, points and result"),
    "rules": ("table.commands.rules", "list the rules presets and their settings"),
    "bench": ("table.commands.bench", "benchmarks that print measured numbers"),
    "recognise": ("table.commands.recognise", "print every card seen in still images (JSON with --json)"),
    "enroll": ("table.commands.enroll", "make templates of your deck from one photo or a folder"),
    "markers": ("table.commands.markers", "write the printable ArUco corner markers (PNG or PDF)"),
    "simulate": ("table.commands.simulate", "write a rendered simulated game: frames, zones, ground truth"),
    "track": ("table.commands.track", "track a recorded game (video or frames) and print events and score"),
    "bot": ("table.commands.bot", "answer bot-protocol requests (JSON lines) on stdin with the robot's moves"),
    "train-policy": ("table.commands.train_policy", "train the robot's rollout policy on its own searched decisions"),
    "play": ("table.commands.play", "play a hand in the terminal against the robot"),
    "firmware-sim": ("table.commands.firmware_sim", "the Pico firmware logic behind a pseudo-terminal, drawn on the terminal"),
}


class UsageError(Exception):
    """A user error the CLI reports on one stderr line with exit status 2."""


def _parser(only: str | None) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="brisca-table", description="Brisca at a real card table.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for name, (mod, helptext) in COMMANDS.items():
        sp = sub.add_parser(name, help=helptext, description=helptext)
        if only is None or only == name:
            try:
                importlib.import_module(mod).configure(sp)
            except ImportError as e:
                if only == name:
                    raise
                sp.description = f"unavailable here: {e}"
    return p


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    only = argv[0] if argv and argv[0] in COMMANDS else None
    parser = _parser(only)
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    try:
        return int(importlib.import_module(COMMANDS[args.command][0]).run(args) or 0)
    except UsageError as e:
        print(f"brisca-table {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
