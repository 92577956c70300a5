"""Turning a pair of normalized graphs into the solver's integer arrays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Hashable, List, Mapping, Tuple

import numpy as np

from ..normalize import NormalGraph


@dataclass
class Problem:
    """The solver's input for one graph pair (see mrp.score.solver.solve)."""

    U: np.ndarray
    src: np.ndarray
    tgt: np.ndarray
    lab: np.ndarray
    cptr: np.ndarray
    cc: np.ndarray
    cd: np.ndarray
    cf: np.ndarray
    cw: np.ndarray
    ssrc: np.ndarray
    stgt: np.ndarray


def _ids(values: List[Hashable], table: Dict[Hashable, int]) -> np.ndarray:
    out = np.full(len(values), -1, np.int64)
    for k, value in enumerate(values):
        if value is not None:
            out[k] = table.setdefault(value, len(table))
    return out


def build(gold: NormalGraph, system: NormalGraph) -> Problem:
    """Node rewards (tops, labels, properties, anchors, loops) and edge candidates with weights."""
    n, m = len(gold), len(system)
    U = np.zeros((n, m), np.int64)
    if n and m:
        U += np.outer(np.array(gold.tops, np.int64), np.array(system.tops, np.int64))
        table: Dict[Hashable, int] = {}
        for gv, sv in ((gold.labels, system.labels), (gold.anchors, system.anchors)):
            gids, sids = _ids(list(gv), table), _ids(list(sv), table)
            U += (gids[:, None] == sids[None, :]) & (gids[:, None] >= 0)
        where: Dict[Tuple[str, str], List[int]] = {}
        for j, pairs in enumerate(system.properties):
            for pair in pairs:
                where.setdefault(pair, []).append(j)
        for i, pairs in enumerate(gold.properties):
            for pair in pairs:
                for j in where.get(pair, ()):
                    U[i, j] += 1
    gold_edges = {key: frozenset(attributes) for key, attributes in gold.edges.items()}
    system_edges = {key: frozenset(attributes) for key, attributes in system.edges.items()}
    return _with_edges(U, gold_edges, system_edges, lambda mine, theirs: 1 + len(mine & theirs))


def from_triples(local_g: List[Dict[Hashable, int]], local_s: List[Dict[Hashable, int]],
                 rel_g: Dict[Tuple[int, int, Hashable], int],
                 rel_s: Dict[Tuple[int, int, Hashable], int]) -> Problem:
    """The solver's input for triple counts (SMATCH): node-local triples and relations by key.

    Each count is a multiplicity; two matched triples are worth the product of
    theirs (the original SMATCH tool counts duplicates that way; with sets every
    multiplicity is 1).
    """
    n, m = len(local_g), len(local_s)
    U = np.zeros((n, m), np.int64)
    where: Dict[Hashable, List[Tuple[int, int]]] = {}
    for j, triples in enumerate(local_s):
        for key, count in triples.items():
            where.setdefault(key, []).append((j, count))
    for i, triples in enumerate(local_g):
        for key, count in triples.items():
            for j, theirs in where.get(key, ()):
                U[i, j] += count * theirs
    return _with_edges(U, rel_g, rel_s, lambda mine, theirs: mine * theirs)


def _with_edges(U: np.ndarray, gold: Mapping[Tuple[int, int, Any], Any],
                system: Mapping[Tuple[int, int, Any], Any], weight: Callable[[Any, Any], int]) -> Problem:
    """The Problem for rewards U and edges keyed (source, target, label) with a payload each.

    A gold edge and a system edge with the same label match with ``weight(gold
    payload, system payload)``; loops can only match loops and go into U.
    """
    labels: Dict[Hashable, int] = {}
    s_edges: Dict[Hashable, List[Tuple[int, int, int, Any]]] = {}
    s_loops: Dict[Hashable, List[Tuple[int, Any]]] = {}
    ssrc: List[int] = []
    stgt: List[int] = []
    for (c, d, key), payload in system.items():
        if c == d:
            s_loops.setdefault(key, []).append((c, payload))
        else:
            s_edges.setdefault(key, []).append((c, d, len(ssrc), payload))
            ssrc.append(c)
            stgt.append(d)
    src: List[int] = []
    tgt: List[int] = []
    lab: List[int] = []
    cptr = [0]
    cc: List[int] = []
    cd: List[int] = []
    cf: List[int] = []
    cw: List[int] = []
    for (a, b, key), payload in gold.items():
        if a == b:
            for j, theirs in s_loops.get(key, ()):
                U[a, j] += weight(payload, theirs)
            continue
        src.append(a)
        tgt.append(b)
        lab.append(labels.setdefault(key, len(labels)))
        for c, d, f, theirs in s_edges.get(key, ()):
            cc.append(c)
            cd.append(d)
            cf.append(f)
            cw.append(weight(payload, theirs))
        cptr.append(len(cc))

    def array(values: List[int]) -> np.ndarray:
        return np.array(values, np.int64)

    return Problem(U, array(src), array(tgt), array(lab), array(cptr), array(cc), array(cd), array(cf),
                   array(cw), array(ssrc), array(stgt))
