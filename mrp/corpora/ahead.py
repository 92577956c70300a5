"""Reading a file ahead: a forked child reads it while this process does other work (reads the gold
file, loads the solver), and hands the graphs over packed (:mod:`mrp.corpora.packed`).

The corpus given back is the one :func:`~mrp.corpora.load.read_corpus` reads, graph for graph, with its
unreadable and repaired graphs, and what the reader wrote to standard error is written when the corpus is
taken, so messages keep the order of a run that reads in turn.  A graph whose content is that of a text
this process had read when the child was forked is sent without it, and takes it here
(:meth:`~mrp.corpora.packed.PackedGraphs.refer`).  Where reading ahead cannot
help or is not safe (one CPU, no ``fork``, other threads running, standard input or another file that
can be read only once, or ``MRP_READ_AHEAD=0``), and whenever the child fails for any reason, the file
is read here instead.
"""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any, Dict, Optional, Tuple

from mrp.codecs import ReadOptions
from mrp.codecs.repeats import Repeats
from mrp.corpora.corpus import Corpus
from mrp.corpora.load import read_corpus
from mrp.corpora.packed import PackedGraphs, pack, unpack
from mrp.errors import MRPError
from mrp.graph import Graph
from mrp.process.collector import collector_paused
from mrp.process.forked import Child, available_cpus, can_fork

__all__ = ["Ahead", "DISTINCT", "enabled", "pays_after"]

#: a file read through a memo of texts after other files is read ahead only when their graphs held at least
#: this many distinct texts per graph (see :func:`pays_after`)
DISTINCT = 0.5


def enabled() -> bool:
    """Whether files may be read ahead in this process now."""
    if os.environ.get("MRP_READ_AHEAD", "1").strip() == "0" or not can_fork():
        return False
    return available_cpus() > 1


def pays_after(options: Optional[ReadOptions], graphs: int) -> bool:
    """Whether a file read through ``options.memo`` after ``graphs`` graphs were read through it is worth
    reading ahead.

    Not when those graphs held fewer than :data:`DISTINCT` distinct texts per graph (the files of random
    pairs of one collection): the file's graphs are then mostly copies of texts read already, which this
    process makes in about 15 µs each, and which a child would read as fast and then hand over for about
    half of that again, its forked pages copied as this process and it write.  On Rematch's testbed (20,000
    pairs of the 2,736 coli graphs) reading ahead saved about 0.2 s of wall time for about 0.2 s of CPU,
    and cost 0.7 s of CPU on a busy machine, where a page's first write costs more (the solver guide gives
    the runs).

    Args:
        options: the read options (without a :class:`~mrp.codecs.repeats.Repeats` memo: always worth it).
        graphs: the graphs read through the memo before.

    Returns:
        Whether to read the file ahead (when :func:`enabled`).
    """
    memo = options.memo if options is not None else None
    if not isinstance(memo, Repeats) or graphs <= 0:
        return True
    return memo.built >= DISTINCT * graphs


def _read(path: str, fmt: Optional[str], options: Optional[ReadOptions],
          templates: Dict[int, Graph]) -> Tuple[str, Any, bytes]:
    """In the child: the corpus as a payload (or the MRPError reading raised), and its standard error; a
    graph holding the content of one of ``templates`` (the parent's, by serial) is sent without it."""
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)  # what is written to file descriptor 2, and to sys.stderr
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
        result: Tuple[str, Any]
        try:
            corpus = read_corpus(path, fmt, options)
            graphs = corpus.graphs
            packed = graphs if isinstance(graphs, PackedGraphs) else [pack(graph) for graph in graphs]
            memo = options.memo if options is not None else None
            if isinstance(packed, PackedGraphs) and templates and isinstance(memo, Repeats):
                packed.refer(lambda graph: _held(memo.serial(graph), templates))
            result = ("corpus", (corpus.name, corpus.format, packed, corpus.errors, corpus.repaired))
        except MRPError as error:  # InputError and the like: the parent raises it as its own
            result = ("error", error)
        sys.stderr.flush()
        captured.seek(0)
        return result[0], result[1], captured.read()


def _held(serial: Optional[int], templates: Dict[int, Graph]) -> Optional[int]:
    """The serial number when the parent holds its template, else None."""
    return serial if serial is not None and serial in templates else None


class Ahead:
    """A file being read: :meth:`corpus` waits for it (reading it here if it was not read ahead).

    Args:
        path: the file.
        fmt: its format (None: from its name or content).
        options: the read options.
        allowed: False to read it here, when asked (a run of one process: ``--jobs 1``; its texts are then
            parsed once with those of the files read before, when ``options`` share a memo:
            :func:`~mrp.corpora.load.reading_together`).
    """

    def __init__(self, path: str, fmt: Optional[str] = None, options: Optional[ReadOptions] = None,
                 allowed: bool = True) -> None:
        self.path, self.format, self.options = path, fmt, options
        self._child: Optional[Child] = None
        #: the templates of the memo of texts this process reads with, as the child was forked with them
        self._templates: Dict[int, Graph] = {}
        # not standard input, a pipe or a device (read once, here)
        if allowed and os.path.isfile(path) and enabled():
            memo = options.memo if options is not None else None
            self._templates = memo.templates() if isinstance(memo, Repeats) else {}
            templates = self._templates
            self._child = Child(lambda: _read(path, fmt, options, templates))

    @property
    def ahead(self) -> bool:
        """Whether a child reads the file."""
        return self._child is not None

    def corpus(self) -> Corpus:
        """The corpus :func:`~mrp.corpora.load.read_corpus` gives for the file (raising what it raises)."""
        child, self._child = self._child, None
        found = child.result() if child is not None else None
        if found is None:  # not read ahead, or the child failed: read it here
            return read_corpus(self.path, self.format, self.options)
        kind, value, messages = found
        if kind == "corpus" and isinstance(value[2], PackedGraphs):
            try:
                value[2].resolve(self._templates)
            except KeyError:  # a template this process does not hold (never, but then: read it here)
                return read_corpus(self.path, self.format, self.options)
        if messages:
            sys.stderr.write(messages.decode("utf-8", "replace"))
            sys.stderr.flush()
        if kind == "error":
            raise value
        name, fmt, packed, errors, repaired = value
        corpus = Corpus(name, fmt, errors=errors, repaired=repaired)
        if isinstance(packed, PackedGraphs):
            corpus.graphs = packed
        else:
            with collector_paused():
                corpus.graphs = [unpack(data) for data in packed]
        return corpus

    def cancel(self) -> None:
        """Stop reading ahead (the child is killed)."""
        if self._child is not None:
            self._child.kill()
            self._child = None
