"""Complete predications (SDP 2015): a predicate with all of its arguments and their labels, matched whole.

A predication is ``(identity(predicate), {(label, identity(argument)), ...})``
over the predicate's outgoing edges after the MRP normalization (inverted
edges restored, labels lowercased).  It matches only when the same predicate
has exactly the same labelled arguments: one missing, extra or relabelled
argument loses the whole predication.  g, s and c count gold, system and
common predications (multisets), summed over the corpus.

Node identity ("the same alignment" as the framework's own metrics):

* ``anchors``: bilexical graphs (flavor 0), and anchored graphs whose gold
  nodes are all anchored (EDS): a node is its anchoring after union and
  trimming, as in the SDP and EDM metrics.  For bilexical graphs the
  predicates and arguments are those of the SDP 2015 scorer: a predicate is a
  node with outgoing edges whose part of speech (the ``pos`` property; the
  gold node's at the same anchoring when the system node has none) starts
  with ``V``; its arguments are all its edges for DM, the ``-arg`` edges for
  PSD, and the 15 argument roles for PAS (a verbal predicate without such
  edges is a predication with no arguments).  For EDS every node with
  outgoing edges is a predicate of all of them.
* ``mrp``: every other graph (AMR, DRG, UCCA and PTG, whose inner nodes are
  unanchored): nodes are identified through the MRP metric's correspondence,
  proved optimal by the same solver as ``--score mrp``.  What is optimized is
  the MRP tuple count (tops, labels, properties, anchors, edges, attributes);
  what is evaluated under that correspondence is the predications.  The count
  is exact for that correspondence, not the largest predication count over
  all correspondences (the two can differ where the MRP optimum has ties or
  trades a predication for other tuples).  Every node with outgoing edges is
  a predicate of all of them.  ``--limit`` and ``--timeout`` apply; a pair
  whose search was stopped is counted under ``cut``.

Node properties and top nodes are not part of a predication.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Dict, FrozenSet, Hashable, List, Optional, Tuple

from mrp.engine import SCORES_FIRST, Metric, Options, Pair, PairCounts, Run, prf
from mrp.graph import Graph
from mrp.metrics.edm import normal_edges, normal_spans
from mrp.metrics.mrp.tuples import identities
from mrp.normalize import lower, normalize
from mrp.solver import DEFAULT_MAX_MEMORY

#: PAS argument roles (SDP 2015 scorer), lowercased as the MRP normalization leaves edge labels.
PAS_ARGUMENTS = frozenset(
    "adj_arg1 adj_arg2 adj_mod coord_arg1 coord_arg2 prep_arg1 prep_arg2 prep_arg3 prep_mod "
    "verb_arg1 verb_arg2 verb_arg3 verb_arg4 verb_mod".split())

Predication = Tuple[Hashable, FrozenSet[Tuple[Optional[str], Hashable]]]


def argument_rule(framework: Optional[str]) -> Callable[[Optional[str]], bool]:
    """Which edge labels are arguments in a bilexical framework (SDP 2015): PSD -arg, PAS roles, or all."""
    if framework == "psd":
        return lambda label: label is not None and label.endswith("-arg")
    if framework == "pas":
        return lambda label: label in PAS_ARGUMENTS
    return lambda label: True


def by_anchors(gold: Graph) -> bool:
    """Whether a pair is aligned by anchoring (decided on the gold graph alone)."""
    if gold.flavor == 0:
        return True
    return gold.flavor == 1 and all(node.anchors for node in gold.nodes)


def _pos(graph: Graph) -> Dict[int, Optional[str]]:
    out: Dict[int, Optional[str]] = {}
    for node in graph.nodes:
        out[node.id] = next((lower(value) for name, value in zip(node.properties, node.values)
                             if lower(name) == "pos"), None)
    return out


def anchored_predications(graph: Graph, gold_pos: Optional[Dict[Hashable, Optional[str]]] = None,
                          bilexical: bool = False) -> Counter:
    """The predications of a graph whose nodes are identified by their anchoring.

    With ``bilexical``, only verbal predicates count and arguments follow the
    framework (SDP 2015); ``gold_pos`` gives the part of speech by identity
    for nodes without their own.
    """
    identity: Dict[int, Hashable] = {node: tuple(spans) for node, spans in normal_spans(graph).items()}
    arguments: Dict[int, List[Tuple[Optional[str], Hashable]]] = {}
    for edge in normal_edges(graph):
        arguments.setdefault(edge.source, []).append((edge.label, identity[edge.target]))
    rule = argument_rule(graph.framework)
    pos = _pos(graph)
    out: Counter = Counter()
    for node in graph.nodes:
        if node.id not in arguments:
            continue
        args = arguments[node.id]
        if bilexical:
            tag = pos[node.id] if pos[node.id] is not None else (gold_pos or {}).get(identity[node.id])
            if tag is None or not tag.startswith("v"):
                continue
            args = [(label, target) for label, target in args if rule(label)]
        out[(identity[node.id], frozenset(args))] += 1
    return out


def _identity_pos(graph: Graph) -> Dict[Hashable, Optional[str]]:
    spans = normal_spans(graph)
    pos = _pos(graph)
    return {tuple(spans[node.id]): pos[node.id] for node in graph.nodes}


def mapped_predications(gold: Graph, system: Graph, limit: Optional[int] = None,
                        timeout: Optional[float] = None,
                        max_memory: Optional[int] = DEFAULT_MAX_MEMORY) -> Tuple[Counter, Counter, bool]:
    """Gold and system predications under the MRP metric's optimal correspondence (``max_memory``: bytes
    the solver's node-pair arrays may take, ``--max-memory``), and if it is proved."""
    from mrp.metrics.mrp.pair import solve_normal  # numba only when a pair is aligned

    normal_gold, normal_system = normalize(gold), normalize(system)
    solution = solve_normal(normal_gold, normal_system, limit, timeout, max_memory=max_memory)
    gid, sid = identities(len(normal_gold), len(normal_system), solution.mapping)
    out = []
    for graph, identity in ((normal_gold, gid), (normal_system, sid)):
        arguments: Dict[int, List[Tuple[Optional[str], Hashable]]] = {}
        for source, target, label in graph.edges:
            arguments.setdefault(source, []).append((label, identity[target]))
        out.append(Counter((identity[k], frozenset(args)) for k, args in arguments.items()))
    return out[0], out[1], solution.exact


def score_pair(gold: Graph, system: Graph, limit: Optional[int] = None, timeout: Optional[float] = None,
               max_memory: Optional[int] = DEFAULT_MAX_MEMORY) -> Tuple[Tuple[int, int, int], str, bool]:
    """(g, s, c) of complete predications for one pair, the alignment used, and whether it is exact."""
    if by_anchors(gold):
        bilexical = gold.flavor == 0
        ours = anchored_predications(gold, None, bilexical)
        theirs = anchored_predications(system, _identity_pos(gold) if bilexical else None, bilexical)
        exact, alignment = True, "anchors"
    else:
        ours, theirs, exact = mapped_predications(gold, system, limit, timeout, max_memory)
        alignment = "mrp"
    common = sum((ours & theirs).values())
    return (sum(ours.values()), sum(theirs.values()), common), alignment, exact


def _failed(gold: Graph, system: Graph) -> Tuple[int, int, int]:
    """The counts of a pair whose alignment failed: every predication missed, and the system's as surplus
    (each node its own identity)."""
    def alone(graph: Graph) -> int:
        return len({source for source, _, _ in normalize(graph).edges})

    return alone(gold), alone(system), 0


class Predications(Metric):
    """Complete predications: a predicate with all its arguments and their labels matches as a whole."""

    name = "predications"
    #: preparation beyond reading the pair (mrp.engine.limits): none n x m;
    #: its node-pair arrays are the MRP search's, capped there
    preparation_per_cell = 0
    layout = SCORES_FIRST
    summary = "predications: predicates and their argument frames (SDP 2015's complete predications)"
    normalization = "case+anchors+edges"
    primary = ("predications",)

    def score(self, pair: Pair, options: Options) -> PairCounts:
        counts, alignment, exact = score_pair(pair.gold, pair.system, options.limit, options.timeout,
                                              options.max_memory)
        return PairCounts({("predications",): counts}, exact=exact, cut=None if exact else "limit",
                          extra={"alignment": alignment})

    def fallback(self, pair: Pair, options: Options, failure: str) -> PairCounts:
        return PairCounts({("predications",): _failed(pair.gold, pair.system)}, exact=False, cut="error",
                          failure=failure, extra={"alignment": "mrp"})

    def item(self, pair: Pair, result: PairCounts) -> Dict[str, Any]:
        return {"predications": dict(zip("gsc", result.counts[("predications",)])),
                "alignment": result.extra["alignment"], "exact": result.exact}

    def report(self, run: Run) -> Dict[str, Any]:
        aligned = {"anchors": 0, "mrp": 0}
        for result in run.results:
            aligned[result.extra["alignment"]] += 1
        return {"predications": prf(*run.totals.get(("predications",), (0, 0, 0))), "alignment": aligned,
                "cut": sum(not result.exact for result in run.results)}


METRIC = Predications()
