"""The MRP 2020 frameworks PTG and DRG: read from MRP JSON, scored with the MRP metric and SMATCH through
mrp-score, and drawn in DOT, on small graphs in the shape of the MRP 2020 sample (tests/data)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from mrp.codecs import ReadOptions, WriteOptions, writer
from mrp.corpora.load import read_corpus
from mrp.graph import default_flavor

from conftest import run_cli

DATA = Path(__file__).resolve().parent / "data"


def _load(name: str) -> List[Dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as stream:
        return [json.loads(line) for line in stream]


def _perturb_ptg(graphs: List[Dict[str, Any]]) -> None:
    first = graphs[0]
    first["nodes"][4]["label"] = "woman"  # wife -> woman: one label tuple fewer
    for edge in first["edges"]:
        if (edge["source"], edge["target"]) == (2, 1):
            del edge["attributes"], edge["values"]  # member: true lost: one attribute tuple fewer
        if (edge["source"], edge["target"]) == (0, 5):
            del edge["attributes"], edge["values"]  # member: false is the default: no change


def _perturb_drg(graphs: List[Dict[str, Any]]) -> None:
    first = graphs[0]
    first["nodes"][9]["label"] = "committee.n.01"  # one label tuple fewer
    first["edges"] = [e for e in first["edges"] if (e["source"], e["target"]) != (0, 11)]  # one edge fewer


# framework: (perturbation, gold count, system count, matches of the perturbed copy), the same for MRP
# and SMATCH here: every MRP tuple of these graphs has one SMATCH triple (member: false is dropped by both)
CASES = {
    "ptg": (_perturb_ptg, 44, 43, 42),
    "drg": (_perturb_drg, 41, 40, 39),
}


def test_frameworks_have_their_2020_flavors() -> None:
    assert default_flavor("ptg") == 1 and default_flavor("drg") == 2
    for framework in CASES:
        corpus = read_corpus(str(DATA / f"{framework}.mrp"), "mrp", ReadOptions())
        assert corpus.errors == [] and len(corpus.graphs) == 2
        assert {g.framework for g in corpus.graphs} == {framework}


def _score(metric: str, gold: Path, system: Path) -> Dict[str, Any]:
    done = run_cli("score", ["--score", metric, "--gold", str(gold), str(system)])
    assert done.code == 0, done.err
    result = json.loads(done.out)
    counts = result["all"] if metric == "mrp" else result
    return {key: counts[key] for key in ("g", "s", "c", "f")} | {"n": result["n"],
                                                                 "signature": result["signature"]}


@pytest.mark.parametrize("framework", sorted(CASES))
@pytest.mark.parametrize("metric", ["mrp", "smatch"])
def test_self_scores_one_and_a_perturbed_copy_below(framework: str, metric: str, tmp_path: Path) -> None:
    perturb, g, s, c = CASES[framework]
    gold = DATA / f"{framework}.mrp"
    same = _score(metric, gold, gold)
    assert same["n"] == 2 and same["f"] == 1.0 and same["g"] == same["s"] == same["c"] == g
    assert same["signature"].startswith(f"{metric}:{framework}|")
    graphs = _load(f"{framework}.mrp")
    perturb(graphs)
    system = tmp_path / "system.mrp"
    system.write_text("".join(json.dumps(graph) + "\n" for graph in graphs), encoding="utf-8")
    changed = _score(metric, gold, system)
    assert (changed["g"], changed["s"], changed["c"]) == (g, s, c)
    assert changed["f"] == pytest.approx(2 * c / (g + s)) and changed["f"] < 1.0


def test_generated_ptg_nodes_with_empty_anchors_count_as_unanchored() -> None:
    from mrp.normalize import normalize

    graph = read_corpus(str(DATA / "ptg.mrp"), "mrp", ReadOptions()).graphs[0]
    normal = normalize(graph)
    assert graph.nodes[6].anchors == [(46, 46)] and normal.anchors[6] is None
    assert sum(anchor is not None for anchor in normal.anchors) == 6


@pytest.mark.parametrize("framework", sorted(CASES))
def test_dot_draws_every_node_edge_and_attribute(framework: str) -> None:
    graphs = read_corpus(str(DATA / f"{framework}.mrp"), "mrp", ReadOptions()).graphs
    out = io.StringIO()
    writer("dot")(graphs, out, WriteOptions())
    text = out.getvalue()
    assert text.count("digraph") == 2
    for graph in graphs:
        for node in graph.nodes:
            assert f"\"n{node.id}\" [" in text
            if node.label:
                assert node.label.replace('"', "&quot;") in text
        for edge in graph.edges:
            assert f"\"n{edge.source}\" -> \"n{edge.target}\"" in text
    if framework == "ptg":
        assert "member = True" in text and "effective = True" in text


def test_2020_samples_validate_clean_and_empty_anchors_are_ptg_only(tmp_path: Path) -> None:
    result = run_cli("validate", [str(DATA / "ptg.mrp"), str(DATA / "drg.mrp")])
    assert result.code == 0, result.out + result.err
    graph = json.loads((DATA / "ptg.mrp").read_text().splitlines()[0])
    graph["framework"], graph["flavor"] = "eds", 1
    for node in graph["nodes"]:
        node.setdefault("label", "x")
        if node.get("anchors"):
            node["anchors"] = node["anchors"][:1]
    path = tmp_path / "eds.mrp"
    path.write_text(json.dumps(graph) + "\n")
    flagged = run_cli("validate", [str(path)])
    assert flagged.code == 1 and "is empty" in flagged.out + flagged.err
