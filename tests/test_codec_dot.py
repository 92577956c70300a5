"""The DOT writer: Graphviz source that the real `dot` program renders, with error overlays."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from typing import Any, Dict, List, Optional, Tuple

import pytest

from mrp.codecs import WriteOptions, writer
from mrp.codecs.dot import BLUE, RED, covered, format_graph
from mrp.graph import Edge, Graph, Node
from mrp.load import read_corpus

from conftest import shared_file as shared


def dot_program() -> str:
    program = shutil.which("dot")
    if program is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the Graphviz 'dot' program is missing (required under CI=true)")
        pytest.skip("the Graphviz 'dot' program is not installed (apt-get install graphviz)")
    return program


def render(source: str) -> str:
    done = subprocess.run([dot_program(), "-Tsvg"], input=source, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "", done.stderr
    return done.stdout


def crude_diff(gold: Graph, system: Graph) -> Dict[str, Any]:
    """Differences in the --errors layout under a greedy (label, anchors) node matching.

    This is only a stand-in for the scorer, to exercise the overlay on real data.
    """
    free = {node.id: node for node in system.nodes}
    pairs: List[Tuple[int, int]] = []
    for node in gold.nodes:
        for sid, other in free.items():
            if (other.label, other.anchors) == (node.label, node.anchors):
                pairs.append((node.id, sid))
                del free[sid]
                break
    for node in gold.nodes:  # then by anchors alone
        if node.id in dict(pairs):
            continue
        for sid, other in free.items():
            if other.anchors == node.anchors:
                pairs.append((node.id, sid))
                del free[sid]
                break
    to_gold = {s: g for g, s in pairs}

    def gid(sid: int) -> Optional[int]:
        return to_gold.get(sid)

    def side(gold_items: set, system_items: set, system_ids: Dict[Any, Any]) -> Dict[str, list]:
        result: Dict[str, list] = {}
        missing = [list(item) for item in sorted(gold_items - {system_ids[i] for i in system_items})]
        surplus = [list(item) for item in sorted(i for i in system_items if system_ids[i] not in gold_items)]
        if missing:
            result["missing"] = missing
        if surplus:
            result["surplus"] = surplus
        return result

    gold_labels = {(n.id, n.label) for n in gold.nodes}
    system_labels = {(n.id, n.label) for n in system.nodes}
    labels = side(gold_labels, system_labels, {(i, lab): (gid(i), lab) for i, lab in system_labels})
    gold_edges = {(e.source, e.target, e.label) for e in gold.edges}
    system_edges = {(e.source, e.target, e.label) for e in system.edges}
    edges = side(gold_edges, system_edges,
                 {e: (gid(e[0]), gid(e[1]), e[2]) for e in system_edges})
    gold_props = {(n.id, p, v) for n in gold.nodes for p, v in zip(n.properties, n.values)}
    system_props = {(n.id, p, v) for n in system.nodes for p, v in zip(n.properties, n.values)}
    properties = side(gold_props, system_props, {t: (gid(t[0]), t[1], t[2]) for t in system_props})
    diff: Dict[str, Any] = {"correspondences": [list(p) for p in pairs]}
    for key, value in (("labels", labels), ("edges", edges), ("properties", properties)):
        if value:
            diff[key] = value
    return diff


def test_eds_pair_renders_with_dot_and_shows_differences() -> None:
    dot_program()
    gold = {g.id: g for g in read_corpus(str(shared("data", "wsj", "eds", "wsj.mrp")), "mrp").graphs}
    system = {g.id: g for g in read_corpus(str(shared("data", "pairs", "eds", "wsj.pet.mrp")), "mrp").graphs}
    gid = "20003001"  # a pair whose graphs differ (41 system nodes against 40 gold)
    diff = crude_diff(gold[gid], system[gid])
    assert "labels" in diff or "edges" in diff
    errors = {"eds": {gid: diff}}
    out = io.StringIO()
    writer("dot")([gold[gid]], out, WriteOptions(errors=errors))
    source = out.getvalue()
    assert source.startswith(f'digraph "{gid}"')
    assert RED in source and BLUE in source
    svg = render(source)
    assert "<svg" in svg
    assert svg.count(RED) >= 1 and svg.count(BLUE) >= 1
    assert "_asbestos_n_1" in svg
    # each gold node is drawn once, plus one dashed box per unmatched system node
    unmatched = len(system[gid].nodes) - len(diff["correspondences"])
    assert source.count("style=\"dashed\"]") >= unmatched


def test_plain_dot_shows_labels_properties_anchors_and_tops() -> None:
    graph = Graph(id="g\"1", framework="eds", input="Dogs <bark> & bite.", tops=[1], nodes=[
        Node(0, "dog", ["carg"], ["Dogs"], anchors=[(0, 4)]),
        Node(1, "bark", anchors=[(5, 11)]),
    ], edges=[Edge(1, 0, "ARG1", attributes=["remote"], values=[True])])
    source = format_graph(graph)
    assert "<b>dog</b>" in source and "carg = Dogs" in source
    assert "⟨&lt;bark&gt;⟩" in source
    assert '"top0" -> "n1"' in source
    assert "remote = True" in source
    assert RED not in source and BLUE not in source
    svg = render(source)
    assert "&lt;bark&gt;" in svg


def test_covered_text_from_spans_and_positions() -> None:
    graph = Graph(id="c", input="New York City")
    assert covered(graph, [(0, 3), (4, 8)]) == "New York"
    assert covered(graph, [9, 10, 11, 12]) == "City"
    assert covered(graph, [(0, 3), (9, 13)]) == "New … City"
    assert covered(Graph(id="n"), [(0, 3)]) == "0:3"


def test_errors_for_tops_and_unmatched_system_nodes() -> None:
    graph = Graph(id="7", framework="amr", tops=[0], nodes=[Node(0, "a"), Node(1, "b")],
                  edges=[Edge(0, 1, "ARG1-of", normal="ARG1")])
    diff = {
        "correspondences": [[0, 5]],
        "tops": {"missing": [0], "surplus": [9]},
        "labels": {"surplus": [[9, "zzz"]]},
        "edges": {"missing": [[1, 0, "arg1"]], "surplus": [[5, 9, "op1"]]},
    }
    source = format_graph(graph, diff)
    assert f'"top0" -> "n0" [style=bold, color="{RED}"]' in source
    assert f'-> "s9" [style=bold, color="{BLUE}"]' in source
    assert f'"n0" -> "n1" [label=<<font color="{RED}">ARG1-of</font>>' in source  # matched through normal
    assert f'"n0" -> "s9" [label=<<font color="{BLUE}">op1</font>>' in source
    render(source)
