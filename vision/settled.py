"""Cards that have not moved since they were read (`SettledCards`): a camera over a game sees the
same cards lie still for many frames between two plays, and reading each of them again in every
frame is most of a frame's work. A card whose outline lies where it lay, and which looks as it
looked when it was read, keeps its reading instead.

Only a reading two reads in a row agreed on settles (one noisy frame must not freeze a misreading
for as long as the card lies there), and a settled card is read again every `REFRESH` frames all
the same. A card that moves by more than `MOVE_PX`, or whose look changes (another card laid on
it or taken off it, the 7 of trumps swapped for the trump at the very same place, a hand or a
shadow over it) is read afresh. A card left unknown is read again every other frame
(`UNKNOWN_REFRESH`): the next frame's noise may let it be read, but seldom does (1% of the reads
of an unknown card unchanged since the frame before named it, on four of the tracker's films).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

import cv2
import numpy as np

from vision.detect import rectify

MOVE_PX = 2.0  # image pixels a corner of the card may lie off where it was read
LOOK_CELLS = (8, 12)  # the card's look: the mean colour of this grid of cells (columns, rows)
LOOK_LEVEL = 16  # 8-bit levels a cell's mean colour may move, the card looked at where it was
# read: camera noise moves a cell by 3-6; a card with a pinta more or less at the same place by 35
# (the built-in deck's thin swords) to 68 (Fournier) and 99 (Naipes); an outline 1.5 px off, by up
# to 38-54 (so the look is compared at the outline the reading was made at, not the new one)
LOOK_SIZE = (32, 48)  # the upright card it is averaged from (a quarter of the pixels a reading's)
SAME_FRAME = 12  # 8-bit grey levels no pixel of the frame (a 160 x 90 thumbnail) may move for the
# last frame's detections to be kept: between two still frames of the tracker's films with nothing
# changed, no pixel moved by more than 4 (camera noise); with a card nudged, laid down or taken
# up, some moved by 55 or more (two films, 916 pairs of still frames)
THUMBNAIL = (160, 90)  # a frame's grey thumbnail (`thumbnail`): the observer's motion flag too
REFRESH = 8  # a settled card (a face read, or a back) is read again after this many frames kept
UNKNOWN_REFRESH = 1  # ... and a face left unknown after this many


def thumbnail(image: np.ndarray) -> np.ndarray:
    """A BGR frame's grey, `THUMBNAIL` small (each pixel a block's mean)."""
    return cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), THUMBNAIL,
                      interpolation=cv2.INTER_AREA)


def look(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The card's look: the mean colours of `LOOK_CELLS` over the upright card (int16)."""
    return cv2.resize(rectify(image, corners, LOOK_SIZE), LOOK_CELLS,
                      interpolation=cv2.INTER_AREA).astype(np.int16)


@dataclass
class _Entry:
    corners: np.ndarray  # the detection's outline when read (image pixels)
    look: np.ndarray
    seen: object  # the recogniser's `SeenCard`
    agreed: bool = False  # read the same way twice in a row
    kept: int = 0  # frames it has been kept since last read


class SettledCards:
    """The readings of the last frame, by outline and look (`recall`, `keep`). One per camera:
    the `Recogniser` asks it for each card it detects."""

    def __init__(self, move_px: float = MOVE_PX, level: int = LOOK_LEVEL, refresh: int = REFRESH,
                 unknown_refresh: int = UNKNOWN_REFRESH):
        self.move_px, self.level = move_px, level
        self.refresh, self.unknown_refresh = refresh, unknown_refresh
        self._last: List[_Entry] = []
        self._now: List[_Entry] = []
        self.kept = self.read = 0  # cards kept and cards read, over the frames so far
        self._pending = None  # (frame, outline, the match last frame) of the card to read
        self._frame = None  # the thumbnail of the frame whose detections are kept, ...
        self._dets = None  # ... those detections, ...
        self._dets_kept = 0  # ... and how many frames have kept them since
        self.frames_kept = 0  # frames that kept the detections of the frame before
        self._given = None  # the next frame's `thumbnail`, if its caller made it already

    def given_thumbnail(self, small: np.ndarray) -> None:
        """The `thumbnail` of the frame about to be read, made by the caller (the observer's
        motion flag): `detections` takes it rather than making it again."""
        self._given = small

    def detections(self, image: np.ndarray, detect):
        """The cards detected in ``image``: the last frame's detections if no pixel of the frame
        has changed since they were made (`SAME_FRAME`; detected again every `REFRESH`
        frames all the same), else ``detect(image)``'s. Outlines kept so still, a card lying
        still matches its reading's outline exactly."""
        small, self._given = (thumbnail(image) if self._given is None else self._given), None
        if self._frame is not None and self._dets_kept < self.refresh and \
                int(cv2.absdiff(small, self._frame).max()) <= SAME_FRAME:
            self._dets_kept += 1
            self.frames_kept += 1
            return self._dets
        self._frame, self._dets, self._dets_kept = small, detect(image), 0
        return self._dets

    def _match(self, image: np.ndarray, corners: np.ndarray) -> Optional[_Entry]:
        """The card read last frame that lies within `MOVE_PX` of ``corners`` and, looked at
        where it was read, looks as it did then."""
        for e in self._last:
            if float(np.abs(e.corners - corners).max()) <= self.move_px and \
                    int(np.abs(look(image, e.corners) - e.look).max()) <= self.level:
                return e
        return None

    def recall(self, image: np.ndarray, corners: np.ndarray):
        """The reading of the card at ``corners`` (a detection's outline) if it has settled:
        it lies and looks as when it was read, two reads agreed, and it is not due to be read
        again; else None (read it, then `keep` the reading)."""
        e = self._match(image, corners)
        due = self.unknown_refresh if e is not None and _unknown(e.seen) else self.refresh
        if e is not None and e.agreed and e.kept < due:
            self._now.append(_Entry(e.corners, e.look, e.seen, True, e.kept + 1))
            self.kept += 1
            return e.seen
        self._pending = (image, corners, e)
        return None

    def keep(self, seen) -> None:
        """The fresh reading of the card `recall` was last asked about."""
        image, corners, before = self._pending
        self.read += 1
        agreed = before is not None and before.seen.code == seen.code and \
            before.seen.face_up == seen.face_up
        self._now.append(_Entry(corners, look(image, corners), seen, agreed))

    def new_frame(self) -> None:
        """A frame begins (what a frame cut short by an error kept is dropped)."""
        self._now = []

    def next_frame(self) -> None:
        """The frame is read: what it kept is what the next one may recall. A card no detection
        of this frame matched is forgotten (it moved, or something covers it)."""
        self._last, self._now = self._now, []


def _unknown(seen) -> bool:
    """A face left unknown (a back is known as a back)."""
    return seen.code is None and seen.face_up
