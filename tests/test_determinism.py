"""The same input gives the same output in every process: nothing may depend on string hashing, which
Python randomises per process (a set's iteration order, and so a float sum's or a tie's outcome)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any, List

import pytest

from conftest import ROOT, shared_file, timeless


def _run(args: List[str], seed: int) -> Any:
    env = dict(os.environ, PYTHONHASHSEED=str(seed))
    done = subprocess.run([sys.executable, "-m", "mrp.cli.score", "--trace", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, check=True)
    return timeless(json.loads(done.stdout))


@pytest.mark.parametrize("metrics", ["ancast,smatch,mrp", "ancast"])
def test_coli_scores_do_not_depend_on_string_hashing(metrics: str) -> None:
    gold, system = shared_file("data", "pairs", "amr", "coli.gold.amr"), shared_file("data", "pairs", "amr",
                                                                                    "coli.system.amr")
    args = ["--gold", str(gold), str(system), "--format", "amr", "--n", "300", "--score", metrics]
    if metrics == "ancast":
        args.append("--ancast-compat")
    first, second = _run(args, 1), _run(args, 2)
    assert first == second
