"""The unlabeled MRP metric: each changed tuple type on hand-made graphs, and the exact score
against a brute force that projects the labeled tuples of every node correspondence."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Dict, Hashable, Sequence, Set, Tuple

from hypothesis import given

from mrp.engine.options import Options
from mrp.engine.pairing import Pair, Pairing
from mrp.graph import Edge, Graph, Node
from mrp.metrics.mrp.pair import score_pair
from mrp.metrics.registry import canonical, evaluate
from mrp.metrics.registry import metric as registered_metric
from mrp.metrics.unlabeled.metric import unlabel
from mrp.normalize import NormalGraph, normalize
from mrp.report.signature import signature

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_oracle import pairs  # noqa: E402

from conftest import budget, run_cli, shared_file  # noqa: E402
from oracle import maps  # noqa: E402

TEXT = "ab cd ef"
#: the tuple types of the unlabeled metric, each made from the labeled tuples
Projected = Dict[str, Set[tuple]]


def _unlabeled_sets(graph: NormalGraph, identity: Sequence[Hashable], nodes: bool) -> Projected:
    """The unlabeled tuples of a normalized (labeled) graph, written from the definition: edge labels
    projected away (edges as pairs, attributes by pair) and, with ``nodes``, no node labels."""
    sets: Projected = {name: set() for name in ("tops", "labels", "properties", "anchors", "edges",
                                                "attributes")}
    for k, node in enumerate(identity):
        if graph.tops[k]:
            sets["tops"].add((node,))
        if graph.labels[k] is not None and not nodes:
            sets["labels"].add((node, graph.labels[k]))
        sets["properties"].update((node, name, value) for name, value in graph.properties[k])
        if graph.anchors[k] is not None:
            sets["anchors"].add((node, graph.anchors[k]))
    for (source, target, _), attributes in graph.edges.items():
        a, b = identity[source], identity[target]
        sets["edges"].add((a, b))
        sets["attributes"].update((a, b, name, value) for name, value in attributes)
    return sets


def _brute_force(gold: Graph, system: Graph, nodes: bool = True) -> Tuple[int, Dict[str, Tuple[int, int]]]:
    """The best total c over all maximal maps, and per type (g, s)."""
    normal_gold, normal_system = normalize(gold), normalize(system)
    theirs = _unlabeled_sets(normal_system, [("s", j) for j in range(len(normal_system))], nodes)
    best = -1
    sizes: Dict[str, Tuple[int, int]] = {}
    for pi in maps(len(normal_gold), len(normal_system), maximal_only=True):
        identity = [("g", i) if j is None else ("s", j) for i, j in enumerate(pi)]
        ours = _unlabeled_sets(normal_gold, identity, nodes)
        best = max(best, sum(len(ours[name] & theirs[name]) for name in ours))
        sizes = {name: (len(ours[name]), len(theirs[name])) for name in ours}
    return best, sizes


def _graph(nodes: list, edges: list, tops: list = (), text: str = TEXT) -> Graph:  # type: ignore[assignment]
    return Graph(id="1", framework="eds", input=text, tops=list(tops), nodes=nodes, edges=edges)


def _score(gold: Graph, system: Graph) -> Dict[str, Tuple[int, int, int]]:
    return score_pair(unlabel(gold), unlabel(system)).counts


def test_node_labels_are_gone_and_tops_properties_anchors_stay() -> None:
    gold = _graph([Node(0, "a", ["pos"], ["n"], [(0, 2)]), Node(1, "b")], [], [0])
    system = _graph([Node(7, "z", ["pos"], ["n"], [(0, 2)]), Node(8, "y")], [], [7])
    counts = _score(gold, system)
    assert counts["labels"] == (0, 0, 0)
    for name in ("tops", "properties", "anchors"):
        assert counts[name] == (1, 1, 1)
    assert score_pair(gold, system).counts["labels"] == (2, 2, 0)


def test_edges_are_unlabeled_pairs() -> None:
    gold = _graph([Node(0, "a"), Node(1, "b")], [Edge(0, 1, "ARG1"), Edge(0, 1, "ARG2")])
    system = _graph([Node(0, "a"), Node(1, "b")], [Edge(0, 1, "ARG3")])
    counts = _score(gold, system)
    # the two gold edges between the same nodes are one unlabeled edge
    assert counts["edges"] == (1, 1, 1)
    assert score_pair(gold, system).counts["edges"] == (2, 1, 0)


def test_inverted_edges_are_restored_before_the_label_goes() -> None:
    gold = _graph([Node(0, "a"), Node(1, "b")], [Edge(0, 1, "ARG0-of")])
    same = _graph([Node(0, "a"), Node(1, "b")], [Edge(1, 0, "ARG5")])
    reverse = _graph([Node(0, "a"), Node(1, "b")], [Edge(0, 1, "ARG5")])
    assert _score(gold, same)["edges"] == (1, 1, 1)
    assert _score(gold, reverse)["all"][2] == 1  # one edge either way, but not both directions: the map flips
    assert unlabel(gold).edges[0].source == 1 and unlabel(gold).edges[0].label is None


def test_attributes_are_keyed_by_the_unlabeled_edge() -> None:
    gold = _graph([Node(0), Node(1)], [Edge(0, 1, "A", None, ["remote"], [True])], text="")
    system = _graph([Node(0), Node(1)], [Edge(0, 1, "D", None, ["remote"], ["true"])], text="")
    assert _score(gold, system)["attributes"] == (1, 1, 1)
    plain = _graph([Node(0), Node(1)], [Edge(0, 1, "D", None, ["remote"], [False])], text="")
    assert _score(gold, plain)["attributes"] == (1, 0, 0)


def _check_exact(gold: Graph, system: Graph, nodes: bool) -> None:
    best, sizes = _brute_force(gold, system, nodes)
    result = score_pair(unlabel(gold, nodes), unlabel(system, nodes))
    assert result.exact
    assert result.counts["all"][2] == best
    for name, (g, s) in sizes.items():
        assert result.counts[name][:2] == (g, s), name


@budget(300)
@given(pairs(max_nodes=5))
def test_exact_unlabeled_score_equals_brute_force(pair: Tuple[Graph, Graph]) -> None:
    _check_exact(*pair, nodes=True)


@budget(200)
@given(pairs(max_nodes=5))
def test_exact_unlabeled_edges_score_equals_brute_force(pair: Tuple[Graph, Graph]) -> None:
    _check_exact(*pair, nodes=False)


def test_unlabeled_edges_keeps_node_labels() -> None:
    gold = _graph([Node(0, "a"), Node(1, "b")], [Edge(0, 1, "x")], [0])
    system = _graph([Node(0, "a"), Node(1, "c")], [Edge(0, 1, "y")], [0])
    counts = score_pair(unlabel(gold, nodes=False), unlabel(system, nodes=False)).counts
    assert counts["labels"] == (2, 2, 1) and counts["edges"] == (1, 1, 1)
    result, _ = evaluate("unlabeled-edges", Pairing(pairs=[Pair(gold, system, False)]), Options())
    assert result["labels"]["c"] == 1 and result["edges"]["c"] == 1


def test_evaluate_layout_and_signature() -> None:
    gold = _graph([Node(0, "a"), Node(1, "b")], [Edge(0, 1, "x")], [0])
    system = _graph([Node(0, "c"), Node(1, "d")], [Edge(0, 1, "y")], [0])
    result, _ = evaluate("unlabeled", Pairing(pairs=[Pair(gold, system, False)]), Options(trace=True))
    assert result["all"]["f"] == 1.0 and result["labels"]["g"] == 0 and result["exact"] == 1
    assert canonical("mrp-unlabeled") == "unlabeled"
    assert signature("unlabeled", ["eds"], Options()).startswith(
        "unlabeled:eds|norm:case+anchors+edges+unlabeled|")


def test_cli_flag_adds_an_unlabeled_block() -> None:
    gold = shared_file("data/pairs/psd/107480.gold.mrp")
    system = shared_file("data/pairs/psd/107480.foxik.mrp")
    run = run_cli("score", ["--unlabeled", "--gold", str(gold), str(system)])
    assert run.code == 0, run.err
    result = json.loads(run.out)
    labeled, unlabeled = result["mrp"], result["unlabeled"]
    assert unlabeled["signature"].startswith("unlabeled:psd|")
    assert unlabeled["labels"]["g"] == 0 and unlabeled["edges"]["g"] == labeled["edges"]["g"]
    # a wrong label no longer costs the edge
    assert unlabeled["edges"]["c"] >= labeled["edges"]["c"]
    assert (unlabeled["tops"], unlabeled["anchors"]["g"]) == (labeled["tops"], labeled["anchors"]["g"])


def test_a_failed_pair_counts_the_unlabeled_tuples() -> None:
    # two edges between the same nodes are one unlabeled edge: a pair whose scoring fails counts it once
    graph = _graph([Node(0, "a"), Node(1, "b")], [Edge(0, 1, "x"), Edge(0, 1, "y")], [0])
    metric = registered_metric("unlabeled-edges")
    counts = metric.fallback(Pair(graph, graph, False), Options(), "failed").counts
    assert counts[("edges",)][:3] == (1, 1, 0) and counts[("labels",)][:3] == (2, 2, 0)
    labeled = registered_metric("mrp").fallback(Pair(graph, graph, False), Options(), "failed").counts
    assert labeled[("edges",)][:3] == (2, 2, 0)
