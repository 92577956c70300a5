"""The UMR codec: shared files read completely (counted independently), round trips, scoring, bad input."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple

import pytest
import ujson
from hypothesis import given
from hypothesis import strategies as st
from test_hostile import MUTATION, check_errors, mutate, token_graphs, write_text

from mrp.cli.convert import main_body as convert
from mrp.cli.score import main_body as score
from mrp.codecs import infer_format, reader
from mrp.codecs.base import ReadOptions
from mrp.codecs.mrp import decode, dumps
from mrp.codecs.umr import Document, format_graph, parse_documents, read, read_documents, token_spans
from mrp.corpora.load import read_corpus
from mrp.errors import FormatError, InputError, ReadWarning
from mrp.graph import Graph, Node, Placement, Relation, check_references
from mrp.validation.umr.reading import validate_umr

from conftest import budget, lines, run_cli, shared_file

UMR = ["czech-pdtc/" + f"{name}-{side}.umr" for name in ("dtest", "pdt", "pdtsc", "pcedt")
       for side in ("gold", "conv")]
UMR += [f"english/english_umr-000{k}.umr" for k in (1, 3, 4)]
UMR += ["ancast-samples/umr_gold.txt", "ancast-samples/umr_test.txt"]

# ---------------------------------------------------------------------------
# counting a UMR file without the reader

_HEADER = re.compile(r"\s*#\s*(sentence level graph|alignment|document level annotation)\s*:\s*$", re.I)
_START = re.compile(r"\s*(#{3,}\s*$|#\s*::\s*snt\d+)")
_DEFINED = re.compile(r'\(\s*([^\s()/"]+)\s*/')
_RELATION = re.compile(r"\(\s*[^\s()]+\s+:[^\s()]+\s+[^\s()]+\s*\)")


def _sentences(text: str) -> List[Dict[str, str]]:
    """The sections of each sentence of a UMR text, cut by headers, rules and ``# :: sntN`` lines."""
    sentences: List[Dict[str, str]] = []
    current = None
    for line in text.split("\n"):
        if re.match(r"\s*#\s*::\s*snt\d+", line):
            sentences.append({})
        if _START.match(line):
            current = None
            continue
        header = _HEADER.match(line)
        if header:
            current = header.group(1).lower().split()[0]
            sentences[-1][current] = ""
        elif current is not None:
            sentences[-1][current] += line + "\n"
    return sentences


def _alignments(sentence: Dict[str, str]) -> Set[Tuple[str, Tuple[Tuple[int, int], ...]]]:
    """(variable, spans) of the alignment lines naming a variable of the graph, unaligned spans left out."""
    defined = set(_DEFINED.findall(sentence.get("sentence", "")))
    found = set()
    for line in sentence.get("alignment", "").split("\n"):
        match = re.match(r"\s*(\S+?)\s*:(.*)", line)
        if not match or match.group(1) not in defined:
            continue
        spans = tuple((int(a), int(b)) for a, b in re.findall(r"(-?\d+)\s*-\s*(-?\d+)", match.group(2))
                      if (int(a), int(b)) not in ((0, 0), (-1, -1)))
        if spans:
            found.add((match.group(1), spans))
    return found


def _count(text: str) -> Dict[str, int]:
    sentences = _sentences(text)
    alignments = [_alignments(s) for s in sentences]
    return {
        "sentences": len(sentences),
        "nodes": sum(len(_DEFINED.findall(s.get("sentence", ""))) for s in sentences),
        "aligned": sum(len(a) for a in alignments),
        "spans": sum(len(spans) for a in alignments for _, spans in a),
        "relations": sum(len(_RELATION.findall(s.get("document", ""))) for s in sentences),
    }


def _read(documents: List[Document]) -> Dict[str, int]:
    graphs = [graph for document in documents for graph in document.graphs]
    return {
        "sentences": len(graphs),
        "nodes": sum(len(graph.nodes) for graph in graphs),
        "aligned": sum(1 for graph in graphs for node in graph.nodes if node.anchors),
        "spans": sum(len(node.anchors or []) for graph in graphs for node in graph.nodes),
        "relations": sum(len(document.relations()) for document in documents),
    }


@pytest.mark.parametrize("name", UMR)
def test_shared_file_reads_completely(name: str) -> None:
    path = shared_file("data", "umr", *name.split("/"))
    documents = read_documents(str(path))
    assert not [error for document in documents for error in document.errors]
    counted = _count(path.read_text(encoding="utf-8"))
    assert counted["sentences"] > 0 and counted["nodes"] > 0
    assert _read(documents) == counted


def test_counts_of_the_czech_files_match_the_readme() -> None:
    for name, sentences, documents in (("dtest", 91, 6), ("pdt", 25, 2), ("pdtsc", 50, 2), ("pcedt", 16, 2)):
        for side in ("gold", "conv"):
            read = read_documents(str(shared_file("data", "umr", "czech-pdtc", f"{name}-{side}.umr")))
            assert len(read) == documents
            assert sum(len(document.graphs) for document in read) == sentences


def test_czech_gold_and_conversion_ids_pair() -> None:
    for name in ("dtest", "pdt", "pdtsc", "pcedt"):
        ids = {}
        for side in ("gold", "conv"):
            path = shared_file("data", "umr", "czech-pdtc", f"{name}-{side}.umr")
            ids[side] = [graph.id for document in read_documents(str(path)) for graph in document.graphs]
        assert ids["gold"] == ids["conv"]
        assert len(set(ids["gold"])) == len(ids["gold"])


def test_concepts_and_input_are_kept_exactly() -> None:
    path = shared_file("data", "umr", "czech-pdtc", "pdt-conv.umr")
    graphs = [graph for document in read_documents(str(path)) for graph in document.graphs]
    first = graphs[0]
    assert first.id == "d1.s1" and first.framework == "umr" and first.flavor == 2
    assert first.nodes[0].label == "být-011"
    assert first.input is not None and first.input.startswith("Vážení čtenáři , je tomu právě rok ,")
    # s1c1: 2-2,11-11 -> two anchors, on "čtenáři" and "vám"
    node = next(n for n in first.nodes if first.variables and first.variables[n.id] == "s1c1")
    assert [first.input[a:b] for a, b in node.anchors or []] == ["čtenáři", "vám"]
    assert token_spans(first)[node.id] == [(2, 2), (11, 11)]
    # s1z1: 16-17,21-21 -> one anchor over two words, one over one
    node = next(n for n in first.nodes if first.variables and first.variables[n.id] == "s1z1")
    assert [first.input[a:b] for a, b in node.anchors or []] == ["že se", "zvyšuje"]
    assert token_spans(first)[node.id] == [(16, 17), (21, 21)]


def test_ancast_layout_takes_the_text_from_the_snt_line() -> None:
    documents = read_documents(str(shared_file("data", "umr", "ancast-samples", "umr_gold.txt")))
    graph = documents[0].graphs[0]
    assert graph.input == "Lindsay left in order to eat lunch ."
    assert graph.document is not None and graph.document.variable == "s1s0"
    assert Relation("modal", "author", "full-negative", "s1e") in graph.document.relations
    assert documents[0].resolve("s1e", 2) == (1, 3)
    assert documents[0].resolve("author") is None


# ---------------------------------------------------------------------------
# round trips


def _content(graphs: List[Graph]) -> Dict[str, Any]:
    """Each graph as sets keyed by variable: nodes, edges, tops, anchors, document relations."""
    result = {}
    for graph in graphs:
        names = graph.variables or {}
        place = graph.document
        assert place is not None
        result[graph.id] = (
            graph.input,
            {(names[n.id], n.label, tuple((p, str(v)) for p, v in zip(n.properties, n.values)))
             for n in graph.nodes},
            {(names[e.source], e.label, names[e.target]) for e in graph.edges},
            {names[top] for top in graph.tops},
            {(names[n.id], tuple(n.anchors)) for n in graph.nodes if n.anchors},
            {(r.kind, r.source, r.label, r.target) for r in place.relations},
            (place.document, place.sentence, place.variable, tuple(place.info)),
        )
    return result


def _raw_alignments(text: str) -> List[Set[Tuple[str, Tuple[Tuple[int, int], ...]]]]:
    return [_alignments(sentence) for sentence in _sentences(text)]


@pytest.mark.parametrize("name", UMR)
def test_umr_mrp_umr_round_trip(name: str, tmp_path: Path) -> None:
    path = shared_file("data", "umr", *name.split("/"))
    json_path, back = tmp_path / "graphs.mrp", tmp_path / "back.umr"
    assert convert(["--from", "umr", "--to", "mrp", str(path), str(json_path)]) == 0
    assert convert(["--from", "mrp", "--to", "umr", str(json_path), str(back)]) == 0
    original = [g for d in read_documents(str(path)) for g in d.graphs]
    via_json = [decode(ujson.loads(line)) for line in json_path.read_text(encoding="utf-8").splitlines()]
    again = [g for d in read_documents(str(back)) for g in d.graphs]
    assert _content(via_json) == _content(original)
    assert _content(again) == _content(original)
    # the alignment lines written equal the file's own (unaligned lines left out), sentence by sentence
    written = back.read_text(encoding="utf-8")
    assert _raw_alignments(written) == _raw_alignments(path.read_text(encoding="utf-8"))


def test_round_trip_through_the_command_line_tool(tmp_path: Path) -> None:
    path = shared_file("data", "umr", "english", "english_umr-0003.umr")
    out = run_cli("convert", ["--from", "umr", "--to", "mrp", str(path)])
    assert out.code == 0, out.err
    (tmp_path / "g.mrp").write_text(out.out, encoding="utf-8")
    back = run_cli("convert", ["--from", "mrp", "--to", "umr", str(tmp_path / "g.mrp")])
    assert back.code == 0, back.err
    again = list(read(lines(back.out), "back.umr", ReadOptions()))
    original = [g for d in read_documents(str(path)) for g in d.graphs]
    assert all(isinstance(graph, Graph) for graph in again)
    assert _content(again) == _content(original)  # type: ignore[arg-type]


def test_mrp_json_keeps_variables_and_document() -> None:
    graph = Graph("d2.s3", "umr", tops=[0], nodes=[Node(0, "a", anchors=[(0, 3)]), Node(1, "b")],
                  variables={0: "s3a", 1: "s3b"},
                  document=Placement("d2", 3, "s3s0", [Relation("coref", "s1x", "same-entity", "s3b")],
                                     ["# meta-info :: sent_id = x"]))
    line = dumps(graph)
    assert json.loads(line)["document"]["relations"] == [
        {"kind": "coref", "source": "s1x", "label": "same-entity", "target": "s3b"}]
    assert decode(ujson.loads(line)) == graph
    plain = Graph("x", "amr", nodes=[Node(0, "a")])
    assert "variables" not in dumps(plain) and "document" not in dumps(plain)


def test_writer_makes_variables_for_a_graph_without_them() -> None:
    graph = Graph("x", None, input="a dog barks", tops=[0],
                  nodes=[Node(0, "bark-01", anchors=[(6, 11)]), Node(1, "dog", anchors=[(0, 5)])])
    graph.edges = []
    from mrp.graph import Edge

    graph.edges.append(Edge(0, 1, "ARG0"))
    text = format_graph(graph, 4)
    back = next(iter(parse_documents(lines("\n" + text), "w.umr")))
    read_back = back.graphs[0]
    assert read_back.id == "d1.s4" and read_back.variables == {0: "s4b", 1: "s4d"}
    assert [n.anchors for n in read_back.nodes] == [[(6, 11)], [(0, 5)]]
    assert read_back.document is not None and read_back.document.variable == "s4s0"


def test_registry_and_extension() -> None:
    assert infer_format("doc.umr") == "umr"
    assert reader("umr").__wrapped__ is read  # type: ignore[attr-defined]  # (wrapped with the reading limits)


# ---------------------------------------------------------------------------
# scoring


def test_czech_pairs_score_exactly(capsys: pytest.CaptureFixture) -> None:
    gold = shared_file("data", "umr", "czech-pdtc", "dtest-gold.umr")
    system = shared_file("data", "umr", "czech-pdtc", "dtest-conv.umr")
    assert score(["--format", "umr", "--gold", str(gold), str(system)]) == 0
    result = json.loads(capsys.readouterr().out)
    # dtest holds all six documents of pdt, pdtsc and pcedt: every Czech pair
    assert result["n"] == result["exact"] == 91
    assert result["invalid"] == result["unpaired"] == 0
    # the gold anchors are the gold alignment spans
    counted = _count(gold.read_text(encoding="utf-8"))
    assert result["anchors"]["g"] == counted["aligned"]
    assert 0 < result["anchors"]["c"] < result["anchors"]["g"]


# ---------------------------------------------------------------------------
# bad input

BROKEN = """\
################################################################################
# meta-info :: sent_id = t-s1
# :: snt1
Index: 1   2   3
Words: The cat sleeps

# sentence level graph:
(s1s / sleep-01
    :ARG0 (s1c / cat))

# alignment:
s1s: 3-3
s1c: 2-2
s1x: 1-1

# document level annotation:
(s1s0 / sentence
    :temporal ((document-creation-time :before s1s))
    :modal ((root :modal author)
            (author :full-affirmative s1q)))

################################################################################
# :: snt2
Words: It purrs

# sentence level graph:
(s2p / purr-01
    :ARG0 (s2i / it)
    :manner (s2x / loud / soft))

# alignment:
s2p: 2-2

# document level annotation:
(s2s0 / sentence)

################################################################################
# :: snt3
Words: Cats purr

# sentence level graph:
(s3p / purr-01 :ARG0 (s3c / cat))

# alignment:
s3p: 2-2
s3c: 1-5
this is no alignment

# document level annotation:
(s3s0 / sentence
    :coref ((s1c :same-entity s3c)
            (s2i :same-entity s3c)
            (s3c :likes s1c)))

################################################################################
# :: snt4
Words: Really

# sentence level graph:
(s4r / really)

# alignment:
s4r: 1-1

# document level annotation:
(s4s0 / sentence
    :temporal ((s4r :before)))

################################################################################
# :: snt5
Words: Twice

# sentence level graph:
(s5a / a :ARG0 (s5a / b))
"""

EXPECTED_LOST = [(29, "d1.s2", "Penman syntax error"), (74, "d1.s5", "variable 's5a' is defined twice")]
EXPECTED_KEPT = [
    (14, "d1.s1", "the graph has no variable 's1x'"),
    (20, "d1.s1", "'s1q' is neither a variable of this or an earlier sentence nor a special node"),
    (46, "d1.s3", "span 1-5 is outside the sentence (tokens 1-2)"),
    (47, "d1.s3", "alignment: expected 'VARIABLE: I-J'"),
    (53, "d1.s3", "':likes' is not a coref relation"),
    (67, "d1.s4", "expected a relation's target, found ')'"),
]


def test_broken_document_reports_each_problem_once_and_keeps_the_rest() -> None:
    documents = list(parse_documents(lines(BROKEN), "broken.umr"))
    assert len(documents) == 1
    document = documents[0]
    assert [graph.id for graph in document.graphs] == ["d1.s1", "d1.s3", "d1.s4"]
    assert [(e.line, e.graph_id) for e in document.errors] == [(line, gid) for line, gid, _ in EXPECTED_LOST]
    for error, (_, _, text) in zip(document.errors, EXPECTED_LOST):
        assert text in error.message
        assert str(error).startswith(f"broken.umr:{error.line}: graph {error.graph_id}: ")
    assert len(document.problems) == len(EXPECTED_KEPT)
    for problem, (line, gid, text) in zip(document.problems, EXPECTED_KEPT):
        assert (problem.file, problem.line, problem.graph_id) == ("broken.umr", line, gid)
        assert text in problem.message
    # what the broken parts leave: the other alignments and relations
    s1, s3, s4 = document.graphs
    assert [n.anchors for n in s1.nodes] == [[(8, 14)], [(4, 7)]]
    assert s1.document is not None and len(s1.document.relations) == 3
    assert [n.anchors for n in s3.nodes] == [[(5, 9)], None]
    assert s3.document is not None and len(s3.document.relations) == 3  # s2i: of the lost graph, not reported
    assert s4.document is not None and s4.document.variable is None and s4.document.relations == []
    # the registry reader yields the graphs and the lost sentences in file order, and logs the rest
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        items = list(read(lines(BROKEN), "broken.umr", ReadOptions()))
    assert [item.graph_id if isinstance(item, FormatError) else item.id for item in items] == [
        "d1.s1", "d1.s2", "d1.s3", "d1.s4", "d1.s5"]
    assert all(issubclass(w.category, ReadWarning) for w in caught)
    assert [str(w.message) for w in caught] == [str(p) for p in document.problems]


def test_validate_reports_the_broken_document(tmp_path: Path) -> None:
    path = tmp_path / "broken.umr"
    path.write_text(BROKEN, encoding="utf-8")
    out = run_cli("validate", ["--format", "umr", "--umr-level", "0", str(path)])
    assert out.code == 1
    printed = out.out.splitlines()
    expected = sorted(EXPECTED_LOST + EXPECTED_KEPT)
    assert len(printed) == len(expected)
    for line, (number, gid, text) in zip(printed, expected):
        assert line.startswith(f"{path}:{number}: graph {gid}: ") and text in line
    assert "5 graphs, 8 problems in 5 graphs" in out.err


def test_a_new_document_starts_at_snt1_and_disorder_is_reported() -> None:
    text = "\n".join(f"# :: snt{n}\n# sentence level graph:\n(s{n}a / a)\n" for n in (1, 2, 1, 5, 3))
    documents = list(parse_documents(lines(text), "t.umr"))
    assert [[g.id for g in d.graphs] for d in documents] == [["d1.s1", "d1.s2"], ["d2.s1", "d2.s5", "d2.s3"]]
    assert [p.message for p in documents[1].problems] == [  # 5 is taken for a slip: 3 follows 1
        "sentence number 5 does not follow 1 (the previous one)"]


def test_a_document_whose_first_sentence_is_missing_is_still_a_new_document() -> None:
    text = "\n".join(f"# :: snt{n}\n# sentence level graph:\n(s{n}a / a)\n" for n in (1, 2, 3, 2, 3, 1))
    documents = list(parse_documents(lines(text), "t.umr"))
    assert [[g.id for g in d.graphs] for d in documents] == [["d1.s1", "d1.s2", "d1.s3"], ["d2.s2", "d2.s3"],
                                                              ["d3.s1"]]


def test_non_latin_and_three_digit_sense_concepts_round_trip() -> None:
    text = ("# :: snt1\tTā shuō\n# sentence level graph:\n(s1s / 说-01\n    :ARG0 (s1t / 他"
            "\n        :refer-person 3rd)\n    :ARG1 (s1b / být-011 :polarity -))\n"
            "# alignment:\ns1s: 2-2\ns1t: 1-1\n")
    graph = next(iter(parse_documents(lines(text), "zh.umr"))).graphs[0]
    assert [node.label for node in graph.nodes] == ["说-01", "他", "být-011"]
    written = format_graph(graph)
    assert "(s1s / 说-01" in written and "(s1b / být-011" in written and ":refer-person 3rd" in written
    again = next(iter(parse_documents(lines(written), "zh.umr"))).graphs[0]
    assert _content([again]) == _content([graph])


# ---------------------------------------------------------------------------
# hostile input: random graphs written as UMR, then mutated


@budget(60)
@given(st.lists(token_graphs("umr"), min_size=1, max_size=3), st.lists(MUTATION, max_size=4))
def test_written_then_mutated_umr(tmp_path_factory: pytest.TempPathFactory, graphs: List[Graph],
                                  mutations: List[Tuple[str, int, int]]) -> None:
    text, refused = write_text(graphs, "umr")
    written = [graph for graph in graphs if all(error.graph_id != graph.id for error in refused)]
    if not mutations:
        back = list(read(lines(text), "w.umr", ReadOptions()))
        assert [len(g.nodes) for g in back if isinstance(g, Graph)] == [len(g.nodes) for g in written]
        assert [len(g.edges) for g in back if isinstance(g, Graph)] == [len(g.edges) for g in written]
    data = mutate(text.encode("utf-8"), mutations)
    path = tmp_path_factory.mktemp("umr") / "input.umr"
    path.write_bytes(data)
    try:
        corpus = read_corpus(str(path), "umr")
    except InputError:
        return
    line_count = data.count(b"\n") + 1
    check_errors(corpus.errors, str(path), line_count)
    for graph in corpus.graphs:
        assert graph.line is not None and 1 <= graph.line <= line_count
        assert check_references(graph) is None
    validate_umr(str(path))
