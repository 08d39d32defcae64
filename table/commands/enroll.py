"""`brisca-table enroll (PHOTO | --from-folder DIR) --out DECKDIR`: teach the table your deck.

PHOTO is one overhead picture of the 40 cards face up in a 4 x 10 grid: rows oros, copas, espadas,
bastos; columns 1-7, 10, 11, 12; each card upright. DIR is a folder of card images named by code.
"""
from __future__ import annotations


def configure(p):
    p.add_argument("photo", nargs="?", metavar="PHOTO")
    p.add_argument("--from-folder", metavar="DIR")
    p.add_argument("--out", required=True, metavar="DECKDIR")


def run(args) -> int:
    from table.cli import UsageError
    from vision.enroll import EnrollError, enroll_folder, enroll_photo

    if bool(args.photo) == bool(args.from_folder):
        raise UsageError("give either PHOTO or --from-folder DIR")
    try:
        t = enroll_photo(args.photo) if args.photo else enroll_folder(args.from_folder)
    except EnrollError as e:
        raise UsageError(str(e))
    t.save(args.out)
    print(f"enrolled {len(t.codes)} images ({', '.join(t.codes[:4])}, ...) into {args.out}")
    return 0
