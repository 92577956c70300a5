"""A node alignment of a test and a gold graph, and the concept sums it gives."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List

from mrp.metrics.ancast.similarity import Similar


@dataclass
class Side:
    """Concept sums of one side (precision: over test nodes; recall: over gold nodes)."""

    #: summed initial similarity of matched nodes (unmatched add 0)
    concept: float = 0.0
    count: int = 0
    #: matched nodes with identical name+ops and sense (the mock-Smatch concept triples)
    identical: float = 0.0


@dataclass
class Alignment:
    """test node -> gold node (or -1) and back, how each match was found, and the concept sums."""

    t2g: List[int]
    g2t: List[int]
    #: 0 text anchor, 1..5 broadcast round, -1 greedy, -2 unmatched (the exact alignment: -1 / -2)
    quality_t: List[int] = field(default_factory=list)
    quality_g: List[int] = field(default_factory=list)
    precision: Side = field(default_factory=Side)
    recall: Side = field(default_factory=Side)


def from_map(t2g: List[int], m: int, sim: Similar) -> Alignment:
    """The alignment of an injective map test -> gold, with its concept sums (``sim``: the matrices, or
    the pointwise similarities beyond ``--max-memory``)."""
    g2t = [-1] * m
    for i, j in enumerate(t2g):
        if j >= 0:
            g2t[j] = i
    alignment = Alignment(list(t2g), g2t, [-1 if j >= 0 else -2 for j in t2g],
                          [-1 if i >= 0 else -2 for i in g2t])
    for side, count in ((alignment.precision, len(t2g)), (alignment.recall, m)):
        for i, j in enumerate(t2g):
            if j >= 0:
                side.concept += sim.initial_at(i, j)
                side.identical += float(sim.identical_at(i, j))
        side.count = count
    return alignment
