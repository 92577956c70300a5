"""Reading and writing graphs from Python: :func:`read` and :func:`write`."""

from __future__ import annotations

import os
import warnings
from dataclasses import replace
from typing import Any, Iterable, List, Optional, TextIO, Union

from mrp.codecs import WriteOptions, infer_format, writer
from mrp.corpora import live
from mrp.engine import positional
from mrp.errors import InputError, MRPError, ReadWarning
from mrp.graph import Graph
from mrp.io.write import output
from mrp.pipeline.inputs import Graphs, corpus_of, read_options
from mrp.pipeline.keywords import respelled

__all__ = ["ReadWarning", "read", "write"]


def read(source: Graphs, format: Optional[str] = None, errors: str = "raise", **options: Any) -> List[Graph]:
    """The graphs of a file (a path) or of text (Penman, MRP JSON lines, ...), in order.

    ``format``: the format's name (default: from the file's extension, else
    Penman for text starting with "(" or "#", MRP for text starting with "{").
    ``errors``: "raise" (default) raises the :class:`mrp.errors.FormatError` of
    the first graph that cannot be read (it names file, line and graph id);
    "skip" leaves such graphs out, with a :class:`ReadWarning` each.  A graph
    read by a repair gives a ReadWarning naming the repair (``strict=True``
    refuses it instead).  Options: ``framework``, ``text``, ``no_wiki``,
    ``strict``, ``wsj_ids``.  Graphs whose input wrote no ids are numbered by
    position and marked (``Graph.assigned_id``): a list of such graphs given to
    :func:`mrp.score` pairs by position, as a list of their texts would.
    """
    if errors not in ("raise", "skip"):
        raise ValueError(f"errors must be 'raise' or 'skip', not {errors!r}")
    try:
        corpus = corpus_of(source, format, replace(read_options(**options), keep=True), "<string>")
    except MRPError as refused:
        raise respelled(refused) from None
    for repaired in corpus.repaired:
        warnings.warn(str(repaired), ReadWarning, stacklevel=2)
    if corpus.errors:
        if errors == "raise":
            raise respelled(corpus.errors[0])
        for error in corpus.errors:
            warnings.warn(f"{error}; left out", ReadWarning, stacklevel=2)
    graphs = [live(graph) for graph in corpus.graphs]
    if positional(corpus):  # the reader numbered them: marked, so that lists of them pair by position
        for graph in graphs:
            graph.assigned_id = graph.id
    return graphs


def write(graphs: Union[Graph, Iterable[Graph]], target: Union[str, os.PathLike[str], TextIO, None] = None,
          format: Optional[str] = None) -> Optional[str]:
    """Write graphs to a path or an open text stream in a format (default: from the path's extension, else
    MRP); with no target, return the text.  Raises :class:`mrp.errors.FormatError` for a graph the format
    cannot represent."""
    if isinstance(graphs, Graph):
        graphs = [graphs]
    if target is None or not isinstance(target, (str, os.PathLike)):
        fmt = format or "mrp"
    else:
        fmt = format or infer_format(os.fspath(target), "mrp")
    emit = writer(fmt)
    if target is None:
        import io

        buffer = io.StringIO()
        emit(graphs, buffer, WriteOptions())
        return buffer.getvalue()
    if isinstance(target, (str, os.PathLike)):
        path = os.fspath(target)
        if path == "-":
            raise InputError("write to sys.stdout explicitly, not '-'")
        with output(path, newline="\n") as stream:
            emit(graphs, stream, WriteOptions())
        return None
    emit(graphs, target, WriteOptions())
    return None
