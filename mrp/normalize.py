"""Normalization before scoring, as the MRP reference scorer defines it.

Each rule is a small function so that it can be tested on a hand-made graph:
anchor union and punctuation trimming, lowercasing (with values turned into
strings), restoring inverted edges, dropping default edge attributes, and the
scoring-time anchor identity (``explode``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, Hashable, List, Optional, Sequence, Set, Tuple

from mrp import rules
from mrp.graph import Anchor, Edge, Graph
from mrp.memo import Memo
from mrp.rules import ATTRIBUTE_DEFAULTS, PUNCTUATION, SPACE, is_default_attribute, lower

__all__ = [
    "ATTRIBUTE_DEFAULTS", "PUNCTUATION", "SPACE", "NormalGraph", "explode", "lower", "normal_edge",
    "normal_label", "normalize", "normalize_anchors", "trim_span", "union_anchors",
]

EdgeKey = Tuple[int, int, Optional[str]]


def union_anchors(spans: Sequence[Anchor], text: Optional[str]) -> List[Anchor]:
    """Merge spans into runs of covered positions, as the reference does.

    A position continues a run when it is adjacent to the last covered one, or
    when ``text[last:p]`` is all whitespace (the reference's test; in practice
    only touching or overlapping spans merge).  Without a text, only adjacent
    positions merge (the reference crashes there).

    Computed on intervals, not positions, so that a span like (0, 10**12)
    costs no more than (0, 1): the covered positions are first merged into
    maximal runs of consecutive positions, then neighbouring runs are joined
    by the reference's whitespace test (the same slice ``text[last:p]``).
    """
    intervals = sorted((start, end) for start, end in spans if end > start)
    covered: List[List[int]] = []
    for start, end in intervals:
        if covered and start <= covered[-1][1]:
            covered[-1][1] = max(covered[-1][1], end)
        else:
            covered.append([start, end])
    runs: List[Anchor] = []
    for start, end in covered:
        if runs and text is not None and all(c in SPACE for c in text[runs[-1][1] - 1:start]):
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((start, end))
    return runs


def trim_span(span: Anchor, text: str) -> Anchor:
    """A span clamped to the text and with punctuation and whitespace removed at both ends."""
    i, j = max(span[0], 0), min(span[1], len(text))
    while i < j and text[i] in PUNCTUATION:
        i += 1
    while j > i and text[j - 1] in PUNCTUATION:
        j -= 1
    return (i, j)


def normalize_anchors(spans: Optional[Sequence[Anchor]], text: Optional[str]) -> Optional[List[Anchor]]:
    """Union then trim (reference §2.2); None when nothing is covered."""
    if spans is None:
        return None
    runs = union_anchors(spans, text)
    if not runs:
        return None
    if text:
        runs = [trim_span(span, text) for span in runs]
    return runs


def explode(spans: Sequence[Anchor], text: Optional[str]) -> Hashable:
    """The anchor identity of a node: its non-whitespace positions after per-span trimming.

    Without a text it is the tuple of spans, which never equals a set of positions.
    """
    if not text:
        return tuple(spans)
    n = len(text)
    positions: Set[int] = set()
    for start, end in spans:
        while start < end and start < n and text[start] in PUNCTUATION:
            start += 1
        while end > start and end - 1 < n and text[end - 1] in PUNCTUATION:
            end -= 1
        positions.update(k for k in range(start, end) if k >= n or text[k] not in SPACE)
    return frozenset(positions)


def normal_label(label: str) -> Optional[str]:
    """The label in normal direction of an inverted role (the ``mrp`` variant of
    :func:`mrp.rules.normal_role`), or None when it is not inverted."""
    return rules.normal_role(label, rules.MRP)


def _normal_label(written: Optional[str], normal: Optional[str]) -> Tuple[bool, Optional[str]]:
    """Whether an edge's ends swap, and its label in normal direction, lowercased (None: no label)."""
    label = written if written != "" else None
    if not normal and label is not None:
        normal = normal_label(label)
    if normal:
        return True, lower(normal)
    return False, None if label is None else lower(label)


#: (label, normal) as written -> _normal_label of them (the same few hundred labels recur in every graph)
_LABELS: Memo[Tuple[Optional[str], Optional[str]], Tuple[bool, Optional[str]]] = Memo(1 << 14)


def normal_edge(edge: Edge) -> Tuple[int, int, Optional[str], FrozenSet[Tuple[str, str]]]:
    """An edge (by node ids) with its inverted role restored, lowercased, default attributes dropped.

    An empty label counts as no label, as in the reference.
    """
    source, target = edge.source, edge.target
    written = (edge.label, edge.normal)
    try:
        known = _LABELS.get(written)
    except TypeError:  # an unhashable label (no reader makes one)
        known = _normal_label(*written)
    if known is None:
        known = _LABELS.keep(written, _normal_label(*written))
    swapped, label = known
    if swapped:
        source, target = target, source
    if not edge.attributes:
        return source, target, label, _NONE
    attributes = set()
    for name, value in zip(edge.attributes, edge.values):
        name, value = lower(name), lower(value)
        if not is_default_attribute(name, value):
            attributes.add((name, value))
    return source, target, label, frozenset(attributes)


@dataclass(slots=True)
class NormalGraph:
    """A graph after normalization, by node position (0..n-1).

    ``edges`` maps each distinct (source, target, label) tuple to its set of
    (attribute, value) pairs; duplicate edges merge their attributes.
    """

    id: str
    framework: Optional[str]
    input: Optional[str]
    node_ids: List[int]
    tops: List[bool]
    labels: List[Optional[str]]
    properties: List[FrozenSet[Tuple[str, str]]]
    anchors: List[Optional[Hashable]]
    edges: Dict[EdgeKey, Set[Tuple[str, str]]]

    def __len__(self) -> int:
        return len(self.node_ids)


_NONE: FrozenSet[Tuple[str, str]] = frozenset()
#: the attributes of every edge that has none (one object: 200,000 empty sets took a third of a 100,000-node
#: graph's normalizing); a frozenset, so that nothing can add to it by mistake
_NO_ATTRIBUTES: FrozenSet[Tuple[str, str]] = frozenset()


def _one_span(span: Anchor, text: str) -> FrozenSet[int]:
    """``explode(normalize_anchors([span], text), text)`` for one span with ``span[1] > span[0]`` and a
    non-empty text (most anchored nodes): the span clamped and trimmed, then its non-space positions."""
    i, j = span
    if i < 0:
        i = 0
    if j > len(text):
        j = len(text)
    while i < j and text[i] in PUNCTUATION:
        i += 1
    while j > i and text[j - 1] in PUNCTUATION:
        j -= 1
    covered = text[i:j]
    positions = None
    for blank in _BLANKS:  # the few blanks between words, found by str.find
        k = covered.find(blank)
        while k >= 0:
            if positions is None:
                positions = set(range(i, j))
            positions.discard(i + k)
            k = covered.find(blank, k + 1)
    return frozenset(range(i, j)) if positions is None else frozenset(positions)


#: the characters of SPACE, each looked for in a span's text
_BLANKS = tuple(sorted(SPACE))
#: (start, end, text) -> :func:`_one_span` (a sentence's spans recur whenever its graphs are scored again)
_SPANS: Memo[Tuple[int, int, str], FrozenSet[int]] = Memo(1 << 16)


def normalize(graph: Graph) -> NormalGraph:
    """Apply every normalization rule of the MRP metric to a graph."""
    text = graph.input
    position: Dict[int, int] = {}
    ids: List[int] = []
    labels: List[Optional[str]] = []
    properties: List[FrozenSet[Tuple[str, str]]] = []
    anchors: List[Optional[Hashable]] = []
    for k, node in enumerate(graph.nodes):
        position[node.id] = k
        ids.append(node.id)
        label = node.label
        labels.append(label.lower() if type(label) is str else None if label is None else lower(label))
        if node.properties:
            properties.append(frozenset(
                (lower(name), lower(value)) for name, value in zip(node.properties, node.values)
            ))
        else:
            properties.append(_NONE)
        spans = node.anchors
        if spans is None:
            anchors.append(None)
        elif text and len(spans) == 1 and spans[0][1] > spans[0][0]:
            where = (spans[0][0], spans[0][1], text)
            found = _SPANS.get(where)
            if found is None:
                found = _SPANS.keep(where, _one_span(spans[0], text))
            anchors.append(found)
        else:
            spans = normalize_anchors(spans, text)
            anchors.append(None if spans is None else explode(spans, text))
    tops = [False] * len(ids)
    for top in graph.tops:
        if top in position:
            tops[position[top]] = True
    edges: Dict[EdgeKey, Set[Tuple[str, str]]] = {}
    known = _LABELS
    for edge in graph.edges:
        at_source, at_target = position.get(edge.source), position.get(edge.target)
        if at_source is None or at_target is None:
            continue
        if not edge.attributes:  # most edges: the label's normal form cached, no attributes
            try:
                cached = known.get((edge.label, edge.normal))
            except TypeError:
                cached = None
            if cached is not None:
                plain: EdgeKey = (at_target, at_source, cached[1]) if cached[0] else (at_source, at_target,
                                                                                      cached[1])
                if plain not in edges:
                    # edges without attributes share one empty set (never changed: see below)
                    edges[plain] = _NO_ATTRIBUTES  # type: ignore[assignment]
                continue
        source, target, label, attributes = normal_edge(edge)
        key: EdgeKey = (position[source], position[target], label)
        if attributes:
            merged = edges.get(key)
            if merged is None or merged is _NO_ATTRIBUTES:
                edges[key] = set(attributes)
            else:
                merged.update(attributes)
        elif key not in edges:
            edges[key] = _NO_ATTRIBUTES  # type: ignore[assignment]
    return NormalGraph(graph.id, graph.framework, text, ids, tops, labels, properties, anchors, edges)
