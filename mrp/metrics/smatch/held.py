"""What SMATCH's scoring together holds of a graph (:class:`Held`): its triples coded with the run's ids
(:class:`mrp.solver.batch_rows.Interned`), from which the solver renumbers a batch's rows in one compiled
call, their count, and whether it is a document."""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

from mrp.engine import document_root
from mrp.engine import node_sentences as groups
from mrp.graph import Graph
from mrp.metrics.smatch.penman import Local, Relations
from mrp.solver import Coded, Interned

__all__ = ["Held", "coded_held", "held", "plain_held", "same"]


class Held(NamedTuple):
    """A graph's triples as scoring together holds them."""

    #: the triples with ids of the Interned of their generation (``Interned.generation``)
    coded: Coded
    #: how many triples there are (copies counted)
    total: int
    #: whether the graph is a document whose nodes sit in sentences, its triples one node's per node (as
    #: :func:`mrp.engine.seed.sentence_groups` asks: a pair of them is scored alone)
    document: bool


def held(graph: Graph, made: Tuple[Local, Relations, int], interned: Interned) -> Held:
    """A graph's Held from its triples.

    Args:
        graph: the graph.
        made: its triples.
        interned: the ids to code them with (new keys and labels are added).

    Returns:
        The triples coded, their count, and whether the graph is a document.
    """
    return coded_held(graph, interned.coded(made[0], made[1]), made[2])


def coded_held(graph: Graph, coded: Coded, total: int) -> Held:
    """A graph's Held from its triples coded already (one triple-dict per node).

    Args:
        graph: the graph.
        coded: its triples coded.
        total: their count.

    Returns:
        The Held.
    """
    return Held(coded, total, coded.n == len(graph.nodes) and groups(graph) is not None)


def plain_held(graph: Graph, root: Optional[str], coded: Coded, total: int) -> Held:
    """:func:`coded_held` of a graph not built yet from its text's Plain or Scanned form (coded from it):
    built only when its root makes it a document.

    Args:
        graph: the graph.
        root: its root's label.
        coded: its triples coded (:meth:`~mrp.metrics.smatch.coded.Coder.coded_plain`).
        total: their count.

    Returns:
        The Held.
    """
    document = document_root(root) and groups(graph) is not None
    return Held(coded, total, document)


def same(gold: Coded, system: Coded) -> bool:
    """Whether two graphs coded by one Interned have the same triples node by node (each node's triples,
    whatever their order, and the same relations): the identity then matches every triple."""
    if gold.n != system.n or len(gold.local) != len(system.local) or \
            len(gold.relations) != len(system.relations):
        return False
    if gold.local == system.local and gold.relations == system.relations:
        return True
    # a node's triples, and the relations, each once: the same rows in another order are the same triples
    return sorted(zip(*[iter(gold.local)] * 3)) == sorted(zip(*[iter(system.local)] * 3)) and \
        sorted(zip(*[iter(gold.relations)] * 4)) == sorted(zip(*[iter(system.relations)] * 4))
