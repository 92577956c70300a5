"""Packed corpora (mrp.corpora.packed): graphs round-trip exactly, and a corpus scored packed scores as
live."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any, Dict, List

import pytest

import mrp.corpora.load
from mrp.cli.score import main_body
from mrp.corpora.load import read_corpus
from mrp.corpora.packed import BLOCK, Packed, PackedGraphs, entries, mapped, pack, unpack
from mrp.engine.pairing import Pair, pair
from mrp.graph import Edge, Graph, Node, Placement, Relation, fingerprint

from conftest import ROOT

DEMO = ROOT / "data" / "demo"
DATA = ROOT / "tests" / "data"


def _fields(graph: Graph) -> Dict[str, Any]:
    """Every field of a graph, including those that equality leaves out (layout, repairs) and types."""
    out = {name: getattr(graph, name) for name in Graph.__dataclass_fields__}
    out["nodes"] = [[(k, getattr(node, k)) for k in Node.__dataclass_fields__] for node in graph.nodes]
    out["edges"] = [[(k, getattr(edge, k)) for k in Edge.__dataclass_fields__] for edge in graph.edges]
    return out


def _typed(value: Any) -> Any:
    """A value with the type of every part spelled out (1 and True, a list and a tuple differ)."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_typed(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(_typed(k), _typed(v)) for k, v in value.items()])
    if isinstance(value, (Placement, Relation)):
        return (type(value).__name__, pickle.dumps(value))
    return (type(value).__name__, value)


def _full() -> Graph:
    """A graph with every field set, values of several types, and unusual flavor."""
    return Graph(
        id="g1", framework="amr", flavor=0, input="Dogs bark .", language="eng", time="2019-04-10",
        source="test", provenance="here", targets=["amr", "eds"], version=1.1, tops=[3, 7],
        nodes=[Node(3, "bark-01", ["polarity", "quant"], ["-", 2], [(5, 9), (0, 1)], [[{"from": 5}]]),
               Node(7, None, [], [], None, None), Node(-2, "ψ", ["x"], [True], [], None)],
        edges=[Edge(3, 7, "ARG0", "ARG0", ["remote"], [True], 4, [(0, 4)], True),
               Edge(7, -2, None, None, [], [], None, None, False)],
        line=17, variables={3: "b", 7: "d"}, layout={3: [("ARG0", 7, True), ("polarity", "-", False)]},
        repairs=["node 9: dropped"])


def _placed() -> Graph:
    """A UMR graph with a document placement (values marshal cannot hold)."""
    graph = Graph(id="s1", framework="umr", nodes=[Node(0, "say-01")], tops=[0])
    graph.document = Placement("doc", 1, "s1s0", [Relation("temporal", "s1s0", ":before", "dct")], ["x"])
    return graph


@pytest.mark.parametrize("graph", [_full(), _placed(), Graph(id="e"), Graph(id="f", framework="eds")])
def test_pack_round_trips_every_field(graph: Graph) -> None:
    again = unpack(pack(graph))
    assert _typed(_fields(again)) == _typed(_fields(graph))
    assert again is not graph and again.nodes is not graph.nodes


@pytest.mark.parametrize("graph", [_full(), _placed(), Graph(id="e"), Graph(id="f", framework="eds")])
def test_pack_round_trips_pickled_at_once(graph: Graph) -> None:
    """A graph pickled without trying marshal (the one before it needed pickle) comes back the same."""
    data = pack(graph, pickled=True)
    assert data[:1] == b"P"
    assert _typed(_fields(unpack(data))) == _typed(_fields(graph))


def test_a_store_of_graphs_that_need_pickle_and_some_that_do_not_round_trips() -> None:
    graphs = [_placed(), _full(), _placed(), Graph(id="e"), _full()] * 8
    packed = PackedGraphs(graphs)
    assert [_typed(_fields(g)) for g in packed] == [_typed(_fields(g)) for g in graphs]


def test_packed_graphs_sequence_and_entries() -> None:
    graphs = read_corpus(str(DEMO / "gold.mrp")).graphs
    packed = PackedGraphs(graphs)
    assert len(packed) == len(graphs) and 0 < packed.nbytes()
    assert [_typed(_fields(g)) for g in packed] == [_typed(_fields(g)) for g in graphs]
    assert packed[-1] == graphs[-1] and packed[1:3] == list(graphs[1:3])
    with pytest.raises(IndexError):
        packed[len(graphs)]
    assert [(e.id, e.framework, e.flavor, e.line, e.size) for e in entries(packed)] == [
        (g.id, g.framework, g.flavor, g.line, len(g.nodes)) for g in graphs]
    assert packed + [] == list(graphs) and [] + packed == list(graphs)
    changed = mapped(packed, lambda g: Graph(id=g.id + "!"))
    assert isinstance(changed, PackedGraphs) and [g.id for g in changed] == [g.id + "!" for g in graphs]


def test_packed_graphs_across_blocks_in_any_order() -> None:
    graphs = list(read_corpus(str(DEMO / "gold.mrp")).graphs) * 20  # several compressed blocks
    packed = PackedGraphs(graphs)
    assert len(graphs) > 3 * BLOCK and packed.nbytes() < sum(len(pack(g)) for g in graphs)
    order = list(range(len(graphs)))
    random.Random(1).shuffle(order)
    assert [fingerprint(packed[k]) for k in order] == [fingerprint(graphs[k]) for k in order]
    assert [_typed(_fields(g)) for g in packed] == [_typed(_fields(g)) for g in graphs]


def test_read_corpus_packs_past_the_limit() -> None:
    live = read_corpus(str(DEMO / "gold.mrp"))
    assert isinstance(live.graphs, list)
    for limit in (0, 3):
        packed = read_corpus(str(DEMO / "gold.mrp"), pack_after=limit)
        assert isinstance(packed.graphs, PackedGraphs)
        assert [fingerprint(g) for g in packed.graphs] == [fingerprint(g) for g in live.graphs]
        assert packed.errors == live.errors and packed.repaired == live.repaired


def test_pairs_of_packed_corpora_unpack_on_demand() -> None:
    gold = read_corpus(str(DEMO / "gold.mrp"), pack_after=0)
    system = read_corpus(str(DEMO / "system.mrp"), pack_after=0)
    pairs = pair(gold, system).pairs
    plain = pair(read_corpus(str(DEMO / "gold.mrp")), read_corpus(str(DEMO / "system.mrp"))).pairs
    assert pairs == plain and [p.null for p in pairs] == [p.null for p in plain]
    assert all(isinstance(p.gold_entry, Packed) for p in pairs)
    ready = pairs[0].live()
    assert isinstance(ready.gold_entry, Graph) and ready.live() is ready and ready == pairs[0]
    assert Pair(ready.gold, ready.system, False).gold is ready.gold


def _score(args: List[str], capsys: pytest.CaptureFixture[str]) -> Dict[str, Any]:
    assert main_body(args) == 0
    return _timeless(json.loads(capsys.readouterr().out))


def _timeless(value: Any) -> Any:
    """A result without its "time" and "cpu" keys, at any depth."""
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k not in ("time", "cpu")}
    return [_timeless(v) for v in value] if isinstance(value, list) else value


@pytest.mark.parametrize("extra", [["--jobs", "1"], ["--jobs", "2", "--score", "mrp,smatch"],
                                   ["--score", "edm"]])
def test_scoring_packed_gives_the_same_result(extra: List[str], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["--trace", "--gold", str(DEMO / "gold.mrp"), str(DEMO / "system.mrp"), *extra]
    before = _score(args + ["--errors", str(tmp_path / "live.json")], capsys)
    monkeypatch.setattr(mrp.corpora.load, "PACK_AFTER", 0)
    after = _score(args + ["--errors", str(tmp_path / "packed.json")], capsys)
    assert after == before
    assert (tmp_path / "live.json").read_text() == (tmp_path / "packed.json").read_text()


def test_leaderboard_packed_gives_the_same_result(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["--gold", str(DEMO / "gold.mrp"), str(DEMO / "system.mrp"), str(DEMO / "gold.mrp")]
    before = _score(args, capsys)
    monkeypatch.setattr(mrp.corpora.load, "PACK_AFTER", 0)
    assert _score(args, capsys) == before


def test_pairing_by_sentences_packed(tmp_path: Path) -> None:
    graphs = [("The girl sleeps.", "(s / sleep-01 :ARG0 (g / girl))"), ("It rains.", "(r / rain-01)"),
              ("Dogs bark.", "(b / bark-01 :ARG0 (d / dog))")]
    gold, gap = tmp_path / "gold.amr", tmp_path / "gap.amr"
    gold.write_text("\n\n".join(f"# ::snt {s}\n{g}" for s, g in graphs) + "\n")
    gap.write_text("\n\n".join(f"# ::snt {s}\n{g}" for s, g in graphs[1:]) + "\n")
    results = []
    for limit in (None, 0):
        pairing = pair(read_corpus(str(gold), pack_after=limit), read_corpus(str(gap), pack_after=limit))
        results.append((pairing.pairs, pairing.notes, [p.null for p in pairing.pairs]))
    assert results[0] == results[1] and results[0][2] == [True, False, False]
    assert "by their sentences (::snt): 2 of 3 gold graphs found" in results[1][1][0]
