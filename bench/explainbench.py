"""The --explain report on the 1,368 coli AMR pairs (issue 28): ``python bench/run.py --only explain``.

1. In process: the pairs scored once with their details (``Options.explain``), then the report alone built
   and written (``mrp.explain.build.write_scored``), median of REPEAT runs; its size.
2. End to end: ``mrp-score`` in a fresh process with and without ``--explain`` (warm kernels; median of
   REPEAT each), so the cost of the option on the whole run shows.
Goal: the report of the 1,368 pairs written in at most 10 s, at most 20 MB (one file, every pair in it).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List

REPEAT = 3
GOAL_SECONDS, GOAL_MB = 10.0, 20.0


def _wall(args: List[str], env: dict) -> float:
    started = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - started


def run(shared: Path) -> None:
    """Measure and print the report's figures with their goals."""
    from mrp.corpora.load import read_corpus
    from mrp.engine import driver
    from mrp.engine.options import Options
    from mrp.engine.pairing import pair
    from mrp.explain.build import write_scored
    from mrp.metrics.registry import metric
    from mrp.report.outcome import finish

    gold = shared / "data/pairs/amr/coli.gold.amr"
    system = shared / "data/pairs/amr/coli.system.amr"
    print("\n--explain: the report of the 1,368 coli AMR pairs (goal: <= 10 s, <= 20 MB)\n")
    with tempfile.TemporaryDirectory(prefix="mrp-explain-") as tmp:
        report = Path(tmp) / "report.html"
        for name in ("smatch", "mrp"):
            pairing = pair(read_corpus(str(gold)), read_corpus(str(system)), by_position=True)
            options = Options(penman=name == "smatch", trace=True, explain=True)
            done, _ = driver.run(metric(name), pairing, options)
            result = finish(name, driver.summary(metric(name), done), pairing, options)
            times = []
            for _ in range(REPEAT):
                started = time.perf_counter()
                write_scored(str(report), metric(name), done, result, "coli")
                times.append(time.perf_counter() - started)
            seconds, mb = statistics.median(times), report.stat().st_size / 1e6
            verdict = "ok" if seconds <= GOAL_SECONDS and mb <= GOAL_MB else "OVER THE GOAL"
            print(f"  {name:7} report built and written in process: {seconds:6.2f} s, {mb:6.2f} MB "
                  f"({len(done.results)} pairs; {verdict})")
        env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
        base = [sys.executable, "-m", "mrp.cli.score", "--quiet", "--score", "smatch", "--gold", str(gold),
                str(system)]
        _wall(base, env)  # kernels loaded into the cache
        plain = statistics.median(_wall(base, env) for _ in range(REPEAT))
        explained = statistics.median(_wall(base + ["--explain", str(report)], env) for _ in range(REPEAT))
        print(f"  smatch  mrp-score end to end (fresh process, median of {REPEAT}): {plain:6.2f} s without "
              f"--explain, {explained:6.2f} s with it (+{explained - plain:.2f} s)")
