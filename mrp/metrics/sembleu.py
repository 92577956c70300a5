"""SemBLEU (Song & Gildea 2019): corpus BLEU over the paths of one to three nodes of a graph.

As the authors' implementation (``freesunshine0316/sembleu``) computes it:

* A graph is seen as labelled nodes and relations.  A node's label is its
  label (an AMR concept), lowercased; every property (an AMR constant) is a
  leaf of its own, labelled with the lowercased value, under a relation named
  by the property; every anchored node has one more leaf, ``:anchor`` to its
  spans (after the MRP union and trimming, ``start:end`` joined by ``,``), so
  that anchored frameworks (EDS, DM, PSD, UCCA) are told apart by what they
  cover.  A relation whose name ends in ``-of`` is reversed, and every ``-of``
  is removed from its name.  Relation names keep their case and get a ``:``.
  Tops, variable names, node ids and edge attributes are not part of it.
* 1-grams: one per node.  2-grams: ``(a, :r, b)`` per relation.  3-grams:
  ``(a, :r1, b, :r2, c)`` per directed path of two distinct relations (so a
  2-cycle gives ``(a, :r, b, :s, a)``).  All are multisets.
* The length of a graph is its number of nodes plus its number of relations.
* Per order, clipped matches (the system's n-grams, each counted at most as
  often as the gold graph has it) and the system's n-grams are summed over the
  corpus.  Score = BP * exp(sum_k w_k log p_k), BP = exp(1 - gold/system
  length) when the system is not longer, else 1.  With the authors' settings:
  default weights (0.34, 0.33, 0.34) (they sum to 1.01); when the system has
  no n-grams of the highest weighted orders, the weights become uniform over
  the orders it has ("auto-reweigh"); an order without matches gets
  p = 1 / (2^k * its n-gram count) for its k-th occurrence (NIST smoothing,
  ``method3``); no unigram match scores 0.  The per-pair score is the same
  computation over one pair.  N-grams stop at order 3, so weights for a 4th
  order are reweighed away, as in the original.

Where mrp differs from the original by default (``compat`` reproduces it):

* Nodes the original never reaches give no n-grams there (its search starts
  only at nodes without incoming relations, or at the top when there is none,
  so a cycle away from those is skipped; coli.system pair 153 loses 14 of 18
  nodes).  Here every node contributes.
* The original drops ``:``, ``/``, ``(`` and ``)`` inside quoted strings and
  splits strings with spaces into several n-gram items; here values are kept
  whole.  (Both only matter when two different strings become equal.)

The original stops the whole run on an undefined variable (here a constant, as
the Penman reader reads it), a constant ending in ``-of`` (here a value), a
system graph without nodes (here 0), a duplicate variable or an unquoted
constant containing ``:`` (here the reader reports the graph as invalid).  It
misreads a variable used before its definition when its name is not a letter
and digits (an extra constant leaf); the Penman reader here resolves it.  Not
reproduced even with ``compat``: the original compares relation positions and
a start node's position in one set, so for a constant that is the target of an
``-of`` relation a path can be skipped.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from mrp.engine import SCORES_FIRST, Metric, Options, Pair, PairCounts, Parameter, Run, prf
from mrp.engine import CountPath as Path
from mrp.graph import Graph
from mrp.normalize import lower, normalize_anchors

#: The weights of the original's ``eval.py`` (orders 1, 2, 3).
DEFAULT_WEIGHTS: Tuple[float, ...] = (0.34, 0.33, 0.34)
#: The longest paths extracted (hard-coded in the original).
MAX_ORDER = 3

_DROPPED = re.compile(r"[:/()]")

Ngram = Tuple[str, ...]


@dataclass
class Ngrams:
    """The n-grams of one graph by order (1..3) and its length (nodes + relations)."""

    orders: Dict[int, Counter]
    length: int


@dataclass
class Counts:
    """What BLEU sums: per order clipped matches and system n-grams, then the lengths; and per order the
    gold n-grams (not part of BLEU, reported for n-gram recall)."""

    matches: List[int]
    totals: List[int]
    system: int = 0
    gold: int = 0
    references: List[int] = field(default_factory=lambda: [0] * MAX_ORDER)

    def add(self, other: Counts) -> None:
        """Add another pair's counts to these."""
        for k in range(MAX_ORDER):
            self.matches[k] += other.matches[k]
            self.totals[k] += other.totals[k]
            self.references[k] += other.references[k]
        self.system += other.system
        self.gold += other.gold


def empty_counts() -> Counts:
    """Counts of nothing."""
    return Counts([0] * MAX_ORDER, [0] * MAX_ORDER)


def parse_weights(text: str) -> Tuple[float, ...]:
    """Weights from ``K`` (uniform over orders 1..K, as the original's third argument) or a list.

    ``"3"`` -> (1/3, 1/3, 1/3); ``"0.34,0.33,0.34"`` -> those.  ValueError unless
    they are finite, not negative, and not all zero.
    """
    text = text.strip()
    if text.isdigit():
        k = int(text)
        if k < 1:
            raise ValueError("SemBLEU needs at least one order")
        return (1.0 / k,) * k
    weights = tuple(float(part) for part in text.split(","))
    if any(not (w >= 0 and math.isfinite(w)) for w in weights) or not sum(weights) > 0:
        raise ValueError(f"bad SemBLEU weights '{text}'")
    return weights


def _relation(label: Optional[str]) -> Tuple[str, bool]:
    """A relation's n-gram item, and whether it is reversed (its name ends in ``-of``)."""
    name = label or ""
    reverse = name.endswith("-of")
    if reverse:
        name = name.replace("-of", "")
    return (name if name.startswith(":") else ":" + name), reverse


def semantic_graph(graph: Graph, compat: bool = False) -> Tuple[List[str], List[Tuple[int, str, int]]]:
    """The labelled nodes and (source, relation, target) relations SemBLEU reads off a graph."""
    labels: List[str] = []
    relations: List[Tuple[int, str, int]] = []
    position: Dict[int, int] = {}
    for node in graph.nodes:
        position[node.id] = len(labels)
        labels.append(lower(node.label) if node.label is not None else "")

    def attach(k: int, name: str, value: str) -> None:
        leaf = len(labels)
        labels.append(value)
        relation, reverse = _relation(name)
        relations.append((leaf, relation, k) if reverse else (k, relation, leaf))

    for node in graph.nodes:
        k = position[node.id]
        for name, value in zip(node.properties, node.values):
            text = lower(value)
            attach(k, name, _DROPPED.sub("", text) if compat else text)
        spans = normalize_anchors(node.anchors, graph.input)
        if spans:
            attach(k, "anchor", ",".join(f"{start}:{end}" for start, end in spans))
    for edge in graph.edges:
        if edge.source not in position or edge.target not in position:
            continue
        relation, reverse = _relation(edge.label)
        a, b = position[edge.source], position[edge.target]
        relations.append((b, relation, a) if reverse else (a, relation, b))
    return labels, relations


def _starts(graph: Graph, n: int, relations: Sequence[Tuple[int, str, int]], compat: bool) -> List[int]:
    """The nodes whose paths count: all, or (``compat``) those the original's search reaches."""
    if not compat:
        return list(range(n))
    incoming = {target for _, _, target in relations}
    roots = [k for k in range(n) if k not in incoming]
    if not roots:
        top = next((k for k, node in enumerate(graph.nodes) if graph.tops and node.id == graph.tops[0]), 0)
        roots = [top] if n else []
    children: Dict[int, List[int]] = {}
    for source, _, target in relations:
        children.setdefault(source, []).append(target)
    reached = set(roots)
    queue = list(roots)
    for k in queue:
        for child in children.get(k, ()):
            if child not in reached:
                reached.add(child)
                queue.append(child)
    return sorted(reached)


def ngrams(graph: Graph, compat: bool = False) -> Ngrams:
    """The 1-, 2- and 3-grams of a graph (paths of 1 to 3 nodes) and its length."""
    labels, relations = semantic_graph(graph, compat)
    outgoing: Dict[int, List[int]] = {}
    for r, (source, _, _) in enumerate(relations):
        outgoing.setdefault(source, []).append(r)
    orders: Dict[int, Counter] = {k: Counter() for k in range(1, MAX_ORDER + 1)}

    def item(parts: Tuple[str, ...]) -> Ngram:
        return tuple(" ".join(parts).split()) if compat else parts

    for k in _starts(graph, len(labels), relations, compat):
        orders[1][item((labels[k],))] += 1
        for r in outgoing.get(k, ()):
            _, name, b = relations[r]
            first = (labels[k], name, labels[b])
            orders[2][item(first)] += 1
            for q in outgoing.get(b, ()):
                if q != r:
                    _, second, c = relations[q]
                    orders[3][item(first + (second, labels[c]))] += 1
    return Ngrams(orders, len(labels) + len(relations))


def pair_counts(gold: Ngrams, system: Ngrams) -> Counts:
    """Clipped matches and system n-grams per order, and both lengths, for one pair."""
    counts = empty_counts()
    for k in range(1, MAX_ORDER + 1):
        ours, theirs = gold.orders[k], system.orders[k]
        counts.matches[k - 1] = sum(min(c, ours[g]) for g, c in theirs.items())
        counts.totals[k - 1] = sum(theirs.values())
        counts.references[k - 1] = sum(ours.values())
    counts.system, counts.gold = system.length, gold.length
    return counts


def brevity_penalty(gold: int, system: int) -> float:
    """exp(1 - gold/system) when the system is not longer, 1 when longer, 0 for an empty system."""
    if system > gold:
        return 1.0
    if system == 0:
        return 0.0
    return math.exp(1 - gold / system)


def reweighed(counts: Counts, weights: Sequence[float]) -> Tuple[float, ...]:
    """The weights after auto-reweigh: uniform over 1..m when m, the highest order the system has, is
    below the number of weights; empty when the system has no n-grams at all."""
    present = [k for k in range(1, len(weights) + 1) if k <= MAX_ORDER and counts.totals[k - 1] > 0]
    if not present:
        return ()
    highest = max(present)
    if highest < len(weights):
        return (1.0 / highest,) * highest
    return tuple(weights)


def bleu(counts: Counts, weights: Sequence[float] = DEFAULT_WEIGHTS) -> float:
    """SemBLEU of summed counts (a corpus, or one pair for the per-pair score)."""
    weights = reweighed(counts, weights)
    if not weights or counts.matches[0] == 0:
        return 0.0
    precisions: List[float] = []
    k = 1
    for order in range(len(weights)):
        matched, total = counts.matches[order], counts.totals[order]
        if matched == 0:
            precisions.append(1 / (2 ** k * max(1.0, total)))
            k += 1
        else:
            precisions.append(matched / total)
    exponent = math.fsum(w * math.log(p) for w, p in zip(weights, precisions))
    return brevity_penalty(counts.gold, counts.system) * math.exp(exponent)


def score_pair(gold: Graph, system: Graph, weights: Sequence[float] = DEFAULT_WEIGHTS,
               compat: bool = False) -> Tuple[float, Counts]:
    """The per-pair SemBLEU of a system graph against its gold graph, with the pair's counts."""
    counts = pair_counts(ngrams(gold, compat), ngrams(system, compat))
    return bleu(counts, weights), counts


def _orders(counts: Counts) -> Dict[str, Dict[str, Any]]:
    """Per order: g gold n-grams, s system n-grams, c clipped matches (P is BLEU's modified precision)."""
    return {str(k + 1): prf(counts.references[k], counts.totals[k], counts.matches[k])
            for k in range(MAX_ORDER)}


def _counts(totals: Dict[Path, List[Any]]) -> Counts:
    """The summed BLEU counts from the driver's totals."""
    counts = empty_counts()
    for k in range(MAX_ORDER):
        counts.references[k], counts.totals[k], counts.matches[k] = totals.get(("orders", str(k + 1)),
                                                                               (0, 0, 0))
    counts.gold, counts.system = totals.get(("length",), (0, 0))
    return counts


def weights_argument(text: str) -> Tuple[float, ...]:
    """``--sembleu-weights`` as the command line gives it."""
    try:
        return parse_weights(text)
    except ValueError as error:
        import argparse

        raise argparse.ArgumentTypeError(str(error)) from None


class SemBLEU(Metric):
    """SemBLEU: corpus BLEU over the graphs' paths of 1 to 3 nodes."""

    name = "sembleu"
    #: preparation beyond reading the pair (mrp.engine.limits): none n x m;
    #: n-grams counted per graph: linear in the pair for its n (the clock holds a dense graph's)
    preparation_per_cell = 0
    layout = SCORES_FIRST
    summary = "SemBLEU: BLEU over graph n-grams (corpus level)"
    normalization = "case"
    primary = None
    headlines = (("sembleu",),)
    parameters = (
        Parameter("sembleu_weights", "--sembleu-weights",
                  "SemBLEU weights of orders 1, 2, 3 (default 0.34,0.33,0.34, as the original; K: uniform "
                  "over orders 1..K), e.g. --sembleu-weights 2", kind=weights_argument,
                  metavar="K|W1,W2,...", annotation=Union[str, Sequence[float], None]),
        Parameter("sembleu_compat", "--sembleu-compat",
                  "SemBLEU: reproduce the original tool, defects included (unreached nodes skipped, :/() "
                  "dropped from strings)"),
    )

    def signature_fields(self, options: Options) -> List[str]:
        weights = options.sembleu_weights or DEFAULT_WEIGHTS
        if len(weights) > 1 and weights == (1.0 / len(weights),) * len(weights):
            shown = f"uniform{len(weights)}"
        else:
            shown = "+".join(repr(w) for w in weights)
        return ["weights:" + shown] + (["compat"] if options.sembleu_compat else [])

    def score(self, pair: Pair, options: Options) -> PairCounts:
        weights = tuple(options.sembleu_weights or DEFAULT_WEIGHTS)
        value, counts = score_pair(pair.gold, pair.system, weights, options.sembleu_compat)
        found: Dict[Path, Tuple[Any, ...]] = {
            ("orders", str(k + 1)): (counts.references[k], counts.totals[k], counts.matches[k])
            for k in range(MAX_ORDER)}
        found[("length",)] = (counts.gold, counts.system)
        found[("sentence",)] = (value,)
        return PairCounts(found)

    def item(self, pair: Pair, result: PairCounts) -> Dict[str, Any]:
        counts = _counts({path: list(values) for path, values in result.counts.items()})
        return {"sembleu": result.counts[("sentence",)][0], "orders": _orders(counts),
                "length": [counts.system, counts.gold]}

    def report(self, run: Run) -> Dict[str, Any]:
        weights = tuple(run.options.sembleu_weights or DEFAULT_WEIGHTS)
        totals = _counts(run.totals)
        out: Dict[str, Any] = {"sembleu": bleu(totals, weights)}
        out["weights"] = list(weights)
        out["applied"] = list(reweighed(totals, weights))
        out["orders"] = _orders(totals)
        out["length"] = {"system": totals.system, "gold": totals.gold}
        out["bp"] = brevity_penalty(totals.gold, totals.system)
        out["mean"] = run.totals.get(("sentence",), [0.0])[0] / run.n if run.n else 0.0
        return out


METRIC = SemBLEU()
