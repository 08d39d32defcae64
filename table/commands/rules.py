"""`brisca-table rules [--json]`: the presets and their settings."""
from __future__ import annotations

import json


def configure(p):
    p.add_argument("--json", action="store_true", help="print the settings as JSON")


def run(args) -> int:
    from table.rules import DESCRIPTIONS, OVERRIDABLE, PRESETS

    if args.json:
        print(json.dumps({name: r.settings() for name, r in PRESETS.items()}, indent=2))
        return 0
    for name, r in PRESETS.items():
        s = r.settings()
        print(f"{name:14s} {DESCRIPTIONS.get(name, '')}")
        print(f"{'':14s} players={r.players} deck={r.deck_size} hand={r.hand_size} "
              + " ".join(f"{k}={json.dumps(s[k]) if not isinstance(s[k], str) else s[k]}"
                         for k in OVERRIDABLE if s[k] is not None))
    print('\nOverride any setting in a record: {"preset": "classic-2", "swap": "seven", "arrastre": "full"}')
    return 0
