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
from collections import Counter
from functools import lru_cache
from typing import Any, Dict, Hashable, List, Optional, Tuple

import numpy as np

from mrp import rules
from mrp.codecs.penman_write import Quoted, Symbol
from mrp.errors import ScoreError
from mrp.graph import Graph
from mrp.metrics.base import Metric, PairResult, Parameter, Run
from mrp.metrics.counting import Path, prf
from mrp.metrics.detail import triple_detail
from mrp.metrics.documents import DOC_ALIGN, doc_align_field, doc_align_report
from mrp.metrics.driver import evaluate as drive
from mrp.metrics.mrp_pair import seeding, sentence_groups, solve_within
from mrp.metrics.options import Options
from mrp.metrics.pairing import Pair, Pairing
from mrp.normalize import normalize
from mrp.solver.problem import from_triples

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
_TEXTS: Dict[Any, str] = {}
_INSTANCES: Dict[Any, Tuple[str, str]] = {}
_ROLES: Dict[str, Tuple[bool, str]] = {}
_KEPT = 1 << 16
#: the string types kept there (a reader's, whose normal form is that of their text)
_STRINGS = frozenset((str, Symbol, Quoted))


def _text(value: Any) -> str:
    """:func:`norm` of a value, kept for a string."""
    found = _norm(value)
    if type(value) in _STRINGS:
        if len(_TEXTS) >= _KEPT:
            _TEXTS.clear()
        _TEXTS[value] = found
    return found


def _instance(label: Optional[str]) -> Tuple[str, str]:
    """The instance triple's key of a concept, kept for a string."""
    found = ("instance", _norm(label if label is not None else ""))
    if type(label) in _STRINGS:
        if len(_INSTANCES) >= _KEPT:
            _INSTANCES.clear()
        _INSTANCES[label] = found
    return found


def _role(label: str) -> Tuple[bool, str]:
    """Whether a role as written is inverted, and its normal role's normal form (kept)."""
    normal = _inverted(label)
    found = (True, _norm(normal)) if normal is not None else (False, _norm(label))
    if len(_ROLES) >= _KEPT:
        _ROLES.clear()
    _ROLES[label] = found
    return found


def _penman_sets(graph: Graph) -> Tuple[Local, Relations, int]:
    """:func:`penman_triples` without ``compat``: every triple once (the same keys in the same order)."""
    nodes = graph.nodes
    position = {node.id: k for k, node in enumerate(nodes)}
    local: Local = []
    total = 0
    texts, instances, strings = _TEXTS, _INSTANCES, _STRINGS
    for node in nodes:
        label = node.label
        key = instances.get(label) if type(label) in strings else None
        triples: Dict[Hashable, int] = {key if key is not None else _instance(label): 1}
        if node.properties:
            for name, value in zip(node.properties, node.values):
                name_key = texts.get(name) if type(name) in strings else None
                value_key = texts.get(value) if type(value) in strings else None
                triples[(name_key if name_key is not None else _text(name),
                         value_key if value_key is not None else _text(value))] = 1
        total += len(triples)
        local.append(triples)
    if nodes:
        top = local[position.get(graph.tops[0], 0) if graph.tops else 0]
        total += _TOP not in top
        top[_TOP] = 1
    relations: Relations = {}
    roles = _ROLES
    for edge in graph.edges:
        label = edge.label or ""
        known = roles.get(label)
        inverted, normal = known if known is not None else _role(label)
        if inverted:
            relations[(position[edge.target], position[edge.source], normal)] = 1
        else:
            relations[(position[edge.source], position[edge.target], normal)] = 1
    return local, relations, total + len(relations)


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
    """SMATCH counts of one pair: g, s, c, and whether c is proved optimal (with its bound).

    With ``options.errors`` the item also holds ``differences`` (see :func:`differences`).
    """
    options = options or Options()
    tg, ts = triples(gold, options), triples(system, options)
    wanted = options.errors or options.explain
    item = score_triples(gold.id, tg, ts, options, mapping=wanted, graphs=(gold, system))
    if wanted:
        mapping = item.pop("mapping", None) or [-1] * len(tg[0])
        if options.errors:
            item["differences"] = differences(gold, system, mapping, tg, ts)
        if options.explain:
            item["detail"] = triple_detail(gold.node_ids(), system.node_ids(), tg[:2], ts[:2], mapping,
                                           "SMATCH's triples", (gold.input, system.input))
    return item


def _plain(key: Hashable) -> List[Any]:
    """A triple's name and value as JSON values (an anchor set as its sorted positions)."""
    parts = key if isinstance(key, tuple) else (key,)
    return [sorted(part) if isinstance(part, frozenset) else part for part in parts]


def differences(gold: Graph, system: Graph, mapping: List[int], tg: Tuple[Local, Relations, int],
                ts: Tuple[Local, Relations, int]) -> Dict[str, Any]:
    """The triples unmatched under a map: ``{"correspondences": [[gold id, system id]...], "triples":
    {"missing": [[gold node id(s)..., name, value]...], "surplus": [[system node id(s)...]...]}}``."""
    (local_g, rel_g, _), (local_s, rel_s, _) = tg, ts
    inverse = {j: i for i, j in enumerate(mapping) if j >= 0}

    def unmatched(local_a: Local, rel_a: Relations, local_b: Local, rel_b: Relations,
                  to: Dict[int, int], ids: List[Any]) -> List[List[Any]]:
        out: List[List[Any]] = []
        for i, keys in enumerate(local_a):
            j = to.get(i, -1)
            for key, copies in keys.items():
                if copies > (local_b[j].get(key, 0) if j >= 0 else 0):
                    out.append([ids[i], *_plain(key)])
        for (a, b, key), copies in rel_a.items():
            c, d = to.get(a, -1), to.get(b, -1)
            if copies > (rel_b.get((c, d, key), 0) if c >= 0 and d >= 0 else 0):
                out.append([ids[a], ids[b], *_plain(key)])
        return out

    gold_ids = [node.id for node in gold.nodes]
    system_ids = [node.id for node in system.nodes]
    forward = {i: j for i, j in enumerate(mapping) if j >= 0}
    return {"correspondences": [[gold_ids[i], system_ids[j]] for i, j in forward.items()],
            "triples": {"missing": unmatched(local_g, rel_g, local_s, rel_s, forward, gold_ids),
                        "surplus": unmatched(local_s, rel_s, local_g, rel_g, inverse, system_ids)}}


def score_triples(gid: str, gold: Tuple[Local, Relations, int], system: Tuple[Local, Relations, int],
                  options: Options, mapping: bool = False,
                  graphs: Optional[Tuple[Graph, Graph]] = None) -> Dict[str, Any]:
    """SMATCH counts of two triple sets under the exact optimal alignment (no search when one is empty).

    ``mapping``: the item also holds the alignment (gold position -> system position or -1).
    """
    local_g, rel_g, g = gold
    local_s, rel_s, s = system
    if not (local_g and local_s):
        return {"g": g, "s": s, "c": 0, "exact": True, "bound": 0, "steps": 0}
    groups = sentence_groups(graphs, len(local_g), len(local_s))
    restricted = options.doc_align == "sentence"
    identical = groups is None or not restricted or np.array_equal(*groups)  # sentences too, when restricted
    if local_g == local_s and rel_g == rel_s and identical:  # the same graph: the identity matches all
        identity = list(range(len(local_g)))
        c = matched(identity, local_g, local_s, rel_g, rel_s)
        same: Dict[str, Any] = {"g": g, "s": s, "c": c, "exact": True, "bound": c, "steps": 0}
        if mapping:
            same["mapping"] = identity
        return same
    solution = solve_within(lambda stop: from_triples(local_g, local_s, rel_g, rel_s, stop), groups,
                            restricted, options.limit, options.timeout, seeding(graphs), options.mip)
    c = matched(solution.mapping, local_g, local_s, rel_g, rel_s)
    if solution.complete and c != solution.value:
        raise ScoreError(f"graph {gid}: internal error: solver value {solution.value} disagrees with the "
                         "triples matched")
    bound = solution.bound if solution.complete else most(local_g, rel_g, local_s, rel_s)
    item: Dict[str, Any] = {"g": g, "s": s, "c": c, "exact": solution.exact, "bound": bound,
                            "steps": solution.steps}
    if mapping:
        item["mapping"] = [int(j) for j in solution.mapping]
    if solution.cut:
        item["cut"] = solution.cut
    if solution.note:
        item["note"] = solution.note
    if solution.gap is not None:
        item["gap"] = solution.gap
    return item


def triples_field(options: Options) -> str:
    """The signature field of the triples counted: the original tool's (penman) or of the MRP form."""
    compat = "+compat" if options.smatch_compat else ""
    return "triples:" + ("penman" if options.penman else "mrp") + compat


class SMATCH(Metric):
    """SMATCH: triple overlap under the best node alignment."""

    name = "smatch"
    summary = "SMATCH: triple overlap under the optimal node alignment (exact; the original tool's triples " \
              "on Penman)"
    normalization = "case"
    primary = ()
    parameters = (Parameter("smatch_compat", "--smatch-compat",
                            "smatch: reproduce the original SMATCH tool's counts, defects included "
                            "(duplicate triples counted repeatedly, quoted strings cut to their first "
                            "word)"), DOC_ALIGN)
    searches = True
    explains = True

    def signature_fields(self, options: Options) -> List[str]:
        return [triples_field(options), *doc_align_field(options)]

    def prepare(self, options: Options) -> None:
        self.load_solver(options)

    def score(self, pair: Pair, options: Options) -> PairResult:
        item = score_pair(pair.gold, pair.system, options)
        return PairResult({(): (item["g"], item["s"], item["c"])}, exact=item["exact"], bound=item["bound"],
                          steps=item["steps"], cut=item.get("cut"), errors=item.get("differences"),
                          note=item.get("note"), detail=item.get("detail"),
                          extra={"gap": item["gap"]} if "gap" in item else {})

    def alone(self, graph: Graph, gold: bool, options: Options) -> Dict[Path, Tuple[Any, ...]]:
        total = triples(graph, options)[2]
        return {(): (total, 0, 0) if gold else (0, total, 0)}

    def report(self, run: Run) -> Dict[str, Any]:
        out: Dict[str, Any] = {"n": run.n}
        out.update(prf(*run.totals.get((), (0, 0, 0))))
        out["exact"] = sum(result.exact for result in run.results)
        if run.options.trace:
            out["scores"] = run.scores(self.item)
        out["time"], out["cpu"] = run.seconds()
        out.update(run.search(()))
        out["compat"] = run.options.smatch_compat
        out.update(doc_align_report(run))
        out["invalid"] = len(run.pairing.invalid)
        return out


METRIC = SMATCH()


def evaluate(pairing: Pairing, options: Optional[Options] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The SMATCH result of a pairing: n, g, s, c, p, r, f, exact, (scores), time, cpu, bound, cut."""
    return drive(METRIC, pairing, options)
