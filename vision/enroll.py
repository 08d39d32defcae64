"""Enrolment: templates of the players' own deck from one photo of a 4 x 10 grid or a folder."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from table.cards import RANKS_40, SUITS
from vision.identify import Templates

GRID_ROWS = [s.letter for s in SUITS]  # oros, copas, espadas, bastos
GRID_COLS = [int(r) for r in RANKS_40]  # 1-7, 10, 11, 12


class EnrollError(ValueError):
    pass


def enroll_folder(folder) -> Templates:
    folder = Path(folder)
    if not folder.is_dir():
        raise EnrollError(f"not a folder: {folder}")
    try:
        return Templates.from_folder(folder)
    except ValueError as e:
        raise EnrollError(str(e)) from e


def enroll_photo(photo, image=None) -> Templates:
    """Find the 40 cards, sort them into 4 rows by height and 10 columns by x, rectify each
    upright (the grid is photographed with the cards' tops towards the top of the image)."""
    from vision import detect
    from vision.sources import read_image

    img = image if image is not None else read_image(photo)
    if img is None:
        raise EnrollError(f"cannot read {photo}")
    dets = detect.detect_cards(img)
    if len(dets) != 40:
        raise EnrollError(f"found {len(dets)} cards in {photo}; lay out exactly 40, face up, in 4 rows "
                          f"of 10, not touching")
    centres = np.array([d.corners.mean(axis=0) for d in dets])
    order = np.argsort(centres[:, 1])
    rects = {}
    for r, suit in enumerate(GRID_ROWS):
        row = sorted(order[r * 10:(r + 1) * 10], key=lambda i: centres[i, 0])
        for c, rank in enumerate(GRID_COLS):
            corners = dets[row[c]].corners  # order_corners: top-most short side first
            rects[f"{rank}{suit}"] = detect.rectify(img, corners)
    return Templates(rects, Path(str(photo)).stem)
