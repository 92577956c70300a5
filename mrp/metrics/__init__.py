"""The metrics: one module or subpackage per metric (its ``METRIC``, on the engine: :mod:`mrp.engine`), and
the registry naming them.

Importing this package does not import numba; the solver is loaded when the
first pair is scored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Tuple

from mrp.lazy import exports

if TYPE_CHECKING:
    from mrp.engine import (
        AUTO,
        AUTO_MAX,
        COUNTS,
        DEFAULT_MAX_MEMORY,
        DEFAULT_TIMEOUT,
        Execution,
        Metric,
        Options,
        Pair,
        Pairing,
        PairingWarning,
        Parameter,
        Progress,
        Run,
        checked,
        duplicate_errors,
        key,
        pair,
        pair_files,
        parameter_values,
        prf,
    )
    from mrp.metrics.ancast.scores import Sums as AncastSums
    from mrp.metrics.ancast.scores import report as ancast_report
    from mrp.metrics.mrp.tuples import TYPES
    from mrp.metrics.registry import METRICS, canonical, metric, metrics, module_of, names, warm

__all__ = ["AUTO", "AUTO_MAX", "AncastSums", "COUNTS", "DEFAULT_MAX_MEMORY", "DEFAULT_TIMEOUT", "Execution",
           "METRICS", "Metric", "Options", "Pair", "Pairing", "PairingWarning", "Parameter", "Progress",
           "Run", "TYPES", "ancast_report", "canonical", "checked", "duplicate_errors", "key", "metric",
           "metrics", "module_of", "names", "pair", "pair_files", "parameter_values", "prf", "warm"]

#: each exported name -> (its module under mrp.metrics, or named from mrp down, and its name there); loaded
#: on first use (importing the package stays light: the registry, the driver and numpy load when a name is
#: asked for).  The engine's names a door needs (Options, Pairing, Metric, ...) are mrp.engine's, given here
#: too so that a door asks one package for what it needs of the metrics.
_HOMES: Dict[str, Tuple[str, str]] = {
    "AncastSums": ("ancast.scores", "Sums"), "ancast_report": ("ancast.scores", "report"),
    **{name: ("mrp.engine", name)
       for name in ("Metric", "Parameter", "Run", "parameter_values", "prf", "AUTO", "AUTO_MAX", "pair_files",
                    "DEFAULT_MAX_MEMORY", "DEFAULT_TIMEOUT", "Execution", "Options", "Progress", "checked",
                    "COUNTS", "Pair", "Pairing", "PairingWarning", "duplicate_errors", "key", "pair")},
    **{name: ("registry", name)
       for name in ("METRICS", "canonical", "metric", "metrics", "module_of", "names", "warm")},
    "TYPES": ("mrp.metrics.mrp.tuples", "TYPES"),
}


__getattr__ = exports(__name__, globals(), _HOMES)
