"""Every door scores with the garbage collector paused (graphs, triples and results hold no cycles: the
collector would only walk them again and again), and gives it back as it found it; a library call never
freezes the heap (gc.freeze() would move the caller's cyclic garbage into the permanent generation, never
collected: a reward function called once per sampled graph would leak the training loop's garbage at
every call), while an mrp command, whose process is its own, still freezes what it read."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import pytest

import mrp
from mrp.cli import score as score_cli
from mrp.engine.base import PairCounts
from mrp.engine.options import Options
from mrp.engine.pairing import Pair
from mrp.metrics.smatch.metric import SMATCH

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"


@pytest.fixture
def collecting(monkeypatch: pytest.MonkeyPatch) -> List[bool]:
    """Whether the collector ran, each time SMATCH scored pairs."""
    seen: List[bool] = []
    real = SMATCH.score_many

    def spy(self: SMATCH, pairs: Sequence[Pair], options: Options) -> List[Optional[PairCounts]]:
        seen.append(gc.isenabled())
        return real(self, pairs, options)

    monkeypatch.setattr(SMATCH, "score_many", spy)
    return seen


@pytest.mark.parametrize("door", ["mrp-score", "library"])
def test_pairs_are_scored_with_the_collector_paused(door: str, collecting: List[bool],
                                                    capsys: Any) -> None:
    gold, system = str(DEMO / "gold.mrp"), str(DEMO / "system.mrp")
    assert gc.isenabled()
    if door == "mrp-score":
        assert score_cli.main_body(["--score", "smatch", "--jobs", "1", "--gold", gold, system]) == 0
        assert '"f"' in capsys.readouterr().out
    else:
        assert mrp.score(gold, system, metric="smatch", jobs=1).f > 0
    assert collecting and not any(collecting)
    assert gc.isenabled()


@pytest.mark.parametrize("door", ["mrp-score", "library"])
def test_a_commands_run_moves_what_it_made_out_of_the_collectors_way(door: str, capsys: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """mrp-score's process ends after its run: what the run made is frozen when it ends (its report then
    walks none of it); the library's run leaves what it made to the collector."""
    from mrp.engine import driver
    from mrp.process.collector import collector_paused

    asked: List[bool] = []

    def spy(freeze: bool = True) -> Any:
        asked.append(freeze)
        return collector_paused(freeze)

    monkeypatch.setattr(driver, "collector_paused", spy)
    gold, system = str(DEMO / "gold.mrp"), str(DEMO / "system.mrp")
    try:
        if door == "mrp-score":
            assert score_cli.main_body(["--score", "smatch", "--jobs", "1", "--gold", gold, system]) == 0
            assert '"f"' in capsys.readouterr().out
        else:
            assert mrp.score(gold, system, metric="smatch", jobs=1).f > 0
        assert asked == [door == "mrp-score"]
    finally:
        gc.unfreeze()
    assert gc.isenabled()


GOLD = ["(a / alpha :ARG0 (b / beta) :ARG1 (c / gamma))"]
SYSTEM = ["(a / alpha :ARG0 (b / beta) :ARG1 (c / delta))"]


class _Cell:
    other: Any = None


def _cyclic_garbage() -> weakref.ref[_Cell]:
    one, two = _Cell(), _Cell()
    one.other, two.other = two, one
    return weakref.ref(one)


@pytest.mark.parametrize("call", [
    lambda: mrp.score(GOLD, SYSTEM, metric="smatch"),
    lambda: mrp.score(GOLD, SYSTEM),
    lambda: mrp.pairwise(GOLD, SYSTEM, metric="smatch"),
    lambda: mrp.read(GOLD),
    lambda: mrp.read("\n\n".join(GOLD)),
], ids=["score-smatch", "score-mrp", "pairwise", "read-list", "read-text"])
def test_a_library_call_leaves_the_caller_s_cyclic_garbage_collectable(call: Callable[[], Any]) -> None:
    call()  # anything compiled or imported once is done
    gc.collect()
    frozen = gc.get_freeze_count()
    garbage = _cyclic_garbage()
    call()
    assert gc.get_freeze_count() == frozen
    gc.collect()
    assert garbage() is None


def test_a_command_s_own_process_still_freezes_what_it_read() -> None:
    code = ("import gc, mrp\n"
            "from mrp.process.collector import collector_paused, own_process\n"
            "with collector_paused():\n    made = [[k] for k in range(1000)]\n"
            "print(gc.get_freeze_count())\n"
            "own_process()\n"
            "with collector_paused():\n    made = [[k] for k in range(1000)]\n"
            "print(gc.get_freeze_count())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, after = (int(line) for line in done.stdout.split())
    assert before == 0 and after >= 1000


@pytest.mark.parametrize("door", ["score", "pairwise"])
def test_the_collector_resumes_after_the_graphs_a_call_read_are_gone(door: str) -> None:
    """A call drops the graphs it read (and the run holding them) before the collector resumes: its first
    pass would otherwise walk every one of them (a third of a reward batch's time), and nothing the call
    returns holds a graph."""
    from mrp.graph import Graph

    golds, systems = GOLD * 300, SYSTEM * 300

    def call() -> Any:
        if door == "score":
            return mrp.score(golds, systems, metric="smatch")
        return mrp.pairwise(golds, systems, metric="smatch")

    call()
    gc.collect()
    walked: List[int] = []

    def watch(phase: str, info: Dict[str, int]) -> None:
        if phase == "start":
            walked.append(sum(isinstance(item, Graph) for generation in range(info["generation"] + 1)
                              for item in gc.get_objects(generation=generation)))

    gc.callbacks.append(watch)
    try:
        kept = call()
        gc.collect(0)
    finally:
        gc.callbacks.remove(watch)
    assert kept is not None and walked and not any(walked)


_EVALUATED = """
import gc, sys
from mrp.process.collector import own_process
from mrp.task.definition import load
from mrp.task.evaluate import evaluate_submissions
if sys.argv[2] == "own":
    own_process()
young = []
gc.callbacks.append(lambda phase, info: young.append(gc.get_count()[0]) if phase == "start" else None)
folder = sys.argv[1]
evaluate_submissions(load("dmr2026-umr"), folder + "/gold", [f"{team}={folder}/{team}" for team in ("team-a",
                     "team-b")], folder + "/" + sys.argv[2], jobs=1)
print(max(young, default=0), gc.get_freeze_count())
"""


@pytest.mark.parametrize("process", ["own", "library"])
def test_an_evaluation_s_runs_leave_the_collector_no_heap_to_walk(tmp_path: Path, process: str) -> None:
    """mrp-evaluate's process is its own: each of its runs (a file pair under a metric) moves what it made out
    of the collector's way when it ends, so that no collection then walks the tens of thousands of objects a
    run made (the collector's first pass after each run, then its older generations, took a third of the
    organiser's night's CPU); an evaluation through the library freezes nothing (its runs' objects are left
    to the collector: the young generation then holds them when it is next collected)."""
    from test_task_memo import _folder

    folder = _folder(tmp_path, apart=True)
    (folder / process).mkdir()
    done = subprocess.run([sys.executable, "-c", _EVALUATED, str(folder), process], capture_output=True,
                          text=True, timeout=600, check=False, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    young, frozen = (int(value) for value in done.stdout.split())
    if process == "own":
        assert young < 5000 and frozen > 0
    else:
        assert young > 5000 and frozen == 0
