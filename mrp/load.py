"""Reading whole files into corpora: graphs read, graphs that could not be read, and text tables."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Dict, Iterator, Optional

from .codecs import ReadOptions, implied_framework, infer_format, reader
from .corpus import Corpus
from .errors import FormatError, InputError
from .source import Line, display_name, read_lines


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No garbage collection while a file is read (graphs hold no cycles; the collector would only walk
    the growing corpus again and again, about half the reading time), and the graphs read are then
    moved out of the collector's way for the rest of the run."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
        gc.freeze()


def read_corpus(path: str, fmt: Optional[str] = None, options: Optional[ReadOptions] = None) -> Corpus:
    """Read every graph of a file.

    Raises InputError for a file that cannot be used at all (missing, a
    directory, compressed, or holding no graph); a graph that cannot be read
    is recorded in ``errors`` and reading goes on.
    """
    fmt = fmt or infer_format(path, "mrp")
    options = options or ReadOptions()
    implied = implied_framework(fmt)
    if implied is not None and options.framework is None:
        options = ReadOptions(options.framework or implied, options.text, options.no_wiki, options.wsj_ids)
    name = display_name(path)
    corpus = Corpus(name, fmt)
    with _collector_paused():
        for item in reader(fmt)(read_lines(path), name, options):
            if isinstance(item, FormatError):
                corpus.errors.append(item)
            else:
                corpus.graphs.append(item)
    if not corpus.graphs and not corpus.errors:
        raise InputError(f"{name}: holds no graphs (empty, or only blank lines)")
    return corpus


def read_text(path: str) -> Dict[str, str]:
    """A table of input strings from `id<TAB>sentence` lines."""
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
