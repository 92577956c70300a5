"""Macro averages of one or two items (mrp.report.few, plain Python) equal numpy's bit for bit."""

from __future__ import annotations

import random

import numpy as np

from mrp.report import stats
from mrp.report.few import few_macro


def _numpy_macro(counts: np.ndarray) -> tuple:
    p, r, f, mask = stats._per_item(counts)
    keep = mask > 0
    items = int(np.count_nonzero(keep))
    if not items:
        return 0.0, 0.0, 0.0, 0
    return float(np.mean(p[keep])), float(np.mean(r[keep])), float(np.mean(f[keep])), items


def test_one_or_two_items_average_as_numpy_does() -> None:
    rng = random.Random(3)
    for _ in range(20_000):
        n = rng.randrange(3)
        top = rng.choice((3, 50, 10**6, 2**40))
        rows = []
        for _ in range(n):
            g, s = rng.randrange(top), rng.randrange(top)
            rows.append((g, s, rng.randrange(min(g, s) + 1)))
        counts = np.array(rows, dtype=np.int64).reshape(n, 3)
        fast = few_macro(counts)
        assert fast is not None
        assert [x.hex() if isinstance(x, float) else x for x in fast] == \
            [x.hex() if isinstance(x, float) else x for x in _numpy_macro(counts)], rows
        assert stats.macro(counts) == fast


def test_more_items_are_numpy_s() -> None:
    counts = np.array([(3, 4, 2), (5, 5, 5), (1, 7, 1)], dtype=np.int64)
    assert few_macro(counts) is None
    assert stats.macro(counts) == _numpy_macro(counts)
