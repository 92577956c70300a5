"""Triples in (issue 63 item 4): graphs as lists of (source, role, target) triples (penman's Graph.triples)
score as the same graphs written as Penman, in the library and through ``mrp-score --format triples``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Tuple

import pytest

import mrp
from mrp.errors import FormatError, InputError

from conftest import run_cli, shared_file

Triples = List[Tuple[str, str, str]]


def _counts(gold, system, **options):  # type: ignore[no-untyped-def]
    found = mrp.score(gold, system, metric="smatch", **options).to_dict()
    return found["g"], found["s"], found["c"]


# one hand-made case per rule: the triples, the same graph as Penman, and a system graph (Penman)
CASES = {
    "constants": ([("p", ":instance", "person"), ("p", ":name", "n"), ("n", ":instance", "name"),
                   ("n", ":op1", '"Obama"'), ("p", ":polarity", "-"), ("p", ":quant", "5")],
                  '(p / person :name (n / name :op1 "Obama") :polarity - :quant 5)',
                  '(p / person :name (n / name :op1 "Obama") :quant 6)'),
    "inverse role": ([("b", ":instance", "boy"), ("w", ":ARG0", "b"), ("w", ":instance", "want-01")],
                     "(b / boy :ARG0-of (w / want-01))",
                     "(w / want-01 :ARG0 (b / boy))"),
    "inverse role as written": ([("b", ":instance", "boy"), ("b", ":ARG0-of", "w"),
                                 ("w", ":instance", "want-01")],
                                "(b / boy :ARG0-of (w / want-01))",
                                "(w / want-01 :ARG0 (b / boy))"),
    "reentrancy": ([("w", ":instance", "want-01"), ("w", ":ARG0", "b"), ("b", ":instance", "boy"),
                    ("w", ":ARG1", "g"), ("g", ":instance", "go-02"), ("g", ":ARG0", "b")],
                   "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))",
                   "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (b2 / boy)))"),
    "no instance": ([("a", ":ARG0", "b")], "(a :ARG0 b)", "(a :ARG0 c)"),
    "roles without colons": ([("w", "instance", "want-01"), ("w", "ARG0", "b"), ("b", "instance", "boy")],
                             "(w / want-01 :ARG0 (b / boy))", "(w / want-01 :ARG1 (b / boy))"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_triples_score_as_the_same_graph_written_as_penman(name: str, tmp_path: Path) -> None:
    triples, penman_text, system = CASES[name]
    expected = _counts(penman_text, system)
    assert _counts([triples], system) == expected  # a list of graphs, each a list of triples
    assert _counts(triples, system) == expected  # one graph
    assert _counts(system, [triples]) == expected[1::-1] + expected[2:]  # as the system's graphs too
    gold = tmp_path / "gold.triples"
    gold.write_text("\n".join("\t".join(t) for t in triples) + "\n", encoding="utf-8")
    assert _counts(gold, system) == expected
    scorer = mrp.Scorer("smatch")
    scorer.update([triples], [system])
    assert (scorer.compute().to_dict()["c"], scorer.compute().to_dict()["g"]) == (expected[2], expected[0])


def test_hand_counted_figures() -> None:
    # (p / person ...): instances 2, top 1, relation name 1, attributes op1, polarity, quant = 7
    assert _counts(*CASES["constants"][::2]) == (7, 6, 5)
    # the no-instance graph: a's and b's... smatch's triples of (a :ARG0 b): top, a relation to constant b
    assert _counts(CASES["no instance"][0], CASES["no instance"][1]) == _counts("(a :ARG0 b)", "(a :ARG0 b)")


def test_a_file_of_triples(tmp_path: Path) -> None:
    text = ("# a file of triples\n\n# ::id one ::snt The boy wants.\nw\t:instance\twant-01\nw\t:ARG0\tb\n"
            "b\t:instance\tboy\n\n# ::id two\nd\t:instance\tdog\n")
    path = tmp_path / "graphs.txt"  # no extension that names it: told from its content
    path.write_text(text, encoding="utf-8")
    graphs = mrp.read(path)
    assert [(g.id, g.framework, g.input) for g in graphs] == [("one", "amr", "The boy wants."),
                                                             ("two", "amr", None)]
    assert [g.line for g in graphs] == [3, 8]
    written = tmp_path / "again.triples"
    mrp.write(graphs, written)
    assert [g.id for g in mrp.read(written)] == ["one", "two"]
    assert _counts(written, path) == _counts(path, path)
    # graphs without ids are numbered by position (from 0) as Penman's, and pair by position
    unnamed = tmp_path / "unnamed.triples"
    unnamed.write_text("a\t:instance\tb\n\nc\t:instance\td\n", encoding="utf-8")
    assert [g.id for g in mrp.read(unnamed)] == ["0", "1"]


@pytest.mark.parametrize("block, message, line", [
    ("a\t:instance\tb\na\t:ARG0\n", "a line of 2 tab-separated field(s)", 2),
    ("a\t:instance\tb\na\t:AR G0\tc\n", "invalid role", 2),
    ("a\t:instance\tb\nc\t:instance\td\n", "do not make one connected graph", 1),
])
def test_bad_triples_are_errors_naming_their_line(tmp_path: Path, block: str, message: str,
                                                  line: int) -> None:
    path = tmp_path / "bad.triples"
    path.write_text("x\t:instance\ty\n\n" + block, encoding="utf-8")
    with pytest.raises(FormatError) as caught:
        mrp.read(path)
    assert message in str(caught.value) and caught.value.line == line + 2 and caught.value.graph_id == "1"
    with pytest.raises(InputError, match="graph 0"):
        mrp.score([[("a", ":AR G0", "b")]], "(a / b)")


def _to_triples(source: Path, target: Path) -> None:
    import penman

    blocks = []
    for graph in penman.load(str(source)):
        lines = [f"# ::id {graph.metadata['id']}"] if "id" in graph.metadata else []
        blocks.append("\n".join(lines + ["\t".join(triple) for triple in graph.triples]))
    target.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")


def test_the_coli_pairs_as_triples_score_as_their_penman(tmp_path: Path) -> None:
    """The shared AMR pairs, each graph as penman's triples, through mrp-score --format triples: every pair
    scores as its Penman does, but 1322, whose system graph writes ``:mod-of`` to a node above it: penman's
    triples hold the normal ``:mod`` (``Graph.triples`` keep no layout), and the original SMATCH tool's
    triples depend on how a file writes a role (there ``mod-of``, never ``domain``); the triples score as
    the Penman text of the triples."""
    gold, system = shared_file("data", "pairs", "amr", "coli.gold.amr"), \
        shared_file("data", "pairs", "amr", "coli.system.amr")
    _to_triples(gold, tmp_path / "gold.triples")
    _to_triples(system, tmp_path / "system.triples")
    runs = {}
    for name, files in (("penman", [str(gold), str(system)]),
                        ("triples", [str(tmp_path / "gold.triples"), str(tmp_path / "system.triples")])):
        run = run_cli("score", ["--score", "smatch", "--trace", "--quiet", "--jobs", "1",
                                *(["--format", "triples"] if name == "triples" else []), "--gold", *files])
        assert run.code == 0, run.err
        runs[name] = json.loads(run.out)["scores"]["amr"]
    assert runs["penman"].keys() == runs["triples"].keys() and len(runs["penman"]) == 1368
    differ = {k for k in runs["penman"] if runs["penman"][k] != runs["triples"][k]}
    assert differ == {"1322"}
    assert (runs["penman"]["1322"]["c"], runs["triples"]["1322"]["c"]) == (29, 30)


def test_amr_to_triples_and_back_through_mrp_convert(tmp_path: Path) -> None:
    from mrp.codecs.mrp import encode

    source = tmp_path / "g.amr"
    source.write_text("# ::id a\n" + CASES["reentrancy"][1] + "\n\n# ::id b\n" + CASES["constants"][1] + "\n",
                      encoding="utf-8")
    for args in (["--to", "triples", str(source), str(tmp_path / "g.triples")],
                 [str(tmp_path / "g.triples"), str(tmp_path / "back.amr")]):
        run = run_cli("convert", args)
        assert run.code == 0, run.err
    written = (tmp_path / "g.triples").read_text(encoding="utf-8")
    assert written.startswith("# ::id a\nw\t:instance\twant-01\n")
    # the same graphs (as MRP has them; the layout is penman's, indented)
    assert [encode(g) for g in mrp.read(tmp_path / "back.amr")] == [encode(g) for g in mrp.read(source)]
    validated = run_cli("validate", [str(tmp_path / "g.triples")])
    assert validated.code == 0 and "2 graphs, no problems" in validated.out + validated.err


def test_a_list_graph_that_cannot_be_read_keeps_its_place() -> None:
    """Lists of triples are read as a file of them: a graph whose triples make no connected graph is an
    invalid system graph, scored as empty in its place; a triple that is no triple is refused."""
    broken = [("a", ":instance", "b"), ("c", ":instance", "d")]
    fine = CASES["reentrancy"][0]
    result = mrp.score([CASES["constants"][1], CASES["reentrancy"][1]], [broken, fine], metric="smatch")
    assert result.to_dict()["invalid"] == 1
    assert [(pair.id, pair.figures.s, pair.figures.f) for pair in result.pairs] == [("0", 0, 0.0),
                                                                                   ("1", 7, 1.0)]
    for bad in ([("#a", ":instance", "b")], [("a", ":instance", "b\tc")], [("a", ":instance")], []):
        with pytest.raises(InputError, match="graph 1 .its triples."):
            mrp.score(["(a / b)", "(a / b)"], [fine, bad], metric="smatch")
