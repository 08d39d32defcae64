"""Milliseconds by named step of one frame's reading, so the benchmark can say where the time goes.
Steps nest (a second look runs inside a read) and repeat (every card is read), so each name adds
up its own time; the names of one level add up to their parent."""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Dict, Iterator, Optional


class Stages(Dict[str, float]):
    """Stage name -> milliseconds this frame."""

    @contextmanager
    def time(self, name: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self[name] = self.get(name, 0.0) + (time.perf_counter() - t0) * 1e3


def stages_or_none(stages: Optional[Stages]) -> Stages:
    """The caller's stages, or a throwaway when nobody is counting."""
    return Stages() if stages is None else stages
