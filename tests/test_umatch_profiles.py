"""juːmæʧ's node profiles (:mod:`mrp.metrics.umatch.triples`): the pairs of a node counted as juːmæʧ counts
them, checked against their definition on every node of the shared and test UMR files, under every kind of
selection, each sentence's table made once and made again when the selection changes."""

from __future__ import annotations

import gc
from collections import Counter
from typing import List

import pytest

from mrp.corpora.load import read_corpus
from mrp.metrics.umatch import graphs
from mrp.metrics.umatch.model import Sentence
from mrp.metrics.umatch.triples import ALL, Selection, profile, profiles

from conftest import ROOT, shared_file

SELECTIONS = [ALL, Selection.of(["ARG0", "concept"]), Selection.of(None, ["concept", "op1"]),
              Selection.of(["ARG1"])]


def _sentences() -> List[Sentence]:
    paths = [ROOT / "tests" / "data" / "umatch" / name for name in ("gold.umr", "system.umr")]
    paths += sorted(shared_file("data", "umr", "english").glob("*.umr"))[:2]
    return [graphs.sentence(graph, number, top) for path in paths
            for number, graph in enumerate(read_corpus(str(path), "umr").graphs, 1) for top in (False, True)]


def _check(item: Sentence, selection: Selection) -> None:
    table = profiles(item.nodes, selection)
    assert list(table) == list(item.nodes)
    for variable, node in item.nodes.items():
        found = table[variable]
        assert found is profile(node, item.nodes, selection)  # the one kept
        pairs = [] if selection.ignored("concept") else [("concept", node.concept)]
        pairs += [(name, value) for name, value in node.relations if value and not selection.ignored(name)]
        fixed = Counter(pair for k, pair in enumerate(pairs) if k == 0 and pair[0] == "concept" or
                        pair[1] not in item.nodes)
        assert found.own == Counter(pairs) and found.own_total == len(pairs)
        assert found.fixed == fixed and found.fixed_total == sum(fixed.values())
        assert found.edges == [(name, value, item.nodes[value].cross) for name, value in pairs
                               if name != "concept" and value in item.nodes]


@pytest.mark.parametrize("order", [SELECTIONS, SELECTIONS[::-1]])
def test_profiles_are_the_pairs_juumaech_counts(order: List[Selection]) -> None:
    sentences = _sentences()
    assert sum(len(item.nodes) for item in sentences) > 500
    for selection in order + order[:1]:
        for item in sentences:
            _check(item, selection)


def test_a_profile_holds_no_other_node() -> None:
    """A sentence let go is freed by its last reference, not by the collector: no cycle through it."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for item in _sentences():
            profiles(item.nodes, ALL)
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = {type(found).__name__ for found in gc.garbage} & {"Node", "Profile", "Sentence", "Nodes"}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if enabled:
            gc.enable()
    assert left == set()
