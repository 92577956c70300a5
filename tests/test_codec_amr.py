"""The Penman AMR codec: conformance with the MRP 2019 sample, round trips, bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import List

import pytest

from mrp.codecs import ReadOptions, WriteOptions, reader, writer
from mrp.codecs.mrp import encode
from mrp.codecs.penman import Quoted, Symbol, map_wsj_id, normal_role, read_string
from mrp.corpora.load import read_corpus, read_text
from mrp.errors import FormatError
from mrp.graph import Edge, Graph, Node

from conftest import canonical, cpu_seconds, lines
from conftest import shared_file as shared


def to_mrp_and_back(graphs: List[Graph]) -> List[Graph]:
    out = io.StringIO()
    writer("mrp")(graphs, out, WriteOptions())
    items = list(reader("mrp")(lines(out.getvalue()), "<mrp>", ReadOptions()))
    assert all(isinstance(item, Graph) for item in items)
    return items  # type: ignore[return-value]


def write_amr(graphs: List[Graph]) -> str:
    out = io.StringIO()
    writer("amr")(graphs, out, WriteOptions())
    return out.getvalue()


# --------------------------------------------------------------------------- conformance


def test_wsj_amr_gives_the_mrp_sample() -> None:
    text = read_text(str(shared("data", "wsj", "wsj.txt")))
    corpus = read_corpus(str(shared("data", "wsj", "amr", "wsj.amr")), "amr",
                         ReadOptions(text=text, no_wiki=True, wsj_ids=True))
    assert len(corpus.graphs) == 100 and corpus.errors == []
    # graphs whose sentence is not in wsj.txt keep their own ::snt (the CLI warns; the sample drops them)
    assert all(graph.input for graph in corpus.graphs)
    mine = {graph.id: graph for graph in corpus.graphs if graph.id in text}
    gold = [json.loads(line) for line in open(shared("data", "wsj", "amr", "wsj.mrp"), encoding="utf-8")]
    assert len(gold) == 87
    for obj in gold:
        assert obj["id"] in mine, obj["id"]
        graph = mine[obj["id"]]
        assert len(graph.nodes) == len(obj["nodes"])
        assert len(graph.edges) == len(obj["edges"])
        assert sum(len(n.properties) for n in graph.nodes) == sum(
            len(n.get("properties", [])) for n in obj["nodes"])
        assert canonical(graph) == canonical(obj), obj["id"]
    assert len(mine) == 87


def test_coli_files_read_without_errors() -> None:
    for side in ("gold", "system"):
        corpus = read_corpus(str(shared("data", "pairs", "amr", f"coli.{side}.amr")), "amr")
        assert corpus.errors == []
        assert len(corpus.graphs) == 1368
        assert [graph.id for graph in corpus.graphs] == [str(k) for k in range(1368)]
        assert all(graph.input is None for graph in corpus.graphs)
        assert all(graph.framework == "amr" and graph.tops == [0] for graph in corpus.graphs)
    labels = {node.label for graph in corpus.graphs for node in graph.nodes}
    assert "_" in labels  # odd concepts are kept as written


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("parts", [
    ("data", "wsj", "amr", "wsj.amr"),
    ("data", "pairs", "amr", "coli.gold.amr"),
    ("data", "pairs", "amr", "coli.system.amr"),
])
def test_amr_mrp_amr_mrp_round_trip_is_lossless(parts: tuple) -> None:
    first = read_corpus(str(shared(*parts)), "amr").graphs
    via_mrp = to_mrp_and_back(first)
    again = list(reader("amr")(lines(write_amr(via_mrp)), "<amr>", ReadOptions(framework="amr")))
    assert len(again) == len(first)
    for a, b in zip(first, again):
        assert isinstance(b, Graph), str(b)
        assert encode(a) == encode(b)  # same node ids, same edge order


def test_mrp_sample_converts_to_penman_and_back() -> None:
    gold = list(reader("mrp")(lines(shared("data", "wsj", "amr", "wsj.mrp").read_text("utf-8")),
                              "wsj.mrp", ReadOptions()))
    again = list(reader("amr")(lines(write_amr(gold)), "<amr>", ReadOptions(framework="amr")))
    assert len(again) == len(gold) == 87
    for a, b in zip(gold, again):
        assert isinstance(b, Graph), str(b)
        assert canonical(b) == {**canonical(a), "input": " ".join(a.input.split())}  # type: ignore[union-attr]


def test_writing_reproduces_quoting_and_metadata() -> None:
    text = ('# ::id x1\n# ::snt New York is big .\n'
            '(b / big :domain (c / city :name (n / name :op1 "New York") :quant 5 :li "7"))')
    [graph] = read_string(text)
    assert isinstance(graph, Graph)
    name = graph.nodes[2]
    assert name.values == ["New York"] and isinstance(name.values[0], Quoted)
    city = graph.nodes[1]
    assert city.values == ["5", "7"]
    assert isinstance(city.values[0], Symbol) and isinstance(city.values[1], Quoted)
    written = write_amr([graph])
    assert written.startswith("# ::id x1\n# ::snt New York is big .\n")
    assert '"New York"' in written and ":quant 5" in written and ':li "7"' in written


def test_plain_string_values_get_conventional_quoting() -> None:
    graph = Graph(id="g", framework="amr", tops=[0], nodes=[
        Node(0, "say-01", ["polarity", "mode"], ["-", "imperative"]),
        Node(1, "name", ["op1", "op2"], ["Pierre", "61"]),
    ], edges=[Edge(0, 1, "ARG0")])
    written = write_amr([graph])
    assert ":polarity -" in written and ":mode imperative" in written
    assert ':op1 "Pierre"' in written and ":op2 61" in written


# --------------------------------------------------------------------------- reading details


def test_ids_metadata_and_positions() -> None:
    text = "\n".join([
        "# AMR release; corpus: x",
        "",
        "# ::id nw.wsj_0001.2 ::date 2012",
        "# ::snt First sentence .",
        "(a / alpha)",
        "",
        "# a plain comment",
        "(b / beta)",
        "",
        "# ::id other",
        "(c / gamma)",
    ])
    graphs = read_string(text, ReadOptions(wsj_ids=True))
    assert [g.id for g in graphs if isinstance(g, Graph)] == ["20001002", "1", "other"]
    assert [g.input for g in graphs if isinstance(g, Graph)] == ["First sentence .", None, None]


def test_roles_properties_edges_and_normals() -> None:
    text = '(a / and :op1 (b / board :ARG1-of (h / have-01 :ARG0 b)) :mod (e / e2 :polarity -) ' \
           ':wiki "X" :consist-of (c / c1) :prep-out-of (d / d1))'
    [graph] = read_string(text)
    assert isinstance(graph, Graph)
    edges = {(e.source, e.target, e.label, e.normal) for e in graph.edges}
    assert (1, 2, "ARG1-of", "ARG1") in edges
    assert (2, 1, "ARG0", None) in edges
    assert (0, 3, "mod", "domain") in edges
    assert (0, 4, "consist-of", "consist") in edges
    assert (0, 5, "prep-out-of", None) in edges
    assert graph.nodes[0].properties == ["wiki"]
    [without] = read_string(text, ReadOptions(no_wiki=True))
    assert isinstance(without, Graph) and without.nodes[0].properties == []
    assert normal_role("ARG0-of-of") == "ARG0-of"
    assert map_wsj_id("nw.wsj_0012.15") == "20012015" and map_wsj_id("abc") == "abc"


def test_snt_is_not_inherited() -> None:
    graphs = read_string("# ::id a\n# ::snt Hello .\n(a / a)\n\n# ::id b\n(b / b)")
    assert [g.input for g in graphs if isinstance(g, Graph)] == ["Hello .", None]


def test_missing_text_entry_keeps_the_graphs_own_sentence() -> None:
    [item] = read_string("# ::id a\n# ::snt A.\n(a / a)", ReadOptions(text={"b": "B"}))
    assert isinstance(item, Graph) and item.input == "A."
    [other] = read_string("# ::id b\n# ::snt A.\n(b / b)", ReadOptions(text={"b": "B"}))
    assert isinstance(other, Graph) and other.input == "B"  # the table wins where it has the graph


# --------------------------------------------------------------------------- bad input


def test_syntax_error_in_the_middle_loses_only_that_graph(tmp_path: Path) -> None:
    text = "\n".join([
        "# ::id one", "(a / alpha", "   :ARG0 (b / beta))", "",
        "# ::id two", "(c / gamma", "   :ARG0 (d / delta", "   :ARG1 / oops))", "",
        "# ::id three", "(e / epsilon :ARG0 e)", "",
        "# ::id four", "(f / phi))", "",
        "# ::id five", "(g / gamma :ARG0 (h / eta))",
    ])
    path = tmp_path / "bad.amr"
    path.write_text(text, encoding="utf-8")
    corpus = read_corpus(str(path), "amr")
    assert [g.id for g in corpus.graphs] == ["one", "three", "five"]
    assert [(e.graph_id, e.line, e.file) for e in corpus.errors] == [
        ("two", 8, str(path)), ("four", 14, str(path))]


def test_deep_nesting_is_read() -> None:
    """Nesting as deep as the node limit allows is read (mrp.codecs.penman.deep: penman's recursive parser on
    a thread with a large stack), and the next graph after it too."""
    depth = 10_000
    text = "# ::id deep\n" + "".join(f"(n{k} / c :ARG0 " for k in range(depth)) + "(z / z)" + ")" * depth
    items = read_string(text + "\n\n# ::id next\n(a / a)")
    assert isinstance(items[0], Graph) and items[0].id == "deep" and len(items[0].nodes) == depth + 1
    assert isinstance(items[1], Graph) and items[1].id == "next"


def test_megabyte_string_constant() -> None:
    big = "x" * 1_000_000
    started = cpu_seconds()  # CPU time: the machine's load does not stretch it
    [graph] = read_string(f'(a / name :op1 "{big}")')
    assert isinstance(graph, Graph) and graph.nodes[0].values == [big]
    [broken] = read_string(f'(a / name :op1 "{big})')
    assert isinstance(broken, FormatError)
    assert cpu_seconds() - started < 10


def test_writer_refuses_graphs_it_cannot_represent() -> None:
    with pytest.raises(FormatError) as caught:
        write_amr([Graph(id="e1", framework="eds", nodes=[Node(0, "x")])])
    assert caught.value.graph_id == "e1"
    with pytest.raises(FormatError):
        write_amr([Graph(id="two", framework="amr", nodes=[Node(0, "a"), Node(1, "b")], tops=[0])])
    with pytest.raises(FormatError):
        write_amr([Graph(id="empty", framework="amr")])


def test_writer_inverts_edges_to_reach_every_node() -> None:
    graph = Graph(id="inv", framework="amr", tops=[0], nodes=[Node(0, "a"), Node(1, "b"), Node(2, "c")],
                  edges=[Edge(1, 0, "ARG0"), Edge(1, 2, "ARG1")])
    [again] = read_string(write_amr([graph]))
    assert isinstance(again, Graph)
    labels = {(again.nodes[e.source].label, again.nodes[e.target].label, e.label) for e in again.edges}
    assert labels == {("a", "b", "ARG0-of"), ("b", "c", "ARG1")}


def test_tolerated_penman_slips_are_errors_and_print_nothing(capfd: pytest.CaptureFixture) -> None:
    items = read_string("# ::id a\n(a / alpha\n   :ARG0 )\n\n# ::id b\n(b / )\n\n# ::id c\n(c / gamma)")
    assert [type(item) for item in items] == [FormatError, FormatError, Graph]
    assert isinstance(items[0], FormatError) and items[0].line == 3 and "missing target" in items[0].message
    assert isinstance(items[1], FormatError) and "missing concept" in items[1].message
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""


def test_a_line_that_is_not_utf8_loses_only_its_graph(tmp_path: Path) -> None:
    path = tmp_path / "latin1.amr"
    path.write_bytes(b'# ::id one\n(a / city\n   :name (n / name :op1 "Z\xfcrich"))\n\n'
                     b'# ::id two\n(b / beta)\n')
    corpus = read_corpus(str(path), "amr")
    assert [g.id for g in corpus.graphs] == ["two"]
    assert [(e.graph_id, e.line) for e in corpus.errors] == [("one", 3)]


def test_writing_a_very_deep_graph_is_a_clear_error() -> None:
    depth = 10_000
    graph = Graph(id="chain", framework="amr", tops=[0],
                  nodes=[Node(k, "c") for k in range(depth)],
                  edges=[Edge(k, k + 1, "ARG0") for k in range(depth - 1)])
    started = cpu_seconds()  # CPU time: the machine's load does not stretch it
    with pytest.raises(FormatError) as caught:
        write_amr([graph])
    assert caught.value.graph_id == "chain" and "deeply" in caught.value.message
    assert cpu_seconds() - started < 10


def test_penman_slips_are_errors_whatever_level_the_application_set_for_penmans_logger() -> None:
    import logging

    logger = logging.getLogger("penman")
    before = logger.level
    logger.setLevel(logging.ERROR)  # as an application silencing penman (or bench/documents.py) does
    try:
        items = read_string("# ::id a\n(a / alpha\n   :ARG0 )\n\n# ::id b\n(b / )\n\n# ::id c\n(c / gamma)")
        assert [type(item) for item in items] == [FormatError, FormatError, Graph]
        assert logger.level == logging.ERROR  # left as it was
    finally:
        logger.setLevel(before)
