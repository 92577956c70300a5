"""A pair's time cap counts from its own start: no door leaves its pair clock behind (before, the clock of the
last pair a door scored stayed set in the thread, and a pair solved later in that thread, e.g. by
``solve_problem(problem, timeout=30)`` from the library, counted its cap from that old pair's start: run
after enough other work it was cut at once, with no search at all, as test_deterministic_limit was when an
earlier test in its process had scored pairs).  A pair going on from the batch: test_together_onward."""

from __future__ import annotations

import time
from typing import Any

import mrp
from mrp.corpora.corpus import Corpus
from mrp.engine.options import Options
from mrp.engine.pairing import pair
from mrp.metrics.registry import evaluate
from mrp.solver import watchdog

GOLD = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
SYSTEM = "(w / want-01 :ARG0 (g / girl) :ARG1 (g2 / go-02 :ARG0 g))"


def _pairing() -> Any:
    return pair(Corpus("gold", "amr", graphs=mrp.read(GOLD)),
                Corpus("system", "amr", graphs=mrp.read(SYSTEM)))


def test_a_pair_scored_alone_leaves_no_clock_behind() -> None:
    evaluate("smatch", _pairing(), Options(errors=True, timeout=30.0))  # --errors: each pair scored alone
    time.sleep(0.01)
    assert watchdog.spent() == 0.0
    assert watchdog.left(30.0) == 30.0
