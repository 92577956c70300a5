"""The metric registry: one line per metric, name -> (its module, the other names it answers to).

Each metric module declares ``METRIC``, an instance of its
:class:`mrp.engine.base.Metric` class, which owns every other fact of the
metric: its normalization, primary figure, parameters (the CLI's options and
the library's keyword arguments), signature fields and report layout.  The
CLI, the library, signatures and leaderboards read them from there.  Modules
are imported on demand, so that numba loads only for metrics that search.
Adding a metric: a module with its ``METRIC``, and one line here.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from mrp.engine import Options, Pairing
from mrp.errors import MRPError

if TYPE_CHECKING:
    from mrp.engine import Metric

__all__ = ["METRICS", "canonical", "evaluate", "metric", "metrics", "module_of", "names", "warm"]

#: metric name -> (module, aliases)
METRICS: Dict[str, Tuple[str, Tuple[str, ...]]] = {
    "mrp": ("mrp.metrics.mrp", ("mces",)),
    "smatch": ("mrp.metrics.smatch", ()),
    "edm": ("mrp.metrics.edm", ()),
    "sdp": ("mrp.metrics.sdp", ()),
    "ucca": ("mrp.metrics.ucca", ()),
    "aspects": ("mrp.metrics.aspects", ()),
    "sembleu": ("mrp.metrics.sembleu", ()),
    "unlabeled": ("mrp.metrics.unlabeled", ("mrp-unlabeled",)),
    "unlabeled-edges": ("mrp.metrics.unlabeled.edges", ()),
    "predications": ("mrp.metrics.predications", ()),
    "ancast": ("mrp.metrics.ancast", ()),
    "umatch": ("mrp.metrics.umatch.metric", ("jumatch",)),
    "rematch": ("mrp.metrics.rematch", ()),
    "wlk": ("mrp.metrics.wlk", ()),
    "s2match": ("mrp.metrics.s2match", ()),
}

_ALIASES = {alias: name for name, (_, aliases) in METRICS.items() for alias in aliases}

def names() -> List[str]:
    """Every metric's name and alias, for help texts."""
    return [f"{name} ({', '.join(aliases)})" if aliases else name for name, (_, aliases) in METRICS.items()]


def canonical(name: str) -> str:
    """The registry name of a metric (resolving aliases); MRPError for an unknown one."""
    name = _ALIASES.get(name.lower(), name.lower())
    if name not in METRICS:
        raise MRPError(f"unknown metric '{name}' (known: {', '.join(METRICS)})")
    return name


def module_of(name: str) -> Any:
    """The module of a metric (its ``METRIC``); MRPError when this installation lacks it."""
    module_name = METRICS[canonical(name)][0]
    module = sys.modules.get(module_name)
    if module is not None:
        return module
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name == module_name:
            raise MRPError(f"metric '{name}' is not available in this version") from None
        raise


def metric(name: str) -> Metric:
    """The metric of a name or alias."""
    return module_of(name).METRIC  # type: ignore[no-any-return]


def metrics() -> List[Metric]:
    """Every registered metric (imports every metric module)."""
    return [metric(name) for name in METRICS]


def evaluate(name: str, pairing: Pairing, options: Optional[Options] = None
             ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """A metric's result over a pairing (its report, every graph accounted for) and its --errors data
    {framework: {id: data}}; MRPError when this installation lacks the metric."""
    from mrp.engine import evaluate_metric as driven

    return driven(metric(name), pairing, options)


def warm(name: str, options: Options) -> None:
    """Load what a metric needs before its first pair (the solver's kernels), where that can be done
    now; a failure is left for scoring to report."""
    try:
        metric(name).prepare(options)
    except Exception:  # noqa: BLE001, S110 - scoring prepares again and says what failed
        pass
