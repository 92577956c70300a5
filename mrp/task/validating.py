"""A file validated at the task's level (``mrp-validate``'s own code), once per distinct content: the gold
by :func:`mrp.task.gold.check_gold`, each submission's files by :mod:`mrp.task.evaluate`, ahead of both in
worker processes by :mod:`mrp.task.pool` (one computation, kept in the evaluation's memo)."""

from __future__ import annotations

from functools import partial
from typing import List, Tuple

from mrp.task.definition import Task
from mrp.task.memo import EvaluationMemo
from mrp.task.reading import parsed
from mrp.validation import validate_file

__all__ = ["FILE", "validation"]

#: the name a file is validated under when its report is kept for every file of the same content
FILE = "\x00file\x00"


def _problems(task: Task, path: str, memo: EvaluationMemo) -> Tuple[bool, List[str]]:
    """Whether a file's problem is fatal, and its problems' lines, naming the file ``FILE`` (a UMR file
    parsed once for the validator and the scorer)."""
    report = validate_file(path, task.format, umr_level=task.level,
                           umr_documents=parsed(path, task.format, memo))
    texts = [report.fatal] if report.fatal else [str(problem) for problem in report.problems]
    return report.fatal is not None, [line.replace(path, FILE) for line in texts]


def validation(task: Task, path: str, memo: EvaluationMemo) -> Tuple[bool, List[str]]:
    """A file validated at the task's level, once per content (kept in the memo under the file's digest,
    the format and the level).

    Args:
        task: the task.
        path: the file.
        memo: the evaluation's memo.

    Returns:
        Whether the file's problem is fatal, and its problems' lines naming the file :data:`FILE`.
    """
    digest = memo.digest(path)
    key = None if digest is None else (digest, task.format, task.level)
    return memo.get("validated", key, partial(_problems, task, path, memo))
