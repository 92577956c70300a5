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

from typing import Dict, List, Optional, Sequence, Set, Tuple, Union

from mrp.codecs.base import ReadOptions
from mrp.codecs.umr import Document, read_documents
from mrp.errors import FormatError, InputError
from mrp.io.source import display_name
from mrp.validation.checks import validate_graph
from mrp.validation.problems import Problem, Report
from mrp.validation.umr.check import Checks, LevelProblem, check_levels
from mrp.validation.umr.own import placed, repaired


def _problem(error: FormatError) -> Problem:
    return Problem(error.file, error.line, error.graph_id, "", error.message)


def umr_reading(strict: bool = False) -> ReadOptions:
    """How the validator reads a UMR file: as the scorer reads it (framework umr), refusing repairs only with
    ``strict``.

    Args:
        strict: refuse what the reader would repair.

    Returns:
        The reading options.
    """
    return ReadOptions("umr", strict=strict)


def validate_umr(path: str, framework: Optional[str] = None, level: int = 2, strict: bool = False,
                 checks: Optional[Checks] = None, documents: Optional[List[Document]] = None) -> Report:
    """Validate a UMR file (``-`` for stdin); never raises for bad input.

    ``framework``: the framework whose rules apply to the graphs (default: umr); ``level``: the shared
    task validator's checks up to this level (0: none; 1 backbone, 2 format, 3 content), errors among the
    problems and its Warning class among the warnings; mrp's own problems of a higher level are warnings
    too (:mod:`mrp.validation.umr.own`).  What the reader repairs is a warning, or with ``strict`` refused
    (the graph is an error, and every own problem is one).  ``checks``: validate.py's relaxations.
    ``documents``: the file's documents already parsed as this reads them (:func:`umr_reading`), e.g. shared
    with the scorer's reading; the file is then parsed no more (validate.py's own checks still read it).
    """
    return _validated(path, framework, level, strict, checks, documents, False)[0]


#: a problem of :func:`umr_problems`: the report's own, or a level check's as it was found
Found = Union[Problem, LevelProblem]


def level_problem(name: str, checked: LevelProblem) -> Problem:
    """A level check's problem as the report of file ``name`` gives it.

    Args:
        name: the file's name in the report.
        checked: the level check's problem.

    Returns:
        The problem (its test named first in its message, ``[L1 Format trailing-whitespace] ...``).
    """
    return Problem(name, checked.line, None, checked.sentence or "",
                   f"[L{checked.level} {checked.kind} {checked.test}] {checked.message}", test=checked.test)


def umr_problems(path: str, level: int, documents: Optional[List[Document]] = None
                 ) -> Tuple[Report, Sequence[Found]]:
    """:func:`validate_umr`'s problems (the default checks, not strict) without a Problem made for each level
    check's (a file of the release layout has hundreds of them): the report (the reader's and the graphs'
    problems and warnings, none of the level checks') and every problem of :func:`validate_umr`'s report in
    its order, a level check's as it was found (:func:`level_problem` gives the report's).

    Args:
        path: the file.
        level: the shared task validator's checks up to this level.
        documents: the file's documents already parsed (:func:`umr_reading`).

    Returns:
        The report, and the problems.
    """
    return _validated(path, None, level, False, None, documents, True)


def _validated(path: str, framework: Optional[str], level: int, strict: bool, checks: Optional[Checks],
               documents: Optional[List[Document]], lean: bool) -> Tuple[Report, Sequence[Found]]:
    name = display_name(path)
    report = Report(name, "umr")
    if documents is None:
        try:
            documents = read_documents(path, umr_reading(strict))
        except (InputError, FormatError) as failure:
            return Report(name, "umr", fatal=str(failure)), []
    own_level = 0 if strict else level
    first: Dict[str, Optional[int]] = {}
    for document in documents:
        found: List[Tuple[Optional[str], Problem]] = []
        for error in document.errors:
            report.graphs += 1
            report.rejected += 1
            if error.graph_id is None:
                report.unreadable_lines += 1
            found.append((error.graph_id or f"line {error.line}", _problem(error)))
        for graph in document.graphs:
            report.graphs += 1
            own = validate_graph(graph, framework, file=name)
            if graph.id in first:
                where = first[graph.id]
                own.append(Problem(name, graph.line, graph.id, "",
                                   "duplicate graph id" + (f" (first at line {where})" if where else "")))
            else:
                first[graph.id] = graph.line
            found.extend((graph.id, problem) for problem in own)
            report.warnings.extend(repaired(name, graph.line, graph.id, repair)
                                   for repair in graph.repairs or [])
        found.extend((error.graph_id, _problem(error)) for error in document.problems)
        flawed: Set[Optional[str]] = set()
        for graph_id, problem in sorted(found, key=lambda item: item[1].line or 0):
            failing, shown = placed(problem, own_level)
            if failing:
                flawed.add(graph_id)
            (report.problems if failing else report.warnings).append(shown)
        report.flawed += len(flawed)
    if not report.graphs:
        return Report(name, "umr", fatal=f"{name}: holds no UMR sentences"), []
    if level > 0 and path != "-":
        try:
            found_levels = check_levels(path, level, name, checks)
        except (OSError, UnicodeError) as error:
            found_levels = []
            report.problems.append(Problem(name, None, None, "",
                                           f"the UMR validator's checks cannot read the file: {error}"))
        if lean:
            errors = [checked for checked in found_levels if checked.error]
            return report, sorted([*report.problems, *errors], key=lambda problem: problem.line or 0)
        for checked in found_levels:
            (report.problems if checked.error else report.warnings).append(level_problem(name, checked))
        report.problems.sort(key=lambda problem: problem.line or 0)
    return report, report.problems
