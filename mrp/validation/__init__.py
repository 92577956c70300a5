"""Submission validation: every problem of a graph file, reported once, per graph, node and edge.

:func:`validate_file` reads a file and returns a :class:`Report` whose problems
are in file order; :func:`validate_graph` checks one graph of the model.  A
:class:`Problem` prints as one line::

    FILE:LINE: graph ID: WHERE: message

Parts that are unknown are left out (with their ``: ``): the line for a graph
that was not read from a file, the graph for a line that holds no graph (not
UTF-8, not JSON), WHERE for a problem of the whole graph.  WHERE names

- ``node N``: the node whose ``id`` is N (``nodes[K]``, the K-th node counted
  from 0, when the node has no usable id);
- ``edge K``: the K-th edge of the graph's ``edges`` list, counted from 0;
- ``top N``: the entry N of ``tops``.

Each file is read once, by its format's reader; MRP JSON by the MRP reader in
collecting mode (:func:`mrp.codecs.mrp.check`), which reports every problem
of a graph object, not only the first: the fields the format requires and
their types (``id``, ``framework``, ``flavor``, ``version``, ``time``; lists,
integer ids, anchors ``{"from": int, "to": int}``), lone surrogates,
duplicate node ids, references to no node, names and values of different
lengths, and the limits of :mod:`mrp.io.limits`.  The summary counts the graphs
that the reader rejects (mrp-score scores them as empty graphs).

Then, for every graph: a duplicate graph id (same framework and id as an
earlier graph of the file); ``input`` that differs from the ``text`` table; a
framework other than the one asked for; a flavor that does not fit the
framework; anchors (``from`` > ``to``, empty, outside the input counted in
code points, only whitespace); the input of an anchored framework (flavor 0
or 1); and the rules of the framework (:mod:`mrp.validation.frameworks`, one
module per framework).
"""

from __future__ import annotations

from mrp.validation.checks import validate_graph
from mrp.validation.common import anchor_problem
from mrp.validation.files import validate_file, validate_for_score
from mrp.validation.frameworks import RULES
from mrp.validation.problems import Problem, Report

__all__ = ["Problem", "Report", "RULES", "anchor_problem", "validate_file", "validate_for_score",
           "validate_graph"]
