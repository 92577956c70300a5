"""The tests a gold fails are waived for every submission (mrp.task.gold): each level check's problem comes
with the test id its validator tagged it with, so that no problem's line is read again to find it; the id
is the one its line names (mrp.task.gold.test_of), and waiving by the ids keeps the same lines."""

from __future__ import annotations

from pathlib import Path
from typing import List

import pytest

from mrp.task import gold as gold_module
from mrp.task.gold import tagged, waived
from mrp.task.gold import test_of as read_test
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
