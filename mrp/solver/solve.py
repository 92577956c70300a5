"""The solver's entry point: a pair's Problem to its Solution (an optimal map with its proof, or the best
found with a bound), by the compiled branch and bound and the hand-over to the mixed-integer program; many
sentence pairs searched together; the Solution of a graph paired with itself.

Every searching metric calls this module (:func:`solve_problem`, :func:`solve_within`,
:func:`solve_together`); importing it imports neither numba nor HiGHS.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from mrp.solver import LAP_SIZE, NO_BOUND, Abandoned, mip, relaxation
from mrp.solver.batch_rows import Batch
from mrp.solver.problem import Problem, Rows, from_rows, unmapped_across, within
from mrp.solver.watchdog import clock, interruptible, left, pair_clock, watchdog

#: Search steps per pair unless --limit says otherwise.
DEFAULT_LIMIT = 5_000_000
#: Pairs of at most this many node pairs are searched in the main thread up to their hand-over to the
#: program (handover_steps: a fifth of a second of search at most, so Ctrl-C still stops a run at once;
#: the helper thread would cost more than the search); a pair that this does not settle goes on in the
#: helper thread (to the program, or the search alone up to the limit).
_SMALL = 2500
#: Search steps after which a sentence pair searched in the main thread that the search has not closed gets
#: the bound of its linear relaxation (mrp.solver.relaxation.sentence_relaxation), before it is searched on:
#: on random pairs of coli graphs (Rematch's testbed) 4% of pairs are open after the root (808 of 20,000 with
#: the first shares of mrp.solver.kernel.first_shares), nearly all with the Lagrangian bound one above the
#: optimum, and the relaxation closes nearly all of them in about 2-3 ms each (HiGHS's simplex and the program
#: built in Python).  Of those 808, 100 steps close 369, 300 close 605 and 500 close 681; the steps up to
#: about 300 cost less than the relaxations they save, those beyond about what they save.  Pairs scored
#: together (:func:`solve_together`) are searched together up to this many steps, and go on from there as
#: alone.
RELAX_AFTER = 300
#: Search steps after which a pair the search has not closed goes to the mixed-integer program ...
MIP_AFTER = 1000
#: ... times up to MIP_SMALL_TIMES for a small Problem: as many as HANDOVER_WORK allows, counted in steps
#: times (node pairs + candidate edges), about a fifth of a second of search on sentence pairs, what
#: starting HiGHS's process costs (a sentence pair that needs 4,000 steps is closed in 0.08 s by the search
#: and took 0.35 s when handed over)
MIP_SMALL_TIMES = 16
HANDOVER_WORK = 8_000_000


class Solution(NamedTuple):
    """A correspondence (gold position -> system position or -1) with its value and proof status."""

    mapping: List[int]
    value: int
    bound: int
    exact: bool
    steps: int
    #: why the search stopped before proving optimality: "limit", "timeout", or None
    cut: Optional[str]
    #: False when the problem was solved on node rewards only (too large, or out of time while built):
    #: ``value`` and ``bound`` then count node rewards only, and the caller counts the map itself
    complete: bool = True
    #: True when the mixed-integer program (mrp.solver.mip) took over from the search
    mip: bool = False
    #: what the user should know about how the pair was solved (e.g. HiGHS's process died), else None
    note: Optional[str] = None
    #: a document not proved: where its gap sits, sentence by sentence (mrp.solver.attribution.where)
    gap: Optional[Dict[str, Any]] = None


#: A start for a built Problem, given the pair's stop flag (None: no start).
Seeding = Callable[[Problem, np.ndarray], Optional[np.ndarray]]
#: What the solver gets for "no seed".
_NO_SEED = np.zeros(0, np.int64)


def solve_problem(problem: Union[Problem, Callable[[np.ndarray], Problem]], limit: Optional[int] = None,
                  timeout: Optional[float] = None,
                  seeding: Optional[Seeding] = None, handover: bool = True) -> Solution:
    """An optimal map, or the best found within ``limit`` steps and ``timeout`` seconds with a bound.

    ``problem`` may be a function of the stop flag that builds the Problem: the
    timeout then covers building too.  A pair the search has not closed after
    :func:`handover_steps` steps goes to the mixed-integer program of mrp.solver.mip when
    HiGHS is installed, the limit allows more steps than that, and the program
    fits the pair's ``timeout`` (``mip.fits``; not the time left: the same route on any machine), unless
    ``handover`` is False (``--no-mip``).  The program gets the steps ``limit`` leaves as nodes (work, not
    time); only ``timeout`` stops anything by the clock, and a pair it stops is cut as "timeout".
    ``seeding`` gives a map to start from for the built Problem and the pair's
    stop flag (e.g. mrp.engine.seed's sentence-by-sentence map), or None.  A pair whose kernels, run as
    plain Python (``MRP_COMPILE=plain``), were abandoned past its time (:mod:`mrp.solver.plain`) keeps the
    bound and map of its root's rounds, or, abandoned in the first, gets :func:`mrp.solver.trivial.answer`:
    the better of a greedy map of its rewards and the seed, with the Problem's trivial bound.
    """
    return _solved(problem, limit, timeout, seeding, handover, None)


def _solved(problem: Union[Problem, Callable[[np.ndarray], Problem]], limit: Optional[int],
            timeout: Optional[float], seeding: Optional[Seeding], handover: bool,
            begun: Optional[Solution]) -> Solution:
    """:func:`solve_problem`'s work; ``begun``: the search's first :data:`RELAX_AFTER` steps of a sentence
    pair (a built Problem, no seed) when :func:`solve_together`'s batch ran them: the pair goes on from there
    exactly as alone."""
    steps_limit = DEFAULT_LIMIT if limit is None else limit
    stop = np.zeros(1, np.int64)
    started = clock()
    cap = timeout
    timeout = left(timeout)  # what the pair's normalizing and building left of its cap
    if timeout is not None:
        if timeout <= 0:
            stop[0] = 1  # no time at all: stopped before building, not whenever the watchdog wakes up
        watchdog().arm(stop, timeout)
    try:
        built = problem if isinstance(problem, Problem) else problem(stop)
        seed = _NO_SEED
        solution: Optional[Solution] = None
        try:
            found = seeding(built, stop) if seeding is not None and built.complete and not stop[0] else None
            seed = _NO_SEED if found is None else found
            deadline = None if timeout is None else started + timeout
            solution = _searched(built, steps_limit, deadline, stop, seed, handover, cap, begun)
        except Abandoned:  # plain Python past the pair's time (mrp.solver.plain)
            pass
        if solution is None or solution.bound >= NO_BOUND:  # abandoned in the root's first round
            from mrp.solver.trivial import answer

            mapping, value, bound = answer(built, seed)
            solution = Solution(mapping, value, bound, value >= bound, 0, None)
    finally:
        if timeout is not None:
            watchdog().disarm()
    exact = solution.exact and built.complete
    cut = None if exact else ("timeout" if stop[0] else "limit")
    return solution._replace(exact=exact, cut=cut, complete=built.complete)


def _searched(built: Problem, limit: int, deadline: Optional[float], stop: np.ndarray, seed: np.ndarray,
              handover: bool, cap: Optional[float], begun: Optional[Solution] = None) -> Solution:
    """:func:`solve_problem`'s search of a built Problem (``cut`` and ``complete`` are the caller's): a small
    pair in the main thread up to its hand-over, the rest in the helper thread (:func:`_solve`); ``begun``:
    the first steps' result (:func:`_settled`), a small pair's in the main thread."""
    arguments = (built, limit, deadline, stop, seed, handover, cap)
    if threading.current_thread() is not threading.main_thread():
        return _solve(*arguments)
    if built.U.size <= _SMALL:
        relax = handover and built.complete and seed.shape[0] == 0 and mip.installed()
        searched, going = _settled(built, min(limit, handover_steps(built)), stop, seed, relax, deadline,
                                   begun)
        if searched.exact or stop[0] or searched.steps >= limit:
            return searched
        found = interruptible(_solve, (going,) + arguments[1:] + (searched,), stop)
        return found if going is built else revalued(built, found)
    return interruptible(_solve, arguments, stop)


#: Pairs scored together (:func:`solve_together`) are searched together up to this many steps each ...
TOGETHER_STEPS = RELAX_AFTER
#: ... when each pair's time cap is at least this (seconds) or there is none: far more than those steps take
#: (a pair left open then goes on alone, its clock started after them)
TOGETHER_TIMEOUT = 1.0


def together(timeout: Optional[float], handover: bool) -> bool:
    """Whether :func:`solve_together` can settle any pair here: the search alone would run the same way
    (HiGHS to hand over to, in this thread) and no pair's clock could cut it."""
    return handover and mip.installed() and (timeout is None or timeout >= TOGETHER_TIMEOUT) \
        and threading.current_thread() is threading.main_thread()


def fits_together(n: int, m: int) -> bool:
    """Whether a pair of ``n`` and ``m`` nodes is small enough for :func:`solve_together`."""
    return n * m <= _SMALL


def solve_together(rows: Union[Sequence[Rows], Batch], limit: Optional[int] = None,
                   timeout: Optional[float] = None, handover: bool = True) -> List[Optional[Solution]]:
    """:func:`solve_problem`'s Solution for each pair of rows (sentence pairs: no seed; their Rows, or a
    :class:`~mrp.solver.batch_rows.Batch` of them), their first :data:`TOGETHER_STEPS` search steps run for
    all of them in one compiled call; None for a pair the batch leaves out (and for all when the search would
    not run that way here: see :func:`together`), which is to be solved alone.

    A pair the batch leaves open goes on from there exactly as alone (its relaxation, more search up to its
    hand-over, HiGHS's program: :func:`_settled`, :func:`_solve`), with ``limit`` and ``timeout``.  Its
    clock starts when it leaves the batch (:func:`mrp.solver.watchdog.start_pair`): the batch's steps are
    not counted, as they are not for the pairs the batch settles (a fraction of a millisecond a pair, where
    a timeout is at least :data:`TOGETHER_TIMEOUT`)."""
    steps_limit = DEFAULT_LIMIT if limit is None else limit
    steps = min(TOGETHER_STEPS, steps_limit)
    if not together(timeout, handover):
        return [None] * len(rows)
    from mrp.solver.batch import search_batch

    small, batch = _small(rows)
    out: List[Optional[Solution]] = [None] * len(rows)
    for at, (k, searched) in enumerate(zip(small, search_batch(batch, steps, LAP_SIZE, True))):
        if searched is None:
            continue
        found = Solution(searched.mapping, searched.value, searched.bound, searched.exact, searched.steps,
                         None)
        if not searched.ended:  # open at RELAX_AFTER (or at the limit): on as alone, its clock from now
            with pair_clock():
                found = _solved(from_rows(batch.rows(at)), limit, timeout, None, handover, found)
        out[k] = found
    return out


def _small(rows: Union[Sequence[Rows], Batch]) -> Tuple[List[int], Batch]:
    """The positions of the pairs small enough for the batch (:func:`fits_together`), and their Batch."""
    if isinstance(rows, Batch):
        small = [k for k, (n, m) in enumerate(rows.sizes[:, :2].tolist()) if fits_together(n, m)]
        return small, rows.subset(small)
    small = [k for k, pair in enumerate(rows) if fits_together(pair.n, pair.m)]
    return small, Batch.of([rows[k] for k in small])


def _search(built: Problem, limit: int, stop: np.ndarray, seed: np.ndarray) -> Solution:
    """The search alone, in this thread."""
    from mrp.solver.kernel import solved

    value, bound, steps, exact, pi = solved(built, limit, LAP_SIZE, stop, seed)
    return _solution(value, bound, steps, exact, pi, False)


def _settled(built: Problem, steps: int, stop: np.ndarray, seed: np.ndarray, relax: bool,
             deadline: Optional[float], begun: Optional[Solution] = None) -> Tuple[Solution, Problem]:
    """The search up to ``steps``; with ``relax``, a pair still open after RELAX_AFTER of them gets the bound
    of its linear relaxation and the map rounded from it (:func:`_relaxed`) first, and is searched on only
    when that does not close it, on the Problem the relaxation's reduced costs leave
    (:func:`mrp.solver.relaxation.fixed`).  ``begun``: the result of the first search (up to RELAX_AFTER
    steps with ``relax``, else ``steps``) when it ran already (:func:`solve_together`'s batch).

    Returns:
        The Solution (its value that of its map in ``built``), and the Problem to go on with: ``built``, or
        the smaller one of the same optimum that the relaxation left.
    """
    first = begun if begun is not None else _search(built, min(steps, RELAX_AFTER) if relax else steps, stop,
                                                    seed)
    if not relax or first.exact or stop[0] or first.steps >= steps:
        return first, built
    first, going = _relaxed(built, first, None if deadline is None else deadline - clock())
    if first.exact or stop[0]:
        return first, going
    return revalued(built, _go_on(going, steps, first, stop)), going


def _relaxed(built: Problem, found: Solution, seconds: Optional[float]) -> Tuple[Solution, Problem]:
    """``found`` with the better of its bound and the bound of the Problem's linear relaxation (HiGHS's
    simplex, ``seconds`` at most; None: no cap): exact when that bound is its value; and the Problem to go
    on with (``built`` without what the relaxation's reduced costs rule out, when it is not exact)."""
    relaxed = relaxation.sentence_relaxation(built, seconds)
    if relaxed is None:
        return found, built
    value = mip.value_of(built, relaxed.mapping)
    if value > found.value:  # the relaxation's map is better than the search's (often its optimum)
        found = found._replace(mapping=relaxed.mapping.tolist(), value=value)
    if relaxed.bound < found.bound:
        found = found._replace(bound=max(relaxed.bound, found.value))
    found = found._replace(exact=found.value >= found.bound)
    if found.exact or relaxed.model is None or relaxed.duals is None:
        return found, built
    mapping = np.array(found.mapping, np.int64)
    return found, relaxation.fixed(built, relaxed.model, relaxed.duals, found.value, mapping, relaxed.costs)


def revalued(built: Problem, found: Solution) -> Solution:
    """``found``, searched on a Problem of the same optimum as ``built`` whose maps are worth at most their
    value in ``built`` (:func:`mrp.solver.relaxation.fixed`), with its map's value in ``built``."""
    value = mip.value_of(built, np.array(found.mapping, np.int64))
    return found._replace(value=value, bound=max(found.bound, value), exact=value >= found.bound)


def _solve(built: Problem, limit: int, deadline: Optional[float], stop: np.ndarray,
           seed: np.ndarray, handover: bool = True, cap: Optional[float] = None,
           searched: Optional[Solution] = None) -> Solution:
    """The search, then (for a pair it leaves open) the program; ``cut`` and ``complete`` are the caller's.
    ``cap``: the pair's timeout (the route is decided on it); ``deadline``: when the clock stops the pair.

    ``searched``: the search's result up to :func:`handover_steps` when it ran already (in the main
    thread); without a hand-over the search then goes on from its map up to ``limit``.  A document
    (a pair with a sentence-by-sentence ``seed``) goes to :func:`mrp.solver.handover.document`.
    """
    if built.complete and limit > MIP_AFTER and handover and mip.installed() and seed.shape[0] > 0:
        from mrp.solver.handover import document  # a document: fixing first, then the program on the rest

        done = document(built, limit, LAP_SIZE, deadline, stop, seed, cap)
        return _solution(*done[:5], done.used)._replace(note=done.note)
    after = handover_steps(built)
    handoff = built.complete and limit > after and handover and not stop[0] and mip.fits(built, cap)
    if searched is None:
        found = _search(built, after if handoff else limit, stop, seed)
    else:
        found = searched if handoff else _go_on(built, limit, searched, stop)
    if not handoff or found.exact or stop[0]:
        return found
    seconds = None if deadline is None else deadline - clock()
    proof = mip.prove(built, np.array(found.mapping, np.int64), seconds, stop, nodes=limit - found.steps)
    if proof is None:
        return found
    if proof.timed:
        stop[0] = 1  # the clock stopped it: the pair's timeout, whether or not the watchdog has fired yet
    if proof.died is not None:
        # HiGHS's process died on its own (killed from outside, e.g. out of memory): the search goes on
        note = f"HiGHS's process died ({proof.died}); the branch and bound went on alone"
        return _go_on(built, limit, found, stop)._replace(note=note)
    value, pi = (proof.value, proof.mapping) if proof.value > found.value else (found.value, found.mapping)
    bound = found.bound if proof.bound is None else min(found.bound, proof.bound)
    return _solution(value, bound, found.steps, value >= bound, np.asarray(pi, np.int64), True)


def _go_on(built: Problem, limit: int, found: Solution, stop: np.ndarray) -> Solution:
    """The search again from ``found``'s map, for the steps ``limit`` leaves; the better of both bounds."""
    from mrp.solver.kernel import solved

    value, bound, steps, _, pi = solved(built, limit - found.steps, LAP_SIZE, stop,
                                        np.array(found.mapping, np.int64))
    bound = min(bound, found.bound)
    return _solution(value, bound, found.steps + steps, value >= bound, pi, False)


def handover_steps(built: Problem) -> int:
    """The search steps a Problem gets before it goes to the program (MIP_AFTER, more when it is small)."""
    n, m = built.U.shape
    times = HANDOVER_WORK // (MIP_AFTER * (n * m + built.cc.shape[0]) + 1)
    return MIP_AFTER * max(1, min(MIP_SMALL_TIMES, times))


def _solution(value: Any, bound: Any, steps: Any, exact: Any, pi: np.ndarray, used: bool) -> Solution:
    """A Solution of the solver's numbers (``cut`` and ``complete`` are set by solve_problem)."""
    return Solution(np.asarray(pi, np.int64).tolist(), int(value), int(bound), bool(exact), int(steps), None,
                    True, used)


def solve_within(builder: Callable[[np.ndarray], Problem], groups: Optional[Tuple[np.ndarray, np.ndarray]],
                 restricted: bool, limit: Optional[int], timeout: Optional[float], start: Optional[Seeding],
                 handover: bool) -> Solution:
    """:func:`solve_problem` on the Problem ``builder`` builds; ``groups``: the sentences of gold's and
    system's nodes on documents (else None): with ``restricted``, gold node i matches only system nodes of
    its sentence; a document not proved gets the ``gap`` of its map, sentence by sentence."""
    built: List[Problem] = []

    def building(stop: np.ndarray) -> Problem:
        problem = builder(stop)
        if groups is not None and restricted:
            problem = within(problem, *groups)
        built.append(problem)
        return problem

    # a sentence-by-sentence start exists only for a pair of documents (whose groups are known)
    solution = solve_problem(building, limit, timeout, start if groups is not None else None, handover)
    if groups is not None and restricted:
        solution = solution._replace(mapping=unmapped_across(solution.mapping, *groups))
    if groups is not None and not solution.exact and built and built[0].complete:
        from mrp.solver.attribution import where

        solution = solution._replace(gap=where(built[0], solution.mapping, groups[0]))
    return solution


def identity(n: int) -> Solution:
    """The Solution of a graph paired with itself: node for node, proved without a search."""
    return Solution(list(range(n)), -1, -1, True, 0, None, False)


