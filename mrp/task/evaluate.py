"""A whole evaluation: the gold read once, each submission unpacked safely, its files validated at the task's
level (``mrp-validate``'s own code) and paired by name, then scored with every metric of the task and
averaged as the task says."""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple, Type

from mrp.corpora import Corpus
from mrp.errors import FormatError, InputError
from mrp.io.source import display_name
from mrp.process.forked import can_fork
from mrp.task.averaging import leaderboard_scores
from mrp.task.definition import Task
from mrp.task.files import FilePlan, Submission, gold_files, pair_files, submissions
from mrp.task.gold import GoldCheck, Validated, check_gold, kept, left, tagged
from mrp.task.memo import EvaluationMemo
from mrp.task.pool import compute_ahead
from mrp.task.reading import parsed, read_system
from mrp.task.scoring import Scored, score_files_first, score_submission
from mrp.task.unpack import as_compared, unpack
from mrp.validation import Report, validate_file
from mrp.validation.umr.check import LevelProblem
from mrp.validation.umr.reading import Found, level_problem, umr_problems

__all__ = ["Entry", "Evaluation", "evaluate_submissions", "groups_of", "internal"]

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
    #: gold file name -> the system file's name as submitted (its member name in the archive or folder)
    members: Dict[str, str] = field(default_factory=dict)
    #: gold file name -> what the reader repaired in the system file (one line each, named as submitted)
    repaired: Dict[str, List[str]] = field(default_factory=dict)
    #: what reading and scoring the files said (each once, naming the files as submitted)
    messages: List[str] = field(default_factory=list)
    #: the system files with a byte order mark or CRLF line ends (read as compare_umr.pl reads them)
    newlines: List[str] = field(default_factory=list)
    #: path of each unpacked file -> its name as submitted (while the submission is scored)
    shown: Dict[str, str] = field(default_factory=dict, repr=False)
    #: unpacked and paired already (:func:`opened`), and the warnings that gave
    opened: bool = field(default=False, repr=False)
    said: List[Tuple[Type[Warning], str]] = field(default_factory=list, repr=False)

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
    memo: EvaluationMemo = field(default_factory=EvaluationMemo, repr=False)
    #: what the gold fails at the task's level and what its reader said (the organiser's alone)
    gold_check: GoldCheck = field(default_factory=GoldCheck)

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


def _problems(task: Task, path: str, memo: EvaluationMemo, first: Optional[int] = FIRST_PROBLEMS
              ) -> Validated:
    """Whether a file's problem is fatal, its problems' test ids as the validator tagged them, and the lines
    of those a report may quote (:func:`mrp.task.gold.kept`: ``first`` of each test, None: all), naming the
    file ``_FILE`` (a UMR file parsed once for the validator and the scorer; its level checks' problems
    made into the report's lines only for those quoted, :func:`mrp.validation.umr.reading.umr_problems`)."""
    documents = parsed(path, task.format, memo)
    found: Sequence[Found]
    if task.format == "umr":
        try:
            report, found = umr_problems(path, task.level, documents)
        except (InputError, FormatError) as error:  # as validate_file reports it
            report, found = Report(display_name(path), "umr", fatal=str(error)), []
    else:
        report = validate_file(path, task.format, umr_level=task.level, umr_documents=documents)
        found = report.problems
    if report.fatal:
        return Validated(True, [None], {0: report.fatal.replace(path, _FILE)})
    tags = [tagged(problem) for problem in found]
    lines = {}
    for k in kept(tags, first):
        problem = found[k]
        shown = level_problem(report.name, problem) if isinstance(problem, LevelProblem) else problem
        lines[k] = str(shown).replace(path, _FILE)
    return Validated(False, tags, lines)


def _validation(task: Task, path: str, memo: EvaluationMemo) -> Validated:
    """:func:`_problems`, once per distinct content (a gold file and a team's copy of it alike)."""
    digest = memo.digest(path)
    key = None if digest is None else (digest, task.format, task.level)
    return memo.get("validated", key, partial(_problems, task, path, memo))


def _gold_problems(task: Task, path: str, memo: EvaluationMemo, whole: bool = False) -> Validated:
    """:func:`_validation` of a gold file, its lines naming it by its path (as the gold check names it);
    ``whole``: every problem's line (computed again)."""
    found = _problems(task, path, memo, None) if whole else _validation(task, path, memo)
    return Validated(found.fatal, found.tags,
                     {k: line.replace(_FILE, path) for k, line in found.lines.items()})


def _validated(task: Task, entry: Entry, shown_as: Dict[str, str], memo: EvaluationMemo,
               tests: FrozenSet[str]) -> None:
    for gold_name, _, path in entry.plan.pairs:
        entry.system[gold_name] = path
        if path is None:
            continue
        try:
            found = _validation(task, path, memo)
        except Exception as error:  # noqa: BLE001 - the validator's own failure refuses this submission alone
            entry.refused = f"{gold_name}: {internal(error, 'validating')}"
            return
        fatal = found.fatal
        texts, count = left(found, tests, FIRST_PROBLEMS)
        if not count:
            continue
        shown = [line.replace(_FILE, shown_as.get(path, path)) for line in texts]
        entry.invalid[gold_name] = shown + \
            ([f"... {count - FIRST_PROBLEMS} more"] if count > FIRST_PROBLEMS else [])
        if task.policy == "refuse":
            entry.refused = f"{gold_name} fails validation at level {task.level}: {shown[0]}"
            return
        if task.policy == "empty" or fatal:
            entry.system[gold_name] = None
            entry.emptied.append(gold_name)


def internal(error: BaseException, doing: str) -> str:
    """The refusal of a submission whose file made mrp fail internally (one line, the error named)."""
    text = " ".join(str(error).split())[:200]
    return (f"mrp failed internally while {doing} it ({type(error).__name__}: {text}); the submission is "
            "refused, the others are scored (please report this file to mrp's developers)")


def _scored(task: Task, gold: Dict[str, str], corpora: Dict[str, Corpus], groups: List[str], entry: Entry,
            folder: str, memo: EvaluationMemo, tests: FrozenSet[str] = frozenset()) -> Entry:
    """One submission unpacked into ``folder``, validated, paired and scored, or refused (for anything
    unsafe, and for any internal failure while reading, validating or scoring its files)."""
    try:
        return _attempt(task, gold, corpora, groups, entry, folder, memo, tests)
    except Exception as error:  # noqa: BLE001 - one submission never stops the others
        failed = Entry(entry.submission, plan=entry.plan, invalid=entry.invalid, emptied=entry.emptied)
        failed.refused = internal(error, "scoring")
        return failed


def _renamer(gold: Dict[str, str], paths: Dict[str, str]) -> Callable[[str], str]:
    """A message with every path of the evaluation's files (temporary copies, the gold folder) replaced by
    the file's name as submitted (or the gold file's name), longest path first."""
    swaps = sorted({**{path: name for name, path in gold.items()}, **paths}.items(),
                   key=lambda item: -len(item[0]))

    def renamed(text: str) -> str:
        for path, name in swaps:
            text = text.replace(path, name)
        return text
    return renamed


def _attempt(task: Task, gold: Dict[str, str], corpora: Dict[str, Corpus], groups: List[str], entry: Entry,
             folder: str, memo: EvaluationMemo, tests: FrozenSet[str]) -> Entry:
    memo.begin_submission()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        done = _steps(task, gold, corpora, groups, entry, folder, memo, tests)
    renamed = _renamer(gold, {path: member for path, member in done.shown.items()})
    done.messages = list(dict.fromkeys(renamed(str(warning.message)) for warning in caught))
    done.repaired = {name: [renamed(line) for line in lines] for name, lines in done.repaired.items()}
    for found in done.scored.values():
        found.notes = list(dict.fromkeys(renamed(note) for note in found.notes))
    done.shown = {}
    return done


def opened(task: Task, gold: Dict[str, str], entry: Entry, folder: str) -> Entry:
    """A submission unpacked into ``folder`` and its files paired with the gold files (or refused), the
    first of its steps; its other steps then take it as it is.

    Args:
        task: the task.
        gold: the gold files by name.
        entry: the submission (changed).
        folder: an empty folder its files are unpacked into.

    Returns:
        The entry.
    """
    entry.opened = True
    os.makedirs(folder, exist_ok=True)
    try:
        found = unpack(entry.submission.path, folder, task.limits)
    except InputError as error:
        entry.refused = str(error)
        return entry
    entry.newlines = as_compared(found, folder)
    entry.plan = pair_files(task, gold, found.files)
    if entry.plan.refused:
        entry.refused = f"{entry.submission.path}: {entry.plan.refused}"
        return entry
    entry.shown = {found.files[base]: member for base, member in found.members.items()}
    entry.members = {name: entry.shown[path] for name, _, path in entry.plan.pairs if path is not None}
    return entry


def _steps(task: Task, gold: Dict[str, str], corpora: Dict[str, Corpus], groups: List[str], entry: Entry,
           folder: str, memo: EvaluationMemo, gold_tests: FrozenSet[str]) -> Entry:
    if not entry.opened:
        opened(task, gold, entry, folder)
    for category, message in entry.said:  # what unpacking it said, when it was unpacked ahead
        warnings.warn(message, category, stacklevel=2)
    if entry.refused:
        return entry
    _validated(task, entry, entry.shown, memo, gold_tests)
    if entry.refused:
        return entry
    system, notes, found_keys = read_system(task, corpora, entry.system, memo)
    entry.repaired = {name: [str(line) for line in corpus.repaired] for name, corpus in system.items()
                      if corpus.repaired}
    keys = {name: (memo.digest(path), found_keys[name]) for name, path in gold.items()}
    score_files_first(task, corpora, system, memo, keys)
    for spec in task.metrics:
        entry.scored[spec.key] = score_submission(task, spec, corpora, system, notes, memo, keys)
    entry.scores = leaderboard_scores(task, entry.scored, groups)
    return entry


def evaluate_submissions(task: Task, gold_folder: str, arguments: Sequence[str], workdir: str,
                         jobs: int = 1, cache: bool = True) -> Evaluation:
    """Evaluate submissions (folders, ``.tgz``/``.tar.gz`` or ``.zip``) against a gold folder.

    Args:
        task: the task.
        gold_folder: the folder of gold files (named as the task's pattern says).
        arguments: the submissions (``TEAM=PATH`` names a team; see :mod:`mrp.task.files`).
        workdir: an empty folder the archives are unpacked into (kept by the caller while the evaluation's
            pages are drawn).
        jobs: processes (this one and forked children) that read, validate and score the files ahead, file
            pair by file pair, into the memo (:mod:`mrp.task.pool`; with ``cache``), before the steps run
            here: the same results, messages and outputs whatever the number (what a child does not
            compute is computed here).
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
    memo = EvaluationMemo(enabled=cache)
    ahead = jobs > 1 and cache and can_fork()
    if ahead:
        try:
            items = submissions(arguments, task)
        except InputError:  # the gold's own failure first, as without the processes
            check_gold(task, gold, memo, partial(_gold_problems, task, memo=memo))
            raise
    corpora, check = (({}, GoldCheck()) if ahead else
                      check_gold(task, gold, memo, partial(_gold_problems, task, memo=memo)))
    entries = [Entry(item) for item in (items if ahead else submissions(arguments, task))]
    todo = [k for k, entry in enumerate(entries) if not entry.submission.status]
    folders = {k: os.path.join(workdir, str(k)) for k in todo}
    if ahead:
        for k in todo:
            entries[k] = _opened_ahead(task, gold, entries[k], folders[k])
        from mrp.pipeline import load_solver

        load_solver()  # the kernels loaded once, before the fork, not in every child
        compute_ahead(task, gold, [entries[k].plan.pairs for k in todo if not entries[k].refused], memo, jobs,
                      _validation)
        corpora, check = check_gold(task, gold, memo, partial(_gold_problems, task, memo=memo))
    groups = groups_of(task, corpora)
    for k in todo:
        entries[k] = _scored(task, gold, corpora, groups, entries[k], folders[k], memo, check.tests)
    return Evaluation(task, gold, groups, entries, corpora, memo, check)


def _opened_ahead(task: Task, gold: Dict[str, str], entry: Entry, folder: str) -> Entry:
    """A submission unpacked and paired before its files are computed ahead (:mod:`mrp.task.pool`), as
    :func:`_scored` would: refused for an internal failure; the warnings given are given again by its
    steps."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            opened(task, gold, entry, folder)
        except Exception as error:  # noqa: BLE001 - one submission never stops the others
            failed = Entry(entry.submission, plan=entry.plan, invalid=entry.invalid, emptied=entry.emptied,
                           opened=True)
            failed.refused = internal(error, "scoring")
            return failed
    entry.said = [(warning.category, str(warning.message)) for warning in caught]
    return entry
