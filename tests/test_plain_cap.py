"""MRP_COMPILE=plain keeps a pair's time cap (issue 42): a plain-Python kernel still running a moment
(plain.GRACE) after its pair's stop flag was set is abandoned (ABANDON: a root past its first round returns
that round's bound and map), and a moment later interrupted wherever it is; a pair left without a root bound
gets a greedy map of its rewards (or its seed) and the Problem's trivial bound (mrp.solver.trivial).  The
whole run, building included, is timed in tests/test_big_pairs.py."""

from __future__ import annotations

import random
import threading
import time
from typing import Any, Dict, Iterator, List, Tuple

import numpy as np
import pytest

from mrp.solver import ABANDON, Abandoned

from conftest import cpu_seconds


def _rows(rng: random.Random, n: int, m: int, labels: int, density: float) -> Any:
    from mrp.solver.problem import triple_rows

    def nodes(k: int) -> List[Dict[Any, int]]:
        return [{rng.randrange(labels): rng.choice((1, 1, 2)) for _ in range(rng.randrange(1, 3))}
                for _ in range(k)]

    def edges(k: int) -> Dict[Tuple[int, int, Any], int]:
        return {(rng.randrange(k), rng.randrange(k), rng.randrange(3)): rng.choice((1, 1, 2))
                for _ in range(int(density * k * k) + 1)}

    return triple_rows(nodes(n), nodes(m), edges(n), edges(m))


@pytest.fixture
def plain() -> Iterator[None]:
    """Every kernel called from Python runs as plain Python, as under MRP_COMPILE=plain."""
    from mrp import compiled as jit
    from mrp.solver.warmup import _only_plain

    saved = jit.current_route()
    jit.route(_only_plain)
    try:
        yield
    finally:
        jit.route(saved)


def test_a_call_past_its_grace_is_abandoned_wherever_it_is() -> None:
    """A loop that reads no flag is stopped a grace after its stop flag was set; a call that ends within the
    grace returns what it returns, and one without its flag set runs to its end."""
    from mrp.solver.plain import watched

    stop = np.zeros(1, np.int64)

    def spin() -> None:
        while True:
            pass

    timer = threading.Timer(0.05, lambda: stop.__setitem__(0, 1))
    timer.start()
    began = cpu_seconds()  # CPU time: the machine's load does not stretch it
    with pytest.raises(Abandoned):
        watched(spin, (), stop, 0.05)
    assert cpu_seconds() - began < 1.0
    timer.join()
    assert watched(lambda x: x + 1, (1,), stop, 0.5) == 2
    assert watched(lambda: sum(range(100_000)), (), np.zeros(1, np.int64), 0.0) == sum(range(100_000))


def test_an_abandoned_call_leaves_no_exception_behind() -> None:
    """Calls that end about when their grace runs out either return or raise Abandoned, never anything
    later: the interruption is raised inside ``watched`` or withdrawn there."""
    from mrp.solver.plain import watched

    stop = np.ones(1, np.int64)
    outcomes = []
    for k in range(60):
        seconds = 0.3 if k % 20 == 0 else 0.004 + 0.0005 * (k % 20)  # the watcher wakes every 0.01 s

        def busy(until: float = time.monotonic() + seconds, k: int = k) -> int:
            while time.monotonic() < until:
                pass
            return k

        try:
            outcomes.append(watched(busy, (), stop, 0.0) == k)
        except Abandoned:
            outcomes.append(False)
        spent = time.monotonic() + 0.002
        while time.monotonic() < spent:  # an interruption left pending would be raised here
            pass
    assert not all(outcomes), "the long calls are abandoned"


@pytest.mark.parametrize("seed", range(40))
def test_the_trivial_answer_is_valid(plain: None, seed: int) -> None:
    """On random Problems: the rewards' greedy map is injective, its value the kernels' objective, and the
    trivial bound is at least the proved optimum (a document's seed, when better, is kept)."""
    from mrp.solver.incumbent import objective
    from mrp.solver.kernel import solve
    from mrp.solver.plain import twin
    from mrp.solver.problem import from_rows
    from mrp.solver.trivial import answer, bound, rewards_map, value

    rng = random.Random(seed)
    n, m = rng.randrange(0, 8), rng.randrange(0, 8)
    problem = from_rows(_rows(rng, max(n, 1), max(m, 1), rng.choice((1, 2, 4)), rng.choice((0.1, 0.3))))
    best, proved, _, exact, optimal = twin(solve)(problem, 10**6, 700, np.zeros(1, np.int64),
                                                  np.zeros(0, np.int64))
    assert exact and best == proved
    assert bound(problem) >= best
    pi = rewards_map(problem)
    used = pi[pi >= 0].tolist()
    assert len(used) == len(set(used))
    assert value(problem, pi) == twin(objective)(pi, problem)
    assert value(problem, optimal) == best
    mapping, found, top = answer(problem, np.asarray(optimal, np.int64))
    assert (found, top) == (best, bound(problem)) and value(problem, np.asarray(mapping)) == best


def test_a_root_abandoned_later_keeps_its_bound(plain: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """ABANDON set in the root's second round: the kernel returns at once (no further row, no search) the
    first round's bound, at least the root's final bound (so valid), and its map with that map's value; set
    in the first round, NO_BOUND (solve_problem then gives the trivial answer)."""
    from mrp.solver import NO_BOUND
    from mrp.solver.incumbent import objective
    from mrp.solver.kernel import solve
    from mrp.solver.plain import _space, twin

    problem = _problem(random.Random(5), 12, 0.2)
    empty = np.zeros(0, np.int64)
    space = _space("mrp.solver.potential")
    real = space["row"]
    every: List[int] = []
    monkeypatch.setitem(space, "row", lambda *args: every.append(1) or real(*args))
    best, rooted, _, exact, _ = twin(solve)(problem, 0, 700, np.zeros(1, np.int64), empty)  # the root alone
    assert not exact and len(every) > 2 * 12, "the root has a second round"
    for rows in (18, 6):  # in the second round, in the first
        calls: List[int] = []
        stop = np.zeros(1, np.int64)

        def counted(*args: Any, calls: List[int] = calls, stop: Any = stop, rows: int = rows) -> Any:
            calls.append(1)
            if len(calls) == rows:
                stop[0] = ABANDON
            return real(*args)

        monkeypatch.setitem(space, "row", counted)
        value, bound, steps, _, mapping = twin(solve)(problem, 10**7, 700, stop, empty)
        assert len(calls) == rows and steps == 0
        if rows > 12:
            assert rooted <= bound < NO_BOUND and 0 < value == twin(objective)(mapping, problem) <= bound
        else:
            assert bound == NO_BOUND


def test_solve_problem_answers_an_abandoned_pair(plain: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pair out of time whose plain-Python root is abandoned: the trivial answer, cut as timeout, at once
    (its first round as plain Python takes far longer than the grace)."""
    from mrp.solver import plain as plain_module
    from mrp.solver.solve import solve_problem
    from mrp.solver.trivial import answer

    problem = _problem(random.Random(11), 150, 0.02)
    monkeypatch.setattr(plain_module, "GRACE", 0.0)
    began = cpu_seconds()  # CPU time: the machine's load does not stretch it
    solution = solve_problem(problem, timeout=0.0)
    assert cpu_seconds() - began < 1.0
    mapping, value, bound = answer(problem, np.zeros(0, np.int64))
    assert solution.cut == "timeout" and not solution.exact and solution.complete
    assert (solution.mapping, solution.value, solution.bound) == (mapping, value, bound)
    assert bound >= value > 0


def _problem(rng: random.Random, n: int, density: float) -> Any:
    """A Problem built as plain Python with no clock."""
    from mrp.solver.problem import from_rows

    return from_rows(_rows(rng, n, n, 3, density))


def test_building_past_the_grace_keeps_the_rewards(plain: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Building a Problem out of time: the candidates' twin, past its grace, is abandoned and the Problem
    keeps its rewards only (not complete, as when the clock stops building); the pair's flag then holds
    ABANDON, and its next kernel call is abandoned at once."""
    from mrp.solver import plain as plain_module
    from mrp.solver import warmup
    from mrp.solver.kernel import solve
    from mrp.solver.problem import from_rows
    from mrp.solver.watchdog import watchdog

    real = warmup.twin

    def slow(kernel: Any) -> Any:
        if kernel.py_func.__name__ != "candidates":
            return real(kernel)

        def spin(*args: Any) -> Any:
            while True:
                pass

        return spin

    rows = _rows(random.Random(3), 20, 20, 3, 0.1)
    whole = from_rows(rows)
    monkeypatch.setattr(warmup, "twin", slow)
    monkeypatch.setattr(plain_module, "GRACE", 0.05)  # the rewards' twin (20 x 20) ends well within it
    stop = np.zeros(1, np.int64)
    watchdog().arm(stop, 0.0)
    try:
        built = from_rows(rows)
    finally:
        watchdog().disarm()
    assert not built.complete and np.array_equal(built.U, whole.U)
    assert stop[0] == ABANDON
    with pytest.raises(Abandoned):
        solve(built, 10, 10, stop, np.zeros(0, np.int64))
