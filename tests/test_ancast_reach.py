"""AnCast's descendant counts (WLRM's weights; issue 61, item 1): the linear / bit-set algorithm of
:mod:`mrp.metrics.ancast.reach` gives exactly what the former fixpoint of bit sets gave (kept here as the
oracle) on small random graphs with cycles, self-loops and repeated edges; a long chain is counted without
quadratic work and stops at the pair's limits."""

from __future__ import annotations

import random
from typing import List

import pytest

from mrp.engine import limits
from mrp.metrics.ancast import reach
from mrp.solver.watchdog import pair_clock


def _oracle(children: List[List[int]]) -> List[int]:
    """main's algorithm before issue 61: bit sets grown to the fixpoint."""
    n = len(children)
    found = [0] * n
    changed = True
    while changed:
        changed = False
        for node in range(n):
            mine = found[node]
            for child in children[node]:
                mine |= (1 << child) | found[child]
            if mine != found[node]:
                found[node], changed = mine, True
    return [bin(mine).count("1") for mine in found]


@pytest.mark.parametrize("seed", range(300))
def test_counts_equal_the_fixpoint_on_random_graphs(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(0, 14)
    shape = rng.choice(["tree", "dag", "any"])
    children: List[List[int]] = [[] for _ in range(n)]
    for node in range(1, n):
        if shape != "any" or rng.random() < 0.8:
            children[rng.randrange(node)].append(node)
    for _ in range(rng.randint(0, 2 * n) if shape != "tree" else 0):
        a, b = rng.randrange(n), rng.randrange(n)
        if shape == "dag" and a >= b:
            continue
        children[a].append(b)
    order = list(range(n))
    rng.shuffle(order)  # node numbers need not follow the structure
    where = {old: new for new, old in enumerate(order)}
    shuffled: List[List[int]] = [[] for _ in range(n)]
    for old, edges in enumerate(children):
        shuffled[where[old]] = [where[child] for child in edges]
    assert reach.counts(shuffled) == _oracle(shuffled)


def test_a_long_chain_and_a_long_cycle() -> None:
    n = 50_000
    chain = [[k + 1] for k in range(n - 1)] + [[]]
    assert reach.counts(chain) == [n - 1 - k for k in range(n)]
    assert reach.counts(chain[:-1] + [[0]]) == [n] * n


def test_shared_descendants_are_counted_once() -> None:
    # a ladder: every node reaches the two below it, whose sets overlap
    n = 2_000
    ladder = [[k + 1, k + 2][: n - 1 - k] for k in range(n)]
    assert reach.counts(ladder) == [n - 1 - k for k in range(n)]


def test_the_work_stops_at_the_pairs_memory_cap() -> None:
    n = 3_000
    ladder = [[k + 1, k + 2][: n - 1 - k] for k in range(n)]  # two sets of about n bits alive at a time
    with pair_clock(), limits.budget(None, 600):
        assert reach.counts(ladder[:n // 2] + [[] for _ in range(n - n // 2)])[0] == n // 2 + 1
    with pair_clock(), limits.budget(None, 600):
        with pytest.raises(limits.Overrun) as stopped:
            reach.counts(ladder)
    assert stopped.value.why == "limit"


def test_the_work_stops_at_the_pairs_clock() -> None:
    with pair_clock(), limits.budget(0.0, None):
        with pytest.raises(limits.Overrun) as stopped:
            reach.counts([[1], []])
    assert stopped.value.why == "timeout"
