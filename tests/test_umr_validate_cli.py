"""mrp-validate --umr-level L passes exactly the UMR files validate.py --level L passes, and prints its
problems beside mrp's own: on every shared UMR file and on every hand-made rule file.  mrp's own
problems of a higher level than L, and the reader's repairs, are warnings (``--strict``: errors)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Set, Tuple

import pytest
from test_umr_validate_levels import FILES as SHARED_FILES
from test_umr_validate_rules import EXPECTED, RULES
from test_umr_validate_rules import FILES as RULE_FILES

from mrp.validation import validate_file
from mrp.validation.problems import Report
from mrp.validation.umr.own import own_level

from conftest import ROOT, run_cli, shared_file

UMATCH = ROOT / "tests" / "data" / "umatch"
_MINE = re.compile(r": \[L(\d) (\S+) (\S+)\] ")
_THEIRS = re.compile(r"\[Line (\d+)(?: Sent \S+)?\]: \[L(\d) (\S+) (\S+)\]")

Found = Set[Tuple[int, int, str, str]]


def _levels(report: Report) -> Found:
    """The validate.py problems among a report's problems and warnings."""
    found: Found = set()
    for problem in report.problems + report.warnings:
        match = _MINE.search(str(problem))
        if match:
            found.add((problem.line or 0, int(match.group(1)), match.group(2), match.group(3)))
    return found


@pytest.mark.parametrize("name", SHARED_FILES)
def test_shared_file_fails_exactly_where_validate_py_fails(name: str) -> None:
    path = shared_file("data/umr", f"{name}.umr")
    stem = name.split("/")[1]
    for level in (1, 2, 3):
        reference = "reference/umrtools/validate"
        text = shared_file(reference, f"{stem}.level{level}.txt").read_text(encoding="utf-8")
        code = int(shared_file(reference, f"{stem}.level{level}.rc").read_text())
        theirs = {(int(m[1]), int(m[2]), m[3], m[4]) for m in map(_THEIRS.match, text.splitlines()) if m}
        report = validate_file(str(path), umr_level=level)
        assert _levels(report) == theirs, level
        assert bool(report.problems) == (code != 0), (level, [str(p) for p in report.problems[:3]])


@pytest.mark.parametrize("name", RULE_FILES)
def test_rule_file_fails_exactly_where_validate_py_fails(name: str) -> None:
    for level in (1, 2, 3):
        expected = EXPECTED[(name, level)]
        report = validate_file(str(RULES / f"{name}.umr"), umr_level=level)
        assert _levels(report) == expected, level
        fails = any(kind != "Warning" for _, _, kind, _ in expected)
        assert bool(report.problems) == fails, (level, [str(p) for p in report.problems[:3]])


def test_own_problems_are_placed_at_a_level() -> None:
    assert own_level("Penman syntax error (column 16): Expected: ROLE") == 2
    assert own_level("alignment of 's2x': the graph has no variable 's2x'") == 2
    assert own_level("document-level relation (s2p :same-thing s1m): ':same-thing' is not a coref relation "
                     "(known: same-entity, same-event, subset-of)") == 3
    assert own_level("document-level relation (s2p :x s1m): ':corefs' is not a document-level relation "
                     "list (temporal, modal, coref)") == 3
    assert own_level("sentence number 1155 does not follow 114 (the previous one)") is None


def _lines(out: str, needle: str) -> List[str]:
    return [line for line in out.splitlines() if needle in line]


def test_a_problem_of_a_higher_level_is_a_warning_and_an_error_from_its_level() -> None:
    path = str(RULES / "2.Sentence.missing-slash.umr")
    low = run_cli("validate", ["--umr-level", "1", path])
    assert low.code == 0, low.out + low.err
    assert _lines(low.out, "warning (level 2): Penman syntax error")
    high = run_cli("validate", ["--umr-level", "2", path])
    assert high.code == 1
    assert _lines(high.out, ": graph d1.s2: Penman syntax error") and "warning" not in high.out
    # --umr-level 0: mrp's own checks alone, every one an error as before
    assert run_cli("validate", ["--umr-level", "0", path]).code == 1


def test_repairs_are_warnings_with_their_line_and_strict_refuses(tmp_path: Path) -> None:
    path = str(UMATCH / "hash.umr")
    run = run_cli("validate", ["--umr-level", "1", path])
    assert run.code == 0, run.out + run.err
    assert _lines(run.out, f"{path}:11: graph d1.s1: repaired: a concept")
    assert _lines(run.out, f"{path}:13: graph d1.s1: repaired: an inline comment")
    assert "2 warnings" in run.err
    strict = run_cli("validate", ["--umr-level", "1", "--strict", path])
    assert strict.code == 1 and _lines(strict.out, f"{path}:13: graph d1.s1: Penman syntax error")
    assert "Traceback" not in strict.err + run.err
