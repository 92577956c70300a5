"""Limits hold for every registered metric, by construction (issue 61): each metric, on a 4,000-node chain,
a 20,000-node random pair and a 100,000-node system graph (against a small gold graph), at ``timeout=1``,
ends within T + 0.5 s of CPU for its pair and within the memory cap, reports the pair as cut with a valid
bound where it could not finish, and never as an internal error.  The metrics come from the registry: a
metric added later is covered without editing this file.

How it is measured (bench/limitsbench.py, which ``make bench`` prints): one process per input reads it once
and loads every metric (their kernels too), then forks a child per metric that scores the pair with
``mrp.score`` and exits.  The pair's CPU is the child's (every thread, user and system, from
``os.wait4``): ``mrp.score`` of the one pair, its pairing and report included (a few hundredths of a
second), and a metric's preparation of the whole run (``Metric.begin``: juːmæʧ maps every pair there).
CPU, not wall time: other processes on the machine do not inflate it.

The margin: by design a pair ends within T + 0.45 s of CPU (mrp.engine.limits: the guard fires at T +
0.3 s, the cut result has 0.1 s, the last resort 0.05 s); the issue's bound is T + 0.5 s, which ``make
bench`` reports against.  The test allows :data:`MARGIN` = 0.5 s more, for what the guard cannot
interrupt (one C call in progress when it fires: sorting or hashing a 100,000-node graph's lists, a numpy
operation) and for CPU time inflated on a loaded 2-core machine (caches, frequency): it must not flake,
and still fails a metric that ignores its clock (main: AnCast took 14-61 s on the chain, WLK's memory was
exponential in its iterations, no metric but the searching ones had a clock at all).

Memory: the child's peak resident memory above its parent's at the fork is at most ``--max-memory`` (2 GB,
the default) and the linear path's bytes per node (``mrp.solver.greedy.BYTES_PER_NODE``), which the cap
does not govern by its definition (the node-pair arrays).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from mrp.metrics.registry import METRICS, metric
from mrp.solver.greedy import BYTES_PER_NODE, DEFAULT_MAX_MEMORY

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import limitsbench  # noqa: E402

#: the measurements need fork and /proc (Linux)
MEASURABLE = pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/statm").exists(),
                                reason="measured in forked children, memory read from /proc (Linux)")

TIMEOUT = limitsbench.TIMEOUT
INPUTS = limitsbench.INPUTS
#: see the module's docstring
MARGIN = 0.5

def framework_of(name: str) -> str:
    """A framework the metric takes (AMR, which every metric takes today, else its first)."""
    frameworks = metric(name).frameworks
    return "amr" if frameworks is None or "amr" in frameworks else frameworks[0]


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> Dict[Tuple[str, str], Dict[str, Any]]:
    """Every metric on every input: {(metric, input): what its child reported} (built once)."""
    return limitsbench.measure({name: framework_of(name) for name in METRICS},
                               where=tmp_path_factory.mktemp("limits"))


def _bounds(result: Dict[str, Any]) -> List[Tuple[float, float]]:
    """(found, bound) pairs of a result: its main count (c) and F against their bounds."""
    bound = result.get("bound")
    pairs: List[Tuple[float, float]] = []
    if not isinstance(bound, dict):
        return pairs
    if "c" in bound:  # the searching metrics' main count
        main = next((value for value in result.values() if isinstance(value, dict) and "c" in value), None)
        if main is not None:
            pairs.append((main["c"], bound["c"]))
    for name, figures in bound.items():  # AnCast: bound.lrm against lrm
        if isinstance(figures, dict) and isinstance(result.get(name), dict):
            pairs.append((result[name]["f"], figures["f"]))
    return pairs


@MEASURABLE
@pytest.mark.parametrize("case", list(INPUTS))
@pytest.mark.parametrize("name", list(METRICS))
def test_every_metric_holds_its_limits(measured: Dict[Tuple[str, str], Dict[str, Any]], name: str,
                                       case: str) -> None:
    found = measured[(name, case)]
    assert "raised" not in found, found.get("raised")
    assert not found["failures"], f"{name} on {case}: internal error: {found['failures']}"
    assert found["cpu"] <= TIMEOUT + 0.5 + MARGIN, f"{name} on {case}: {found['cpu']:.2f} s of CPU"
    n, m, _ = INPUTS[case]
    grown = found["peak"] - found["before"]
    assert grown <= DEFAULT_MAX_MEMORY + BYTES_PER_NODE * (n + m), f"{name} on {case}: {grown / 1e6:.0f} MB"
    result, item = found["result"], found["item"]
    cut = result.get("cut")
    if isinstance(cut, dict) and (cut.get("limit") or cut.get("timeout")):
        assert cut.get("error", 0) == 0
        for value, bound in _bounds(result):
            assert value <= bound + 1e-9, (name, case, value, bound)
    assert "error" not in item, item["error"]


@pytest.mark.parametrize("name", list(METRICS))
@pytest.mark.parametrize("why", ["timeout", "limit"])
def test_a_stopped_pair_is_reported_cut_by_every_metric(monkeypatch: pytest.MonkeyPatch, name: str,
                                                        why: str) -> None:
    """The driver's paths for a pair stopped at its limits, for every metric: its own cut result (counts
    a lower bound, no failure), and the last resort when even that cannot be made (the pair counts
    nothing: two empty graphs scored give the result's shape): the run reports either, cut, and never
    fails."""
    import mrp
    from mrp.engine import limits
    framework = framework_of(name)
    graph = ("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))" if framework == "amr" else
             {"id": "1", "framework": framework, "flavor": 1, "tops": [0], "input": "a b",
              "nodes": [{"id": 0, "label": "a", "anchors": [{"from": 0, "to": 1}]},
                        {"id": 1, "label": "b", "anchors": [{"from": 2, "to": 3}]}],
              "edges": [{"source": 0, "target": 1, "label": "x"}]})
    scoring = metric(name)

    plain = scoring.score

    def stopped(pair: Any, options: Any) -> Any:
        if pair.gold.nodes:  # two empty graphs are scored (the last resort's shape of a result)
            raise limits.Overrun(why)
        return plain(pair, options)

    monkeypatch.setattr(scoring, "score", stopped)
    monkeypatch.setattr(scoring, "score_many", lambda pairs, options: [None] * len(pairs))
    for last_resort in (False, True):
        if last_resort:
            monkeypatch.setattr(scoring, "cut", lambda *args: (_ for _ in ()).throw(RuntimeError("no")))
        result = mrp.score([graph], [graph], name, timeout=1.0, trace=True)
        document = result.to_dict()
        cut = document.get("cut")
        if isinstance(cut, int):  # a metric that counts its inexact pairs under its own "cut" (predications)
            assert cut == 1, (name, document)
        else:
            assert isinstance(cut, dict) and cut[why] == 1 and cut.get("error", 0) == 0, (name, document)
        assert "error" not in result.pairs[0].item


def test_a_call_interrupted_in_flight_ends_the_kept_process() -> None:
    """The guard (or Ctrl-C) can interrupt a pair while HiGHS's kept process is answering: that process is
    ended, so its late answer is never read as the next call's (the next call starts a new one)."""
    from mrp.engine import limits
    from mrp.process.worker import Worker

    kept = Worker()
    try:
        def interrupted() -> bool:
            raise limits.Overrun("timeout")

        with pytest.raises(limits.Overrun):
            kept.call("time:sleep", (5,), stopped=interrupted)
        assert kept.ended
    finally:
        kept.end()
