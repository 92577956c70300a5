"""A RARE-style structural check (``python bench/run.py --only rare``): which metric tracks structure?

After Rematch's RARE benchmark (Kachwala et al. 2024, "Randomized AMRs with Rewired Edges"), made here
from its description, not its code: each of the first M coli gold graphs is rewired step by step, seeded.
Its constants and relations are visited in a random order; a constant still as written swaps its role and
value with another constant of the graph, a relation still as written swaps its target with another
relation's, when neither new triple is in the original or the current graph and (for relations) the graph
stays connected, without self-loops or two edges between the same nodes.  After each swap the graph is
kept as a variant, with the share of its constants and relations left as written as the truth (1 for the
graph itself, kept as a pair too).  Every metric scores (original, variant) for every variant; the table
gives the Spearman rank correlation of its per-pair score with the truth (higher: the metric tracks the
amount of rewiring better), and the number of pairs.  Rematch uses its frame table when ``REMATCH_DIR``
names a checkout of osome-iu/Rematch-RARE.  (RARE itself also keeps swaps from making cycles; this does
not, so its numbers differ from the paper's.)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import mrp  # noqa: E402
from mrp.graph import Edge, Graph, Node  # noqa: E402

SHARED = ROOT.parent / "shared"
GOLD = "data/pairs/amr/coli.gold.amr"
METRICS = ("smatch", "rematch", "wlk", "sembleu", "mrp")

Triple = Tuple[int, str, Any]


def _connected(nodes: List[int], relations: List[Triple]) -> bool:
    """Whether the relations join every node (directions ignored)."""
    if not nodes:
        return True
    links: Dict[int, List[int]] = {node: [] for node in nodes}
    for source, _, target in relations:
        links[source].append(target)
        links[target].append(source)
    seen, todo = {nodes[0]}, [nodes[0]]
    while todo:
        for other in links[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(nodes)


def _graph(original: Graph, name: str, attributes: List[Triple], relations: List[Triple]) -> Graph:
    """A new graph: the original's nodes with these constants and relations."""
    nodes = []
    for node in original.nodes:
        mine = [(role, value) for source, role, value in attributes if source == node.id]
        nodes.append(Node(node.id, node.label, [role for role, _ in mine], [value for _, value in mine]))
    return Graph(name, framework="amr", tops=list(original.tops), nodes=nodes,
                 edges=[Edge(source, target, role) for source, role, target in relations])


def rewired(graph: Graph, seed: int) -> List[Tuple[Graph, float]]:
    """The graph's variants, each with the share of its triples left as written (the graph itself: 1).

    Args:
        graph: an AMR graph.
        seed: the seed of its random order.

    Returns:
        (variant, truth) pairs, the graph itself first.
    """
    attributes: List[Triple] = [(node.id, role, value) for node in graph.nodes
                                for role, value in zip(node.properties, node.values)]
    relations: List[Triple] = [(edge.source, edge.label or "", edge.target) for edge in graph.edges]
    original_attributes, original_relations = set(attributes), set(relations)
    possible = len(attributes) + len(relations)
    nodes = [node.id for node in graph.nodes]
    draw = random.Random(seed)
    order = attributes + relations
    draw.shuffle(order)
    out = [(_graph(graph, f"{graph.id}.0", attributes, relations), 1.0)]
    for triple in order:
        changed = False
        if triple in original_attributes and triple in attributes:
            candidates = [other for other in attributes if other != triple]
            draw.shuffle(candidates)
            for other in candidates:
                new = [(triple[0], other[1], other[2]), (other[0], triple[1], triple[2])]
                if any(t in original_attributes or t in attributes for t in new):
                    continue
                attributes = [t for t in attributes if t not in (triple, other)] + new
                changed = True
                break
        elif triple in original_relations and triple in relations:
            candidates = [other for other in relations if other != triple]
            draw.shuffle(candidates)
            for other in candidates:
                new = [(triple[0], triple[1], other[2]), (other[0], other[1], triple[2])]
                if any(t in original_relations or t in relations or t[0] == t[2] for t in new):
                    continue
                updated = [t for t in relations if t not in (triple, other)] + new
                ends: Set[Tuple[int, int]] = {(s, t) for s, _, t in updated}
                if len(ends) < len(updated) or not _connected(nodes, updated):
                    continue
                relations = updated
                changed = True
                break
        if changed:
            kept = len(original_attributes & set(attributes)) + len(original_relations & set(relations))
            out.append((_graph(graph, f"{graph.id}.{len(out)}", attributes, relations), kept / possible))
    return out


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rank correlation (ties get their mean rank)."""

    def ranks(values: np.ndarray) -> np.ndarray:
        order = np.argsort(values, kind="stable")
        ranked = np.empty(len(values), np.float64)
        ranked[order] = np.arange(1, len(values) + 1)
        for value in np.unique(values):
            where = values == value
            ranked[where] = ranked[where].mean()
        return ranked

    a, b = ranks(np.asarray(x, np.float64)), ranks(np.asarray(y, np.float64))
    return float(np.corrcoef(a, b)[0, 1])


def run(shared: Path = SHARED, graphs: int = 100, seed: int = 0) -> Dict[str, float]:
    """Rewire, score with every metric, print the correlations; returns metric -> Spearman."""
    where = os.environ.get("REMATCH_DIR")
    frames: Optional[Path] = Path(where) / "methods" / "rematch" / "pb2va.json" if where else None
    originals = [graph for graph in mrp.read(str(shared / GOLD), format="amr") if len(graph.edges) >= 2]
    pairs: List[Tuple[Graph, Graph, float]] = []
    for k, graph in enumerate(originals[:graphs]):
        variants = rewired(graph, seed + k)
        first = variants[0][0]
        for variant, truth in variants:  # the original once per variant, under the variant's id
            copy = Graph(variant.id, framework="amr", tops=list(first.tops), nodes=first.nodes,
                         edges=first.edges)
            pairs.append((copy, variant, truth))
    truth = np.array([t for _, _, t in pairs])
    out: Dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="mrp-rare-") as tmp:
        gold, system = Path(tmp) / "originals.amr", Path(tmp) / "variants.amr"
        mrp.write([g for g, _, _ in pairs], str(gold), format="amr")
        mrp.write([v for _, v, _ in pairs], str(system), format="amr")
        for name in METRICS:
            options: Dict[str, Any] = {"format": "amr"}
            if name == "rematch" and frames is not None and frames.exists():
                options["rematch_frames"] = str(frames)
            result = mrp.score(str(gold), str(system), metric=name, **options)
            scores = np.array([pair.f for pair in result.pairs])
            out[name] = spearman(scores, truth)
    print(f"\nRARE-style structure check: {len(pairs):,} pairs (original, rewired variant) of "
          f"{min(graphs, len(originals))} coli gold graphs, seed {seed}; Spearman rank correlation of each "
          "metric's pair score with the share of triples left as written\n")
    for name, value in out.items():
        note = " (with Rematch's frame table)" if name == "rematch" and frames is not None else ""
        print(f"  {name:10} {value:.4f}{note}")
    return out


def main() -> None:
    """``python bench/rare.py [--graphs M] [--seed S]``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graphs", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    run(SHARED, args.graphs, args.seed)


if __name__ == "__main__":
    main()
