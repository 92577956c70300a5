"""Reading whole files into corpora: graphs read, graphs that could not be read, and text tables."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Callable, Dict, Iterable, List, Optional

from mrp.codecs import ReadOptions, content_format, implied_framework, reader, resolve_format
from mrp.codecs.repeats import Repeats, unshared
from mrp.corpora.corpus import Corpus, Repaired
from mrp.corpora.packed import PackedGraphs
from mrp.errors import FormatError, InputError
from mrp.graph import Graph
from mrp.io.source import Line, Source, display_name, read_lines
from mrp.process.collector import collector_paused

#: a corpus of more graphs than this keeps them packed (see mrp.corpora.packed): about 1 KB each instead of
#: about 14 KB of live objects, for about 40 microseconds to pack and as many to unpack a graph
PACK_AFTER = 5000


def read_corpus(path: str, fmt: Optional[str] = None, options: Optional[ReadOptions] = None,
                pack_after: Optional[int] = None, items: Optional[Iterable[Any]] = None) -> Corpus:
    """Read every graph of a file.

    Past ``pack_after`` graphs (default :data:`PACK_AFTER`), the corpus keeps its graphs packed
    (:class:`~mrp.corpora.packed.PackedGraphs`), packing each as it is read.  A graph text met again is
    read once (:mod:`mrp.codecs.repeats`): packed, its content is kept once; live, each graph gets its own
    copy.  The memo of texts is ``options.memo`` when that is a :class:`~mrp.codecs.repeats.Repeats`
    (:func:`reading_together`: a text read into an earlier corpus is not parsed again), else this read's own.

    Raises InputError for a file that cannot be used at all (missing, a
    directory, compressed, or holding no graph); a graph that cannot be read
    is recorded in ``errors`` and reading goes on; a graph read by a repair is kept and
    recorded in ``repaired`` too (with ``options.strict`` it is an error instead).  ``items``: the file's
    graphs and errors as its reader gives them, already read (a UMR file's parsed documents through
    :func:`mrp.codecs.umr.document_items`); the file is then not read again.
    """
    if os.path.isdir(path) and umr_files(path):
        return _umr_directory(path, options or ReadOptions())
    fmt = resolve_format(path, fmt)
    name = display_name(path)
    corpus = read_items(name, fmt, lambda given: reader(fmt)(Source(path), name, given) if items is None
                        else items, options or ReadOptions(), pack_after)
    if not corpus.graphs and not corpus.errors:
        raise InputError(f"{name}: holds no graphs (empty, or only blank lines)")
    if not corpus.graphs:
        shown = content_format(path)
        if shown not in (None, fmt) and not (fmt in ("dm", "psd") and shown == "sdp"):
            raise InputError(f"{name}: read as {fmt}, not one graph could be read, and its content looks "
                             f"like {shown}: name that format (--format {shown}; for a gold file, "
                             f"--gold-format {shown}; in Python, format='{shown}')")
    return corpus


def read_items(name: str, fmt: str, read: Callable[[ReadOptions], Iterable[Any]], options: ReadOptions,
               pack_after: Optional[int] = None) -> Corpus:
    """The one reading loop of every input (a file, or text and lists given to the library): a reader's
    graphs and errors gathered into a corpus, each graph read by a repair recorded in ``repaired`` (see
    :func:`read_corpus` for packing and the memo of texts).

    Args:
        name: the input's name (in messages).
        fmt: its format.
        read: the reader, given the read options to read with (the format's framework added, and a memo
            of texts).
        options: the read options.
        pack_after: keep the graphs packed past this many (default :data:`PACK_AFTER`).

    Returns:
        The corpus (possibly of no graph: the caller says why).
    """
    options = options or ReadOptions()
    implied = implied_framework(fmt)
    if implied is not None and options.framework is None:
        options = replace(options, framework=implied)
    corpus = Corpus(name, fmt)
    limit = PACK_AFTER if pack_after is None else pack_after
    memo = options.memo if isinstance(options.memo, Repeats) else Repeats()
    #: the memo outlives this read: no graph given live may be one of its templates or hold their objects
    given = memo is options.memo
    options = replace(options, memo=memo)
    graphs: List[Graph] = []
    #: per graph kept live, the position of the first graph whose content it shares (None: content of its
    #: own), and (given memo only) whether its content is a template's
    sharing: List[Optional[int]] = []
    templated: List[bool] = []
    first: Dict[int, int] = {}  # a template's serial -> the position of its first graph
    #: per graph kept live of content of its own read from a text, the digest of that text's key
    #: (Repeats.digest)
    digests: List[Optional[bytes]] = []
    packed: Optional[PackedGraphs] = None
    serial_of, digest_of, first_of = memo.serial, memo.digest, first.setdefault
    count = 0  # the graphs read so far
    with collector_paused():
        for item in read(options):
            if isinstance(item, FormatError):
                corpus.errors.append(item)
                continue
            serial = serial_of(item)
            if serial is None:
                same = digest = None
            else:
                same = first_of(serial, count)
                if same == count:
                    same, digest = None, digest_of(item)
                else:
                    digest = None
            count += 1
            if packed is not None:  # the graphs of a large corpus, each packed as it is read
                packed.append(item, same, digest)
            elif count > limit:
                packed = PackedGraphs()
                for graph, earlier, known in zip(graphs, sharing, digests):
                    packed.append(graph, earlier, known)
                packed.append(item, same, digest)
                graphs = []
            else:
                graphs.append(item)
                sharing.append(same)
                digests.append(digest)
                if given:
                    templated.append(serial is not None)
            if item.repairs:
                corpus.repaired.append(Repaired(name, item.line, item.id, tuple(item.repairs)))
    if packed is None:  # every graph kept live gets content of its own
        if given:  # and is not the template itself (a later read would copy what the caller changes)
            graphs = [unshared(_another(graph)) if held else graph for graph, held in zip(graphs, templated)]
        else:
            graphs = [graph if same is None else unshared(graph) for graph, same in zip(graphs, sharing)]
    corpus.graphs = graphs if packed is None else packed
    return corpus


def _another(graph: Graph) -> Graph:
    """A new graph object with the same fields (the same objects in them)."""
    copy = replace(graph)
    copy.flavor = graph.flavor  # as it is, even where the default would differ
    return copy


def reading_together(options: ReadOptions) -> ReadOptions:
    """The options with a memo of graph texts of their own (:class:`~mrp.codecs.repeats.Repeats`): the files
    :func:`read_corpus` reads with them parse each distinct text once between them (the two files of a
    testbed of random pairs of one collection hold the same texts), while no graph of one corpus shares an
    object with a graph of another.

    Args:
        options: the read options (any memo they hold is replaced).

    Returns:
        The options with a new, empty memo.
    """
    return replace(options, memo=Repeats())


def umr_files(path: str) -> List[str]:
    """The UMR files of a directory (one document or more each, as the UMR shared task ships them),
    sorted by name."""
    return sorted(name for name in os.listdir(path)
                  if name.lower().endswith(".umr") and not name.startswith(".")
                  and os.path.isfile(os.path.join(path, name)))


def _umr_directory(path: str, options: ReadOptions) -> Corpus:
    """The UMR files of a directory as one corpus: each graph id, and each document, prefixed with its
    file's name (``NAME/d1.s3``), so that the files of two directories pair by name."""
    corpus = Corpus(display_name(path), "umr")
    graphs: List[Graph] = []
    for name in umr_files(path):
        part = read_corpus(os.path.join(path, name), "umr", options, pack_after=1 << 62)
        for graph in part.graphs:
            graph.id = f"{name}/{graph.id}"
            if graph.document is not None:
                graph.document = replace(graph.document, document=f"{name}/{graph.document.document}")
            graphs.append(graph)
        for error in part.errors:
            if error.graph_id is not None:
                error.graph_id = f"{name}/{error.graph_id}"
            corpus.errors.append(error)
        corpus.repaired.extend(replace(item, graph_id=f"{name}/{item.graph_id}") for item in part.repaired)
    corpus.graphs = graphs
    return corpus


def read_text(path: str) -> Dict[str, str]:
    """A table of input strings from `id<TAB>sentence` lines, or from a directory of ``ID.txt`` files (one
    sentence each, as mtool reads them); a line that is not UTF-8 is a FormatError naming file and line."""
    if os.path.isdir(path):
        return _text_directory(path)
    name = display_name(path)
    table: Dict[str, str] = {}
    for line in read_lines(path):
        if isinstance(line, FormatError):
            raise line
        assert isinstance(line, Line)
        if not line.text.strip():
            continue
        gid, tab, text = line.text.partition("\t")
        if not tab:
            raise FormatError("expected 'id<TAB>sentence'", name, line.number)
        table[gid] = text
    if not table:
        raise InputError(f"{name}: holds no text lines")
    return table


def _text_directory(path: str) -> Dict[str, str]:
    """The ``ID.txt`` files of a directory as a table (each file's text without its last line break)."""
    table: Dict[str, str] = {}
    for entry in sorted(os.listdir(path)):
        if not entry.endswith(".txt"):
            continue
        lines = []
        for line in read_lines(os.path.join(path, entry)):
            if isinstance(line, FormatError):
                raise line
            lines.append(line.text)
        table[entry[:-4]] = "\n".join(lines).rstrip("\n")
    if not table:
        raise InputError(f"{display_name(path)}: holds no ID.txt files")
    return table
