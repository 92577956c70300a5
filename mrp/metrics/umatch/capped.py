"""juːmæʧ's sentence pairs beyond ``--max-memory``: what their correspondence would take, and a map made
without it.

The cost of a sentence pair is estimated before anything is allocated, from its node counts and its
candidate links (node pairs sharing an aligned token, or unaligned with equal extended concepts: counted
per token and per concept, in linear time), at the bytes each was measured to take:

* the exact correspondence (default) builds, for every gold node x system node, the allowed pairs and the
  node rewards as Python lists of lists, the plain search's objective and the branch and bound's arrays:
  :data:`BYTES_PER_CELL` per node pair; before them, its start (the comparator's greedy) holds the
  candidate links: :data:`BYTES_PER_LINK` each.  The two come one after the other: the larger counts;
* ``--umatch-compat`` (the comparator's greedy alone): :data:`BYTES_PER_LINK` per candidate link, which
  sparse token alignments keep far below the node pairs.

A sentence pair beyond the cap gets :func:`linear_map` (nodes the comparator's rule allows, matched by
equal concepts and tokens in order), is counted as juːmæʧ counts (node by node: linear), and is cut as
"limit" with the trivial bound of :func:`bound`.
"""

from __future__ import annotations

from collections import deque
from typing import Deque, Dict, Hashable, List, Optional, Tuple

from mrp.metrics.umatch.model import Node, Nodes, Sentence
from mrp.metrics.umatch.triples import Selection, count
from mrp.solver import need_bytes as need_cells
from mrp.solver import within_memory as within

#: bytes per gold node x system node of the exact correspondence's structures (measured, peak RSS above the
#: process before the pair, on synthetic trees with --timeout 30: 87 bytes at 2,000 x 2,000 nodes, 70% of
#: them aligned to tokens; 136 at 1,500 x 1,500 unaligned nodes of one concept, where every pair is allowed
#: and the plain search's objective holds an int object per pair); the larger, rounded up
BYTES_PER_CELL = 150
#: bytes per candidate link of the comparator's greedy (measured, tracemalloc: the links both ways and the
#: first round's weighed links, 411 bytes a link at 1,000 x 1,000 nodes, 9,424 links; 363 at 500 x 500
#: unaligned nodes of one concept, 250,000 links); the larger, rounded down to the next hundred
BYTES_PER_LINK = 400


def _tokens(node: Node, width: int) -> Optional[Tuple[int, ...]]:
    """The node's aligned token positions within the sentence's ``width`` tokens; None when unaligned."""
    return None if node.alignment is None else tuple(k for k in node.alignment if k < width)


def links(sentence0: Sentence, sentence1: Sentence, width: Optional[int] = None) -> int:
    """How many candidate links the comparator's rule gives two sentences, at most (a node pair sharing
    several tokens counts once per token), without making them.

    Args:
        sentence0: the first file's sentence.
        sentence1: the other file's.
        width: the tokens alignments count within (None: the first sentence's).

    Returns:
        The number of links.
    """
    width = len(sentence0.tokens) if width is None else width
    tokens, loose = census(sentence0, width)
    theirs, unaligned = census(sentence1, width)
    return sum(n * theirs.get(k, 0) for k, n in tokens.items()) + \
        sum(n * unaligned.get(k, 0) for k, n in loose.items())


def census(sentence: Sentence, width: int) -> Tuple[Dict[int, int], Dict[str, int]]:
    """A sentence's nodes as :func:`links` counts them: per token position within ``width``, the nodes
    aligned to it; per extended concept, the unaligned nodes. Kept beside the nodes (a sentence's
    :class:`~mrp.metrics.umatch.model.Nodes`) for the last width, while their number stays: the runs of one
    preparation and a kept gold sentence's next pairings share it (nodes are not realigned once read)."""
    nodes = sentence.nodes
    kept = getattr(nodes, "census", None)
    if kept is not None and kept[0] == width and kept[1] == len(nodes):
        return kept[2], kept[3]
    tokens: Dict[int, int] = {}
    loose: Dict[str, int] = {}
    for node in nodes.values():
        if node.alignment is None:
            concept = node.econcept or ""
            loose[concept] = loose.get(concept, 0) + 1
        else:
            for k in node.alignment:
                if k < width:
                    tokens[k] = tokens.get(k, 0) + 1
    if isinstance(nodes, Nodes):
        nodes.census = (width, len(nodes), tokens, loose)
    return tokens, loose


def need(sentence0: Sentence, sentence1: Sentence, compat: bool) -> int:
    """Bytes a sentence pair's correspondence would take, estimated before anything is allocated.

    Args:
        sentence0: the gold (first file's) sentence.
        sentence1: the system (other file's) sentence.
        compat: the comparator's greedy alone (``--umatch-compat``) rather than the exact correspondence.

    Returns:
        The estimate in bytes.
    """
    greedy = BYTES_PER_LINK * links(sentence0, sentence1)
    if compat:
        return greedy
    return max(need_cells(len(sentence0.nodes), len(sentence1.nodes), BYTES_PER_CELL), greedy)


def fits(sentence0: Sentence, sentence1: Sentence, max_memory: Optional[int], compat: bool) -> bool:
    """Whether a sentence pair's correspondence may be made under the cap.

    Args:
        sentence0: the gold (first file's) sentence.
        sentence1: the system (other file's) sentence.
        max_memory: the cap in bytes (``--max-memory``; None: no cap).
        compat: ``--umatch-compat``.

    Returns:
        True when :func:`need` is within the cap.
    """
    return within(need(sentence0, sentence1, compat), max_memory)


def _keys(stage: int, node: Node, tokens: Optional[Tuple[int, ...]]) -> List[Hashable]:
    """What a node is matched by at each stage of :func:`linear_map` (none: not at that stage)."""
    concept = node.econcept or ""
    if stage == 0:
        return [concept] if tokens is None else []
    if stage == 1:
        return [(concept, tokens)] if tokens else []
    if stage == 2:
        return [(concept, k) for k in tokens or ()]
    return list(tokens or ())


def linear_map(gold: List[Node], system: List[Node], width: int) -> List[int]:
    """A map gold node -> system node (or -1), injective, of node pairs the comparator's rule allows, in
    time linear in the nodes and their tokens: unaligned nodes of equal extended concept in order; then
    aligned nodes with equal concept and tokens, then equal concept and a shared token, then a shared
    token, each in order.

    Args:
        gold: the gold sentence's nodes, in order.
        system: the system sentence's nodes, in order.
        width: the tokens alignments count within.

    Returns:
        Per gold node, its system node's position or -1.
    """
    mapping = [-1] * len(gold)
    used = [False] * len(system)
    mine = [_tokens(node, width) for node in gold]
    theirs = [_tokens(node, width) for node in system]
    for stage in range(4):
        waiting: Dict[Hashable, Deque[int]] = {}
        for j, node in enumerate(system):
            if not used[j]:
                for key in _keys(stage, node, theirs[j]):
                    waiting.setdefault(key, deque()).append(j)
        for i, node in enumerate(gold):
            if mapping[i] >= 0:
                continue
            for key in _keys(stage, node, mine[i]):
                free = waiting.get(key)
                while free and used[free[0]]:
                    free.popleft()
                if free:
                    j = free.popleft()
                    mapping[i], used[j] = j, True
                    break
    return mapping


def attach(mapping: List[int], gold: List[Node], system: List[Node], label0: str, label1: str) -> None:
    """Record a map as the nodes' projections (each node's counterpart in the other file, or none).

    Args:
        mapping: per gold node, its system node's position or -1.
        gold: the nodes of file ``label0``'s sentence, in the map's order.
        system: the nodes of file ``label1``'s sentence.
        label0: the gold file's label.
        label1: the system file's label.
    """
    for node in gold:
        node.cross[label1] = {}
    for node in system:
        node.cross[label0] = {}
    for i, j in enumerate(mapping):
        if j >= 0:
            gold[i].cross[label1] = {system[j].variable: 1}
            system[j].cross[label0] = {gold[i].variable: 1}


def bound(sentence0: Sentence, sentence1: Sentence, total0: int, selection: Selection) -> int:
    """The trivial bound of a sentence pair's correct count under any 1:1 map: each system node's pairs
    match at most once, and each gold document-level relation at most once.

    Args:
        sentence0: the gold sentence.
        sentence1: the system sentence.
        total0: the pair's gold count (its nodes' pairs and its document-level relations).
        selection: the relations counted.

    Returns:
        ``total0`` less whatever of the gold nodes' pairs exceeds the system nodes' pairs.
    """
    mine = sum(count(node, selection) for node in sentence0.nodes.values())
    theirs = sum(count(node, selection) for node in sentence1.nodes.values())
    return total0 - max(0, mine - theirs)
