"""An evaluation's files computed ahead in worker processes, file pair by file pair, into its memo.

The unit of work is a gold file with each submission's file of the same name: the gold file read and
validated, each system file validated and read, each pair scored under every metric of the task (the
metrics' runs on one pairing share its preparation).  :func:`mrp.process.shared.in_turn` shares the units
out over this process and forked children, the most costly first, so that every process stays busy to the
end; each process computes into a memo of its own that records what it computes (with the warnings each
computation gave), and the evaluation's memo :meth:`~mrp.task.memo.EvaluationMemo.adopt` takes it all.  The
evaluation then runs its steps as it does in one process (:mod:`mrp.task.evaluate`), finding each result
kept: the same results, messages and order whatever the number of processes.

A content is computed from the path the evaluation first reads it from (the gold before the submissions, in
the order given), as the evaluation would compute it.  Whatever a unit cannot compute (a file that cannot be
read or makes mrp fail internally, a process that fails) is left to the evaluation, which computes it as it
would have.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from mrp.corpora import Corpus
from mrp.process.shared import MAX_ITEMS, in_turn
from mrp.task.definition import Task
from mrp.task.gold import Validated
from mrp.task.memo import EvaluationMemo, Found, Slot
from mrp.task.reading import EMPTY, handed, read_file
from mrp.task.scoring import score_files_first

__all__ = ["Unit", "compute_ahead", "units_of"]

#: a file's validation at the task's level through a memo (:class:`~mrp.task.gold.Validated`)
Validation = Callable[[Task, str, EvaluationMemo], Validated]
#: a gold file's name and path, and the system file of each submission for it (None: none)
Unit = Tuple[str, str, Tuple[Optional[str], ...]]


def units_of(gold: Dict[str, str], plans: Sequence[Sequence[Tuple[str, str, Optional[str]]]]) -> List[Unit]:
    """The units of an evaluation: per gold file, its path and each submission's file for it.

    Args:
        gold: the gold files by name.
        plans: per submission (in order) its pairs (gold name, gold path, system path or None).

    Returns:
        The units, in gold order.
    """
    system: Dict[str, List[Optional[str]]] = {name: [] for name in gold}
    for pairs in plans:
        for name, _, path in pairs:
            if name in system:
                system[name].append(path)
    return [(name, path, tuple(system[name])) for name, path in gold.items()]


def _firsts(units: Sequence[Unit], memo: EvaluationMemo) -> Dict[str, str]:
    """The path each content is first read from by the evaluation: the gold files in order, then the
    submissions' files, submission by submission."""
    first: Dict[str, str] = {}
    paths = [path for _, path, _ in units]
    width = max((len(files) for _, _, files in units), default=0)
    for k in range(width):
        paths.extend(path for _, _, files in units if k < len(files) for path in files[k:k + 1] if path)
    for path in paths:
        digest = memo.digest(path)
        if digest is not None:
            first.setdefault(digest, path)
    return first


def _size(path: Optional[str]) -> int:
    try:
        return os.path.getsize(path) if path else 0
    except OSError:
        return 0


def _unit(task: Task, memo: EvaluationMemo, first: Dict[str, str], unit: Unit, validation: Validation
          ) -> Set[str]:
    """A unit computed into the memo; returns the contents whose reading or validation failed."""
    name, gold_path, files = unit
    gold_digest = memo.digest(gold_path)
    if gold_digest is None:
        return set()
    try:
        gold, _ = read_file(first[gold_digest], task.format, memo)
        if task.level > 0:
            validation(task, first[gold_digest], memo)
    except Exception:  # noqa: BLE001 - left to the evaluation, which reports it
        return {gold_digest}
    if gold.errors:  # the evaluation refuses this gold: nothing to score
        return set()
    failed: Set[str] = set()
    for path in files:
        system: Corpus = Corpus(name, task.format)
        key: Optional[str] = EMPTY
        if path is not None:
            digest = memo.digest(path)
            if digest is None:
                continue
            try:
                fatal = validation(task, first[digest], memo)[0]
                if fatal and task.policy == "refuse":  # the submission is refused: nothing to score
                    continue
                if not fatal:  # read and scored as it is, even where problems may empty or refuse it (the
                    # evaluation then scores an empty file itself): they are mostly the gold's own, waived
                    system, key = read_file(first[digest], task.format, memo)
            except Exception:  # noqa: BLE001 - left to the evaluation, which reports it
                failed.add(digest)
                continue
        try:
            score_files_first(task, {name: gold}, {name: system}, memo, {name: (gold_digest, key)})
        except Exception:  # noqa: BLE001 - left to the evaluation (the pair, computed there, fails there)
            continue
    return failed


def _kept(found: Dict[Slot, Found], failed: Set[str], first: Dict[str, str]) -> Dict[Slot, Found]:
    """What a unit computed, without anything of a content whose reading or validation failed (the
    evaluation then computes that content as it would have, from the start), each file read handed over
    without its graphs (:func:`mrp.task.reading.handed`: the evaluation reads again the few it uses)."""
    def clean(slot: Slot) -> bool:
        key: Any = slot[1]
        return not (isinstance(key, tuple) and any(isinstance(k, str) and k in failed for k in key[:2]))

    kept: Dict[Slot, Found] = {}
    for slot, (result, said) in found.items():
        if not clean(slot):
            continue
        kind, key = slot
        if kind == "read" and isinstance(key, tuple) and key[0] in first:
            corpus, told = result
            result = (handed(corpus, first[key[0]], key[1]), told)
        kept[slot] = (result, said)
    return kept


class _Worker:
    """What each process computes its units into: a memo of its own (made in the process that first uses
    it), recording what each unit computes with the warnings it gave (which are not given here)."""

    def __init__(self, task: Task, digests: Dict[str, Optional[str]], first: Dict[str, str],
                 units: Sequence[Unit], validation: Validation) -> None:
        self.task, self.digests, self.first, self.units = task, digests, first, units
        self.validation = validation
        self.memos: Dict[int, EvaluationMemo] = {}

    def __call__(self, k: int) -> Dict[Slot, Found]:
        memo = self.memos.get(os.getpid())
        if memo is None:
            memo = self.memos[os.getpid()] = EvaluationMemo()
            memo.knows(self.digests)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # each is kept with its computation and given by the evaluation
            with memo.recording() as found:
                failed = _unit(self.task, memo, self.first, self.units[k], self.validation)
        return _kept(found, failed, self.first)


def compute_ahead(task: Task, gold: Dict[str, str], plans: Sequence[Sequence[Tuple[str, str, Optional[str]]]],
                  memo: EvaluationMemo, jobs: int, validation: Validation) -> None:
    """Every file and file pair of an evaluation computed in ``jobs`` processes (this one and forked
    children) into the evaluation's memo.

    Args:
        task: the task.
        gold: the gold files by name.
        plans: per submission to be scored (in order) its pairs (gold name, gold path, system path or None).
        memo: the evaluation's memo (disabled: nothing done).
        jobs: the processes.
        validation: a file's validation at the task's level, kept in the memo it is given (the one the
            evaluation's steps take).
    """
    units = units_of(gold, plans)
    if not memo.enabled or not units or len(units) > MAX_ITEMS:
        return
    first = _firsts(units, memo)
    cost = [_size(path) + sum(_size(item) for item in files) for _, path, files in units]
    order = sorted(range(len(units)), key=lambda k: (-cost[k], k))
    ordered = [units[k] for k in order]
    in_turn(len(ordered), jobs, _Worker(task, memo.digests(), first, ordered, validation), memo.adopt)
