"""The UCCA metric: the reference scorer's output on the UCCA test pair, and its rules on small graphs."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Sequence

from mrp.corpora.load import read_corpus
from mrp.engine.options import Options
from mrp.engine.pairing import Pair, Pairing, pair
from mrp.graph import Edge, Graph, Node
from mrp.metrics.registry import evaluate
from mrp.metrics.ucca import yields

from conftest import shared_path

#: the keys every result ends with: how many system graphs were not read or scored normally
ACCOUNTING = ["invalid", "unpaired", "duplicates", "repaired", "missing"]

TEXT = "Hello world, again."
REMOTE: Dict[str, Any] = {"attributes": ["remote"], "values": [True]}

#: Items where a documented rule makes our counts differ from the reference (system side only).
KNOWN: Dict[str, str] = {
    "20003013": "the system graph has node id 23 twice; we reject it as invalid (scored as an empty "
                "graph, counted in 'invalid'), the reference reads it",
}


def _graph(nodes: List[Node], edges: Sequence[Edge] = (), text: Any = TEXT, gid: str = "1") -> Graph:
    return Graph(id=gid, framework="ucca", input=text, tops=[0], nodes=list(nodes), edges=list(edges))


def _pairing(*pairs: Any) -> Pairing:
    return Pairing(pairs=[Pair(g, s, not s.nodes) for g, s in pairs])


def _counts(result: Dict[str, Any], measure: str, bucket: str) -> List[int]:
    return [result[measure][bucket][k] for k in "gsc"]


def test_matches_reference_per_item_and_in_total() -> None:
    shared = shared_path()
    gold = read_corpus(str(shared / "data/pairs/ucca/test.gold.mrp"))
    system = read_corpus(str(shared / "data/pairs/ucca/test.tupa.mrp"))
    pairing = pair(gold, system)
    assert {error.graph_id for error in pairing.invalid} == set(KNOWN)
    result, details = evaluate("ucca", pairing, Options(trace=True))
    reference = json.loads((shared / "reference/mtool/ucca-test.ucca.json").read_text())
    assert details == {}
    assert list(result) == list(reference) + ACCOUNTING  # new keys after the reference's
    assert result["n"] == reference["n"]
    ours = result["scores"]["ucca"]
    assert set(ours) == set(reference["scores"])
    for gid, theirs in reference["scores"].items():
        if gid in KNOWN:
            # the gold side is unaffected
            for measure in ("labeled", "unlabeled"):
                for bucket in ("primary", "remote"):
                    assert ours[gid][measure][bucket]["g"] == theirs[measure][bucket]["g"], gid
        else:
            assert ours[gid] == theirs, gid
    for measure in ("labeled", "unlabeled"):
        assert list(result[measure]) == ["primary", "remote"]
        for bucket in ("primary", "remote"):
            for k in "gsc":
                known_ours = sum(ours[gid][measure][bucket][k] for gid in KNOWN)
                known_theirs = sum(reference["scores"][gid][measure][bucket][k] for gid in KNOWN)
                assert (result[measure][bucket][k] - known_ours
                        == reference[measure][bucket][k] - known_theirs), (measure, bucket, k)
            assert result[measure][bucket]["g"] == reference[measure][bucket]["g"]


def _tree() -> Graph:
    # 0 -A-> 1 -C-> 2 "Hello";  0 -D-> 3 "world";  0 -A(remote)-> 4 "again"
    nodes = [Node(0), Node(1), Node(2, anchors=[(0, 5)]), Node(3, anchors=[(6, 11)]),
             Node(4, anchors=[(13, 18)])]
    edges = [Edge(0, 1, "A"), Edge(1, 2, "C"), Edge(0, 3, "D"), Edge(0, 4, "A", **REMOTE)]
    return _graph(nodes, edges)


def test_yields_through_primary_edges_only() -> None:
    identity = yields(_tree())
    hello, world = frozenset(range(5)), frozenset(range(6, 11))
    assert identity[0] == hello | world  # not "again", reached only by the remote edge
    assert identity[1] == identity[2] == hello
    assert identity[4] == frozenset(range(13, 18))
    bare = _graph(_tree().nodes, _tree().edges, text=None)
    assert yields(bare)[0] == ((0, 5), (6, 11))


def test_remote_by_attribute() -> None:
    gold = _tree()
    result, _ = evaluate("ucca", _pairing((gold, gold)), Options(trace=True))
    assert _counts(result, "labeled", "remote") == [1, 1, 1]
    # remote: false (dropped by normalization) is primary; "TRUE" is remote
    flipped = _graph(gold.nodes, gold.edges[:3] + [Edge(0, 4, "A", attributes=["remote"], values=[False])])
    result, _ = evaluate("ucca", _pairing((gold, flipped)), Options(trace=True))
    assert _counts(result, "labeled", "remote") == [1, 0, 0]
    # the new primary edge puts "again" into yield(0): only (Hello, Hello, C) still matches
    assert _counts(result, "labeled", "primary") == [3, 4, 1]
    upper = _graph(gold.nodes, gold.edges[:3] + [Edge(0, 4, "a", attributes=["REMOTE"], values=["TRUE"])])
    result, _ = evaluate("ucca", _pairing((gold, upper)), Options(trace=True))
    assert _counts(result, "labeled", "remote") == [1, 1, 1]
    assert _counts(result, "labeled", "primary") == [3, 3, 3]


def test_identical_yields_collapse() -> None:
    gold = _tree()
    # the unary chain 0 -A-> 1 -C-> 2 gives (Hello-world, Hello, A) and (Hello, Hello, C);
    # 0 -D-> 3 gives (Hello-world, world, D): primary labeled 3, unlabeled 3
    result, _ = evaluate("ucca", _pairing((gold, gold)), Options(trace=True))
    assert _counts(result, "labeled", "primary") == [3, 3, 3]
    # without node 1, the system attaches "Hello" directly: its unary item is gone
    flat = _graph([n for n in gold.nodes if n.id != 1],
                  [Edge(0, 2, "A"), Edge(0, 3, "D"), Edge(0, 4, "A", **REMOTE)])
    result, _ = evaluate("ucca", _pairing((gold, flat)), Options(trace=True))
    assert _counts(result, "labeled", "primary") == [3, 2, 2]
    # two nodes over the same word collapse into one identity: one unlabeled item
    unary = _graph([Node(0), Node(1), Node(2, anchors=[(0, 5)])], [Edge(0, 1, "A"), Edge(1, 2, "C")])
    result, _ = evaluate("ucca", _pairing((unary, unary)), Options(trace=True))
    assert _counts(result, "labeled", "primary") == [2, 2, 2]
    assert _counts(result, "unlabeled", "primary") == [1, 1, 1]


def test_deep_graph_without_recursion_and_output_shape() -> None:
    depth = 5000
    nodes = [Node(k) for k in range(depth)] + [Node(depth, anchors=[(0, 5)])]
    edges = [Edge(k, k + 1, "E") for k in range(depth)]
    deep = _graph(nodes, edges)
    assert yields(deep)[0] == frozenset(range(5))
    result, details = evaluate("ucca", _pairing((deep, deep.empty_copy())), Options())
    assert details == {}
    assert list(result) == ["n", "labeled", "unlabeled", "time", "cpu"] + ACCOUNTING
    assert _counts(result, "unlabeled", "primary") == [1, 0, 0]
    assert list(result["labeled"]["primary"]) == list("gscprf")
