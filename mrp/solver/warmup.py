"""The solver's kernels made ready before any pair is scored.

numba compiles (or loads from its cache) a kernel at its first call.  Were
that first call a pair's, the pair's ``--timeout`` would pay for compiling
(30-60 s on a fresh install) and the pair would be cut where a warm run
proves it: the first run would differ from every later one.  So a metric that
searches calls :func:`ready` before its first pair: it solves a tiny Problem,
which compiles or loads every kernel the solver calls with the argument types
every pair uses, outside any pair's clock.  Forked workers inherit the
compiled code.
"""

from __future__ import annotations

import threading
from typing import Callable, Optional

import numpy as np

from mrp.solver.problem import Problem

__all__ = ["SLOW", "ready", "tiny_problem"]

#: seconds after which loading counts as compiling (a cached load takes well under one)
SLOW = 1.0

_READY = False
_LOCK = threading.Lock()


def tiny_problem() -> Problem:
    """Two gold nodes joined by an edge against two system nodes joined by an edge."""
    ints = lambda *values: np.array(values, np.int64)  # noqa: E731
    return Problem(U=np.array([[1, 0], [0, 1]], np.int64), src=ints(0), tgt=ints(1), lab=ints(0),
                   cptr=ints(0, 1), cc=ints(0), cd=ints(1), cf=ints(0), cw=ints(1), ssrc=ints(0),
                   stgt=ints(1), complete=True)


def ready(compiling: Optional[Callable[[], None]] = None) -> None:
    """Compile or load the solver's kernels in this process, once; ``compiling()`` is called when that
    takes longer than :data:`SLOW` seconds (it compiles, rather than loads from the cache)."""
    global _READY
    if _READY:
        return
    with _LOCK:
        if _READY:
            return
        from mrp.solver.kernel import solve

        done = threading.Event()
        teller: Optional[threading.Thread] = None
        if compiling is not None:
            def tell() -> None:
                if not done.wait(SLOW):
                    compiling()

            teller = threading.Thread(target=tell, name="mrp-compiling", daemon=True)
            teller.start()
        try:
            stop = np.zeros(1, np.int64)
            value, bound, _, exact, _ = solve(tiny_problem(), 10, 10, stop, np.zeros(0, np.int64))
            if (value, bound, exact) != (3, 3, True):
                raise RuntimeError(f"the solver's self-test gave {value} of {bound}, not 3 of 3")
            _documents(stop)
            _assembly()
        finally:
            done.set()
            if teller is not None:
                teller.join()  # no thread left behind: later forks must find this process single-threaded
        _READY = True


def _assembly() -> None:
    """The kernels that build Problems (mrp.solver.assemble), alone and many at once (mrp.solver.batch),
    compiled with the argument types every pair gives them: a node reward, an edge and a loop."""
    from mrp.solver.batch import search_rows
    from mrp.solver.problem import from_rows, triple_rows

    rows = triple_rows([{"a": 1}, {"b": 1}], [{"a": 2}, {"b": 1}], {(0, 1, "r"): 1, (0, 0, "s"): 1},
                       {(0, 1, "r"): 1, (0, 0, "s"): 3})
    built = from_rows(rows)
    if built.U.tolist() != [[5, 0], [0, 1]] or built.cw.tolist() != [1]:
        raise RuntimeError(f"building a Problem's self-test gave {built.U.tolist()} and {built.cw.tolist()}")
    searched = search_rows([rows], 10, 10)[0]
    if searched is None or (searched.value, searched.bound, searched.mapping) != (7, 7, [0, 1]):
        raise RuntimeError(f"the solver's self-test of many pairs gave {searched}")


def _documents(stop: np.ndarray) -> None:
    """The kernels documents call beside ``solve`` (mrp.solver.handover: ``settle``, then ``resume``),
    compiled with the argument types it gives them."""
    from mrp.solver.kernel import resume, settle

    problem = tiny_problem()
    best, bound, pi, share, banned = settle(problem, 10, stop, np.array([0, 1], np.int64))
    resume(problem, share, int(best), np.asarray(pi, np.int64).copy(), int(bound), 10, 10, banned, stop)
