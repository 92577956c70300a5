"""The tests a gold fails are waived for every submission (mrp.task.gold): each level check's problem comes
with the test id its validator tagged it with, so that no problem's line is read again to find it; the id
is the one its line names (mrp.task.gold.test_of), and waiving by the ids keeps the same lines."""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path
from typing import FrozenSet, List, Optional

import pytest

from mrp.task import evaluate
from mrp.task import gold as gold_module
from mrp.task.definition import load
from mrp.task.gold import Validated, kept, left, tagged, waived
from mrp.task.gold import test_of as read_test
from mrp.task.memo import EvaluationMemo
from mrp.validation import validate_file

from conftest import ROOT

DEMO = ROOT / "data" / "demo" / "task"


def _flawed(tmp_path: Path) -> Path:
    """A UMR file failing several level-1 and level-2 tests, one of its lines quoting a test's mark."""
    text = (DEMO / "gold" / "cs-0001.umr").read_text(encoding="utf-8")
    lines = text.split("\n")
    lines[3] += "  "  # trailing white space
    lines.insert(8, "what [L1 Format trailing-whitespace] is this")  # a line of no kind, quoting a mark
    text = "\n".join(lines).replace("\n# alignment:", "\n\n\n\n# alignment:", 1)  # extra empty lines
    path = tmp_path / "cs-0001.umr"
    path.write_text(text + "\n\n\n\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_level_check_s_tag_is_the_test_its_line_names(tmp_path: Path, level: int) -> None:
    path = _flawed(tmp_path)
    report = validate_file(str(path), "umr", umr_level=level)
    problems = report.problems + report.warnings
    expected = {"trailing-whitespace", "invalid-line", "extra-empty-line"}
    assert {problem.test for problem in problems} >= expected
    tagged_ones = 0
    for problem in problems:
        found = tagged(problem)
        line = str(problem).replace(str(path), "\x00file\x00")
        assert found is None or found == read_test(line), line
        tagged_ones += found is not None
        assert (found is None) == (problem.test is None)
    assert tagged_ones > 3


def test_waiving_by_the_tags_reads_no_line_and_keeps_the_same_lines(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = _flawed(tmp_path)
    report = validate_file(str(path), "umr", umr_level=1)
    lines = [str(problem) for problem in report.problems]
    ids = [tagged(problem) for problem in report.problems]
    assert all(test is not None for test in ids)
    for tests in (frozenset(), frozenset({"trailing-whitespace"}), frozenset({"extra-empty-line", "x"})):
        expected = waived(lines, tests)
        read: List[str] = []

        def counted(line: str, read: List[str] = read) -> str:
            read.append(line)
            return read_test(line)

        monkeypatch.setattr(gold_module, "test_of", counted)
        assert waived(lines, tests, ids) == expected
        monkeypatch.undo()
        assert read == []
    assert waived(lines, frozenset({"trailing-whitespace"}), ids) != lines  # something is waived


def test_an_untagged_problem_is_read_from_its_line() -> None:
    lines = ["f:3: graph d1.s1: quoting [L1 Format trailing-whitespace] in a message", "f:4: [L2 X y] z"]
    assert waived(lines, frozenset({"trailing-whitespace"}), [None, "y"]) == lines[1:]


def _main_waived(problems: List[str], tests: FrozenSet[str], ids: Optional[List[Optional[str]]] = None
                 ) -> List[str]:
    """main's (f1433d2) ``gold.waived``, verbatim: the oracle."""
    if not tests:
        return list(problems)
    tags: List[Optional[str]] = [None] * len(problems) if ids is None else ids
    return [line for line, test in zip(problems, tags)
            if (read_test(line) if test is None else test) not in tests]


def test_the_lines_kept_give_the_first_lines_every_waiving_leaves() -> None:
    """A file's validation keeps the lines of every untagged problem and of the first few of each test alone;
    whatever tests its gold fails, the first lines left and their count are those of every line kept."""
    rng = random.Random(64)
    names = ["a", "b", "c", "d"]
    for _ in range(3000):
        count = rng.randint(0, 12)
        tags: List[Optional[str]] = [rng.choice([*names, None]) for _ in range(count)]
        lines = [f"f:{k}: " + (f"[L1 Format {tag}] x" if tag else rng.choice(["[L2 X b] y", "no mark", ""]))
                 for k, tag in enumerate(tags)]
        tests = frozenset(rng.sample([*names, "x"], rng.randint(0, 3)))
        expected = _main_waived(lines, tests, tags)
        assert waived(lines, tests, tags) == expected
        assert waived(lines, tests) == _main_waived(lines, tests)
        for first in (1, 2, 3):
            found = Validated(False, tags, {k: lines[k] for k in kept(tags, first)})
            assert left(found, tests, first) == (expected[:first], len(expected)), (tags, tests)


def test_a_file_s_validation_keeps_few_lines(tmp_path: Path) -> None:
    """The kit keeps a few lines of each test of a file's problems (and the test of each), not every line."""
    path = _flawed(tmp_path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\n", "  \n"), encoding="utf-8")  # trailing white space on every line
    task = load("dmr2026-umr")
    found = evaluate._problems(task, str(path), EvaluationMemo())
    assert found.tags.count("trailing-whitespace") > 20
    assert sum(found.tags[k] == "trailing-whitespace" for k in found.lines) == 3
    assert len(found.lines) < 20
    whole = evaluate._problems(task, str(path), EvaluationMemo(), None)
    assert whole.tags == found.tags and len(whole.lines) == len(found.tags)
    assert all(whole.lines[k] == line for k, line in found.lines.items())


def test_a_gold_name_with_a_mark_is_read_from_every_line(tmp_path: Path) -> None:
    """A gold file whose name holds a test's mark has each problem's test read from its line naming the file
    (as main read it: the name's mark first), from every line, though the validation keeps few lines."""
    name = "[L1 Format invented-test] cs-0001.umr"
    path = tmp_path / name
    text = (DEMO / "gold" / "cs-0001.umr").read_text(encoding="utf-8")
    path.write_text(text.replace("\n", "  \n"), encoding="utf-8")
    task = load("dmr2026-umr")
    memo = EvaluationMemo()
    _, check = gold_module.check_gold(task, {name: str(path)}, memo,
                                      partial(evaluate._gold_problems, task, memo=memo))
    report = validate_file(str(path), "umr", umr_level=task.level)
    lines = [str(problem).replace(str(path), name) for problem in report.problems]
    assert len(lines) > 20
    assert check.tests == frozenset({read_test(line) for line in lines}) - {""} == {"invented-test"}
    assert check.counts[name] == len(lines) and check.problems[name][0] == lines[0]
    plain = tmp_path / "cs-0001.umr"
    plain.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    _, check = gold_module.check_gold(task, {"cs-0001.umr": str(plain)}, EvaluationMemo(),
                                      partial(evaluate._gold_problems, task, memo=EvaluationMemo()))
    assert "trailing-whitespace" in check.tests and "invented-test" not in check.tests
