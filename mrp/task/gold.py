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
from typing import Callable, Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

from mrp.corpora import Corpus
from mrp.task.definition import Task
from mrp.task.memo import EvaluationMemo
from mrp.task.reading import read_gold
from mrp.validation.problems import Problem
from mrp.validation.umr.check import LevelProblem

__all__ = ["GoldCheck", "Validated", "check_gold", "kept", "left", "tagged", "test_of", "waived"]

#: a problem's test, as the UMR validator names it: ``[L1 Format trailing-whitespace]``
_TEST = re.compile(r"\[L\d+ [A-Za-z]+ ([A-Za-z0-9_.-]+)\]")


class Validated(NamedTuple):
    """A file's validation as the kit keeps it: whether its problem is fatal, each problem's test as the
    validator tagged it (:func:`tagged`; None: read from its line, :func:`test_of`), and the lines that can
    ever be read or shown (by the problem's position): every untagged problem's, and the first few of each
    test's (:func:`kept`).  A problem's line is made for those alone: a file of the release layout has
    hundreds of level-1 problems, of which a report quotes the first three its gold does not waive."""

    fatal: bool
    tags: List[Optional[str]]
    lines: Dict[int, str]


def kept(tags: Sequence[Optional[str]], first: Optional[int]) -> List[int]:
    """The positions of the problems whose lines a :class:`Validated` keeps: every untagged one, and the
    first ``first`` of each test (all: None).  The first N lines of the problems a set of waived tests leaves
    are among them for any N up to ``first`` (waiving drops a test's problems all together: a problem among
    the first N left has fewer than N of its own test before it).

    Args:
        tags: each problem's tag.
        first: how many of each test's problems are kept (None: all).

    Returns:
        The positions, in order.
    """
    if first is None:
        return list(range(len(tags)))
    seen: Dict[str, int] = {}
    out: List[int] = []
    for k, tag in enumerate(tags):
        if tag is not None:
            count = seen.get(tag, 0)
            if count >= first:
                continue
            seen[tag] = count + 1
        out.append(k)
    return out


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


def tagged(problem: Union[Problem, LevelProblem]) -> Optional[str]:
    """The test id :func:`test_of` reads in the line of a level check's problem, known without reading it
    (:attr:`~mrp.validation.problems.Problem.test`; its message starts with its mark, and nothing before
    the message holds a bracket: the file, its line and the sentence id); None for another problem.  A
    level check's problem as it was found (:func:`mrp.validation.umr.reading.umr_problems`) is tagged as
    its report's problem (:func:`mrp.validation.umr.reading.level_problem`) is, without making that.

    Args:
        problem: the problem.

    Returns:
        The test id, or None (read it from the line).
    """
    if isinstance(problem, LevelProblem):
        if problem.sentence and "[" in problem.sentence:
            return None
        facts = (problem.level, problem.kind, problem.test)
        known = _LEVELS.get(facts)
        if known is None:
            shown = f"[L{problem.level} {problem.kind} {problem.test}]"
            known = _LEVELS[facts] = _marked(shown[:shown.find("]") + 1], problem.test)
        return problem.test if known else None
    if problem.test is None or problem.graph_id is not None or "[" in problem.where:
        return None
    return problem.test if _marked(problem.message[:problem.message.find("]") + 1], problem.test) else None


#: a level check's (level, class, test) -> whether :func:`test_of` reads its test in its mark
_LEVELS: Dict[Tuple[int, str, str], bool] = {}


def _marked(mark: str, test: str) -> bool:
    """Whether :func:`test_of` reads ``test`` in a message that starts with ``mark`` (its text to the first
    ``]``)."""
    known = _MARKS.get(mark)
    if known is None:
        found = _TEST.fullmatch(mark)
        known = _MARKS[mark] = found is not None and found.group(1) == test
    return known


@dataclass
class GoldCheck:
    """What the gold fails at the task's level, and what its reader said."""

    #: gold file name -> its first problems at the task's level (those a report may quote)
    problems: Dict[str, List[str]] = field(default_factory=dict)
    #: gold file name -> how many problems it has at the task's level
    counts: Dict[str, int] = field(default_factory=dict)
    #: the tests some gold file fails (waived for every submission)
    tests: FrozenSet[str] = frozenset()
    #: the reader's warnings about the gold files (they quote the gold: the organiser's alone)
    said: List[str] = field(default_factory=list)

    def lines(self, level: int) -> List[str]:
        """The organiser's report on the gold: per file its problems' count and first problems, and the
        tests no submission is held to."""
        out = [f"gold: {line}" for line in self.said]
        for name, problems in self.problems.items():
            count = self.counts.get(name, len(problems))
            out.append(f"gold {name} fails validation at level {level}: {count} problem(s), the "
                       f"first: {problems[0]}")
        if self.tests:
            out.append("gold: no submission is held to the test(s) the gold fails: "
                       + ", ".join(sorted(self.tests)))
        return out


def check_gold(task: Task, gold: Dict[str, str], memo: EvaluationMemo,
               problems: Callable[..., Validated]) -> Tuple[Dict[str, Corpus], GoldCheck]:
    """Every gold file read (its reader's warnings kept for the organiser) and validated at the task's level.

    Args:
        task: the task.
        gold: the gold files by name.
        memo: the evaluation's memo.
        problems: a file's validation (its lines naming the file by the path given), called with the path;
            with ``whole=True`` too, every problem's line kept.

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
            found = problems(path)
            if found.tags:
                # a name with a bracket comes before a test's mark: each test is read from its line
                bracket = "[" in name
                if bracket:
                    found = problems(path, whole=True)
                lines = {k: line.replace(path, name) for k, line in found.lines.items()}
                check.problems[name] = [lines[k] for k in sorted(lines)]
                check.counts[name] = len(found.tags)
                tests.update(_tested(lines[k] if bracket or tag is None else "", None if bracket else tag)
                             for k, tag in enumerate(found.tags))
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
    tags: List[Optional[str]] = [None] * len(problems) if ids is None else list(ids)
    return left(Validated(False, tags, dict(enumerate(problems))), tests)[0]


def left(found: Validated, tests: FrozenSet[str], first: Optional[int] = None) -> Tuple[List[str], int]:
    """The lines of a file's problems that the tests its gold fails leave (:func:`waived`), the first
    ``first`` of them (all: None), and how many they are.

    Args:
        found: the file's validation (its lines kept for ``first``, :func:`kept`).
        tests: the tests the gold fails.
        first: how many lines are wanted (None: all).

    Returns:
        The lines, and the count.
    """
    tags, lines = found.tags, found.lines
    if not tests:
        return [lines[k] for k in range(len(tags) if first is None else min(first, len(tags)))], len(tags)
    out: List[str] = []
    count = 0
    for k, tag in enumerate(tags):
        if _tested(lines[k] if tag is None else "", tag) in tests:
            continue
        count += 1
        if first is None or len(out) < first:
            out.append(lines[k])
    return out, count


def _tested(line: str, tag: Optional[str]) -> str:
    """A problem line's test: its tag (:func:`tagged`), or read from the line when it has none."""
    return test_of(line) if tag is None else tag
