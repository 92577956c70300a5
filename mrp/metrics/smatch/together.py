"""SMATCH's steps for scoring sentence pairs together (:func:`mrp.engine.together.score_together`): a pair's
forms are its graphs' :class:`~mrp.metrics.smatch.held.Held` (their triples coded with the run's ids), its
rows renumbered from their ids, the batch's in one compiled call, and each map's matched triples counted
from the rows for the whole batch at once."""

from __future__ import annotations

from itertools import chain
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from mrp.corpora import Entry
from mrp.engine import Options, Pair, PairCounts, Steps
from mrp.metrics.smatch.held import Held, same
from mrp.metrics.smatch.items import copies, filled, most_copies, pair_counts
from mrp.solver import Batch, Coded, Interned, Rows, Solution

__all__ = ["Together"]


#: batches of at most this many pairs have their matched triples counted from their codes in Python
#: (:func:`matched_codes`), more from their rows with numpy (:meth:`Batch.matched`)
FEW = 4


def matched_codes(mapping: Sequence[int], gold: Coded, system: Coded) -> int:
    """The triples a map matches (:meth:`Batch.matched`'s count) counted from the pair's codes: each gold
    row (node, key, count) whose node is mapped, times the system row of that key at its image; each gold
    relation row (source, target, label, count) whose ends are mapped, times the system row of that label
    between their images (a graph's rows name each place and key once).

    Args:
        mapping: gold node -> system node, or -1.
        gold: the gold graph coded.
        system: the system graph coded (with the same ids).

    Returns:
        The count.
    """
    local, relations = system.local, system.relations
    keyed = dict(zip(zip(local[0::3], local[1::3]), local[2::3]))
    labelled = dict(zip(zip(relations[0::4], relations[1::4], relations[2::4]), relations[3::4]))
    total = 0
    local, relations = gold.local, gold.relations
    for node, key, count in zip(local[0::3], local[1::3], local[2::3]):
        image = mapping[node]
        if image >= 0:
            total += count * keyed.get((image, key), 0)
    for source, target, label, count in zip(relations[0::4], relations[1::4], relations[2::4],
                                            relations[3::4]):
        start, end = mapping[source], mapping[target]
        if start >= 0 and end >= 0:
            total += count * labelled.get((start, end, label), 0)
    return int(total)


def held_item(gid: str, gold: Held, system: Held, solution: Solution, counted: int) -> Dict[str, Any]:
    """A pair's item (:func:`~mrp.metrics.smatch.items.filled`) held coded, its matched triples counted from
    its rows (``counted``)."""
    return filled(gid, gold.total, system.total, counted, solution, False,
                  lambda: most_copies(copies(gold.coded), copies(system.coded)))


def coded_at_once(gold: Held, system: Held) -> Optional[Dict[str, Any]]:
    """The item of a pair that needs no search (an empty side; the same triples, which the identity matches
    each), else None: :func:`mrp.metrics.smatch.metric.score_triples`'s, of a pair held coded (sentence
    pairs: no sentence groups)."""
    if not (gold.coded.n and system.coded.n):
        return {"g": gold.total, "s": system.total, "c": 0, "exact": True, "bound": 0, "steps": 0}
    if same(gold.coded, system.coded):  # the identity matches each triple's copies times its copies
        c = sum(k * k for k in copies(gold.coded))
        return {"g": gold.total, "s": system.total, "c": c, "exact": True, "bound": c, "steps": 0}
    return None


class Together(Steps):
    """SMATCH's steps for :func:`mrp.engine.together.score_together`: a pair's forms are its graphs'
    :class:`Held` (of a packed graph whose triples depend on its content alone: built once per content, not
    unpacked again), its rows renumbered from their ids, the batch's in one compiled call.

    Args:
        held_of: a graph's Held as held (:meth:`mrp.metrics.smatch.metric.SMATCH.held_triples`).
        interned: the ids the Held are coded with.
        options: the run's options.
    """

    held = True

    def __init__(self, held_of: Callable[[Entry, Options], Held], interned: Interned,
                 options: Options) -> None:
        self.held_of, self.interned, self.options = held_of, interned, options

    def forms(self, pair: Pair) -> Optional[Tuple[Held, Held]]:
        gold = self.held_of(pair.gold_entry, self.options)
        system = self.held_of(pair.system_entry, self.options)
        if gold.coded.n and system.coded.n and gold.document and system.document:
            return None  # documents: alone
        return gold, system

    def at_once(self, pair: Pair, gold: Held, system: Held) -> Optional[PairCounts]:
        found = coded_at_once(gold, system)
        return None if found is None else pair_counts(found)

    def rows(self, gold: Held, system: Held) -> Rows:
        return self.batch([(gold, system)]).rows(0)

    def batch(self, forms: Sequence[Tuple[Held, Held]]) -> Batch:
        """The pairs' :meth:`rows`, renumbered from their ids in one compiled call."""
        return self.interned.batch([(gold.coded, system.coded) for gold, system in forms])

    def solved(self, pair: Pair, gold: Held, system: Held, solution: Solution) -> PairCounts:
        return self.settled([(pair, gold, system, solution)], self.batch([(gold, system)]))[0]

    def settled(self, done: Sequence[Tuple[Pair, Held, Held, Solution]], rows: Batch) -> List[PairCounts]:
        """:meth:`solved` of each pair, the triples each map matches counted from the rows for all pairs at
        once (:meth:`Batch.matched`)."""
        if len(done) <= FEW:  # numpy's fixed cost per call is most of a reward function's time on one pair
            counts = [matched_codes(solution.mapping, gold.coded, system.coded)
                      for _, gold, system, solution in done]
        else:
            maps = [solution.mapping for _, _, _, solution in done]
            counts = rows.matched(np.fromiter(chain.from_iterable(maps), np.int64)).tolist()
        return [pair_counts(held_item(pair.gold_entry.id, gold, system, solution, count))
                for (pair, gold, system, solution), count in zip(done, counts)]
