"""The kit's significance (issue 62 item 4, issue 60 drift 2): with fewer than two resampling units a test
says nothing (p is 1) and the board says how many units each test had; one interval computation gives a
figure's interval wherever it is shown (the leaderboard and the group's table of the page)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np

from mrp.report.stats import paired_test
from mrp.task.board import board
from mrp.task.definition import load
from mrp.task.evaluate import evaluate_submissions
from mrp.task.page import detailed_page
from mrp.task.tables import markdown_table

from conftest import ROOT, shared_file

DEMO = ROOT / "data" / "demo" / "task"


def _first_sentence(source: Path, target: Path) -> None:
    target.write_text(source.read_text(encoding="utf-8").split("\n\n\n")[0] + "\n", encoding="utf-8")


def test_one_sentence_is_never_significant(tmp_path: Path) -> None:
    assert paired_test(np.array([[5, 5, 5]]), np.array([[5, 5, 1]]), 1000, 0) == 1.0
    gold, a, b = (tmp_path / name for name in ("gold", "a", "b"))
    for folder, source in ((gold, DEMO / "gold"), (a, DEMO / "team-a"), (b, DEMO / "team-b")):
        folder.mkdir()
        for path in source.iterdir():
            _first_sentence(path, folder / path.name)
    evaluation = evaluate_submissions(load("dmr2026-umr"), str(gold), [str(a), str(b)],
                                      str(tmp_path / "work"))
    found = board(evaluation)
    assert found["test"]["units"] == 2  # one sentence per language: no language can vary
    scores = [row["scores"]["umatch_f"] for row in found["rows"]]
    assert scores[0] != scores[1]
    assert found["rows"][1]["p_best"] == 1.0 and [row["cluster"] for row in found["rows"]] == [1, 1]
    assert "2 sentences" in markdown_table(found) and "p is 1" in markdown_table(found)


def test_one_interval_for_one_figure_on_the_board_and_the_page(tmp_path: Path) -> None:
    gold, team = tmp_path / "gold", tmp_path / "team"
    gold.mkdir()
    team.mkdir()
    source = shared_file("data", "umr", "czech-pdtc")
    for k, name in enumerate(("pdt", "pdtsc", "pcedt"), 1):
        shutil.copyfile(source / f"{name}-gold.umr", gold / f"cs-{k:04d}.umr")
        shutil.copyfile(source / f"{name}-conv.umr", team / f"cs-{k:04d}.umr")
    evaluation = evaluate_submissions(load("dmr2026-umr"), str(gold), [str(team)], str(tmp_path / "work"))
    found = board(evaluation)
    low, high = found["rows"][0]["ci"]
    page = detailed_page(evaluation, found)
    table = page[page.index("<caption>umatch: cs</caption>"):]
    shown = re.search(r"\[(\d\.\d{4}), (\d\.\d{4})\]", table)
    assert shown is not None and (shown.group(1), shown.group(2)) == (f"{low:.4f}", f"{high:.4f}")


def test_a_file_s_interval_is_the_bootstrap_s_micro_f_interval() -> None:
    """The file interval computes F alone: on random counts (none, one, many sentences; zeros; chunked
    weights) its bounds are exactly those of mrp.report.stats.bootstrap's micro F."""
    from dataclasses import replace

    from mrp.report.stats import bootstrap
    from mrp.task.scoring import Item
    from mrp.task.significance import file_interval

    task = load("dmr2026-umr")
    rng = np.random.default_rng(7)
    for size, n, seed, level in [(0, 1000, 0, 0.95), (1, 1000, 0, 0.95), (2, 17, 3, 0.9), (45, 1000, 0, 0.95),
                                 (300, 999, 5, 0.99), (3000, 700, 1, 0.95)]:
        counts = rng.integers(0, 30, size=(size, 3))
        counts[::4] = 0
        items = [Item("cs", "cs-0001.umr", str(k), (int(g), int(s), int(c)))
                 for k, (g, s, c) in enumerate(counts)]
        case = replace(task, bootstrap=n, seed=seed, confidence=level)
        expected = bootstrap({(): counts.reshape(size, 3)}, n, seed, level)[()]["micro"]["f"]
        assert file_interval(case, items) == expected
        assert file_interval(case, items) == expected  # kept
