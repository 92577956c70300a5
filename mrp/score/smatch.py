"""SMATCH: triple overlap under the best node alignment, solved exactly.

Triples come from one of two definitions:

* **AMR read from Penman** (``Options.penman``): as the original SMATCH tool
  (1.0.4) defines them.  An ``instance`` triple per node, an attribute triple
  per constant, the ``TOP`` triple of the root, and a relation triple per
  relation between variables, with inverted roles restored (``X-of`` -> ``X``
  except ``prep-on-behalf-of``, ``prep-out-of`` and ``consist-of``; ``mod`` ->
  ``domain``).  Names and values compare lowercased, without a trailing ``_``
  (the tool's quoted-string marker), so ``"61"`` equals ``61``.
* **MRP graphs**: as the MRP reference scorer converts them (its §5.1), on
  normalized graphs: ``instance`` per labelled node, ``anchor`` per anchored
  node, ``TOP`` (valued with the node's label) per top, a triple per property,
  and relation triples for edges and for each edge attribute.

By default triples are sets, and a multi-word string and an inverted role on a
constant are kept.  ``Options.smatch_compat`` reproduces the original tool's
counts instead: duplicate triples count once per copy (the product of copies
when matched, so a score can exceed 100%), a quoted string keeps only its first
word, and an inverted role on a constant is dropped.

The alignment is the exact optimum of the same branch and bound as the MRP
metric (no random restarts); each item reports ``exact`` and ``bound``.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from typing import Any, Dict, Hashable, List, Optional, Tuple

from ..errors import ScoreError
from ..graph import Graph
from ..normalize import normalize
from ..report import prf
from .metrics import Options, Progress
from .mrp import solve_problem
from .pairing import Pair, Pairing
from .problem import from_triples

#: Roles ending in -of that the original tool does not invert.
NOT_INVERTED = frozenset({"prep-on-behalf-of", "prep-out-of", "consist-of"})

Local = List[Dict[Hashable, int]]
Relations = Dict[Tuple[int, int, Hashable], int]


def norm(text: Any) -> str:
    """A name or value as SMATCH compares it: lowercased, without trailing `_` or `¦` markers."""
    return str(text).lower().rstrip("\u00a6").rstrip("_")


def _inverse(label: str) -> Optional[str]:
    if label.endswith("-of") and label not in NOT_INVERTED:
        return label[:-3]
    if label == "mod":
        return "domain"
    return None


def penman_triples(graph: Graph, compat: bool) -> Tuple[Local, Relations, int]:
    """Node-local triples, relations (by node position) and the triple count of an AMR graph."""
    position = {node.id: k for k, node in enumerate(graph.nodes)}
    local: Local = [Counter() for _ in graph.nodes]
    relations: Relations = Counter()
    for k, node in enumerate(graph.nodes):
        local[k][("instance", norm(node.label if node.label is not None else ""))] += 1
        for name, value in zip(node.properties, node.values):
            text = str(value)
            if compat:
                if _inverse(name) is not None:
                    continue  # the tool files it under the constant, which is no node: lost
                words = text.split()
                text = words[0] if words else ""
            local[k][(norm(name), norm(text))] += 1
    if graph.nodes:
        root = position.get(graph.tops[0], 0) if graph.tops else 0
        local[root][("TOP", "top")] += 1
    for edge in graph.edges:
        label = edge.label or ""
        a, b = position[edge.source], position[edge.target]
        normal = _inverse(label)
        if normal is not None:
            a, b, label = b, a, normal
        relations[(a, b, norm(label))] += 1
    if not compat:
        local = [Counter(dict.fromkeys(triples, 1)) for triples in local]
        relations = Counter(dict.fromkeys(relations, 1))
    total = sum(sum(triples.values()) for triples in local) + sum(relations.values())
    return local, relations, total


def mrp_triples(graph: Graph) -> Tuple[Local, Relations, int]:
    """Triples of a graph as the MRP reference scorer converts graphs for SMATCH (faithful TOP)."""
    normal = normalize(graph)
    local: Local = [Counter() for _ in range(len(normal))]
    for k in range(len(normal)):
        label = normal.labels[k]
        if label is not None:
            local[k][("instance", norm(label))] = 1
        if normal.anchors[k] is not None:
            local[k][("anchor", normal.anchors[k])] = 1
        if normal.tops[k]:
            local[k][("TOP", norm(label) if label else "")] = 1
        for name, value in normal.properties[k]:
            local[k][(norm(name), norm(value))] = 1
    relations: Relations = Counter()
    for (a, b, label), attributes in normal.edges.items():
        relations[(a, b, norm(label) if label is not None else None)] = 1
        for attribute in attributes:
            relations[(a, b, ("attribute",) + attribute)] = 1
    total = sum(len(triples) for triples in local) + len(relations)
    return local, relations, total


def matched(mapping: List[int], local_g: Local, local_s: Local, rel_g: Relations, rel_s: Relations) -> int:
    """The triples matched under a map, counted directly from the triples (a check on the solver)."""
    count = 0
    for i, j in enumerate(mapping):
        if j >= 0:
            for key, copies in local_g[i].items():
                count += copies * local_s[j].get(key, 0)
    for (a, b, key), copies in rel_g.items():
        c, d = mapping[a], mapping[b]
        if c >= 0 and d >= 0:
            count += copies * rel_s.get((c, d, key), 0)
    return count


def most(local_g: Local, rel_g: Relations, local_s: Local, rel_s: Relations) -> int:
    """An upper bound of the triples any map matches: a triple's copies a and b match at most a * b.

    Cauchy-Schwarz over the copies (the identity of a graph with itself reaches
    it), and at most the larger count per triple (which gives min(g, s) for sets).
    """
    gold = [c for triples in local_g for c in triples.values()] + list(rel_g.values())
    system = [c for triples in local_s for c in triples.values()] + list(rel_s.values())
    if not gold or not system:
        return 0
    squares = math.isqrt(sum(c * c for c in gold) * sum(c * c for c in system))
    return min(squares, sum(gold) * max(system), sum(system) * max(gold))


def triples(graph: Graph, options: Options) -> Tuple[Local, Relations, int]:
    """The triples of a graph under the options: the original tool's for Penman input, else mtool's."""
    return penman_triples(graph, options.smatch_compat) if options.penman else mrp_triples(graph)


def score_pair(gold: Graph, system: Graph, options: Optional[Options] = None) -> Dict[str, Any]:
    """SMATCH counts of one pair: g, s, c, and whether c is proved optimal (with its bound)."""
    options = options or Options()
    return score_triples(gold.id, triples(gold, options), triples(system, options), options)


def score_triples(gid: str, gold: Tuple[Local, Relations, int], system: Tuple[Local, Relations, int],
                  options: Options) -> Dict[str, Any]:
    """SMATCH counts of two triple sets under the exact optimal alignment (no search when one is empty)."""
    local_g, rel_g, g = gold
    local_s, rel_s, s = system
    if not (local_g and local_s):
        return {"g": g, "s": s, "c": 0, "exact": True, "bound": 0, "steps": 0}
    if local_g == local_s and rel_g == rel_s:  # the same graph: the identity matches every triple
        c = matched(list(range(len(local_g))), local_g, local_s, rel_g, rel_s)
        return {"g": g, "s": s, "c": c, "exact": True, "bound": c, "steps": 0}
    solution = solve_problem(lambda stop: from_triples(local_g, local_s, rel_g, rel_s, stop), options.limit,
                             options.timeout)
    c = matched(solution.mapping, local_g, local_s, rel_g, rel_s)
    if solution.complete and c != solution.value:
        raise ScoreError(f"graph {gid}: internal error: solver value {solution.value} disagrees with the "
                         "triples matched")
    bound = solution.bound if solution.complete else most(local_g, rel_g, local_s, rel_s)
    item: Dict[str, Any] = {"g": g, "s": s, "c": c, "exact": solution.exact, "bound": bound,
                            "steps": solution.steps}
    if solution.cut:
        item["cut"] = solution.cut
    return item


def _isolated(pair: Pair, options: Options, progress: Progress) -> Dict[str, Any]:
    """The item of one pair; a pair whose scoring raises counts its triples with none matched."""
    try:
        return score_pair(pair.gold, pair.system, options)
    except Exception as error:  # noqa: BLE001 - one pair's failure must not end the run
        progress.problem(pair.gold, f"scoring failed: {type(error).__name__}: {error}")
        try:
            g, s = triples(pair.gold, options)[2], triples(pair.system, options)[2]
        except Exception:  # noqa: BLE001 - not even the triples can be counted
            g = s = 0
        return {"g": g, "s": s, "c": 0, "exact": False, "bound": min(g, s), "steps": 0, "cut": "error"}


def evaluate(pairing: Pairing, options: Options) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The SMATCH result of a pairing: n, g, s, c, p, r, f, exact, (scores), time, cpu, bound, cut."""
    from .corpus import cut_summary

    start, cpu = time.time(), time.process_time()
    g = s = c = exact = bound = steps = 0
    cut = {"limit": 0, "timeout": 0, "error": 0}
    scores: Dict[str, Dict[str, Any]] = {}
    progress = options.progress or Progress()
    progress.start(len(pairing.pairs))
    for pair in pairing.pairs:
        item = _isolated(pair, options, progress)
        g, s, c = g + item["g"], s + item["s"], c + item["c"]
        exact += item["exact"]
        bound += item["bound"]
        steps += item["steps"]
        if "cut" in item:
            cut[item["cut"]] += 1
        progress.advance("cut" in item)
        if options.trace:
            scores.setdefault(pair.gold.framework or "none", {})[pair.gold.id] = item
    progress.finish()
    out: Dict[str, Any] = {"n": len(pairing.pairs)}
    out.update({key: value for key, value in prf(g, s, c).items()})
    out["exact"] = exact
    if options.trace:
        out["scores"] = scores
    out["time"] = time.time() - start
    out["cpu"] = time.process_time() - cpu
    out["bound"] = {"c": bound, "f": prf(g, s, bound)["f"]}
    out["steps"] = steps
    out["cut"] = cut_summary(cut, g, s, c, bound)
    out["compat"] = options.smatch_compat
    out["invalid"] = len(pairing.invalid)
    return out, {}
