"""Big pairs (issue 42, item 1): no n x m array beyond ``greedy.MAX_CELLS`` node pairs (memory linear in
the pair's size), the pair ends within its timeout, and a cut big pair's map is what a linear-time start
gives: at least 90% of the correspondence the generator planted (bench/synthetic.py).  Memory per node and
the 20k/100k figures are measured in ``make bench`` (bench/run.py, "big pairs"), not here."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import mrp
from mrp.graph import Edge, Graph, Node
from mrp.normalize import normalize
from mrp.solver import greedy

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import synthetic  # noqa: E402


def _planted(directory: Path, nodes: int) -> Tuple[Path, Path, int]:
    gold, system = synthetic.big_pair(directory, nodes=nodes)
    return gold, system, json.loads((directory / "big.planted.json").read_text())["c"]


def _injective(mapping: List[int], m: int) -> bool:
    used = [j for j in mapping if j >= 0]
    return len(used) == len(set(used)) and all(0 <= j < m for j in used)


def test_a_pair_beyond_the_cells_limit_gets_the_linear_map(tmp_path: Path) -> None:
    """Just past MAX_CELLS node pairs: no n x m array (it would be 200 MB), the greedy map alone, cut by
    the size limit ("limit", deterministic), its bound valid; at least 90% of the planted tuples."""
    nodes = int(greedy.MAX_CELLS ** 0.5) + 1
    gold, system, planted = _planted(tmp_path, nodes)
    started = time.monotonic()
    result = mrp.score(str(gold), str(system), "mrp", timeout=2).to_dict()
    assert time.monotonic() - started < 2 + 0.5 + 10, "reading and linear work on a loaded machine"
    found, bound = result["all"]["c"], result["bound"]["c"]
    assert found >= 0.9 * planted, (found, planted)
    assert found <= bound and bound >= planted
    assert result["cut"]["n"] == 1 and result["cut"]["limit"] == 1 and result["cut"]["timeout"] == 0
    again = mrp.score(str(gold), str(system), "mrp", timeout=0).to_dict()
    assert again["all"] == result["all"], "the size limit does not depend on the clock"


def test_a_big_pair_cut_by_its_timeout_keeps_the_better_map(tmp_path: Path) -> None:
    """Below MAX_CELLS, a 3,000-node pair stopped by --timeout 1 ends within its cap (with slack for a
    loaded machine) and keeps at least 90% of the planted tuples (the search alone found a third of them
    on the 5,000-node pair in 5 s)."""
    gold, system, planted = _planted(tmp_path, 3000)
    mrp.score(str(gold), str(gold), "mrp", timeout=1)  # kernels ready (compiled once per installation)
    started = time.monotonic()
    result = mrp.score(str(gold), str(system), "mrp", timeout=1).to_dict()
    took = time.monotonic() - started
    assert took < 1 + 0.5 + 10, took
    found, bound = result["all"]["c"], result["bound"]["c"]
    assert found >= 0.9 * planted and bound >= max(found, planted)


def _graph(nodes: List[str], edges: List[Tuple[int, int, str]]) -> Graph:
    return Graph("1", "eds", flavor=1, nodes=[Node(k, label) for k, label in enumerate(nodes)],
                 edges=[Edge(a, b, label) for a, b, label in edges], tops=[0])


def test_a_renumbered_copy_is_recovered_in_full() -> None:
    """A graph against itself renumbered and relisted: every tuple matched."""
    rng = random.Random(3)
    n = 400
    labels = [rng.choice("abcde") for _ in range(n)]
    edges = [(rng.randrange(k), k, rng.choice(("ARG1", "ARG2"))) for k in range(1, n)]
    order = list(range(n))
    rng.shuffle(order)
    where = {old: new for new, old in enumerate(order)}
    copy = _graph([labels[old] for old in order], [(where[a], where[b], label) for a, b, label in edges])
    copy.tops = [where[0]]
    gold, system = normalize(_graph(labels, edges)), normalize(copy)
    from mrp.metrics.tuples import count

    mapping = greedy.correspondence(gold, system)
    g, s, c = count(gold, system, mapping)["all"]
    assert g == s == c


@pytest.mark.parametrize("seed", range(30))
def test_the_map_is_injective_and_never_above_the_optimum(seed: int) -> None:
    """Small random pairs: an injective partial map, matching no more than the proved optimum."""
    from mrp.metrics.mrp_pair import score_pair
    from mrp.metrics.tuples import count

    rng = random.Random(seed)

    def random_graph() -> Graph:
        n = rng.randrange(0, 8)
        edges = [(rng.randrange(n), rng.randrange(n), rng.choice("xy")) for _ in range(rng.randrange(12))] \
            if n else []
        return _graph([rng.choice("ab") for _ in range(n)], edges)

    gold_graph, system_graph = random_graph(), random_graph()
    gold, system = normalize(gold_graph), normalize(system_graph)
    mapping = greedy.correspondence(gold, system)
    assert len(mapping) == len(gold) and _injective(mapping, len(system))
    best = score_pair(gold_graph, system_graph)
    assert best.exact and count(gold, system, mapping)["all"][2] <= best.counts["all"][2]


def test_no_node_pair_array_is_built_beyond_the_limit(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_CELLS, nothing builds the solver's Problem (whose U alone is n x m integers)."""
    from mrp.metrics import mrp_pair

    monkeypatch.setattr(greedy, "MAX_CELLS", 100 * 100)
    gold, system, planted = _planted(tmp_path, 101)
    built: List[Any] = []
    real = mrp_pair.build
    monkeypatch.setattr(mrp_pair, "build", lambda *args: built.append(1) or real(*args))
    from mrp.metrics.mrp_pair import score_pair

    graphs: Dict[str, Any] = {name: mrp.read(str(path))[0] for name, path in (("g", gold), ("s", system))}
    result = score_pair(graphs["g"], graphs["s"])
    assert not built and not result.exact and result.cut == "limit"
    assert result.counts["all"][2] >= 0.9 * planted
