"""Hard pairs and long runs: --limit and --timeout cut a pair with a bound, failures stay per pair,
the progress line, and Ctrl-C (issue 7)."""

from __future__ import annotations

import io
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from mrp.corpora.load import read_corpus
from mrp.engine.base import Metric
from mrp.engine.options import Execution, Options, Progress
from mrp.engine.pairing import pair
from mrp.graph import Graph
from mrp.metrics.mrp import metric as corpus
from mrp.metrics.registry import evaluate
from mrp.report.progress import Line

from conftest import ROOT, FileOpens, run_cli

DEMO_GOLD = str(ROOT / "data/demo/gold.mrp")
DEMO_SYSTEM = str(ROOT / "data/demo/system.mrp")


def _graph(gid: str, n: int, seed: int, labels: int = 3) -> Dict[str, Any]:
    rng = random.Random(seed)
    nodes = [{"id": k, "label": f"l{rng.randrange(labels)}"} for k in range(n)]
    edges = [{"source": rng.randrange(k), "target": k, "label": "e"} for k in range(1, n)]
    edges += [{"source": rng.randrange(n), "target": rng.randrange(n), "label": "e"} for _ in range(n)]
    return {"id": gid, "framework": "eds", "tops": [0], "nodes": nodes, "edges": edges}


def hard_files(tmp_path: Path, n: int = 300) -> Tuple[str, str]:
    """A hard pair (few labels, many edges) and an easy one, as gold and system files."""
    gold = [_graph("hard", n, 1), _graph("easy", 5, 3)]
    system = [_graph("hard", n, 2), _graph("easy", 5, 3)]
    paths = []
    for name, graphs in (("gold.mrp", gold), ("system.mrp", system)):
        path = tmp_path / name
        path.write_text("".join(json.dumps(graph) + "\n" for graph in graphs))
        paths.append(str(path))
    return paths[0], paths[1]


def test_timeout_cuts_the_pair_reports_its_bound_and_the_run_goes_on(tmp_path: Path) -> None:
    gold, system = hard_files(tmp_path)
    start = time.monotonic()
    result = run_cli("score", ["--timeout", "1", "--trace", "--gold", gold, system])
    assert result.code == 0, result.err
    assert time.monotonic() - start < 60
    out = json.loads(result.out)
    assert out["n"] == 2 and out["exact"] == 1
    assert out["cut"]["n"] == out["cut"]["timeout"] == 1
    hard = out["scores"]["eds"]["hard"]
    assert hard["cut"] == "timeout" and not hard["exact"]
    assert hard["bound"] > hard["all"]["c"]
    assert out["scores"]["eds"]["easy"]["exact"]
    low, high = out["cut"]["f"]
    assert low == out["all"]["f"] and high == out["bound"]["f"] and low < high
    assert "timeout:1s" in out["signature"]


def test_limit_cuts_are_counted(tmp_path: Path) -> None:
    gold, system = hard_files(tmp_path, 60)
    out = json.loads(run_cli("score", ["--limit", "0", "--gold", gold, system]).out)
    assert out["cut"]["limit"] == out["n"] - out["exact"]
    assert out["bound"]["c"] >= out["all"]["c"]


class Recorder(Progress):
    def __init__(self) -> None:
        self.events: List[Any] = []

    def start(self, total: int) -> None:
        self.events.append(("start", total))

    def advance(self, cut: bool) -> None:
        self.events.append(("advance", cut))

    def problem(self, graph: Graph, message: str) -> None:
        self.events.append(("problem", graph.id, message))

    def finish(self) -> None:
        self.events.append(("finish",))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_pair_is_reported_and_the_others_are_kept(monkeypatch: pytest.MonkeyPatch,
                                                            jobs: int) -> None:
    demo = read_corpus(str(ROOT / "data/demo/gold.mrp"))
    system = read_corpus(str(ROOT / "data/demo/system.mrp"))
    pairing = pair(demo, system)
    healthy, _ = evaluate("mrp", pairing, Options(trace=True))
    original = corpus.score_normal

    def flaky(gold: Any, *args: Any, **kwargs: Any) -> Any:
        if gold.id == "demo-2" and gold.framework == "psd":
            raise RuntimeError("boom")
        return original(gold, *args, **kwargs)

    monkeypatch.setattr(corpus, "score_normal", flaky)  # forked workers inherit the patch
    monkeypatch.setattr(corpus.MRP, "score_many", Metric.score_many)  # every pair through score_normal
    recorder = Recorder()
    result, _ = evaluate("mrp", pairing, Options(trace=True, run=Execution(jobs=jobs, progress=recorder)))
    assert result["n"] == healthy["n"] and result["cut"]["error"] == 1
    assert ("problem", "demo-2", "scoring failed: RuntimeError: boom") in recorder.events
    assert recorder.events[0] == ("start", healthy["n"]) and recorder.events[-1] == ("finish",)
    assert sum(event[0] == "advance" for event in recorder.events) == healthy["n"]
    failed = result["scores"]["psd"]["demo-2"]
    assert failed["cut"] == "error" and failed["all"]["c"] == 0
    assert failed["all"]["g"] == healthy["scores"]["psd"]["demo-2"]["all"]["g"]
    assert failed["bound"] == min(failed["all"]["g"], failed["all"]["s"])
    for framework, items in healthy["scores"].items():
        for gid, item in items.items():
            if (framework, gid) != ("psd", "demo-2"):
                assert result["scores"][framework][gid]["all"] == item["all"]
    assert result["bound"]["c"] >= healthy["all"]["c"]


def test_progress_line_on_a_terminal() -> None:
    stream = io.StringIO()
    line = Line("mrp-score", "gold.mrp", show=True, stream=stream)
    line.start(6)
    for cut in (False, True, False, False, False, False):
        line.advance(cut)
    line.problem(Graph(id="x", line=4), "scoring failed: boom")
    line.finish()
    text = stream.getvalue()
    assert "mrp-score: 6/6 pairs" in text and "pairs/s" in text and "ETA" in text and "1 cut" in text
    assert "\r\033[Kgold.mrp:4: graph x: scoring failed: boom\n" in text  # the line is cleared first
    assert text.index("6/6 pairs") < text.index("gold.mrp:4")


def test_no_progress_line_when_not_a_terminal() -> None:
    result = run_cli("score", ["--gold", DEMO_GOLD, DEMO_SYSTEM])
    assert result.code == 0 and result.err == ""
    quiet = Line("mrp-score", "g", show=False, stream=io.StringIO())
    quiet.start(1)
    quiet.advance(False)
    quiet.finish()
    assert quiet.stream.getvalue() == ""  # type: ignore[attr-defined]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_cleanly(tmp_path: Path, jobs: str) -> None:
    gold, system = hard_files(tmp_path, 400)
    opens = FileOpens([gold, system])  # watched before the command starts: its first open is not missed
    proc = subprocess.Popen(
        [sys.executable, "-m", "mrp.cli.score", "--jobs", jobs, "--gold", gold, system],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    opens.wait(proc)  # the event: the command is at work (not still importing)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)  # a safety bound only: it ends at once
    assert proc.returncode == 130
    assert out == b""
    assert err.decode().strip().endswith("mrp-score: interrupted; no results written")
    assert b"Traceback" not in err


def test_a_failing_smatch_pair_is_reported_and_the_others_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    from mrp.metrics.smatch import metric as smatch
    pairing = pair(read_corpus(DEMO_GOLD), read_corpus(DEMO_SYSTEM))
    healthy, _ = evaluate("smatch", pairing, Options(trace=True))
    original = smatch.score_triples

    def flaky(gid: str, *args: Any) -> Any:
        if gid == "demo-1":
            raise ValueError("bad")
        return original(gid, *args)

    monkeypatch.setattr(smatch, "score_triples", flaky)
    monkeypatch.setattr(smatch.SMATCH, "score_many", Metric.score_many)  # every pair through score_triples
    recorder = Recorder()
    result, _ = evaluate("smatch", pairing, Options(trace=True, run=Execution(progress=recorder)))
    failed = [(framework, gid) for framework, items in result["scores"].items() for gid, item in items.items()
              if item.get("cut") == "error"]
    problems = sum(event[0] == "problem" for event in recorder.events)
    assert len(failed) == result["cut"]["error"] == problems > 0
    for framework, gid in failed:
        assert result["scores"][framework][gid]["g"] == healthy["scores"][framework][gid]["g"]
        assert result["scores"][framework][gid]["c"] == 0
    assert result["n"] == healthy["n"] and result["bound"]["c"] >= healthy["c"]
