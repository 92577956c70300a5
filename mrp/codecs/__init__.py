"""The codec registry: one line per codec module, and what the package reads from it (readers, writers,
format inference from file names and content, the frameworks formats imply).

Each codec module (or package) under ``mrp.codecs`` declares ``CODEC``, a :class:`mrp.codecs.base.Codec`
holding its facts: the format names it reads or writes and the framework each implies, the file extensions
that name them, how to tell its content from the start of a file, the frameworks it brings, whether it
reads each text once.  Its ``read`` and ``write`` functions (where present) are its reader and writer.
Adding a codec: a module with its ``CODEC``, ``read`` and/or ``write``, and one line in :data:`CODECS`.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import os
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from mrp.codecs.base import Codec, Item, Reader, ReadOptions, Sniffer, WriteOptions, Writer, without_wiki
from mrp.codecs.repeats import KEPT
from mrp.errors import FormatError, InputError
from mrp.graph import FRAMEWORKS, Graph
from mrp.io.limits import ContentLimits, content_limits, limit_problem, plain_limits
from mrp.io.source import Line
from mrp.memo import Memo

__all__ = [
    "CODECS", "Codec", "Item", "ReadOptions", "WriteOptions", "Reader", "Writer",
    "reader", "writer", "formats", "readable", "frameworks", "infer_format", "implied_framework",
    "reads_texts_once", "reads_penman", "resolve_format", "sniff", "content_format", "read_one_line_penman",
]

#: The registry: one line per codec module, by its full name (its ``CODEC`` names its formats).  The order
#: is the order in which :func:`sniff` asks the codecs about a line (no two of them claim the same line).
CODECS: List[str] = [
    "mrp.codecs.mrp",
    "mrp.codecs.penman",  # amr
    "mrp.codecs.umr",
    "mrp.codecs.eds",
    "mrp.codecs.sdp",  # dm, psd, sdp
    "mrp.codecs.dot",
    "mrp.codecs.ucca",
    "mrp.codecs.conllu",  # conllu, ud, eud
    "mrp.codecs.triples",
    "mrp.codecs.generated",  # a language model's responses (--read generated)
]


@dataclass(frozen=True)
class _Table:
    """What the registry's modules declare, gathered: format -> (module, codec), extension -> format."""

    formats: Dict[str, Tuple[str, Codec]]
    extensions: Dict[str, str]
    codecs: Tuple[Codec, ...]
    #: the codecs' ``sniff``, in the registry's order (those of codecs without one left out)
    sniffers: Tuple[Sniffer, ...]


@functools.lru_cache(maxsize=4)
def _gathered(modules: Tuple[str, ...]) -> _Table:
    formats: Dict[str, Tuple[str, Codec]] = {}
    extensions: Dict[str, str] = {}
    codecs = []
    for name in modules:
        try:
            codec = importlib.import_module(name).CODEC
        except ModuleNotFoundError as error:
            if error.name == name:
                continue  # not in this installation: its formats are unknown
            raise
        if not isinstance(codec, Codec):
            raise TypeError(f"{name}.CODEC is not a mrp.codecs.base.Codec")
        codecs.append(codec)
        for fmt in codec.formats:
            if fmt in formats:
                raise ValueError(f"format '{fmt}' of {name} is already the format of {formats[fmt][0]}")
            formats[fmt] = (name, codec)
        for extension, fmt in codec.extensions.items():
            if fmt not in codec.formats or extension in extensions or extension != extension.lower():
                raise ValueError(f"{name}: extension {extension!r} -> {fmt!r} is not one of its own")
            extensions[extension] = fmt
    return _Table(formats, extensions, tuple(codecs),
                  tuple(codec.sniff for codec in codecs if codec.sniff is not None))


def _table() -> _Table:
    return _gathered(tuple(CODECS))


def formats() -> Dict[str, Optional[str]]:
    """Every format of the registry, in its order -> the framework it implies (None: the graphs say)."""
    return {name: codec.formats[name] for name, (_, codec) in _table().formats.items()}


def readable() -> List[str]:
    """The formats that can be read (the formats of codec modules with a ``read``)."""
    return [name for name in _table().formats if hasattr(_module(name), "read")]


def frameworks() -> Tuple[str, ...]:
    """Every framework known by name: :data:`mrp.graph.FRAMEWORKS`, then those the codecs bring."""
    brought = (name for codec in _table().codecs for name in codec.frameworks)
    return tuple(dict.fromkeys(itertools.chain(FRAMEWORKS, brought)))


def _module(name: str) -> ModuleType:
    """The codec module of a format; InputError for an unknown format."""
    found = _table().formats.get(name)
    if found is None:
        raise InputError(f"unknown format '{name}' (known: {', '.join(sorted(_table().formats))})")
    return importlib.import_module(found[0])


def implied_framework(name: str) -> Optional[str]:
    """The framework a format implies (dm, psd, eds, amr, ucca), or None (also for an unknown format)."""
    found = _table().formats.get(name)
    return None if found is None else found[1].formats[name]


def reads_texts_once(name: str) -> bool:
    """Whether a format's reader parses each distinct graph text once across every file read with one
    ``ReadOptions.memo`` (the codec's ``READS_TEXTS_ONCE``; :func:`mrp.corpora.load.reading_together`).

    Args:
        name: a format name of the registry (:func:`formats`).

    Returns:
        True for such a reader (Penman), False for one that parses every graph it reads.
    """
    _module(name)  # an unknown format is an InputError
    return _table().formats[name][1].reads_texts_once


def reads_penman(name: str) -> bool:
    """Whether a format's graphs are read from Penman text (AMR, triples, model output): SMATCH then counts
    the original tool's triples (the codec's ``CODEC.penman``); False for an unknown format."""
    found = _table().formats.get(name)
    return found is not None and found[1].penman


#: the readers made so far, by format (a library call reads a string or two: making one cost as much)
_READERS: Dict[str, Reader] = {}


def reader(name: str) -> Reader:
    """The reader of a format; InputError if the format cannot be read."""
    found = _READERS.get(name)
    if found is None:
        module = _module(name)
        if not hasattr(module, "read"):
            raise InputError(f"format '{name}' can be written but not read")
        found = _READERS[name] = _limited(module.read)
    return found


def _limited(read: Reader) -> Reader:
    """A reader whose graphs beyond a limit of :mod:`mrp.io.limits` become FormatErrors (``__wrapped__``:
    the codec's own reader).  A graph sharing the content of a text read before (``ReadOptions.memo``) has
    its content checked once; what depends on the graph alone (input, targets, version) is checked each
    time."""

    @functools.wraps(read)
    def limited(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
        memo = options.memo
        #: a text's serial number (mrp.codecs.repeats) -> what its content says of the limits
        checked: Memo[int, ContentLimits] = Memo(KEPT) if memo is None else memo.kept("content limits")
        for item in read(lines, name, options):
            if options.no_wiki and isinstance(item, Graph):  # the rule for every format, in one place
                item = without_wiki(item)
            if isinstance(item, FormatError):
                yield item
                continue
            serial = memo.serial(item) if memo is not None else None
            content = None if serial is None else checked.get(serial)
            if serial is not None and content is None:
                content = checked.keep(serial, content_limits(item))
            yield _within(item, name, content)

    return limited


def _within(graph: Graph, name: str, content: Optional[ContentLimits] = None) -> Item:
    """The graph, or a FormatError naming the first limit of :mod:`mrp.io.limits` it is beyond."""
    problem = limit_problem(graph, content)
    return graph if problem is None else FormatError(problem, name, graph.line, graph.id, graph.framework)


def read_one_line_penman(texts: Sequence[str], name: str, options: ReadOptions) -> Optional[List[Item]]:
    """What the reader of ``amr`` (:func:`reader`) gives for the lines of ``"\\n\\n".join(texts)`` when each
    text is one line holding one Penman graph in the plain grammar and nothing else (see
    :func:`mrp.codecs.penman.one_line_graphs`), read without joining them; None when one is not.

    Args:
        texts: the texts (each stripped of white space at both ends).
        name: the input's name (in messages).
        options: the read options (``memo`` is not read).

    Returns:
        The graphs in order, each a FormatError where a limit says so, or None.
    """
    from mrp.codecs.penman import one_line_graphs, unread

    graphs = one_line_graphs(texts, options)
    if graphs is None:
        return None
    # the rule of every format, in one place (a graph not built yet was read without its ``:wiki``); a graph
    # of the plain grammar holds strings and no anchors: only its counts can be beyond a limit (a graph not
    # built yet is within them)
    out: List[Item] = []
    for graph in graphs:
        if not unread(graph):
            if options.no_wiki:
                graph = without_wiki(graph)
            out.append(_within(graph, name, plain_limits(graph)))
        else:
            out.append(graph)
    return out


def writer(name: str) -> Writer:
    """The writer of a format; InputError if the format cannot be written."""
    module = _module(name)
    if not hasattr(module, "write"):
        raise InputError(f"format '{name}' can be read but not written")
    return module.write  # type: ignore[no-any-return]


def infer_format(path: str, default: Optional[str] = None) -> str:
    """The format named by a file's extension, else ``default``; InputError when neither."""
    _, extension = os.path.splitext(path.lower())
    extensions = _table().extensions
    if extension in extensions:
        return extensions[extension]
    if default is not None:
        return default
    raise InputError(
        f"{path}: cannot tell the format from the file name; name it with --format"
    )



#: how much of a file :func:`resolve_format` reads to tell its format from its content
SNIFF_BYTES = 1 << 16


def sniff(text: str) -> Optional[str]:
    """The format that the start of a file's text shows, or None when it shows none.

    The first telling line decides: each codec's ``CODEC.sniff`` is asked about each line that is not blank
    (with the lines after it), in the registry's order: a UMR mark (``# :: snt1``, ``# sentence level
    graph:``, a line of ``#``) is UMR; ``#SDP 2015``, or an id line ``#NUMBER`` followed by a tab-separated
    token line, SDP; a JSON object (``{"``) MRP; ``{`` and a top node's name (``{e3:``) EDS; ``(`` Penman
    (AMR); three tab-separated fields with a role in the middle, triples.  Comment lines (``#``) that no
    codec claims, and blank lines, are read past; any other line shows no format.
    """
    sniffers = _table().sniffers
    lines = text.splitlines()
    for k, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        for told in sniffers:
            found = told(stripped, itertools.islice(lines, k + 1, None))
            if found is not None:
                return found
        if not stripped.startswith("#"):
            return None
    return None


def resolve_format(path: str, given: Optional[str] = None, option: str = "--format",
                   default: str = "mrp") -> str:
    """The format of an input, by the one rule every command and the library follow.

    ``given`` (the command's option, or the library's ``format``) when there is one; else the format the
    file's extension names (:func:`infer_format`); else, for a file, the format its content shows
    (:func:`sniff`); a file without any graph text, and standard input (``-``), are ``default``.  InputError
    when the content shows no format, naming the option (``option``) that would tell it.
    """
    if given:
        return given
    _, extension = os.path.splitext(path.lower())
    extensions = _table().extensions
    if extension in extensions:
        return extensions[extension]
    text = _head(path)
    found = sniff(text or "")
    if found is not None:
        return found
    if text is None or not text.strip():
        return default  # standard input, or the reader says what is wrong (no graph, unreadable)
    raise InputError(f"{path}: cannot tell the format from the file name or its content; pass {option} "
                     f"FMT (one of {', '.join(sorted(readable()))})")


def content_format(path: str) -> Optional[str]:
    """The format the start of a file shows (:func:`sniff`), or None (standard input, or no format shown)."""
    return sniff(_head(path) or "")


def _head(path: str) -> Optional[str]:
    """The first :data:`SNIFF_BYTES` of a file as text; None for standard input or a file not readable."""
    if path == "-" or not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as stream:  # reading only: the head of the file
            return stream.read(SNIFF_BYTES).decode("utf-8-sig", "replace")
    except OSError:
        return None


if TYPE_CHECKING:
    from mrp.codecs.mrp import encode as encode
    from mrp.codecs.penman import Style as Style
    from mrp.codecs.umr import Document as Document
    from mrp.codecs.umr import document_items as document_items
    from mrp.codecs.umr import read_documents as read_documents

#: names of the format modules that the layers above use (the commands, the kit), each loaded on first use:
#: name -> (module under mrp.codecs, its name there)
_FORMAT_NAMES = {"encode": ("mrp", "encode"), "Style": ("penman", "Style"), "Document": ("umr", "Document"),
                 "document_items": ("umr", "document_items"), "read_documents": ("umr", "read_documents")}
__all__ += list(_FORMAT_NAMES)


def __getattr__(name: str) -> Any:
    """A format module's name of :data:`_FORMAT_NAMES`, without importing the module with the package."""
    if name in _FORMAT_NAMES:
        home, attribute = _FORMAT_NAMES[name]
        return getattr(importlib.import_module(f"mrp.codecs.{home}"), attribute)
    raise AttributeError(f"module 'mrp.codecs' has no attribute {name!r}")
