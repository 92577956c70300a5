"""What every codec shares: read and write options, and the reader/writer signatures."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Iterable, Iterator, Mapping, Optional, TextIO, Tuple, Union

from mrp.errors import FormatError
from mrp.graph import Graph
from mrp.io.source import Line

Item = Union[Graph, FormatError]


class Bad(Exception):
    """A problem in one graph while it is read (internal to the codecs; the reader turns it into
    a FormatError naming its file, line and graph id)."""

    def __init__(self, message: str, line: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class Unwritable(Exception):
    """A graph that a format cannot represent (internal to the codecs; see :func:`cannot_write`)."""


#: Characters that end a line for some reader (``str.splitlines`` and line-based tools).
_LINE_BREAK = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def id_line_safe(gid: str, forbidden: Tuple[str, ...] = ()) -> str:
    """A graph id for a ``#id``-style line, unchanged; Unwritable when it would not read back as
    itself: empty, with a line break (it would inject lines), with white space at either end, or
    holding one of ``forbidden`` (text that the format's reader takes as syntax)."""
    text = str(gid)
    if not text:
        raise Unwritable("graph id is empty")
    if _LINE_BREAK.search(text):
        raise Unwritable(f"graph id {text!r} holds a line break")
    if text != text.strip():
        raise Unwritable(f"graph id {text!r} starts or ends with white space")
    for bad in forbidden:
        if bad in text:
            raise Unwritable(f"graph id {text!r} holds {bad!r}")
    return text


def cannot_write(graph: Graph, format_name: str, error: Exception) -> FormatError:
    """The FormatError of a graph that cannot be written in a format."""
    return FormatError(f"cannot be written as {format_name}: {error}", graph_id=graph.id,
                       framework=graph.framework)


@dataclass
class ReadOptions:
    """Options that change how a file is read.

    ``framework`` sets the framework of formats that do not name one and keeps
    only graphs of that framework in formats that do; ``text`` maps graph ids to
    input strings (for anchoring token-based formats).  A reader repairs what the
    established tools repair silently (listing it in ``Graph.repairs``); with
    ``strict`` it refuses such a graph instead.
    """

    framework: Optional[str] = None
    text: Optional[Mapping[str, str]] = None
    no_wiki: bool = False
    wsj_ids: bool = False
    #: refuse (as a FormatError) a graph that the reader could only read by repairing it
    strict: bool = False
    #: Penman (AMR): keep each graph's text to write it again as it was while unchanged (mrp.read and
    #: mrp-convert ask for it; the scorers do not pay for it)
    keep: bool = False
    #: CoNLL-U read as its basic tree: give the sentence's enhanced graph (DEPS) too, as a graph of framework
    #: ``eud`` with the same id after its ``ud`` graph, where DEPS holds anything (mrp-convert asks for it:
    #: this is how MRP carries both; the CoNLL-U writer joins the two again)
    companions: bool = False
    #: read as mtool reads (mrp-mtool, the drop-in): an MRP graph with a duplicate node id is kept (the later
    #: node under a fresh id, as no edge or top of mtool's can name it), SDP without a text table is read
    #: unanchored, and CoNLL-U's words of multiword tokens and empty nodes get an empty anchor list (which
    #: mtool's statistics count as anchored); each such graph lists what was read so in ``Graph.repairs``
    mtool: bool = False
    #: Penman (AMR): a :class:`mrp.codecs.repeats.Repeats` through which graphs of a text already read
    #: share its graph's content (given by mrp.corpora.load, which packs or copies them; never compared: it
    #: changes no graph)
    memo: Optional[Any] = field(default=None, compare=False, repr=False)


def without_wiki(graph: Graph) -> Graph:
    """The graph without its ``:wiki`` constants (``ReadOptions.no_wiki``: node properties named ``wiki``,
    their per-property anchors and their branches in the Penman layout); the graph itself when it has
    none.  Every reader applies it (:func:`mrp.codecs.reader`), and so does the library to graph objects."""
    if not any("wiki" in node.properties for node in graph.nodes):
        return graph
    nodes = []
    for node in graph.nodes:
        if "wiki" not in node.properties:
            nodes.append(node)
            continue
        kept = [k for k, name in enumerate(node.properties) if name != "wiki"]
        anchorings = node.anchorings
        if anchorings is not None and len(anchorings) == len(node.properties):
            anchorings = [anchorings[k] for k in kept]
        nodes.append(replace(node, properties=[node.properties[k] for k in kept],
                             values=[node.values[k] for k in kept], anchorings=anchorings))
    layout = graph.layout
    if layout is not None:
        layout = {k: [branch for branch in branches if branch[0] != "wiki" or isinstance(branch[1], int)]
                  for k, branches in layout.items()}
    return replace(graph, nodes=nodes, layout=layout)


@dataclass
class WriteOptions:
    """Options that change how graphs are written.

    ``errors``: a scorer's --errors data (DOT colours differences); ``skipped``:
    called with the FormatError of each graph the format cannot represent, which
    is then left out (without it, the error is raised).
    """

    errors: Optional[Dict[str, Any]] = None
    skipped: Optional[Callable[[FormatError], None]] = None
    #: Penman (AMR): penman's layout options (mrp.codecs.penman.Style); None: each graph as its file
    #: wrote it while unchanged, else indented by 6
    penman: Any = None


def write_blocks(graphs: Iterable[Graph], out: TextIO, options: WriteOptions,
                 format_graph: Callable[[Graph], str], header: str = "", separator: str = "\n\n") -> None:
    """Write an optional header line, then each graph's text followed by ``separator``."""
    if header:
        out.write(header + "\n")
    for graph in graphs:
        try:
            text = format_graph(graph)
        except FormatError as error:
            if options.skipped is None:
                raise
            options.skipped(error)
            continue
        out.write(text)
        out.write(separator)


#: A reader turns numbered lines into graphs, or FormatErrors for graphs that cannot be read.
Reader = Callable[[Iterable[Union[Line, FormatError]], str, ReadOptions], Iterator[Item]]
#: A writer writes graphs to a text stream.
Writer = Callable[[Iterable[Graph], TextIO, WriteOptions], None]


#: A codec's test of a line at the start of a file (the lines after it given too): the format the line shows,
#: or None when it shows none of the codec's formats.
Sniffer = Callable[[str, Iterable[str]], Optional[str]]


@dataclass(frozen=True)
class Codec:
    """The facts of a codec, which its module declares as ``CODEC`` (the registry, :mod:`mrp.codecs`, reads
    them; the module's ``read`` and ``write``, where present, are its reader and writer).

    Args:
        formats: each format name the codec reads or writes -> the framework that format implies (None:
            the graphs say, or ``--framework``).
        extensions: file extensions (lower case, with the dot) -> the format they name.
        sniff: the test of a file's first telling line (:func:`mrp.codecs.sniff`), or None when the
            codec's content is never told from its text.
        frameworks: frameworks the codec brings that :data:`mrp.graph.FRAMEWORKS` does not name -> their
            MRP flavor (0 bilexical, 1 anchored, 2 unanchored).
        reads_texts_once: the reader parses each distinct graph text once across every file read with
            one ``ReadOptions.memo`` (:func:`mrp.codecs.reads_texts_once`).
        penman: the graphs are read from Penman text (SMATCH counts the original tool's triples on them:
            :func:`mrp.codecs.reads_penman`).
    """

    formats: Mapping[str, Optional[str]]
    extensions: Mapping[str, str] = field(default_factory=dict)
    sniff: Optional[Sniffer] = None
    frameworks: Mapping[str, int] = field(default_factory=dict)
    reads_texts_once: bool = False
    penman: bool = False
