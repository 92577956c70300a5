"""Every writer writes what reads back as itself, or refuses the graph with one line naming its id: a
round-trip property per writer (MRP, AMR/Penman, UMR, EDS, SDP) over hostile labels, values, ids and
document-level annotation (quotes, parentheses, colons, slashes, newlines, '#', tabs, backslashes, control
and separator characters); DOT (write only) escapes what Graphviz would take as syntax."""

from __future__ import annotations

import io
import re
from typing import Any, Dict, List, Optional, Tuple

from hypothesis import given
from hypothesis import strategies as st

import mrp
from mrp.codecs import WriteOptions, writer
from mrp.errors import EXCERPT, FormatError, excerpt
from mrp.graph import Edge, Graph, Node, Placement, Relation

from conftest import budget

#: the characters an attacker (or an unlucky parser) puts in a label: syntax of every format, white space,
#: line breaks of every kind, control characters
HOSTILE = list('aZ0 "\'()\\:/#\t\n\r{}[]<>,;~|^_-.*=+@!?%&$`\x00\x01\x07\x0b\x0c\x1b\x1c\x1e\x7f\x85'
               '\xa0\u2028\u2029\u200b\ufeff\U0001f600é')
hostile = st.text(alphabet=st.sampled_from(HOSTILE), min_size=0, max_size=8)
#: hostile, but never empty
word = st.text(alphabet=st.sampled_from(HOSTILE), min_size=1, max_size=8)


def round_trip(graph: Graph, fmt: str, **options: Any) -> Optional[Graph]:
    """The graph written in a format and read back, or None when the writer refused it (with one line
    naming the graph's id)."""
    out = io.StringIO()
    try:
        writer(fmt)([graph], out, WriteOptions())
    except FormatError as error:
        message = str(error)
        assert "\n" not in message and "\r" not in message, message
        assert f"graph {excerpt(str(graph.id), 4 * EXCERPT)}:" in message, message
        return None
    [back] = mrp.read(out.getvalue(), format=fmt, framework=graph.framework, **options)
    return back


def nodes_of(graph: Graph) -> List[Tuple[Any, ...]]:
    return [(node.label, list(node.properties), [str(v) for v in node.values]) for node in graph.nodes]


def edges_of(graph: Graph) -> List[Tuple[int, int, Any]]:
    return sorted((edge.source, edge.target, edge.label) for edge in graph.edges)


@given(gid=word, label=hostile, name=word, value=hostile, role=word, text=hostile)
@budget(150)
def test_mrp(gid: str, label: str, name: str, value: str, role: str, text: str) -> None:
    graph = Graph(gid, framework="eds", flavor=1, input=text, tops=[0],
                  nodes=[Node(0, label, [name], [value]), Node(1, "b")], edges=[Edge(0, 1, role)])
    back = round_trip(graph, "mrp")
    if back is not None:
        assert (back.id, back.input, nodes_of(back), edges_of(back)) == \
            (graph.id, graph.input, nodes_of(graph), edges_of(graph))


ROLES = ["ARG0", "ARG1", "op1", "mod", "polarity", "quant"]


@given(gid=word, label=word, value=word, text=hostile, role=st.sampled_from(ROLES))
@budget(150)
def test_amr(gid: str, label: str, value: str, text: str, role: str) -> None:
    graph = Graph(gid, framework="amr", input=text, tops=[0],
                  nodes=[Node(0, label, ["op2"], [value]), Node(1, "b")], edges=[Edge(0, 1, role)])
    back = round_trip(graph, "amr")
    if back is not None:
        assert back.id == graph.id
        assert back.input == re.sub(r"\s*[\r\n]\s*", " ", text).strip()
        assert nodes_of(back) == nodes_of(graph) and edges_of(back) == edges_of(graph)


@given(label=word, value=word, variable=word, kind=hostile, source=word, relation=hostile, target=word,
       info=st.lists(word, max_size=3), text=hostile)
@budget(150)
def test_umr(label: str, value: str, variable: str, kind: str, source: str, relation: str, target: str,
             info: List[str], text: str) -> None:
    place = Placement("d1", 1, variable, [Relation(kind, source, relation, target)], info)
    graph = Graph("d1.s1", framework="umr", input=text, tops=[0], document=place,
                  nodes=[Node(0, label, ["op1"], [value]), Node(1, "b")], edges=[Edge(0, 1, "ARG0")])
    back = round_trip(graph, "umr")
    if back is None:
        return
    assert back.id == graph.id and back.input == (" ".join(text.split()) or None)
    assert nodes_of(back) == nodes_of(graph) and edges_of(back) == edges_of(graph)
    assert back.document is not None
    assert back.document.variable == variable and back.document.relations == place.relations
    written = [line.rstrip() for line in info]
    assert back.document.info == [line for line in written if line.lstrip().startswith("#")] + \
        [line for line in written if not line.lstrip().startswith("#")]


@given(gid=word, label=word, carg=hostile, name=word, value=word, role=word, text=hostile)
@budget(150)
def test_eds(gid: str, label: str, carg: str, name: str, value: str, role: str, text: str) -> None:
    graph = Graph(gid, framework="eds", flavor=1, input=text, tops=[0],
                  nodes=[Node(0, label, ["carg", name], [carg, value]), Node(1, "b")],
                  edges=[Edge(0, 1, role)])
    back = round_trip(graph, "eds")
    if back is not None:
        assert back.id == graph.id
        assert nodes_of(back) == nodes_of(graph) and edges_of(back) == edges_of(graph)


@given(gid=word, label=word, pos=word, frame=word, role=word)
@budget(150)
def test_sdp(gid: str, label: str, pos: str, frame: str, role: str) -> None:
    text = "A b"
    graph = Graph(gid, framework="dm", flavor=0, input=text, tops=[0],
                  nodes=[Node(0, label, ["pos", "frame"], [pos, frame], [(0, 1)]),
                         Node(1, "b", ["pos"], ["NN"], [(2, 3)])],
                  edges=[Edge(0, 1, role)])
    back = round_trip(graph, "dm", text={gid: text})
    if back is not None:
        assert back.id == graph.id
        assert nodes_of(back) == nodes_of(graph) and edges_of(back) == edges_of(graph)


#: a DOT double-quoted string, and an HTML-like label (no nested < > other than tags)
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')


@given(gid=word, label=hostile, value=hostile, role=hostile)
@budget(150)
def test_dot_escapes_what_graphviz_reads_as_syntax(gid: str, label: str, value: str, role: str) -> None:
    graph = Graph(gid, framework="eds", flavor=1, tops=[0],
                  nodes=[Node(0, label, ["carg"], [value]), Node(1, "b")], edges=[Edge(0, 1, role)])
    out = io.StringIO()
    try:
        writer("dot")([graph], out, WriteOptions())
    except FormatError as error:
        assert "\n" not in str(error)
        return
    text = out.getvalue()
    # every line is a statement: no label breaks a line, and every quoted string is closed on its line
    for line in text.splitlines()[1:-1]:
        assert line.startswith("  ") and line.rstrip().endswith((";", "{", "}")), line
    html = re.findall(r"label=<(.*)>\]", text)
    for body in html:
        assert "\\" not in body, body  # Graphviz reads \N, \G, \L ... in labels: a backslash is escaped
        assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", body), body  # not XML
    for quoted in _QUOTED.findall(text):
        assert not re.search(r"(?<!\\)(?:\\\\)*\\[NGETHL]", quoted), quoted


def _umr_mrp(tmp: Any, relations: List[Dict[str, str]], info: List[str]) -> Any:
    import json

    graph = {"id": "d1.s1", "framework": "umr", "flavor": 2, "input": "Ann runs", "tops": [0],
             "nodes": [{"id": 0, "label": "run-01"}, {"id": 1, "label": "person"}],
             "edges": [{"source": 0, "target": 1, "label": "ARG0"}],
             "document": {"id": "d1", "sentence": 1, "variable": "s1s0", "relations": relations,
                          "info": info}}
    path = tmp / "in.mrp"
    path.write_text(json.dumps(graph) + "\n", encoding="utf-8")
    return path


GOOD_RELATIONS = [
    {"kind": "temporal", "source": "document-creation-time", "label": "before", "target": "s1x"},
    {"kind": "modal", "source": "author", "label": "full-affirmative", "target": "s1x"},
]


def test_mrp_convert_refuses_a_relation_label_that_would_swallow_the_others(tmp_path: Any) -> None:
    from conftest import run_cli

    bad = dict(GOOD_RELATIONS[0], label="before))\n(s9 / sentence")
    path = _umr_mrp(tmp_path, [bad, *GOOD_RELATIONS], [])
    done = run_cli("convert", ["--from", "mrp", "--to", "umr", str(path)])
    assert done.code != 0 and "Traceback" not in done.err
    told = [line for line in done.err.splitlines() if "d1.s1" in line]
    assert len(told) == 1 and "not one token" in told[0], done.err
    good = run_cli("convert", ["--from", "mrp", "--to", "umr", str(_umr_mrp(tmp_path, GOOD_RELATIONS, []))])
    assert good.code == 0, good.err
    [back] = mrp.read(good.out, format="umr")
    assert back.document is not None and len(back.document.relations) == 2


def test_mrp_convert_refuses_an_info_line_that_would_start_a_sentence(tmp_path: Any) -> None:
    from conftest import run_cli

    for info in (["# :: snt2"], ["gloss\n# :: snt2"], ["#" * 20], ["Words: x y"], ["# alignment:"]):
        path = _umr_mrp(tmp_path, GOOD_RELATIONS, info)
        done = run_cli("convert", ["--from", "mrp", "--to", "umr", str(path)])
        assert done.code != 0 and "Traceback" not in done.err
        assert len([line for line in done.err.splitlines() if "d1.s1" in line]) == 1, done.err
    path = _umr_mrp(tmp_path, GOOD_RELATIONS, ["# gloss: a (b) :c", "Morphemes: x"])
    done = run_cli("convert", ["--from", "mrp", "--to", "umr", str(path)])
    assert done.code == 0, done.err
    [back] = mrp.read(done.out, format="umr")
    assert back.document is not None and back.document.info == ["# gloss: a (b) :c", "Morphemes: x"]
