"""mrp-validate --umr-level: the UMR shared task validator's (validate.py, ufal/umrtools 4377bc4) problems,
the same (line, level, class, test) on every shared file at levels 1-3, and a hand-made case per rule."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import List, Set, Tuple

import pytest
from fuzzing import FIGURES, FUZZ_COUNT, mutated, run_here, trouble, window

from mrp.validation.umr import check_levels

from conftest import ROOT, run_cli, shared_file, shared_path

GOLD = ROOT / "tests" / "data" / "umatch" / "gold.umr"
FILES = ["czech-pdtc/dtest-gold", "czech-pdtc/dtest-conv", "czech-pdtc/pdt-gold", "czech-pdtc/pdt-conv",
         "czech-pdtc/pdtsc-gold", "czech-pdtc/pdtsc-conv", "czech-pdtc/pcedt-gold", "czech-pdtc/pcedt-conv",
         "english/english_umr-0001", "english/english_umr-0003", "english/english_umr-0004"]
_MESSAGE = re.compile(r"\[Line (\d+)(?: Sent \S+)?\]: \[L(\d) (\S+) (\S+)\]")

Found = Set[Tuple[int, int, str, str]]


def _reference(name: str, level: int) -> Found:
    text = shared_file("reference/umrtools/validate", f"{name.split('/')[1]}.level{level}.txt").read_text(
        encoding="utf-8")
    return {(int(m.group(1)), int(m.group(2)), m.group(3), m.group(4))
            for m in map(_MESSAGE.match, text.splitlines()) if m}


def _mine(path: Path, level: int) -> Found:
    return {(p.line, p.level, p.kind, p.test) for p in check_levels(str(path), level)}


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("name", FILES)
def test_levels_equal_validate_py(name: str, level: int) -> None:
    assert _mine(shared_file("data/umr", f"{name}.umr"), level) == _reference(name, level)


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    text = GOLD.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "case.umr"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


#: (what is changed in tests/data/umatch/gold.umr, into what, level, the test id expected)
CASES: List[Tuple[str, str, int, str]] = [
    ("\n# alignment:\ns2s: 2-2\ns2p: 1-1\n\n", "\n", 1, "too-few-blocks"),
    ("# :: snt2\n", "", 2, "missing-sent-id"),
    (":ARG0 (s2p / person :refer-person 3rd)", ":ARG0 (s2p / person :refer-person 3rd) :ARG1 s2x", 2,
     "unknown-node-id"),
    (":ARG0 (s2p / person :refer-person 3rd)", ":ARG0 (s2p / person :refer-person 3rd) :ARG1 s1p", 2,
     "cross-sentence-reference"),
    ("s2p: 1-1", "s2p: -1--1", 2, "invalid-token-range"),
    (":ARG0 (s2p / person :refer-person 3rd)", ":ARG0 (s2p / person :refer-person 3rd :mod s2s)", 2, "cycle"),
    ("    :aspect state)", "    :polarity -)", 3, "missing-attribute"),
    (":ARG0 (s2p / person :refer-person 3rd)", ":ARG0 (s2p / person :refer-person 3rd :flavour sweet)", 3,
     "unknown-relation"),
    ("    :aspect state)", "    :aspect state :modal-strength full-affirmative)", 3,
     "sentence-level-modal-strength"),
    ("s1n2: 0-0\n", "s1n2: 0-0\ns1n2: 3-3\n", 2, "duplicate-alignment"),
]


@pytest.mark.parametrize("old,new,level,test", CASES, ids=[case[3] for case in CASES])
def test_each_rule_on_a_hand_made_file(old: str, new: str, level: int, test: str, tmp_path: Path) -> None:
    assert not {found for found in _mine(GOLD, level) if found[3] == test}
    assert {found for found in _mine(_variant(tmp_path, old, new), level) if found[3] == test}


def test_mrp_validate_reports_levels_and_fails_only_on_errors(tmp_path: Path) -> None:
    clean = run_cli("validate", ["--umr-level", "3", str(GOLD)])
    assert clean.code == 0, clean.out + clean.err
    broken = run_cli("validate", ["--umr-level", "2", str(_variant(tmp_path, "s2p: 1-1", "s2p: -1--1"))])
    assert broken.code == 1 and "[L2 Alignment invalid-token-range]" in broken.out
    off = run_cli("validate", ["--umr-level", "0", str(_variant(tmp_path, "s2p: 1-1", "s2p: -1--1"))])
    assert "invalid-token-range" not in off.out


# --- issue 61, item 7: a broken file is reported, never an internal error ---------------------------------

#: (what is changed, into what, the test id expected): each was an internal error at level 2 and 3
CRASHES: List[Tuple[List[Tuple[str, str]], str]] = [
    ([(":ARG0 (s1p / person", "(s1p / person")], "extra-opening-bracket"),  # KeyError 'relations'
    ([("Words: Peter saw   Mary  .", "Words Peter saw   Mary  ."), ("s1s: 2-2", "s1s: 2-2, 4-4")],
     "invalid-token-index"),  # IndexError: an alignment beyond a sentence of no tokens
    ([("s1s: 2-2", "s1s: 2-" + "9" * 5000)], "invalid-token-index"),  # int() of 5,000 digits
    ([(":op1 \"Peter\"", ":op" + "2" * 5000 + " \"Peter\"")], "skipped-op-relation"),  # the same, level 3
]


@pytest.mark.parametrize("changes, test", CRASHES, ids=[case[1] + str(k) for k, case in enumerate(CRASHES)])
@pytest.mark.parametrize("level", [2, 3])
def test_broken_files_are_reported_not_internal_errors(changes: List[Tuple[str, str]], test: str, level: int,
                                                       tmp_path: Path) -> None:
    text = GOLD.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "case.umr"
    path.write_text(text, encoding="utf-8")
    found = _mine(path, level)
    expected = level == 3 or test != "skipped-op-relation"  # a level-3 rule
    assert any(problem[3] == test for problem in found) == expected, found
    done = run_here("umr_validate", ["--level", str(level), str(path)])
    assert trouble(done, [str(path)]) is None and done.code == int(expected), done.err


def test_a_long_line_of_inner_white_space_is_read_in_linear_time(tmp_path: Path) -> None:
    """``\\s+$`` searched on a line of 200,000 inner spaces tried every position (minutes); the line is
    read at once (no clock: a run of hours would not end within the suite)."""
    text = GOLD.read_text(encoding="utf-8").replace("    :ARG0 (s1p", "    :ARG0" + " " * 200_000 + "(s1p", 1)
    path = tmp_path / "wide.umr"
    path.write_text(text, encoding="utf-8")
    for level in (1, 2, 3, 4, 5):
        assert trouble(run_here("umr_validate", ["--level", str(level), str(path)]), [str(path)]) is None


def test_mutated_shared_files_give_no_internal_error() -> None:
    """Seeded mutations of the shared UMR files (tests/fuzzing.py; a line dropped or doubled, a role or a
    colon dropped, an index renumbered, a bracket nest made deep, ...), each validated at every level: 0
    internal errors (82 of 4,738 such files were, before).  ``make fuzz`` runs many more."""
    import random

    folder = shared_path() / "data" / "umr"
    files = sorted(path for path in folder.rglob("*") if path.suffix in (".umr", ".txt")
                   and "evaluation" not in path.name)
    texts = [path.read_text(encoding="utf-8", errors="replace") for path in files]
    count = FUZZ_COUNT * 5
    failures = []
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "mutated.umr")
        for seed in range(count):
            rng = random.Random(seed)
            text = mutated(window(rng.choice(texts), rng, 80), rng)
            with open(path, "w", encoding="utf-8") as stream:
                stream.write(text)
            for level in (1, 2, 3, 4, 5):
                wrong = trouble(run_here("umr_validate", ["--level", str(level), path]), [path])
                if wrong:
                    failures.append((seed, level, wrong))
    FIGURES["umr_validate (levels 1-5)"] = [count, len(failures)]
    assert not failures, failures[:5]
