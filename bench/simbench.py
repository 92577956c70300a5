"""The all-pairs bench (``python bench/run.py --only similarity``; ``MRP_BENCH_SIMILARITY=0`` leaves it
out of a full run): every pair of the first 1,000 coli system graphs (499,500 pairs, SMATCH, exact) with
``mrp-similarity --jobs auto`` and on a 2-worker Dask LocalCluster (wall, CPU, pairs/s, peak memory of the
process tree); the original SMATCH tool timed on a sample of the same pairs (its per-pair CPU times the
pairs: an estimate); and MBSE over 4 systems (copies of the coli system output, each with a share of its
concepts and roles changed at random, seeded) on the first 500 sentences with ``mrp-ensemble``, against
the same selection made from the hill climber's scores, both scored on gold.

The original tool runs from a Python that imports ``smatch`` (``--smatch-python`` or $SMATCH_PYTHON;
e.g. a venv with ``pip install smatch==1.0.4``); without one its columns are skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docbench import SMATCH_TOOL  # noqa: E402  (the original tool's per-pair counts, by position)
from run import TreeSampler  # noqa: E402

import mrp  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SYSTEM = "data/pairs/amr/coli.system.amr"
GOLD = "data/pairs/amr/coli.gold.amr"
#: the share of concepts and roles changed in each MBSE system (seeded: the same files every run)
RATES = (0.05, 0.08, 0.10, 0.12)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def blocks_of(path: Path) -> List[str]:
    """The Penman blocks of a file, in order."""
    return [block.strip() for block in path.read_text(encoding="utf-8").split("\n\n") if block.strip()]


def timed(command: List[str]) -> Dict[str, Any]:
    """Wall and CPU seconds (the process and every descendant it reaped), the peak RSS and PSS sums of the
    process tree, and the JSON report on stdout of one command."""
    before, start = children_cpu(), time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    sampler = TreeSampler(process.pid, 0.5)
    out, _ = process.communicate()
    sampler.stop()
    wall = time.perf_counter() - start
    if process.returncode not in (0, 1):
        raise SystemExit(f"simbench: {' '.join(command)} failed with status {process.returncode}")
    return {"wall": wall, "cpu": children_cpu() - before, "rss": sampler.rss, "pss": sampler.pss,
            "report": json.loads(out)}


def tool_counts(python: str, first: Path, second: Path) -> Tuple[List[List[int]], float]:
    before = children_cpu()
    out = subprocess.run([python, "-c", SMATCH_TOOL, str(first), str(second)], capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out), children_cpu() - before


def perturbed(graphs: List[mrp.Graph], rate: float, seed: int) -> List[mrp.Graph]:
    """Copies with a share ``rate`` of concepts replaced by other concepts of the corpus and of roles by
    other roles (deterministic: seeded)."""
    rng = random.Random(seed)
    concepts = sorted({node.label for graph in graphs for node in graph.nodes if node.label})
    roles = sorted({edge.label for graph in graphs for edge in graph.edges if edge.label})
    out = mrp.read(mrp.write(graphs, format="amr") or "", format="amr")
    for graph in out:
        for node in graph.nodes:
            if node.label and rng.random() < rate:
                node.label = rng.choice(concepts)
        for edge in graph.edges:
            if rng.random() < rate:
                edge.label = rng.choice(roles)
    return out


def similarity_runs(tmp: Path, graphs: int, cluster: bool) -> Dict[str, Any]:
    source = tmp / "first.amr"
    source.write_text("\n\n".join(blocks_of(SHARED / SYSTEM)[:graphs]) + "\n", encoding="utf-8")
    pairs = graphs * (graphs - 1) // 2
    print(f"\nAll pairs of the first {graphs:,} coli system graphs ({pairs:,} pairs + {graphs:,} diagonal, "
          "SMATCH, exact)\n")
    runs = {}
    for name, extra in (("--jobs auto", ["--jobs", "auto"]),
                        ("LocalCluster, 2 workers", ["--scheduler", "local", "--jobs", "2"])):
        if "Cluster" in name and not cluster:
            continue
        out = tmp / f"m{len(runs)}.npz"
        row = timed([sys.executable, "-m", "mrp.cli.similarity", "--metric", "smatch", "--format", "amr",
                     str(source), "--output", str(out), "--quiet", *extra])
        report = row["report"]
        runs[name] = row
        print(f"  {name:26} wall {row['wall']:7.1f} s  CPU {row['cpu']:7.1f} s  "
              f"{report['pairs'] / row['wall']:7.0f} pairs/s  peak RSS {row['rss']:6.0f} MB (PSS "
              f"{row['pss']:5.0f} MB)  exact {report['exact']} ({report['inexact']} inexact), failed "
              f"{report['failed']}")
    files = sorted(tmp.glob("m*.npz"))
    if len(files) == 2:
        with np.load(files[0], allow_pickle=False) as a, np.load(files[1], allow_pickle=False) as b:
            same = all(np.array_equal(a[key], b[key]) for key in ("f", "c", "g", "s", "exact"))
        print(f"  the two runs' arrays are identical: {same}")
    return {"source": source, "matrix": files[0] if files else None, "pairs": pairs}


def tool_sample(tmp: Path, python: str, source: Path, matrix: Optional[Path], pairs: int, sample: int
                ) -> None:
    blocks = blocks_of(source)
    rng = random.Random(0)
    chosen = sorted({tuple(sorted(rng.sample(range(len(blocks)), 2))) for _ in range(sample)})
    first, second = tmp / "tool1.amr", tmp / "tool2.amr"
    first.write_text("\n\n".join(blocks[i] for i, _ in chosen) + "\n", encoding="utf-8")
    second.write_text("\n\n".join(blocks[j] for _, j in chosen) + "\n", encoding="utf-8")
    counts, cpu = tool_counts(python, first, second)
    per = cpu / len(chosen)
    below = ""
    if matrix is not None:
        with np.load(matrix, allow_pickle=False) as data:
            c = data["c"]
            missed = sum(1 for (i, j), (match, _, _) in zip(chosen, counts) if match < c[i, j])
        below = f"; below the exact optimum on {missed} of them"
    print(f"  original SMATCH 1.0.4 (4 restarts), {len(chosen)} sampled pairs: {cpu:.1f} s CPU, "
          f"{per * 1000:.1f} ms a pair{below}")
    print(f"  estimate for all {pairs:,} pairs: {per * pairs:,.0f} s CPU ({per * pairs / 3600:.1f} h on one "
          "core; an estimate from the sample, not a run)")


def mbse(tmp: Path, python: Optional[str], sentences: int) -> None:
    base = mrp.read(SHARED / SYSTEM, format="amr")[:sentences]
    gold = tmp / "gold.amr"
    gold.write_text("\n\n".join(blocks_of(SHARED / GOLD)[:sentences]) + "\n", encoding="utf-8")
    paths = []
    for k, rate in enumerate(RATES):
        path = tmp / f"system{k + 1}.amr"
        path.write_text(mrp.write(perturbed(base, rate, k + 1), format="amr") or "", encoding="utf-8")
        paths.append(path)
    rates = ", ".join(f"{rate:.0%}" for rate in RATES)
    print(f"\nMBSE over {len(RATES)} systems: {len(base):,} coli sentences, each system the coli system "
          f"output with {rates} of its concepts and roles changed at random\n")
    selected, report = tmp / "selected.amr", tmp / "report.json"
    row = timed([sys.executable, "-m", "mrp.cli.ensemble", "--format", "amr", "--jobs", "auto", "--quiet",
                 "--output", str(selected), "--report", str(report), "--gold", str(gold),
                 *map(str, paths)])
    data = json.loads(report.read_text(encoding="utf-8"))
    scores = data["gold"]
    print(f"  mrp-ensemble (exact SMATCH, --jobs auto): {data['pairs']:,} pairs, wall {row['wall']:.1f} s, "
          f"CPU {row['cpu']:.1f} s; chosen per system {data['chosen']}")
    print("  gold SMATCH F: systems " + ", ".join(f"{f:.4f}" for f in scores["systems"])
          + f"; exact MBSE selection {scores['selection']:.4f}")
    if python is None:
        print("  (the hill climber's selection is skipped: no Python that imports smatch; --smatch-python)")
        return
    blocks = [blocks_of(path) for path in paths]
    pairs = [(a, b) for a in range(len(RATES)) for b in range(a + 1, len(RATES))]
    first, second = tmp / "hc1.amr", tmp / "hc2.amr"
    first.write_text("\n\n".join(blocks[a][x] for x in range(sentences) for a, _ in pairs) + "\n",
                     encoding="utf-8")
    second.write_text("\n\n".join(blocks[b][x] for x in range(sentences) for _, b in pairs) + "\n",
                      encoding="utf-8")
    counts, cpu = tool_counts(python, first, second)
    chosen = []
    for x in range(sentences):
        f = np.zeros((len(RATES), len(RATES)))
        for y, (a, b) in enumerate(pairs):
            match, test, gold_n = counts[x * len(pairs) + y]
            p = match / test if test else 0.0
            r = match / gold_n if gold_n else 0.0
            f[a, b] = f[b, a] = 2 * p * r / (p + r) if p + r else 0.0
        means = [sum(f[a, b] for b in range(len(RATES)) if b != a) / (len(RATES) - 1)
                 for a in range(len(RATES))]
        chosen.append(means.index(max(means)))
    graphs = [mrp.read(paths[k], format="amr") for k in range(len(RATES))]
    selection = [graphs[k][x] for x, k in enumerate(chosen)]
    hill = mrp.score(gold, selection, metric="smatch", format="amr").f
    exact = [item["chosen"] for item in data["sentences"]]
    differ = sum(1 for a, b in zip(chosen, exact) if a != b)
    print(f"  hill climber (original SMATCH, 4 restarts): {len(counts):,} pairs, CPU {cpu:.1f} s; its MBSE "
          f"selection scores {hill:.4f} on gold; it chooses differently on {differ} of {sentences} sentences")


def run(shared: Path = SHARED, graphs: int = 1000, cluster: bool = True, smatch_python: Optional[str] = None,
        sample: int = 500, sentences: int = 500) -> None:
    """The whole bench, printed."""
    if os.environ.get("MRP_BENCH_SIMILARITY") == "0":
        print("\nsimilarity bench left out (MRP_BENCH_SIMILARITY=0)")
        return
    python = smatch_python or os.environ.get("SMATCH_PYTHON")
    if python and subprocess.run([python, "-c", "import smatch"], capture_output=True).returncode != 0:
        python = None
    with tempfile.TemporaryDirectory(prefix="mrp-simbench-") as name:
        tmp = Path(name)
        found = similarity_runs(tmp, graphs, cluster)
        if python is not None:
            tool_sample(tmp, python, found["source"], found["matrix"], found["pairs"], sample)
        else:
            print("  original SMATCH: skipped (no Python that imports smatch; --smatch-python)")
        mbse(tmp, python, sentences)


def main() -> None:
    p = argparse.ArgumentParser(description="the all-pairs similarity and MBSE bench")
    p.add_argument("--graphs", type=int, default=1000, help="the first N coli system graphs (default 1000)")
    p.add_argument("--no-cluster", action="store_true", help="leave the Dask LocalCluster run out")
    p.add_argument("--smatch-python", default=os.environ.get("SMATCH_PYTHON"),
                   help="a Python that imports the original smatch tool")
    p.add_argument("--sample", type=int, default=500, help="pairs the original tool scores (default 500)")
    p.add_argument("--sentences", type=int, default=500, help="MBSE over the first N sentences (default 500)")
    a = p.parse_args()
    run(SHARED, a.graphs, not a.no_cluster, a.smatch_python, a.sample, a.sentences)


if __name__ == "__main__":
    main()
