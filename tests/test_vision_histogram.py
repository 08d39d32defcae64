"""Order statistics read off a histogram (vision/histogram.py) are numpy's own."""
import cv2
import numpy as np

from vision import histogram


def test_percentile_and_median_from_a_histogram_are_numpys():
    rng = np.random.default_rng(7)
    for size in (1, 2, 3, 10, 257, 4000):
        values = rng.integers(0, 256, size, dtype=np.uint8)
        if size > 10:
            values[: size // 3] = 200  # ties, as on a card's paper
        counts = np.cumsum(cv2.calcHist([values.reshape(-1, 1)], [0], None, [256], [0, 256]).ravel())
        for q in (0, 10, 50, 80, 90, 100):
            assert histogram.percentile(counts, q) == np.percentile(values, q)
        assert histogram.median(counts) == np.median(values)
        assert [histogram.kth(counts, k) for k in range(size)] == sorted(values.tolist())
        assert histogram.lower_median(counts) == sorted(values.tolist())[(size - 1) // 2]
