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
    """Options that change how graphs are written (``errors``: a scorer's --errors data, for DOT)."""

    errors: Optional[Dict[str, Any]] = None


#: A reader turns numbered lines into graphs, or FormatErrors for graphs that cannot be read.
Reader = Callable[[Iterable[Union[Line, FormatError]], str, ReadOptions], Iterator[Item]]
#: A writer writes graphs to a text stream.
Writer = Callable[[Iterable[Graph], TextIO, WriteOptions], None]
