"""The corpus driver every metric runs on: failures never raise a score, dead workers end the run,
workers die with their parent (an unwritable numba cache that still scores: test_trust's cold run)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

from mrp.corpora.load import read_corpus
from mrp.engine import driver
from mrp.engine.options import Execution, Options
from mrp.engine.pairing import Pair, pair
from mrp.metrics.registry import canonical, evaluate

from conftest import ROOT, run_cli
from test_limits import hard_files

DEMO_GOLD = str(ROOT / "data/demo/gold.mrp")
DEMO_SYSTEM = str(ROOT / "data/demo/system.mrp")
METRICS = ["mrp", "smatch", "edm", "sdp", "ucca", "aspects"]


def _metric(name: str) -> driver.Metric:
    from mrp.metrics.registry import metric

    return metric(canonical(name))


def _main_counts(name: str, result: Dict[str, Any]) -> List[float]:
    """(g, s, c) of a metric's headline count."""
    if name == "mrp" or name == "edm":
        node = result["all"]
    elif name == "smatch":
        node = result
    elif name == "sdp":
        node = result["labeled"]
    elif name == "ucca":
        node = result["labeled"]["primary"]
    else:
        node = result["aspects"]["named-entities"] if "named-entities" in result["aspects"] else \
            next(iter(result["aspects"].values()))
    return [node["g"], node["s"], node["c"]]


def _flaky(metric: driver.Metric, monkeypatch: pytest.MonkeyPatch, victim: str) -> None:
    original = type(metric).score

    def score(self: driver.Metric, pair: Pair, options: Options) -> driver.PairCounts:
        if pair.gold.id == victim and pair.system.nodes and pair.gold.nodes:
            raise RecursionError("maximum recursion depth exceeded")
        return original(self, pair, options)

    monkeypatch.setattr(type(metric), "score", score)
    monkeypatch.setattr(type(metric), "score_many", driver.Metric.score_many)  # every pair through score


@pytest.mark.parametrize("name", METRICS)
def test_a_failing_pair_never_raises_a_score(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pairing = pair(read_corpus(DEMO_GOLD), read_corpus(DEMO_SYSTEM))
    healthy, _ = evaluate(name, pairing, Options(trace=True))
    _flaky(_metric(name), monkeypatch, "demo-1")
    failed, _ = evaluate(name, pairing, Options(trace=True))
    g0, s0, c0 = _main_counts(name, healthy)
    g1, s1, c1 = _main_counts(name, failed)
    assert g1 == g0, "the gold tuples of the failed pair must still count"
    assert s1 <= s0 and c1 <= c0
    # F cannot rise: recall falls (same g, fewer c) and precision is c/s over what remains
    assert c1 / g1 <= c0 / g0 if g0 else True
    if name in ("mrp", "smatch"):
        assert failed["cut"]["error"] >= 1


def test_failing_pair_counts_gold_tuples_as_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    gold, system = read_corpus(DEMO_GOLD), read_corpus(DEMO_SYSTEM)
    pairing = pair(gold, system)
    healthy, _ = evaluate("mrp", pairing, Options(trace=True))
    _flaky(_metric("mrp"), monkeypatch, "demo-2")
    result, _ = evaluate("mrp", pairing, Options(trace=True))
    for framework, items in result["scores"].items():
        if "demo-2" in items:
            item, before = items["demo-2"], healthy["scores"][framework]["demo-2"]
            assert item["cut"] == "error" and item["all"]["c"] == 0
            assert item["all"]["g"] == before["all"]["g"] and item["all"]["s"] == before["all"]["s"]
    assert result["all"]["f"] < healthy["all"]["f"]


def test_deeply_nested_value_in_a_system_graph_lowers_its_score(tmp_path: Path) -> None:
    lines = Path(DEMO_SYSTEM).read_text().splitlines()
    graph = json.loads(lines[0])
    node = graph["nodes"][0]
    node["properties"] = node.get("properties", []) + ["deep"]
    node["values"] = node.get("values", []) + ["PLACEHOLDER"]
    deep = '"x"'
    for _ in range(1000):
        deep = "[" + deep + "]"
    lines[0] = json.dumps(graph).replace('"PLACEHOLDER"', deep)
    path = tmp_path / "deep.mrp"
    path.write_text("\n".join(lines) + "\n")
    plain = run_cli("score", ["--gold", DEMO_GOLD, DEMO_SYSTEM])
    nested = run_cli("score", ["--gold", DEMO_GOLD, str(path)])
    assert plain.code == 0 and nested.code == 0, nested.err
    assert "Traceback" not in nested.err and "demo-1" in nested.err
    before, after = json.loads(plain.out), json.loads(nested.out)
    assert after["all"]["g"] == before["all"]["g"]
    assert after["all"]["f"] < before["all"]["f"]


def test_a_dead_worker_is_detected_and_the_run_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    pairing = pair(read_corpus(DEMO_GOLD), read_corpus(DEMO_SYSTEM))
    healthy, _ = evaluate("edm", pairing, Options(trace=True))
    metric = _metric("edm")
    original = type(metric).score
    parent = os.getpid()

    def killer(self: driver.Metric, pair: Pair, options: Options) -> driver.PairCounts:
        if pair.gold.id == "demo-2" and pair.gold.framework == "psd" and os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
        return original(self, pair, options)

    monkeypatch.setattr(type(metric), "score", killer)
    problems: List[str] = []

    class Recorder(driver.Progress):
        def problem(self, graph: Any, message: str) -> None:
            problems.append(f"{graph.id}: {message}")

    start = time.monotonic()
    result, _ = evaluate("edm", pairing, Options(trace=True, run=Execution(jobs=2, progress=Recorder())))
    assert time.monotonic() - start < 120
    assert result["n"] == healthy["n"]
    assert problems == ["demo-2: scoring failed: its worker process died (killed, e.g. out of memory)"]
    lost = result["scores"]["psd"]["demo-2"]
    assert lost["all"]["c"] == 0 if "all" in lost else lost["names"]["c"] == 0
    assert lost["names"]["g"] == healthy["scores"]["psd"]["demo-2"]["names"]["g"]
    for framework, items in healthy["scores"].items():
        for gid, item in items.items():
            if (framework, gid) != ("psd", "demo-2"):
                assert result["scores"][framework][gid] == item


def test_a_pool_broken_while_work_is_handed_to_it_blames_no_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that dies between two waits breaks the pool before it takes the next range: that range was
    never run, so it is scored again in a new pool (with those in flight), and nothing is reported failed."""
    import concurrent.futures
    from concurrent.futures.process import BrokenProcessPool

    pairing = pair(read_corpus(DEMO_GOLD), read_corpus(DEMO_SYSTEM))
    healthy, _ = evaluate("edm", pairing, Options(trace=True))
    real = concurrent.futures.ProcessPoolExecutor
    made: List[int] = []

    class Breaking(real):  # type: ignore[misc, valid-type]
        """The first pool refuses its third range, as a broken pool does."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(1)
            self.first, self.handed = len(made) == 1, 0

        def submit(self, *args: Any, **kwargs: Any) -> Any:
            self.handed += 1
            if self.first and self.handed == 3:
                raise BrokenProcessPool("a child process terminated abruptly")
            return super().submit(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Breaking)
    problems: List[str] = []

    class Recorder(driver.Progress):
        def problem(self, graph: Any, message: str) -> None:
            problems.append(f"{graph.id}: {message}")

    result, _ = evaluate("edm", pairing, Options(trace=True, run=Execution(jobs=2, progress=Recorder())))
    assert len(made) >= 2 and problems == []
    assert result["scores"] == healthy["scores"]


def _children(pid: int) -> List[int]:
    found: List[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.extend(int(child) for child in text)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_workers_die_with_their_parent(tmp_path: Path) -> None:
    gold, system = hard_files(tmp_path, 400)
    proc = subprocess.Popen([sys.executable, "-m", "mrp.cli.score", "--jobs", "2", "--gold", gold, system],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    workers: List[int] = []
    deadline = time.monotonic() + 300  # a loaded CI machine may take long to start Python and numba
    while time.monotonic() < deadline and len(workers) < 2 and proc.poll() is None:
        time.sleep(0.5)
        workers = _children(proc.pid)
    assert len(workers) >= 2, f"the workers did not start (exit status {proc.poll()})"
    proc.kill()
    proc.communicate(timeout=300)
    deadline = time.monotonic() + 120  # a safety bound: the loop ends as the workers do
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.2)
    assert not any(_alive(pid) for pid in workers)


#: Run in a fresh process with the kernels cached: load the solver, then compile something new.
_LIGHT_LOAD = """
import json, sys
import numpy as np
from mrp.solver.solve import solve_problem
from mrp.solver.problem import from_triples
loaded = solve_problem(from_triples([{"a": 1}, {"b": 1}], [{"a": 1}, {"b": 1}], {(0, 1, "r"): 1},
                                    {(0, 1, "r"): 1}))
imported = "numba.np.arrayobj" in sys.modules
import numba
from numba.core.environment import Environment

@numba.njit
def fresh(n):
    a = np.arange(n) * 1.5
    if n < 0:
        raise ValueError("negative", n)
    return a.sum(), str(n)

stubs = [env.env_name for env in list(Environment._memo.values()) if set(env.globals) == {"__name__"}]
print(json.dumps({"value": loaded.value, "exact": loaded.exact, "imported": imported, "fresh": fresh(4),
                  "stubs": len(stubs), "after": "numba.np.arrayobj" in sys.modules}))
"""


def test_cached_kernels_load_without_numba_s_implementation_modules() -> None:
    code = [sys.executable, "-c", _LIGHT_LOAD]
    subprocess.run(code, capture_output=True, cwd=ROOT, check=True, timeout=600)  # the kernels cached
    out = json.loads(subprocess.run(code, capture_output=True, cwd=ROOT, check=True, timeout=600).stdout)
    assert out["value"] == 3 and out["exact"]
    assert out["imported"] is False, "loading the solver imported numba.np.arrayobj"
    assert out["stubs"] > 0
    assert out["fresh"] == [9.0, "4"] and out["after"] is True  # compiling afterwards is numba's own way


def test_light_environments_keep_constants_and_leave_other_modules_to_numba() -> None:
    from numba.core import environment

    from mrp.compiled import jit

    original = environment._rebuild_env
    with jit._light_environments():
        rebuild = environment._rebuild_env
        assert rebuild is not original
        name = "numba.np.nothing_imported_here"
        env = rebuild(name, [1, "two"], "_ZN8NumbaEnv_test_light_1")
        assert env.globals == {"__name__": name} and list(env.consts) == [1, "two"]
        assert rebuild(name, [], "_ZN8NumbaEnv_test_light_1") is env  # memoized, as numba's are
        mine = rebuild("json", [3], "_ZN8NumbaEnv_test_light_2")  # not numba's: its module's globals
        assert mine.globals is json.__dict__ and list(mine.consts) == [3]
    assert environment._rebuild_env is original


def test_a_failing_ancast_pair_never_raises_a_score(monkeypatch: pytest.MonkeyPatch) -> None:
    gold_path = str(ROOT / "data/demo/gold.mrp")
    pairing = pair(read_corpus(gold_path), read_corpus(DEMO_SYSTEM), ["amr"])
    healthy, _ = evaluate("ancast", pairing, Options(trace=True))
    _flaky(_metric("ancast"), monkeypatch, pairing.pairs[0].gold.id)
    failed, _ = evaluate("ancast", pairing, Options(trace=True))
    assert failed["cut"]["error"] == 1
    for key in ("concept", "lrm", "smatch"):
        assert failed[key]["r"] <= healthy[key]["r"] and failed[key]["f"] <= healthy[key]["f"]


# --- --jobs auto --------------------------------------------------------------------------------------------


def _sized_pairs(n: int, nodes: int) -> List[Pair]:
    from mrp.graph import Graph, Node

    def graph(k: int) -> Graph:
        return Graph(id=str(k), framework="eds", nodes=[Node(i, "x") for i in range(nodes)])

    return [Pair(graph(k), graph(k), False) for k in range(n)]


def test_explicit_jobs_are_kept() -> None:
    pairs = _sized_pairs(3, 2)
    assert [driver.workers(jobs, pairs) for jobs in (1, 2, 7)] == [1, 2, 7]


def test_auto_jobs_follow_the_work_and_the_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(driver, "available_cpus", lambda: 8)
    side = 50  # 2,500 node pairs a pair: 80 of them reach AUTO_WORK
    needed = -(-driver.AUTO_WORK // (side * side))
    assert driver.workers(driver.AUTO, _sized_pairs(needed - 1, side)) == 1
    assert driver.workers(driver.AUTO, _sized_pairs(needed, side)) == driver.AUTO_MAX == 4
    assert driver.workers(driver.AUTO, _sized_pairs(1, 10_000)) == 1  # one pair: nothing to share
    monkeypatch.setattr(driver, "available_cpus", lambda: 2)
    assert driver.workers(driver.AUTO, _sized_pairs(needed, side)) == 2
    monkeypatch.setattr(driver, "available_cpus", lambda: 1)
    assert driver.workers(driver.AUTO, _sized_pairs(needed, side)) == 1


def test_auto_jobs_count_packed_graphs_without_unpacking(monkeypatch: pytest.MonkeyPatch) -> None:
    from mrp.corpora.packed import PackedGraphs

    pairs = _sized_pairs(100, 50)
    packed = PackedGraphs(pair.gold for pair in pairs)
    monkeypatch.setattr(PackedGraphs, "__getitem__", lambda self, index: pytest.fail("unpacked"))
    entries = [Pair(entry, entry, False) for entry in packed.entries()]
    monkeypatch.setattr(driver, "available_cpus", lambda: 2)
    assert driver.workers(driver.AUTO, entries) == 2


def test_available_cpus_is_this_process_s_share(monkeypatch: pytest.MonkeyPatch) -> None:
    from mrp.process import forked

    expected = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert forked.available_cpus() == expected
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert forked.available_cpus() == 1  # a process pinned to one CPU gets no workers
    assert driver.workers(driver.AUTO, _sized_pairs(200, 50)) == 1


def test_auto_jobs_score_in_workers_with_the_same_result(monkeypatch: pytest.MonkeyPatch) -> None:
    from mrp.graph import Edge, Graph, Node

    def graph(k: int, shift: int) -> Graph:
        nodes = [Node(i, f"l{(i + shift * (i % 3 == 0)) % 7}") for i in range(24)]
        edges = [Edge(i, (i * 5 + k) % 24, f"e{i % 3}") for i in range(24) if (i * 5 + k) % 24 != i]
        return Graph(id=str(k), framework="eds", tops=[0], nodes=nodes, edges=edges)

    pairing = pair(read_corpus_of([graph(k, 0) for k in range(400)]),
                   read_corpus_of([graph(k, 1) for k in range(400)]))
    used: List[int] = []
    original = driver._parallel

    def parallel(metric: driver.Metric, pairs: Any, options: Options) -> Any:
        used.append(options.run.jobs)
        return original(metric, pairs, options)

    monkeypatch.setattr(driver, "_parallel", parallel)
    monkeypatch.setattr(driver, "available_cpus", lambda: 2)
    serial, _ = evaluate("mrp", pairing, Options(trace=True, run=Execution(jobs=1)))
    assert used == []
    auto, _ = evaluate("mrp", pairing, Options(trace=True, run=Execution(jobs=driver.AUTO)))
    assert used == [2]
    for key in ("time", "cpu"):
        serial.pop(key), auto.pop(key)
    assert auto == serial


def read_corpus_of(graphs: List[Any]) -> Any:
    from mrp.corpora.corpus import Corpus

    return Corpus("memory", "mrp", list(graphs))


def test_cli_jobs_take_a_number_or_auto() -> None:
    for bad, message in (("0", "from 1 to 4096, or auto, not 0"),
                         ("two", "from 1 to 4096, or auto, not two")):
        run = run_cli("score", ["--jobs", bad, "--gold", DEMO_GOLD, DEMO_SYSTEM])
        assert run.code == 2 and message in run.err and "Traceback" not in run.err
    outs = [run_cli("score", [*jobs, "--gold", DEMO_GOLD, DEMO_SYSTEM]) for jobs in ([], ["--jobs", "auto"],
                                                                                      ["--jobs", "1"])]
    assert all(run.code == 0 for run in outs)
    assert len({_without_clock(run.out) for run in outs}) == 1


def _without_clock(out: str) -> str:
    return "\n".join(line for line in out.splitlines() if not line.startswith((' "time"', ' "cpu"')))


def test_cpu_time_counts_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    pairing = pair(read_corpus(DEMO_GOLD), read_corpus(DEMO_SYSTEM))
    metric = _metric("edm")
    original = type(metric).score
    parent = os.getpid()

    def busy(self: driver.Metric, pair: Pair, options: Options) -> driver.PairCounts:
        if os.getpid() != parent:
            end = time.process_time() + 0.15
            while time.process_time() < end:
                pass
        return original(self, pair, options)

    monkeypatch.setattr(type(metric), "score", busy)
    before = os.times()
    result, _ = evaluate("edm", pairing, Options(trace=True, run=Execution(jobs=2)))
    after = os.times()
    burnt = 0.15 * result["n"]
    children = after.children_user + after.children_system - before.children_user - before.children_system
    assert children >= burnt * 0.9, "the workers were not reaped"
    assert result["cpu"] >= burnt * 0.9
