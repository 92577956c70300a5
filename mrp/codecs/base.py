"""What every codec shares: read and write options, and the reader/writer signatures."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Iterator, Mapping, Optional, TextIO, Union

from ..errors import FormatError
from ..graph import Graph
from ..source import Line

Item = Union[Graph, FormatError]


@dataclass
class ReadOptions:
    """Options that change how a file is read.

    ``framework`` sets the framework of formats that do not name one and keeps
    only graphs of that framework in formats that do; ``text`` maps graph ids to
    input strings (for anchoring token-based formats).
    """

    framework: Optional[str] = None
    text: Optional[Mapping[str, str]] = None
    no_wiki: bool = False
    wsj_ids: bool = False


@dataclass
class WriteOptions:
    """Options that change how graphs are written.

    ``errors``: a scorer's --errors data (DOT colours differences); ``skipped``:
    called with the FormatError of each graph the format cannot represent, which
    is then left out (without it, the error is raised).
    """

    errors: Optional[Dict[str, Any]] = None
    skipped: Optional[Callable[[FormatError], None]] = None


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
