"""The corpus driver every metric runs on: failures never raise a score, dead workers end the run,
workers die with their parent, and an unwritable numba cache still scores."""

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

from mrp.load import read_corpus
from mrp.score import driver
from mrp.score.metrics import Options, canonical, evaluator
from mrp.score.pairing import Pair, pair

from conftest import ROOT, run_cli
from test_limits import hard_files

DEMO_GOLD = str(ROOT / "data/demo/gold.mrp")
DEMO_SYSTEM = str(ROOT / "data/demo/system.mrp")
METRICS = ["mrp", "smatch", "edm", "sdp", "ucca", "aspects"]


def _metric(name: str) -> driver.Metric:
    import importlib

    from mrp.score.metrics import METRICS as REGISTRY

    return importlib.import_module(f"mrp.score.{REGISTRY[canonical(name)]}").METRIC  # type: ignore


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

    def score(self: driver.Metric, pair: Pair, options: Options) -> driver.PairResult:
        if pair.gold.id == victim and pair.system.nodes and pair.gold.nodes:
            raise RecursionError("maximum recursion depth exceeded")
        return original(self, pair, options)

    monkeypatch.setattr(type(metric), "score", score)


@pytest.mark.parametrize("name", METRICS)
def test_a_failing_pair_never_raises_a_score(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pairing = pair(read_corpus(DEMO_GOLD), read_corpus(DEMO_SYSTEM))
    healthy, _ = evaluator(name)(pairing, Options(trace=True))
    _flaky(_metric(name), monkeypatch, "demo-1")
    failed, _ = evaluator(name)(pairing, Options(trace=True))
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
    healthy, _ = evaluator("mrp")(pairing, Options(trace=True))
    _flaky(_metric("mrp"), monkeypatch, "demo-2")
    result, _ = evaluator("mrp")(pairing, Options(trace=True))
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
    healthy, _ = evaluator("edm")(pairing, Options(trace=True))
    metric = _metric("edm")
    original = type(metric).score
    parent = os.getpid()

    def killer(self: driver.Metric, pair: Pair, options: Options) -> driver.PairResult:
        if pair.gold.id == "demo-2" and pair.gold.framework == "psd" and os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
        return original(self, pair, options)

    monkeypatch.setattr(type(metric), "score", killer)
    problems: List[str] = []

    class Recorder(driver.Progress):
        def problem(self, graph: Any, message: str) -> None:
            problems.append(f"{graph.id}: {message}")

    start = time.monotonic()
    result, _ = evaluator("edm")(pairing, Options(trace=True, jobs=2, progress=Recorder()))
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
    proc.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.2)
    assert not any(_alive(pid) for pid in workers)


def test_an_unwritable_numba_cache_still_scores(tmp_path: Path) -> None:
    env = dict(os.environ, NUMBA_CACHE_LOCATOR_CLASSES="UserProvidedCacheLocator",
               NUMBA_CACHE_DIR="/dev/null/cache", TMPDIR=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "mrp.cli.score", "--gold", DEMO_GOLD, DEMO_SYSTEM],
                          capture_output=True, cwd=ROOT, env=env, timeout=600)
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert err.strip() == (f"mrp-score: numba cannot write its cache; the solver is cached in "
                           f"{tmp_path}/mrp-numba-cache-{os.getuid()} instead")
    plain = run_cli("score", ["--gold", DEMO_GOLD, DEMO_SYSTEM])
    assert json.loads(proc.stdout)["all"] == json.loads(plain.out)["all"]
    assert json.loads(plain.out)["all"]["c"] > 0


def test_a_failing_ancast_pair_never_raises_a_score(monkeypatch: pytest.MonkeyPatch) -> None:
    gold_path = str(ROOT / "data/demo/gold.mrp")
    pairing = pair(read_corpus(gold_path), read_corpus(DEMO_SYSTEM), ["amr"])
    healthy, _ = evaluator("ancast")(pairing, Options(trace=True))
    _flaky(_metric("ancast"), monkeypatch, pairing.pairs[0].gold.id)
    failed, _ = evaluator("ancast")(pairing, Options(trace=True))
    assert failed["cut"]["error"] == 1
    for key in ("concept", "lrm", "smatch"):
        assert failed[key]["r"] <= healthy[key]["r"] and failed[key]["f"] <= healthy[key]["f"]
