"""The last step every result takes, in mrp-score and in the library alike: macro figures, intervals and
the signature."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, List

from mrp.engine import Options, Pairing
from mrp.metrics.registry import canonical
from mrp.report.signature import NO_STATISTICS, Statistics, signature

__all__ = ["complete", "finish", "frameworks_scored"]


def frameworks_scored(pairing: Pairing) -> List[str]:
    """The frameworks of the scored gold graphs ('none' for graphs without one), sorted."""
    return sorted({p.gold_entry.framework or "none" for p in pairing.pairs})



def finish(metric: str, result: Dict[str, Any], pairing: Pairing, options: Options,
           statistics: Statistics = NO_STATISTICS) -> Dict[str, Any]:
    """A metric's traced result completed as mrp-score prints it: macro figures, with a bootstrap
    confidence intervals, and the signature (claiming no standardization where no AMR graph is scored)."""
    return complete(metric, result, frameworks_scored(pairing), options, statistics)


def complete(metric: str, result: Dict[str, Any], frameworks: List[str], options: Options,
             statistics: Statistics = NO_STATISTICS) -> Dict[str, Any]:
    """:func:`finish` for the frameworks scored (:func:`frameworks_scored`) rather than the pairing."""
    from mrp.report.stats import annotate

    annotate(result, statistics.bootstrap, statistics.seed)
    if "amr" not in frameworks:
        options = replace(options, standardization="none")
    result["signature"] = signature(canonical(metric), frameworks, options, statistics)
    return result
