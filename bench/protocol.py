"""Rematch's efficiency protocol (``python bench/run.py --only protocol``; the full 500,000 pairs with
``--full`` or ``MRP_BENCH_PROTOCOL_PAIRS=500000``): Rematch and mrp's exact SMATCH on the same random pairs
of a corpus, in one run.

Rematch's ``experiments/efficiency/generate_matchups.py`` loads a corpus (AMR 3.0 without ``:wiki``),
lists every pair ``(i, j)``, ``i < j``, in the order of ``itertools.combinations``, draws 500,000 of their
numbers with ``numpy.random.choice`` (with replacement, unseeded) and writes the first and the second graph
of each drawn pair to two Penman files; ``efficiency.sh`` then runs the metric on them (``rematch.py --ms
-f A B``) and sums the time.  Here the corpus is every AMR graph of the shared data (../shared: the coli
gold and system files, WSJ's AMR, the small test pairs and AnCast's AMR samples, in that order; 2,852
graphs), each written as its text without comment lines and without its ``:wiki`` relations, and the
numbers are drawn by ``numpy.random.RandomState(0).choice`` (seeded: the same pairs on every run; pair
number k is the k-th of ``combinations``, computed, not listed).  The pairs differ from Rematch's (its
corpus is not shared data); the kind of load is the same: mostly unrelated sentences.

Each command is a fresh process, timed by its CPU (user + sys, with every process it reaped, from
``os.wait4``) and wall time, once (the mrp kernels compiled and cached first by ``mrp-warm-up``, and an
untimed run on a few pairs).  Rows: Rematch's own script (when ``REMATCH_DIR`` names a checkout of
osome-iu/Rematch-RARE, run by ``REMATCH_PYTHON``), ``mrp-score --score smatch --jobs 1`` (one process, as
Rematch runs) and ``mrp-score --score smatch`` (the default ``--jobs auto``).  Printed: CPU per pair, its
ratio to Rematch's, and how many pairs mrp proved optimal (every one, or the row says which were not).

``python bench/protocol.py [--pairs N] [--seed S] [--keep DIR]``
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import testbed  # noqa: E402
from rematchbench import measured, per_pair  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
#: the corpus: every AMR file of the shared data, in this order
CORPUS = ("data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr", "data/wsj/amr/wsj.amr",
          "data/pairs/amr/test1.amr", "data/pairs/amr/test2.amr", "data/umr/ancast-samples/amr_gold.txt",
          "data/umr/ancast-samples/amr_test.txt")
#: Rematch's protocol size, and the default bench's (``MRP_BENCH_PROTOCOL_PAIRS`` overrides it)
FULL = 500_000
REDUCED = 20_000
#: a quoted string (kept as it is), or a ``:wiki`` relation and its value (quoted string, ``-`` or a bare
#: symbol), as AMR 3.0's unwiki removes it
_WIKI = re.compile(r'"(?:[^"\\]|\\.)*"|\s*:wiki\s+(?:"(?:[^"\\]|\\.)*"|[^\s()"]+)')


def unwiki(text: str) -> str:
    """A Penman graph's text without its ``:wiki`` relations (quoted strings left as they are)."""
    return _WIKI.sub(lambda found: found.group(0) if found.group(0).startswith('"') else "", text)


def corpus(shared: Path = SHARED) -> List[str]:
    """The protocol's corpus: each graph's text (comment lines left out, ``:wiki`` removed), in order."""
    return [unwiki(text) for text in testbed.collection([str(shared / name) for name in CORPUS])]


def matchups(n: int, count: int, seed: int = 0) -> np.ndarray:
    """``count`` pairs ``(i, j)``, ``i < j < n``, drawn as generate_matchups.py draws them: pair numbers
    into the list of ``itertools.combinations(range(n), 2)``, uniform, with replacement (seeded here).

    Args:
        n: the corpus's size (at least 2).
        count: pairs.
        seed: the seed of ``numpy.random.RandomState``.

    Returns:
        An int64 array of shape (count, 2).
    """
    if n < 2:
        raise ValueError("matchups need at least two graphs")
    total = n * (n - 1) // 2
    drawn = np.random.RandomState(seed).choice(total, count).astype(np.int64)
    # combinations list i's pairs (i, i+1) .. (i, n-1) after those of 0 .. i-1: row i starts at
    # start[i] = i * (2n - i - 1) / 2
    rows = np.arange(n, dtype=np.int64)
    start = rows * (2 * n - rows - 1) // 2
    first = np.searchsorted(start, drawn, side="right") - 1
    second = first + 1 + (drawn - start[first])
    return np.stack([first, second], axis=1)


def write_matchups(texts: Sequence[str], pairs: np.ndarray, a: Path, b: Path) -> None:
    """The two Penman files of the pairs: each pair's first graph in ``a``, its second in ``b``."""
    with open(a, "w", encoding="utf-8") as one, open(b, "w", encoding="utf-8") as two:
        for i, j in pairs.tolist():
            one.write(texts[i] + "\n\n")
            two.write(texts[j] + "\n\n")


def _mrp(arguments: List[str]) -> List[str]:
    return [sys.executable, "-m", "mrp.cli.score", *arguments]


def pairs_asked(full: bool = False) -> int:
    """The pairs of this run: ``FULL`` with ``full``, else ``MRP_BENCH_PROTOCOL_PAIRS`` or ``REDUCED``."""
    if full:
        return FULL
    return int(os.environ.get("MRP_BENCH_PROTOCOL_PAIRS", str(REDUCED)))


def run(shared: Path = SHARED, pairs: Optional[int] = None, seed: int = 0, keep: Optional[Path] = None,
        full: bool = False) -> List[Dict[str, Any]]:
    """Draw the matchups, time every row, print the table; returns the rows."""
    count = pairs_asked(full) if pairs is None else pairs
    texts = corpus(shared)
    rows: List[Dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="mrp-protocol-") as scratch:
        where = keep or Path(scratch)
        where.mkdir(parents=True, exist_ok=True)
        a, b = where / "matchups_1.txt", where / "matchups_2.txt"
        write_matchups(texts, matchups(len(texts), count, seed), a, b)
        warm_a, warm_b = where / "warm_1.txt", where / "warm_2.txt"
        write_matchups(texts, matchups(len(texts), 50, seed + 1), warm_a, warm_b)
        gold = ["--format", "amr", "--gold", str(a), str(b)]
        runs: List[Tuple[str, List[str], Optional[Path], str]] = []
        rematch = os.environ.get("REMATCH_DIR")
        script = Path(rematch) / "methods" / "rematch" / "rematch.py" if rematch else None
        if script is not None and script.exists():
            python = os.environ.get("REMATCH_PYTHON", sys.executable)
            runs.append(("Rematch rematch.py --ms", [python, str(script), "--ms", "-f", str(a), str(b)],
                         Path(str(rematch)), "rematch"))
        else:
            print("bench: REMATCH_DIR does not name a checkout of osome-iu/Rematch-RARE: Rematch not run",
                  file=sys.stderr)
        runs.append(("mrp-score --score smatch --jobs 1", _mrp(["--score", "smatch", "--jobs", "1", *gold]),
                     None, "mrp"))
        runs.append(("mrp-score --score smatch", _mrp(["--score", "smatch", *gold]), None, "mrp"))
        # the kernels compiled and cached (mrp-warm-up waits for a compiler already running), then a few
        # pairs scored untimed
        measured([sys.executable, "-m", "mrp.cli.warm_up", "--quiet"])
        measured(_mrp(["--score", "smatch", "--format", "amr", "--gold", str(warm_a), str(warm_b)]))
        for name, command, cwd, tool in runs:
            took = measured(command, cwd)
            row: Dict[str, Any] = {"row": name, "wall": took["wall"], "cpu": took["cpu"], "pairs": count}
            if tool == "mrp":
                result = json.loads(took["out"])
                row["pairs"] = result["n"]
                row["exact"] = result.get("exact")
            rows.append(row)
    print(f"\nRematch's efficiency protocol: {count:,} random pairs (generate_matchups.py's draw, seed "
          f"{seed}) of the {len(texts):,} AMR graphs of the shared data (without :wiki); CPU = user + sys "
          f"of each process and its children, one run each; load average {os.getloadavg()[0]:.1f}\n")
    for row, per, ratio in per_pair(rows):
        proved = ""
        if row.get("exact") is not None:
            proved = ", all proved optimal" if row["exact"] == row["pairs"] else \
                f", proved optimal {row['exact']:,} of {row['pairs']:,}"
        print(f"  {row['row']:40} {row['pairs']:8,} pairs  wall {row['wall']:8.2f} s  "
              f"CPU {row['cpu']:8.2f} s  {per:6.3f} ms/pair{ratio}{proved}")
    return rows


def main(argv: Sequence[str] = ()) -> None:
    """The command line above."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, help=f"pairs (default {REDUCED:,}, or $MRP_BENCH_PROTOCOL_PAIRS)")
    p.add_argument("--full", action="store_true", help=f"Rematch's size: {FULL:,} pairs")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--keep", type=Path, help="write the two matchup files here (kept)")
    args = p.parse_args(list(argv) or None)
    run(SHARED, args.pairs, args.seed, args.keep, args.full)


if __name__ == "__main__":
    main(sys.argv[1:])
