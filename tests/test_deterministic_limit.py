"""``--limit`` is deterministic (issue 42, item 2): a pair handed to HiGHS is bounded by work derived from
the limit (a branch-and-bound node counts as a search step), never by a wall-clock allowance of its own;
the route (whether the program is built) is decided on the options, not on the time left; only the pair's
``--timeout`` stops anything by the clock, and a pair it stops is cut as "timeout"."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, List, Tuple

import numpy as np
import pytest

from mrp.solver import mip
from mrp.solver import solve as mrp_pair
from mrp.solver.solve import Solution, solve_problem

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mip import document  # noqa: E402

pytestmark = pytest.mark.skipif(not mip.available(), reason="HiGHS (highspy) is not installed")

#: the steps of the limited runs: the hand-over after MIP_AFTER, HiGHS given the rest as nodes
LIMIT = 3000


def _numbers(solution: Solution) -> Tuple[Any, ...]:
    return (solution.mapping, solution.value, solution.bound, solution.exact, solution.steps, solution.cut,
            solution.mip)


def _watched(monkeypatch: pytest.MonkeyPatch) -> List[Tuple[Any, Any]]:
    """The (seconds, nodes) of every program proved from now on."""
    calls: List[Tuple[Any, Any]] = []
    proved = mip.prove

    def watched(problem: Any, mapping: Any, seconds: Any, stop: Any, banned: Any = None,
                nodes: Any = None) -> Any:
        calls.append((seconds, nodes))
        return proved(problem, mapping, seconds, stop, banned, nodes)

    monkeypatch.setattr(mip, "prove", watched)
    return calls


@pytest.fixture(scope="module")
def hard() -> Any:
    """A merged coli document (16 sentences) the search does not close in 1000 steps (test_mip)."""
    return document(16, 0)


def test_a_limited_pair_does_not_depend_on_any_clock(hard: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same pair under the same --limit (no --timeout) gives the same numbers whatever the machine's
    speed: with HiGHS's per-variable time estimate made absurd (a machine 10,000 times slower) and any
    wall-clock allowance for the program made tiny, nothing changes.  Before, the program got 120 s of
    wall clock (MIP_SECONDS) and was built only when its estimated time fitted in that: on a loaded core
    the same pair was proved on one run and cut on another."""
    calm = solve_problem(hard, limit=LIMIT)
    assert calm.mip, "the pair did not reach the program: pick another"
    monkeypatch.setattr(mip, "COLUMN_SECONDS", 3.0)
    monkeypatch.setattr(mrp_pair, "MIP_SECONDS", 1e-3, raising=False)
    loaded = solve_problem(hard, limit=LIMIT)
    assert _numbers(loaded) == _numbers(calm)
    assert _numbers(solve_problem(hard, limit=LIMIT)) == _numbers(calm)


def test_the_program_gets_the_steps_the_limit_leaves_as_nodes(hard: Any,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """HiGHS is given no time limit without --timeout, and the steps left (limit - search steps) as its
    node budget."""
    calls = _watched(monkeypatch)
    solution = solve_problem(hard, limit=LIMIT)
    assert calls == [(None, LIMIT - mrp_pair.handover_steps(hard))]
    assert solution.mip and solution.value <= solution.bound
    calls.clear()
    solve_problem(hard, limit=LIMIT, timeout=30)
    assert len(calls) == 1 and 0 < calls[0][0] <= 30 and calls[0][1] == LIMIT - mrp_pair.handover_steps(hard)


def test_a_node_budget_of_one_is_kept_and_repeatable(hard: Any) -> None:
    """One node of HiGHS (limit = hand-over + 1): its answer is a valid one, the same each time."""
    limit = mrp_pair.handover_steps(hard) + 1
    first, second = solve_problem(hard, limit=limit), solve_problem(hard, limit=limit)
    assert first.mip and _numbers(first) == _numbers(second)
    assert first.value <= first.bound and mip.value_of(hard, np.array(first.mapping)) == first.value
    if not first.exact:
        assert first.cut == "limit"


@pytest.mark.parametrize("timed, cut", [(True, "timeout"), (False, "limit")])
def test_the_clock_stopping_the_program_is_a_timeout(hard: Any, monkeypatch: pytest.MonkeyPatch, timed: bool,
                                                     cut: str) -> None:
    """A program stopped by its time limit cuts the pair as "timeout" (even before the watchdog fires);
    one stopped by its node budget, as "limit"."""
    def stopped(problem: Any, mapping: Any, seconds: Any, stop: Any, banned: Any = None,
                nodes: Any = None) -> mip.Proof:
        return mip.Proof(np.asarray(mapping, np.int64), mip.value_of(problem, mapping), None, False,
                         timed=timed)

    monkeypatch.setattr(mip, "prove", stopped)
    solution = solve_problem(hard, limit=LIMIT, timeout=600)
    assert not solution.exact and solution.cut == cut


def test_a_document_program_gets_the_limit_as_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Documents (a sentence-by-sentence start) go to the program after the root: its node budget is the
    limit, with no time limit when there is no timeout."""
    from mrp.solver import handover

    problem = document(16, 0)
    calls = _watched(monkeypatch)
    seed = np.full(problem.U.shape[0], -1, np.int64)
    stop = np.zeros(1, np.int64)
    settled = handover.document(problem, LIMIT, mrp_pair.LAP_SIZE, None, stop, seed, None)
    assert settled.value <= settled.bound
    assert all(call == (None, LIMIT) for call in calls)
