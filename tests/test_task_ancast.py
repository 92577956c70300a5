"""AnCast as an extra figure of a shared task: a task file names the registered ``ancast`` metric, its
scores.json keys and leaderboard columns follow (``KEY_f``, ``KEY_f_GROUP``), each group's figure is
AnCast's own LRM F of the group's sentences (its sums added up, as AnCast adds a corpus), and the Codabench
bundle's columns name it; it cannot rank (its figures are not sums of counts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mrp.corpora.load import read_corpus
from mrp.engine.options import Options
from mrp.engine.pairing import pair
from mrp.errors import InputError
from mrp.metrics.registry import evaluate as score
from mrp.task.board import board
from mrp.task.codabench import competition_yaml
from mrp.task.definition import load, parse
from mrp.task.evaluate import evaluate_submissions
from mrp.task.tables import forms, tex

from conftest import ROOT, run_cli

DEMO = ROOT / "data" / "demo" / "task"
ANCAST = '''
[[metrics]]
key = "ancast"
metric = "ancast"
label = "AnCast LRM F1"
'''


def _task(tmp_path: Path, extra: str = ANCAST) -> Path:
    path = tmp_path / "task.toml"
    path.write_text(load("dmr2026-umr").source.replace("\n[averaging]", extra + "\n[averaging]"),
                    encoding="utf-8")
    return path


def _lrm(language: str, team: str) -> float:
    """AnCast's LRM F of one file pair, as mrp-score --score ancast computes it."""
    gold = read_corpus(str(DEMO / "gold" / f"{language}-0001.umr"))
    system = read_corpus(str(DEMO / team / f"{language}-0001.umr"))
    return float(score("ancast", pair(gold, system), Options())[0]["lrm"]["f"])


def test_a_task_file_may_name_ancast_as_an_extra_figure(tmp_path: Path) -> None:
    task = load(str(_task(tmp_path)))
    assert [spec.metric for spec in task.metrics] == ["umatch"] * 4 + ["ancast"]
    assert task.keys(["cs"])[-2:] == ["ancast_f", "ancast_f_cs"]
    (tmp_path / "work").mkdir()
    found = evaluate_submissions(task, str(DEMO / "gold"), [f"a={DEMO / 'team-a'}", f"b={DEMO / 'team-b'}"],
                                 str(tmp_path / "work"))
    for entry, team in zip(found.entries, ("team-a", "team-b")):
        per_language = {language: _lrm(language, team) for language in ("cs", "en")}
        assert entry.scores["ancast_f_cs"] == pytest.approx(per_language["cs"], abs=1e-12)
        assert entry.scores["ancast_f_en"] == pytest.approx(per_language["en"], abs=1e-12)
        assert entry.scores["ancast_f"] == pytest.approx(sum(per_language.values()) / 2, abs=1e-12)
        assert entry.scored["ancast"].signature.startswith(f"task:{task.name}|ancast:umr|")
    shown = board(found)
    assert "ancast_f" in shown["columns"] and shown["labels"]["ancast"] == "AnCast LRM F1"
    for extension, text in forms(shown).items():
        wanted = ["ancast_f_cs", ("" if extension == "csv" else "signature ancast: ")  # CSV: a column
                  + shown["signatures"]["ancast"]]
        assert all((tex(line) if extension == "tex" else line) in text for line in wanted), extension
    yaml = competition_yaml(task, found.groups, shown["labels"])
    assert "key: ancast_f_en" in yaml and "AnCast LRM F1 (overall)" in yaml


def test_the_command_writes_ancast_keys(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = run_cli("evaluate", ["--task", str(_task(tmp_path)), "--gold", str(DEMO / "gold"), "--output",
                                str(out), f"a={DEMO / 'team-a'}"])
    assert done.code == 0, done.err
    scores = json.loads((out / "a" / "scores.json").read_text(encoding="utf-8"))
    assert scores["ancast_f_cs"] == pytest.approx(_lrm("cs", "team-a"), abs=1e-12)
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert set(results["submissions"][0]["figures"]["ancast"]["groups"]["cs"]) == {"p", "r", "f"}
    assert "ancast_f" in done.out.splitlines()[0]


def test_ancast_cannot_rank(tmp_path: Path) -> None:
    text = _task(tmp_path).read_text(encoding="utf-8").replace('primary = "umatch_f"', 'primary = "ancast_f"')
    with pytest.raises(InputError, match="ancast_f.*not a sum of counts"):
        parse(text, "task.toml")
