"""The EDM metric: the reference scorer's output on EDS, and each identity rule on small graphs."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Sequence

from mrp.corpora.load import read_corpus
from mrp.engine.options import Options
from mrp.engine.pairing import Pair, Pairing, pair
from mrp.graph import Edge, Graph, Node
from mrp.metrics.edm import normal_edges, normal_spans
from mrp.metrics.registry import evaluate

from conftest import shared_path

#: the keys every result ends with: how many system graphs were not read or scored normally
ACCOUNTING = ["invalid", "unpaired", "duplicates", "repaired", "missing"]

TEXT = "Hello world, again."


def _pairing(*pairs: Pair) -> Pairing:
    return Pairing(pairs=list(pairs))


def _pair(gold: Graph, system: Graph) -> Pair:
    return Pair(gold, system, not system.nodes)


def _graph(nodes: List[Node], edges: Sequence[Edge] = (), tops: Sequence[int] = (), text: Any = TEXT,
           gid: str = "1", framework: str = "eds") -> Graph:
    return Graph(id=gid, framework=framework, input=text, tops=list(tops), nodes=list(nodes),
                 edges=list(edges))


def _item(result: Dict[str, Any], framework: str = "eds", gid: str = "1") -> Dict[str, Any]:
    return result["scores"][framework][gid]


def test_matches_reference_per_item_and_in_total() -> None:
    shared = shared_path()
    gold = read_corpus(str(shared / "data/wsj/eds/wsj.mrp"))
    system = read_corpus(str(shared / "data/pairs/eds/wsj.pet.mrp"))
    result, details = evaluate("edm", pair(gold, system), Options(trace=True))
    reference = json.loads((shared / "reference/mtool/eds.edm.json").read_text())
    assert details == {}
    assert list(result) == list(reference) + ACCOUNTING  # new keys after the reference's
    assert list(result["scores"]) == ["eds"]
    assert result["scores"]["eds"] == reference["scores"]
    for gid, item in result["scores"]["eds"].items():
        assert list(item) == ["names", "arguments", "tops", "properties"], gid
    for key in reference:
        if key not in ("scores", "time", "cpu"):
            assert result[key] == reference[key], key


def test_without_trace_no_scores_and_registered() -> None:
    gold = _graph([Node(0, "a", ["pos"], ["nn"], anchors=[(0, 5)])], tops=[0])
    result, _ = evaluate("edm", _pairing(_pair(gold, gold)), Options())
    assert list(result) == ["n", "names", "arguments", "tops", "properties", "all", "time",
                            "cpu"] + ACCOUNTING
    assert result["all"] == {"g": 3, "s": 3, "c": 3, "p": 1.0, "r": 1.0, "f": 1.0}


def test_unanchored_nodes_share_one_identity() -> None:
    gold = _graph([Node(0, "a"), Node(1, "b"), Node(2, "c", anchors=[(0, 5)])],
                  [Edge(0, 1, "arg1"), Edge(1, 0, "arg1")], tops=[0, 1])
    # one unanchored node: its name matches one of the gold names, and its self loop
    # stands for both gold edges between unanchored nodes, which collapsed into one
    system = _graph([Node(7, "b")], [Edge(7, 7, "arg1")], tops=[7])
    result, _ = evaluate("edm", _pairing(_pair(gold, system)), Options(trace=True))
    item = _item(result)
    assert item["names"] == {"g": 3, "s": 1, "c": 1}
    assert item["arguments"] == {"g": 1, "s": 1, "c": 1}
    assert item["tops"] == {"g": 1, "s": 1, "c": 1}


def test_positions_when_both_have_input_spans_otherwise() -> None:
    gold = _graph([Node(0, "x", anchors=[(0, 5), (6, 11)])])
    split = _graph([Node(3, "X", anchors=[(0, 12)])])  # trimmed to 0:11; positions ignore the space
    result, _ = evaluate("edm", _pairing(_pair(gold, split)), Options(trace=True))
    assert _item(result)["names"] == {"g": 1, "s": 1, "c": 1}
    # a system without input: both sides use span tuples, (0,5),(6,11) != (0,12)
    bare = _graph([Node(3, "x", anchors=[(0, 5), (6, 11)])], text=None)
    result, _ = evaluate("edm", _pairing(_pair(gold, bare)), Options(trace=True))
    assert _item(result)["names"] == {"g": 1, "s": 1, "c": 1}
    bare = _graph([Node(3, "x", anchors=[(0, 11)])], text=None)
    result, _ = evaluate("edm", _pairing(_pair(gold, bare)), Options(trace=True))
    assert _item(result)["names"] == {"g": 1, "s": 1, "c": 0}


def test_inverted_edges_case_and_properties() -> None:
    gold = _graph([Node(0, "A", ["Pos"], ["NN"], anchors=[(0, 5)]), Node(1, "b", anchors=[(6, 11)])],
                  [Edge(0, 1, "ARG0-of", attributes=["remote"], values=[True])])
    system = _graph([Node(0, "a", ["pos"], ["nn"], anchors=[(0, 5)]), Node(1, "b", anchors=[(6, 11)])],
                    [Edge(1, 0, "arg0")])
    result, _ = evaluate("edm", _pairing(_pair(gold, system)), Options(trace=True))
    item = _item(result)
    assert item == {"names": {"g": 2, "s": 2, "c": 2}, "arguments": {"g": 1, "s": 1, "c": 1},
                    "tops": {"g": 0, "s": 0, "c": 0}, "properties": {"g": 1, "s": 1, "c": 1}}
    assert result["all"]["c"] == 4


def test_missing_system_graph_counts_gold() -> None:
    gold = _graph([Node(0, "a", anchors=[(0, 5)]), Node(1, "b")], [Edge(0, 1, "arg1")], tops=[0])
    result, _ = evaluate("edm", _pairing(Pair(gold, gold.empty_copy(), True)), Options(trace=True))
    assert result["all"] == {"g": 4, "s": 0, "c": 0, "p": 0.0, "r": 0.0, "f": 0.0}


def test_scores_keyed_by_framework_then_id() -> None:
    eds = _graph([Node(0, "a", anchors=[(0, 5)])], framework="eds")
    amr = _graph([Node(0, "a"), Node(1, "b")], framework="amr")
    result, _ = evaluate("edm", _pairing(_pair(eds, eds), _pair(amr, amr.empty_copy())), Options(trace=True))
    assert result["n"] == 2
    assert result["scores"]["eds"]["1"]["names"] == {"g": 1, "s": 1, "c": 1}
    assert result["scores"]["amr"]["1"]["names"] == {"g": 2, "s": 0, "c": 0}


def test_helpers_follow_normalization() -> None:
    graph = _graph([Node(0, "a", anchors=[(0, 3), (3, 6)]), Node(1, "b", anchors=[(11, 12)]), Node(2)],
                   [Edge(0, 1, "mod", attributes=["REMOTE", "member"], values=["False", "TRUE"]),
                    Edge(0, 2, "")])
    assert normal_spans(graph) == {0: [(0, 5)], 1: [(12, 12)], 2: []}
    edges = normal_edges(graph)
    assert [(e.source, e.target, e.label, e.attributes) for e in edges] == [
        (1, 0, "domain", frozenset({("member", "true")})), (0, 2, None, frozenset())]
