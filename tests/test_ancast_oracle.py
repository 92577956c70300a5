"""The exact AnCast alignment (``mrp.metrics.ancast.exact``) against a brute-force oracle.

Hypothesis draws small AMR-like graph pairs (concepts that contain one another,
senses, constants, reentrancies, loops, inverted roles and ``mod``); the oracle
tries every injective partial map from test to gold nodes, scores it with the
metric's own definition (``scores.score`` under ``alignment.from_map``), and
keeps the largest LRM numerator and, among the maps reaching it, the largest
concept similarity.  The solver must prove the same LRM optimum and reach that
concept similarity (to its tie-break resolution), on the default reading and
on AnCast's.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Tuple

from hypothesis import given, note
from hypothesis import strategies as st

from mrp.graph import Edge, Graph, Node
from mrp.metrics.ancast.alignment import from_map
from mrp.metrics.ancast.exact import solve
from mrp.metrics.ancast.reading import view
from mrp.metrics.ancast.scores import score
from mrp.metrics.ancast.similarity import Similarity

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import budget  # noqa: E402
from oracle import maps  # noqa: E402

CONCEPTS = ["run-01", "run-02", "run", "rerun-01", "person", "per", "and", "name"]
ROLES = ["ARG0", "ARG1", "ARG0-of", "mod", "op1"]
CONSTANTS = [("polarity", "-"), ("op1", "Ed"), ("op2", "Pope"), ("quant", "5"), ("mod", "big"), ("op1", "ed")]


@st.composite
def graphs(draw: st.DrawFn) -> Graph:
    n = draw(st.integers(1, 4))
    nodes = []
    for k in range(n):
        node = Node(id=k, label=draw(st.sampled_from(CONCEPTS)))
        for role, value in draw(st.lists(st.sampled_from(CONSTANTS), max_size=2)):
            node.properties.append(role)
            node.values.append(value)
        nodes.append(node)
    edges = []
    for _ in range(draw(st.integers(0, 5))):
        a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        edges.append(Edge(a, b, draw(st.sampled_from(ROLES))))
    return Graph(id="1", framework="amr", tops=[0], nodes=nodes, edges=edges,
                 variables={k: f"v{k}" for k in range(n)})


def _best(test_graph: Graph, gold_graph: Graph, compat: bool) -> Tuple[float, float, List[int]]:
    test, gold = view(test_graph, compat), view(gold_graph, compat)
    sim = Similarity(test, gold)
    best = (-1.0, -1.0, [])
    for mapping in maps(len(test), len(gold)):
        pi = [-1 if j is None else j for j in mapping]
        alignment = from_map(pi, len(gold), sim)
        lr = score(test, gold, sim, alignment, compat)[0].lr
        concept = alignment.precision.concept
        if (lr, concept) > best[:2]:
            best = (lr, concept, pi)
    return best


def _check(test_graph: Graph, gold_graph: Graph, compat: bool) -> None:
    lr, concept, pi = _best(test_graph, gold_graph, compat)
    test, gold = view(test_graph, compat), view(gold_graph, compat)
    sim = Similarity(test, gold)
    found = solve(test, gold, sim)
    alignment = from_map(found.mapping, len(gold), sim)
    found_lr = score(test, gold, sim, alignment, compat)[0].lr
    note(f"oracle {lr} {concept} {pi}; solver {found.lr} {found_lr} {found.mapping}")
    assert found.exact and not found.rounded
    assert abs(found.lr - lr) < 1e-9
    assert abs(found_lr - lr) < 1e-9
    assert found.bound >= lr - 1e-9
    assert alignment.precision.concept >= concept - len(test) * 1e-5


@budget(150)
@given(graphs(), graphs())
def test_optimum_default_reading(test_graph: Graph, gold_graph: Graph) -> None:
    _check(test_graph, gold_graph, False)


@budget(150)
@given(graphs(), graphs())
def test_optimum_ancast_reading(test_graph: Graph, gold_graph: Graph) -> None:
    _check(test_graph, gold_graph, True)


@budget(60)
@given(graphs())
def test_identical_graphs_score_one(graph: Graph) -> None:
    """A graph against itself: LRM (and concept) 1 under the optimum."""
    test, gold = view(graph, False), view(graph, False)
    sim = Similarity(test, gold)
    found = solve(test, gold, sim)
    precision, recall = score(test, gold, sim, from_map(found.mapping, len(gold), sim), False)
    assert abs(precision.value("lrm") - 1) < 1e-9 and abs(recall.value("lrm") - 1) < 1e-9


@budget(40)
@given(graphs(), graphs())
def test_rounded_weights_stay_close(test_graph: Graph, gold_graph: Graph) -> None:
    """When the exact denominators do not fit, the weights are rounded: not exact, but near the optimum."""
    from mrp.metrics.ancast import exact

    lr = _best(test_graph, gold_graph, False)[0]
    test, gold = view(test_graph, False), view(gold_graph, False)
    sim = Similarity(test, gold)
    budget_before = exact.BUDGET
    exact.BUDGET = 1 << 8  # too small for the exact scale of almost every pair
    try:
        found = solve(test, gold, sim)
    finally:
        exact.BUDGET = budget_before
    found_lr = score(test, gold, sim, from_map(found.mapping, len(gold), sim), False)[0].lr
    if found.rounded:
        assert not found.exact
    assert found_lr >= lr - (len(test.relations) + 1) / found.scale - 1e-9


@budget(100)
@given(st.lists(st.sampled_from(["", "a", "ab", "ba", "aba", "číst", "čí", "st", "run-01"]), max_size=5),
       st.lists(st.sampled_from(["", "a", "ab", "b", "číst", "íst", "run", "person"]), max_size=5))
def test_vectorized_string_similarity(one: List[str], two: List[str]) -> None:
    """The matrix of string similarities equals the definition pair by pair (empty strings included)."""
    from mrp.metrics.ancast.similarity import _strings, string_similarity

    matrix = _strings(one, two)
    assert matrix.shape == (len(one), len(two))
    for i, a in enumerate(one):
        for j, b in enumerate(two):
            assert matrix[i, j] == string_similarity(a, b)
