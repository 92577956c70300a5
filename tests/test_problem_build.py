"""Building a Problem (mrp.solver.problem, compiled in mrp.solver.assemble) against its definition written
out plainly in Python: node rewards, the gold edges, the system edges and every candidate, array for
array, on random pairs (loops, labels shared or not, payloads that multiply or weigh by a function), and
a hand-made case per rule."""

from __future__ import annotations

import random
from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple

import numpy as np

from mrp.normalize import NormalGraph
from mrp.solver.problem import MAX_CANDIDATES, Problem, build, from_triples, with_edges

Edges = Dict[Tuple[int, int, Hashable], Any]


def _defined(U: np.ndarray, gold: Edges, system: Edges,
             weight: Optional[Callable[[Any, Any], int]]) -> Problem:
    """The Problem as with_edges's docstring defines it, one edge at a time."""
    U = U.copy()
    times = weight or (lambda mine, theirs: mine * theirs)
    groups: Dict[Hashable, List[Tuple[int, int, Any]]] = {}
    for (c, d, key), payload in system.items():
        if c != d:
            groups.setdefault(key, []).append((c, d, payload))  # labels in the order they first appear
    flat: List[Tuple[int, int, Any]] = []
    first: Dict[Hashable, int] = {}
    for key, group in groups.items():
        first[key] = len(flat)
        flat.extend(sorted(group, key=lambda edge: edge[:2]))
    src, tgt, lab, cptr, cc, cd, cf, cw = [], [], [], [0], [], [], [], []
    numbers: Dict[Hashable, int] = {}
    for (a, b, key), payload in gold.items():
        if a == b:
            for (c, d, theirs), value in system.items():
                if c == d and theirs == key:
                    U[a, c] += times(payload, value)
            continue
        src.append(a)
        tgt.append(b)
        lab.append(numbers.setdefault(key, len(numbers)))
        start = first.get(key, 0)
        for f in range(start, start + len(groups.get(key, ()))):
            cc.append(flat[f][0])
            cd.append(flat[f][1])
            cf.append(f)
            cw.append(times(payload, flat[f][2]))
        cptr.append(len(cc))
    ints = lambda values: np.array(values, np.int64)  # noqa: E731
    return Problem(U, ints(src), ints(tgt), ints(lab), ints(cptr), ints(cc), ints(cd), ints(cf), ints(cw),
                   ints([edge[0] for edge in flat]), ints([edge[1] for edge in flat]))


def _same(ours: Problem, defined: Problem) -> None:
    assert ours.complete == defined.complete
    for name, mine, theirs in zip(Problem._fields, ours, defined):
        if isinstance(mine, np.ndarray):
            assert mine.dtype == np.int64, name
            assert mine.shape == theirs.shape and np.array_equal(mine, theirs), name


def _edges(rng: random.Random, n: int, labels: List[Optional[str]], payload: Callable[[], Any]) -> Edges:
    edges: Edges = {}
    for _ in range(rng.randrange(3 * n + 1)):
        a = rng.randrange(n)
        b = a if rng.random() < 0.15 else rng.randrange(n)  # loops too
        edges[(a, b, rng.choice(labels))] = payload()
    return edges


def test_edges_as_defined_on_random_pairs() -> None:
    rng = random.Random(11)
    overlap = lambda mine, theirs: 1 + len(mine & theirs)  # noqa: E731  # the MRP metric's attributes
    for case in range(1500):
        n, m = rng.randrange(1, 8), rng.randrange(1, 8)
        labels: List[Optional[str]] = ["r", "s", "t", None][:rng.randrange(1, 5)]
        if case % 2:
            weight: Optional[Callable[[Any, Any], int]] = overlap
            payload: Callable[[], Any] = lambda: frozenset(rng.sample("xyz", rng.randrange(3)))  # noqa: E731
        else:
            weight, payload = None, lambda: rng.choice((1, 1, 2, 3))
        gold, system = _edges(rng, n, labels, payload), _edges(rng, m, labels, payload)
        U = np.array([[rng.randrange(3) for _ in range(m)] for _ in range(n)], np.int64)
        _same(with_edges(U.copy(), gold, system, weight), _defined(U, gold, system, weight))


def test_triples_as_defined_on_random_pairs() -> None:
    rng = random.Random(12)
    keys: List[Hashable] = [("instance", "a"), ("instance", "b"), ("polarity", "-"), "TOP"]
    for _ in range(1000):
        n, m = rng.randrange(1, 7), rng.randrange(1, 7)
        local_g = [{key: rng.choice((1, 2)) for key in rng.sample(keys, rng.randrange(3))} for _ in range(n)]
        local_s = [{key: rng.choice((1, 3)) for key in rng.sample(keys, rng.randrange(3))} for _ in range(m)]
        rel_g = _edges(rng, n, ["r", "s"], lambda: rng.choice((1, 2)))
        rel_s = _edges(rng, m, ["s", "t"], lambda: rng.choice((1, 2)))
        U = np.array([[sum(count * local_s[j].get(key, 0) for key, count in local_g[i].items())
                       for j in range(m)] for i in range(n)], np.int64)
        _same(from_triples(local_g, local_s, rel_g, rel_s), _defined(U, rel_g, rel_s, None))


def _normal(tops: List[bool], labels: List[Optional[str]], anchors: List[Any],
            properties: List[Any], edges: Dict[Any, Any]) -> NormalGraph:
    return NormalGraph("1", None, None, list(range(len(tops))), tops, labels,
                       [frozenset(pairs) for pairs in properties], anchors, edges)


def test_node_rewards_count_tops_labels_anchors_and_properties_each_in_its_own_field() -> None:
    gold = _normal([True, False], ["a", "x"], [frozenset({1}), None],
                   [{("p", "1")}, {("p", "1"), ("q", "2")}], {})
    system = _normal([True, False, False], ["x", "a", None], [None, frozenset({1}), "a"],
                     [{("q", "2")}, {("p", "1"), ("q", "2")}, set()], {})
    # a label equal to another node's anchor is no match: each field compares with itself only
    expected = [[1 + 0 + 0 + 0, 0 + 1 + 1 + 1, 0], [0 + 1 + 0 + 1, 0 + 0 + 0 + 2, 0]]
    assert build(gold, system).U.tolist() == expected


def test_the_groups_follow_the_first_edge_not_the_first_loop_and_sort_by_ends() -> None:
    system = {(1, 1, "r"): 1, (2, 0, "s"): 1, (1, 0, "r"): 1, (0, 2, "s"): 1, (0, 1, "s"): 1}
    gold = {(0, 1, "r"): 2, (1, 0, "s"): 1, (0, 0, "r"): 3}
    problem = with_edges(np.zeros((2, 3), np.int64), gold, system, None)
    assert problem.ssrc.tolist() == [0, 0, 2, 1] and problem.stgt.tolist() == [1, 2, 0, 0]  # s, then r
    assert problem.cf.tolist() == [3, 0, 1, 2] and problem.cw.tolist() == [2, 1, 1, 1]
    assert problem.U.tolist() == [[0, 3, 0], [0, 0, 0]]  # gold loop 0 -r-> 0 onto system loop 1 -r-> 1


def test_past_the_most_candidates_or_once_stopped_only_the_rewards_are_kept() -> None:
    n = 3000  # one label, n edges each side: n * n candidates, past MAX_CANDIDATES
    assert n * n > MAX_CANDIDATES
    edges = {(k, (k + 1) % n, "r"): 1 for k in range(n)}
    U = np.ones((n, n), np.int64)
    problem = with_edges(U, edges, edges, None)
    assert not problem.complete and problem.cc.shape[0] == 0 and problem.U is U
    stopped = with_edges(np.ones((2, 2), np.int64), {(0, 1, "r"): 1}, {(0, 1, "r"): 1}, None,
                         np.ones(1, np.int64))
    assert not stopped.complete and stopped.src.shape[0] == 0


def test_rewards_given_in_another_layout_are_used_as_they_are() -> None:
    U = np.arange(6, dtype=np.int64).reshape(3, 2).T  # not C-contiguous
    problem = with_edges(U, {(0, 1, "r"): 1}, {(1, 0, "r"): 1}, None)
    assert problem.U.tolist() == U.tolist() and problem.U.flags.c_contiguous
