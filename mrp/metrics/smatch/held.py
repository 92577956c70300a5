"""What SMATCH's scoring together holds of a graph (:class:`Held`): its triples, whether it is a document,
and the triples coded with the run's ids (:class:`mrp.solver.batch_rows.Interned`), from which the
solver renumbers a batch's rows in one compiled call."""

from __future__ import annotations

from typing import NamedTuple, Tuple

from mrp.engine import node_sentences as groups
from mrp.graph import Graph
from mrp.metrics.smatch.penman import Local, Relations
from mrp.solver import Coded, Interned

__all__ = ["Held", "held"]


class Held(NamedTuple):
    """A graph's triples as scoring together holds them."""

    #: the graph's triples (node-local ones, relations, and how many there are)
    triples: Tuple[Local, Relations, int]
    #: whether the graph is a document whose nodes sit in sentences, its triples one node's per node (as
    #: :func:`mrp.engine.seed.sentence_groups` asks: a pair of them is scored alone)
    document: bool
    #: the triples with ids of the Interned of their generation (``Interned.generation``)
    coded: Coded


def held(graph: Graph, made: Tuple[Local, Relations, int], interned: Interned) -> Held:
    """A graph's Held.

    Args:
        graph: the graph.
        made: its triples.
        interned: the ids to code them with (new keys and labels are added).

    Returns:
        The triples, whether the graph is a document, and the triples coded.
    """
    return Held(made, len(made[0]) == len(graph.nodes) and groups(graph) is not None,
                interned.coded(made[0], made[1]))
