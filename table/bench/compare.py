"""`brisca-table bench compare SETTING...`: the readings card for card, with the vision settings as
they are and with each SETTING changed: the cards gained, lost and newly read wrong.

A change to a reader or an outline moves readings both ways (a rule that names one card may lose
another, or name a third wrongly), so the benchmark's accuracy alone can hide a loss behind a
gain. Every change to a reader is measured this way, on scenes of other seeds than the
benchmark's, before it is kept."""
from __future__ import annotations

import ast
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Tuple

from table.bench.vision import DECKS_DIR, WARM_SEED, false_codes, match, warmed


class SettingError(ValueError):
    """A SETTING that is not ``module.NAME=value`` for an existing constant of a vision module."""


@dataclass
class Setting:
    module: Any
    name: str
    value: Any

    @classmethod
    def parse(cls, text: str) -> "Setting":
        """``agnostic.NUMERAL_SHAPES=False``: a constant of a `vision` module and a Python
        literal for it."""
        target, eq, literal = text.partition("=")
        mod_name, dot, name = target.strip().rpartition(".")
        if not eq or not dot or not mod_name or not name:
            raise SettingError(f"{text!r}: expected module.NAME=value, e.g. agnostic.NUMERAL_SHAPES=False")
        try:
            module = importlib.import_module(f"vision.{mod_name}")
        except ImportError:
            raise SettingError(f"{text!r}: no module vision.{mod_name}") from None
        if not hasattr(module, name):
            raise SettingError(f"{text!r}: vision.{mod_name} has no {name}")
        try:
            value = ast.literal_eval(literal.strip())
        except (ValueError, SyntaxError):
            raise SettingError(f"{text!r}: {literal.strip()!r} is no Python literal") from None
        return cls(module, name, value)

    def __str__(self) -> str:
        return f"{self.module.__name__.split('.', 1)[1]}.{self.name}={self.value!r}"


class changed:
    """Within the block, every setting holds its new value; the old ones come back after it."""

    def __init__(self, settings: List[Setting]):
        self.settings = settings
        self.old: List[Any] = []

    def __enter__(self):
        self.old = [getattr(s.module, s.name) for s in self.settings]
        for s in self.settings:
            setattr(s.module, s.name, s.value)
        return self

    def __exit__(self, *exc):
        for s, v in zip(self.settings, self.old):
            setattr(s.module, s.name, v)
        return False


def configure(p):
    p.add_argument("settings", nargs="+", metavar="SETTING",
                   help="module.NAME=value: a constant of a vision module and its new value, e.g. "
                        "agnostic.NUMERAL_SHAPES=False or numerals.LIKE=0.55")
    p.add_argument("--scenes", type=int, default=100, help="synthetic scenes per deck")
    p.add_argument("--seed", type=int, default=30_000,
                   help="first scene seed (not the benchmark's 10000.., whose figures it would tune)")
    p.add_argument("--decks", default=str(DECKS_DIR), help="folder of reference decks")
    p.add_argument("--min-visible", type=float, default=0.5,
                   help="count face-up cards with at least this visible fraction")
    p.add_argument("--reader", choices=("agnostic", "learning", "enrolled"), default="agnostic",
                   help="the deck-agnostic reader; the same learning the deck from its sure "
                        "readings (two learners, each learning with its own settings); or "
                        "templates of the scene's own deck")
    p.add_argument("--warm", type=int, default=0,
                   help="with --reader learning: scenes of other seeds each learner watches first, "
                        "under its own settings (`bench vision`'s warmed row)")
    p.add_argument("--list", action="store_true", help="print every card read differently")


def run(args) -> int:
    import cv2

    from vision import synth

    try:
        settings = [Setting.parse(s) for s in args.settings]
    except SettingError as e:
        print(f"bench compare: {e}", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    decks = [synth.builtin(40)]
    root = Path(args.decks)
    if root.is_dir():
        decks += [synth.load_deck(p) for p in sorted(root.iterdir()) if p.is_dir()]
    watched = f" (warmed on {args.warm} scenes)" if args.reader == "learning" and args.warm else ""
    print(f"bench compare: {args.reader} reader{watched}, {args.scenes} scenes per deck from seed {args.seed}, "
          f"face-up cards with >= {args.min_visible:.0%} visible; B: {', '.join(map(str, settings))}")
    rows, cards = [], []
    for deck in decks:
        tally, diffs = _compare(deck, settings, args)
        rows.append((deck.name, tally))
        cards += diffs
    print()
    print(f"{'deck':16} {'cards':>6} {'A right':>8} {'B right':>8} {'gained':>7} {'lost':>5} "
          f"{'new wrong':>9} {'wrong gone':>10} {'fp A':>5} {'fp B':>5}")
    for name, t in rows:
        print(f"{name:16} {t['cards']:6d} {t['right_a']:8d} {t['right_b']:8d} {t['gained']:7d} "
              f"{t['lost']:5d} {t['new_wrong']:9d} {t['wrong_gone']:10d} {t['fp_a']:5d} {t['fp_b']:5d}")
    if args.list and cards:
        print("cards read differently (deck, scene seed, truth: A -> B):")
        for name, seed, truth, a, b in cards:
            print(f"  {name:16} {seed:7d} {truth:4} {a or '?':>6} -> {b or '?'}")
    return 0


def _compare(deck, settings: List[Setting], args) -> Tuple[Dict[str, int], list]:
    """One deck's scenes read as the settings are (A) and changed (B), card for card, each side by
    its own identifier."""
    import numpy as np

    from vision import synth
    from vision.recognise import Recogniser

    ids = (_identifier(deck, args.reader), _identifier(deck, args.reader))
    if args.reader == "learning" and args.warm:
        for learner, side in zip(ids, ([], settings)):
            with changed(side):
                warmed(learner, deck, args.warm, WARM_SEED)
    recs = tuple(Recogniser(i) for i in ids)
    tally = dict(cards=0, right_a=0, right_b=0, gained=0, lost=0, new_wrong=0, wrong_gone=0,
                 fp_a=0, fp_b=0)
    diffs = []
    for k in range(args.scenes):
        frame = synth.render_scene(synth.random_scene(np.random.default_rng(args.seed + k), deck),
                                   seed=(args.seed + k) % 10_000)
        codes = []
        for side, rec, changes in (("a", recs[0], []), ("b", recs[1], settings)):
            with changed(changes):
                seen = rec.recognise(frame.image)
            pairs, used = match(frame.truth, seen)
            codes.append({i: seen[pairs[i]].code if i in pairs else None
                          for i, t in enumerate(frame.truth)
                          if t.face_up and t.visible >= args.min_visible})
            tally[f"fp_{side}"] += false_codes(frame.truth, seen, used)
        for i, a in codes[0].items():
            b, truth = codes[1][i], frame.truth[i].code
            tally["cards"] += 1
            tally["right_a"] += a == truth
            tally["right_b"] += b == truth
            if a == b:
                continue
            diffs.append((deck.name, args.seed + k, truth, a, b))
            tally["gained"] += b == truth
            tally["lost"] += a == truth
            tally["new_wrong"] += b is not None and b != truth
            tally["wrong_gone"] += a is not None and a != truth
        if (k + 1) % 10 == 0 or k + 1 == args.scenes:
            print(f"  {deck.name}: {k + 1}/{args.scenes} scenes", file=sys.stderr, flush=True)
    return tally, diffs


def _identifier(deck, reader: str):
    """A fresh identifier for one side of the comparison (a learner's state is its own)."""
    if reader == "enrolled":
        from vision.identify import Templates

        return Templates.from_deck(deck)
    if reader == "learning":
        from vision.learn import Learner

        return Learner()
    from vision.agnostic import Reader

    return Reader()
