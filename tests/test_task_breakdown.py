"""Breakdowns the DMR 2026 overview asks for (issue 62 item 10): per language, per document, the figure
without document-level relations and the alignment figure apart, languages without training data marked
(the task file names them), with intervals, in results.json, the page and the leaderboard forms."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path
from typing import Dict, List

from mrp.task.definition import load

from conftest import ROOT, run_cli, shared_file

DEMO = ROOT / "data" / "demo" / "task"


def _reference(name: str) -> Dict[str, List[str]]:
    text = shared_file("reference", "umrtools", "compare", name).read_text(encoding="utf-8")
    return {line.split("\t")[0]: line.split("\t") for line in text.splitlines()}


def test_breakdowns_in_every_output(tmp_path: Path) -> None:
    gold, team = tmp_path / "gold", tmp_path / "team"
    gold.mkdir()
    team.mkdir()
    source = shared_file("data", "umr", "czech-pdtc")
    shutil.copyfile(source / "dtest-gold.umr", gold / "cs-0001.umr")
    shutil.copyfile(source / "dtest-conv.umr", team / "cs-0001.umr")
    for path in (DEMO / "gold").glob("en-*"):
        shutil.copyfile(path, gold / path.name)
        shutil.copyfile(DEMO / "team-a" / path.name, team / path.name)
    task = tmp_path / "task.toml"
    task.write_text(load("dmr2026-umr").source.replace("unseen = []", 'unseen = ["en"]'), encoding="utf-8")
    out = tmp_path / "out"
    done = run_cli("evaluate", ["--task", str(task), "--gold", str(gold), "--output", str(out), str(team)])
    assert done.code == 0, done.err
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert results["unseen"] == ["en"]
    item = results["submissions"][0]
    # the figures apart: compare_umr.pl's own rows (--no-document-level, and the aligned token sets)
    nodoc, full = _reference("dtest.nodoc.tsv"), _reference("dtest.tsv")
    scores = item["scores"]
    assert format(scores["umatch_sentence_f_cs"], ".15g") == nodoc["juːmæʧ"][8]
    assert format(scores["umatch_alignment_f_cs"], ".15g") == full["aligned token sets"][8]
    assert format(scores["umatch_f_cs"], ".15g") == full["juːmæʧ"][8]
    # per document, with an interval
    document = item["files"]["cs-0001.umr"]["umatch"]
    low, high = document["ci"]
    assert low <= document["f"] <= high and low < high
    md = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "umatch_f_en (unseen)" in md and "umatch_alignment_f_cs" in md and "umatch_sentence_f" in md
    assert "Groups without training data (unseen): en." in md
    header = next(csv.reader(io.StringIO((out / "leaderboard.csv").read_text(encoding="utf-8"))))
    assert "umatch_alignment_f_cs" in header and "umatch_f_en (unseen)" in header
    assert "umatch_sentence_f" in (out / "leaderboard.tex").read_text(encoding="utf-8").replace("\\_", "_")
    page = (out / "detailed_results.html").read_text(encoding="utf-8")
    assert "<caption>per document</caption>" in page and "en (no training data)" in page
    assert "<caption>umatch_alignment: cs</caption>" in page
