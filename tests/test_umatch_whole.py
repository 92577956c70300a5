"""juːmæʧ's exact figure takes mrp's reading of a sentence that compare_umr.pl's reading (compat) reads only
in part from that compat reading (:func:`mrp.metrics.umatch.graphs.whole`: what it left out put back),
instead of reading the graph again: field for field, it is the sentence mrp's own reading gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List

import pytest

from mrp.corpora.load import read_corpus
from mrp.metrics.umatch import graphs
from mrp.metrics.umatch.model import Sentence

from conftest import ROOT, shared_file


def _fields(item: Sentence) -> List[Any]:
    nodes = [(v, n.variable, n.concept, n.relations, n.alignment, n.aligned_text, n.econcept, n.line)
             for v, n in item.nodes.items()]
    return [item.number, item.line0, item.line1, item.tokens, item.sid, item.top, item.failure, item.apart,
            item.apart_compared, list(item.docrels.items()), item.greedy, item.unread, nodes]


def _check(path: Path) -> int:
    """Every graph of a file read both ways, with and without --top; how many were derived."""
    derived = 0
    for number, graph in enumerate(read_corpus(str(path), "umr").graphs, 1):
        for top in (False, True):
            compat = graphs.sentence(graph, number, top, compat=True)
            if compat.unread is None:
                continue
            derived += 1
            mine = graphs.whole(compat)
            assert _fields(mine) == _fields(graphs.sentence(graph, number, top))
            assert all(a is not b for a, b in zip(mine.nodes.values(), compat.nodes.values()))
    return derived


def test_sections_set_apart() -> None:
    english = sorted(shared_file("data", "umr", "english").glob("*.umr"))
    assert sum(_check(path) for path in english) > 0


def test_an_alignment_line_compare_umr_stops_at(tmp_path: Path) -> None:
    data = ROOT / "tests" / "data" / "umatch"
    text = (data / "gold.umr").read_text(encoding="utf-8").replace("\ns2s: 2-2\n", "\ns2s: -1--1\n")
    (tmp_path / "gold.umr").write_text(text, encoding="utf-8")
    assert _check(tmp_path / "gold.umr") == 2


@pytest.mark.parametrize("name", ["gold.umr", "system.umr"])
def test_a_sentence_read_whole_has_nothing_unread(name: str) -> None:
    corpus = read_corpus(str(ROOT / "tests" / "data" / "umatch" / name), "umr")
    for number, graph in enumerate(corpus.graphs, 1):
        assert graphs.sentence(graph, number, compat=True).unread is None
