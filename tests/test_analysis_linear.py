"""mrp-analyze in near-linear time (issue 61, item 3): the min-fill ordering, the minor-min-width bound and
the crossing spans give exactly what main's quadratic versions gave (kept here as oracles) on random graphs,
and a long chain is analyzed with work linear in its length (counted, not timed: main evaluated a fill
for every vertex left at every step, n^2 / 2 of them)."""

from __future__ import annotations

import random
from typing import Dict, List, Set, Tuple

import pytest

from mrp.graph import Edge, Graph, Node
from mrp.report import analysis, treewidth
from mrp.report.analysis import analyze, to_json

Adjacency = Dict[int, Set[int]]


def _min_fill_oracle(graph: Adjacency) -> int:
    graph = {u: set(vs) for u, vs in graph.items()}
    width = 0
    while graph:
        v = min(graph, key=lambda u: (treewidth._fill(graph, u), u))
        width = max(width, len(graph[v]))
        treewidth._eliminate(graph, v)
    return width


def _minor_min_width_oracle(graph: Adjacency) -> int:
    graph = {u: set(vs) for u, vs in graph.items()}
    bound = 0
    while graph:
        u = min(graph, key=lambda x: (len(graph[x]), x))
        bound = max(bound, len(graph[u]))
        if not graph[u]:
            del graph[u]
            continue
        v = min(graph[u], key=lambda x: (len(graph[x] & graph[u]), x))
        merged = (graph[u] | graph[v]) - {u, v}
        for w in graph.pop(u):
            graph[w].discard(u)
        for w in merged:
            graph[w].add(v)
        graph[v] = merged
    return bound


def _crossings_oracle(spans: List[Tuple[int, int]]) -> Dict[Tuple[int, int], Set[Tuple[int, int]]]:
    crossing: Dict[Tuple[int, int], Set[Tuple[int, int]]] = {}
    for a, b in spans:
        for c, d in spans:
            if a < c < b < d:
                crossing.setdefault((a, b), set()).add((c, d))
                crossing.setdefault((c, d), set()).add((a, b))
    return crossing


def _random_adjacency(rng: random.Random) -> Adjacency:
    n = rng.randint(1, 16)
    graph: Adjacency = {k: set() for k in range(n)}
    for _ in range(rng.randint(0, 3 * n)):
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b:
            graph[a].add(b)
            graph[b].add(a)
    return graph


@pytest.mark.parametrize("seed", range(200))
def test_orderings_and_crossings_equal_the_quadratic_oracles(seed: int) -> None:
    rng = random.Random(seed)
    graph = _random_adjacency(rng)
    assert treewidth.min_fill_width(graph) == _min_fill_oracle(graph)
    assert treewidth._minor_min_width(graph) == _minor_min_width_oracle(graph)
    n = rng.randint(2, 20)
    spans = [tuple(sorted(rng.sample(range(n), 2))) for _ in range(rng.randint(0, 12))]
    spans += spans[: rng.randint(0, 2)]  # repeated spans, as parallel edges give
    assert analysis._crossings(spans) == _crossings_oracle(spans)  # type: ignore[arg-type]


def _chain(n: int, flavor: int) -> Graph:
    return Graph(id="1", framework="dm" if flavor == 0 else "amr", flavor=flavor, tops=[0],
                 nodes=[Node(k, f"w{k % 7}") for k in range(n)],
                 edges=[Edge(k, k + 1, "arg1") for k in range(n - 1)])


@pytest.mark.parametrize("flavor", (0, 2))
def test_a_long_chain_takes_linear_work(monkeypatch: pytest.MonkeyPatch, flavor: int) -> None:
    n = 1_000
    calls = [0]
    fill = treewidth._fill

    def counted(graph: Adjacency, v: int) -> int:
        calls[0] += 1
        return fill(graph, v)

    monkeypatch.setattr(treewidth, "_fill", counted)
    figures = to_json(analyze([_chain(n, flavor)]))
    assert figures["trees"] == 100.0 and figures["treewidth_max"] == 1
    if flavor == 0:
        assert figures["noncrossing"] == 100.0 and figures["edge_length_average"] == 1.0
    assert calls[0] <= 20 * n, calls[0]


def test_a_random_bank_as_the_oracles_give_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every figure of a bank of random graphs (both flavors) is what the quadratic versions give."""
    rng = random.Random(7)
    graphs = []
    for k in range(40):
        n = rng.randint(1, 25)
        edges = [Edge(rng.randrange(n), rng.randrange(n), rng.choice("ab"))
                 for _ in range(rng.randint(0, 2 * n))]
        graphs.append(Graph(id=str(k), framework="dm", flavor=0, tops=[0],
                            nodes=[Node(j, "x") for j in range(n)], edges=edges))
    ours = to_json(analyze(graphs))
    monkeypatch.setattr(treewidth, "min_fill_width", _min_fill_oracle)
    monkeypatch.setattr(treewidth, "_minor_min_width", _minor_min_width_oracle)
    monkeypatch.setattr(analysis, "_crossings", _crossings_oracle)
    monkeypatch.setattr(analysis, "treewidth", lambda g: (treewidth.treewidth(g)[0], _min_fill_oracle(g)))
    assert ours == to_json(analyze(graphs))
