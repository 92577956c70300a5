"""The limits of every registered metric (issue 61; ``make bench``, "limits"): each metric on a 4,000-node
chain, a 20,000-node random pair and a 100,000-node system graph (against a 60-node gold graph) at
``--timeout 1``: the pair's CPU seconds and its peak memory, and whether it was cut.

One process per input (the three at once) reads it once and loads every metric (its kernels too), then
forks a child per metric that scores the pair and exits; ``os.wait4`` gives the child's CPU (every thread,
user and system) and peak resident memory.  Reading the input and loading kernels are thus left out, and
only the pair is counted.  ``tests/test_limits_registry.py`` asserts on the same measurements.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

ROOT = Path(__file__).resolve().parents[1]
#: the pair's seconds
TIMEOUT = 1.0
#: input name -> (gold nodes, system nodes, shape)
INPUTS = {"chain-4000": (4_000, 4_000, "chain"), "random-20000": (20_000, 20_000, "random"),
          "system-100000": (60, 100_000, "random")}

CONCEPTS = [f"concept-{k:02d}" for k in range(20)]
ROLES = ["ARG0", "ARG1", "ARG2", "mod", "op1"]


def _graph(n: int, shape: str, rng: random.Random, framework: str) -> Dict[str, Any]:
    """A graph of ``n`` nodes: a chain, or a random tree with n / 2 extra edges (reentrancies, no cycle)."""
    labels = [CONCEPTS[k % len(CONCEPTS)] if shape == "chain" else rng.choice(CONCEPTS) for k in range(n)]
    if shape == "chain":
        pairs = [(k, k + 1) for k in range(n - 1)]
    else:
        pairs = [(rng.randrange(k), k) for k in range(1, n)]
        pairs += [tuple(sorted(rng.sample(range(n), 2))) for _ in range(n // 2)] if n > 1 else []
    flavor = {"dm": 0, "psd": 0, "eds": 1, "ucca": 1}.get(framework, 2)
    return {"id": "1", "flavor": flavor, "framework": framework, "version": 1.1, "input": "",
            "tops": [0], "nodes": [{"id": k, "label": label} for k, label in enumerate(labels)],
            "edges": [{"source": a, "target": b, "label": rng.choice(ROLES)} for a, b in pairs]}


def _perturbed(graph: Dict[str, Any], rng: random.Random) -> Dict[str, Any]:
    """A copy with a tenth of its labels changed and a tenth of its edges dropped."""
    out = dict(graph)
    out["nodes"] = [dict(node, label=rng.choice(CONCEPTS)) if rng.random() < 0.1 else node
                    for node in graph["nodes"]]
    out["edges"] = [edge for edge in graph["edges"] if rng.random() >= 0.1]
    return out


def write_input(directory: Path, case: str, frameworks: List[str]) -> None:
    """The gold and system file of an input, per framework (``FRAMEWORK.gold.mrp``, ``.system.mrp``)."""
    n, m, shape = INPUTS[case]
    directory.mkdir(parents=True, exist_ok=True)
    for framework in sorted(set(frameworks)):
        rng = random.Random(f"{case}:{framework}")
        gold = _graph(n, shape, rng, framework)
        system = _perturbed(gold, rng) if n == m else _graph(m, shape, rng, framework)
        for side, graph in (("gold", gold), ("system", system)):
            (directory / f"{framework}.{side}.mrp").write_text(json.dumps(graph) + "\n")


#: the process that scores one input with every metric (argv: input directory, metric:framework ...)
DRIVER = r'''
import json, os, resource, sys
TIMEOUT = float(os.environ.get('MRP_LIMITS_TIMEOUT', '1'))
import mrp
from mrp.engine import driver
from mrp.engine.options import Options
from mrp.metrics.registry import metric

where, wanted = sys.argv[1], sys.argv[2:]
graphs = {}
for entry in wanted:
    name, framework = entry.split(":")
    if framework not in graphs:
        graphs[framework] = (mrp.read(os.path.join(where, framework + ".gold.mrp")),
                             mrp.read(os.path.join(where, framework + ".system.mrp")))
    metric(name).prepare(Options())  # kernels loaded before the fork, not on the pair's CPU
out = {}
for entry in wanted:
    name, framework = entry.split(":")
    gold, system = graphs[framework]
    with open("/proc/self/statm") as statm:
        before = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        failures = []
        scoring = metric(name)
        plain = scoring.fallback
        def watched(pair, options, failure):
            failures.append(failure)
            return plain(pair, options, failure)
        scoring.fallback = watched
        pair_cpu = []
        alone = driver._isolated
        def timed(*args):
            began = resource.getrusage(resource.RUSAGE_SELF)
            try:
                return alone(*args)
            finally:
                ended = resource.getrusage(resource.RUSAGE_SELF)
                pair_cpu.append(ended.ru_utime + ended.ru_stime - began.ru_utime - began.ru_stime)
        driver._isolated = timed
        try:
            result = mrp.score(gold, system, name, timeout=TIMEOUT, trace=True)
            found = {"result": result.to_dict(), "item": result.pairs[0].item, "failures": failures,
                     "pair": sum(pair_cpu)}
        except BaseException as error:
            found = {"raised": f"{type(error).__name__}: {error}"}
        with os.fdopen(write, "w") as pipe:
            json.dump(found, pipe, default=str)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    _, status, usage = os.wait4(child, 0)
    found = json.loads(text) if text else {"raised": f"the child ended with status {status}"}
    found["cpu"] = usage.ru_utime + usage.ru_stime
    found["peak"] = usage.ru_maxrss * 1024
    found["before"] = before
    out[entry] = found
print(json.dumps(out))
'''


def measure(frameworks: Mapping[str, str], cases: Optional[List[str]] = None,
            where: Optional[Path] = None) -> Dict[Tuple[str, str], Dict[str, Any]]:
    """Every metric on every input (or ``cases``), each scored in a forked child at :data:`TIMEOUT`.

    Args:
        frameworks: metric name -> the framework of its input.
        cases: the inputs (default: all of :data:`INPUTS`).
        where: a directory for the inputs (default: a temporary one).

    Returns:
        {(metric, input): {"result", "item", "failures" (fallbacks called: internal errors), "pair" (CPU s
        of the pair in the driver), "cpu" (CPU s of the child: mrp.score whole), "peak" (the child's peak
        resident bytes), "before" (its parent's resident bytes at the fork)}, or "raised"}.
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               MRP_LIMITS_TIMEOUT=str(TIMEOUT))
    out: Dict[Tuple[str, str], Dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="mrp-limits-") as scratch:
        running = []
        for case in cases or list(INPUTS):  # the inputs at once: each child's CPU is its own
            directory = (where or Path(scratch)) / case
            write_input(directory, case, list(frameworks.values()))
            running.append((case, subprocess.Popen(
                [sys.executable, "-c", DRIVER, str(directory),
                 *(f"{name}:{framework}" for name, framework in frameworks.items())],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)))
        for case, process in running:
            stdout, stderr = process.communicate(timeout=1800)
            if process.returncode != 0:
                raise RuntimeError(f"limits: the driver failed on {case}: {stderr[-3000:]}")
            for entry, found in json.loads(stdout).items():
                out[(entry.split(":")[0], case)] = found
    return out


def run() -> None:
    """``make bench``'s table: per input and metric, the pair's CPU seconds, peak memory and cut."""
    sys.path.insert(0, str(ROOT))
    from mrp.metrics.registry import METRICS, metric

    started = time.perf_counter()
    frameworks = {}
    for name in METRICS:
        taken = metric(name).frameworks
        frameworks[name] = "amr" if taken is None or "amr" in taken else taken[0]
    found = measure(frameworks)
    print(f"\nLimits: every metric at --timeout {TIMEOUT:g} (CPU s of mrp.score of the one pair, and of "
          "the pair in the driver; the scoring process's peak resident MB, of which the input read "
          "before; cut)\n")
    for case in INPUTS:
        print(f"  {case}")
        for name in METRICS:
            row = found[(name, case)]
            result = row.get("result", {})
            cut = result.get("cut")
            shown = {key: value for key, value in cut.items() if value} if isinstance(cut, dict) else cut
            within = "within" if row.get("cpu", 99) <= TIMEOUT + 0.5 else "BEYOND"
            print(f"    {name:16} {row.get('cpu', float('nan')):5.2f} s ({within} T + 0.5 s; the pair in the "
                  f"driver {row.get('pair', float('nan')):4.2f} s) {row.get('peak', 0) / 1e6:6.0f} MB "
                  f"({row.get('before', 0) / 1e6:.0f})  cut {shown or '-'}"
                  + (f"  FAILED {row.get('failures') or row.get('raised')}"
                     if row.get("failures") or row.get("raised") else ""))
    print(f"  (took {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    run()
