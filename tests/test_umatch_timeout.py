"""--timeout covers juːmæʧ's greedy (issue 42): dense candidate links (many unaligned nodes of one concept)
make the comparator's greedy, which weighs every link again after each decision, run far past a pair's
--timeout.  It stops at the pair's deadline with the part of its map made by then (1:1), counted as
juːmæʧ counts, cut as "timeout" with the trivial bound (as a pair beyond --max-memory is cut as "limit"),
in the compat and the exact modes."""

from __future__ import annotations

import random
import time
from typing import Any, Dict, Tuple

import pytest

import mrp
from mrp.graph import Edge, Graph, Node

from conftest import cpu_seconds

ROLES = ["ARG0", "ARG1", "mod", "op1", "ARG2"]
#: nodes a side: the greedy takes about 14 s (compat mode, before it kept the clock)
NODES = 400
TIMEOUT = 1


def _graph(n: int, seed: int, concepts: Tuple[str, ...] = ("person",)) -> Graph:
    """A random tree whose nodes are all persons (or of ``concepts``), 30% of them unaligned (every unaligned
    pair of one concept a link)."""
    rng = random.Random(seed)
    words = [f"w{k}" for k in range(n)]
    starts = [sum(len(w) + 1 for w in words[:k]) for k in range(n)]
    nodes = []
    for k in range(n):
        node = Node(id=k, label=rng.choice(concepts))
        if rng.random() < 0.2:
            node.properties.append("polarity")
            node.values.append("-")
        if rng.random() < 0.7:
            t = k if rng.random() < 0.8 else rng.randrange(n)
            node.anchors = [(starts[t], starts[t] + len(words[t]))]
        nodes.append(node)
    edges = [Edge(rng.randrange(k), k, rng.choice(ROLES)) for k in range(1, n)]
    return Graph(id="1", framework="umr", input=" ".join(words), tops=[0], nodes=nodes, edges=edges,
                 variables={k: f"s1x{k}" for k in range(n)})


def _pair(n: int = NODES) -> Tuple[Graph, Graph]:
    return _graph(n, 1), _graph(n, 2)


def _item(result: Dict[str, Any]) -> Dict[str, Any]:
    (items,) = result["scores"].values()
    (item,) = items.values()
    return item  # type: ignore[no-any-return]


@pytest.mark.parametrize("compat", [True, False])
def test_the_greedy_ends_within_the_timeout(compat: bool) -> None:
    gold, system = _pair()
    began = cpu_seconds()  # CPU time, its workers' included: the machine's load does not stretch it
    result = mrp.score([gold], [system], "umatch", timeout=TIMEOUT, umatch_compat=compat,
                       trace=True).to_dict()
    took = cpu_seconds() - began
    assert took < TIMEOUT + 3, f"{took:.1f} s of CPU at --timeout {TIMEOUT}"
    assert result["cut"]["timeout"] == 1 and result["cut"]["error"] == 0 and result["exact"] == 0
    item = _item(result)
    assert "error" not in item and item["exact"] is False and item["cut"] == "timeout"
    found, bound = result["umatch"]["c"], result["bound"]["c"]
    assert 0 <= found <= bound <= min(result["umatch"]["g"], result["umatch"]["s"])
    assert item["bound"] == bound


def test_the_solver_gets_what_the_greedy_left_of_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the exact mode the greedy start, building and the search share the pair's --timeout: a greedy
    that ends at T / 3 leaves the solver at most 2 T / 3 (the pair's clock was started again after the
    greedy, so that a pair could run about 2 T)."""
    from mrp.metrics.umatch import exact
    from mrp.solver import solve, watchdog
    from mrp.solver.warmup import ready

    concepts = tuple(f"c{k}" for k in range(40))  # sparse links: the greedy takes a few hundredths
    n = exact.SMALL_NODES + 30  # past the small search: the solver is called
    gold, system = _graph(n, 1, concepts), _graph(n, 2, concepts)
    ready()  # the solver's kernels loaded before the clock runs
    real_greedy, real_solve = exact.symmetrize, solve.solve_problem
    given = []

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(1.0)  # a greedy that takes a third of the pair's time, then ends
        return real_greedy(*args, **kwargs)

    def solving(problem: Any, limit: Any, timeout: Any, *args: Any) -> Any:
        given.append(watchdog.left(timeout))
        return real_solve(problem, limit, timeout, *args)

    monkeypatch.setattr(exact, "symmetrize", slow)
    monkeypatch.setattr(solve, "solve_problem", solving)
    result = mrp.score([gold], [system], "umatch", timeout=3, trace=True).to_dict()
    assert given, "the solver was not called"
    assert given[0] is not None and given[0] <= 2.0 + 0.05, given
    assert result["cut"]["error"] == 0
