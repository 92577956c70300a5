"""The gold held to the task's own rules, before any submission is scored.

Each gold file is validated at the level the task holds submissions to (:func:`check_gold`).  What the gold
fails is told to the organiser in one place (:attr:`GoldCheck.lines`, the organiser's log), and no
submission is held to a rule its gold breaks: a problem whose test (validate.py's test id, such as
``trailing-whitespace``) some gold file fails too is waived for every submission (:func:`waived`).  What the
reader said about the gold (its warnings, which quote the test set) goes to the organiser alone.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from mrp.corpora import Corpus
from mrp.task.definition import Task
from mrp.task.memo import EvaluationMemo
from mrp.task.reading import read_gold
from mrp.validation.problems import Problem

__all__ = ["GoldCheck", "Validated", "check_gold", "tagged", "test_of", "waived"]

#: a problem's test, as the UMR validator names it: ``[L1 Format trailing-whitespace]``
_TEST = re.compile(r"\[L\d+ [A-Za-z]+ ([A-Za-z0-9_.-]+)\]")
#: a file's validation: whether its problem is fatal, its problems' lines and each line's test id as the
#: validator tagged it (None: read from the line, :func:`test_of`)
Validated = Tuple[bool, List[str], List[Optional[str]]]
#: the marks a level check's message starts with (``[L1 Format trailing-whitespace]``) -> whether
#: :func:`test_of` reads its test there
_MARKS: Dict[str, bool] = {}


def test_of(problem: str) -> str:
    """The test id a problem line names (``""`` for none).

    Args:
        problem: one problem's line.

    Returns:
        The test id.
    """
    found = _TEST.search(problem)
    return found.group(1) if found else ""


def tagged(problem: Problem) -> Optional[str]:
    """The test id :func:`test_of` reads in the line of a level check's problem, known without reading it
    (:attr:`~mrp.validation.problems.Problem.test`; its message starts with its mark, and nothing before
    the message holds a bracket: the file, its line and the sentence id); None for another problem.

    Args:
        problem: the problem.

    Returns:
        The test id, or None (read it from the line).
    """
    if problem.test is None or problem.graph_id is not None or "[" in problem.where:
        return None
    mark = problem.message[:problem.message.find("]") + 1]
    known = _MARKS.get(mark)
    if known is None:
        found = _TEST.fullmatch(mark)
        known = _MARKS[mark] = found is not None and found.group(1) == problem.test
    return problem.test if known else None


@dataclass
class GoldCheck:
    """What the gold fails at the task's level, and what its reader said."""

    #: gold file name -> its problems at the task's level
    problems: Dict[str, List[str]] = field(default_factory=dict)
    #: the tests some gold file fails (waived for every submission)
    tests: FrozenSet[str] = frozenset()
    #: the reader's warnings about the gold files (they quote the gold: the organiser's alone)
    said: List[str] = field(default_factory=list)

    def lines(self, level: int) -> List[str]:
        """The organiser's report on the gold: per file its problems' count and first problems, and the
        tests no submission is held to."""
        out = [f"gold: {line}" for line in self.said]
        for name, problems in self.problems.items():
            out.append(f"gold {name} fails validation at level {level}: {len(problems)} problem(s), the "
                       f"first: {problems[0]}")
        if self.tests:
            out.append("gold: no submission is held to the test(s) the gold fails: "
                       + ", ".join(sorted(self.tests)))
        return out


def check_gold(task: Task, gold: Dict[str, str], memo: EvaluationMemo,
               problems: Callable[[str], Validated]) -> Tuple[Dict[str, Corpus], GoldCheck]:
    """Every gold file read (its reader's warnings kept for the organiser) and validated at the task's level.

    Args:
        task: the task.
        gold: the gold files by name.
        memo: the evaluation's memo.
        problems: a file's validation (whether fatal, its problems' lines, their test ids).

    Returns:
        The gold corpora by name, and the check.

    Raises:
        ScoreError: for a gold file that cannot be read.
    """
    check = GoldCheck()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        corpora = {name: read_gold(name, path, task, memo) for name, path in gold.items()}
    check.said = list(dict.fromkeys(str(warning.message) for warning in caught))
    tests: Set[str] = set()
    if task.level > 0:
        for name, path in gold.items():
            _, found, ids = problems(path)
            if found:
                lines = check.problems[name] = [line.replace(path, name) for line in found]
                # a name with a bracket comes before a test's mark: the test is read from the line
                tests.update(_tested(line, None if "[" in name else test) for line, test in zip(lines, ids))
    check.tests = frozenset(tests) - {""}
    return corpora, check


def waived(problems: Sequence[str], tests: FrozenSet[str], ids: Optional[Sequence[Optional[str]]] = None
           ) -> List[str]:
    """A submission's problems without those of the tests its gold fails.

    Args:
        problems: the problems' lines.
        tests: the tests the gold fails.
        ids: each line's test id as the validator tagged it (None, or an id None: read from the line).

    Returns:
        The problems the submission is held to.
    """
    if not tests:
        return list(problems)
    tags: Sequence[Optional[str]] = [None] * len(problems) if ids is None else ids
    return [line for line, test in zip(problems, tags) if _tested(line, test) not in tests]


def _tested(line: str, tag: Optional[str]) -> str:
    """A problem line's test: its tag (:func:`tagged`), or read from the line when it has none."""
    return test_of(line) if tag is None else tag
