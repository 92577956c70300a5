"""mrp in other frameworks' metric interfaces, each over the public library (:mod:`mrp.api`) and importing
its framework only when used:

* :data:`EVALUATE`: the path of a Hugging Face ``evaluate`` metric module (``evaluate.load(EVALUATE)``;
  the extra ``mrp-graphs[hf]``), with its metric card;
* :mod:`mrp.integrations.torchmetrics`: ``MRPMetric``, a torchmetrics ``Metric`` whose states are sums
  that any number of processes reduce (the extra ``mrp-graphs[torch]``).
"""

from __future__ import annotations

import os

__all__ = ["EVALUATE"]

#: the directory of the Hugging Face ``evaluate`` module (``evaluate.load(mrp.integrations.EVALUATE)``)
EVALUATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mrp_graphs")
