"""Rematch's testbed bench (``python bench/run.py --only rematch``): CPU per pair of Rematch and of mrp on
the same random pairs, in one run.

The testbed is bench/testbed.py's: N random pairs (i < j) of the 2,736 coli graphs (gold then system),
seed 0, two Penman files paired by position.  Each command is a fresh process, its CPU (user + sys, with
every process it reaped) read from ``os.wait4``; each mrp command runs once untimed first, so that the
solver's kernels are compiled and cached; then every row runs REPEATS times (3), the rows in turn, and the
medians are printed.  Rows:

* Rematch's own ``rematch.py --ms`` (when ``REMATCH_DIR`` names a checkout of osome-iu/Rematch-RARE; run
  by ``REMATCH_PYTHON``, a Python with numpy, pandas and networkx, else this one), and its scores compared
  with ``mrp-score --score rematch --rematch-frames`` (its table) pair by pair;
* ``mrp-score --score smatch`` (exact: every pair proved), ``--jobs 1`` and the default;
* ``mrp-score --score rematch`` and ``--score wlk``;
* ``mrp-similarity --metric smatch`` on all pairs of the first K graphs of the collection (about as many
  pairs as the testbed: the collection read once).

Printed: per row the CPU seconds, CPU per pair, pairs proved exact, and the ratio to Rematch's CPU per
pair.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import testbed  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
COLLECTION = ("data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr")
#: timed runs of each row, interleaved (the medians are printed)
REPEATS = int(os.environ.get("MRP_BENCH_REMATCH_REPEATS", "3"))


def measured(command: List[str], cwd: Optional[Path] = None) -> Dict[str, Any]:
    """Wall and CPU seconds (user + sys of the process and what it reaped) and the standard output."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd or ROOT)
    out = process.stdout.read() if process.stdout is not None else b""
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"bench: {' '.join(command)} failed")
    return {"wall": time.perf_counter() - start, "cpu": usage.ru_utime + usage.ru_stime, "out": out}


def per_pair(rows: List[Dict[str, Any]]) -> List[Tuple[Dict[str, Any], float, str]]:
    """Each row with its CPU milliseconds per pair and its ratio to the first row's when that is Rematch's
    (", 0.82x Rematch's CPU per pair", else "")."""
    base = rows[0]["cpu"] / rows[0]["pairs"] if rows and rows[0]["row"].startswith("Rematch") else None
    out = []
    for row in rows:
        per = row["cpu"] / row["pairs"] * 1000
        out.append((row, per, f", {per / (base * 1000):.2f}x Rematch's CPU per pair" if base else ""))
    return out


def _mrp(tool: str, arguments: List[str]) -> List[str]:
    return [sys.executable, "-m", f"mrp.cli.{tool}", *arguments]


def _once(command: List[str], cwd: Optional[Path], tool: str, tmp: str) -> Dict[str, Any]:
    """One timed run of a row's command (mrp-similarity's output file removed first)."""
    if tool == "similarity":
        (Path(tmp) / "m.npz").unlink(missing_ok=True)
    return measured(command, cwd)


def run(shared: Path = SHARED, pairs: int = 20_000, graphs: int = 200,
        repeats: int = REPEATS) -> List[Dict[str, Any]]:
    """Make the testbed, time every row, print the table; returns the rows."""
    rows: List[Dict[str, Any]] = []
    where = os.environ.get("REMATCH_DIR")
    frames = Path(where) / "methods" / "rematch" / "pb2va.json" if where else None
    with tempfile.TemporaryDirectory(prefix="mrp-rematch-") as tmp:
        texts = testbed.collection([str(shared / name) for name in COLLECTION])
        a, b = Path(tmp) / "testbed.a.amr", Path(tmp) / "testbed.b.amr"
        first, second = testbed.testbed(texts, pairs, 0)
        a.write_text(first, encoding="utf-8")
        b.write_text(second, encoding="utf-8")
        collection = Path(tmp) / "collection.amr"
        collection.write_text("".join(text + "\n\n" for text in texts[:graphs]), encoding="utf-8")
        gold = ["--format", "amr", "--gold", str(a), str(b)]
        #: (row, command, working directory, what it is: "rematch", "score" or "similarity")
        runs: List[Tuple[str, List[str], Optional[Path], str]] = []
        if where and frames is not None and frames.exists():
            python = os.environ.get("REMATCH_PYTHON", sys.executable)
            script = Path(where) / "methods" / "rematch" / "rematch.py"
            runs.append(("Rematch rematch.py --ms", [python, str(script), "--ms", "-f", str(a), str(b)],
                         Path(where), "rematch"))
        else:
            print("bench: REMATCH_DIR does not name a checkout of osome-iu/Rematch-RARE: Rematch not run",
                  file=sys.stderr)
        rematch_row = " --rematch-frames" if runs else ""
        commands = [
            ("mrp-score --score smatch --jobs 1", "score", ["--score", "smatch", "--jobs", "1", *gold]),
            ("mrp-score --score smatch", "score", ["--score", "smatch", *gold]),
            ("mrp-score --score rematch" + rematch_row, "score",
             ["--score", "rematch", "--trace", *gold] + (["--rematch-frames", str(frames)] if runs else [])),
            ("mrp-score --score wlk", "score", ["--score", "wlk", *gold]),
            (f"mrp-similarity --metric smatch, all pairs of {graphs} coli graphs", "similarity",
             ["--metric", "smatch", "--format", "amr", str(collection), "--output", str(Path(tmp) / "m.npz"),
              "--quiet"]),
        ]
        runs += [(name, _mrp(tool, arguments), None, tool) for name, tool, arguments in commands]
        for _, command, cwd, tool in runs:  # the kernels compiled and cached, the files in the page cache
            if tool != "rematch":
                _once(command, cwd, tool, tmp)
        timed: Dict[str, List[Dict[str, Any]]] = {name: [] for name, _, _, _ in runs}
        for _ in range(repeats):  # interleaved: a change of load touches every row alike
            for name, command, cwd, tool in runs:
                timed[name].append(_once(command, cwd, tool, tmp))
        reference: Optional[np.ndarray] = np.load(str(a) + "_rematch_scores.npy") if runs and \
            runs[0][3] == "rematch" else None
        for name, _, _, tool in runs:
            took = timed[name]
            row: Dict[str, Any] = {"row": name, "wall": statistics.median(t["wall"] for t in took),
                                   "cpu": statistics.median(t["cpu"] for t in took), "runs": len(took)}
            if tool == "rematch":
                rows.append({**row, "pairs": pairs})
                continue
            result = json.loads(took[-1]["out"])
            count = result["pairs"] if tool == "similarity" else result["n"]
            row["pairs"] = count
            if tool == "similarity":
                row["exact"] = count - result["inexact"] - result["failed"]
            elif "exact" in result:
                row["exact"] = result["exact"]
            if reference is not None and name.startswith("mrp-score --score rematch"):
                ours = [item["rematch"] for scores in result["scores"].values() for item in scores.values()]
                row["equal to Rematch"] = f"{sum(float(x) == y for x, y in zip(reference, ours))}/{pairs}"
            rows.append(row)
    print(f"\nRematch's testbed: {pairs:,} random pairs of the 2,736 coli graphs (seed 0); CPU = user + sys "
          f"of each process and its children, median of {repeats} runs of each row taken in turn; load "
          f"average {os.getloadavg()[0]:.1f}\n")
    for row, per, ratio in per_pair(rows):
        extra = "".join(f", {key} {row[key]}" for key in ("exact", "equal to Rematch") if key in row)
        print(f"  {row['row']:62} {row['pairs']:7,} pairs  wall {row['wall']:7.2f} s  "
              f"CPU {row['cpu']:7.2f} s  {per:6.3f} ms/pair{ratio}{extra}")
    return rows


def main() -> None:
    """``python bench/rematchbench.py [--pairs N] [--graphs K]``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=20_000)
    p.add_argument("--graphs", type=int, default=200)
    p.add_argument("--repeats", type=int, default=REPEATS, help="timed runs of each row, taken in turn")
    args = p.parse_args()
    run(SHARED, args.pairs, args.graphs, args.repeats)


if __name__ == "__main__":
    main()
