"""`brisca-table markers --out FILE`: the printable ArUco corner markers (PNG or PDF)."""
from __future__ import annotations


def configure(p):
    p.add_argument("--out", required=True, metavar="FILE", help="markers.png or markers.pdf")
    p.add_argument("--size-mm", type=float, default=50.0, help="marker side in millimetres")
    p.add_argument("--dpi", type=int, default=200)


def run(args) -> int:
    from vision.calibrate import write_marker_sheet

    path = write_marker_sheet(args.out, args.size_mm, args.dpi)
    print(f"wrote {path}: markers 0-3 (DICT_4X4_50, {args.size_mm:g} mm); put each with its outer "
          f"corner on a table corner, clockwise from the top-left")
    return 0
