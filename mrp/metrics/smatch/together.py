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
from mrp.solver import Batch, Interned, Rows, Solution

__all__ = ["Together"]


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
        maps = [solution.mapping for _, _, _, solution in done]
        counts = rows.matched(np.fromiter(chain.from_iterable(maps), np.int64)).tolist()
        return [pair_counts(held_item(pair.gold_entry.id, gold, system, solution, count))
                for (pair, gold, system, solution), count in zip(done, counts)]
