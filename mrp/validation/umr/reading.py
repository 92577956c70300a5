"""Validation of UMR files: every problem the UMR reader finds, the checks of every graph, and the shared
task validator's checks up to a level (:mod:`mrp.validation.umr.check`).

The reader's problems (see :mod:`mrp.codecs.umr`): sentences that cannot be
read (Penman syntax, a variable defined twice, ...), alignment lines that name
no variable or hold a span outside the sentence, document-level annotations
that cannot be read, relation ends that are neither a variable of this or an
earlier sentence nor a special node, labels outside UMR's inventories, sentence
numbers out of order.  Each kept graph also gets :func:`mrp.validation.validate_graph`.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from mrp.codecs.umr import read_documents
from mrp.errors import FormatError, InputError
from mrp.io.source import display_name
from mrp.validation.files import validate_graph
from mrp.validation.problems import Problem, Report
from mrp.validation.umr.check import check_levels


def _problem(error: FormatError) -> Problem:
    return Problem(error.file, error.line, error.graph_id, "", error.message)


def validate_umr(path: str, framework: Optional[str] = None, level: int = 2) -> Report:
    """Validate a UMR file (``-`` for stdin); never raises for bad input.

    ``framework``: the framework whose rules apply to the graphs (default: umr); ``level``: the shared
    task validator's checks up to this level (0: none; 1 backbone, 2 format, 3 content), errors among the
    problems and its Warning class among the warnings.
    """
    name = display_name(path)
    report = Report(name, "umr")
    try:
        documents = read_documents(path)
    except (InputError, FormatError) as failure:
        return Report(name, "umr", fatal=str(failure))
    first: Dict[str, Optional[int]] = {}
    for document in documents:
        found: List[Problem] = []
        flawed: set = set()
        for error in document.errors:
            report.graphs += 1
            report.rejected += 1
            if error.graph_id is None:
                report.unreadable_lines += 1
            found.append(_problem(error))
        for graph in document.graphs:
            report.graphs += 1
            own = validate_graph(graph, framework, file=name)
            if graph.id in first:
                where = first[graph.id]
                own.append(Problem(name, graph.line, graph.id, "",
                                   "duplicate graph id" + (f" (first at line {where})" if where else "")))
            else:
                first[graph.id] = graph.line
            if own:
                flawed.add(graph.id)
            found.extend(own)
        for error in document.problems:
            flawed.add(error.graph_id)
            found.append(_problem(error))
        report.flawed += len(flawed) + len(document.errors)
        found.sort(key=lambda problem: problem.line or 0)
        report.problems.extend(found)
    if not report.graphs:
        return Report(name, "umr", fatal=f"{name}: holds no UMR sentences")
    if level > 0 and path != "-":
        try:
            checks = check_levels(path, level, name)
        except (OSError, UnicodeError) as error:
            checks = []
            report.problems.append(Problem(name, None, None, "",
                                           f"the UMR validator's checks cannot read the file: {error}"))
        for checked in checks:
            item = Problem(name, checked.line, None, checked.sentence or "",
                           f"[L{checked.level} {checked.kind} {checked.test}] {checked.message}")
            (report.problems if checked.error else report.warnings).append(item)
        report.problems.sort(key=lambda problem: problem.line or 0)
    return report
