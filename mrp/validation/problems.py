"""A problem found in a file, and the report of one file."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from mrp.validation.common import plural


@dataclass
class Problem:
    """One problem: where it is (file, line, graph, node/edge) and what is wrong.

    ``where`` is ``"node N"``, ``"nodes[K]"``, ``"edge K"``, ``"top N"`` or ``""``
    (the whole graph, or a line holding no graph).
    """

    file: Optional[str]
    line: Optional[int]
    graph_id: Optional[str]
    where: str
    message: str
    #: the UMR validator's test id of a level check's problem, which its message names first (``[L1 Format
    #: trailing-whitespace] ...``); None for any other problem
    test: Optional[str] = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        """``FILE:LINE: graph ID: WHERE: message``, leaving out the parts that are unknown.

        A lone surrogate (from a JSON escape) is shown as its escape, so the line can be printed.
        """
        parts = []
        if self.file is not None:
            parts.append(self.file if self.line is None else f"{self.file}:{self.line}")
        elif self.line is not None:
            parts.append(f"line {self.line}")
        if self.graph_id is not None:
            parts.append(f"graph {self.graph_id}")
        if self.where:
            parts.append(self.where)
        text = ": ".join(parts + [self.message])
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass
class Report:
    """The result of validating one file.

    ``graphs``: graph objects found (including the ones that cannot be read);
    ``flawed``: graphs with at least one problem; ``rejected``: graphs the
    reader rejects (mrp-score scores them as empty graphs); ``unreadable_lines``:
    lines that hold no graph (not UTF-8, not JSON, not a JSON object);
    ``fatal``: why the file could not be validated at all, or None.
    """

    name: str
    format: str
    problems: List[Problem] = field(default_factory=list)
    #: what is reported but fails nothing (the UMR validator's Warning class)
    warnings: List[Problem] = field(default_factory=list)
    graphs: int = 0
    flawed: int = 0
    rejected: int = 0
    unreadable_lines: int = 0
    fatal: Optional[str] = None

    @property
    def unreadable(self) -> bool:
        """True when the file could not be opened or decoded at all."""
        return self.fatal is not None

    @property
    def clean(self) -> bool:
        """True when the file was read and has no problem."""
        return self.fatal is None and not self.problems

    def summary(self) -> str:
        """``FILE: N graphs, K problems in M graphs[ (R cannot be read)][, U unreadable lines]``.

        Or the fatal error.  R counts the graphs that mrp-score cannot read (it
        scores them as empty graphs, or refuses them as gold).
        """
        if self.fatal is not None:
            return self.fatal
        text = f"{self.name}: {plural(self.graphs, 'graph')}, "
        warned = f", {plural(len(self.warnings), 'warning')}" if self.warnings else ""
        if not self.problems:
            return text + "no problems" + warned
        text += f"{plural(len(self.problems), 'problem')} in {plural(self.flawed, 'graph')}"
        if self.rejected:
            text += f" ({self.rejected} cannot be read)"
        if self.unreadable_lines:
            text += f", {plural(self.unreadable_lines, 'unreadable line')}"
        return text + warned
