"""mrp-smatch: smatch.py 1.0.4's command line and standard output, with the proved optimum.

The reference outputs in tests/data/smatch were made by smatch 1.0.4 itself (tests/data/smatch/make.sh;
the commands in commands.txt).  smatch's hill climber is seeded at random: where it reached the optimum
(coli: reference/smatch/coli-smatch-ilp.json; the small pairs: every pair) mrp-smatch's output is the
same bytes; elsewhere its figures are at least smatch's.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from mrp.cli.smatch import amrs, compute_f

from conftest import run_cli, shared_file

DATA = Path(__file__).resolve().parent / "data" / "smatch"
FILES = {"coli.system.amr": "data/pairs/amr/coli.system.amr", "coli.gold.amr": "data/pairs/amr/coli.gold.amr",
         "test1.amr": "data/pairs/amr/test1.amr", "test2.amr": "data/pairs/amr/test2.amr",
         "test_input1.txt": "data/pairs/smatch/test_input1.txt",
         "test_input2.txt": "data/pairs/smatch/test_input2.txt"}


def _commands() -> List[Tuple[str, List[str], str, str]]:
    rows = []
    for line in (DATA / "commands.txt").read_text().splitlines():
        tag, options, first, second = line.split("\t")
        rows.append((tag, options.split(), first, second))
    return rows


def _groups(out: str, pr: bool) -> List[Tuple[float, ...]]:
    """smatch's output as (precision, recall, F) or (F,) groups, one per pair (--ms) or one in all."""
    values = [float(line.split(": ")[1]) for line in out.splitlines()]
    size = 3 if pr else 1
    return [tuple(values[k:k + size]) for k in range(0, len(values), size)]


def _mrp_counts(err: str) -> List[int]:
    return [int(line.split()[-1]) for line in err.splitlines() if line.startswith("best match number")]


_RUNS: Dict[Tuple[str, ...], Tuple[str, List[int], str]] = {}


def _mrp_smatch(options: List[str], first: str, second: str) -> Tuple[str, List[int], str]:
    """mrp-smatch's stdout, its per-pair counts (-v) and its stderr (runs once per command)."""
    key = (*options, first, second)
    if key not in _RUNS:
        paths = [str(shared_file(FILES[first])), str(shared_file(FILES[second]))]
        run = run_cli("smatch", ["-v", *options, "-f", *paths])
        assert run.code == 0, run.err
        _RUNS[key] = (run.out, _mrp_counts(run.err), run.err)
    return _RUNS[key]


def _optimum(name: str, mrp: List[int]) -> List[int]:
    """The best match number of each pair: the MIP's for coli (the shared reference), mrp's own (proved,
    and checked equal to smatch's on each of these small pairs) for the others."""
    if name == "coli":
        found = json.loads(shared_file("reference/smatch/coli-smatch-ilp.json").read_text())["pairs"]
        return [int(pair[0]) for pair in found]
    return mrp


@pytest.mark.parametrize("tag,options,first,second", _commands(), ids=[row[0] for row in _commands()])
def test_stdout_is_smatchs_where_smatch_found_the_optimum(tag: str, options: List[str], first: str,
                                                           second: str) -> None:
    out, counts, err = _mrp_smatch(options, first, second)
    theirs = [int(line) for line in (DATA / f"{tag}.counts").read_text().split()]
    expected = (DATA / f"{tag}.out").read_text()
    optimum = _optimum(tag.split("_")[0], counts)
    assert counts == optimum  # mrp's count of every pair is the optimum
    assert "pairs proved optimal" in err.splitlines()[-1]
    if tag.split("_")[0] != "coli":
        assert theirs == counts  # the small pairs: smatch reaches the optimum on each
    pr = "--pr" in options
    if "--ms" in options:
        mine, reference = _groups(out, pr), _groups(expected, pr)
        assert len(mine) == len(reference) == len(theirs)
        lines_per = 3 if pr else 1
        for k, (smatch, best) in enumerate(zip(theirs, optimum)):
            ours = out.splitlines()[k * lines_per:(k + 1) * lines_per]
            if smatch == best:
                assert ours == expected.splitlines()[k * lines_per:(k + 1) * lines_per], k
            else:
                assert smatch < best and all(a >= b for a, b in zip(mine[k], reference[k])), k
    elif theirs == optimum:
        assert out == expected
    else:
        assert sum(theirs) < sum(optimum)
        assert all(a >= b for a, b in zip(_groups(out, pr)[0], _groups(expected, pr)[0]))
        assert out.count("\n") == expected.count("\n")


def test_no_std_err_and_the_exactness_line(tmp_path: Path) -> None:
    first, second = (str(shared_file(FILES[name])) for name in ("test_input1.txt", "test_input2.txt"))
    told = run_cli("smatch", ["-f", first, second])
    assert told.code == 0 and told.out == "F-score: 0.85\n"
    assert told.err == "mrp-smatch: 3 of 3 pairs proved optimal: the numbers are the best node mapping's " \
                       "(smatch's hill climber may stop below it)\n"
    quiet = run_cli("smatch", ["--no-std-err", "-f", first, second])
    assert quiet.code == 0 and quiet.out == told.out and quiet.err == ""


def test_counts_differ_as_smatch_says(tmp_path: Path) -> None:
    gold = tmp_path / "gold.amr"
    gold.write_text("# ::id 1\n(a / alpha)\n\n# ::id 2\n(b / beta\n   :ARG0 (c / gamma))\n")
    short = tmp_path / "short.amr"
    short.write_text("# ::id x\n(a / alpha)\n")
    run = run_cli("smatch", ["--ms", "-f", str(short), str(gold)])
    assert run.out == "F-score: 1.00\n"  # the pairs both files have, as smatch scores them
    assert run.err.startswith("Error: File 1 has less AMRs than file 2\nIgnoring remaining AMRs\n")
    assert run.code == 1


def test_ids_are_not_read_as_smatch_reads_none(tmp_path: Path) -> None:
    gold = tmp_path / "gold.amr"
    gold.write_text("# ::id 1\n(a / alpha)\n\n# ::id 1 ::date x\n(b / beta)\n")  # the same id twice
    system = tmp_path / "system.amr"
    system.write_text("# ::id 7\n(a / alpha)\n\n# ::id 7\n(b / gamma)\n")
    run = run_cli("smatch", ["--ms", "-f", str(system), str(gold)])
    assert run.code == 0, run.err
    assert run.out == "F-score: 1.00\nF-score: 0.50\n"


def test_unreadable_and_unsupported_are_one_line(tmp_path: Path) -> None:
    gold = tmp_path / "gold.amr"
    gold.write_text("(a / alpha)\n\n(b / beta)\n")
    broken = tmp_path / "broken.amr"
    broken.write_text("(a / alpha)\n\n(b / beta / gamma)\n")
    run = run_cli("smatch", ["--pr", "-f", str(broken), str(gold)])
    assert "Traceback" not in run.err and run.code == 1
    assert "broken.amr: 1 AMR(s) could not be read, each scored as an empty graph" in run.err
    assert run.out == "Precision: 1.00\nRecall: 0.50\nF-score: 0.67\n"  # the unreadable graph scores 0
    refused = run_cli("smatch", ["--justinstance", "-f", str(gold), str(gold)])
    assert refused.code == 2 and refused.out == "" and len(refused.err.splitlines()) == 1
    missing = run_cli("smatch", ["-f", str(tmp_path / "none.amr"), str(gold)])
    assert missing.code == 2 and "none.amr" in missing.err and len(missing.err.splitlines()) == 1


def test_amrs_are_framed_as_smatch_frames_them() -> None:
    text = "# ::id a\n\n# ::snt x\n(a / alpha\n\n\n  # note\n(b / beta)\n\n\n# trailing\n"
    assert amrs(text) == ["# ::id a\n# ::snt x\n(a / alpha", "  # note\n(b / beta)"]
    assert compute_f(0, 0, 5) == (0.0, 0.0, 0.0) and compute_f(0, 3, 5) == (0.0, 0.0, 0.0)
    assert compute_f(2, 4, 2)[2] == 2 * 0.5 * 1.0 / 1.5


def _peer() -> str:
    found = os.environ.get("SMATCH") or shutil.which("smatch.py")
    if not found:
        pytest.skip("smatch 1.0.4 is not installed (set SMATCH to its smatch.py; tests/data/smatch/make.sh)")
    return found


CASES = [
    ("(a / alpha)", "(a / alpha)"),
    ("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))",
     "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01))"),
    ('(n / name :op1 "New" :op2 "York")', '(n / name :op1 "New York")'),
    ("(a / and :op1 (x / x) :op2 (x2 / x))", "(a / and :op1 (y / x) :op2 (y2 / x) :op3 (y3 / x))"),
    ("(p / person :ARG0-of (h / have-org-role-91 :ARG2 (p2 / president)))", "(p / person :polarity -)"),
]


@pytest.mark.parametrize("options", [[], ["--pr"], ["--ms", "--pr", "--significant", "4"], ["--ms"]])
def test_against_smatch_itself(tmp_path: Path, options: List[str]) -> None:
    smatch = _peer()
    first, second = tmp_path / "system.amr", tmp_path / "gold.amr"
    first.write_text("\n\n".join(case[1] for case in CASES) + "\n")
    second.write_text("\n\n".join(case[0] for case in CASES) + "\n")
    theirs = subprocess.run([sys.executable if smatch.endswith(".py") and not os.access(smatch, os.X_OK)
                             else smatch, *options, "-f", str(first), str(second)],
                            capture_output=True, text=True, timeout=300)
    ours = run_cli("smatch", [*options, "-f", str(first), str(second)])
    assert ours.out == theirs.stdout
