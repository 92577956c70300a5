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


def _items(group: str, counts: np.ndarray, start: int = 0) -> list:
    from mrp.task.scoring import Item

    return [Item(group, f"{group}-0001.umr", str(start + k), (int(g), int(s), int(c)))
            for k, (g, s, c) in enumerate(counts)]


def test_a_group_s_interval_and_test_are_the_bootstrap_s_and_the_paired_test_s() -> None:
    """A group's (and a micro overall figure's) interval and paired test are those of mrp.report.stats
    (bootstrap's micro F bounds, paired_test's p) on the group's counts, whatever was asked before (the
    replicates kept, drawn for several submissions at once, or not)."""
    from dataclasses import replace

    from mrp.report.stats import bootstrap
    from mrp.task.significance import interval, prime, test

    task = load("dmr2026-umr")
    rng = np.random.default_rng(11)
    groups = ["cs", "en"]
    for size, n, seed, level in [(0, 1000, 0, 0.95), (1, 1000, 0, 0.95), (2, 17, 3, 0.9), (45, 1000, 0, 0.95),
                                 (300, 999, 5, 0.99), (5000, 1000, 2, 0.95)]:
        cs = [rng.integers(0, 30, size=(size, 3)) for _ in range(3)]
        cs[2][: size // 2] = cs[0][: size // 2]  # a submission much like the first
        cs[1][::3] = 0
        en = [rng.integers(0, 9, size=(3, 3)) for _ in range(3)]
        found = [_items("cs", a) + _items("en", b, size) for a, b in zip(cs, en)]
        for overall in ("macro", "micro"):
            case = replace(task, bootstrap=n, seed=seed, confidence=level, overall=overall)
            if overall == "macro" and size == 45:
                prime(case, groups, found)
            for k in (0, 1, 2):
                expected = bootstrap({(): cs[k].reshape(size, 3)}, n, seed, level)[()]["micro"]["f"]
                assert interval(case, found[k], groups, "cs") == expected, (size, k)
                other = (k + 1) % 3
                p = paired_test(cs[k].reshape(size, 3), cs[other].reshape(size, 3), n, seed)
                assert test(case, found[k], found[other], groups, "cs") == p, (size, k)
                assert interval(case, found[k], groups, "cs") == expected  # kept
            if overall == "micro":
                whole = [np.concatenate([a.reshape(size, 3), b]) for a, b in zip(cs, en)]
                assert interval(case, found[0], groups) == \
                    bootstrap({(): whole[0]}, n, seed, level)[()]["micro"]["f"]
                assert test(case, found[1], found[0], groups) == paired_test(whole[1], whole[0], n, seed)


def _stratified_oracle(per_group: list, n: int, seed: int) -> np.ndarray:
    """The mean of the groups' micro F in each stratified replicate, by drawing each replicate's sentences
    (group by group, the draws of one generator in group order) and adding their counts up."""
    rng = np.random.default_rng(seed)
    values = []
    for counts in per_group:
        size = len(counts)
        picks = rng.integers(0, size, size=(n, size)) if size else np.zeros((n, 0), dtype=np.int64)
        sums = counts[picks].sum(axis=1).astype(np.float64) if size else np.zeros((n, 3))
        g, s, c = sums[:, 0], sums[:, 1], sums[:, 2]
        p = np.divide(c, s, out=np.zeros(n), where=s != 0)
        r = np.divide(c, g, out=np.zeros(n), where=g != 0)
        values.append(np.divide(2 * p * r, p + r, out=np.zeros(n), where=p + r != 0))
    return np.mean(values, axis=0)


def test_a_macro_figure_s_interval_and_test_resample_within_each_group() -> None:
    """The overall macro figure's interval and paired test resample each group's sentences apart (a
    stratified bootstrap), as an oracle drawing the sentences themselves finds, asked in any order."""
    from dataclasses import replace

    from mrp.task.significance import interval, test

    task = load("dmr2026-umr")
    rng = np.random.default_rng(5)
    groups = ["ar", "cs", "en"]
    for sizes, n, seed in [((40, 3, 120), 1000, 0), ((7, 0, 2), 333, 9), ((30, 30, 5), 500, 4)]:
        case = replace(task, bootstrap=n, seed=seed, overall="macro")
        counts = [[rng.integers(0, 25, size=(size, 3)) for size in sizes] for _ in range(2)]
        if sizes[0] == sizes[1]:  # two groups of the same counts: resampled apart all the same
            counts[0][1] = counts[0][0].copy()
        found = [[item for group, part in zip(groups, parts) for item in _items(group, part)]
                 for parts in counts]
        replicates = [_stratified_oracle(parts, n, seed) for parts in counts]
        levels = [(1 - case.confidence) / 2, (1 + case.confidence) / 2]
        for k in (1, 0, 1):
            assert interval(case, found[k], groups) == [float(x) for x in np.quantile(replicates[k], levels)]
        full = [np.mean([_f_of(part) for part in parts], axis=0) for parts in counts]
        observed = float(full[0][0] - full[1][0])
        deltas = replicates[0] - replicates[1] - observed
        hits = int(np.count_nonzero(np.abs(deltas) >= abs(observed) - 1e-12))
        assert test(case, found[0], found[1], groups) == (hits + 1) / (n + 1)


def _f_of(counts: np.ndarray) -> np.ndarray:
    g, s, c = counts.astype(np.float64).sum(axis=0)
    p = c / s if s else 0.0
    r = c / g if g else 0.0
    return np.array([2 * p * r / (p + r) if p + r else 0.0])
