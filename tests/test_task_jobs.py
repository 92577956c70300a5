"""mrp-evaluate's outputs do not depend on its --jobs: with two processes the files and file pairs are
computed ahead in workers (mrp.task.pool) and every step then finds its result kept, giving the same files,
messages and organiser's log byte for byte as one process; the gold's problems name the gold file."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Dict

from test_task_memo import _folder, _run

from mrp.task.memo import EvaluationMemo
from mrp.task.messages import organiser_lines

from conftest import ROOT, run_cli


def _files(out: Path) -> Dict[str, str]:
    """Every output file's text, each page's random nonce made one."""
    return {str(path.relative_to(out)): re.sub(r"nonce-[A-Za-z0-9_-]+|nonce=\"[A-Za-z0-9_-]+\"", "NONCE",
                                                path.read_text(encoding="utf-8"))
            for path in sorted(out.rglob("*")) if path.is_file()}


def test_the_outputs_are_the_same_with_one_process_and_two(tmp_path: Path) -> None:
    """mrp-evaluate in a fresh process (no thread keeps it from forking its workers)."""
    folder = _folder(tmp_path, apart=True)
    found = {}
    for jobs in (1, 2):
        out = tmp_path / f"out-{jobs}"
        done = run_cli("evaluate", ["--task", "dmr2026-umr", "--gold", str(folder / "gold"), "--output",
                                    str(out), "--jobs", str(jobs),
                                    *(f"{team}={folder / team}" for team in ("team-a", "team-b", "team-c"))])
        assert done.code in (0, 1), done.err
        found[jobs] = (_files(out), done.out, done.err.replace(str(out), "OUT"))
    assert "compare_umr.pl ends a sentence at two empty lines" in found[1][2]  # the case is exercised
    assert set(found[1][0]) == set(found[2][0])
    for name, text in found[1][0].items():
        assert text == found[2][0][name], name
    assert found[1][1:] == found[2][1:]


_COUNTED = """
import json, sys
from mrp.task import evaluate, reading, scoring
from mrp.task.definition import load
after, done = [], [False]
for module, name in ((scoring, "file_score"), (reading, "_read"), (evaluate, "_problems")):
    def counted(*args, real=getattr(module, name), name=name, **kwargs):
        if done[0]:
            after.append(name)
        return real(*args, **kwargs)
    setattr(module, name, counted)
ahead = evaluate.compute_ahead
def marked(*args, **kwargs):
    ahead(*args, **kwargs)
    done[0] = True
evaluate.compute_ahead = marked
folder = sys.argv[1]
evaluation = evaluate.evaluate_submissions(load("dmr2026-umr"), folder + "/gold",
                                           [f"{team}={folder}/{team}" for team in ("team-a", "team-b")],
                                           folder + "/work", jobs=2)
print(json.dumps({"ahead": done[0], "tests": sorted(evaluation.gold_check.tests), "after": after}))
"""


def test_with_two_processes_every_file_and_pair_is_computed_ahead(tmp_path: Path) -> None:
    """After the files are computed ahead, the evaluation's own steps read, validate and score nothing (under
    dmr2026-umr's policy "empty", a file whose problems are the gold's own, waived, is scored ahead too); in
    a fresh process, which no thread keeps from forking."""
    folder = _folder(tmp_path, apart=True)
    (folder / "work").mkdir()
    done = subprocess.run([sys.executable, "-c", _COUNTED, str(folder)], capture_output=True, text=True,
                          cwd=ROOT, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["ahead"] and found["tests"]  # the gold fails a test: team b's problem is waived
    assert found["after"] == []


def test_the_gold_s_problems_name_the_gold_file(tmp_path: Path) -> None:
    evaluation = _run(_folder(tmp_path, apart=True), ["team-a"], True, "work")
    lines = [line for line in organiser_lines(evaluation) if "fails validation" in line]
    assert lines and lines[0].startswith("gold cs-0001.umr fails validation at level 1")
    first = lines[0].split("the first: ")[1]
    assert first.startswith("cs-0001.umr:") and "file" not in first


def test_a_result_computed_ahead_gives_its_warnings_at_its_first_use() -> None:
    ahead = EvaluationMemo()

    def computed() -> int:
        warnings.warn("said while computing", UserWarning, stacklevel=2)
        return 7

    with warnings.catch_warnings(record=True) as quiet:
        warnings.simplefilter("always")
        with ahead.recording() as found:
            assert ahead.get("read", ("d", "umr"), computed) == 7
            ahead.get("read", ("d", "umr"), computed)  # kept: not recorded again
    assert [str(w.message) for w in quiet] == [] and list(found) == [("read", ("d", "umr"))]
    memo = EvaluationMemo()
    memo.adopt(found)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert memo.get("read", ("d", "umr"), lambda: 0) == 7
        assert memo.get("read", ("d", "umr"), lambda: 0) == 7
    assert [str(w.message) for w in caught] == ["said while computing"]

