"""The metric registry: name -> the module that scores a pairing with it.

Every metric module has ``evaluate(pairing, options) -> (result, details)``:
the result JSON object (keys in the metric's reference order, per-item
``scores`` only with ``options.trace``, then ``time`` and ``cpu``) and the
``--errors`` data (empty for metrics without it).  Modules are imported on
demand so that numba loads only for metrics that search.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Tuple

from mrp.errors import MRPError
from mrp.graph import Graph
from mrp.metrics.pairing import Pairing

#: metric name -> module under mrp.metrics
METRICS: Dict[str, str] = {
    "mrp": "mrp",
    "smatch": "smatch",
    "edm": "edm",
    "sdp": "sdp",
    "ucca": "ucca",
    "aspects": "aspects",
    "sembleu": "sembleu",
    "unlabeled": "unlabeled",
    "unlabeled-edges": "unlabeled_edges",
    "predications": "predications",
    "ancast": "ancast",
}
ALIASES = {"mces": "mrp", "mrp-unlabeled": "unlabeled"}


class Progress:
    """Receives a run's progress; this base class ignores it (the CLI shows it on a terminal)."""

    def start(self, total: int) -> None:
        """A run of ``total`` pairs begins."""

    def advance(self, cut: bool) -> None:
        """One more pair is done (``cut``: stopped before proving optimality)."""

    def problem(self, graph: Graph, message: str) -> None:
        """A pair (named by its gold graph) could not be scored normally."""

    def compiling(self) -> None:
        """The solver's kernels are being compiled (before any pair; it takes a while, once)."""

    def finish(self) -> None:
        """The run is over."""


@dataclass
class Options:
    """What changes how a metric scores: search limit, trace, errors, workers, compatibility."""

    limit: Optional[int] = None
    #: seconds per pair at most (each search stops with its best map and a bound)
    timeout: Optional[float] = None
    trace: bool = False
    errors: bool = False
    #: worker processes; AUTO (0): as many as pay off (:func:`mrp.metrics.driver.workers`)
    jobs: int = 1
    smatch_compat: bool = False
    #: AnCast: reproduce AnCast 0.1.1 (its reading, alignment and scoring) instead of the optimum
    ancast_compat: bool = False
    #: the graphs were read from Penman (SMATCH uses the original tool's AMR triples)
    penman: bool = False
    #: aspects: relation levels kept below a trigger (2, as Smatch++ extracts; None: everything reachable)
    aspect_depth: Optional[int] = 2
    #: SemBLEU: weights of orders 1, 2, ... (None: the original's (0.34, 0.33, 0.34))
    sembleu_weights: Optional[Tuple[float, ...]] = None
    #: SemBLEU: reproduce the original's reachability and string handling
    sembleu_compat: bool = False
    #: where progress and per-pair failures go
    progress: Optional[Progress] = None
    #: pair scores already computed, reused for an identical system graph against the same gold
    memo: Optional[Dict[Any, Any]] = None


Evaluate = Callable[[Pairing, Options], Tuple[Dict[str, Any], Dict[str, Any]]]


def canonical(name: str) -> str:
    """The registry name of a metric (resolving aliases); MRPError for an unknown one."""
    name = ALIASES.get(name.lower(), name.lower())
    if name not in METRICS:
        raise MRPError(f"unknown metric '{name}' (known: {', '.join(METRICS)})")
    return name


def _module(name: str) -> Any:
    """The module of a metric; MRPError when this installation lacks it."""
    module_name = METRICS[canonical(name)]
    try:
        return importlib.import_module(f"{__package__}.{module_name}")
    except ModuleNotFoundError as error:
        if error.name == f"{__package__}.{module_name}":
            raise MRPError(f"metric '{name}' is not available in this version") from None
        raise


def module_of(name: str) -> Any:
    """The module of a metric (its ``evaluate`` and ``METRIC``); MRPError when this installation lacks it."""
    return _module(name)


def evaluator(name: str) -> Evaluate:
    """The evaluate function of a metric; MRPError when this installation lacks it."""
    return _module(name).evaluate  # type: ignore[no-any-return]


def warm(name: str, options: Options) -> None:
    """Load what a metric needs before its first pair (the solver's kernels), where that can be done
    now; a failure is left for scoring to report."""
    try:
        metric = getattr(_module(name), "METRIC", None)
        if metric is not None:
            metric.prepare(options)
    except Exception:  # noqa: BLE001, S110 - scoring prepares again and says what failed
        pass
