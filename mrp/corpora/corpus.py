"""A corpus: the graphs read from one file, and the graphs that could not be read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from mrp.errors import EXCERPT, FormatError, excerpt
from mrp.graph import Graph

__all__ = ["Corpus", "Repaired"]


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
    graphs) those that were read only by a repair (``repaired``, one warning each)."""

    name: str
    format: str
    #: a list, or for a large corpus a :class:`~mrp.corpora.packed.PackedGraphs` (each graph unpacked on
    #: access)
    graphs: Sequence[Graph] = field(default_factory=list)
    errors: List[FormatError] = field(default_factory=list)
    repaired: List[Repaired] = field(default_factory=list)
