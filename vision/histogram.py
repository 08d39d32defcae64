"""Order statistics of 8-bit values read off their histogram: numpy's percentile and median,
the same numbers in the same float arithmetic, without numpy's selection over the pixels (which
took a millisecond a frame where detection and the picture readers asked for them)."""
import math

import numpy as np


def kth(counts: np.ndarray, k: int) -> int:
    """The ``k``-th smallest (from 0) of 8-bit values whose cumulative histogram is ``counts``."""
    return int(np.searchsorted(counts, k + 1))


def percentile(counts: np.ndarray, q: float) -> float:
    """`np.percentile` (linear, its default) at ``q`` of the values whose cumulative histogram is
    ``counts`` (at least one value): between the same two order statistics, by numpy's lerp."""
    n = int(counts[-1])
    at = (n - 1) * (q / 100)
    lo = math.floor(at)
    g = at - lo
    a, b = kth(counts, lo), kth(counts, min(lo + 1, n - 1))
    d = b - a
    return b - d * (1 - g) if g >= 0.5 else a + d * g


def median(counts: np.ndarray) -> float:
    """`np.median` of the values whose cumulative histogram is ``counts`` (at least one value)."""
    n = int(counts[-1])
    return (kth(counts, (n - 1) // 2) + kth(counts, n // 2)) / 2.0


def lower_median(counts: np.ndarray) -> int:
    """The lower of the two middle values (the middle one of an odd count) of the values whose
    cumulative histogram is ``counts`` (at least one value): a value the pixels have."""
    return kth(counts, (int(counts[-1]) - 1) // 2)
