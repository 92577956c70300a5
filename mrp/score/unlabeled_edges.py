"""The MRP metric with edge labels ignored and node labels kept (see :mod:`mrp.score.unlabeled`)."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from .driver import evaluate as drive
from .metrics import Options
from .pairing import Pairing
from .unlabeled import Unlabeled

METRIC = Unlabeled("unlabeled-edges", nodes=False)


def evaluate(pairing: Pairing, options: Optional[Options] = None) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The MRP result of a pairing with edges as unlabeled pairs, in the MRP metric's layout."""
    return drive(METRIC, pairing, options)
