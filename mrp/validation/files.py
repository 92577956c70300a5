"""Validating files: every graph read once, by its format's reader (MRP in collecting mode)."""

from __future__ import annotations

from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from mrp.codecs import ReadOptions, implied_framework, reader, resolve_format
from mrp.codecs.mrp import Checked, check
from mrp.errors import FormatError, InputError
from mrp.graph import Graph
from mrp.io.limits import limit_problems
from mrp.io.source import Line, display_name, read_lines
from mrp.validation.checks import content_problems, model_problems
from mrp.validation.common import Found
from mrp.validation.problems import Problem, Report
from mrp.validation.umr.state import Checks


class _Graphs:
    """What a file validation keeps across graphs: the report and the first line of each id."""

    def __init__(self, report: Report, framework: Optional[str], text: Optional[Mapping[str, str]],
                 keep: Optional[Sequence[str]]) -> None:
        self.report = report
        self.framework = framework
        self.text = text
        self.keep = set(keep) if keep else None
        self.first: Dict[Tuple[Optional[str], str], Optional[int]] = {}

    def skipped(self, framework: Optional[str]) -> bool:
        """True for a graph that selection leaves out."""
        return self.keep is not None and framework is not None and framework not in self.keep

    def line_problem(self, line: Optional[int], message: str, graph_id: Optional[str] = None) -> None:
        """A problem of a line that holds no graph, or of a graph that cannot be read at all."""
        self.report.problems.append(Problem(self.report.name, line, graph_id, "", message))

    def graph(self, graph: Graph, found: List[Found], *, rejected: bool, structure: bool) -> None:
        """Check one graph after the reader's problems ``found``.

        ``rejected``: the reader rejects it; ``structure``: references and lengths are still to check
        (the MRP reader's collecting mode checks them while decoding).
        """
        if self.skipped(graph.framework):
            return
        self.report.graphs += 1
        gid = graph.id if graph.id != "" else None
        found = list(found)
        if graph.framework is None and self.framework is not None:
            graph.framework = self.framework
        if gid is not None:
            found.extend(self._identity(graph))
        if structure:
            found.extend(model_problems(graph, self.framework))
        else:
            found.extend(content_problems(graph, self.framework))
        self.report.rejected += rejected
        self.report.flawed += bool(found)
        self.report.problems.extend(Problem(self.report.name, graph.line, gid, where, message)
                                    for where, message in found)

    def _identity(self, graph: Graph) -> List[Found]:
        """A duplicate id, and an input that differs from the text table."""
        found: List[Found] = []
        key = (graph.framework, graph.id)
        if key in self.first:
            first = self.first[key]
            found.append(("", "duplicate graph id" + (f" (first at line {first})" if first else "")))
        else:
            self.first[key] = graph.line
        expected = self.text.get(graph.id) if self.text is not None else None
        if expected is not None:
            if graph.input is None:
                graph.input = expected
            elif graph.input != expected:
                found.append(("", "'input' differs from the text given for this id"))
        return found


def _read_mrp(lines: Iterable[Union[Line, FormatError]], state: _Graphs) -> None:
    """Validate MRP JSON lines, read once by the MRP reader in collecting mode."""
    for item in check(lines, state.report.name, ReadOptions(state.framework), select=False):
        if isinstance(item, FormatError):
            state.report.unreadable_lines += 1
            state.line_problem(item.line, item.message)
            continue
        assert isinstance(item, Checked)
        limits = list(limit_problems(item.graph))
        state.graph(item.graph, item.problems + limits, rejected=item.rejected is not None or bool(limits),
                    structure=False)


def _read_other(fmt: str, options: ReadOptions, state: _Graphs,
                lines: Iterable[Union[Line, FormatError]]) -> None:
    """Validate the graphs of a non-MRP format as its reader reads them."""
    passed: List[FormatError] = []

    def watch() -> Iterator[Union[Line, FormatError]]:
        for item in lines:
            if isinstance(item, FormatError):
                passed.append(item)
            yield item

    for item in reader(fmt)(watch(), state.report.name, options):
        if isinstance(item, FormatError):
            if any(item is error for error in passed):
                state.report.unreadable_lines += 1
                state.line_problem(item.line, item.message)
            else:
                state.report.graphs += 1
                state.report.rejected += 1
                state.report.flawed += 1
                state.line_problem(item.line, item.message, item.graph_id)
        else:
            state.graph(item, [], rejected=False, structure=True)


class _Watched:
    """Numbered lines of a file, noting whether any non-blank line was UTF-8 text.

    A line holding NUL characters does not count as text: a UTF-16 file is
    valid UTF-8 after its byte-order mark, with a NUL beside every ASCII character.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.text = False
        self.undecodable = False

    def __iter__(self) -> Iterator[Union[Line, FormatError]]:
        for item in read_lines(self.path):
            if isinstance(item, FormatError) or "\x00" in item.text:
                self.undecodable = True
            elif item.text.strip():
                self.text = True
            yield item


def validate_file(path: str, fmt: Optional[str] = None, framework: Optional[str] = None,
                  text: Optional[Mapping[str, str]] = None, *, frameworks: Optional[Sequence[str]] = None,
                  no_wiki: bool = False, wsj_ids: bool = False, umr_level: int = 2,
                  strict: bool = False, umr_checks: Optional[Checks] = None,
                  umr_documents: Optional[List[Any]] = None) -> Report:
    """Validate every graph of a file (``-`` for stdin); never raises for bad input.

    ``fmt``: the format (default: from the extension, else mrp); ``framework``:
    the framework whose rules apply (default: each graph's own; for formats
    that name none it is the graph's framework); ``text``: id -> input string
    (anchors SDP/EDS; for MRP it is the expected ``input``); ``frameworks``:
    validate only graphs of these frameworks (mrp-score's selection);
    ``no_wiki``/``wsj_ids``: how AMR Penman is read; ``umr_level``: for UMR, the shared task validator's
    checks up to this level (0 none, 1 backbone, 2 format, 3 content; 4 and 5 as 3), with validate.py's
    relaxations ``umr_checks`` (``umr_documents``: the file's documents already parsed, see
    :func:`mrp.validation.umr.reading.validate_umr`); ``strict``: UMR files are read
    refusing what the reader would repair (otherwise a repair is a warning; the other formats are always
    read so, a repair being a problem).  A file that cannot be
    used (missing, a directory, compressed, no UTF-8 line, no graph) gives a
    report with ``fatal`` set and no problems.
    """
    name = display_name(path)
    try:
        fmt = resolve_format(path, fmt)
        if fmt == "umr":
            from mrp.validation.umr.reading import validate_umr

            return validate_umr(path, framework, umr_level, strict, umr_checks, umr_documents)
        report = Report(name, fmt)
        state = _Graphs(report, framework, text, frameworks)
        lines = _Watched(path)
        if fmt == "mrp":
            _read_mrp(lines, state)
        else:
            framework = framework or implied_framework(fmt)
            # a validator refuses what the scorer reads only by a repair (ReadOptions.strict)
            options = ReadOptions(framework, text, no_wiki, wsj_ids, strict=True)
            state.framework = framework
            state.text = None
            _read_other(fmt, options, state, lines)
    except (InputError, FormatError) as error:
        return Report(name, fmt or "?", fatal=str(error))
    if not lines.text:
        why = ("no line is UTF-8 text" if lines.undecodable
               else "holds no graphs (empty, or only blank lines)")
        return Report(name, fmt, fatal=f"{name}: {why}")
    return report


def validate_for_score(path: str, fmt: str, options: ReadOptions,
                       frameworks: Optional[Sequence[str]] = None) -> Report:
    """Validate a file as mrp-score reads it (its --format, read options and --framework selection).

    For ``mrp-score --validate``: print ``report.problems`` (one per line) and
    ``report.summary()`` on stderr, then score as usual; ``report.unreadable``
    means the scorer cannot read the file either.
    """
    return validate_file(path, fmt, options.framework, options.text, frameworks=frameworks,
                         no_wiki=options.no_wiki, wsj_ids=options.wsj_ids, strict=options.strict)
