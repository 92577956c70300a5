"""Pairing gold and system graphs by (framework, id)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from ..errors import FormatError
from ..graph import Graph
from ..load import Corpus

Key = Tuple[Optional[str], str]


@dataclass
class Pair:
    """A gold graph and its system graph (an empty graph when the system has none)."""

    gold: Graph
    system: Graph
    null: bool


@dataclass
class Pairing:
    """Pairs in gold file order, and what could not be paired (each counted and reported)."""

    pairs: List[Pair] = field(default_factory=list)
    unpaired: List[Graph] = field(default_factory=list)
    duplicates: List[Graph] = field(default_factory=list)
    invalid: List[FormatError] = field(default_factory=list)


def key(graph: Graph) -> Key:
    """The pairing key of a graph."""
    return (graph.framework, graph.id)


def duplicate_errors(corpus: Corpus) -> List[FormatError]:
    """One error for each graph whose (framework, id) occurred earlier in the same file."""
    first: Dict[Key, Graph] = {}
    errors = []
    for graph in corpus.graphs:
        k = key(graph)
        if k in first:
            where = f" (first at line {first[k].line})" if first[k].line else ""
            errors.append(FormatError(f"duplicate graph id{where}", corpus.name, graph.line, graph.id,
                                      graph.framework))
        else:
            first[k] = graph
    return errors


def pair(gold: Corpus, system: Corpus, frameworks: Optional[Sequence[str]] = None) -> Pairing:
    """Pair a valid gold corpus with a system corpus.

    A system graph that could not be read but whose id is known stands as an
    empty graph (it scores zero and is counted in ``invalid``); a gold graph
    without a system graph is paired with an empty graph (``null``).
    """
    keep = set(frameworks) if frameworks else None
    result = Pairing()
    golds = [g for g in gold.graphs if keep is None or g.framework in keep]
    gold_keys = {key(g) for g in golds}
    by_key: Dict[Key, Graph] = {}
    for graph in system.graphs:
        if keep is not None and graph.framework not in keep:
            continue
        k = key(graph)
        if k in by_key:
            result.duplicates.append(graph)
        elif k not in gold_keys:
            result.unpaired.append(graph)
        else:
            by_key[k] = graph
    for error in system.errors:
        if keep is not None and error.framework is not None and error.framework not in keep:
            continue
        result.invalid.append(error)
    for graph in golds:
        partner = by_key.get(key(graph))
        if partner is None:
            result.pairs.append(Pair(graph, graph.empty_copy(), True))
        else:
            result.pairs.append(Pair(graph, partner, not partner.nodes))
    return result
