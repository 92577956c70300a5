"""mrp-validate --umr-level, rule by rule without the shared data: one hand-made file per validate.py
test id (tests/data/umr_validate/LEVEL.CLASS.TEST[.VARIANT].umr, each tests/data/umatch/gold.umr with one
damage), and what validate.py (ufal/umrtools 4377bc4) reported on each at --level 1, 2 and 3
(tests/data/umr_validate/expected.tsv).  mrp must report the same (line, level, class, test id) set."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest

from mrp.validation.umr import check_levels

from conftest import ROOT, run_cli

RULES = ROOT / "tests" / "data" / "umr_validate"
BASE = ROOT / "tests" / "data" / "umatch" / "gold.umr"
DOC = ROOT / "docs" / "umr-validation.md"

Found = Set[Tuple[int, int, str, str]]


def _expected() -> Dict[Tuple[str, int], Found]:
    """expected.tsv: (file stem, --level) -> validate.py's (line, level, class, test id) set."""
    table: Dict[Tuple[str, int], Found] = {}
    for row in (RULES / "expected.tsv").read_text(encoding="utf-8").splitlines():
        if not row or row.startswith("#"):
            continue
        name, checked, line, level, kind, test = row.split("\t")
        found = table.setdefault((name, int(checked)), set())
        if line != "-":
            found.add((int(line), int(level), kind, test))
    return table


EXPECTED = _expected()
FILES = sorted(path.stem for path in RULES.glob("*.umr"))


def _mine(path: Path, level: int) -> Found:
    return {(p.line, p.level, p.kind, p.test) for p in check_levels(str(path), level)}


def _target(name: str) -> Tuple[int, str, str]:
    """The rule a file is made for, from its name: (level, class, test id)."""
    level, kind, test = name.split(".")[:3]
    return int(level), kind, test


def test_every_file_has_validate_py_output_at_every_level() -> None:
    assert len(FILES) >= 70
    assert {(name, level) for name in FILES for level in (1, 2, 3)} == set(EXPECTED)


@pytest.mark.parametrize("name", FILES)
def test_rule_file_equals_validate_py(name: str) -> None:
    level, kind, test = _target(name)
    for checked in (1, 2, 3):
        expected = EXPECTED[(name, checked)]
        assert _mine(RULES / f"{name}.umr", checked) == expected, f"--umr-level {checked}"
        # the file is made for its rule: validate.py finds it from that level on, never below
        made_for = {found for found in expected if found[1:] == (level, kind, test)}
        assert bool(made_for) == (checked >= level), (checked, sorted(expected))


def test_the_base_file_is_clean_at_every_level() -> None:
    for level in (1, 2, 3):
        assert _mine(BASE, level) == set()


def test_the_messages_name_file_line_sentence_and_test_id() -> None:
    path = RULES / "2.Alignment.invalid-token-range.minus-one.umr"
    result = run_cli("validate", ["--umr-level", "2", str(path)])
    assert result.code == 1
    lines = [line for line in result.out.splitlines() if "] expected token ranges" in line]
    assert len(lines) == 1 and lines[0].startswith(f"{path}:41: snt2: [L2 Alignment invalid-token-range] ")
    assert "Traceback" not in result.err


def _documented() -> Set[Tuple[int, str, str]]:
    """The (level, class, test id) rows of the mapping table in docs/umr-validation.md."""
    rows = re.findall(r"^\| (\d) \| (\w+) \| `([a-z-]+)` \|", DOC.read_text(encoding="utf-8"), re.M)
    return {(int(level), kind, test) for level, kind, test in rows}


def test_the_mapping_table_lists_every_rule_file() -> None:
    documented = _documented()
    made: List[Tuple[int, str, str]] = [_target(name) for name in FILES]
    assert set(made) <= documented
    # a documented rule with no hand-made file is one validate.py cannot reach with its default options
    unreachable = {test for _, _, test in documented - set(made)}
    assert unreachable == {"invalid-alignment"}, unreachable
