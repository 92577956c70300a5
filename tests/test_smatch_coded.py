"""SMATCH's Penman triples coded in one pass (mrp.metrics.smatch.coded.Coder) are the rows the triples' dicts
give (mrp.metrics.smatch.penman.penman_triples without compat, coded by mrp.solver.Interned), number for
number, with the same count: on random AMR with repeated triples, inverted roles, a root with constants and
duplicate relations, on every AMR graph of ../shared (skipped without it), across the ids' generations; and
the coded comparison of two graphs (held.same) says what the dicts' comparison says."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, List

import pytest
from test_together import _amr

import mrp
from mrp.metrics.smatch.coded import Coder
from mrp.metrics.smatch.held import same
from mrp.metrics.smatch.penman import penman_triples
from mrp.solver.batch_rows import Interned

from conftest import shared_file

#: hand-made graphs: a triple written twice (a constant, a relation), a root with constants and a TOP-like
#: constant, an inverted role on a constant, a concept-less node, quoted and unquoted values that compare
#: equal, a node whose properties repeat its instance triple
HAND = [
    '(a / alpha :mod (b / beta) :mod b :polarity - :polarity -)',
    '(a / alpha :TOP top :quant 2 :quant "2" :ARG0-of (b / beta :ARG1 a))',
    '(a / alpha :ARG0 (b / beta :quant-of 5) :ARG0 b :ARG0-of b)',
    '(a :ARG0 (b / Beta_ :name "X Y"))',
    '(a / alpha :instance alpha :domain (b / beta :mod-of a))',
]


def _check(graphs: List[Any], interned: Interned, coder: Coder) -> None:
    for graph in graphs:
        local, relations, total = penman_triples(graph, False)
        coded, count = coder.coded(graph)
        assert coded == interned.coded(local, relations) and count == total, graph.id


def test_hand_made_graphs_code_as_their_triples() -> None:
    interned = Interned()
    _check(mrp.read("\n\n".join(HAND)), interned, Coder(interned))


def test_random_graphs_code_as_their_triples_across_generations() -> None:
    rng = random.Random(7)
    interned = Interned()
    coder = Coder(interned)
    for _ in range(3):
        _check(mrp.read("\n\n".join(_amr(rng, rng.randrange(1, 12)) for _ in range(300))), interned, coder)
        interned.clear()  # a new generation: the coder's ids are made again


@pytest.mark.parametrize("name", ["data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr",
                                  "data/wsj/amr/wsj.amr", "reference/rematch/testbed-2k.a.amr"])
def test_shared_graphs_code_as_their_triples(name: str) -> None:
    path: Path = shared_file(name)
    interned = Interned()
    _check(mrp.read(path), interned, Coder(interned))


def test_same_is_the_triples_equality() -> None:
    """Coded graphs are the same exactly when their triples' dicts are equal node by node (their rows in
    another order too: a node's constants written in another order)."""
    rng = random.Random(8)
    texts = [_amr(rng, rng.randrange(1, 5)) for _ in range(150)]
    texts += ['(a / alpha :quant 1 :polarity -)', '(a / alpha :polarity - :quant 1)',
              '(a / alpha :ARG0 (b / beta) :ARG1 (c / beta))',
              '(a / alpha :ARG1 (c / beta) :ARG0 (b / beta))']
    graphs = mrp.read("\n\n".join(texts))
    interned = Interned()
    coder = Coder(interned)
    made = [(penman_triples(graph, False), coder.coded(graph)[0]) for graph in graphs]
    equal = 0
    for (triples, coded) in made:
        for (others, theirs) in made:
            expected = triples[0] == others[0] and triples[1] == others[1]
            assert same(coded, theirs) == expected
            equal += expected
    assert equal > len(made) + 2  # some different graphs have the same triples (the written order differs)
