"""A list of mrp.Graph objects given to the library (a reward function's graphs read already) is taken by
``corpus_of`` without asking what else it could be: into the corpus that the same graphs give as a tuple
(which takes the way of every other kind of list), field for field and error for error, under each read
option: shared AMR and MRP graphs in and out of the positions they were read at, graphs read by a repair,
graphs with ``:wiki``, graphs of another framework, and the options refused for graphs read already."""

from __future__ import annotations

import random
import warnings
from typing import List, Optional, Sequence

from test_corpus_of_strings import _read
from test_penman_one_line import _OPTIONS

import mrp
from mrp.codecs.base import ReadOptions
from mrp.graph import Graph

from conftest import shared_path


def _same(graphs: Sequence[Graph], fmt: Optional[str], options: ReadOptions) -> None:
    """The list and the tuple of the same graphs give the same corpus (or the same error)."""
    listed = _read(list(graphs), fmt, options)
    assert listed == _read(tuple(graphs), fmt, options), ([graph.id for graph in graphs], fmt, options)


def _graphs() -> List[Graph]:
    pairs = shared_path() / "data/pairs/amr"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        odd = mrp.read(["(a / b", '(w / want :wiki "X" :ARG0 (b / boy))', "(c / d :ARG1 (e / f"])
        return [*mrp.read(pairs / "test1.amr"), *mrp.read(pairs / "test1.mrp")[:6], *odd]


_MORE = [ReadOptions(framework="amr"), ReadOptions(framework="eds"), ReadOptions(no_wiki=True, strict=True),
         ReadOptions(memo={}), ReadOptions(wsj_ids=True)]


def test_graphs_as_a_list_are_taken_as_the_same_tuple() -> None:
    graphs = _graphs()
    assert any(graph.repairs for graph in graphs)
    rng = random.Random(6404)
    for options in [*_OPTIONS, *_MORE]:
        for chosen in (graphs, graphs[-3:], graphs[:1], rng.sample(graphs, 5), rng.sample(graphs, 3)):
            _same(chosen, rng.choice([None, "amr", "mrp"]), options)


def test_a_list_mixing_graphs_with_other_items_takes_the_general_way() -> None:
    graphs = _graphs()[:3]
    for mixed in ([*graphs, "(a / b)"], [*graphs, {"id": "1"}]):
        for options in (ReadOptions(), ReadOptions(strict=True)):
            _same(mixed, None, options)
