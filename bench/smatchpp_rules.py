"""Why Smatch++ and mrp's SMATCH differ on the coli pairs: each standardization rule's share of the F.

Every variant is Smatch++'s triples (mrp.metrics.smatch.smatchpp) with one rule changed, solved exactly by
mrp's solver; the micro F over the 1,368 shared coli pairs, and the pairs whose F changes:

    python bench/smatchpp_rules.py [GOLD SYSTEM]

(default: ../shared/data/pairs/amr/coli.{gold,system}.amr).  docs/guide/comparison.md quotes its output.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

import mrp
from mrp.engine.options import Options
from mrp.graph import Graph
from mrp.metrics.smatch import smatchpp as pp
from mrp.metrics.smatch.metric import METRIC, score_triples, triples

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "pairs" / "amr"
Steps = Sequence[pp.Step]
KEPT = {":consist-of", ":prep-on-behalf-of", ":prep-out-of"}


def smatch_inversion(triples: List[pp.Triple]) -> List[pp.Triple]:
    """The original SMATCH tool's (and mrp's) inversion: three -of roles kept, :mod as :domain-of."""
    out = []
    for source, role, target in triples:
        if role == ":mod":
            out.append((target, ":domain", source))
        elif role in KEPT:
            out.append((source, role, target))
        else:
            out.extend(pp.deinverted([(source, role, target)]))
    return out


def apostrophes_kept(triples: List[pp.Triple]) -> List[pp.Triple]:
    """Lowercased and without double quotes only (mrp keeps a string's apostrophe)."""
    return [tuple(part.lower().replace('"', "") for part in triple) for triple in triples]  # type: ignore


def uncaptured(graph: Graph) -> List[pp.Triple]:
    """Smatch++'s reading with each constant marked, so that no constant is taken for a variable."""
    names = set((graph.variables or {}).values()) | {pp.ROOT_SOURCE}
    return [(s, r, t if r == pp.INSTANCE or t in names else "\x01" + t) for s, r, t in pp.read(graph)]


Reader = Callable[[Graph], List[pp.Triple]]
GENERIC, AMR = pp.STEPS["generic"], pp.STEPS["amr"]


def variants() -> Dict[str, Tuple[Reader, Steps]]:
    return {
        "Smatch++ generic": (pp.read, GENERIC),
        "  generic, SMATCH's inversion (consist-of, prep-*-of kept; mod = domain-of)":
            (pp.read, tuple(smatch_inversion if step is pp.deinverted else step for step in GENERIC)),
        "  generic, duplicates removed": (pp.read, GENERIC + (pp.deduplicated,)),
        "  generic, no constant taken for a variable": (uncaptured, GENERIC),
        "  generic, apostrophes kept": (pp.read, tuple(apostrophes_kept if step is pp.unquoted else step
                                                       for step in GENERIC)),
        "  generic + domain as mod-of": (pp.read, (pp.unquoted, pp.renamed, pp.domain_as_mod, pp.deinverted)),
        "  generic + root valued with its concept": (pp.read, GENERIC + (pp.concept_root,)),
        "  generic + dereification": (pp.read, GENERIC + (pp.dereified,)),
        "Smatch++ amr": (pp.read, AMR),
        "Smatch++ without a graph type (nothing standardized)": (pp.read, ()),
    }


def micro(pairs: List[Tuple[Graph, Graph]], make: Callable[[Graph], Any]) -> Tuple[float, List[float]]:
    options = Options()
    g = s = c = 0
    each = []
    for gold, system in pairs:
        item = score_triples(gold.id, make(gold), make(system), options)
        g, s, c = g + item["g"], s + item["s"], c + item["c"]
        each.append(2 * item["c"] / (item["g"] + item["s"]) if item["g"] + item["s"] else 1.0)
    return 2 * c / (g + s), each


def main(argv: List[str]) -> None:
    gold_path, system_path = argv[1:3] if len(argv) > 2 else (SHARED / "coli.gold.amr",
                                                              SHARED / "coli.system.amr")
    pairs = list(zip(mrp.read(str(gold_path)), mrp.read(str(system_path))))
    METRIC.prepare(Options())
    base, _ = micro(pairs, lambda graph: triples(graph, Options(penman=True)))
    print(f"{'mrp SMATCH (default)':<80} F {100 * base:.4f}")
    reference = None
    for name, (reader, steps) in variants().items():
        def made(graph: Graph, reader: Reader = reader, steps: Steps = steps) -> Any:
            return pp.solver_triples(pp.standardize(reader(graph), steps))

        f, each = micro(pairs, made)
        if reference is None:
            reference = each
        changed = sum(abs(a - b) > 1e-12 for a, b in zip(each, reference))
        print(f"{name:<80} F {100 * f:.4f}  pairs changed vs generic: {changed}")


if __name__ == "__main__":
    main(sys.argv)
