"""Penman structure preservation (--standardize structure): the layout triples, and scores that see them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, Tuple

import pytest

from mrp.codecs import ReadOptions, reader
from mrp.engine.options import Options
from mrp.errors import MRPError
from mrp.graph import Edge, Graph, Node
from mrp.metrics.mrp.pair import score_pair as mrp_pair
from mrp.metrics.smatch.metric import score_pair as smatch_pair
from mrp.standardize.graph import PRESETS, Standardization, parse, standardize
from mrp.standardize.structure import applies

from conftest import lines, run_cli

STRUCTURE = PRESETS["structure"]


def amr(text: str) -> Graph:
    items = list(reader("amr")(lines(text), "<amr>", ReadOptions(framework="amr")))
    assert len(items) == 1 and isinstance(items[0], Graph), str(items[0])
    return items[0]


def scores(gold: str, system: str, std: Standardization) -> Dict[str, Tuple[int, int, int]]:
    """(g, s, c) of the MRP metric and of SMATCH (MRP triples and Penman triples) after standardizing."""
    g, s = standardize(amr(gold), std), standardize(amr(system), std)
    out = {"mrp": mrp_pair(g, s).counts["all"]}
    for name, options in (("smatch", Options()), ("smatch-penman", Options(penman=True))):
        item = smatch_pair(g, s, options)
        out[name] = (item["g"], item["s"], item["c"])
    return out


def test_the_layout_triples() -> None:
    graph = standardize(amr("(a / see-01 :ARG0 (d / dog) :ARG1-of (c / cause-01 :ARG0 d :polarity -))"),
                        STRUCTURE)
    added = sorted((e.source, e.target, e.label) for e in graph.edges if "@" in (e.label or ""))
    # a = 0, d = 1, c = 2 (order of definition); the inverted edge keeps the direction it is written in
    assert added == [(0, 1, "ARG0@1+def"), (0, 2, "ARG1-of@2+def"), (2, 1, "ARG0@1")]
    assert list(zip(graph.nodes[2].properties, graph.nodes[2].values)) == [("polarity", "-"),
                                                                          ("polarity@2", "-")]
    assert [n.label for n in graph.nodes] == ["see-01", "dog", "cause-01"]


# The same triples; the dog is defined under see-01 in one and under chase-01 in the other.
DEFINED_HERE = "(a / see-01 :ARG0 (d / dog) :ARG1 (c / chase-01 :ARG0 d))"
DEFINED_THERE = "(a / see-01 :ARG0 d :ARG1 (c / chase-01 :ARG0 (d / dog)))"


def test_another_occurrence_holding_the_definition_scores_below_one() -> None:
    plain = scores(DEFINED_HERE, DEFINED_THERE, PRESETS["none"])
    # tops 1 + labels 3 + edges 3 = 7 MRP tuples; SMATCH: 3 instances + TOP + 3 relations = 7
    assert plain == {"mrp": (7, 7, 7), "smatch": (7, 7, 7), "smatch-penman": (7, 7, 7)}
    kept = scores(DEFINED_HERE, DEFINED_THERE, STRUCTURE)
    # three layout edges each; ARG0@1+def and ARG0@1 swap places between a->d and c->d: two miss
    assert kept == {"mrp": (10, 10, 8), "smatch": (10, 10, 8), "smatch-penman": (10, 10, 8)}


def test_reordered_branches_score_below_one() -> None:
    gold = "(a / see-01 :ARG0 (d / dog) :ARG1 (c / cat) :polarity -)"
    system = "(a / see-01 :polarity - :ARG1 (c / cat) :ARG0 (d / dog))"
    assert scores(gold, system, PRESETS["none"])["mrp"] == (7, 7, 7)
    # ARG0@1+def, ARG1@2+def, polarity@3 against polarity@1, ARG1@2+def, ARG0@3+def: only ARG1@2+def matches
    assert scores(gold, system, STRUCTURE) == {"mrp": (10, 10, 8), "smatch": (10, 10, 8),
                                               "smatch-penman": (10, 10, 8)}


def test_the_same_layout_scores_one() -> None:
    result = scores(DEFINED_THERE, DEFINED_THERE, STRUCTURE)
    assert all(g == s == c == 10 for g, s, c in result.values())


def test_graphs_without_a_penman_layout_are_unchanged() -> None:
    other = Graph(id="1", framework="eds", nodes=[Node(0, "x"), Node(1, "y")], edges=[Edge(0, 1, "ARG1")])
    from_mrp = Graph(id="2", framework="amr", nodes=[Node(0, "see-01")], tops=[0])
    for graph in (other, from_mrp):
        assert not applies(graph)
        same = standardize(graph, STRUCTURE)
        assert same == graph and same is not graph
    assert applies(amr(DEFINED_HERE))


def test_other_standardizations_drop_the_layout() -> None:
    graph = amr(DEFINED_HERE)
    assert graph.layout is not None and standardize(graph, PRESETS["dereify"]).layout is None


def test_structure_is_a_preset_of_its_own() -> None:
    assert parse("structure") == Standardization(structure=True) and STRUCTURE.name() == "structure"
    with pytest.raises(MRPError, match="cannot be combined"):
        parse("structure+roles")


def test_mrp_score_standardize_structure(tmp_path: Path) -> None:
    gold, system = tmp_path / "gold.amr", tmp_path / "system.amr"
    gold.write_text(f"# ::id 1\n{DEFINED_HERE}\n", encoding="utf-8")
    system.write_text(f"# ::id 1\n{DEFINED_THERE}\n", encoding="utf-8")
    for std, f in (("none", 1.0), ("structure", 0.8)):
        done = run_cli("score", ["--format", "amr", "--standardize", std, "--gold", str(gold), str(system)])
        assert done.code == 0, done.err
        result = json.loads(done.out)
        assert result["all"]["f"] == pytest.approx(f)
        assert f"|std:{std}|" in result["signature"]


def test_structure_on_graphs_without_layout_warns() -> None:
    from conftest import run_cli, shared_file

    gold, system = shared_file("data/pairs/amr/test1.mrp"), shared_file("data/pairs/amr/test2.mrp")
    result = run_cli("score", ["--standardize", "structure", "--gold", str(gold), str(system)])
    assert result.code == 0
    assert "test1.mrp: 3 AMR graph(s) have no Penman layout" in result.err
