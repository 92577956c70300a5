"""Readers frame graphs by their syntax: every legal layout in one file, one broken graph, every
good graph read with its own id; Penman repairs as the original SMATCH tool makes them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List, Tuple

import pytest

from mrp.codecs import ReadOptions, reader
from mrp.corpora.load import read_corpus
from mrp.errors import FormatError
from mrp.graph import Graph

from conftest import lines


def read(fmt: str, text: str, table: Any = None, strict: bool = False) -> List[Any]:
    options = ReadOptions(text=table, strict=strict)
    return list(reader(fmt)(lines(text), "<f>", options))


def split(items: List[Any]) -> Tuple[List[Graph], List[FormatError]]:
    return ([item for item in items if isinstance(item, Graph)],
            [item for item in items if isinstance(item, FormatError)])


EDS = "\n".join([
    "#a",                                                    # 1  multi-line
    "{e2:",
    " e2:_rain_v_1<3:9>[]",
    "}",
    "",
    "#b {e2: e2:_rain_v_1<3:9>[]}",                          # 6  one line, id on the same line
    "#c",                                                    # 7  one line, id on its own line
    '{e3: _1:udef_q<0:4>[BV x1], x1:_dog_n_1<0:4>{x NUM pl}[], e3:_bark_v_1<5:10>("a}b")[ARG1 x1]}',
    "#d",                                                    # 9  broken: no closing brace
    "{e2:",
    " e2:_rain_v_1<3:9>[]",
    "#e",                                                    # 12 right after the broken graph
    "{e2:",
    " e2:_snow_v_1<3:9>[]",
    "}",
    "#f {e1: e1:_a_v[]} #g {e1: e1:_b_v[]}",                 # 16 two graphs on a line
    "{e1: e1:_c_v[]} {e1:",                                  # 17 no ids: positions; one spans lines
    " e1:_d_v[]}",
])


def test_eds_every_layout_and_a_broken_graph() -> None:
    graphs, errors = split(read("eds", EDS))
    assert [g.id for g in graphs] == ["a", "b", "c", "e", "f", "g", "7", "8"]
    assert [g.line for g in graphs] == [1, 6, 7, 12, 16, 16, 17, 17]
    assert [[n.label for n in g.nodes] for g in graphs][2] == ["udef_q", "_dog_n_1", "_bark_v_1"]
    assert graphs[2].nodes[2].values == ["a}b"]  # a brace in a string is no brace
    assert [(e.source, e.target, e.label) for e in graphs[2].edges] == [(0, 1, "BV"), (2, 1, "ARG1")]
    assert [n.label for n in graphs[3].nodes] == ["_snow_v_1"]
    assert [(e.graph_id, e.line, e.message) for e in errors] == [("d", 10, "graph has no closing '}'")]


PENMAN = "\n".join([
    "# AMR release; a header block without a graph",        # 1
    "",
    "# ::id a",                                              # 3  multi-line
    "(a / alpha",
    "   :ARG0 (b / beta))",
    "",
    "# ::id b",                                              # 7  metadata right after a graph ends it
    "(c / gamma)",
    "# ::id c",                                              # 9  a parenthesis inside a string
    '(d / delta :name (n / name :op1 "A (B"))',
    "(f / phi) (g / psi)",                                   # 11 two graphs on a line, no ids
    "# ::id broken",                                         # 12 a ')' after the end: refused
    "(h / eta :ARG0 (i / iota)))",
    "# ::id e",                                              # 14
    "(j / kappa)",
    "",
    "# ::id r",                                              # 17 left open: closed (a repair)
    "(r / rho :ARG0 (s / sigma)",
    "",
    "# ::id t",                                              # 20 text after the graph: ignored
    "(t / tau) trailing words",
])


def test_penman_every_layout_a_broken_graph_and_repairs() -> None:
    graphs, errors = split(read("amr", PENMAN))
    assert [g.id for g in graphs] == ["a", "b", "c", "3", "4", "e", "r", "t"]
    assert [g.line for g in graphs] == [3, 7, 9, 11, 11, 14, 17, 20]
    assert graphs[2].nodes[1].values == ["A (B"]
    assert [(e.graph_id, e.line) for e in errors] == [("broken", 13)]
    assert errors[0].message == "Penman syntax error: unexpected ')' after the end of the graph"
    assert [g.repairs for g in graphs if g.repairs] == [
        ["closed 1 parenthesis left open at the end of the graph (line 18)"],
        ["ignored text after the end of the graph: 'trailing words' (line 21)"],
    ]
    rho = graphs[6]
    assert [n.label for n in rho.nodes] == ["rho", "sigma"] and len(rho.edges) == 1


def test_strict_refuses_what_would_be_repaired() -> None:
    graphs, errors = split(read("amr", PENMAN, strict=True))
    assert [g.id for g in graphs] == ["a", "b", "c", "3", "4", "e"]
    assert [(e.graph_id, e.line) for e in errors] == [("broken", 13), ("r", 18), ("t", 21)]
    assert errors[1].message == "Penman syntax error (column 27): Unexpected end of input"
    assert errors[2].message == "Penman syntax error: unexpected 'trailing words' after the end of the graph"


def test_corpus_counts_repaired_graphs_with_one_warning_each(tmp_path: Path) -> None:
    path = tmp_path / "p.amr"
    path.write_text(PENMAN, encoding="utf-8")
    corpus = read_corpus(str(path))
    assert [str(item) for item in corpus.repaired] == [
        f"{path}:17: graph r: repaired: closed 1 parenthesis left open at the end of the graph (line 18)",
        f"{path}:20: graph t: repaired: ignored text after the end of the graph: 'trailing words' "
        "(line 21)",
    ]
    assert len(corpus.graphs) == 8 and len(corpus.errors) == 1
    strict = read_corpus(str(path), options=ReadOptions(strict=True))
    assert strict.repaired == [] and len(strict.graphs) == 6 and len(strict.errors) == 3


def test_repairs_are_not_written_to_mrp() -> None:
    from mrp.codecs.mrp import encode

    graph = split(read("amr", "# ::id r\n(r / rho"))[0][0]
    assert graph.repairs and "repairs" not in encode(graph)


ROW = "1\tHi\thi\tUH\t+\t-\t_"
SDP = "\n".join([
    "#SDP 2015",
    "#1", ROW, "",                                           # 2  blank-line separated
    "#2", ROW,                                               # 5  an id line right after rows
    "#SDP 2015",                                             # 7  a repeated header (concatenated files)
    "#3", ROW, "", "",
    "#4", "1\tHi\thi\tUH\t+\t-",                             # 12 broken: a column short
    "#5", ROW,                                               # 14 right after the broken graph
    "#6", "1\tHi\thi\tUH\t+\t+\t_\tARG1", "2\tyo\tyo\tUH\t-\t-\t_",  # 16 a short row: a repair
    "#7", "7\tHi\thi\tUH\t+\t-\t_",                         # 19 a wrong token ID: a repair
])


def test_sdp_every_layout_and_a_broken_graph() -> None:
    table = {str(k): "Hi" for k in range(1, 8)}
    table["6"] = "Hi yo"
    graphs, errors = split(read("dm", SDP, table))
    assert [g.id for g in graphs] == ["1", "2", "3", "5", "6", "7"]
    assert [g.line for g in graphs] == [2, 5, 8, 14, 16, 19]
    assert [(e.graph_id, e.line) for e in errors] == [("4", 13)]
    assert [g.repairs for g in graphs if g.repairs] == [
        ["token 2: 1 missing argument cell read as '_' (line 18)"],
        ["token 1 has ID '7'; expected 1: read by its position (line 20)"],
    ]
    assert [(e.source, e.target, e.label) for e in graphs[4].edges] == [(0, 0, "ARG1")]
    graphs, errors = split(read("dm", SDP, table, strict=True))
    assert [g.id for g in graphs] == ["1", "2", "3", "5"]
    assert [(e.graph_id, e.line) for e in errors] == [("4", 13), ("6", 18), ("7", 20)]
    assert errors[1].message == "token 2 has 7 columns; expected 8 (7 + 1 predicates)"


def test_mrp_one_graph_per_line_and_a_broken_line() -> None:
    good = [json.dumps({"id": f"g{k}", "framework": "amr", "nodes": [{"id": 0, "label": "x"}]})
            for k in range(3)]
    text = "\n".join([good[0], "", good[1], '{"id": "bad", "nodes": [', good[2]])
    graphs, errors = split(read("mrp", text))
    assert [g.id for g in graphs] == ["g0", "g1", "g2"] and [g.line for g in graphs] == [1, 3, 5]
    assert [e.line for e in errors] == [4]


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_mrp_refuses_nan_and_infinity(number: str) -> None:
    text = '{"id": "g", "nodes": [{"id": 0, "properties": ["p"], "values": [' + number + "]}]}"
    graphs, errors = split(read("mrp", text))
    assert graphs == [] and len(errors) == 1
    assert errors[0].graph_id == "g" and "which JSON does not allow" in errors[0].message


def test_issue_cases_through_the_cli(tmp_path: Path) -> None:
    """The cases of issue 16: a one-line EDS graph and the graph after a broken one are converted
    (mrp-convert used to convert 2 of 3 and exit 0); a graph id with a line break is refused."""
    from conftest import run_cli

    eds = tmp_path / "three.eds"
    eds.write_text("#1\n{e2:\n e2:_rain_v_1<3:9>[]\n}\n#2 {e2: e2:_rain_v_1<3:9>[]}\n"
                   "#3\n{e2:\n e2:_rain_v_1<3:9>[]\n#4\n{e2:\n e2:_snow_v_1<3:9>[]\n}\n", encoding="utf-8")
    out = tmp_path / "three.mrp"
    run = run_cli("convert", ["--to", "mrp", str(eds), str(out)])
    assert run.code == 1
    assert run.err.splitlines() == [f"{eds}:7: graph 3: graph has no closing '}}' (skipped)",
                                    "mrp-convert: 1 graph(s) skipped; 3 converted"]
    converted = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["id"] for line in converted] == ["1", "2", "4"]
    evil = tmp_path / "evil.mrp"
    evil.write_text(json.dumps({"id": "g1\n# ::id g2", "framework": "amr", "tops": [0],
                                "nodes": [{"id": 0, "label": "x"}]}) + "\n", encoding="utf-8")
    amr = tmp_path / "evil.amr"
    run = run_cli("convert", ["--to", "amr", str(evil), str(amr)])
    assert run.code == 2 and "holds a line break" in run.err  # nothing converted: exit 2
    assert not amr.exists() or "::id g2" not in amr.read_text(encoding="utf-8")
