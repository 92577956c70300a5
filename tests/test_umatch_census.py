"""juːmæʧ's shortcuts in preparing a sentence pair give what the rules they skip give, on every shared UMR
file: the candidate links' count (``--max-memory``'s estimate, from each sentence's census kept beside its
nodes) equals the links counted node pair by node pair, at any width and again once kept; the first
alignment line compare_umr.pl stops at (read without making the lines' positions) is the first line its
one-line rule (:func:`mrp.metrics.umatch.reading.alignment_line`) finds a problem in; and the profiles of
mrp's reading made from a compat reading (moved from the compat reading's) are those made afresh."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Tuple

import pytest

from mrp.corpora.load import read_corpus
from mrp.metrics.umatch import capped, graphs
from mrp.metrics.umatch.model import Nodes, Sentence
from mrp.metrics.umatch.reading import alignment_line, unread_alignment
from mrp.metrics.umatch.triples import ALL, Profile, Selection, profiles

from conftest import shared_file


def _files() -> List[Path]:
    czech = shared_file("data", "umr", "czech-pdtc")
    return sorted(czech.glob("*.umr")) + sorted(shared_file("data", "umr", "english").glob("*.umr"))


def _pairwise(first: Sentence, second: Sentence, width: int) -> int:
    """The links node pair by node pair: unaligned nodes of equal extended concept link once, aligned
    nodes once per token they share below ``width``."""
    total = 0
    for a in first.nodes.values():
        for b in second.nodes.values():
            if a.alignment is None and b.alignment is None:
                total += (a.econcept or "") == (b.econcept or "")
            elif a.alignment is not None and b.alignment is not None:
                total += len({k for k in a.alignment if k < width} & set(b.alignment))
    return total


@pytest.mark.parametrize("compat", [True, False])
def test_links_equal_the_node_pairs_at_every_width(compat: bool) -> None:
    pairs = 0
    for path in _files():
        made = [graphs.sentence(graph, k, compat=compat)
                for k, graph in enumerate(read_corpus(str(path), "umr").graphs, 1)]
        for first, second in zip(made, made[1:] + made[:1]):  # each sentence against the next
            full = len(first.tokens)
            for width in (full, max(0, full - 3), full, 1):  # a kept census is made again for another width
                assert capped.links(first, second, width) == _pairwise(first, second, width)
                pairs += 1
            assert capped.links(first, second) == _pairwise(first, second, full)
            assert capped.links(first, first) == _pairwise(first, first, full)
    assert pairs > 1000


def _first_problem(lines: List[Tuple[int, str]], variables: List[str]) -> Optional[Tuple[int, str]]:
    """The first line (comment cut, stripped) that the one-line rule finds a problem in."""
    for number, text in lines:
        rest = text.split("#", 1)[0].strip()
        if rest:
            problems = alignment_line(rest, variables)[2]
            if problems:
                return number, problems[0]
    return None


#: lines around the rule's edges (the variable "x" is known, "y" is not)
EDGES = ["x: 0-0", "x: 1-1", "x: 2-1", "x: 0-3", "x: 3-0", "x: 1-3, 0-0", "x: 1-3,4-4", "x: 1-3 , 5-2",
         "x: 01-02", "x: 10-9", "x: 9-10", "y: 1-1", "x 1-1", "x: 1-", "x: -1--1", "x: 1-1 # a comment",
         "x:1-1", "x: 0-0, 1-1", "x: 1-1, 0-0", "x: 7-7,  8-12,13-13", "x: 1-1 2-2", ""]


def test_the_first_unread_alignment_line_is_the_rules() -> None:
    blocks = 0
    for path in _files():
        for graph in read_corpus(str(path), "umr").graphs:
            if graph.document is None or not graph.document.alignment:
                continue
            variables = list((graph.variables or {}).values())
            lines = list(graph.document.alignment)
            assert unread_alignment(lines, set(variables)) == _first_problem(lines, variables)
            blocks += 1
    assert blocks > 100
    for first in EDGES:
        for second in EDGES:
            lines = [(1, "x: 1-2"), (2, first), (3, second)]
            assert unread_alignment(lines, {"x"}) == _first_problem(lines, ["x"]), (first, second)


@pytest.mark.parametrize("selection", [ALL, Selection.of(["ARG0", "concept", "op1"]),
                                       Selection.of(None, ["mod"])])
def test_profiles_moved_to_mrps_reading_are_made_afresh(selection: Selection) -> None:
    moved = 0
    for path in sorted(shared_file("data", "umr", "english").glob("*.umr")):
        for k, graph in enumerate(read_corpus(str(path), "umr").graphs, 1):
            compat = graphs.sentence(graph, k, compat=True)
            if compat.unread is None:
                continue
            profiles(compat.nodes, selection)  # as the compat run makes them
            mine = graphs.whole(compat)
            assert isinstance(mine.nodes, Nodes)
            kept = dict(mine.nodes.profiles)
            for variable, node in mine.nodes.items():
                fresh, found = Profile(node, mine.nodes, selection), kept[variable]
                assert (found.node, found.selection, found.size, found.fixed, found.fixed_total, found.own,
                        found.own_total, found.names) == \
                    (node, selection, fresh.size, fresh.fixed, fresh.fixed_total, fresh.own, fresh.own_total,
                     fresh.names)
                assert [(a, b, id(c)) for a, b, c in found.edges] == \
                    [(a, b, id(c)) for a, b, c in fresh.edges]
                assert all(c is mine.nodes[b].cross for _, b, c in found.edges)
                moved += 1
            assert profiles(mine.nodes, selection) is mine.nodes.profiles
            assert all(kept[v] is p for v, p in profiles(mine.nodes, selection).items())
    assert moved > 1000
