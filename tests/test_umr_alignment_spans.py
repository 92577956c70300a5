"""A UMR alignment line's spans at every edge of its sentence (0, 1, the last token, one past it, reversed,
``0-0`` and ``-1--1``, one span or several): the node's anchors and the reader's problem, against the rule
stated as character offsets of the joined words."""

from __future__ import annotations

import itertools
from typing import List, Optional, Tuple

from mrp.codecs.umr import parse_documents
from mrp.io.source import Line

WORDS = ["The", "old", "cat", "sleeps", "soundly"]

TEMPLATE = """\
# :: snt1
Words: {words}

# sentence level graph:
(s1s / sleep-01
    :ARG0 (s1c / cat))

# alignment:
s1s: {spans}
s1c: 0-0

# document level annotation:
(s1s0 / sentence)
"""


def _expected(spans: List[Tuple[int, int]]) -> Tuple[Optional[List[Tuple[int, int]]], Optional[str]]:
    """Anchors (character offsets in the words joined by spaces) or the problem of the first bad span."""
    count = len(WORDS)
    anchors = []
    for start, end in spans:
        if (start, end) in ((0, 0), (-1, -1)):
            continue
        if end < start:
            return None, f"span {start}-{end} ends before it starts"
        if start < 1 or end > count:
            return None, f"span {start}-{end} is outside the sentence (tokens 1-{count})"
        begin = len(" ".join(WORDS[:start - 1])) + (1 if start > 1 else 0)
        anchors.append((begin, len(" ".join(WORDS[:end]))))
    return anchors or None, None


def test_spans_at_the_sentence_edges() -> None:
    edges = [-1, 0, 1, 2, 4, 5, 6]
    singles = [[span] for span in itertools.product(edges, edges)]
    pairs = [[(1, 2), span] for span in itertools.product(edges, edges)]
    pairs += [[(0, 0), (5, 5)], [(6, 6), (1, 1)]]
    for spans in singles + pairs:
        text = TEMPLATE.format(words=" ".join(WORDS), spans=", ".join(f"{a}-{b}" for a, b in spans))
        [document] = parse_documents([Line(k, line) for k, line in enumerate(text.split("\n"), 1)], "t.umr")
        [graph] = document.graphs
        anchors, problem = _expected(spans)
        node = graph.nodes[0]
        assert graph.input == " ".join(WORDS)
        if problem is None:
            assert node.anchors == anchors and not document.problems, spans
        else:
            assert node.anchors is None, spans
            assert [p.message for p in document.problems] == [f"alignment of 's1s': {problem}"], spans
