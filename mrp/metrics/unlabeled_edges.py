"""The MRP metric with edge labels ignored and node labels kept (see :mod:`mrp.metrics.unlabeled`)."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from mrp.metrics.driver import evaluate as drive
from mrp.metrics.options import Options
from mrp.metrics.pairing import Pairing
from mrp.metrics.unlabeled import Unlabeled

METRIC = Unlabeled("unlabeled-edges", nodes=False)


def evaluate(pairing: Pairing, options: Optional[Options] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The MRP result of a pairing with edges as unlabeled pairs, in the MRP metric's layout."""
    return drive(METRIC, pairing, options)
