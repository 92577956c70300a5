"""Graph-bank statistics (mrp.report.analysis; mrp-mtool --analyze, mrp-analyze) against mtool's own
--analyze output on the five WSJ files, and the rules on hand-made graphs."""

from __future__ import annotations

import itertools
import json
import random
from typing import Dict, List, Set, Tuple

import pytest

import mrp
from mrp.errors import MRPError
from mrp.graph import Edge, Graph, Node
from mrp.report.analysis import analyze, mtool_analysis, mtool_lines, to_json
from mrp.report.treewidth import min_fill_width, treewidth

from conftest import run_cli, shared_file

FRAMEWORKS = ("eds", "dm", "psd", "amr", "ucca")


def reference(framework: str) -> str:
    return shared_file("reference", "mtool", "analyze", f"wsj.{framework}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_equals_mtool_on_the_wsj_files(framework: str) -> None:
    graphs = mrp.read(str(shared_file("data", "wsj", framework, "wsj.mrp")))
    assert mtool_analysis(graphs) == reference(framework)


@pytest.mark.parametrize("framework", ("dm", "amr"))
def test_mrp_mtool_analyze_is_the_drop_in(framework: str) -> None:
    path = str(shared_file("data", "wsj", framework, "wsj.mrp"))
    done = run_cli("mtool", ["--read", "mrp", "--analyze", path])
    assert done.code == 0, done.err
    assert done.out == reference(framework)


def test_mrp_analyze_json_and_table() -> None:
    paths = [str(shared_file("data", "wsj", name, "wsj.mrp")) for name in ("psd", "ucca")]
    done = run_cli("analyze", paths)
    assert done.code == 0, done.err
    found = json.loads(done.out)
    assert list(found) == ["psd", "ucca"]
    assert found["psd"]["graphs"] == 89 and round(found["psd"]["pagenumber_two"], 2) == 97.75
    assert found["ucca"]["attributes"]["n"] == 134 and found["ucca"]["noncrossing"] is None
    assert found["ucca"]["treewidth_max"] == 3
    table = run_cli("analyze", ["--table", *paths])
    assert table.code == 0, table.err
    rows = {line.split("  ")[0].strip(): line.split()[-2:] for line in table.out.splitlines()[1:]}
    assert rows["average treewidth"] == ["1.562", "1.736"]
    assert rows["\\percentgraph\\ noncrossing"] == ["68.54", "--"]
    nothing = run_cli("analyze", ["--framework", "eds", paths[0]])
    assert nothing.code == 2 and "no graph to analyze" in nothing.err


# ----------------------------------------------------------------------------- the rules, by hand

def graph(nodes: int, edges: List[Tuple[int, int]], tops: Tuple[int, ...] = (0,), flavor: int = 1) -> Graph:
    return Graph(id="g", framework="dm" if flavor == 0 else "eds", flavor=flavor, tops=list(tops),
                 nodes=[Node(id=k, label="x") for k in range(nodes)],
                 edges=[Edge(a, b, "e") for a, b in edges])


def test_roots_singletons_components() -> None:
    # 0 -> 1, 2 isolated (a singleton), 3 an isolated top (no singleton, a component of its own)
    total = analyze([graph(4, [(0, 1)], tops=(0, 3))])
    figures = to_json(total)
    assert total.singletons == 1 and figures["not_connected"] == 100.0
    assert figures["multi_rooted"] == 100.0  # 0, 2 and 3 have no incoming edge
    assert figures["non_top_roots"] == 0.0
    assert figures["trees"] == 0.0 and figures["forests"] == 100.0


def test_cycles_reentrancy_density() -> None:
    figures = to_json(analyze([graph(3, [(0, 1), (1, 2), (2, 0)]), graph(3, [(0, 1), (0, 2), (1, 2)])]))
    assert figures["cyclic"] == 50.0
    assert figures["reentrant"] == pytest.approx(100 / 6)  # node 2 of the second graph
    assert figures["density_average"] == 1.5  # three edges over two per graph
    assert figures["treewidth_max"] == 2


def test_crossing_and_two_pages() -> None:
    two = graph(4, [(0, 2), (1, 3)], flavor=0)
    three = graph(6, [(0, 3), (1, 4), (2, 5)], flavor=0)  # three edges crossing each other: three pages
    figures = to_json(analyze([two, three]))
    assert figures["noncrossing"] == 0.0 and figures["pagenumber_two"] == 50.0
    assert figures["edge_length_average"] == pytest.approx((2 + 2 + 3 * 3) / 5)


def test_mixed_flavors_refused_and_nothing_gives_dashes() -> None:
    with pytest.raises(MRPError, match="flavor 0"):
        mtool_analysis([graph(2, [(0, 1)], flavor=0), graph(2, [(0, 1)])])
    lines = mtool_lines(analyze([]))
    assert lines[0] == "(01)\tnumber of graphs\t0" and lines[3].endswith("\t--")


def brute_force(adjacency: Dict[int, Set[int]]) -> int:
    best = len(adjacency)
    for order in itertools.permutations(adjacency):
        graph_ = {u: set(vs) for u, vs in adjacency.items()}
        width = 0
        for v in order:
            neighbours = graph_.pop(v)
            width = max(width, len(neighbours))
            for u in neighbours:
                graph_[u].discard(v)
                graph_[u] |= neighbours - {u}
        best = min(best, width)
    return best


@pytest.mark.parametrize("seed", range(40))
def test_treewidth_is_exact(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 7)
    adjacency: Dict[int, Set[int]] = {k: set() for k in range(n)}
    for a, b in itertools.combinations(range(n), 2):
        if rng.random() < 0.45:
            adjacency[a].add(b)
            adjacency[b].add(a)
    exact, upper = treewidth(adjacency)
    assert exact == brute_force(adjacency) <= upper == min_fill_width(adjacency)


def test_treewidth_of_known_graphs() -> None:
    def of(edges: List[Tuple[int, int]]) -> int:
        adjacency: Dict[int, Set[int]] = {}
        for a, b in edges:
            adjacency.setdefault(a, set()).add(b)
            adjacency.setdefault(b, set()).add(a)
        return treewidth(adjacency)[0]

    petersen = [(k, (k + 1) % 5) for k in range(5)] + [(k, k + 5) for k in range(5)] + \
        [(5 + k, 5 + (k + 2) % 5) for k in range(5)]
    grid = [(r * 4 + c, r * 4 + c + 1) for r in range(4) for c in range(3)] + \
        [(r * 4 + c, (r + 1) * 4 + c) for r in range(3) for c in range(4)]
    assert of(petersen) == 4 and of(grid) == 4
    assert of([(0, 1), (1, 2), (2, 3)]) == 1
    assert of(list(itertools.combinations(range(5), 2))) == 4


def test_html_distributions(tmp_path) -> None:
    """mrp-analyze --html: per framework a chart per distribution, whose bars count every graph."""
    import re

    out = tmp_path / "stats.html"
    paths = [str(shared_file("data", "wsj", name, "wsj.mrp")) for name in ("dm", "amr")]
    done = run_cli("analyze", ["--html", str(out), *paths])
    assert done.code == 0, done.err
    assert json.loads(done.out)["dm"]["graphs"] == 89  # stdout still carries the report alone
    page = out.read_text(encoding="utf-8")
    sections = re.findall(r"<section><h2>(\w+) \((\d+) graphs\)</h2>(.*?)</section>", page)
    assert [(name, int(n)) for name, n, _ in sections] == [("dm", 89), ("amr", 87)]
    for _, n, body in sections:
        figures = re.findall(r"<figure>(.*?)</figure>", body)
        assert len(figures) == 5
        for figure in figures:
            assert sum(int(count) for count in re.findall(r": (\d+)</title>", figure)) == int(n)
    refused = run_cli("analyze", ["--html", paths[0], paths[0]])
    assert refused.code == 2 and refused.out == ""
