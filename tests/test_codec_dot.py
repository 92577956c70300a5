"""The DOT writer: Graphviz source that the real `dot` program renders, with error overlays."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from mrp.codecs.dot import BLUE, RED, covered, format_graph
from mrp.corpora.load import read_corpus
from mrp.graph import Edge, Graph, Node

from conftest import run_cli
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


def test_eds_pair_renders_with_dot_and_shows_differences(tmp_path) -> None:
    gold_file, system_file = shared("data/wsj/eds/wsj.mrp"), shared("data/pairs/eds/wsj.pet.mrp")
    gid = "20003001"  # a pair whose graphs differ (41 system nodes against 40 gold)
    errors_file = tmp_path / "errors.json"
    scored = run_cli("score", ["--errors", str(errors_file), "--gold", str(gold_file), str(system_file)])
    assert scored.code == 0, scored.err
    errors = json.loads(errors_file.read_text())
    diff = errors["eds"][gid]
    assert "labels" in diff or "edges" in diff
    picture = tmp_path / "pair.dot"
    drawn = run_cli("convert", ["--from", "mrp", "--to", "dot", "--framework", "eds", "--errors",
                                str(errors_file), str(gold_file), str(picture)])
    assert drawn.code == 0, drawn.err
    source = picture.read_text()
    block = source[source.index(f'digraph "{gid}"'):]
    block = block[:block.index("\n}\n") + 2]
    assert RED in block and BLUE in block
    svg = render(block)
    assert "<svg" in svg
    assert svg.count(RED) >= 1 and svg.count(BLUE) >= 1
    assert "_asbestos_n_1" in svg
    # each gold node is drawn once, plus one dashed box per unmatched system node
    system = {g.id: g for g in read_corpus(str(system_file)).graphs}
    unmatched = len(system[gid].nodes) - len(diff["correspondences"])
    assert block.count("style=\"dashed\"]") >= unmatched


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
