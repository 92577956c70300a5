"""The SDP 2015 codec (DM, PSD): conformance with the MRP 2019 sample, round trips, bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, List

import pytest

from mrp.codecs import ReadOptions, WriteOptions, reader, writer
from mrp.codecs.anchoring import AnchorError, align
from mrp.corpora.load import read_corpus, read_text
from mrp.errors import FormatError
from mrp.graph import Edge, Graph, Node

from conftest import canonical, lines
from conftest import shared_file as shared


def read_sdp(text: str, framework: str = "dm", table: Any = None) -> List[Any]:
    return list(reader(framework)(lines(text), "<sdp>", ReadOptions(framework=framework, text=table)))


@pytest.mark.parametrize("framework", ["dm", "psd"])
def test_wsj_sdp_gives_the_mrp_sample(framework: str) -> None:
    text = read_text(str(shared("data", "wsj", "wsj.txt")))
    corpus = read_corpus(str(shared("data", "wsj", framework, "wsj.sdp")), framework,
                         ReadOptions(text=text))
    assert corpus.errors == []
    gold = [json.loads(line) for line in open(shared("data", "wsj", framework, "wsj.mrp"), encoding="utf-8")]
    assert len(corpus.graphs) == len(gold) == 89
    for graph, obj in zip(corpus.graphs, gold):
        assert graph.id == obj["id"]
        assert [n.id for n in graph.nodes] == [n["id"] for n in obj["nodes"]]  # ids with gaps
        assert canonical(graph) == canonical(obj), obj["id"]


@pytest.mark.parametrize("framework", ["dm", "psd"])
def test_mrp_sdp_mrp_round_trip_is_lossless(framework: str) -> None:
    text = read_text(str(shared("data", "wsj", "wsj.txt")))
    gold = read_corpus(str(shared("data", "wsj", framework, "wsj.mrp")), "mrp").graphs
    out = io.StringIO()
    writer(framework)(gold, out, WriteOptions())
    assert out.getvalue().startswith("#SDP 2015\n")
    again = read_sdp(out.getvalue(), framework, text)
    assert len(again) == len(gold)
    for a, b in zip(gold, again):
        assert isinstance(b, Graph), str(b)
        assert canonical(b) == canonical(a)


def test_reading_without_text_is_a_clear_error_per_graph() -> None:
    block = "#SDP 2015\n#1\n1\tHi\thi\tUH\t+\t-\t_\n\n#2\n1\tYo\tyo\tUH\t+\t-\t_\n"
    items = read_sdp(block)
    assert len(items) == 2 and all(isinstance(item, FormatError) for item in items)
    assert "--text" in items[0].message and items[0].graph_id == "1"
    [missing] = read_sdp(block.split("\n\n")[0], table={"9": "Hi"})
    assert isinstance(missing, FormatError) and "no sentence" in missing.message


def test_singletons_dropped_and_edges_from_predicates() -> None:
    text = "\n".join([
        "#SDP 2015", "#7",
        "1\tDogs\tdog\tNNS\t-\t-\t_\t_\tARG1",
        "2\treally\treally\tRB\t-\t+\ta:e-e\t_\t_",
        "3\tbark\tbark\tVBP\t+\t+\tv:e-i\t_\t_",
        "4\t.\t_\t.\t-\t-\t_\t_\t_",
    ])
    [graph] = read_sdp(text, "dm", {"7": "Dogs really bark."})
    assert isinstance(graph, Graph)
    assert [(n.id, n.label, n.anchors) for n in graph.nodes] == [
        (0, "dog", [(0, 4)]), (2, "bark", [(12, 16)])]
    assert [(e.source, e.target, e.label) for e in graph.edges] == [(2, 0, "ARG1")]
    assert graph.tops == [2] and graph.flavor == 0 and graph.framework == "dm"


def test_anchoring_with_quote_dash_and_ellipsis_variants() -> None:
    tokens = ["“", "Yes", "”", "–", "n’t", "…", "``", "no", "''", "-LRB-", "a", "-RRB-", "Corp.", "."]
    text = "\"Yes\" -- n't ... “no” (a) Corp."
    spans = align(tokens, text)
    assert [text[s:e] for s, e in spans] == [
        '"', "Yes", '"', "--", "n't", "...", "“", "no", "”", "(", "a", ")", "Corp.", "."]
    with pytest.raises(AnchorError) as caught:
        align(["Yes", "maybe"], "Yes no")
    assert caught.value.index == 1


def test_syntax_errors_lose_only_their_graph(tmp_path: Path) -> None:
    good = "1\tHi\thi\tUH\t+\t-\t_"
    text = "\n".join([
        "#SDP 2015", "#1", good, "",
        "#2", "1\tHi\thi\tUH\t+\t-\t_\tEXTRA", "",
        "#3", "1\tHi\thi\tUH\t?\t-\t_", "",
        "#4", good, "",
    ])
    path = tmp_path / "bad.dm"
    path.write_text(text, encoding="utf-8")
    corpus = read_corpus(str(path), "dm", ReadOptions(text={str(k): "Hi" for k in range(1, 5)}))
    assert [g.id for g in corpus.graphs] == ["1", "4"]
    assert [(e.graph_id, e.line) for e in corpus.errors] == [("2", 6), ("3", 9)]
    assert all(e.file == str(path) for e in corpus.errors)


def test_writer_refuses_graphs_it_cannot_represent() -> None:
    graph = Graph(id="x", framework="dm", nodes=[Node(0, "a"), Node(1, "b")],
                  edges=[Edge(0, 1, "ARG1"), Edge(0, 1, "ARG2")])
    with pytest.raises(FormatError) as caught:
        writer("dm")([graph], io.StringIO(), WriteOptions())
    assert caught.value.graph_id == "x"
    amr = Graph(id="y", framework="amr", nodes=[Node(0, "a", ["op1"], ["x"])])
    with pytest.raises(FormatError):
        writer("dm")([amr], io.StringIO(), WriteOptions())


def test_a_line_that_is_not_utf8_loses_only_its_graph(tmp_path: Path) -> None:
    path = tmp_path / "latin1.sdp"
    path.write_bytes(b"#SDP 2015\n#1\n1\tZ\xfcrich\tz\tNNP\t+\t-\t_\n\n#2\n1\tHi\thi\tUH\t+\t-\t_\n")
    corpus = read_corpus(str(path), "sdp", ReadOptions(text={"1": "Zürich", "2": "Hi"}))
    assert [g.id for g in corpus.graphs] == ["2"]
    assert corpus.graphs[0].framework is None and corpus.graphs[0].flavor == 0  # "sdp" names no framework
    assert [(e.graph_id, e.line) for e in corpus.errors] == [("1", 3)]


def test_repeated_headers_from_concatenated_files_are_skipped() -> None:
    one = "#SDP 2015\n#1\n1\tHi\thi\tUH\t+\t-\t_\n"
    two = "#SDP 2015\n#2\n1\tYo\tyo\tUH\t+\t-\t_\n"
    items = read_sdp(one + "\n" + two, table={"1": "Hi", "2": "Yo"})
    assert [item.id for item in items if isinstance(item, Graph)] == ["1", "2"]
    headless = read_sdp("#1\n1\tHi\thi\tUH\t+\t-\t_\n", table={"1": "Hi"})
    assert [item.id for item in headless if isinstance(item, Graph)] == ["1"]
