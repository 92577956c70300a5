"""AnCast++'s closures of temporal and coreference relations.

Relations become directed steps between integer node ids: temporal ``after``
and ``before`` a precedence step ``r`` (from the later to the earlier node),
``depends-on`` a step ``dp``, ``contained`` and ``includes`` a pair ``dn``/``up``
(AnCast++ reads both the same way), ``overlap`` a step ``o`` from the smaller
id; coreference ``same-entity`` steps ``sn`` both ways, ``same-event`` a step
``sv`` (AnCast++ adds it twice to the tail and none to the head),
``subset-of`` ``up``/``dn``.  Other labels are ignored (e.g. temporal
``contains``).

From every node a depth-first walk composes steps (``r`` after ``dn`` stays
``r``, ``sn`` then ``up`` is ``up``, ...).  Each composed fact is a tuple
``(a, b, kind)``; the walks from nodes that touch are merged into clusters,
and a cluster counts as many times as the nodes its walks visited.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

Fact = Tuple[int, int, str]
Steps = Dict[int, List[Tuple[int, str]]]

_COMPOSE: Dict[Tuple[str, str], str] = {
    ("r", "r"): "r", ("r", "dn"): "r", ("up", "r"): "r", ("up", "up"): "up", ("dn", "dn"): "dn",
    ("sv", "sv"): "sv", ("sn", "sn"): "sn",
    ("sn", "dn"): "dn", ("sv", "dn"): "dn", ("sn", "up"): "up", ("sv", "up"): "up",
    ("dn", "sn"): "dn", ("dn", "sv"): "dn", ("up", "sn"): "up", ("up", "sv"): "up",
    ("sn", "sv"): "sn", ("sv", "sn"): "sv",
}


def temporal_steps(relations: Dict[Tuple[int, int], str]) -> Steps:
    """The steps of temporal relations ((head, tail) -> label, in insertion order)."""
    steps: Steps = {}
    for (head, tail), label in relations.items():
        if label == "after":
            steps.setdefault(head, []).append((tail, "r"))
        elif label == "before":
            steps.setdefault(tail, []).append((head, "r"))
        elif label == "depends-on":
            steps.setdefault(head, []).append((tail, "dp"))
        elif label in ("contained", "includes"):
            steps.setdefault(tail, []).append((head, "dn"))
            steps.setdefault(head, []).append((tail, "up"))
        elif label == "overlap":
            steps.setdefault(min(head, tail), []).append((max(head, tail), "o"))
    return steps


def coref_steps(relations: Dict[Tuple[int, int], str]) -> Steps:
    """The steps of coreference relations ((head, tail) -> label, in insertion order)."""
    steps: Steps = {}
    for (head, tail), label in relations.items():
        if label == "same-entity":
            steps.setdefault(head, []).append((tail, "sn"))
            steps.setdefault(tail, []).append((head, "sn"))
        elif label == "same-event":
            steps.setdefault(tail, []).append((head, "sv"))
            steps.setdefault(tail, []).append((head, "sv"))
        elif label == "subset-of":
            steps.setdefault(head, []).append((tail, "up"))
            steps.setdefault(tail, []).append((head, "dn"))
    return steps


def _compose(first: str, second: str) -> Optional[str]:
    if first == "ref":
        return second
    return _COMPOSE.get((first, second))


def _fact(a: int, b: int, kind: str) -> Fact:
    if kind == "up":
        return (b, a, "dn")
    if kind in ("sv", "sn", "o"):
        return (min(a, b), max(a, b), kind)
    return (a, b, kind)


def _root(parent: Dict[int, int], node: int) -> int:
    if node not in parent:
        parent[node] = node
        return node
    while parent[parent[node]] != parent[node]:
        parent[node] = parent[parent[node]]
    return parent[node]


def clusters(steps: Steps) -> Tuple[List[Tuple[Set[Fact], Set[int]]], Set[Fact]]:
    """The clusters (facts, visited nodes) of a step graph, and the set of all facts."""
    per_start: Dict[int, Tuple[Set[Fact], Set[int]]] = {}
    parent: Dict[int, int] = {}
    for start in steps:
        parent[start] = _root(parent, start)
        facts: Set[Fact] = set()
        visited: Set[int] = set()
        stack: List[Tuple[int, str]] = [(start, "ref")]
        while stack:
            now, kind = stack.pop()
            visited.add(now)
            for following, step in steps[now]:
                parent[_root(parent, following)] = parent[start]
                composed = _compose(kind, step)
                if composed is None:
                    continue
                if following not in visited:
                    facts.add(_fact(start, following, composed))
                    if following in steps:
                        stack.append((following, composed))
                    else:
                        visited.add(following)
                elif following != start or composed not in ("sn", "sv", "ref"):
                    facts.add(_fact(start, following, composed))
        per_start[start] = (facts, visited)
    for node in list(parent):
        if parent[parent[node]] != parent[node]:
            parent[node] = _root(parent, node)
    everything: Set[Fact] = set()
    for node in steps:
        everything |= per_start[node][0]
        if parent[node] != node:
            per_start[parent[node]][0].update(per_start[node][0])
            per_start[parent[node]][1].update(per_start[node][1])
            del per_start[node]
    return list(per_start.values()), everything


def overlap(mine: Steps, theirs: Steps) -> Tuple[float, float, float, float]:
    """(score, count) of each side: every cluster, weighted by its visited nodes, scores its share of
    facts found among the other side's facts."""
    clusters_m, all_m = clusters(mine)
    clusters_t, all_t = clusters(theirs)
    score_m = count_m = 0.0
    for facts, visited in clusters_m:
        score_m += len(visited) * (len(facts & all_t) / len(facts) if facts else 0.0)
        count_m += len(visited)
    score_t = count_t = 0.0
    for facts, visited in clusters_t:
        score_t += len(visited) * (len(facts & all_m) / len(facts) if facts else 0.0)
        count_t += len(visited)
    return score_m, count_m, score_t, count_t
