"""mtool's readings under the drop-in (issue 65 item 5): what mtool reads that mrp refuses or reads otherwise.

mrp's own doors keep their rule (a graph with a duplicate node id is skipped with a message; SDP
without sentences is refused; CoNLL-U is framework ``ud``); ``mrp-mtool`` reads as mtool reads, through
one read option (``ReadOptions.mtool``) and its own output layout.  The references are mtool's outputs,
made with the commands in ``tests/data/mtool/README.md``.
"""

from __future__ import annotations

import json
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


def test_mrp_mtool_analyzes_a_graph_with_a_duplicate_node_id() -> None:
    done = run_cli("mtool", ["--read", "mrp", "--analyze", str(DATA / "dup.mrp")])
    assert done.code == 0, done.err
    found, expected = done.out.splitlines(), _reference("dup.analyze.txt").splitlines()
    # every figure is mtool's but two: mtool's later node is a singleton subtracted from a count of
    # components that never counted it (its id was visited already), so mtool calls dup-1 not connected
    # and not a tree; mrp counts the node nothing names as its own singleton (by design, docs/guide/mtool.md)
    differ = {9, 16}
    assert [line for k, line in enumerate(found) if k not in differ] == \
        [line for k, line in enumerate(expected) if k not in differ]
    assert expected[9].endswith("trees\t50.00") and found[9].endswith("trees\t100.00")
    assert expected[16].endswith("not connected\t50.00") and found[16].endswith("not connected\t0.00")
    own = run_cli("analyze", [str(DATA / "dup.mrp")])
    assert own.code == 0 and json.loads(own.out)["ucca"]["graphs"] == 1 and "duplicate node id" in own.err


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
