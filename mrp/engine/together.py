"""A searching metric's sentence pairs scored together (its :meth:`~mrp.engine.base.Metric.score_many`).

The outline is the same for every metric whose pairs become integer rows
(:class:`mrp.solver.problem.Rows`): pairs too large, documents and whatever
else the metric keeps apart are left to be scored alone; a pair that needs no
search is settled at once; the rest are searched in one compiled call
(:func:`mrp.solver.solve.solve_together`, which takes a pair its first steps
leave open on from there as alone), and a pair it leaves out is left alone
too.  A metric supplies the steps that differ, as functions of the pair's two
graphs or of their *forms* (SMATCH's triples, the MRP metric's normal graphs).
Each result is the one the metric's ``score`` gives the pair.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from mrp.corpora import size
from mrp.engine.base import PairCounts
from mrp.engine.options import Options
from mrp.engine.pairing import Pair
from mrp.solver import Batch, Rows, Solution, fits_memory, fits_together, solve_together, together

__all__ = ["Steps", "score_together"]


class Steps:
    """What a metric does to score a pair together (each function gets the pair with its graphs live, or
    as held when :attr:`held` says so)."""

    #: whether the functions take the pair as held (a graph may be packed: they unpack what they need)
    held = False

    def forms(self, pair: Pair) -> Optional[Tuple[Any, Any]]:
        """The two graphs' forms, or None when the pair is to be scored alone (e.g. documents)."""
        raise NotImplementedError

    def at_once(self, pair: Pair, gold: Any, system: Any) -> Optional[PairCounts]:
        """The result of a pair that needs no search (e.g. identical graphs), else None."""
        return None

    def rows(self, gold: Any, system: Any) -> Rows:
        """The integer rows of the pair's Problem."""
        raise NotImplementedError

    def batch(self, forms: Sequence[Tuple[Any, Any]]) -> Batch:
        """The rows of the pairs' Problems (:meth:`rows` of each pair's forms, gold's and system's), in
        order."""
        return Batch.of([self.rows(gold, system) for gold, system in forms])

    def solved(self, pair: Pair, gold: Any, system: Any, solution: Solution) -> PairCounts:
        """The pair's result from its Solution."""
        raise NotImplementedError

    def settled(self, done: Sequence[Tuple[Pair, Any, Any, Solution]], rows: Batch) -> List[PairCounts]:
        """The results of pairs (each with its forms and Solution) whose rows are ``rows``, in order: by
        default :meth:`solved` of each (a metric may check them all at once)."""
        return [self.solved(pair, gold, system, solution) for pair, gold, system, solution in done]


def score_together(steps: Steps, pairs: Sequence[Pair], options: Options) -> List[Optional[PairCounts]]:
    """The results of the pairs settled together (or at once), None for those to be scored alone: all of
    them when ``errors`` or ``explain`` is asked for or the search alone would not run as it runs here
    (:func:`mrp.solver.solve.together`)."""
    out: List[Optional[PairCounts]] = [None] * len(pairs)
    if options.errors or options.explain or not together(options.timeout, options.mip):
        return out
    todo: List[Tuple[int, Pair, Any, Any]] = []
    for k, pair in enumerate(pairs):
        n, m = size(pair.gold_entry), size(pair.system_entry)
        if not fits_together(n, m) or not fits_memory(n, m, options.max_memory):
            continue  # searched alone (or mapped in linear time, beyond --max-memory): nothing made here
        live = pair if steps.held else pair.live()
        found = steps.forms(live)
        if found is None:
            continue
        gold, system = found
        ready = steps.at_once(live, gold, system)
        if ready is not None:
            out[k] = ready
        else:
            todo.append((k, live, gold, system))
    rows = steps.batch([(gold, system) for _, _, gold, system in todo])
    solutions = solve_together(rows, options.limit, options.timeout, options.mip)
    solved: List[int] = []
    done: List[Tuple[Pair, Any, Any, Solution]] = []
    for at, ((_, live, gold, system), solution) in enumerate(zip(todo, solutions)):
        if solution is not None:
            solved.append(at)
            done.append((live, gold, system, solution))
    for at, result in zip(solved, steps.settled(done, rows.subset(solved))):
        out[todo[at][0]] = result
    return out
