"""SMATCH: triple overlap under the best node alignment, solved exactly.

Triples come from one of two definitions:

* **AMR read from Penman** (``Options.penman``): as the original SMATCH tool
  (1.0.4) defines them.  An ``instance`` triple per node, an attribute triple
  per constant, the ``TOP`` triple of the root, and a relation triple per
  relation between variables, with inverted roles restored (``X-of`` -> ``X``
  except ``prep-on-behalf-of``, ``prep-out-of`` and ``consist-of``; ``mod`` ->
  ``domain``).  Names and values compare lowercased, without a trailing ``_``
  (the tool's quoted-string marker), so ``"61"`` equals ``61``.
* **MRP graphs**: as the MRP reference scorer converts them (its §5.1), on
  normalized graphs: ``instance`` per labelled node, ``anchor`` per anchored
  node, ``TOP`` (valued with the node's label) per top, a triple per property,
  and relation triples for edges and for each edge attribute.

By default triples are sets, and a multi-word string and an inverted role on a
constant are kept.  ``Options.smatch_compat`` reproduces the original tool's
counts instead: duplicate triples count once per copy (the product of copies
when matched, so a score can exceed 100%), a quoted string keeps only its first
word, and an inverted role on a constant is dropped.

The alignment is the exact optimum of the same branch and bound as the MRP
metric (no random restarts); each item reports ``exact`` and ``bound``.

The package: :mod:`~mrp.metrics.smatch.metric` (the metric: triples of a pair, the alignment, the
report), :mod:`~mrp.metrics.smatch.penman` (the original tool's triples of Penman AMR),
:mod:`~mrp.metrics.smatch.smatchpp` (Smatch++'s, ``--smatchpp-compat``), :mod:`~mrp.metrics.smatch.coded`
(Penman triples coded in one pass, for scoring together), :mod:`~mrp.metrics.smatch.held` (what scoring
together holds of a graph), :mod:`~mrp.metrics.smatch.together` (the steps of scoring together),
:mod:`~mrp.metrics.smatch.items` (a pair's item from its alignment) and :mod:`~mrp.metrics.smatch.errors`
(``--errors``' unmatched triples).
"""

from __future__ import annotations

from mrp.metrics.smatch.metric import METRIC

__all__ = ["METRIC"]
