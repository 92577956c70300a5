"""Adversarial pairs (issue 17), in process with warm kernels: wall time against the cap, F and its bound.

Each row: a pair, the limits given, the wall seconds the whole pair took (reading excluded, building the
solver's input included), whether it was proved, F and the F of the bound, and the nodes matched.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from mrp.corpora.load import read_corpus
from mrp.graph import Edge, Graph, Node
from mrp.metrics.mrp.pair import score_pair

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synthetic  # noqa: E402


def _graph(labels: List[str], edges: List[Tuple[int, int]]) -> Graph:
    nodes = [Node(k, label) for k, label in enumerate(labels)]
    return Graph(id="hard", framework="eds", tops=[0], nodes=nodes, edges=[Edge(a, b, "e") for a, b in edges])


def complete(n: int) -> Graph:
    return _graph(["x"] * n, [(a, b) for a in range(n) for b in range(n) if a != b])


def uniform(n: int, seed: int) -> Graph:
    """A random tree plus n random edges, one node label and one edge label."""
    rng = random.Random(seed)
    ends = {(rng.randrange(k), k) for k in range(1, n)}
    ends |= {(rng.randrange(n), rng.randrange(n)) for _ in range(n)}
    return _graph(["x"] * n, sorted((a, b) for a, b in ends if a != b))


def wide(n: int, every: int = 0) -> Graph:
    """A root with n - 1 children (every ``every``-th edge left out when given)."""
    return _graph(["root"] + ["x"] * (n - 1), [(0, k) for k in range(1, n) if not every or k % every])


def cases(directory: Path) -> List[Tuple[str, Graph, Graph, Dict[str, Optional[float]]]]:
    big = synthetic.big_pair(directory, nodes=2000)
    gold, system = (read_corpus(str(path)).graphs[0] for path in big)
    huge = synthetic.big_pair(directory / "5000", nodes=5000)
    gold5, system5 = (read_corpus(str(path)).graphs[0] for path in huge)
    return [
        ("complete 150 vs itself", complete(150), complete(150), {"timeout": None, "limit": None}),
        ("complete 60 vs perturbed", complete(60), _perturbed(complete(60)), {"timeout": 5, "limit": None}),
        ("wide 100 vs itself", wide(100), wide(100), {"timeout": None, "limit": None}),
        ("wide 100 vs 90 edges", wide(100), wide(100, 10), {"timeout": 5, "limit": None}),
        ("uniform 40 vs 40", uniform(40, 1), uniform(40, 2), {"timeout": 5, "limit": None}),
        ("uniform 700, --limit 0", uniform(700, 3), uniform(700, 4), {"timeout": None, "limit": 0}),
        ("uniform 700, --timeout 5", uniform(700, 3), uniform(700, 4), {"timeout": 5, "limit": None}),
        ("2000-node pair, --timeout 5", gold, system, {"timeout": 5, "limit": None}),
        ("5000-node pair, --timeout 5", gold5, system5, {"timeout": 5, "limit": None}),
    ]


def _perturbed(graph: Graph) -> Graph:
    graph.nodes[3].label = "y"
    del graph.edges[::7]
    return graph


def run(directory: Path) -> List[Dict[str, object]]:
    """The rows, printed as they come."""
    score_pair(uniform(10, 0), uniform(10, 1))  # warm kernels
    rows = []
    print(f"\nHard pairs (in process, warm): {'case':30} {'limits':18} {'wall s':>7} {'exact':>5} "
          f"{'F':>7} {'F bound':>7} {'matched':>7}")
    for name, gold, system, limits in cases(directory):
        start = time.perf_counter()
        result = score_pair(gold, system, limit=limits["limit"], timeout=limits["timeout"])
        wall = time.perf_counter() - start
        g, s, c = result.counts["all"]
        f = 2 * c / (g + s) if g + s else 1.0
        fb = 2 * result.bound / (g + s) if g + s else 1.0
        given = " ".join(f"--{k} {v:g}" for k, v in limits.items() if v is not None) or "-"
        row = {"case": name, "limits": given, "wall s": wall, "exact": result.exact, "F": f, "F bound": fb,
               "matched": len(result.correspondence)}
        print(f"  {name:30} {given:18} {wall:7.2f} {str(result.exact):>5} {f:7.4f} {fb:7.4f} "
              f"{len(result.correspondence):7d}", flush=True)
        rows.append(row)
    return rows


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        run(Path(tmp))
