"""mrp's own UMR problems placed among the shared task validator's levels.

mrp's UMR reader finds problems of its own (a graph that cannot be read, an alignment of no variable, a
relation end that is no variable, a label outside UMR's document-level inventories, sentence numbers out of
order).  Under ``--umr-level L`` such a problem is an error only when validate.py checks the same thing at
level L or below: reading problems at level 2 (the UMR format), inventory labels at level 3 (content).
Sentence numbering is checked by validate.py at no level.  The others are reported as warnings, so that a
file validate.py passes at level L passes ``mrp-validate --umr-level L`` too.
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

from mrp.validation.problems import Problem

#: the messages of :func:`mrp.codecs.umr.annotation.label_problem` (labels outside the inventories)
_LABEL = re.compile(r"is not a document-level relation list \(|is not a [a-z]+ relation \(known: ")
#: the reader's message for a gap in sentence numbers
_NUMBERING = re.compile(r"^sentence number \d+ does not follow \d+")
#: how a repair names its line (``... (line 13)``)
_REPAIR_LINE = re.compile(r"^(.*) \(line (\d+)\)$")


def own_level(message: str) -> Optional[int]:
    """The validate.py level at which mrp's own UMR problem ``message`` is an error (2 reading, 3 labels),
    or None for what validate.py checks at no level."""
    if _NUMBERING.search(message):
        return None
    return 3 if _LABEL.search(message) else 2


def placed(problem: Problem, level: int) -> Tuple[bool, Problem]:
    """(is it an error, the problem as reported) under ``--umr-level level`` (0: every problem an error)."""
    if level == 0:
        return True, problem
    at = own_level(problem.message)
    if at is not None and at <= level:
        return True, problem
    note = f"warning (level {at})" if at is not None else "warning (no validate.py level)"
    return False, Problem(problem.file, problem.line, problem.graph_id, problem.where,
                          f"{note}: {problem.message}")


def repaired(file: str, line: Optional[int], graph_id: str, repair: str) -> Problem:
    """A warning for one repair of the reader, at the line the repair names (else the graph's line)."""
    found = _REPAIR_LINE.match(repair)
    if found:
        repair, line = found.group(1), int(found.group(2))
    return Problem(file, line, graph_id, "", f"repaired: {repair}")
