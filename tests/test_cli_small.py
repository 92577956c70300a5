"""Small expectations of the command line (issue 45 item 7): ``mrp-score -b`` prints the primary figure
alone, as sacrebleu -b does; ``-V`` prints the version on every command, as penman's does."""

from __future__ import annotations

import json

import pytest

import mrp

from conftest import run_cli, shared_file

COMMANDS = ("score", "convert", "validate", "mtool", "umr_compare", "similarity", "ensemble")


@pytest.mark.parametrize("tool", COMMANDS)
def test_short_version_flag(tool: str) -> None:
    done = run_cli(tool, ["-V"])
    assert done.code == 0, done.err
    assert done.out.strip() == f"mrp-{tool.replace('_', '-')} {mrp.__version__}"


def test_score_only_prints_the_f_alone() -> None:
    folder = shared_file("data", "pairs", "amr")
    gold, system = str(folder / "test1.amr"), str(folder / "test2.amr")
    full = json.loads(run_cli("score", ["--score", "smatch", "--gold", gold, system]).out)
    done = run_cli("score", ["-b", "--score", "smatch", "--gold", gold, system])
    assert done.code == 0, done.err
    assert done.out == f"{full['f']!r}\n"
    both = run_cli("score", ["--score-only", "--score", "smatch,mrp", "--aspects", "--gold", gold, system])
    mrp_f = json.loads(run_cli("score", ["--gold", gold, system]).out)["all"]["f"]
    assert both.out.split() == [repr(full["f"]), repr(mrp_f)]  # aspects has no single figure: left out
    board = run_cli("score", ["-b", "--score", "smatch", "--gold", gold, system, gold])
    assert board.out.split() == [repr(full["f"]), "1.0"]


def test_score_only_with_output_and_refusals(tmp_path) -> None:
    folder = shared_file("data", "pairs", "amr")
    gold, system = str(folder / "test1.amr"), str(folder / "test2.amr")
    out = tmp_path / "r.json"
    done = run_cli("score", ["-b", "--score", "smatch", "--output", str(out), "--gold", gold, system])
    assert done.code == 0 and done.out == f"{json.loads(out.read_text())['f']!r}\n"
    done = run_cli("score", ["-b", "--table", "--gold", gold, system])
    assert done.code == 2 and "choose one" in done.err and done.out == ""
    done = run_cli("score", ["-b", "--score", "aspects", "--gold", gold, system])
    assert done.code == 2 and "no single figure" in done.err and "Traceback" not in done.err
