"""The metrics: pairing graphs, each metric's tuples and counts on the one driver, and the registry.

Importing this package does not import numba; the solver is loaded when the
first pair is scored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Tuple

from mrp.lazy import exports

if TYPE_CHECKING:
    from mrp.metrics.ancast.scores import Sums as AncastSums
    from mrp.metrics.ancast.scores import report as ancast_report
    from mrp.metrics.base import Metric, Parameter, Run, parameter_values
    from mrp.metrics.counting import prf
    from mrp.metrics.driver import AUTO, AUTO_MAX
    from mrp.metrics.files import pair_files
    from mrp.metrics.options import (
        DEFAULT_MAX_MEMORY,
        DEFAULT_TIMEOUT,
        Execution,
        Options,
        Progress,
        checked,
    )
    from mrp.metrics.pairing import COUNTS, Pair, Pairing, PairingWarning, duplicate_errors, key, pair
    from mrp.metrics.registry import METRICS, canonical, metric, metrics, module_of, names, warm
    from mrp.metrics.tuples import TYPES

__all__ = ["AUTO", "AUTO_MAX", "AncastSums", "COUNTS", "DEFAULT_MAX_MEMORY", "DEFAULT_TIMEOUT", "Execution",
           "METRICS", "Metric", "Options", "Pair", "Pairing", "PairingWarning", "Parameter", "Progress",
           "Run", "TYPES", "ancast_report", "canonical", "checked", "duplicate_errors", "key", "metric",
           "metrics", "module_of", "names", "pair", "pair_files", "parameter_values", "prf", "warm"]

#: each exported name -> (its module under mrp.metrics, its name there); loaded on first use (importing the
#: package stays light: the registry, the driver and numpy load when a name is asked for)
_HOMES: Dict[str, Tuple[str, str]] = {
    "AncastSums": ("ancast.scores", "Sums"), "ancast_report": ("ancast.scores", "report"),
    **{name: ("base", name) for name in ("Metric", "Parameter", "Run", "parameter_values")},
    "prf": ("counting", "prf"),
    **{name: ("driver", name) for name in ("AUTO", "AUTO_MAX")},
    "pair_files": ("files", "pair_files"),
    **{name: ("options", name) for name in ("DEFAULT_MAX_MEMORY", "DEFAULT_TIMEOUT", "Execution", "Options",
                                            "Progress", "checked")},
    **{name: ("pairing", name) for name in ("COUNTS", "Pair", "Pairing", "PairingWarning", "duplicate_errors",
                                            "key", "pair")},
    **{name: ("registry", name)
       for name in ("METRICS", "canonical", "metric", "metrics", "module_of", "names", "warm")},
    "TYPES": ("tuples", "TYPES"),
}


__getattr__ = exports(__name__, globals(), _HOMES)
