"""The native EDS codec: conformance with the MRP 2019 sample, round trips, bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, List

import pytest

from mrp.codecs import ReadOptions, WriteOptions, reader, writer
from mrp.codecs.mrp import encode
from mrp.corpora.load import read_corpus, read_text
from mrp.errors import FormatError
from mrp.graph import Edge, Graph, Node

from conftest import canonical, lines
from conftest import shared_file as shared


def read_eds(text: str, table: Any = None) -> List[Any]:
    return list(reader("eds")(lines(text), "<eds>", ReadOptions(framework="eds", text=table)))


def test_wsj_eds_gives_the_mrp_sample() -> None:
    text = read_text(str(shared("data", "wsj", "wsj.txt")))
    corpus = read_corpus(str(shared("data", "wsj", "eds", "wsj.eds")), "eds", ReadOptions(text=text))
    assert corpus.errors == []
    gold = [json.loads(line) for line in open(shared("data", "wsj", "eds", "wsj.mrp"), encoding="utf-8")]
    assert len(corpus.graphs) == len(gold) == 89
    for graph, obj in zip(corpus.graphs, gold):
        assert graph.id == obj["id"]
        assert canonical(graph) == canonical(obj), obj["id"]


def test_mrp_eds_mrp_round_trip_is_lossless() -> None:
    text = read_text(str(shared("data", "wsj", "wsj.txt")))
    gold = read_corpus(str(shared("data", "wsj", "eds", "wsj.mrp")), "mrp").graphs
    out = io.StringIO()
    writer("eds")(gold, out, WriteOptions())
    again = read_eds(out.getvalue(), text)
    assert len(again) == len(gold)
    for a, b in zip(gold, again):
        assert isinstance(b, Graph), str(b)
        assert canonical(b) == canonical(a)


def test_node_line_grammar() -> None:
    text = "\n".join([
        "#g1",
        "{e2:",
        ' x4:named<0:6>("Pierre \\"P\\"")[]',
        " e2:_sleep_v_1<7:13>{e SF prop, TENSE pres}[ARG1 x4]",
        " _1:proper_q[BV x4]",
        ' x5:card("5"){x NUM sg}[]',
        "}",
        "",
        "#g2",
        "{:",
        "}",
    ])
    graph, empty = read_eds(text)
    assert isinstance(graph, Graph) and isinstance(empty, Graph)
    assert [(n.id, n.label, n.properties, n.values, n.anchors) for n in graph.nodes] == [
        (0, "named", ["carg"], ['Pierre "P"'], [(0, 6)]),
        (1, "_sleep_v_1", ["SF", "TENSE"], ["prop", "pres"], [(7, 13)]),
        (2, "proper_q", [], [], None),
        (3, "card", ["carg", "NUM"], ["5", "sg"], None),
    ]
    assert [(e.source, e.target, e.label) for e in graph.edges] == [(1, 0, "ARG1"), (2, 0, "BV")]
    assert graph.tops == [1] and graph.input is None
    assert empty.id == "g2" and empty.nodes == [] and empty.tops == []
    out = io.StringIO()
    writer("eds")([graph], out, WriteOptions())
    [again] = read_eds(out.getvalue())
    assert isinstance(again, Graph) and encode(again) == encode(graph)


def test_syntax_errors_lose_only_their_graph(tmp_path: Path) -> None:
    text = "\n".join([
        "#1", "{e1:", " e1:_a_v<0:1>[]", "}", "",
        "#2", "{e1:", " e1:_a_v<0:1>[ARG1 x9]", "}", "",
        "#3", "{e1:", " e1:_a_v<0:1 broken", " x2:_b_n<0:1>[]", "}", "",
        "#4", "{e1:", " e1:_a_v<0:1>[]", "}",
    ])
    path = tmp_path / "bad.eds"
    path.write_text(text, encoding="utf-8")
    corpus = read_corpus(str(path), "eds")
    assert [g.id for g in corpus.graphs] == ["1", "4"]
    assert [(e.graph_id, e.line) for e in corpus.errors] == [("2", 8), ("3", 13)]
    assert "x9" in corpus.errors[0].message


def test_missing_text_entry_and_unclosed_graph() -> None:
    items = read_eds("#1\n{e1:\n e1:_a_v<0:1>[]\n}\n#2\n{e1:\n e1:_a_v<0:1>[]", {"2": "A"})
    assert [type(item) for item in items] == [FormatError, FormatError]
    assert "no sentence" in items[0].message and items[0].graph_id == "1"
    assert "closing" in items[1].message and items[1].graph_id == "2"


def test_writer_refuses_graphs_it_cannot_represent() -> None:
    graph = Graph(id="m", framework="eds", nodes=[Node(0, "a", anchors=[(0, 1), (2, 3)])])
    with pytest.raises(FormatError) as caught:
        writer("eds")([graph], io.StringIO(), WriteOptions())
    assert caught.value.graph_id == "m"
    spaced = Graph(id="s", framework="eds", nodes=[Node(0, "a"), Node(1, "b")],
                   edges=[Edge(0, 1, "two words")])
    with pytest.raises(FormatError):
        writer("eds")([spaced], io.StringIO(), WriteOptions())


def test_a_line_that_is_not_utf8_loses_only_its_graph(tmp_path: Path) -> None:
    path = tmp_path / "latin1.eds"
    path.write_bytes(b'#1\n{e1:\n e1:named<0:6>("Z\xfcrich")[]\n}\n\n#2\n{e1:\n e1:_a_v<0:1>[]\n}\n')
    corpus = read_corpus(str(path), "eds")
    assert [g.id for g in corpus.graphs] == ["2"]
    assert [(e.graph_id, e.line) for e in corpus.errors] == [("1", 3)]
