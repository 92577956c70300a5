"""Writers never let a value break their format: unsafe ids are refused (or escaped in DOT), SDP
writes rows only for real tokens, and NaN/Infinity are never written."""

from __future__ import annotations

import io
from typing import List

import pytest

from mrp.codecs import ReadOptions, WriteOptions, reader, writer
from mrp.errors import FormatError
from mrp.graph import Edge, Graph, Node

from conftest import lines

#: An id that would inject a graph into a line-based format if written raw.
INJECTION = "g1\n# ::id evil\n#evil\n(e / evil)"


def graph(gid: str, framework: str) -> Graph:
    nodes = [Node(0, "a", ["pos"], ["N"], anchors=[(0, 1)]), Node(1, "b", ["pos"], ["V"], anchors=[(2, 3)])]
    return Graph(id=gid, framework=framework, input="a b", tops=[1], nodes=nodes,
                 edges=[Edge(1, 0, "ARG1")])


def write(fmt: str, graphs: List[Graph]) -> tuple[str, List[FormatError]]:
    skipped: List[FormatError] = []
    out = io.StringIO()
    writer(fmt)(graphs, out, WriteOptions(skipped=skipped.append))
    return out.getvalue(), skipped


@pytest.mark.parametrize("fmt,framework", [("amr", "amr"), ("eds", "eds"), ("dm", "dm")])
@pytest.mark.parametrize("gid", [INJECTION, "g1\r", " g1", "g1\u2028x", ""])
def test_unsafe_ids_are_refused(fmt: str, framework: str, gid: str) -> None:
    text, skipped = write(fmt, [graph(gid, framework), graph("ok", framework)])
    assert [error.graph_id for error in skipped] == [gid]
    assert "cannot be written" in skipped[0].message
    assert "evil" not in text
    items = list(reader(fmt)(lines(text), "<out>", ReadOptions(text={"ok": "a b"})))
    assert [item.id for item in items if isinstance(item, Graph)] == ["ok"]


@pytest.mark.parametrize("fmt,framework,gid", [("amr", "amr", "a ::snt b"), ("eds", "eds", "a {b"),
                                               ("dm", "dm", "SDP 2015")])
def test_ids_the_reader_would_take_as_syntax_are_refused(fmt: str, framework: str, gid: str) -> None:
    _, skipped = write(fmt, [graph(gid, framework)])
    assert [error.graph_id for error in skipped] == [gid]


@pytest.mark.parametrize("fmt,framework", [("amr", "amr"), ("eds", "eds"), ("dm", "dm")])
def test_safe_ids_read_back_as_themselves(fmt: str, framework: str) -> None:
    ids = ["20001001", "nw.wsj_0001.1", "a b", "x#y"]
    text, skipped = write(fmt, [graph(gid, framework) for gid in ids])
    assert skipped == []
    items = list(reader(fmt)(lines(text), "<out>", ReadOptions(text={gid: "a b" for gid in ids})))
    assert [item.id for item in items] == ids


def test_dot_escapes_line_breaks_in_ids() -> None:
    text, skipped = write("dot", [graph(INJECTION + "\r", "eds"), graph("ok", "eds")])
    assert skipped == [] and "\r" not in text
    assert [line for line in text.split("\n") if line.startswith("digraph")] == [
        'digraph "g1\\n# ::id evil\\n#evil\\n(e / evil)\\r" {', 'digraph "ok" {']


def test_sdp_writes_rows_only_for_real_tokens() -> None:
    far = Graph(id="far", framework="dm", input="a b", tops=[0],
                nodes=[Node(0, "a", anchors=[(0, 1)]), Node(99_999, "b", anchors=[(2, 3)])],
                edges=[Edge(0, 99_999, "ARG1")])
    text, skipped = write("dm", [far])
    assert [e.graph_id for e in skipped] == ["far"] and "token rows" in skipped[0].message
    assert len(text) < 100
    n = 2000  # every node a predicate: an n x n table of 4 million cells
    words = " ".join("w" for _ in range(n))
    square = Graph(id="square", framework="dm", input=words, tops=[0],
                   nodes=[Node(k, "w", anchors=[(2 * k, 2 * k + 1)]) for k in range(n)],
                   edges=[Edge(k, (k + 1) % n, "ARG1") for k in range(n)])
    text, skipped = write("dm", [square])
    assert [e.graph_id for e in skipped] == ["square"] and "cells" in skipped[0].message
    gap = Graph(id="gap", framework="dm", input="a big b", tops=[0],
                nodes=[Node(0, "a", anchors=[(0, 1)]), Node(2, "b", anchors=[(6, 7)])],
                edges=[Edge(0, 2, "ARG1")])
    text, skipped = write("dm", [gap])
    assert skipped == [] and [row.split("\t")[1] for row in text.split("\n")[2:] if row] == ["a", "big", "b"]


def test_nan_and_infinity_are_never_written() -> None:
    bad = Graph(id="nan", framework="eds", nodes=[Node(0, "a", ["p"], [float("nan")])])
    worse = Graph(id="inf", framework="eds", nodes=[Node(0, "a", ["p"], [float("-inf")])])
    text, skipped = write("mrp", [bad, worse, graph("ok", "eds")])
    assert [e.graph_id for e in skipped] == ["nan", "inf"]
    assert "NaN" not in text and "Infinity" not in text and text.count("\n") == 1
