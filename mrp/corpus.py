"""A corpus: the graphs read from one file, and the graphs that could not be read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List

from .errors import FormatError
from .graph import Graph

__all__ = ["Corpus"]


@dataclass
class Corpus:
    """The graphs of one file, in file order, and the graphs that could not be read."""

    name: str
    format: str
    graphs: List[Graph] = field(default_factory=list)
    errors: List[FormatError] = field(default_factory=list)
