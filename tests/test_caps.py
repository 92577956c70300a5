"""Time caps are kept: a pair's cap counts from the pair's start, building the solver's input stops with
it, and a HiGHS process that dies on its own is reported while the search goes on."""

from __future__ import annotations

import contextlib
import gc
import os
import random
import threading
import time
from typing import Iterator, Tuple

import numpy as np
import pytest
from test_mip import document

from mrp.engine import driver
from mrp.engine.options import Options
from mrp.engine.pairing import Pair, Pairing
from mrp.graph import Edge, Graph, Node
from mrp.metrics.registry import metric
from mrp.solver import mip


def _graph(n: int, edges: int, rng: random.Random) -> Graph:
    nodes = [Node(k, rng.choice("ab")) for k in range(n)]
    links = [Edge(rng.randrange(k), k, "ARG0") for k in range(1, n)]
    while len(links) < edges:
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b:
            links.append(Edge(a, b, rng.choice(("ARG0", "ARG1"))))
    return Graph("1", "amr", flavor=2, nodes=nodes, edges=links, tops=[0])


@pytest.fixture(scope="module")
def adversarial() -> Tuple[Graph, Graph]:
    """A 30-node gold graph against a 100,000-node system graph (within mrp.io.limits)."""
    rng = random.Random(5)
    graphs = _graph(30, 45, rng), _graph(100_000, 150_000, rng)
    gc.collect()
    gc.freeze()  # as mrp-score leaves the graphs it has read (mrp.corpora.load.collector_paused)
    return graphs


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (HiGHS runs in a child process)."""
    children = os.times()
    return time.process_time() + children.children_user + children.children_system


@pytest.mark.parametrize("name", ["smatch", "mrp"])
def test_a_pair_keeps_its_cap_from_its_start(name: str, adversarial: Tuple[Graph, Graph],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The cap counts from the pair's start: the deadline armed is the pair's start + 2 s, not the moment
    the search starts (after normalizing and building, which take a while on a 100,000-node graph).  What
    it cannot cap is the linear work every number needs (normalizing and counting the graphs' tuples),
    measured here on the same graphs: the work done after the deadline is no more than that + 0.5 s.
    Both are measured so that other processes loading the machine do not count: the deadline against
    the pair's start on one clock, the work in CPU seconds from the moment the deadline passes."""
    from mrp.solver.watchdog import Watchdog

    gold, system = adversarial
    measure = metric(name)
    options = Options(timeout=2.0, trace=True)
    measure.prepare(options)
    started = _cpu()
    measure.alone(gold, True, options)
    measure.alone(system, False, options)
    linear = _cpu() - started
    starts, armed, passed = [], [], []
    pair_clock, arm = driver.pair_clock, Watchdog.arm

    @contextlib.contextmanager
    def recorded_start() -> Iterator[None]:
        starts.append(time.monotonic())
        timer = threading.Timer(2.0, lambda: passed.append(_cpu()))  # wakes when the cap ends
        timer.daemon = True
        timer.start()
        with pair_clock():
            yield

    def recorded_arm(watchdog: Watchdog, stop: np.ndarray, seconds: float) -> None:
        now = time.monotonic()
        armed.append((now, now + max(0.0, seconds)))
        arm(watchdog, stop, seconds)

    monkeypatch.setattr(driver, "pair_clock", recorded_start)
    monkeypatch.setattr(Watchdog, "arm", recorded_arm)
    pairing = Pairing(pairs=[Pair(gold, system, False)])
    result, _ = driver.evaluate_metric(measure, pairing, options)
    ended = _cpu()
    item = next(iter(result["scores"]["amr"].values()))
    assert item.get("cut") == "timeout" and not item["exact"]
    assert len(starts) == 1 and armed, "the pair was not timed"
    (moment, deadline), cap = armed[0], starts[0] + 2.0
    # the pair's start + 2 s, or at once when counting the tuples took longer than that
    assert cap <= deadline <= max(cap, moment) + 0.05, \
        f"cap at {deadline - starts[0]:.2f} s after the pair's start (armed at {moment - starts[0]:.2f} s)"
    assert passed, "the pair ended before its cap, yet was cut by the timeout"
    after = ended - passed[0]
    assert after <= 0.5 + linear, f"{after:.2f} s CPU after the cap of 2 s (+ {linear:.2f} s of counting)"


def test_a_dead_highs_process_is_reported_and_the_search_goes_on(dead_highs: None) -> None:
    from mrp.solver.solve import MIP_AFTER, solve_problem

    problem = document(16, 0)  # a merged coli document the search leaves open after MIP_AFTER steps
    solution = solve_problem(problem, limit=MIP_AFTER + 3000)
    assert solution.note is not None and "HiGHS's process died (signal 9)" in solution.note
    # the solver goes on: the search, or its root from the map found (since issue 25 it closes this pair)
    assert solution.steps > MIP_AFTER or solution.exact, "the solver did not go on after HiGHS died"
    assert not solution.mip and solution.value <= solution.bound
    assert mip.value_of(problem, np.array(solution.mapping)) == solution.value
