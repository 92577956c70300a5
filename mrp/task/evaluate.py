"""A whole evaluation: the gold read once, each submission unpacked safely, its files validated at the task's
level (``mrp-validate``'s own code) and paired by name, then scored with every metric of the task and
averaged as the task says."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import partial
from typing import Dict, List, Optional, Sequence, Tuple

from mrp.corpora import Corpus
from mrp.errors import InputError
from mrp.process.forked import Child, can_fork
from mrp.task.averaging import leaderboard_scores
from mrp.task.definition import Task
from mrp.task.files import FilePlan, Submission, gold_files, pair_files, submissions
from mrp.task.memo import Memo
from mrp.task.reading import parsed, read_gold, read_system
from mrp.task.scoring import Scored, score_submission
from mrp.task.unpack import unpack
from mrp.validation import validate_file

__all__ = ["Entry", "Evaluation", "evaluate", "groups_of"]

#: problems of a failing file quoted in the report
FIRST_PROBLEMS = 3


@dataclass
class Entry:
    """One submission: its files, what validation found, its scores (none when refused)."""

    submission: Submission
    plan: FilePlan = field(default_factory=FilePlan)
    #: file name -> the first problems of a file that failed validation
    invalid: Dict[str, List[str]] = field(default_factory=dict)
    #: files scored as empty (failed validation under policy "empty")
    emptied: List[str] = field(default_factory=list)
    refused: Optional[str] = None
    scored: Dict[str, Scored] = field(default_factory=dict)
    scores: Dict[str, float] = field(default_factory=dict)
    #: the system file scored for each gold file (None: empty)
    system: Dict[str, Optional[str]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The name the submission is shown under."""
        return self.submission.name


@dataclass
class Evaluation:
    """Every submission of one evaluation against one gold folder."""

    task: Task
    gold: Dict[str, str]
    groups: List[str]
    entries: List[Entry]
    corpora: Dict[str, Corpus] = field(default_factory=dict, repr=False)
    #: what the evaluation read and scored, by content (the detailed page reads the files again through it)
    memo: Memo = field(default_factory=Memo, repr=False)

    def scored(self) -> List[Entry]:
        """The submissions that have scores, official first, in argument order."""
        return [entry for entry in self.entries if not entry.refused and not entry.submission.status]


def groups_of(task: Task, corpora: Dict[str, Corpus]) -> List[str]:
    """The groups of the gold (languages by file name, or the frameworks of the graphs), sorted."""
    if task.group == "framework":
        return sorted({graph.framework or "none" for corpus in corpora.values() for graph in corpus.graphs})
    return sorted({task.group_of(name) for name in corpora})


#: the name a file is validated under when its report is kept for every file of the same content
_FILE = "\x00file\x00"


def _problems(task: Task, path: str, memo: Memo) -> Tuple[bool, List[str]]:
    """Whether a file's problem is fatal, and its problems' lines, naming the file ``_FILE`` (a UMR file
    parsed once for the validator and the scorer)."""
    report = validate_file(path, task.format, umr_level=task.level,
                           umr_documents=parsed(path, task.format, memo))
    texts = [report.fatal] if report.fatal else [str(problem) for problem in report.problems]
    return report.fatal is not None, [line.replace(path, _FILE) for line in texts]


def _validated(task: Task, entry: Entry, shown_as: Dict[str, str], memo: Memo) -> None:
    for gold_name, _, path in entry.plan.pairs:
        entry.system[gold_name] = path
        if path is None:
            continue
        digest = memo.digest(path)
        fatal, texts = memo.get("validated", None if digest is None else (digest, task.format, task.level),
                                partial(_problems, task, path, memo))
        if not texts:
            continue
        shown = [line.replace(_FILE, shown_as.get(path, path)) for line in texts]
        entry.invalid[gold_name] = shown[:FIRST_PROBLEMS] + \
            ([f"... {len(shown) - FIRST_PROBLEMS} more"] if len(shown) > FIRST_PROBLEMS else [])
        if task.policy == "refuse":
            entry.refused = f"{gold_name} fails validation at level {task.level}: {shown[0]}"
            return
        if task.policy == "empty" or fatal:
            entry.system[gold_name] = None
            entry.emptied.append(gold_name)


def _scored(task: Task, gold: Dict[str, str], corpora: Dict[str, Corpus], groups: List[str], entry: Entry,
            folder: str, memo: Memo) -> Entry:
    """One submission unpacked into ``folder``, validated, paired and scored (or refused)."""
    os.makedirs(folder, exist_ok=True)
    try:
        found = unpack(entry.submission.path, folder, task.limits)
    except InputError as error:
        entry.refused = str(error)
        return entry
    entry.plan = pair_files(task, gold, found.files)
    if entry.plan.refused:
        entry.refused = f"{entry.submission.path}: {entry.plan.refused}"
        return entry
    names = {found.files[base]: os.path.join(entry.submission.path, member)
             for base, member in found.members.items()}
    _validated(task, entry, names, memo)
    if entry.refused:
        return entry
    system, notes, found_keys = read_system(task, corpora, entry.system, memo)
    keys = {name: (memo.digest(path), found_keys[name]) for name, path in gold.items()}
    for spec in task.metrics:
        entry.scored[spec.key] = score_submission(task, spec, corpora, system, notes, memo, keys)
    entry.scores = leaderboard_scores(task, entry.scored, groups)
    return entry


def evaluate(task: Task, gold_folder: str, arguments: Sequence[str], workdir: str,
             jobs: int = 1, cache: bool = True) -> Evaluation:
    """Evaluate submissions (folders, ``.tgz``/``.tar.gz`` or ``.zip``) against a gold folder.

    Args:
        task: the task.
        gold_folder: the folder of gold files (named as the task's pattern says).
        arguments: the submissions (``TEAM=PATH`` names a team; see :mod:`mrp.task.files`).
        workdir: an empty folder the archives are unpacked into (kept by the caller while the evaluation's
            pages are drawn).
        jobs: submissions scored at once, each in a forked process (the same numbers as one at a time; a
            child that fails is scored again here).
        cache: read, validate and score each distinct file content (and pair of contents) once
            (:mod:`mrp.task.memo`; the same numbers and outputs as without).

    Returns:
        The evaluation: each submission's files, validation, refusal or scores.

    Raises:
        InputError: for a gold folder without gold files, or no submission.
        ScoreError: for a gold file that cannot be read.
    """
    if not arguments:
        raise InputError("no submission to evaluate")
    gold = gold_files(gold_folder, task)
    memo = Memo(enabled=cache)
    corpora = {name: read_gold(name, path, task, memo) for name, path in gold.items()}
    groups = groups_of(task, corpora)
    entries = [Entry(item) for item in submissions(arguments, task)]
    todo = [k for k, entry in enumerate(entries) if not entry.submission.status]
    folders = {k: os.path.join(workdir, str(k)) for k in todo}
    if jobs > 1 and len(todo) > 1:
        from mrp.pipeline import load_solver

        load_solver()  # the kernels loaded once, before the fork, not in every child
    if jobs > 1 and len(todo) > 1 and can_fork():
        running: Dict[int, Child] = {}
        pending = list(todo)
        while pending or running:
            while pending and len(running) < jobs:
                k = pending.pop(0)
                running[k] = Child(partial(_scored, task, gold, corpora, groups, entries[k], folders[k],
                                                  memo))
            k = next(iter(running))
            result = running.pop(k).result()
            entries[k] = result if isinstance(result, Entry) else \
                _scored(task, gold, corpora, groups, Entry(entries[k].submission), folders[k], memo)
    else:
        for k in todo:
            entries[k] = _scored(task, gold, corpora, groups, entries[k], folders[k], memo)
    return Evaluation(task, gold, groups, entries, corpora, memo)
