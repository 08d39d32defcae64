"""Observations: what vision reports per frame, in table coordinates. Knows nothing about rules."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Tuple


@dataclass(frozen=True)
class SeenCard:
    """One card seen in one frame: its reading (None when unknown), face, confidence, where it lies
    (centre in table mm) and the zone that contains the centre (None outside every zone)."""

    code: Optional[str]
    face_up: bool
    confidence: float
    x: float
    y: float
    zone: Optional[str] = None
    polygon: Tuple[Tuple[float, float], ...] = ()


@dataclass(frozen=True)
class Observation:
    """Everything seen in one frame. ``moving`` is set while something (a hand) moves over the
    table: the tracker does not let such frames settle anything."""

    ts: float
    cards: Tuple[SeenCard, ...] = ()
    moving: bool = False
    index: int = 0
    image: Optional[object] = field(default=None, compare=False, repr=False)  # the BGR frame, for evidence


class Observer:
    """Frames in, observations out: the recogniser's cards mapped to table millimetres and zones,
    plus a motion flag from the difference with the previous frame (a hand crossing the table).

    ``image_to_table`` is the 3x3 homography from image pixels to table mm (from calibration);
    ``zone_of(x, y)`` names the zone containing a table point.
    """

    MOTION_LEVEL = 18        # grey-level change that counts as a moving pixel
    MOTION_SHARE = 0.004     # share of moving pixels that makes a frame "moving"

    def __init__(self, recogniser, image_to_table, zone_of, settle: bool = True) -> None:
        import numpy as np

        from vision.settled import SettledCards

        self.recogniser = recogniser
        # cards lying still keep their readings from frame to frame (`vision.settled`)
        self.settled = SettledCards() if settle else None
        self.h = np.asarray(image_to_table, dtype=np.float64)
        self.zone_of = zone_of
        self._prev = None
        self.last_seen = []  # the recogniser's cards in the last still frame (image pixels)

    def moving(self, image) -> bool:
        """Whether the frame's `vision.settled.thumbnail` differs from the previous frame's."""
        import cv2
        import numpy as np

        from vision.settled import thumbnail

        small = thumbnail(image)
        prev, self._prev = self._prev, small
        if prev is None:
            return True
        diff = cv2.absdiff(small, prev)
        return bool((diff > self.MOTION_LEVEL).mean() > self.MOTION_SHARE) or bool(np.isnan(diff.mean()))

    def observe(self, image, ts: float, index: int = 0, keep_image: bool = False) -> Observation:
        import numpy as np

        moving = self.moving(image)
        cards = []
        if not moving:  # a moving frame settles nothing: skip the expensive part
            if self.settled is not None:  # (the thumbnail the motion flag was made from)
                self.settled.given_thumbnail(self._prev)
            self.last_seen = self.recogniser.recognise(image, settled=self.settled)
            for c in self.last_seen:
                pts = np.hstack([c.corners, np.ones((4, 1))]) @ self.h.T
                pts = pts[:, :2] / pts[:, 2:3]
                x, y = pts.mean(axis=0)
                cards.append(SeenCard(c.code, c.face_up, float(c.confidence), float(x), float(y),
                                      self.zone_of(float(x), float(y)),
                                      tuple((float(a), float(b)) for a, b in pts)))
        return Observation(ts, tuple(cards), moving, index, image if keep_image else None)
