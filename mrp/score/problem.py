"""Turning a pair of normalized graphs into the solver's integer arrays."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Hashable, List, Optional, Tuple

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
    labels: Dict[Optional[str], int] = {}
    s_edges: Dict[Optional[str], List[Tuple[int, int, int, frozenset]]] = {}
    s_loops: Dict[Optional[str], List[Tuple[int, frozenset]]] = {}
    ssrc: List[int] = []
    stgt: List[int] = []
    for (c, d, label), attributes in system.edges.items():
        if c == d:
            s_loops.setdefault(label, []).append((c, frozenset(attributes)))
        else:
            s_edges.setdefault(label, []).append((c, d, len(ssrc), frozenset(attributes)))
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
    for (a, b, label), attributes in gold.edges.items():
        if a == b:
            for j, theirs in s_loops.get(label, ()):
                U[a, j] += 1 + len(attributes & theirs)
            continue
        src.append(a)
        tgt.append(b)
        lab.append(labels.setdefault(label, len(labels)))
        for c, d, f, theirs in s_edges.get(label, ()):
            cc.append(c)
            cd.append(d)
            cf.append(f)
            cw.append(1 + len(attributes & theirs) if attributes else 1)
        cptr.append(len(cc))

    def array(values: List[int]) -> np.ndarray:
        return np.array(values, np.int64)

    return Problem(U, array(src), array(tgt), array(lab), array(cptr), array(cc), array(cd), array(cf),
                   array(cw), array(ssrc), array(stgt))


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
    labels: Dict[Hashable, int] = {}
    s_edges: Dict[Hashable, List[Tuple[int, int, int, int]]] = {}
    s_loops: Dict[Hashable, List[Tuple[int, int]]] = {}
    ssrc: List[int] = []
    stgt: List[int] = []
    for (c, d, key), count in rel_s.items():
        if c == d:
            s_loops.setdefault(key, []).append((c, count))
        else:
            s_edges.setdefault(key, []).append((c, d, len(ssrc), count))
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
    for (a, b, key), count in rel_g.items():
        if a == b:
            for j, theirs in s_loops.get(key, ()):
                U[a, j] += count * theirs
            continue
        src.append(a)
        tgt.append(b)
        lab.append(labels.setdefault(key, len(labels)))
        for c, d, f, theirs in s_edges.get(key, ()):
            cc.append(c)
            cd.append(d)
            cf.append(f)
            cw.append(count * theirs)
        cptr.append(len(cc))

    def array(values: List[int]) -> np.ndarray:
        return np.array(values, np.int64)

    return Problem(U, array(src), array(tgt), array(lab), array(cptr), array(cc), array(cd), array(cf),
                   array(cw), array(ssrc), array(stgt))
