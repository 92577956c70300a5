"""mrp-umr-validate, validate.py's drop-in: its layout line for line on the shared files, every relaxation
option with a hand-made case, and (a development test) the same problems as validate.py under every option."""

from __future__ import annotations

import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import List, Set, Tuple

import pytest

from mrp.cli.umr_validate import RELAXATIONS
from mrp.validation.umr import Checks, check_levels

from conftest import ROOT, run_cli, shared_file

GOLD = ROOT / "tests" / "data" / "umatch" / "gold.umr"
HAND_MADE = sorted((ROOT / "tests" / "data" / "umr_validate").glob("*.umr"))
FILES = ["czech-pdtc/dtest-gold", "czech-pdtc/pdt-conv", "english/english_umr-0001",
         "english/english_umr-0004"]
_TAG = re.compile(r"^(\[(?:\(in \S+\) )?Line \d+(?: Sent \S+)?\]: \[L\d \S+ \S+\]).*$")

Found = Set[Tuple[int, int, str, str]]


def _tags(text: str) -> List[str]:
    """Each line with the message cut after validate.py's tag (the wording is mrp's own)."""
    return [_TAG.sub(r"\1", line) for line in text.splitlines()]


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("name", FILES)
def test_layout_line_for_line_as_validate_py(name: str, level: int) -> None:
    """The whole output (problems in order, counts per class, the verdict) and the exit status."""
    base = name.split("/")[1]
    expected = shared_file("reference/umrtools/validate", f"{base}.level{level}.txt").read_text(
        encoding="utf-8")
    status = int(shared_file("reference/umrtools/validate", f"{base}.level{level}.rc").read_text().strip())
    run = run_cli("umr_validate", ["--level", str(level), "--max-err", "0",
                                   str(shared_file("data/umr", f"{name}.umr"))])
    assert run.out == ""
    assert _tags(run.err) == _tags(expected)
    assert run.code == status


def test_max_err_suppresses_per_class() -> None:
    run = run_cli("umr_validate", ["--level", "3", "--max-err", "2",
                                   str(shared_file("data/umr", "english/english_umr-0001.umr"))])
    lines = run.err.splitlines()
    assert "...suppressing further errors regarding Format" in lines
    assert sum(" Format " in line for line in lines if line.startswith("[")) == 2
    assert "Format errors: 452" in lines  # the counts are of every problem, as validate.py's


def test_quiet_prints_no_problem_and_levels_four_and_five_are_three() -> None:
    """--quiet prints no problem, no count and no verdict; as validate.py, it still says which classes it
    suppresses past --max-err (tests/test_umr_validate_reports.py)."""
    path = str(shared_file("data/umr", "czech-pdtc/pdt-conv.umr"))
    assert all(line.startswith("...suppressing further errors regarding ")
               for line in run_cli("umr_validate", ["--quiet", path]).err.splitlines())
    assert run_cli("umr_validate", ["--quiet", "--max-err", "0", path]).err == ""
    three = run_cli("umr_validate", ["--level", "3", "--max-err", "0", path])
    for level in ("4", "5"):
        again = run_cli("umr_validate", ["--level", level, "--max-err", "0", "--lang", "cs", path])
        assert (again.err, again.code) == (three.err, three.code)
    assert run_cli("validate", ["--umr-level", "5", path]).code == run_cli(
        "validate", ["--umr-level", "3", path]).code


def test_several_files_name_each_and_share_sentence_ids(tmp_path: Path) -> None:
    copy = tmp_path / "again.umr"
    copy.write_text(GOLD.read_text(encoding="utf-8"), encoding="utf-8")
    run = run_cli("umr_validate", ["--level", "2", str(GOLD), str(copy)])
    assert "[(in again.umr) Line" in run.err and "non-unique-sent-id" in run.err
    assert run.code == 1


def _with(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def _tests(path: Path, checks: Checks, level: int = 3) -> Set[str]:
    return {problem.test for problem in check_levels(str(path), level, checks=checks)}


def _flag_checks(flag: str) -> Checks:
    field, value, _ = RELAXATIONS[flag]
    return Checks(**{field: value})


#: per option: a damage of tests/data/umatch/gold.umr, the test id it raises by default, and whether the
#: option silences it (True) or brings it (False: --warn-overlapping-alignment)
CASES = {
    "--allow-trailing-whitespace": (("(s1p / person", "(s1p / person  "), "trailing-whitespace"),
    "--allow-inline-comments": (("(s1p / person", "(s1p / person # a note  "), "trailing-whitespace"),
    "--optional-block-headers": (("# sentence level graph:", "# the graph:"),
                                 "missing-heading-sentence-level"),
    "--allow--1": (("s1p: 1-1", "s1p: -1--1"), "invalid-token-range"),
}


@pytest.mark.parametrize("flag", sorted(CASES))
def test_each_relaxation_silences_its_check(tmp_path: Path, flag: str) -> None:
    (old, new), test = CASES[flag]
    path = tmp_path / "damaged.umr"
    path.write_text(_with(GOLD.read_text(encoding="utf-8"), old, new), encoding="utf-8")
    assert test in _tests(path, Checks())
    assert test not in _tests(path, _flag_checks(flag))


@pytest.mark.parametrize("path", HAND_MADE, ids=lambda p: p.name)
def test_relaxations_on_the_hand_made_files(path: Path) -> None:
    """Each hand-made file's test id goes away under the option that relaxes it and under no other
    (the names say the test id: LEVEL.CLASS.TEST-ID[.VARIANT].umr)."""
    test = path.name.split(".")[2]
    silenced = {
        "trailing-whitespace": {"--allow-trailing-whitespace", "--allow-inline-comments"},
        "empty-token": {"--allow-wide-space"},
        "word-gloss-mismatch": {"--no-check-ilg"}, "spurious-index": {"--no-check-ilg"},
        "morpheme-word-mismatch": {"--no-check-ilg"}, "morpheme-gloss-mismatch": {"--no-check-ilg"},
        "missing-morphemes": {"--no-check-ilg"}, "sentence-word-mismatch": {"--no-check-ilg"},
        "missing-heading-sentence-level": {"--optional-block-headers"},
        "missing-heading-alignment": {"--optional-block-headers"},
        "missing-alignment": {"--optional-alignments"},
        "unaligned-token": {"--no-warn-unaligned-token"},
        "cycle": {"--allow-cycles"},
        "coref-entity-event-mismatch": {"--allow-coref-entity-event-mismatch"},
        "coref-wiki-mismatch": {"--no-check-wiki"},
        "missing-temporal": {"--optional-document-level", "--optional-aspect-modstr"},
        "sentence-level-modal-strength": {"--optional-document-level", "--optional-aspect-modstr"},
        "missing-attribute": {"--optional-aspect-modstr"},
        "invalid-attribute": {"--optional-document-level", "--optional-aspect-modstr"},
        "unexpected-attribute": {"--optional-aspect-modstr"},
    }.get(test, set())
    assert test in _tests(path, Checks())
    for flag in RELAXATIONS:
        if flag == "--warn-overlapping-alignment":
            continue
        gone = test not in _tests(path, _flag_checks(flag))
        if flag in silenced:
            assert gone, flag
        elif test not in ("unknown-node-id", "cross-sentence-reference", "repeated-relation",
                          "invalid-token-range", "invalid-wiki", "unexpected-value"):
            assert not gone, flag


def test_overlapping_alignment_is_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "overlap.umr"
    path.write_text(_with(GOLD.read_text(encoding="utf-8"), "s1p: 1-1", "s1p: 2-2"), encoding="utf-8")
    assert "overlapping-alignment" not in _tests(path, Checks(), 2)
    assert "overlapping-alignment" in _tests(path, Checks(overlapping_alignment=True), 2)


VALIDATE_PY = os.environ.get("MRP_UMRTOOLS_DIR")


def _theirs(path: Path, flag: str) -> Found:
    """validate.py's problems at level 3 on one file (a run of its own: validate.py's globals leak from one
    file of a run into the next)."""
    python = os.environ.get("MRP_UMRTOOLS_PYTHON", "python3")  # validate.py needs the regex package
    run = subprocess.run([python, str(Path(VALIDATE_PY or "") / "validate.py"), "--level", "3",
                          "--max-err", "0", *([flag] if flag else []), str(path)],
                         capture_output=True, text=True)
    found = set()
    for line in run.stderr.splitlines():
        m = re.match(r"\[Line (\d+)(?: Sent \S+)?\]: \[L(\d) (\S+) (\S+)\]", line)
        if m and m.group(4) != "internal-error":
            found.add((int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)))
    return found


@pytest.mark.skipif(not VALIDATE_PY, reason="development test: set MRP_UMRTOOLS_DIR to a checkout of "
                                             "ufal/umrtools (validate.py), and MRP_UMRTOOLS_PYTHON to a "
                                             "Python with the regex package (default: python3)")
@pytest.mark.parametrize("flag", [""] + sorted(RELAXATIONS))
def test_every_option_as_validate_py(flag: str) -> None:
    """Every hand-made file and the shared ones, at level 3 (which reports levels 1 and 2 too)."""
    checks = _flag_checks(flag) if flag else Checks()
    paths = HAND_MADE + [shared_file("data/umr", f"{name}.umr") for name in FILES]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        theirs = dict(zip(paths, pool.map(lambda path: _theirs(path, flag), paths)))
    for path in paths:
        mine = {(p.line, p.level, p.kind, p.test) for p in check_levels(str(path), 3, checks=checks)}
        assert mine == theirs[path], path.name
