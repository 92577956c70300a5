"""SMATCH's triples of AMR read from Penman, as the original SMATCH tool (1.0.4) defines them (the
definition: :mod:`mrp.metrics.smatch.metric`): node-local triples by node position, relations by key, and the
triple count.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, Hashable, List, Optional, Tuple

from mrp import rules
from mrp.codecs.penman import Quoted, Symbol
from mrp.graph import Graph
from mrp.memo import Memo

__all__ = ["Local", "Relations", "NOT_INVERTED", "norm", "penman_triples"]

#: Roles ending in -of that the original tool does not invert.
NOT_INVERTED = rules.SMATCH.kept

Local = List[Dict[Hashable, int]]
Relations = Dict[Tuple[int, int, Hashable], int]


def norm(text: Any) -> str:
    """A name or value as SMATCH compares it: lowercased, without trailing `_` or `¦` markers."""
    return str(text).lower().rstrip("\u00a6").rstrip("_")


def _inverse(label: str) -> Optional[str]:
    """The normal role of an inverted one as the original tool reads it (the ``smatch`` variant)."""
    return rules.normal_role(label, rules.SMATCH)


# the same few thousand names and values recur in every graph of a corpus
_norm = lru_cache(maxsize=1 << 16, typed=True)(norm)
_inverted = lru_cache(maxsize=1 << 12)(_inverse)
_TOP = ("TOP", "top")


def penman_triples(graph: Graph, compat: bool) -> Tuple[Local, Relations, int]:
    """Node-local triples, relations (by node position) and the triple count of an AMR graph."""
    if not compat:
        return _penman_sets(graph)
    nodes = graph.nodes
    position = {node.id: k for k, node in enumerate(nodes)}
    local: Local = []
    for node in nodes:
        triples: Dict[Hashable, int] = {("instance", _norm(node.label if node.label is not None else "")): 1}
        for name, value in zip(node.properties, node.values):
            if _inverted(name) is not None:
                continue  # the tool files it under the constant, which is no node: lost
            words = str(value).split()
            key = (_norm(name), _norm(words[0] if words else ""))
            triples[key] = triples.get(key, 0) + 1
        local.append(triples)
    if nodes:
        root = position.get(graph.tops[0], 0) if graph.tops else 0
        local[root][_TOP] = local[root].get(_TOP, 0) + 1
    relations: Relations = {}
    for edge in graph.edges:
        label = edge.label or ""
        a, b = position[edge.source], position[edge.target]
        normal = _inverted(label)
        if normal is not None:
            a, b, label = b, a, normal
        relation = (a, b, _norm(label))
        relations[relation] = relations.get(relation, 0) + 1
    total = sum(sum(triples.values()) for triples in local) + sum(relations.values())
    return local, relations, total


#: text -> its normal form (:func:`norm`), ("instance", normal form) of a concept, and a role as written ->
#: (whether it is inverted, its normal role's normal form): the same few thousand recur in every graph.
#: Only strings are kept (1, True and "1" are equal keys with different normal forms).
_TEXTS: Memo[Any, str] = Memo(1 << 16)
_INSTANCES: Memo[Any, Tuple[str, str]] = Memo(1 << 16)
_ROLES: Memo[str, Tuple[bool, str]] = Memo(1 << 16)
#: the string types kept there (a reader's, whose normal form is that of their text)
_STRINGS = frozenset((str, Symbol, Quoted))


def _text(value: Any) -> str:
    """:func:`norm` of a value, kept for a string."""
    found = _norm(value)
    if type(value) in _STRINGS:
        _TEXTS.keep(value, found)
    return found


def _instance(label: Optional[str]) -> Tuple[str, str]:
    """The instance triple's key of a concept, kept for a string."""
    found = ("instance", _norm(label if label is not None else ""))
    if type(label) in _STRINGS:
        _INSTANCES.keep(label, found)
    return found


def _role(label: str) -> Tuple[bool, str]:
    """Whether a role as written is inverted, and its normal role's normal form (kept)."""
    normal = _inverted(label)
    found = (True, _norm(normal)) if normal is not None else (False, _norm(label))
    return _ROLES.keep(label, found)


def _penman_sets(graph: Graph) -> Tuple[Local, Relations, int]:
    """:func:`penman_triples` without ``compat``: every triple once (the same keys in the same order)."""
    nodes = graph.nodes
    position = {node.id: k for k, node in enumerate(nodes)}
    local: Local = []
    total = 0
    text, instance, strings = _TEXTS.get, _INSTANCES.get, _STRINGS  # the memos' lookups, bound once
    for node in nodes:
        label = node.label
        key = instance(label) if type(label) in strings else None
        triples: Dict[Hashable, int] = {key if key is not None else _instance(label): 1}
        if node.properties:
            for name, value in zip(node.properties, node.values):
                name_key = text(name) if type(name) in strings else None
                value_key = text(value) if type(value) in strings else None
                triples[(name_key if name_key is not None else _text(name),
                         value_key if value_key is not None else _text(value))] = 1
            total += len(triples)
        else:
            total += 1
        local.append(triples)
    if nodes:
        top = local[position.get(graph.tops[0], 0) if graph.tops else 0]
        total += _TOP not in top
        top[_TOP] = 1
    relations: Relations = {}
    role = _ROLES.get
    for edge in graph.edges:
        label = edge.label or ""
        known = role(label)
        inverted, normal = known if known is not None else _role(label)
        if inverted:
            relations[(position[edge.target], position[edge.source], normal)] = 1
        else:
            relations[(position[edge.source], position[edge.target], normal)] = 1
    return local, relations, total + len(relations)
