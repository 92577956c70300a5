"""Rematch's efficiency protocol (bench/protocol.py): its pairs are generate_matchups.py's (pair numbers into
``itertools.combinations``, drawn by ``numpy.random.choice``), and its corpus drops ``:wiki`` relations
only."""

from __future__ import annotations

import itertools
import sys

import numpy as np
import pytest

import mrp

from conftest import ROOT, shared_path

sys.path.insert(0, str(ROOT / "bench"))
import protocol  # noqa: E402


@pytest.mark.parametrize("n", [2, 3, 7, 61])
def test_matchups_are_the_drawn_numbers_of_combinations(n: int) -> None:
    listed = list(itertools.combinations(range(n), 2))
    drawn = np.random.RandomState(5).choice(len(listed), 500)
    assert [tuple(pair) for pair in protocol.matchups(n, 500, 5).tolist()] == [listed[k] for k in drawn]


def test_unwiki_drops_wiki_relations_and_nothing_else() -> None:
    text = ('(p / person :wiki "Barack_Obama" :name (n / name :op1 "Obama" :op2 ":wiki x")\n'
            '   :ARG0-of (w / win-01 :wiki - :mod (c / country :wiki Q30)))')
    gone = protocol.unwiki(text)
    assert gone.count(":wiki") == 1  # the one in a quoted string
    graph = mrp.read(gone, format="amr")[0]
    assert sorted(node.label for node in graph.nodes) == ["country", "name", "person", "win-01"]
    values = {(p, v) for node in graph.nodes for p, v in zip(node.properties, node.values)}
    assert {p for p, _ in values} == {"op1", "op2"}
    assert ("op2", ":wiki x") in values


def test_the_corpus_is_every_shared_amr_graph() -> None:
    shared_path()
    texts = protocol.corpus()
    assert len(texts) == 2852
    assert not any(":wiki " in text for text in texts)
