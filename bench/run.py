"""The benchmark behind `make bench`: scoring speed, compile time and memory on the shared data.

Each scoring run is a fresh `mrp-score` process, timed end to end (wall) with
its peak RSS.  The cold run uses an empty numba cache (compiling every
kernel); warm runs reuse the cache and are repeated, reporting the median.
Figures of the reference scorer are those recorded in ../shared/README.md.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
WARM_RUNS = 5

#: name -> (gold, system, extra arguments, (pairs the reference scored, its seconds, its peak RSS MB or 0))
SUITES: Dict[str, Tuple[str, str, List[str], Optional[Tuple[int, float, float]]]] = {
    "eds wsj.pet (89)": ("data/wsj/eds/wsj.mrp", "data/pairs/eds/wsj.pet.mrp", [], (89, 124.2, 1350.0)),
    "coli amr (1368)": ("data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr",
                        ["--format", "amr", "--no-wiki"], (500, 241.8, 194.0)),
    "smatch coli (1368)": ("data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr",
                           ["--score", "smatch", "--format", "amr", "--smatch-compat"], (1368, 12.0, 0.0)),
}


def measured(args: List[str], env: Dict[str, str]) -> Tuple[float, float, dict]:
    """Wall seconds, peak RSS in MB, and the JSON result of one mrp-score process."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "mrp.cli.score", *args], stdout=subprocess.PIPE,
                                stderr=err, env=env, cwd=ROOT)
        assert proc.stdout is not None
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            err.seek(0)
            raise SystemExit(f"bench: mrp-score failed: {err.read().decode()}")
    return wall, usage.ru_maxrss / 1024, json.loads(out)


def slowest_pair(gold: str, system: str, extra: List[str]) -> Tuple[str, float, int]:
    """The pair that takes longest to score in this process (warm kernels): id, seconds, steps."""
    from mrp.codecs import ReadOptions
    from mrp.load import read_corpus
    from mrp.normalize import normalize
    from mrp.score.mrp import score_normal
    from mrp.score.pairing import pair

    fmt = extra[extra.index("--format") + 1] if "--format" in extra else None
    options = ReadOptions(no_wiki="--no-wiki" in extra)
    pairing = pair(read_corpus(gold, fmt, options), read_corpus(system, fmt, options))
    score_normal(normalize(pairing.pairs[0].gold), normalize(pairing.pairs[0].system))
    worst = ("", 0.0, 0)
    for p in pairing.pairs:
        g, s = normalize(p.gold), normalize(p.system)
        start = time.perf_counter()
        result = score_normal(g, s)
        took = time.perf_counter() - start
        if took > worst[1]:
            worst = (p.gold.id, took, result.steps)
    return worst


def main() -> None:
    if not (SHARED / "README.md").exists():
        raise SystemExit(f"bench: {SHARED} is missing; the benchmark runs on the shared data")
    rows = []
    for name, (gold, system, extra, reference) in SUITES.items():
        with tempfile.TemporaryDirectory() as cache:
            # an empty cache per suite: the first run compiles every kernel
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            args = ["--gold", str(SHARED / gold), str(SHARED / system), *extra]
            cold, cold_rss, result = measured(args, env)
            warm = [measured(args, env) for _ in range(WARM_RUNS)]
            walls = [w for w, _, _ in warm]
            median = statistics.median(walls)
            rss = max(r for _, r, _ in warm)
            worst = slowest_pair(str(SHARED / gold), str(SHARED / system), extra) \
                if "--score" not in extra else ("-", 0.0, 0)
            row = {
                "suite": name, "pairs": result["n"], "exact": result["exact"],
                "F": result["all"]["f"] if "all" in result else result["f"],
                "cold s": cold, "compile s": cold - median, "warm median s": median,
                "warm min-max s": f"{min(walls):.2f}-{max(walls):.2f}", "pairs/s": result["n"] / median,
                "slowest pair": f"{worst[0]} {worst[1] * 1000:.0f} ms ({worst[2]} steps)",
                "peak RSS MB warm": rss, "peak RSS MB cold": cold_rss,
            }
            if reference is not None:
                pairs, cpu, ref_rss = reference
                ours = median * pairs / result["n"]
                row["vs reference"] = f"{cpu / ours:.0f}x faster ({cpu:.0f} s for {pairs} pairs)" + (
                    f", {ref_rss / rss:.1f}x less memory (warm)" if ref_rss else "")
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
    print(f"\nMRP metric, end to end (fresh process each run; warm = median of {WARM_RUNS}; "
          f"compile = cold - warm median)\n")
    keys = list(rows[0])
    for row in rows:
        print(f"== {row['suite']}")
        for key in keys[1:]:
            value = row.get(key)
            if value is None:
                continue
            print(f"  {key:16} {value:.3f}" if isinstance(value, float) else f"  {key:16} {value}")
    readers = ROOT / "bench" / "readers.py"
    if readers.exists():
        sys.path.insert(0, str(readers.parent))
        import readers as reader_bench  # type: ignore[import-not-found]

        print("\nReaders (graphs/s, one pass each, in process)\n")
        for row in reader_bench.run(SHARED):
            print(f"  {row['reader']:6} {row['file']:40} {row['graphs']:6d} graphs "
                  f"{row['seconds']:7.3f} s {row['graphs_per_s']:9.0f} graphs/s")


if __name__ == "__main__":
    main()
