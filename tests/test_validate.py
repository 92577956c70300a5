"""mrp-validate: one hand-made line per check with its exact output, exit codes, and the shared data."""

from __future__ import annotations

import glob
import gzip
import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union

import pytest
import ujson
from hypothesis import given
from hypothesis import strategies as st

from mrp.cli.common import FATAL, OK, PROBLEMS
from mrp.cli.validate import main_body
from mrp.codecs import ReadOptions
from mrp.corpora.load import read_corpus
from mrp.errors import InputError
from mrp.graph import FLAVORS, Edge, Graph, Node
from mrp.validation import Problem, Report, validate_file, validate_for_score, validate_graph

from conftest import budget, run_cli, shared_path

#: A clean EDS graph: the base that each case breaks in one place.
GOOD: Dict[str, Any] = {
    "id": "g1", "framework": "eds", "version": 1.1, "time": "2020-06-01", "input": "a b", "tops": [0],
    "nodes": [{"id": 0, "label": "a", "anchors": [{"from": 0, "to": 1}]},
              {"id": 1, "label": "b", "anchors": [{"from": 2, "to": 3}]}],
    "edges": [{"source": 0, "target": 1, "label": "ARG1"}],
}


def graph(**changes: Any) -> str:
    """The MRP line of GOOD with some top-level fields replaced (None removes a field).

    The flavor is the framework's unless given.
    """
    obj = dict(GOOD, **changes)
    framework = obj.get("framework")
    obj.setdefault("flavor", FLAVORS.get(framework) if isinstance(framework, str) else None)
    return json.dumps({key: value for key, value in obj.items() if value is not None}, ensure_ascii=False)


def node(nid: Any, *spans: Sequence[int], **fields: Any) -> Dict[str, Any]:
    """A node object with anchors from (from, to) pairs (no anchors key without spans), labelled "n"."""
    obj: Dict[str, Any] = {"id": nid, "label": "n", **fields}
    if spans:
        obj["anchors"] = [{"from": a, "to": b} for a, b in spans]
    return obj


def edge(source: int, target: int, **fields: Any) -> Dict[str, Any]:
    """An edge object."""
    return {"source": source, "target": target, **fields}


def eds(*nodes: Dict[str, Any], edges: Optional[List[Dict[str, Any]]] = None, **changes: Any) -> str:
    """An EDS line with these nodes (and no edges unless given)."""
    changes.setdefault("tops", [nodes[0]["id"]] if nodes else [])
    return graph(nodes=list(nodes), edges=edges or [], **changes)


def write(path: Path, lines: Sequence[Union[str, bytes]]) -> Path:
    """A file of lines (str as UTF-8)."""
    path.write_bytes(b"".join((line.encode("utf-8") if isinstance(line, str) else line) + b"\n"
                              for line in lines))
    return path


def validate(tmp_path: Path, capsys: pytest.CaptureFixture, lines: Sequence[Union[str, bytes]],
             args: Sequence[str] = (), name: str = "t.mrp") -> tuple:
    """Run mrp-validate on a file of these lines: (exit code, stdout lines with FILE for the path, stderr)."""
    path = write(tmp_path / name, lines)
    code = main_body([str(path), *args])
    out, err = capsys.readouterr()
    lines_out = [line.replace(str(path), "FILE") for line in out.splitlines()]
    return code, lines_out, err.replace(str(path), "FILE")


def _json_error(text: str) -> str:
    """ujson's own message for a line that is not JSON."""
    try:
        ujson.loads(text)
    except ValueError as error:
        return str(error)
    raise AssertionError(text)


U = "UCCA leaves are anchored unless implicit"
ONLY_REMOTE = "has only remote incoming edges (no primary parent)"

#: case -> (lines, extra arguments, exact problem lines); each has exit status 1.
CASES: Dict[str, tuple] = {
    # --- lines that hold no graph
    "invalid-json": (['{"id": "x", "nodes": ['], [],
                     ["FILE:1: invalid JSON: " + _json_error('{"id": "x", "nodes": [')]),
    "not-an-object": (["[1, 2]"], [], ["FILE:1: not a JSON object"]),
    "not-utf8": ([graph(), b'{"id": "x", "input": "caf\xe9"}'], [],
                 ["FILE:2: not valid UTF-8 (byte 26 of the line)"]),
    # --- shape: the reader rejects these graphs, and its message comes last
    "no-graph-id": ([graph(id=None)], [],
                    ["FILE:1: graph has no 'id'"]),
    "graph-id-type": ([graph(id=[1])], [],
                      ["FILE:1: graph id [1] is neither a string nor a number"]),
    "node-id-type": ([eds(node("0", (0, 1)), tops=[0])], [],
                     ["FILE:1: graph g1: nodes[0]: 'id' is \"0\", not an integer"]),
    "node-without-id": ([eds(node(0, (0, 1)), {"label": "x"})], [],
                        ["FILE:1: graph g1: nodes[1]: has no 'id'"]),
    "anchor-without-from": ([eds({"id": 0, "label": "n", "anchors": [{"to": 1}]})], [],
                            ["FILE:1: graph g1: node 0: anchor {\"to\":1} has no 'from' and 'to'",
                             "FILE:1: graph g1: node 0: has no anchors (EDS nodes are anchored)"]),
    "anchor-from-type": ([eds({"id": 0, "label": "n", "anchors": [{"from": "0", "to": 1}]})], [],
                         ["FILE:1: graph g1: node 0: anchor 'from' is \"0\", not an integer",
                          "FILE:1: graph g1: node 0: has no anchors (EDS nodes are anchored)"]),
    "edge-without-target": ([graph(edges=[{"source": 0, "label": "ARG1"}])], [],
                            ["FILE:1: graph g1: edge 0: has no 'target'"]),
    "nodes-not-a-list": ([graph(nodes={"id": 0}, edges=[], tops=[])], [],
                         ["FILE:1: graph g1: 'nodes' is {\"id\":0}, not a list"]),
    # --- references
    "duplicate-node-id": ([eds(node(0, (0, 1)), node(0, (2, 3)))], [],
                          ["FILE:1: graph g1: node 0: duplicate node id (nodes[0] and nodes[1])"]),
    "dangling-top": ([graph(tops=[9])], [],
                     ["FILE:1: graph g1: top 9: names no node"]),
    "top-twice": ([graph(tops=[0, 0])], [], ["FILE:1: graph g1: top 0: listed twice"]),
    "dangling-edge": ([graph(edges=[{"source": 7, "target": 5}])], [],
                      ["FILE:1: graph g1: edge 0: source 7 names no node",
                       "FILE:1: graph g1: edge 0: target 5 names no node"]),
    # --- lengths
    "properties-values": ([eds(node(0, (0, 1), properties=["pos", "x"], values=["NN"]))], [],
                          ["FILE:1: graph g1: node 0: has 2 property names but 1 value"]),
    "attributes-values": ([graph(edges=[{"source": 0, "target": 1, "attributes": ["a"], "values": []}])], [],
                          ["FILE:1: graph g1: edge 0: has 1 attribute name but 0 values"]),
    # --- anchors (offsets are code points)
    "from-after-to": ([eds(node(0, (1, 0)))], [], ["FILE:1: graph g1: node 0: anchor 1:0 has from > to"]),
    "empty-anchor": ([eds(node(0, (1, 1)))], [], ["FILE:1: graph g1: node 0: anchor 1:1 is empty"]),
    "past-the-input": ([eds(node(0, (2, 4)))], [],
                       ["FILE:1: graph g1: node 0: anchor 2:4 is outside the input (3 characters)"]),
    "before-the-input": ([eds(node(0, (-1, 1)))], [],
                         ["FILE:1: graph g1: node 0: anchor -1:1 is outside the input (3 characters)"]),
    "whitespace-anchor": ([eds(node(0, (1, 2)))], [],
                          ["FILE:1: graph g1: node 0: anchor 1:2 covers only whitespace"]),
    "astral-code-points": ([eds(node(0, (0, 1)), node(1, (2, 3)), node(2, (3, 4)), input="\U0001f600 b")], [],
                           ["FILE:1: graph g1: node 2: anchor 3:4 is outside the input (3 characters)"]),
    "no-input": ([eds(node(0, (0, 1)), node(1, (9, 12)), input=None)], [],
                 ["FILE:1: graph g1: has no 'input' (EDS graphs are anchored to their input)"]),
    "no-input-unknown": ([eds(node(0, (0, 1)), input=None, framework="xyz", flavor=1)], [],
                         ["FILE:1: graph g1: framework 'xyz' is not a known framework "
                          "(amr, ccd, dm, drg, eds, eud, pas, psd, ptg, ucca, ud, umr)",
                          "FILE:1: graph g1: has anchors but no 'input'; anchors not checked against "
                          "the input"]),
    "edge-anchor": ([graph(edges=[{"source": 0, "target": 1, "anchors": [{"from": 1, "to": 2}]}])], [],
                    ["FILE:1: graph g1: edge 0: anchor 1:2 covers only whitespace"]),
    # --- graph identity
    "duplicate-graph-id": ([graph(), graph(id="g2"), graph()], [],
                           ["FILE:3: graph g1: duplicate graph id (first at line 1)"]),
    "flavor": ([graph(flavor=2)], [], ["FILE:1: graph g1: flavor 2 does not fit framework 'eds' (flavor 1)"]),
    "other-framework": ([graph(framework="ucca")], ["--framework", "eds"],
                        ["FILE:1: graph g1: framework is 'ucca', not 'eds'"]),
    "input-not-text": ([graph()], ["--text", "TEXT"],
                       ["FILE:1: graph g1: 'input' differs from the text given for this id"]),
    # --- AMR
    "amr-anchors": ([graph(framework="amr", edges=[])], [],
                    ["FILE:1: graph g1: node 0: has anchors (AMR graphs are unanchored)",
                     "FILE:1: graph g1: node 1: has anchors (AMR graphs are unanchored)"]),
    "amr-two-tops": ([graph(framework="amr", tops=[0, 1], nodes=[node(0), node(1)])], [],
                     ["FILE:1: graph g1: has 2 tops (an AMR graph has exactly one)"]),
    "amr-no-top": ([graph(framework="amr", tops=[], nodes=[node(0), node(1)])], [],
                   ["FILE:1: graph g1: has no top (an AMR graph has exactly one)"]),
    # --- DM and PSD
    "dm-no-anchor": ([graph(framework="dm", nodes=[node(0, (0, 1)), node(1)])], [],
                     ["FILE:1: graph g1: node 1: has no anchor (DM nodes are anchored to single tokens)"]),
    "dm-two-anchors": ([graph(framework="dm", nodes=[node(0, (0, 1), (2, 3)), node(1, (2, 3))])], [],
                       ["FILE:1: graph g1: node 0: has 2 anchors (DM nodes are anchored to single tokens)"]),
    "psd-two-tokens": ([graph(framework="psd", input="a b ", nodes=[node(0, (0, 4)), node(1, (2, 3))])], [],
                       ["FILE:1: graph g1: node 0: anchor 0:4 spans several tokens "
                        "(PSD nodes are anchored to single tokens)"]),
    # --- EDS
    "eds-unanchored": ([graph(nodes=[node(0, (0, 1)), node(1, label="b")])], [],
                       ["FILE:1: graph g1: node 1: has no anchors (EDS nodes are anchored)"]),
    # --- UCCA: 0 is the root, 1 a unit, 2 and 3 the words "a" and "b"
    "ucca-remote-value": ([graph(framework="ucca", nodes=[node(0), node(1, (0, 1))],
                                 edges=[edge(0, 1, label="A", attributes=["remote"], values=["yes"])])],
                          [], ["FILE:1: graph g1: edge 0: attribute 'remote' is \"yes\", not true or false"]),
    "ucca-second-parent": ([graph(framework="ucca", nodes=[node(0), node(1), node(2, (0, 1)),
                                                           node(3, (2, 3))],
                                  edges=[{"source": 0, "target": 1, "label": "H"},
                                         {"source": 0, "target": 2, "label": "A"},
                                         {"source": 1, "target": 3, "label": "P"},
                                         {"source": 1, "target": 2, "label": "A"}])],
                           [], ["FILE:1: graph g1: edge 3: node 2 already has the primary parent 0 (edge 1); "
                                "an edge from another parent must be remote"]),
    "ucca-only-remote": ([graph(framework="ucca", nodes=[node(0), node(1, (0, 1))],
                                edges=[edge(0, 1, label="A", properties=["remote"], values=[True])])],
                         [], [f"FILE:1: graph g1: node 1: {ONLY_REMOTE}"]),
    "ucca-loop": ([graph(framework="ucca", nodes=[node(0), node(1, (0, 1))],
                         edges=[edge(0, 1, label="H"), edge(0, 0, label="H")])],
                  [], ["FILE:1: graph g1: edge 1: is a loop on node 0 (UCCA graphs are acyclic)"]),
    "ucca-no-top": ([graph(framework="ucca", tops=[], nodes=[node(0), node(1, (0, 1))],
                           edges=[edge(0, 1, label="H")])],
                    [], ["FILE:1: graph g1: has no top (a UCCA graph has exactly one)"]),
    "ucca-unanchored-leaf": ([graph(framework="ucca",
                                    nodes=[node(0), node(1), node(2, properties=["implicit"], values=[True])],
                                    edges=[edge(0, 1, label="H"), edge(0, 2, label="A")])],
                             [], [f"FILE:1: graph g1: node 1: is a leaf without anchors ({U})"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_check_gives_its_exact_line(case: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    lines, args, expected = CASES[case]
    if "TEXT" in args:
        text = write(tmp_path / "text.txt", ["g1\ta  b"])
        args = [str(text) if arg == "TEXT" else arg for arg in args]
    code, out, err = validate(tmp_path, capsys, lines, args)
    assert out == expected
    assert code == PROBLEMS
    assert err.startswith("FILE: ") and f"{len(expected)} problem" in err


def test_all_problems_of_one_line_in_order(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    line = eds(node(0, (3, 1), (1, 2), properties=["p", "q"], values=["1"]), node("1"), node(2, (1, 1)),
               edges=[{"source": 0, "target": 5}, {"source": 0}], tops=[0, 9])
    code, out, err = validate(tmp_path, capsys, [line])
    assert code == PROBLEMS
    assert out == [
        "FILE:1: graph g1: nodes[1]: 'id' is \"1\", not an integer",
        "FILE:1: graph g1: edge 1: has no 'target'",
        "FILE:1: graph g1: top 9: names no node",
        "FILE:1: graph g1: edge 0: target 5 names no node",
        "FILE:1: graph g1: node 0: has 2 property names but 1 value",
        "FILE:1: graph g1: node 0: anchor 3:1 has from > to",
        "FILE:1: graph g1: node 0: anchor 1:2 covers only whitespace",
        "FILE:1: graph g1: node 2: anchor 1:1 is empty",
        "FILE:1: graph g1: node 0: has 2 anchors (an EDS node has exactly one)",
    ]
    assert err == "FILE: 1 graph, 9 problems in 1 graph (1 cannot be read)\n"


def test_clean_file_exit_0_and_no_problem_lines(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    ucca = graph(id="u", framework="ucca", nodes=[node(0), node(1), node(2, (0, 1)), node(3, (2, 3))],
                 edges=[{"source": 0, "target": 1, "label": "H"},
                        {"source": 1, "target": 2, "label": "A"}, {"source": 1, "target": 2, "label": "P"},
                        {"source": 1, "target": 3, "label": "D"},
                        edge(0, 3, label="A", attributes=["remote"], values=["true"]),
                        edge(1, 2, label="E", attributes=["remote"], values=[False])])
    amr = graph(id="a", framework="amr", nodes=[{"id": 0, "label": "x", "anchors": []}], edges=[])
    lines = ["", graph(), graph(framework="dm", id="g1"), ucca, amr, "  "]
    code, out, err = validate(tmp_path, capsys, lines)
    assert (code, out, err) == (OK, [], "FILE: 4 graphs, no problems\n")


def test_lone_surrogate_is_reported_and_printable(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    line = graph(id="g\\ud800", nodes=[node(0, (0, 1), label="\\udc00"), node(1, (2, 3))])
    line = line.replace("\\\\", "\\")  # json.dumps doubled the backslashes: restore the escapes
    code, out, _ = validate(tmp_path, capsys, [line])
    assert code == PROBLEMS
    assert out == [
        "FILE:1: graph g\\ud800: a string holds the lone surrogate \\ud800, which is not a character",
    ]


def test_summary_counts_and_quiet(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    lines = [graph(), "nope", graph(tops=[9]), graph(id="g2", flavor=0)]
    code, out, err = validate(tmp_path, capsys, lines, ["--quiet"])
    assert (code, out) == (PROBLEMS, [])
    assert err == "FILE: 3 graphs, 4 problems in 2 graphs (1 cannot be read), 1 unreadable line\n"


@pytest.mark.parametrize("what", ["missing", "directory", "gzip", "empty", "blank", "utf16", "utf16-bom"])
def test_unreadable_file_exit_2(what: str, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "x.mrp"
    expected = {"missing": "no such file", "directory": "is a directory, not a file",
                "gzip": "is gzip-compressed; decompress it first",
                "empty": "holds no graphs (empty, or only blank lines)",
                "blank": "holds no graphs (empty, or only blank lines)",
                "utf16": "no line is UTF-8 text", "utf16-bom": "is UTF-16"}[what]
    if what == "directory":
        path.mkdir()
    elif what == "gzip":
        path.write_bytes(gzip.compress(graph().encode()))
    elif what in ("empty", "blank"):
        path.write_text("" if what == "empty" else "\n  \n")
    elif what.startswith("utf16"):
        text = graph() + "\n" + graph(id="g2") + "\n"
        path.write_bytes(text.encode("utf-16" if "bom" in what else "utf-16-le"))
    code = main_body([str(path)])
    out, err = capsys.readouterr()
    assert (code, out) == (FATAL, "")
    assert err.startswith(f"mrp-validate: {path}: {expected}") and err.count("\n") == 1
    report = validate_file(str(path))
    assert report.unreadable and report.problems == [] and report.summary().startswith(f"{path}: {expected}")


def test_several_files_worst_status_wins(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    clean = write(tmp_path / "clean.mrp", [graph()])
    bad = write(tmp_path / "bad.mrp", [graph(tops=[0, 0])])
    assert main_body([str(clean), str(clean)]) == OK
    assert main_body([str(clean), str(bad)]) == PROBLEMS
    assert main_body([str(bad), str(tmp_path / "missing.mrp"), str(clean)]) == FATAL
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{bad}:1: graph g1: top 0: listed twice"] * 2
    assert f"{clean}: 1 graph, no problems" in err and "missing.mrp: no such file" in err


def test_text_supplies_the_input_of_graphs_without_one(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    text = write(tmp_path / "text.txt", ["g1\ta b"])
    lines = [eds(node(0, (0, 1)), node(1, (2, 5)), input=None)]
    code, out, _ = validate(tmp_path, capsys, lines, ["--text", str(text)])
    assert code == PROBLEMS
    assert out == ["FILE:1: graph g1: node 1: anchor 2:5 is outside the input (3 characters)"]


def test_penman_reader_errors_and_duplicates(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    lines = ["# ::id a1", "# ::snt The cat.", "(c / cat)", "",
             "# ::id a2", "# ::snt Bad.", "(b / bad :ARG0 (x / y)", "",
             "# ::id a1", "# ::snt Again.", "(d / dog)"]
    code, out, err = validate(tmp_path, capsys, lines, name="t.amr")
    assert code == PROBLEMS
    assert len(out) == 2
    assert out[0].startswith("FILE:7: graph a2: Penman syntax error")
    assert out[1] == "FILE:9: graph a1: duplicate graph id (first at line 1)"
    assert err == "FILE: 3 graphs, 2 problems in 2 graphs (1 cannot be read)\n"


def test_stdin_and_subprocess(tmp_path: Path) -> None:
    result = run_cli("validate", ["-"], stdin=(graph(tops=[9]) + "\n").encode())
    assert result.code == PROBLEMS and "Traceback" not in result.err
    assert result.out.splitlines() == [
        "<stdin>:1: graph g1: top 9: names no node",
    ]
    assert result.err == "<stdin>: 1 graph, 1 problem in 1 graph (1 cannot be read)\n"


def test_bad_arguments_exit_2() -> None:
    for args in (["--format", "nope", "x.mrp"], ["--format", "dot", "x.mrp"],
                 ["--text", "missing.txt", "x.mrp"], []):
        result = run_cli("validate", args)
        assert result.code == FATAL and result.out == "" and "Traceback" not in result.err, args
    with pytest.raises(InputError):
        main_body(["--format", "nope", "x.mrp"])


def test_help_names_checks_output_and_exit_status() -> None:
    result = run_cli("validate", ["--help"])
    assert result.code == 0
    for words in ("examples:", "exit status: 0 no problems; 1 problems; 2", "--framework", "--quiet", "UCCA"):
        assert words in result.out


def test_problem_str_leaves_out_unknown_parts() -> None:
    assert str(Problem("f.mrp", 3, "g", "node 2", "m")) == "f.mrp:3: graph g: node 2: m"
    assert str(Problem("f.mrp", None, "g", "", "m")) == "f.mrp: graph g: m"
    assert str(Problem("f.mrp", 4, None, "", "m")) == "f.mrp:4: m"
    assert str(Problem(None, None, "g", "edge 0", "m")) == "graph g: edge 0: m"
    assert str(Problem(None, 5, None, "", "m")) == "line 5: m"


def test_validate_graph_on_the_model() -> None:
    g = Graph(id="x", framework="dm", input="a b", tops=[0],
              nodes=[Node(0, anchors=[(0, 3)]), Node(1, properties=["p"], values=[]),
                     Node(0, anchors=[(2, 3)])],
              edges=[Edge(0, 4)])
    g.line = 7
    assert [str(p) for p in validate_graph(g, file="f")] == [
        "f:7: graph x: node 0: duplicate node id (nodes[0] and nodes[2])",
        "f:7: graph x: edge 0: target 4 names no node",
        "f:7: graph x: node 1: has 1 property name but 0 values",
        "f:7: graph x: node 0: anchor 0:3 spans several tokens (DM nodes are anchored to single tokens)",
        "f:7: graph x: node 1: has no anchor (DM nodes are anchored to single tokens)",
    ]
    assert [p.message for p in validate_graph(Graph(id="y", tops=[0], nodes=[Node(0)]), "amr")] == []
    unanchored = Graph(id="y", input="a", nodes=[Node(0, label="a")])
    assert [p.message for p in validate_graph(unanchored, "eds")] == [
        "has no anchors (EDS nodes are anchored)"]


def test_report_api_and_score_selection(tmp_path: Path) -> None:
    path = write(tmp_path / "mixed.mrp", [graph(), "[]", graph(framework="amr", tops=[])])
    report = validate_file(str(path))
    assert isinstance(report, Report) and not report.unreadable and not report.clean
    assert (report.graphs, report.flawed, report.rejected, report.unreadable_lines) == (2, 1, 0, 1)
    assert [p.line for p in report.problems] == [2, 3, 3, 3]
    only_eds = validate_for_score(str(path), "mrp", ReadOptions(framework="eds"), ["eds"])
    assert (only_eds.graphs, [p.message for p in only_eds.problems]) == (1, ["not a JSON object"])
    clean = validate_file(str(write(tmp_path / "clean.mrp", [graph()])))
    assert clean.clean and clean.summary() == f"{tmp_path / 'clean.mrp'}: 1 graph, no problems"


# ---------------------------------------------------------------------------
# the shared data: every graph of every MRP file

#: The problems the shared files really have: test.tupa.mrp line 2 (graph 20003013) is a broken parser
#: output: 25 nodes none of them anchored, node id 23 twice, a loop 23 -> 23, no top, and 23 nodes with no
#: edge at all (0-21 and 24) — unanchored leaves; and no 'flavor'. The reader rejects it (duplicate node id).
TUPA = (["graph has no 'flavor'", "node 23: duplicate node id (nodes[0] and nodes[23])",
         "edge 1: is a loop on node 23 (UCCA graphs are acyclic)"]
        + [f"node {n}: is a leaf without anchors ({U})" for n in [*range(22), 24]]
        + ["has no top (a UCCA graph has exactly one)"])


def _shared_mrp_files() -> List[str]:
    root = shared_path() / "data"
    return sorted(glob.glob(str(root / "wsj" / "*" / "wsj.mrp"))
                  + glob.glob(str(root / "pairs" / "**" / "*.mrp"), recursive=True))


def test_shared_mrp_files_validate_as_expected() -> None:
    files = _shared_mrp_files()
    assert len(files) == 18
    for path in files:
        report = validate_file(path)
        lines = sum(1 for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip())
        assert not report.unreadable and report.graphs == lines, path
        if path.endswith("ucca/test.tupa.mrp"):
            assert [(p.line, p.graph_id) for p in report.problems] == [(2, "20003013")] * len(TUPA)
            assert [f"{p.where}: {p.message}" if p.where else p.message for p in report.problems] == TUPA
            assert (report.flawed, report.rejected) == (1, 1)
        else:
            assert report.problems == [], (path, [str(p) for p in report.problems[:5]])


def test_shared_native_formats_validate_clean() -> None:
    root = shared_path() / "data" / "wsj"
    text = str(root / "wsj.txt")
    for args in ([str(root / "amr" / "wsj.amr")], ["--text", text, str(root / "eds" / "wsj.eds")],
                 ["--format", "dm", "--text", text, str(root / "dm" / "wsj.sdp")],
                 ["--format", "psd", "--text", text, str(root / "psd" / "wsj.sdp")],
                 ["--text", text, *(str(root / fw / "wsj.mrp") for fw in ("dm", "eds", "psd", "ucca"))]):
        result = run_cli("validate", args)
        assert (result.code, result.out) == (OK, ""), (args, result.out[:500], result.err)
        assert "no problems" in result.err


# ---------------------------------------------------------------------------
# issue 16: the fields the MRP format requires, the reference validator's rules, limits; issue 15: MRP 2020


def ptg(**changes: Any) -> str:
    """A clean PTG graph (flavor 1): an unanchored generated node beside anchored ones."""
    fields: Dict[str, Any] = {"framework": "ptg", "edges": [edge(0, 1, label="ACT"), edge(0, 2, label="PAT")],
                              "nodes": [node(0, (0, 1)), node(1, (2, 3)), node(2, label="#PersPron")]}
    return graph(**dict(fields, **changes))


def drg(**changes: Any) -> str:
    """A clean DRG graph (flavor 2, unanchored)."""
    fields: Dict[str, Any] = {"framework": "drg", "input": None, "edges": [edge(0, 1, label="REF")],
                              "nodes": [node(0, label="b1"), node(1, label="x1")]}
    return graph(**dict(fields, **changes))


#: case -> (lines, extra arguments, exact problem lines); each has exit status 1.
FIELD_CASES: Dict[str, tuple] = {
    # --- required fields, named when missing (the reader rejects a graph without a framework)
    "no-framework": ([graph(framework=None, flavor=1)], [], ["FILE:1: graph g1: graph has no 'framework'"]),
    "no-flavor": ([graph(flavor=None)], [], ["FILE:1: graph g1: graph has no 'flavor'"]),
    "no-version": ([graph(version=None)], [], ["FILE:1: graph g1: graph has no 'version'"]),
    "no-time": ([graph(time=None)], [], ["FILE:1: graph g1: graph has no 'time'"]),
    "no-framework-nor-flavor": ([graph(framework=None, flavor=None)], [],
                                ["FILE:1: graph g1: graph has no 'framework'",
                                 "FILE:1: graph g1: graph has no 'flavor'"]),
    # --- their types
    "graph-id-number": ([graph(id=7)], [], ["FILE:1: graph 7: graph id 7 is a number, not a string"]),
    "framework-unknown": ([graph(framework="xyz", flavor=1)], [],
                          ["FILE:1: graph g1: framework 'xyz' is not a known framework "
                           "(amr, ccd, dm, drg, eds, eud, pas, psd, ptg, ucca, ud, umr)"]),
    "framework-type": ([graph(framework=["eds"], flavor=1)], [],
                       ["FILE:1: graph g1: 'framework' is [\"eds\"], not a string"]),
    "flavor-type": ([graph(flavor="1")], [], ["FILE:1: graph g1: 'flavor' is \"1\", not an integer"]),
    "flavor-range": ([graph(flavor=3)], [], ["FILE:1: graph g1: flavor 3 is not 0, 1 or 2"]),
    "version-type": ([graph(version=[1])], [], ["FILE:1: graph g1: 'version' is [1], not a number"]),
    "time-format": ([graph(time="June 2020")], [],
                    ["FILE:1: graph g1: 'time' is \"June 2020\", not a date "
                     "(YYYY-MM-DD, or YYYY-MM-DD (HH:MM))"]),
    "tops-not-a-list": ([graph(tops=0)], [], ["FILE:1: graph g1: 'tops' is 0, not a list"]),
    "edges-not-a-list": ([graph(edges={})], [], ["FILE:1: graph g1: 'edges' is {}, not a list"]),
    # --- EDS: a label and exactly one anchor per node
    "eds-no-label": ([eds({"id": 0, "anchors": [{"from": 0, "to": 1}]})], [],
                     ["FILE:1: graph g1: node 0: has no label (EDS nodes are labelled)"]),
    "eds-two-anchors": ([eds(node(0, (0, 1), (2, 3)))], [],
                        ["FILE:1: graph g1: node 0: has 2 anchors (an EDS node has exactly one)"]),
    # --- anchored frameworks (flavor 0 and 1) need their input
    "dm-no-input": ([graph(framework="dm", input=None)], [],
                    ["FILE:1: graph g1: has no 'input' (DM graphs are anchored to their input)"]),
    "ud-empty-input": ([graph(framework="ud", input="", nodes=[node(0), node(1)])], [],
                       ["FILE:1: graph g1: has an empty 'input' (UD graphs are anchored to their input)"]),
    # --- UCCA: edge labels are the UCCA categories; a remote flag without a value is one problem
    "ucca-label": ([graph(framework="ucca", nodes=[node(0), node(1, (0, 1))],
                          edges=[edge(0, 1, label="ARG1")])], [],
                   ["FILE:1: graph g1: edge 0: label \"ARG1\" is not a UCCA category "
                    "(H, A, P, S, D, G, C, E, F, N, R, T, Q, L, U)"]),
    "ucca-no-label": ([graph(framework="ucca", nodes=[node(0), node(1, (0, 1))], edges=[edge(0, 1)])], [],
                      ["FILE:1: graph g1: edge 0: has no label (UCCA edges are labelled with categories)"]),
    "ucca-remote-without-value": ([graph(framework="ucca", nodes=[node(0), node(1, (0, 1))],
                                         edges=[edge(0, 1, label="A", attributes=["remote"], values=[])])],
                                  [], ["FILE:1: graph g1: edge 0: has 1 attribute name but 0 values"]),
    # --- MRP 2020: PTG (flavor 1, anchored) and DRG (flavor 2, unanchored)
    "ptg-flavor": ([ptg(flavor=2)], [],
                   ["FILE:1: graph g1: flavor 2 does not fit framework 'ptg' (flavor 1)"]),
    "ptg-no-input": ([ptg(input=None)], [],
                     ["FILE:1: graph g1: has no 'input' (PTG graphs are anchored to their input)"]),
    "drg-flavor": ([drg(flavor=1)], [],
                   ["FILE:1: graph g1: flavor 1 does not fit framework 'drg' (flavor 2)"]),
    "drg-anchors": ([drg(input="a b", nodes=[node(0, (0, 1), label="b1"), node(1, label="x1")])], [],
                    ["FILE:1: graph g1: node 0: has anchors (DRG graphs are unanchored)"]),
    "pas-token": ([graph(framework="pas", nodes=[node(0, (0, 3)), node(1, (2, 3))])], [],
                  ["FILE:1: graph g1: node 0: anchor 0:3 spans several tokens "
                   "(PAS nodes are anchored to single tokens)"]),
    # --- limits (the reader rejects these graphs: mrp-score scores them as empty)
    "value-nested-deep": ([graph().replace('"label": "a"', '"label": "a", "properties": ["p"], "values": ['
                                           + "[" * 101 + "]" * 101 + "]")], [],
                          ["FILE:1: graph g1: node 0: a property value is nested more than 100 levels deep"]),
    "anchors-too-wide": ([graph(input="a b" + " " * 999_998,
                                nodes=[node(0, (0, 1_000_001)), node(1, (2, 3))])], [],
                         ["FILE:1: graph g1: anchors cover 1,000,002 characters of the input "
                          "(at most 1,000,000 are read)"]),
}


@pytest.mark.parametrize("case", sorted(FIELD_CASES))
def test_each_field_check_gives_its_exact_line(case: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture) -> None:
    lines, args, expected = FIELD_CASES[case]
    code, out, err = validate(tmp_path, capsys, lines, args)
    assert out == expected
    assert code == PROBLEMS
    assert err.startswith("FILE: ") and f"{len(expected)} problem" in err


def test_mrp_2020_and_flavor_0_frameworks_validate_clean(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture) -> None:
    lines = [ptg(id="p"), drg(id="d")]
    lines += [graph(id=name, framework=name) for name in ("ud", "eud", "ccd", "pas")]
    assert json.loads(lines[2])["flavor"] == 0
    code, out, err = validate(tmp_path, capsys, lines)
    assert (code, out, err) == (OK, [], "FILE: 6 graphs, no problems\n")


def test_rejected_graphs_are_counted_in_the_summary(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    lines = [graph(framework=None, flavor=1), graph(id="g2", flavor=None)]
    code, out, err = validate(tmp_path, capsys, lines)
    assert out == ["FILE:1: graph g1: graph has no 'framework'", "FILE:2: graph g2: graph has no 'flavor'"]
    assert code == PROBLEMS
    assert err == "FILE: 2 graphs, 2 problems in 2 graphs (1 cannot be read)\n"
    code, out, err = validate(tmp_path, capsys, [graph(framework=None, flavor=1)], ["--framework", "eds"])
    assert (code, out) == (PROBLEMS, ["FILE:1: graph g1: graph has no 'framework'"])
    assert err == "FILE: 1 graph, 1 problem in 1 graph\n"


def test_node_limit(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mrp.io.limits.MAX_NODES", 1)
    code, out, _ = validate(tmp_path, capsys, [graph()])
    assert (code, out) == (PROBLEMS, ["FILE:1: graph g1: has 2 nodes (at most 1 are read)"])


def _nested_pair(tmp_path: Path) -> tuple:
    """Gold: two EDS graphs; system: the first right, the second with a wrong label and a value nested
    1,000 levels deep (legal JSON for ujson)."""
    gold = write(tmp_path / "gold.mrp", [graph(), graph(id="g2")])
    wrong = graph(id="g2", nodes=[node(0, (0, 1), label="zz"), node(1, (2, 3), label="b")])
    deep = wrong.replace('"label": "zz"', '"label": "zz", "properties": ["p"], "values": ['
                         + "[" * 1000 + '"x"' + "]" * 1000 + "]")
    return (gold, write(tmp_path / "wrong.mrp", [graph(), wrong]),
            write(tmp_path / "deep.mrp", [graph(), deep]))


def test_deeply_nested_value_is_an_invalid_graph_end_to_end(tmp_path: Path) -> None:
    gold, wrong, deep = _nested_pair(tmp_path)
    result = run_cli("validate", [str(deep)])
    assert result.code == PROBLEMS and result.out.splitlines() == [
        f"{deep}:2: graph g2: node 0: a property value is nested more than 100 levels deep"]
    scores = {}
    for system in (wrong, deep):
        result = run_cli("score", ["--gold", str(gold), str(system)])
        assert result.code == OK and "Traceback" not in result.err and "RecursionError" not in result.err
        scores[system] = json.loads(result.out)
    assert scores[wrong]["invalid"] == 0 and scores[wrong]["all"]["f"] < 1.0
    nested = scores[deep]
    assert result.err.splitlines() == [f"{deep}:2: graph g2: node 0: a property value is nested more than "
                                       "100 levels deep (scored as an empty graph)"]
    assert (nested["invalid"], nested["null"]) == (1, 1)
    # the gold tuples of the pair are missed: g counts both gold graphs, c only the first
    assert nested["all"]["g"] == scores[wrong]["all"]["g"] == 2 * nested["all"]["c"]
    assert nested["all"]["f"] < scores[wrong]["all"]["f"] < 1.0


def test_graph_without_framework_is_invalid_for_the_scorer(tmp_path: Path) -> None:
    gold = write(tmp_path / "gold.mrp", [graph(), graph(id="g2")])
    system = write(tmp_path / "system.mrp", [graph(), graph(id="g2", framework=None, flavor=None)])
    result = run_cli("score", ["--gold", str(gold), str(system)])
    assert result.code == OK
    assert result.err.splitlines() == [
        f"{system}:2: graph g2: graph has no 'framework' (scored as an empty graph)"]
    scores = json.loads(result.out)
    assert (scores["invalid"], scores["null"]) == (1, 1) and scores["all"]["f"] < 1.0
    result = run_cli("score", ["--gold", str(system), str(gold)])
    assert result.code == FATAL and result.out == ""
    assert result.err.splitlines()[0] == f"{system}:2: graph g2: graph has no 'framework'"


#: Values that break a field of GOOD in one way or another (None removes the field).
BREAKERS = [None, "", "x", 0, -1, 2, 10 ** 15, True, 1.5, [], {}, [0], ["a"], [None], {"from": 0},
            [{"from": 0, "to": 10 ** 7}], [{"from": "0", "to": 1}], [[[[["deep"]]]]], "2020-06-01", "\ud800"]
FIELDS = ["id", "framework", "flavor", "version", "time", "input", "tops", "nodes", "edges"]
NODE_FIELDS = ["id", "label", "properties", "values", "anchors"]


@st.composite
def broken_lines(draw: st.DrawFn) -> str:
    """GOOD with a few top-level, node and edge fields replaced by BREAKERS (or a value nested 150 deep)."""
    obj = json.loads(graph())
    for _ in range(draw(st.integers(0, 3))):
        value = draw(st.sampled_from(BREAKERS + ["DEEP"]))
        value = json.loads("[" * 150 + "]" * 150) if value == "DEEP" else value
        where = draw(st.sampled_from(["graph", "node", "edge"]))
        if where == "graph":
            target, key = obj, draw(st.sampled_from(FIELDS))
        elif where == "node" and isinstance(obj.get("nodes"), list) and obj["nodes"]:
            target, key = obj["nodes"][0], draw(st.sampled_from(NODE_FIELDS))
        elif where == "edge" and isinstance(obj.get("edges"), list) and obj["edges"]:
            target, key = obj["edges"][0], draw(st.sampled_from(["source", "target", "label", "values"]))
        else:
            continue
        if isinstance(target, dict):
            if value is None:
                target.pop(key, None)
            else:
                target[key] = value
    return json.dumps(obj)  # ASCII: a lone surrogate stays a JSON escape


@budget(60)
@given(st.lists(broken_lines(), min_size=1, max_size=4))
def test_validation_and_reader_agree_on_every_graph(tmp_path_factory: pytest.TempPathFactory,
                                                    lines: List[str]) -> None:
    """Every graph is accounted for: the graphs the reader rejects are the ones validation counts as
    rejected, each with at least one problem; the graphs it reads have no problem only when clean."""
    path = write(tmp_path_factory.mktemp("agree") / "x.mrp", lines)
    corpus = read_corpus(str(path))
    report = validate_file(str(path))
    assert (report.graphs, report.unreadable_lines) == (len(lines), 0)
    assert len(corpus.graphs) + len(corpus.errors) == len(lines)
    assert report.rejected == len(corpus.errors)
    flawed_lines = {problem.line for problem in report.problems}
    assert {error.line for error in corpus.errors} <= flawed_lines
    assert report.flawed == len(flawed_lines) and len(report.problems) >= report.flawed
