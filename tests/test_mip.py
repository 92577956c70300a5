"""The mixed-integer program that proves what the branch and bound leaves open (mrp.solver.mip).

Its optimum is checked against the brute-force oracle on small random pairs (a wrong row would show as a
wrong value or a bound below the optimum); its hand-over from the search on a real document pair that the
search alone does not close in 1000 steps; its stop flag; and the search alone when HiGHS is missing.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any, Tuple

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mrp.graph import Graph
from mrp.normalize import normalize
from mrp.solver import mip
from mrp.solver import solve as mrp_metric
from mrp.solver.problem import Problem, build, from_rows
from mrp.solver.solve import solve_problem

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_oracle import pairs  # noqa: E402

from conftest import budget, shared_path  # noqa: E402
from oracle import optimum  # noqa: E402

pytestmark = pytest.mark.skipif(not mip.available(), reason="HiGHS (highspy) is not installed")


def random_map(rng, n: int, m: int) -> np.ndarray:
    """A random injective partial map of n gold onto m system positions (-1: unmatched)."""
    targets = list(range(m)) + [-1] * n
    rng.shuffle(targets)
    return np.array(targets[:n], np.int64)


def nobody(problem) -> np.ndarray:
    return np.full(problem.U.shape[0], -1, np.int64)


@budget(300)
@given(pairs(max_nodes=6))
def test_the_program_finds_the_brute_force_optimum(pair: Tuple[Graph, Graph]) -> None:
    gold, system = pair
    problem = build(normalize(gold), normalize(system))
    best = optimum(gold, system, maximal_only=True).best
    proof = mip.prove(problem, nobody(problem), None, np.zeros(1, np.int64))
    assert proof is not None and proof.finished
    assert proof.value == best, "the program's map is not optimal"
    assert proof.bound == best, "the program's bound is not the optimum"
    assert mip.value_of(problem, proof.mapping) == best


@budget(200)
@given(pairs(max_nodes=6), st.randoms(use_true_random=False))
def test_the_value_of_a_map_is_the_searchs(pair: Tuple[Graph, Graph], rng) -> None:
    from mrp.solver.incumbent import objective

    gold, system = pair
    problem = build(normalize(gold), normalize(system))
    pi = random_map(rng, *problem.U.shape)
    assert mip.value_of(problem, pi) == objective(pi, problem)


@budget(100)
@given(pairs(max_nodes=6))
def test_every_pair_handed_over_at_once_is_still_optimal(pair: Tuple[Graph, Graph]) -> None:
    """The search hands every pair it has not closed at the root over to the program."""
    gold, system = pair
    best = optimum(gold, system, maximal_only=True).best
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mrp_metric, "MIP_AFTER", 0)
        solution = solve_problem(build(normalize(gold), normalize(system)))
    assert solution.exact and solution.value == best == solution.bound


def document(k: int, number: int) -> Problem:
    """The SMATCH Problem of merged coli document ``number`` (0-based) of k sentences."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import documents

    from mrp.codecs.penman import read_string
    from mrp.engine.options import Options
    from mrp.metrics.smatch import metric as smatch
    from mrp.solver.problem import from_triples

    root = shared_path()
    options = Options(smatch_compat=True, penman=True)
    sides = []
    for source in documents.COLI:
        sentences = documents.graphs(root / source)[number * k:(number + 1) * k]
        text = documents.merged(sentences, number + 1)
        graph = read_string(text)[0]
        assert isinstance(graph, Graph)
        sides.append(smatch.triples(graph, options))
    (local_g, rel_g, _), (local_s, rel_s, _) = sides
    return from_triples(local_g, local_s, rel_g, rel_s)


def test_a_document_the_search_leaves_open_is_proved_by_the_program(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = document(16, 0)  # 8 sentences (document(8, 152)) are proved at the root since its reduction
    alone = solve_problem(problem, limit=1000, handover=False)
    assert not alone.exact and alone.bound > alone.value, "the search closes this pair alone: pick another"
    both = solve_problem(problem)
    assert both.mip and both.exact and both.bound == both.value >= alone.value
    assert mip.value_of(problem, np.array(both.mapping)) == both.value


def test_a_stopped_program_claims_nothing() -> None:
    """Stopped from outside (Ctrl-C, the watchdog), the program ends at once and proves nothing."""
    problem = document(16, 75)
    stop = np.zeros(1, np.int64)
    timer = threading.Timer(0.3, lambda: stop.__setitem__(0, 1))
    timer.start()
    started = time.monotonic()
    try:
        proof = mip.prove(problem, nobody(problem), None, stop)
    finally:
        timer.cancel()
    # wall time, the stop's own clock, with slack for a loaded machine: unstopped, the program runs to its
    # proof (some 16 s here), so the bound still fails a program that ignores the stop
    assert time.monotonic() - started < 8.0, "the program did not stop"
    assert proof is None or (not proof.finished and (proof.bound is None or proof.value <= proof.bound))
    assert mip.prove(problem, nobody(problem), None, stop) is None  # stopped before it starts


def test_the_program_keeps_its_time_limit() -> None:
    """HiGHS does not look at the clock in every phase: the program is ended at its limit + GRACE."""
    problem = document(16, 75)
    started = time.monotonic()
    proof = mip.prove(problem, nobody(problem), 0.5, np.zeros(1, np.int64))
    # wall time (the limit's own clock) with slack for a loaded machine; unstopped, it runs some 16 s
    assert time.monotonic() - started < 0.5 + mip.GRACE + 6.0
    assert proof is None or proof.bound is None or proof.value <= proof.bound


def test_without_highspy_the_search_decides_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mip, "_HIGHSPY", False)
    assert not mip.available()
    problem = document(16, 0)
    solution = solve_problem(problem, limit=2000)
    assert not solution.mip and solution.steps > 1000 and not solution.exact


def test_a_program_too_large_for_the_time_left_is_not_built() -> None:
    problem = document(16, 75)
    size = mip.columns(problem)
    assert mip.fits(problem, None)
    assert mip.fits(problem, 2 * size * mip.COLUMN_SECONDS)
    assert not mip.fits(problem, size * mip.COLUMN_SECONDS)
    assert not mip.fits(problem, 0.0) and not mip.fits(problem, -1.0)  # no time left: nothing counted


def test_too_many_edge_variables_alone_are_not_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_COLUMNS (or the time left) by its candidates alone, fits says no without the O(n m) count."""
    problem = document(16, 75)
    edges = problem.cc.shape[0]
    assert 0 < edges < mip.columns(problem)
    monkeypatch.setattr(mip, "columns", lambda _: pytest.fail("the columns were counted"))
    assert not mip.fits(problem, edges * mip.COLUMN_SECONDS)
    monkeypatch.setattr(mip, "MAX_COLUMNS", edges - 1)
    assert not mip.fits(problem, None)


@budget(100)
@given(pairs(max_nodes=6))
def test_a_pair_stopped_before_its_search_gets_the_roots_valid_bound(pair: Tuple[Graph, Graph]) -> None:
    """With the stop flag set before it starts, the search takes no step and its bound is the root's:
    above the optimum, its map's value exact."""
    from mrp.solver.kernel import solve

    gold, system = pair
    problem = build(normalize(gold), normalize(system))
    best = optimum(gold, system, maximal_only=True).best
    value, bound, steps, exact, pi = solve(problem, 10_000, 80, np.ones(1, np.int64), np.zeros(0, np.int64))
    assert steps == 0 and value <= best <= bound and exact == (value >= bound)
    assert mip.value_of(problem, pi) == value


def test_a_small_problem_is_searched_longer_before_it_is_handed_over() -> None:
    """A sentence-sized Problem gets up to MIP_SMALL_TIMES x MIP_AFTER steps; a document MIP_AFTER."""
    sentence = Problem(np.zeros((30, 30), np.int64), *[np.zeros(0, np.int64)] * 4,
                       np.zeros(1, np.int64), *[np.zeros(0, np.int64)] * 6)
    tiny = sentence._replace(U=np.zeros((3, 3), np.int64))
    large = document(8, 152)
    assert mrp_metric.handover_steps(large) == mrp_metric.MIP_AFTER
    steps = mrp_metric.handover_steps(sentence)
    assert steps % mrp_metric.MIP_AFTER == 0
    assert mrp_metric.MIP_AFTER < steps <= mrp_metric.MIP_SMALL_TIMES * mrp_metric.MIP_AFTER
    assert mrp_metric.handover_steps(tiny) == mrp_metric.MIP_SMALL_TIMES * mrp_metric.MIP_AFTER
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mrp_metric, "MIP_AFTER", 0)  # every pair open after the root goes to the program
        assert mrp_metric.handover_steps(sentence) == 0


def coli_pair(gid: str) -> Problem:
    """The SMATCH Problem of one shared coli sentence pair."""
    from mrp.solver.problem import from_rows

    return from_rows(coli_rows(gid))


def coli_rows(gid: str) -> Any:
    """The SMATCH rows (mrp.solver.problem.Rows) of one shared coli sentence pair."""
    from mrp.codecs.penman import read_string
    from mrp.engine.options import Options
    from mrp.metrics.smatch import metric as smatch
    from mrp.solver.problem import triple_rows

    root = shared_path()
    sides = []
    for name in ("coli.gold.amr", "coli.system.amr"):
        graphs = [g for g in read_string((root / "data/pairs/amr" / name).read_text(encoding="utf-8"))
                  if isinstance(g, Graph) and g.id == gid]
        sides.append(smatch.triples(graphs[0], Options(penman=True)))
    (local_g, rel_g, _), (local_s, rel_s, _) = sides
    return triple_rows(local_g, local_s, rel_g, rel_s)


def test_a_sentence_pair_the_search_leaves_open_is_closed_by_its_relaxation_not_handed_over() -> None:
    """A random pair of Rematch's testbed collection (gold 46, gold 426) needs 4,527 steps of search; after
    RELAX_AFTER of them its linear relaxation (14, the optimum) closes it, without HiGHS's process; without
    the program (--no-mip) the search closes it.  (No coli gold and system pair needs MIP_AFTER steps since
    the root's first shares, mrp.solver.kernel.first_shares.)"""
    from test_together_onward import rows_of_testbed

    problem = from_rows(rows_of_testbed((46, 426)))
    alone = solve_problem(problem, limit=mrp_metric.MIP_AFTER, handover=False)
    assert not alone.exact, "the search closes this pair in MIP_AFTER steps: pick another"
    solution = solve_problem(problem)
    assert solution.exact and not solution.mip and solution.steps == mrp_metric.RELAX_AFTER
    searched = solve_problem(problem, handover=False)
    assert searched.exact and searched.steps > mrp_metric.MIP_AFTER and searched.value == solution.value


def test_a_pair_the_main_thread_leaves_open_is_searched_on_without_the_program() -> None:
    """Without the hand-over, a pair the main thread's search leaves open goes on from its map in the
    helper thread up to the limit (its steps counted once), and ends optimal."""
    problem = coli_pair("757")
    whole = solve_problem(problem, handover=False)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mrp_metric, "MIP_AFTER", 0)  # the main thread stops at the root
        calls = []
        go_on = mrp_metric._go_on
        patch.setattr(mrp_metric, "_go_on", lambda *args: calls.append(1) or go_on(*args))
        solution = solve_problem(problem, handover=False)
    assert calls, "the main thread closed the pair: the helper thread did not go on"
    assert solution.exact and not solution.mip and solution.value == solution.bound == whole.value
    capped = solve_problem(problem, limit=50, handover=False)
    assert capped.steps <= 50 and not capped.exact and capped.value <= whole.value <= capped.bound



def _no_child(*args: Any) -> Any:
    raise AssertionError("a sentence pair's program was sent to a child process")


@budget(100)
@given(pairs(max_nodes=6))
def test_a_sentence_programs_answer_in_this_process_is_the_childs(pair: Tuple[Graph, Graph]) -> None:
    """A sentence pair's program (mip.in_process) is solved by HiGHS in this thread, no child process
    started, with the child's answer: map, value, bound, finished; and the brute-force optimum."""
    gold, system = pair
    problem = build(normalize(gold), normalize(system))
    stop = np.zeros(1, np.int64)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mip, "IN_PROCESS_PAIRS", -1)  # every program to the child, as before
        child = mip.prove(problem, nobody(problem), None, stop)
        patch.undo()
        patch.setattr(mip, "_in_child", _no_child)
        here = mip.prove(problem, nobody(problem), None, stop)
    assert child is not None and here is not None
    assert (here.mapping.tolist(), here.value, here.bound, here.finished) == \
        (child.mapping.tolist(), child.value, child.bound, child.finished)
    assert here.value == optimum(gold, system, maximal_only=True).best


def test_a_sentence_pair_handed_over_is_proved_without_a_process_a_document_with_one() -> None:
    """A sentence pair the search hands over (here at once: MIP_AFTER 0) is proved by HiGHS in this
    process (before, a run whose pairs were timed started HiGHS's kept process for it, about 0.3 s of CPU);
    a document's program, or one of more than SENTENCE_COLUMNS variables, still goes to a child process."""
    problem = coli_pair("757")
    whole = solve_problem(problem, handover=False)
    sent = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mrp_metric, "MIP_AFTER", 0)
        patch.setattr(mip, "_in_child", _no_child)
        solution = solve_problem(problem, timeout=30)
        assert solution.mip and solution.exact and solution.value == solution.bound == whole.value
        patch.setattr(mip, "_in_child", lambda *args: sent.append(1) or (None, None))
        patch.setattr(mip, "SENTENCE_COLUMNS", 10)
        assert mip.prove(problem, nobody(problem), None, np.zeros(1, np.int64)) is None and sent
        patch.undo()
        patch.setattr(mip, "_in_child", lambda *args: sent.append(2) or (None, None))
        large = document(8, 152)  # 124 x 117 nodes: more than IN_PROCESS_PAIRS node pairs
        assert large.U.size > mip.IN_PROCESS_PAIRS
        assert mip.prove(large, nobody(large), None, np.zeros(1, np.int64)) is None and sent[-1] == 2
