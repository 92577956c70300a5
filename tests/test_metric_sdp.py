"""The SDP metric: the reference scorer's output on a PSD pair, and its rules on small graphs."""

from __future__ import annotations

import json
from typing import Any, List, Sequence, Tuple

from mrp.corpora.load import read_corpus
from mrp.engine.options import Options
from mrp.engine.pairing import Pair, Pairing, pair
from mrp.graph import Edge, Graph, Node
from mrp.metrics.registry import evaluate

from conftest import shared_path

#: the keys every result ends with: how many system graphs were not read or scored normally
ACCOUNTING = ["invalid", "unpaired", "duplicates", "repaired", "missing"]

TEXT = "Hello world, again."


def _graph(nodes: List[Node], edges: Sequence[Edge] = (), tops: Sequence[int] = (), text: Any = TEXT,
           gid: str = "1", framework: str = "psd") -> Graph:
    return Graph(id=gid, framework=framework, input=text, tops=list(tops), nodes=list(nodes),
                 edges=list(edges))


def _pairing(*pairs: Tuple[Graph, Graph]) -> Pairing:
    return Pairing(pairs=[Pair(g, s, not s.nodes) for g, s in pairs])


def _words(*labels: str) -> List[Node]:
    spans = [(0, 5), (6, 11), (13, 18)]
    return [Node(k, label, anchors=[spans[k]]) for k, label in enumerate(labels)]


def test_matches_reference_per_item_and_in_total() -> None:
    shared = shared_path()
    gold = read_corpus(str(shared / "data/pairs/psd/107480.gold.mrp"))
    system = read_corpus(str(shared / "data/pairs/psd/107480.foxik.mrp"))
    result, details = evaluate("sdp", pair(gold, system), Options(trace=True))
    reference = json.loads((shared / "reference/mtool/psd107480.sdp.json").read_text())
    assert details == {}
    assert list(result) == list(reference) + ACCOUNTING  # new keys after the reference's
    assert result["scores"] == {"psd": reference["scores"]}
    for key in ("n", "labeled", "unlabeled"):
        assert result[key] == reference[key], key
    assert list(result["labeled"]) == list("gscprfm")


def test_virtual_root_edge() -> None:
    gold = _graph(_words("a", "b"), [Edge(0, 1, "ACT")], tops=[0])
    same_edge_other_top = _graph(_words("a", "b"), [Edge(0, 1, "ACT")], tops=[1])
    result, _ = evaluate("sdp", _pairing((gold, same_edge_other_top)), Options(trace=True))
    item = result["scores"]["psd"]["1"]
    assert item["labeled"] == {"g": 2, "s": 2, "c": 1, "m": 0}
    assert item["unlabeled"] == {"g": 2, "s": 2, "c": 1, "m": 0}
    # a graph with a top and no edges still has one item
    only_top = _graph(_words("a"), tops=[0])
    result, _ = evaluate("sdp", _pairing((only_top, only_top)), Options(trace=True))
    assert result["labeled"]["g"] == 1 and result["labeled"]["c"] == 1


def test_exact_match_fraction_and_labels() -> None:
    gold = _graph(_words("a", "b", "c"), [Edge(0, 1, "ACT"), Edge(1, 2, "PAT")], tops=[0])
    # node labels are ignored, node ids are not the identity
    same = _graph([Node(9 - k, "z", anchors=n.anchors) for k, n in enumerate(_words("", "", ""))],
                  [Edge(9, 8, "act"), Edge(8, 7, "PAT")], tops=[9])
    relabeled = _graph(_words("a", "b", "c"), [Edge(0, 1, "ACT"), Edge(1, 2, "ADDR")], tops=[0], gid="2")
    gold2 = _graph(gold.nodes, gold.edges, gold.tops, gid="2")
    result, _ = evaluate("sdp", _pairing((gold, same), (gold2, relabeled)), Options(trace=True))
    assert result["labeled"]["m"] == 0.5
    assert result["unlabeled"]["m"] == 1.0
    assert result["scores"]["psd"]["1"]["labeled"]["m"] == 1
    assert result["scores"]["psd"]["2"]["labeled"] == {"g": 3, "s": 3, "c": 2, "m": 0}
    assert result["labeled"]["c"] == 5 and result["unlabeled"]["c"] == 6


def test_spans_are_not_exploded() -> None:
    gold = _graph([Node(0, "a", anchors=[(0, 5), (6, 11)]), Node(1, "b", anchors=[(13, 18)])],
                  [Edge(1, 0, "ACT")])
    system = _graph([Node(0, "a", anchors=[(0, 11)]), Node(1, "b", anchors=[(13, 19)])],  # 13:19 trims
                    [Edge(1, 0, "ACT")])
    result, _ = evaluate("sdp", _pairing((gold, system)), Options())
    assert result["labeled"]["c"] == 0
    assert "scores" not in result
    assert list(result) == ["n", "labeled", "unlabeled", "time", "cpu"] + ACCOUNTING


def test_missing_system_graph_and_registry() -> None:
    gold = _graph(_words("a", "b"), [Edge(0, 1, "ACT")], tops=[0])
    result, _ = evaluate("sdp", _pairing((gold, gold.empty_copy())), Options(trace=True))
    assert result["labeled"] == {"g": 2, "s": 0, "c": 0, "p": 0.0, "r": 0.0, "f": 0.0, "m": 0.0}
    empty = Pairing()
    result, _ = evaluate("sdp", empty, Options())
    assert result["n"] == 0 and result["labeled"]["m"] == 0.0
