"""mtool's readings under the drop-in (issue 65 item 5): what mtool reads that mrp refuses or reads otherwise.

mrp's own doors keep their rule (a graph with a duplicate node id is skipped with a message; SDP
without sentences is refused; CoNLL-U is framework ``ud``); ``mrp-mtool`` reads as mtool reads, through
one read option (``ReadOptions.mtool``) and its own output layout.  The references are mtool's outputs,
made with the commands in ``tests/data/mtool/README.md``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List

import pytest

from mrp.codecs import ReadOptions
from mrp.pipeline import read_file

from conftest import run_cli, shared_file

DATA = Path(__file__).parent / "data" / "mtool"


def _reference(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def _timeless(text: str) -> List[Dict[str, Any]]:
    graphs = [json.loads(line) for line in text.splitlines() if line.strip()]
    for graph in graphs:
        graph.pop("time", None)
    return graphs


# ----------------------------------------------------------------------------- a duplicated node id


def test_duplicate_node_id_is_skipped_by_default() -> None:
    corpus = read_file(str(DATA / "dup.mrp"), "mrp")
    assert [g.id for g in corpus.graphs] == ["dup-2"]
    assert len(corpus.errors) == 1 and "duplicate node id 2" in corpus.errors[0].message


def test_duplicate_node_id_read_as_mtool_reads_it() -> None:
    corpus = read_file(str(DATA / "dup.mrp"), "mrp", ReadOptions(mtool=True))
    assert not corpus.errors
    graph = corpus.graphs[0]
    # the later node keeps its content under a fresh id; edges and tops name the first, as mtool's find_node
    assert [(n.id, n.label) for n in graph.nodes] == [(0, "tea"), (1, "is"), (2, "hot"), (5, "cold"),
                                                      (3, None), (4, None)]
    assert [(e.source, e.target) for e in graph.edges] == [(3, 0), (3, 1), (3, 2), (4, 3)]
    assert graph.repairs and "duplicate node id 2" in graph.repairs[0]


@pytest.mark.parametrize("name", ("dup", "dupes", "random", "random.dm"))
def test_mrp_mtool_analyzes_duplicate_node_ids_and_repeated_edges_as_mtool(name: str) -> None:
    # mtool's search of the components visits an id once but counts each node object a singleton, so a
    # later node of a duplicated id leaves one component fewer (dup-1: not connected, not a tree); its edge
    # set counts a repeated edge once. dup.mrp has the shape of mtool's koller.mrp; random*.mrp are made by
    # random_graphs.py (duplicated ids, repeated edges, loops, cycles); every figure is mtool's
    done = run_cli("mtool", ["--read", "mrp", "--analyze", str(DATA / f"{name}.mrp")])
    assert done.code == 0, done.err
    assert done.out == _reference(f"{name}.analyze.txt")


def test_mrp_analyze_keeps_its_own_reading_of_a_duplicate_node_id() -> None:
    done = run_cli("mtool", ["--read", "mrp", "--analyze", str(DATA / "dup.mrp")])
    assert "trees\t50.00" in done.out and "not connected\t50.00" in done.out
    own = run_cli("analyze", [str(DATA / "dup.mrp")])
    # mrp-analyze skips the graph (which node an edge names is ambiguous) and says so; dup-2 is a tree
    assert own.code == 0 and "duplicate node id" in own.err
    figures = json.loads(own.out)["ucca"]
    assert figures["graphs"] == 1 and figures["trees"] == 100.0 and figures["not_connected"] == 0.0


def test_mrp_analyze_counts_repeated_edges() -> None:
    own = json.loads(run_cli("analyze", [str(DATA / "dupes.mrp")]).out)["ucca"]
    # read: "plain" (1 edge) and "repeated" (its edge 0 -A-> 1 twice), the others skipped; mrp-analyze
    # counts both copies (mtool's set: one) and so node 1 as reentrant
    assert own["graphs"] == 2 and own["edges"]["n"] == 1 + 4 and own["reentrant"] == 100 * 2 / 5


# ----------------------------------------------------------------------------- SDP without --text


def test_sdp_without_text_is_refused_by_default() -> None:
    path = str(shared_file("data", "wsj", "dm", "wsj.sdp"))
    corpus = read_file(path, "dm")
    assert not corpus.graphs and len(corpus.errors) == 89
    assert "needs the sentences" in corpus.errors[0].message
    done = run_cli("convert", ["--from", "dm", "--to", "mrp", path])
    assert done.code != 0 and "--text" in done.err


def test_sdp_without_text_read_unanchored_as_mtool() -> None:
    path = str(shared_file("data", "wsj", "dm", "wsj.sdp"))
    corpus = read_file(path, "dm", ReadOptions(mtool=True))
    assert not corpus.errors and len(corpus.graphs) == 89
    assert all(g.input is None and all(n.anchors is None for n in g.nodes) for g in corpus.graphs)
    anchored = read_file(path, "dm", ReadOptions(text=mrp_text(), mtool=True))
    assert [g.id for g in anchored.graphs] == [g.id for g in corpus.graphs]
    assert [[(n.id, n.label) for n in g.nodes] for g in anchored.graphs] == \
        [[(n.id, n.label) for n in g.nodes] for g in corpus.graphs]
    assert all(n.anchors for g in anchored.graphs for n in g.nodes)


def mrp_text() -> Dict[str, str]:
    from mrp.corpora import read_text

    return read_text(str(shared_file("data", "wsj", "wsj.txt")))


@pytest.mark.parametrize("framework", ("dm", "psd"))
def test_mrp_mtool_analyzes_sdp_without_text(framework: str) -> None:
    path = str(shared_file("data", "wsj", framework, "wsj.sdp"))
    done = run_cli("mtool", ["--read", framework, "--analyze", path])
    assert done.code == 0, done.err
    assert done.out == _reference(f"wsj.{framework}.sdp.analyze.txt")


# ----------------------------------------------------------------------------- CoNLL-U and mtool's MRP output


def test_conllu_default_reading_is_unchanged() -> None:
    corpus = read_file(str(DATA / "hand.conllu"), "conllu")
    assert [g.framework for g in corpus.graphs] == ["ud", "ud"]
    words = [n for g in corpus.graphs for n in g.nodes]
    assert sum(n.anchors is not None for n in words) == 10 and all(e.id is None for g in corpus.graphs
                                                                   for e in g.edges)


def test_conllu_read_as_mtool_gives_empty_anchor_lists() -> None:
    graphs = read_file(str(DATA / "hand.conllu"), "conllu", ReadOptions(mtool=True)).graphs
    # the words of the multiword tokens (Vamos nos, a el) and the empty node 5.1
    assert [(g.id, n.label) for g in graphs for n in g.nodes if n.anchors == []] == \
        [("mw1", "Vamos"), ("mw1", "nos"), ("mw1", "a"), ("mw1", "el"), ("empty1", "likes")]


def test_mrp_mtool_analyzes_conllu_as_mtool_counts() -> None:
    done = run_cli("mtool", ["--read", "conllu", "--analyze", str(DATA / "hand.conllu")])
    assert done.code == 0, done.err
    assert done.out == _reference("hand.conllu.analyze.txt")  # 15 anchors, as mtool; mrp-analyze: 10
    own = run_cli("analyze", ["--format", "conllu", str(DATA / "hand.conllu")])
    assert own.code == 0 and json.loads(own.out)["ud"]["anchors"]["n"] == 10


@pytest.mark.parametrize("fmt, reference", [("conllu", "hand.conllu.mrp"), ("eud", "hand.eud.mrp"),
                                            ("dm", "wsj.dm.sdp.mrp")])
def test_mrp_mtool_writes_mrp_as_mtool(fmt: str, reference: str) -> None:
    path = str(shared_file("data", "wsj", "dm", "wsj.sdp") if fmt == "dm" else DATA / "hand.conllu")
    done = run_cli("mtool", ["--read", fmt, "--write", "mrp", "--n", "2", path])
    assert done.code == 0, done.err
    # mtool's framework name (conllu), its edge ids, no empty anchor lists; all but the day written
    assert _timeless(done.out) == _timeless(_reference(reference))


@pytest.mark.parametrize("fmt", ("conllu", "eud"))
def test_mrp_mtool_reads_random_conllu_as_mtool_byte_for_byte(fmt: str) -> None:
    # random.conllu (random_conllu.py): mtool's input rebuilt with a space after a sentence's last surface
    # token where lines follow it, its cursor not moved by a TokenRange, forms searched ahead and respelled,
    # its keys (no "edges" where there is none) and separators; all but the day written
    path = str(DATA / "random.conllu")
    done = run_cli("mtool", ["--read", fmt, "--write", "mrp", path])
    assert done.code == 0, done.err

    def timeless(text: str) -> str:
        return re.sub(r'"time": "[^"]*", ', "", text)

    assert timeless(done.out) == timeless(_reference(f"random.{fmt}.mrp"))
    analyzed = run_cli("mtool", ["--read", fmt, "--analyze", path])
    assert analyzed.out == _reference(f"random.{fmt}.analyze.txt")


def test_mrp_mtool_writes_mtools_keys_byte_for_byte() -> None:
    # version 1.1 whatever was read, the time as a date, edge "properties" as "attributes", no empty label,
    # normal, input or edges, nothing of a graph with no node but its header
    done = run_cli("mtool", ["--read", "mrp", "--write", "mrp", str(DATA / "layout.mrp")])
    assert done.code == 0, done.err
    assert done.out == _reference("layout.written.mrp")


def test_mrp_mtool_numbers_edges_as_mtool() -> None:
    line = ('{"id": "e", "framework": "dm", "flavor": 0, "nodes": [{"id": 0}, {"id": 1}], "edges": '
            '[{"source": 0, "target": 1, "label": "A"}, {"id": 7, "source": 1, "target": 0, "label": "B"}, '
            '{"source": 0, "target": 1, "label": "A"}, {"source": 1, "target": 1, "label": "C"}]}\n')
    done = run_cli("mtool", ["--read", "mrp", "--write", "mrp"], stdin=line.encode())
    assert done.code == 0, done.err
    # an edge with no id gets the number of distinct edges before it (mtool keeps its edges in a set), and
    # edges are written by id; mtool (main.py --read mrp --write mrp) writes A 0, C 2, B 7 and drops the
    # repeated A, which mrp keeps
    edges = [(e["id"], e["label"]) for e in json.loads(done.out)["edges"]]
    assert edges == [(0, "A"), (2, "A"), (2, "C"), (7, "B")]
