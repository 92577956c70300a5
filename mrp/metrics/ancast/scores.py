"""AnCast's scores of an aligned pair, as sums that add up over a corpus.

Per side (precision over the test graph, recall over the gold graph):

* concept: summed initial similarity of aligned nodes / number of nodes;
* LRM: relations grouped by (predicate, argument); a group whose translated
  ends form a group of the other graph adds ``(sim(pred) + sim(arg)) / 2`` per
  shared label; the count is the group's number of labels.  ULRM counts
  ``min`` of the two label-set sizes instead of the shared labels; WLRM
  weights each group by ``sqrt(desc(pred) * desc(arg)) + 1`` (descendants
  along predicate->argument relations, 0 for constants).  Without relations
  the score is the concept score;
* mock Smatch: concept triples (identical name+ops and sense) plus relation
  triples (the TOP triple included) matched under the alignment.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from mrp.metrics.ancast.alignment import Alignment, Side
from mrp.metrics.ancast.reading import View
from mrp.metrics.ancast.similarity import Similar, ends_similarity

#: The sentence-level metrics, in output order.
KEYS = ("concept", "lrm", "ulrm", "wlrm", "smatch")



@dataclass
class Sums:
    """One side's sums (AnCast's ``Mt01`` for precision, ``Mt10`` for recall)."""

    concept: float = 0.0
    concept_count: float = 0.0
    identical: float = 0.0
    relations: float = 0.0
    relations_matched: float = 0.0
    lr: float = 0.0
    lr_count: float = 0.0
    ulr: float = 0.0
    wlr: float = 0.0
    wlr_count: float = 0.0

    def add(self, other: Sums) -> None:
        """Add another pair's sums."""
        for name in ("concept", "concept_count", "identical", "relations", "relations_matched", "lr",
                     "lr_count", "ulr", "wlr", "wlr_count"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def value(self, key: str) -> float:
        """The side's value of a metric (LRM and kin fall back to the concept value without relations)."""
        concept = self.concept / self.concept_count if self.concept_count else 0.0
        if key == "concept":
            return concept
        if key == "smatch":
            total = self.concept_count + self.relations
            return (self.identical + self.relations_matched) / total if total else 0.0
        if key == "wlrm":
            return self.wlr / self.wlr_count if self.wlr_count else concept
        if not self.lr_count:
            return concept
        return (self.lr if key == "lrm" else self.ulr) / self.lr_count

    def to_json(self) -> Dict[str, float]:
        """The sums, for traces."""
        return {"concept": self.concept, "concept_count": self.concept_count, "identical": self.identical,
                "relations": self.relations, "matched": self.relations_matched, "lr": self.lr,
                "lr_count": self.lr_count, "ulr": self.ulr, "wlr": self.wlr, "wlr_count": self.wlr_count}


def f_score(p: float, r: float) -> float:
    """2PR/(P+R), 0 when both are 0."""
    return 2 * p * r / (p + r) if p + r else 0.0


def report(precision: Sums, recall: Sums, compat: bool) -> Dict[str, Dict[str, float]]:
    """P, R and F per metric; with ``compat`` the concept recall repeats the precision (AnCast's quirk)."""
    out: Dict[str, Dict[str, float]] = {}
    for key in KEYS:
        p = precision.value(key)
        r = p if compat and key == "concept" else recall.value(key)
        out[key] = {"p": p, "r": r, "f": f_score(p, r)}
    return out


class _Null:
    """An unaligned node of one side (matches nothing of the other)."""

    __slots__ = ("k",)

    def __init__(self, k: int) -> None:
        self.k = k


def _side(mine: View, theirs: View, mapping: List[int], similar: Callable[[object, object], float],
          weight: Callable[[object], float], concept: Side) -> Sums:
    """The sums of one side: its relations translated into the other graph and compared there."""
    sums = Sums(concept=concept.concept, concept_count=concept.count, identical=concept.identical)
    their_groups = theirs.groups()
    ends: List[object] = [j if j >= 0 else _Null(k) for k, j in enumerate(mapping)]
    # the groups come from sets, in an order that differs between processes: the sums are exactly
    # rounded (math.fsum), so they do not depend on it
    lr: List[float] = []
    ulr: List[float] = []
    wlr: List[float] = []
    wlr_count: List[float] = []
    lr_count = 0
    for (pred, arg), labels in mine.groups().items():
        count = len(labels)
        w = math.sqrt(weight(arg) * weight(pred)) + 1
        target = (ends[pred] if type(pred) is int else pred, ends[arg] if type(arg) is int else arg)
        lr_count += count
        wlr_count.append(count * w)
        other = their_groups.get(target)
        if other is None:
            continue
        overlap = len(labels & other)
        half = (similar(pred, target[0]) + similar(arg, target[1])) / 2
        lr.append(half * overlap)
        ulr.append(half * min(len(other), count))
        wlr.append(half * (overlap * w))
    sums.lr, sums.ulr, sums.wlr = math.fsum(lr), math.fsum(ulr), math.fsum(wlr)
    sums.lr_count, sums.wlr_count = float(lr_count), math.fsum(wlr_count)
    back: List[object] = [_Null(j) for j in range(len(theirs))]
    for k, j in enumerate(mapping):
        if j >= 0:
            back[j] = k
    translated = {(back[h] if type(h) is int else h, label, back[t] if type(t) is int else t)
                  for h, label, t in theirs.triples()}
    mine_triples = mine.triples()
    sums.relations = len(mine_triples)
    sums.relations_matched = len(translated & mine_triples)
    return sums


def _descendant_weight(view: View, lookup: Optional[View] = None) -> Callable[[object], float]:
    """Descendants of a relation end; with ``lookup``, of the node of that graph with the same variable."""
    if lookup is None:
        counts = view.descendants()
        return lambda end: counts[end] if type(end) is int else 0  # type: ignore[index]
    found = lookup.descendants()
    where = {var: found[k] for k, var in enumerate(lookup.variables)}
    by_node = [where.get(var, 0) for var in view.variables]

    def weight(end: object) -> float:
        return by_node[end] if type(end) is int else where.get(str(end), 0)  # type: ignore[index]
    return weight


def score(test: View, gold: View, sim: Similar, alignment: Alignment,
          compat: bool) -> Tuple[Sums, Sums]:
    """The precision and recall sums of an aligned pair (``sim``: the matrices, or the pointwise
    similarities beyond ``--max-memory``: counting reads one cell per relation group, nothing n x m).

    With ``compat``, the recall side's WLRM weights look the gold variables up
    by name in the test graph (AnCast's quirk); otherwise each side uses its own
    graph.
    """
    names = sim.name_lookup()

    def forward(t_end: object, g_end: object) -> float:
        if type(t_end) is int and type(g_end) is int:
            return names(t_end, g_end)  # type: ignore[arg-type]
        return ends_similarity(sim, test, gold, t_end, g_end)

    def backward(g_end: object, t_end: object) -> float:
        if type(t_end) is int and type(g_end) is int:
            return names(t_end, g_end)  # type: ignore[arg-type]
        return ends_similarity(sim, test, gold, t_end, g_end)

    precision = _side(test, gold, alignment.t2g, forward, _descendant_weight(test, test if compat else None),
                      alignment.precision)
    recall = _side(gold, test, alignment.g2t, backward, _descendant_weight(gold, test if compat else None),
                   alignment.recall)
    return precision, recall
