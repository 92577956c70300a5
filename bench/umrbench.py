"""The UMR shared task's figure in `make bench`: juːmæʧ on the Czech dtest pair, end to end in fresh
processes (warm: median of 5 runs, wall and CPU), compat and exact, mrp-umr-compare and mrp-score, against
compare_umr.pl measured in the same run when perl and a copy of ufal/umrtools are at hand ($UMRTOOLS: the
folder holding compare_umr.pl; nothing of it is part of mrp)."""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Optional, Tuple

RUNS = 5


def _timed(command: List[str]) -> Tuple[float, float, str]:
    """Wall and CPU seconds of a command (its children's user + system time), and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench: {' '.join(command)} failed: {done.stderr.strip()[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def _median(command: List[str]) -> Tuple[float, float, str]:
    _timed(command)  # warm-up: caches, kernels
    runs = [_timed(command) for _ in range(RUNS)]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), runs[-1][2])


def _umatch(output: str) -> str:
    for line in output.splitlines():
        if line.startswith("juːmæʧ"):
            fields = line.split("\t")
            return f"c {fields[3]} of {fields[4]}/{fields[5]}, F {float(fields[8]):.4f}"
    return ""


def run(shared: Path, umrtools: Optional[str] = None) -> None:
    """Print the table."""
    gold = str(shared / "data/umr/czech-pdtc/dtest-gold.umr")
    system = str(shared / "data/umr/czech-pdtc/dtest-conv.umr")
    here = [sys.executable, "-m"]
    rows = [("mrp-umr-compare --tsv (compat)", here + ["mrp.cli.umr_compare", "--tsv", "GOLD", gold, "SYSTEM",
                                                       system]),
            ("mrp-umr-compare --exact --tsv", here + ["mrp.cli.umr_compare", "--exact", "--tsv", "GOLD", gold,
                                                     "SYSTEM", system]),
            ("mrp-score --score umatch --umatch-compat", here + ["mrp.cli.score", "--score", "umatch",
                                                                  "--umatch-compat", "--gold", gold, system]),
            ("mrp-score --score umatch (exact)", here + ["mrp.cli.score", "--score", "umatch", "--gold", gold,
                                                          system])]
    folder = umrtools or os.environ.get("UMRTOOLS")
    script = Path(folder) / "compare_umr.pl" if folder else None
    perl = shutil.which("perl")
    reference: Optional[Tuple[float, float, str]] = None
    print("\njuːmæʧ, Czech dtest (91 sentence pairs), end to end, warm: median of "
          f"{RUNS} fresh processes\n")
    if perl and script is not None and script.exists():
        reference = _median([perl, str(script), "--tsv", "GOLD", gold, "SYSTEM", system])
        print(f"  {'compare_umr.pl --tsv (perl)':44} {reference[0]:6.3f} s wall {reference[1]:6.3f} s CPU   "
              f"{_umatch(reference[2])}")
    else:
        print("  compare_umr.pl: not measured (set UMRTOOLS to a folder with ufal/umrtools' compare_umr.pl, "
              "and have perl)")
    for name, command in rows:
        wall, cpu, out = _median(command)
        ratio = f"  {cpu / reference[1]:5.2f}x perl's CPU" if reference else ""
        figure = _umatch(out) if "umr_compare" in command[2] else ""
        print(f"  {name:44} {wall:6.3f} s wall {cpu:6.3f} s CPU {ratio}  {figure}")
