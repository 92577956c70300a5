"""Documents: the root, reduced-cost fixing, then the program on what is left, then the search.

On a document (a pair given a sentence-by-sentence start) the root's incumbent
is nearly always optimal already and its bound a few triples above it, while
each search step costs an assignment over hundreds of nodes: 1,000 steps of
search before the hand-over took 8-19 s of CPU on merged coli documents of 32
and 64 sentences and closed none of them.  Here the search is skipped: after
the root (``kernel.settle``), the pairs that reduced-cost fixing proves useless
to any better map are left out of the program (``mip.without``: every pair
whose assignment bound cannot beat the incumbent, the incumbent's own pairs
kept), which leaves a small fraction of its variables; HiGHS then proves the
incumbent or finds a better map within the time left.  The search runs only
when the program is not run (too large for the time left, HiGHS missing) or
HiGHS's process died; its steps count against ``limit`` as before.  A program too large for the time
left gets the bound of its linear relaxation instead (``mrp.solver.relaxation``, within the time left),
which is then what the search starts from.

Every answer keeps the promise of the solver: a valid upper bound, exact when
it equals the value found.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from mrp.solver import mip, relaxation
from mrp.solver.kernel import fix_size, resume, settle
from mrp.solver.problem import Problem
from mrp.solver.watchdog import clock

__all__ = ["Settled", "document"]

#: The relaxation's bound is sought only with more seconds than this left (HiGHS's PDLP needs half a
#: minute to a minute on the 200,000-270,000 variables of a k = 64 document's program).
RELAXATION_LEAST = 1.0


class Settled(NamedTuple):
    """What :func:`document` found: a map with its value, a bound, search steps, and how."""

    value: int
    bound: int
    steps: int
    exact: bool
    mapping: np.ndarray
    #: True when the program (HiGHS) was run
    used: bool
    #: what the user should know (HiGHS's process died), else None
    note: Optional[str] = None


def document(problem: Problem, limit: int, lap_size: int, deadline: Optional[float], stop: np.ndarray,
             seed: np.ndarray, cap: Optional[float]) -> Settled:
    """The optimum of a document pair's Problem from its ``seed``: root and fixing, the program, then the
    search for ``limit`` steps at most if still open.

    ``deadline``: when the clock stops the pair (watchdog.clock(); None: never); ``cap``: the pair's
    timeout, on which the route is decided (whether the program fits, or its relaxation is sought), so
    that the same options take the same route on any machine; the program's work is bounded by ``limit``
    (a node of HiGHS's counts as a step).  A program stopped at its time limit sets ``stop`` (the pair's
    stop flag): the pair is then cut by its timeout."""
    best, bound, pi, share, banned = settle(problem, lap_size, stop, seed, fix_size(lap_size))
    best, bound = int(best), int(bound)
    if best >= bound or stop[0]:
        return Settled(best, bound, 0, best >= bound, pi, False)
    left = None if deadline is None else deadline - clock()
    program = mip.without(problem, banned, pi)
    used = False
    if mip.fits(program, cap):
        proof = mip.prove(problem, pi, left, stop, banned, nodes=limit)
        if proof is not None and proof.timed:
            stop[0] = 1
        if proof is not None and proof.died is not None:
            note = f"HiGHS's process died ({proof.died}); the branch and bound went on alone"
            return _search(problem, share, best, pi, bound, limit, lap_size, banned, stop, note)
        if proof is not None:
            used = True
            if proof.value > best:
                best, pi = proof.value, np.asarray(proof.mapping, np.int64).copy()
            if proof.bound is not None:
                bound = min(bound, proof.bound)
            if best >= bound or stop[0]:
                return Settled(best, max(best, bound), 0, best >= bound, pi, True)
    elif mip.installed() and cap is not None and cap > RELAXATION_LEAST:
        # too large for the program in the pair's cap (k = 64): the bound of its relaxation instead
        relaxed = relaxation.bound(program, pi, None if left is None else left - mip.GRACE, stop)
        if relaxed is not None:
            used, bound = True, min(bound, max(best, relaxed))
            if best >= bound or stop[0]:
                return Settled(best, bound, 0, best >= bound, pi, True)
    found = _search(problem, share, best, pi, bound, limit, lap_size, banned, stop, None)
    return found._replace(used=used)


def _search(problem: Problem, share: np.ndarray, best: int, pi: np.ndarray, bound: int, limit: int,
            lap_size: int, banned: np.ndarray, stop: np.ndarray, note: Optional[str]) -> Settled:
    """The branch and bound from the incumbent (its map ``pi``, updated in place) below ``bound``."""
    pi = np.asarray(pi, np.int64).copy()
    value, again, steps, _ = resume(problem, share, best, pi, bound, limit, lap_size, banned, stop)
    bound = min(bound, int(again))
    return Settled(int(value), max(int(value), bound), int(steps), int(value) >= bound, pi, False, note)
