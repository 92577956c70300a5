"""mrp-umr-validate's reports equal validate.py's line for line: ``--print-relations`` (each node as it is
when its sentence is checked, its aligned words, validate.py's reasons for an event), ``--print-clusters``
(validate.py's clusters: named by their earliest node, the empty ones a merge leaves), ``--print-temporal``
(the temporal graph with what follows from it, and the time line; with it validate.py's
``temporal-mismatch``), and ``--quiet`` (which still says which classes it suppresses).  The references
(tests/data/umr_reports) were made with validate.py itself (tests/umr_reports.py says how)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest
from umr_reports import HAND_MADE, HERE, QUIET, REPORTS, SHARED, canonical, digest

from conftest import ROOT, run_cli, shared_file

REFERENCE = json.loads((HERE / "reference.json").read_text(encoding="utf-8"))["files"]
TIMELINE = HERE / "timeline.umr"


def _path(name: str) -> Path:
    return HERE / name if name in HAND_MADE else shared_file("data", "umr", name)


def _mine(options: List[str], path: Path, seed: str = "0") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mrp.cli.umr_validate", *options, str(path)],
                          capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONHASHSEED=seed),
                          timeout=600)


@pytest.mark.parametrize("name", SHARED + HAND_MADE)
def test_reports_as_validate_py(name: str) -> None:
    run = _mine(REPORTS, _path(name))
    assert digest(run.stdout) == REFERENCE[name]["reports"]


@pytest.mark.parametrize("name", ["czech-pdtc/pdt-gold.umr", "czech-pdtc/dtest-conv.umr",
                                  "english/english_umr-0001.umr", "timeline.umr"])
def test_quiet_says_which_classes_it_suppresses_as_validate_py(name: str) -> None:
    for options, expected in zip(QUIET, REFERENCE[name]["quiet"]):
        run = _mine(options, _path(name))
        assert (run.stdout, run.stderr) == ("", expected)


def test_the_hand_made_reports_line_for_line() -> None:
    """Events, incoming relations, clusters merged (the emptied one listed), a temporal graph with
    inferences, a mismatch and a time line in two stretches."""
    run = _mine(REPORTS, TIMELINE)
    assert canonical(run.stdout) == (HERE / "timeline.reports.txt").read_text(encoding="utf-8")
    lines = run.stdout.split("\n")
    assert "Coreference cluster 's3p': " in lines and "Coreference cluster 's1p': " in lines
    assert not lines[lines.index("Coreference cluster 's3p': ") + 1].startswith("  ")  # emptied by a merge
    assert "  This node is an event because it has outgoing relation :ARG0 on line 31 (and it is not a " \
           "known exception)." in lines
    assert "Node s2p, concept=person, line=27, tokens=[1] She" in lines
    assert sum("temporal-mismatch" in line for line in run.stderr.splitlines()) == 6


def test_incoming_relations_in_the_order_of_their_sources_whatever_the_hash_seed() -> None:
    """validate.py lists them in a set's order, which changes from run to run; mrp in file order."""
    first = _mine(REPORTS, TIMELINE, seed="1")
    assert first.stdout == _mine(REPORTS, TIMELINE, seed="2").stdout
    lines = first.stdout.split("\n")
    at = lines.index("Node s2p, concept=person, line=27, tokens=[1] She")
    assert lines[at + 1:at + 3] == ["  Relation in :ARG0, type=node, value=s2l, line=27",
                                    "  Relation in :ARG0, type=node, value=s2a, line=31"]


def test_reports_only_at_level_three() -> None:
    run = run_cli("umr_validate", ["--level", "2", *REPORTS[2:], str(TIMELINE)])
    assert run.out == ""


VALIDATE_PY = os.environ.get("MRP_UMRTOOLS_DIR")


@pytest.mark.skipif(not VALIDATE_PY, reason="development test: set MRP_UMRTOOLS_DIR to a checkout of "
                                             "ufal/umrtools (validate.py), and MRP_UMRTOOLS_PYTHON to a "
                                             "Python with the regex package (default: python3)")
@pytest.mark.parametrize("options", [["--print-relations"], ["--print-clusters"], ["--print-temporal"],
                                     ["--print-relations", "--optional-document-level", "--no-check-wiki"]])
def test_hand_made_reports_against_validate_py_itself(options: List[str]) -> None:
    python = os.environ.get("MRP_UMRTOOLS_PYTHON", "python3")
    command = [python, str(Path(VALIDATE_PY or "") / "validate.py"), "--level", "3", *options, str(TIMELINE)]
    theirs = subprocess.run(command, capture_output=True, text=True)
    mine = _mine(["--level", "3", *options], TIMELINE)
    assert canonical(mine.stdout) == canonical(theirs.stdout)
    assert mine.returncode == theirs.returncode
