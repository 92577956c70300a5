"""Reading whole files into corpora: graphs read, graphs that could not be read, and text tables."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Tuple

from .codecs import ReadOptions, implied_framework, infer_format, reader
from .errors import EXCERPT, FormatError, InputError, excerpt
from .graph import Graph
from .source import Line, display_name, read_lines


@dataclass(frozen=True)
class Repaired:
    """A graph that its reader repaired, as the established tools do silently; ``str()`` is the
    warning line ``FILE:LINE: graph ID: repaired: ...``."""

    file: str
    line: Optional[int]
    graph_id: str
    repairs: Tuple[str, ...]

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: graph {excerpt(self.graph_id, 4 * EXCERPT)}: repaired: {'; '.join(self.repairs)}"


@dataclass
class Corpus:
    """The graphs of one file, in file order, the graphs that could not be read, and (among the
    graphs) those that were read only by a repair."""

    name: str
    format: str
    graphs: List[Graph] = field(default_factory=list)
    errors: List[FormatError] = field(default_factory=list)
    repaired: List[Repaired] = field(default_factory=list)


def read_corpus(path: str, fmt: Optional[str] = None, options: Optional[ReadOptions] = None) -> Corpus:
    """Read every graph of a file.

    Raises InputError for a file that cannot be used at all (missing, a
    directory, compressed, or holding no graph); a graph that cannot be read
    is recorded in ``errors`` and reading goes on; a graph read by a repair is kept and
    recorded in ``repaired`` too (with ``options.strict`` it is an error instead).
    """
    fmt = fmt or infer_format(path, "mrp")
    options = options or ReadOptions()
    implied = implied_framework(fmt)
    if implied is not None and options.framework is None:
        options = replace(options, framework=implied)
    name = display_name(path)
    corpus = Corpus(name, fmt)
    for item in reader(fmt)(read_lines(path), name, options):
        if isinstance(item, FormatError):
            corpus.errors.append(item)
        else:
            corpus.graphs.append(item)
            if item.repairs:
                corpus.repaired.append(Repaired(name, item.line, item.id, tuple(item.repairs)))
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
