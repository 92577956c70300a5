"""mrp: score and convert meaning representation graphs (AMR, UMR, EDS, DM, PSD, UCCA, PTG, DRG).

The library in five names::

    graphs = mrp.read("gold.amr")                       # -> [mrp.Graph, ...]
    result = mrp.score("gold.amr", "system.amr", metric="smatch")
    result.f, result.pairs, result.signature, result.to_dict()
    scorer = mrp.Scorer("smatch"); scorer.update(gold, system); scorer.compute()
    mrp.write(graphs, "out.mrp")

Errors are :mod:`mrp.errors` types; the library never prints and never exits.
The package is layered: ``mrp.codecs`` read and write files into the one graph
model of ``mrp.graph``; ``mrp.normalize`` applies a metric's normalization;
``mrp.metrics`` turns graph pairs into counts (with an exact solver); ``mrp.api``
is the library's front and the ``mrp.cli`` modules are the command-line front.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

from mrp import errors  # noqa: E402
from mrp.graph import Edge, Graph, Node  # noqa: E402

__all__ = ["Edge", "Ensemble", "Figures", "Graph", "Node", "PairResult", "Result", "Rewards", "Scorer",
           "ScorerState", "Similarity", "__version__", "ensemble", "errors", "pairwise", "read", "score",
           "similarity", "write"]

#: names of mrp.api, imported on first use (``import mrp`` stays light for the command-line tools)
_API = ("Ensemble", "Figures", "PairResult", "Result", "Rewards", "Scorer", "ScorerState", "Similarity",
        "ensemble", "pairwise", "read", "score", "similarity", "write")


def __getattr__(name: str) -> Any:
    if name in _API:
        from mrp import api

        value = globals()[name] = getattr(api, name)  # found directly from then on
        return value
    raise AttributeError(f"module 'mrp' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
