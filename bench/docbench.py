"""The document suite: merged coli documents (bench/documents.py) scored at k = 1 .. 64 sentences each.

For each k and metric (SMATCH with --smatch-compat, the MRP metric with --no-wiki), one warm
``mrp-score --timeout T`` run: CPU seconds, pairs proved optimal, F and the F interval left open (F of
the bounds).  Beside SMATCH, the original SMATCH tool (4 restarts, ``--ms`` for per-pair scores) on the
same files when a Python that imports ``smatch`` is given (``--smatch-python``; the column is skipped
otherwise): its CPU seconds, F, and the pairs where mrp's F is below the tool's (should be 0).
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import documents

ROOT = Path(__file__).resolve().parents[1]
KS = (1, 2, 4, 8, 16, 32, 64)
#: k of the coreference-merged documents (bench/documents.py --coref), after the plain ones.
COREF_KS = (16, 32)
#: Documents per k by default: all up to k = 16 (171 at k = 8, 85 at k = 16), the first 8 beyond.
DEFAULT_LIMIT = {32: 8, 64: 8}
#: Per-pair time cap of mrp-score, seconds.
PAIR_TIMEOUT = 60
#: The original tool is stopped after this many seconds per k.
TOOL_BUDGET = 900.0
METRICS = {
    "smatch": ["--score", "smatch", "--format", "amr", "--smatch-compat"],
    "mrp": ["--format", "amr", "--no-wiki"],
}


def prf(g: int, s: int, c: int) -> float:
    return 2 * c / (g + s) if g + s else 1.0


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def mrp_run(gold: Path, system: Path, metric: str, env: Dict[str, str], timeout: float) -> Dict[str, Any]:
    """One mrp-score run with --trace: CPU s, n, proved, F, bound F, per-pair F."""
    args = [sys.executable, "-m", "mrp.cli.score", "--trace", "--timeout", str(timeout), *METRICS[metric],
            "--gold", str(gold), str(system)]
    before = children_cpu()
    out = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, check=True).stdout
    cpu = children_cpu() - before
    result = json.loads(out)
    per: Dict[str, float] = {}  # by document id "doc<d>.k<k>"
    gap = 0.0  # the widest F interval of a document left open
    items = result.get("scores", {})
    for framework in items.values():
        for gid, item in framework.items():
            counts = item.get("all", item) if isinstance(item, dict) else item
            if isinstance(counts, dict) and {"g", "s", "c"} <= set(counts):
                per[gid] = prf(counts["g"], counts["s"], counts["c"])
                if "bound" in item:
                    gap = max(gap, prf(counts["g"], counts["s"], item["bound"]) - per[gid])
    total = result["all"] if "all" in result else result
    ordered = [per[gid] for gid in sorted(per, key=lambda gid: int(re.sub(r"\D", "", gid.split(".")[0])))]
    return {"cpu": cpu, "n": result["n"], "exact": result["exact"], "f": total["f"],
            "f_bound": result["bound"]["f"], "per": ordered, "gap": gap}


#: Run by the tool's Python: its public functions, 4 restarts (iteration_num 5, as ``-r 4``), per-pair counts.
SMATCH_TOOL = """
import json, sys, smatch
smatch.iteration_num = 5
counts = []
with open(sys.argv[1]) as f1, open(sys.argv[2]) as f2:
    for first, second in smatch.generate_amr_lines(f1, f2):
        counts.append(smatch.get_amr_match(first, second))
        smatch.match_triple_dict.clear()
print(json.dumps(counts))
"""


def tool_run(python: str, gold: Path, system: Path, budget: float) -> Dict[str, Any]:
    """The original SMATCH tool (4 restarts): CPU s, corpus F and per-pair F, or {"failed": why}."""
    before = children_cpu()
    try:
        out = subprocess.run([python, "-c", SMATCH_TOOL, str(gold), str(system)], capture_output=True,
                             text=True, check=True, timeout=budget).stdout
    except subprocess.TimeoutExpired:
        return {"failed": f"stopped after {budget:.0f} s"}
    except subprocess.CalledProcessError as error:
        return {"failed": f"exit status {error.returncode} (a negative one is a signal, -9: out of memory?)"}
    cpu = children_cpu() - before
    counts = json.loads(out)
    match, test, gold_n = (sum(c[k] for c in counts) for k in range(3))
    return {"cpu": cpu, "f": prf(test, gold_n, match), "per": [prf(t, g, c) for c, t, g in counts]}


def has_smatch(python: Optional[str]) -> bool:
    if not python:
        return False
    try:
        return subprocess.run([python, "-c", "import smatch"], capture_output=True).returncode == 0
    except OSError:
        return False


def run(ks: Tuple[int, ...] = KS, limit: Optional[int] = None, smatch_python: Optional[str] = None,
        timeout: float = PAIR_TIMEOUT, metrics: Tuple[str, ...] = ("smatch", "mrp"),
        coref_ks: Tuple[int, ...] = COREF_KS) -> List[Dict[str, Any]]:
    """Rows of the document table (printed as they come); k written ``16c``: coreference-merged."""
    tool = smatch_python if has_smatch(smatch_python) else None
    rows: List[Dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="mrp-docs-") as tmp:
        env = dict(os.environ)
        warm = documents.write(1, Path(tmp) / "warm", 20)
        for metric in metrics:  # compile the kernels outside the timed runs
            mrp_run(warm[0], warm[1], metric, env, timeout)
        print(f"\nDocuments: k coli pairs merged per graph (bench/documents.py), --timeout {timeout:g} "
              "per pair" + ("" if tool else "; the original SMATCH tool is not installed: no tool columns"))
        print(f"  {'k':>3} {'metric':7} {'pairs':>5} {'nodes':>5} {'proved':>6} {'cpu s':>7} {'s/doc':>6} "
              f"{'F':>7} {'F bound':>7} {'gap':>6}"
              + (f" {'tool s':>7} {'tool F':>7} {'below':>5}" if tool else ""))
        for k, coref in [*((k, False) for k in ks), *((k, True) for k in coref_ks)]:
            gold, system = documents.write(k, Path(tmp), limit if limit is not None else DEFAULT_LIMIT.get(k),
                                           coref=coref)
            nodes = max(text.count(" / ") for text in documents.graphs(gold))
            name = f"{k}{'c' if coref else ''}"
            for metric in metrics:
                started = time.perf_counter()
                ours = mrp_run(gold, system, metric, env, timeout)
                row: Dict[str, Any] = {"k": k, "coref": coref, "metric": metric, "pairs": ours["n"],
                                       "nodes": nodes, "proved": ours["exact"], "cpu s": ours["cpu"],
                                       "F": ours["f"], "F bound": ours["f_bound"],
                                       "widest gap": ours["gap"]}
                line = (f"  {name:>3} {metric:7} {ours['n']:5d} {nodes:5d} {ours['exact']:6d} "
                        f"{ours['cpu']:7.1f} {ours['cpu'] / max(1, ours['n']):6.1f} {ours['f']:7.4f} "
                        f"{ours['f_bound']:7.4f} {ours['gap']:6.4f}")
                if tool and metric == "smatch":
                    theirs = tool_run(tool, gold, system, TOOL_BUDGET)
                    if "failed" in theirs:
                        line += f"  (tool: {theirs['failed']})"
                        row["tool"] = theirs["failed"]
                    else:
                        below = sum(1 for a, b in zip(ours["per"], theirs["per"]) if a + 1e-6 < b)
                        row.update({"tool cpu s": theirs["cpu"], "tool F": theirs["f"],
                                    "pairs below tool": below})
                        line += f" {theirs['cpu']:7.1f} {theirs['f']:7.4f} {below:5d}"
                row["took s"] = time.perf_counter() - started
                print(line, flush=True)
                rows.append(row)
    return rows


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--k", type=int, action="append", help="sentences per document (repeatable; default all)")
    p.add_argument("--limit", type=int, help="documents per k at most (default: all up to k = 16, else 8)")
    p.add_argument("--timeout", type=float, default=PAIR_TIMEOUT)
    p.add_argument("--coref-k", type=int, action="append",
                   help="sentences per coreference-merged document (repeatable; default 16 32; 0: none)")
    p.add_argument("--metric", action="append", choices=list(METRICS))
    p.add_argument("--smatch-python", help="a Python that imports the original smatch tool")
    a = p.parse_args()
    run(tuple(a.k or KS), a.limit, a.smatch_python, a.timeout, tuple(a.metric or METRICS),
        tuple(k for k in (a.coref_k or COREF_KS) if k))
