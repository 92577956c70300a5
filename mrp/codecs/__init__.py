"""The codec registry: format name -> reader and writer, and format inference from file names."""

from __future__ import annotations

import functools
import importlib
import os
import re
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, Optional, Tuple, Union

from mrp.codecs.base import Item, Reader, ReadOptions, WriteOptions, Writer, without_wiki
from mrp.codecs.repeats import KEPT
from mrp.errors import FormatError, InputError
from mrp.graph import Graph
from mrp.io.limits import ContentLimits, content_limits, limit_problem
from mrp.io.source import Line
from mrp.memo import Memo

__all__ = [
    "FORMATS", "Item", "ReadOptions", "WriteOptions", "Reader", "Writer",
    "reader", "writer", "infer_format", "implied_framework", "reads_texts_once", "resolve_format", "sniff",
    "content_format",
]

#: format name -> (module or package under mrp.codecs, framework it implies or None)
FORMATS: Dict[str, Tuple[str, Optional[str]]] = {
    "mrp": ("mrp", None),
    "amr": ("penman", "amr"),
    "umr": ("umr", "umr"),
    "eds": ("eds", "eds"),
    "dm": ("sdp", "dm"),
    "psd": ("sdp", "psd"),
    "sdp": ("sdp", None),
    "dot": ("dot", None),
    "ucca": ("ucca", "ucca"),
    # CoNLL-U: mtool's conllu and ud read the basic tree, eud the enhanced graph (DEPS)
    "conllu": ("conllu", "ud"),
    "ud": ("conllu", "ud"),
    "eud": ("conllu", "eud"),
}

_EXTENSIONS = {
    ".mrp": "mrp",
    ".amr": "amr",
    ".penman": "amr",
    ".umr": "umr",
    ".eds": "eds",
    ".sdp": "sdp",
    ".dm": "dm",
    ".psd": "psd",
    ".dot": "dot",
    ".gv": "dot",
    ".xml": "ucca",
    ".conllu": "conllu",
    ".conll": "conllu",
}


def _module(name: str):  # type: ignore[no-untyped-def]
    if name not in FORMATS:
        raise InputError(f"unknown format '{name}' (known: {', '.join(sorted(FORMATS))})")
    module, _ = FORMATS[name]
    try:
        return importlib.import_module(f"{__name__}.{module}")
    except ModuleNotFoundError as error:
        if error.name == f"{__name__}.{module}":
            raise InputError(f"format '{name}' is not available in this version") from None
        raise


def implied_framework(name: str) -> Optional[str]:
    """The framework a format implies (dm, psd, eds, amr, ucca), or None."""
    return FORMATS.get(name, (None, None))[1]


def reads_texts_once(name: str) -> bool:
    """Whether a format's reader parses each distinct graph text once across every file read with one
    ``ReadOptions.memo`` (the codec's ``READS_TEXTS_ONCE``; :func:`mrp.corpora.load.reading_together`).

    Args:
        name: a format name of :data:`FORMATS`.

    Returns:
        True for such a reader (Penman), False for one that parses every graph it reads.
    """
    return bool(getattr(_module(name), "READS_TEXTS_ONCE", False))


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
            problem = limit_problem(item, content)
            if problem is None:
                yield item
            else:
                assert isinstance(item, Graph)
                yield FormatError(problem, name, item.line, item.id, item.framework)

    return limited


def writer(name: str) -> Writer:
    """The writer of a format; InputError if the format cannot be written."""
    module = _module(name)
    if not hasattr(module, "write"):
        raise InputError(f"format '{name}' can be read but not written")
    return module.write  # type: ignore[no-any-return]


def infer_format(path: str, default: Optional[str] = None) -> str:
    """The format named by a file's extension, else ``default``; InputError when neither."""
    _, extension = os.path.splitext(path.lower())
    if extension in _EXTENSIONS:
        return _EXTENSIONS[extension]
    if default is not None:
        return default
    raise InputError(
        f"{path}: cannot tell the format from the file name; name it with --format"
    )



#: how much of a file :func:`resolve_format` reads to tell its format from its content
SNIFF_BYTES = 1 << 16
_UMR_MARK = re.compile(r"#\s*::\s*snt\d|#\s*sentence level graph\s*:|#{20,}\s*$")
_JSON_OBJECT = re.compile(r"\{\s*(\"|\})")
_EDS_TOP = re.compile(r"\{\s*[^\W\d]\w*\s*:")


def sniff(text: str) -> Optional[str]:
    """The format that the start of a file's text shows, or None when it shows none.

    The first telling line decides: a UMR mark (``# :: snt1``, ``# sentence level graph:``, a line of
    ``#``) is UMR; ``#SDP 2015``, or an id line ``#NUMBER`` followed by a tab-separated token line, SDP; a
    JSON object (``{"``) MRP; ``{`` and a top node's name (``{e3:``) EDS; ``(`` Penman (AMR).  Comment
    lines (``#``) and blank lines are read past.
    """
    lines = text.splitlines()
    for k, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        if _UMR_MARK.match(stripped):
            return "umr"
        if stripped.startswith("#SDP"):
            return "sdp"
        if stripped.startswith("{"):
            if _JSON_OBJECT.match(stripped):
                return "mrp"
            return "eds" if _EDS_TOP.match(stripped) else None
        if stripped.startswith("("):
            return "amr"
        if re.fullmatch(r"#\d+", stripped):
            following = next((rest for rest in lines[k + 1:] if rest.strip()), "")
            if re.match(r"\d+\t", following):
                return "sdp"
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
    if extension in _EXTENSIONS:
        return _EXTENSIONS[extension]
    text = _head(path)
    found = sniff(text or "")
    if found is not None:
        return found
    if text is None or not text.strip():
        return default  # standard input, or the reader says what is wrong (no graph, unreadable)
    raise InputError(f"{path}: cannot tell the format from the file name or its content; pass {option} "
                     f"FMT (one of {', '.join(sorted(name for name in FORMATS if name != 'dot'))})")


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
