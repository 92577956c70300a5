"""A sentence pair the batch of :func:`mrp.solver.solve.solve_together` leaves open after its
TOGETHER_STEPS steps and its relaxation goes on in the batch exactly as alone: more search up to its
hand-over, then HiGHS's program, with the Solution :func:`~mrp.solver.solve.solve_problem` gives it alone,
field for field (such a pair used to be handed back and searched again from scratch).  The two pairs are
random pairs of Rematch's testbed (coli graphs)."""

from __future__ import annotations

from typing import Any

import pytest

from mrp.solver import mip, watchdog
from mrp.solver.problem import from_rows
from mrp.solver.solve import RELAX_AFTER, TOGETHER_STEPS, handover_steps, solve_problem, solve_together

#: a pair that needs 276 steps: open after the batch's steps and its relaxation
SEARCHED_ON = (
    '(c5 / contrast-01 :ARG1 (s / state-01 :ARG0 (p / person :wiki - :name (n / name :op1 "Oguz")) :ARG1'
    ' (o / originate-01 :ARG1 (c2 / chemist) :ARG2 (c3 / country :ARG1-of (n2 / near-02 :ARG2 (b /'
    ' border))))) :ARG2 (d / detail-01 :polarity - :ARG0 p :ARG1 (c4 / country :ARG1-of (s2 /'
    ' specific-02))))',
    '(m / see-01  :ARG1 (e / launch-01)  :ARG2 (t / thing  :ARG1-of (r2 / symbolize-01  :ARG2 (u_5826 /'
    ' network  :ARG2 (a2 / relation-03  :ARG0 (u_5828 / economy)  :ARG2 (c / continent  :name (n / name  :op1'
    ' "Africa")  :wiki "Africa"))  :ARG1 (c4 / country  :name (n2 / name  :op1 "China")  :wiki "China") '
    ' :ARG1-of (d / broad-02))))  :ARG0 (u_5827 / some))')
#: a pair the search leaves open up to its hand-over: proved by HiGHS's program
HANDED_OVER = (
    '(a / and :op1 (o / or :op1 (p / possible-01 :ARG1 (c / consider-02 :ARG0 (p2 / person :mod (t / this))'
    ' :ARG1 p2 :ARG2 (c2 / celebrity :mod (c3 / culture)))) :op2 (p3 / possible-01 :ARG1 (h / have-03 :ARG0'
    ' p2 :ARG1 (a2 / and :op1 (a3 / authority :ARG1-of (h2 / high-02)) :op2 (p4 / position :mod (i /'
    ' important)))))) :op2 (d / distribute-01 :ARG1 p2 :location (c4 / circle :mod (v / various) :location'
    ' (s / society))) :op3 (t2 / take-01 :ARG0 p2 :ARG1 (p5 / pain :degree (g / great)) :purpose (a4 / and'
    ' :op1 (p6 / promote-02 :ARG0 p2 :ARG1 (v2 / value :mod (c5 / country :wiki "United_States" :name (n2 /'
    ' name :op1 "America")))) :op2 (b / brainwash-01 :ARG0 p2 :ARG1 (p7 / person :mod (c6 / country :wiki'
    ' "China" :name (n / name :op1 "China"))) :prep-on-behalf-of (p8 / person :mod c5)))))',
    '(m / multi-sentence :snt1 (p / put-on-08 :ARG0 (p2 / person :mod (k / kind :mod (t / this))) :ARG1 (h /'
    ' hat :mod (p6 / person :ARG0-of (s / specialize-01 :mod (b / big)))) :purpose (i / intimidate-01 :ARG0'
    ' p2 :ARG1 (p3 / person) :mod (j / just))) :snt2 (k2 / key-02 :ARG1 (a5 / and :op1 (h2 /'
    ' have-concession-91 :ARG1 (u / understand-01 :polarity - :ARG0 s2 :ARG1 (p5 / politics) :mod (y / yet))'
    ' :ARG2 (c2 / concern-01 :ARG0 p5 :ARG1 s2)) :op2 (h3 / have-concession-91 :ARG1 (a3 / and :op1 (a /'
    ' arrogance :domain s2) :op2 (o / overbearing :domain s2)) :ARG2 (w / will-02 :ARG0 s2 :ARG1 (s3 / slave'
    ' :beneficiary (f / foreign) :domain s2))) :op3 (h4 / have-concession-91 :ARG1 (f2 / feel-01 :ARG0 s2'
    ' :ARG1 (f3 / fine-04 :ARG1 s2)) :ARG2 (i2 / ignorant-02 :ARG1 (s2 / she))))))')


def _rows(pair: Any) -> Any:
    """The SMATCH rows (mrp.solver.problem.Rows) of a pair of AMR strings, with the default options."""
    import mrp
    from mrp.metrics import smatch
    from mrp.metrics.options import Options
    from mrp.solver.problem import triple_rows

    (local_g, rel_g, _), (local_s, rel_s, _) = (smatch.triples(mrp.read(text)[0], Options()) for text in pair)
    return triple_rows(local_g, local_s, rel_g, rel_s)


@pytest.fixture(autouse=True)
def _highs() -> None:
    if not mip.available():
        pytest.skip("HiGHS (highspy) is not installed")


@pytest.mark.parametrize("timeout", [None, 60.0])
def test_a_pair_open_after_the_relaxation_is_searched_on_in_the_batch_as_alone(timeout: Any) -> None:
    rows = _rows(SEARCHED_ON)
    (together,) = solve_together([rows], timeout=timeout)
    alone = solve_problem(from_rows(rows), timeout=timeout)
    assert together is not None, "the batch left the pair to be solved alone"
    assert together.exact and not together.mip and together.steps > RELAX_AFTER == TOGETHER_STEPS
    assert together == alone


def test_a_pair_the_search_leaves_open_is_handed_over_from_the_batch_as_alone() -> None:
    rows = _rows(HANDED_OVER)
    (together,) = solve_together([rows])
    alone = solve_problem(from_rows(rows))
    assert together is not None and together.exact and together.mip
    assert together.steps == handover_steps(from_rows(rows))
    assert together == alone


@pytest.mark.parametrize("limit", [TOGETHER_STEPS, TOGETHER_STEPS + 50, 2_000])
def test_the_limit_cuts_a_pair_going_on_from_the_batch_as_alone(limit: int) -> None:
    for pair in (SEARCHED_ON, HANDED_OVER):
        rows = _rows(pair)
        (together,) = solve_together([rows], limit)
        assert together is not None and together == solve_problem(from_rows(rows), limit)


def test_a_pair_going_on_from_the_batch_has_its_whole_timeout() -> None:
    """Its clock starts when it leaves the batch, not when the last pair scored alone in this thread did."""
    rows = _rows(SEARCHED_ON)
    watchdog.start_pair()
    watchdog._PAIR.started -= 100.0  # that pair started 100 s ago: its cap would have passed
    (together,) = solve_together([rows], timeout=5.0)
    assert together is not None and together.exact and together.cut is None
    assert together == solve_problem(from_rows(rows))


def test_the_pairs_score_together_as_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the driver: each pair's counts, exactness, bound, steps, cut and note."""
    from test_together import _both

    gold, system = ("\n\n".join(pair[side] for pair in (SEARCHED_ON, HANDED_OVER)) for side in (0, 1))
    for options in ({}, {"limit": 2_000}):
        together, alone = _both(monkeypatch, gold, system, penman=False, **options)
        assert len(together) == 2 and together == alone, options
    assert [steps for *_, steps, _, _ in together] == [276, 2_000]
