"""mrp-evaluate computes each distinct file content once (mrp.task.memo): its outputs (scores.json, the full
results, the leaderboards) are the same with the memo and without, and the same for a team listed first or
last; the memo's keys name the content and the options read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Dict, List

import pytest

from mrp.task.board import board
from mrp.task.definition import load
from mrp.task.evaluate import Evaluation, evaluate_submissions
from mrp.task.memo import EvaluationMemo, file_digest
from mrp.task.outputs import results, scores_json
from mrp.task.tables import forms

from conftest import ROOT

DEMO = ROOT / "data" / "demo" / "task"


def _folder(tmp_path: Path, apart: bool = False) -> Path:
    """Gold and three teams whose files repeat contents across names (as a task's gold repeats across teams):
    team c submits a file that cannot be read, and leaves one out.  With ``apart``, the first file of the
    gold and of team b has its first sentence ended early for compare_umr.pl (two empty lines before its
    alignment: a warning about the gold file for every team, and a level-1 problem, waived, of the gold)."""
    for side in ("gold", "team-a", "team-b"):
        target = tmp_path / side
        target.mkdir()
        for k, source in enumerate(["cs-0001.umr", "en-0001.umr", "cs-0001.umr", "en-0001.umr"], 1):
            text = (DEMO / side / source).read_text(encoding="utf-8")
            if apart and side in ("gold", "team-b") and k == 1:
                text = text.replace("\n# alignment:", "\n\n# alignment:", 1)
            (target / f"{'cs' if k % 2 else 'en'}-{k:04d}.umr").write_text(text, encoding="utf-8")
    (tmp_path / "team-c").mkdir()
    shutil.copyfile(DEMO / "team-a" / "cs-0001.umr", tmp_path / "team-c" / "cs-0001.umr")
    shutil.copyfile(DEMO / "team-a" / "cs-0001.umr", tmp_path / "team-c" / "en-0002.umr")
    (tmp_path / "team-c" / "cs-0003.umr").write_text("(s1s / broken\n", encoding="utf-8")
    return tmp_path


def _run(folder: Path, teams: List[str], cache: bool, work: str) -> Evaluation:
    (folder / work).mkdir()
    arguments = [f"{team}={folder / team}" for team in teams]
    return evaluate_submissions(load("dmr2026-umr"), str(folder / "gold"), arguments, str(folder / work),
                                cache=cache)


def _outputs(evaluation: Evaluation) -> Dict[str, Any]:
    found = board(evaluation)
    full = results(evaluation, found)
    return {"scores": {entry.name: scores_json(entry.scores) for entry in evaluation.scored()},
            "results": {item["team"]: json.dumps(item, sort_keys=True) for item in full["submissions"]},
            "rest": json.dumps({key: value for key, value in full.items() if key != "submissions"},
                               sort_keys=True),
            "forms": forms(found)}


def test_outputs_are_the_same_with_the_memo_and_without(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    teams = ["team-a", "team-b", "team-c"]
    kept = _run(folder, teams, True, "kept")
    fresh = _run(folder, teams, False, "fresh")
    assert kept.entries[2].invalid and kept.entries[2].plan.missing  # the case exercises the notes
    assert _outputs(kept) == _outputs(fresh)
    whole = (json.dumps(results(kept, board(kept)), sort_keys=True),
             json.dumps(results(fresh, board(fresh)), sort_keys=True))
    assert whole[0] == whole[1]


def test_outputs_are_the_same_for_a_team_listed_first_or_last(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    first = _outputs(_run(folder, ["team-b", "team-a", "team-c"], True, "first"))
    last = _outputs(_run(folder, ["team-a", "team-c", "team-b"], True, "last"))
    assert first == last


def test_the_memo_keys_name_the_content(tmp_path: Path) -> None:
    one, two = tmp_path / "a.umr", tmp_path / "b.umr"
    one.write_text("x", encoding="utf-8")
    two.write_text("x", encoding="utf-8")
    assert file_digest(str(one)) == file_digest(str(two)) and file_digest(str(tmp_path / "none")) is None
    memo, calls = EvaluationMemo(), []
    for path in (one, two):
        memo.get("read", (memo.digest(str(path)), "umr"), lambda: calls.append(1))
    memo.get("read", (memo.digest(str(one)), "mrp"), lambda: calls.append(1))
    assert len(calls) == 2  # same content and options: once; other options: again
    off = EvaluationMemo(enabled=False)
    assert off.digest(str(one)) is None
    off.get("read", ("k",), lambda: calls.append(1))
    off.get("read", ("k",), lambda: calls.append(1))
    assert len(calls) == 4


# team-a: (gold cs, a's cs) and (gold en, a's en); team-c adds (gold en, a's cs), (gold cs, empty) and
# (gold en, empty): its broken file is scored as empty, as is the file it leaves out
@pytest.mark.parametrize(("teams", "pairs"), [(["team-a"], 2), (["team-c", "team-a"], 5)])
def test_a_repeated_content_is_scored_once(tmp_path: Path, teams: List[str], pairs: int,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from mrp.task import scoring

    calls: List[str] = []
    real = scoring.file_score

    def counted(*args: Any) -> Any:
        calls.append(args[0].key)
        return real(*args)

    monkeypatch.setattr(scoring, "file_score", counted)
    _run(_folder(tmp_path), teams, True, "work")
    # four figures, three runs: the aligned token sets are a path of the official figure's run
    assert len(calls) == pairs * 3 and set(calls) == {"umatch", "umatch_exact", "umatch_sentence"}


# the file team-c leaves out is scored without a comparison (every gold triple missed)
@pytest.mark.parametrize(("teams", "pairs"), [(["team-a"], 2), (["team-c", "team-a"], 4)])
def test_a_file_pair_is_prepared_once_for_its_four_figures(tmp_path: Path, teams: List[str], pairs: int,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 64 goal 2: juːmæʧ reads a file pair into its view once for the compat, exact, no-document-level
    and aligned-token figures (the kit scores file by file), and the figures are those of runs apart."""
    from mrp.metrics.umatch import graphs

    calls: List[int] = []
    real = graphs.files

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(graphs, "files", counted)
    together = _outputs(_run(_folder(tmp_path), teams, True, "work"))
    assert len(calls) == pairs
    apart = _outputs(_run(tmp_path, teams, False, "apart"))  # no memo: each figure's runs on their own
    assert len(calls) > 3 * pairs and apart == together


def test_a_umr_file_is_parsed_once_for_the_validator_and_the_scorer(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from mrp.codecs.umr import documents as umr  # where the reader calls it

    calls: List[str] = []
    real = umr.parse_documents

    def counted(lines: Any, name: str, options: Any = None) -> Any:
        calls.append(name)
        return real(lines, name, options)

    monkeypatch.setattr(umr, "parse_documents", counted)
    _run(_folder(tmp_path), ["team-a"], True, "work")
    # two distinct gold contents and two distinct submitted ones, each parsed once (validated and scored)
    assert len(calls) == 4


def test_a_team_s_messages_do_not_depend_on_the_teams_scored_before_it_in_the_process(tmp_path: Path) -> None:
    """A warning about a file pair (here the gold file's sentences that compare_umr.pl ends at two empty
    lines, met when a team leaves that file out) is in the notes of every team it concerns: scored alone,
    after another team in the same process (--jobs 1), or in a process of its own (--jobs 2)."""
    gold = tmp_path / "gold"
    gold.mkdir()
    text = (DEMO / "gold" / "en-0001.umr").read_text(encoding="utf-8")
    (gold / "en-0001.umr").write_text(text.replace("\n# alignment:", "\n\n# alignment:"), encoding="utf-8")
    shutil.copyfile(DEMO / "gold" / "cs-0001.umr", gold / "cs-0001.umr")
    for team in ("one", "two"):  # both leave out en-0001.umr
        (tmp_path / team).mkdir()
        shutil.copyfile(DEMO / "team-a" / "cs-0001.umr", tmp_path / team / "cs-0001.umr")
    runs = {}
    cases = (("alone", ["two"], 1), ("after", ["one", "two"], 1), ("apart", ["one", "two"], 2))
    for work, teams, jobs in cases:
        (tmp_path / work).mkdir()
        evaluation = evaluate_submissions(load("dmr2026-umr"), str(gold), [str(tmp_path / t) for t in teams],
                                          str(tmp_path / work), jobs=jobs)
        full = results(evaluation, board(evaluation))
        runs[work] = {item["team"]: json.dumps(item, sort_keys=True) for item in full["submissions"]}
    assert "compare_umr.pl ends a sentence at two empty lines" in runs["alone"]["two"]
    assert runs["after"]["two"] == runs["alone"]["two"]
    assert runs["apart"] == runs["after"]


def test_the_gold_is_validated_once_and_its_problems_name_its_files(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A gold file that fails the task's level is validated once, for the gold check and for a team that
    submits a copy of it, and the organiser's lines name the gold file (no placeholder)."""
    from mrp.task import evaluate as kit

    folder = _folder(tmp_path)
    for path in (folder / "gold").iterdir():  # trailing white space: a level-1 problem of every gold file
        path.write_text(path.read_text(encoding="utf-8").replace("\n", " \n", 1), encoding="utf-8")
    shutil.copytree(folder / "gold", folder / "copy")
    calls: List[str] = []
    real = kit.umr_problems  # the kit's validator of UMR files

    def counted(path: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(file_digest(path) or "")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(kit, "umr_problems", counted)
    evaluation = _run(folder, ["copy"], True, "work")
    lines = evaluation.gold_check.lines(evaluation.task.level)
    failing = [line for line in lines if "fails validation" in line]
    assert len(failing) == 4 and all("\x00" not in line for line in lines)
    assert all(f"gold {name} fails" in line and f": {name}:1: " in line
               for name, line in zip(sorted(evaluation.gold), failing)), failing
    assert sorted(calls) == sorted(set(calls)) and len(calls) == 2  # two distinct gold contents
