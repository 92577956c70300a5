"""Which submissions count, and which system file goes with which gold file.

Submissions (the arguments of ``mrp-evaluate``): ``TEAM=PATH`` names the team; a folder holding only archives
is one team's submissions (the team is the folder's name, each archive a submission whose id is its name
without the extension); any other folder or archive is one submission of the team named by it.  Per team the
**official** submission is the latest one whose id does not start with the task's ``secondary`` prefix;
"latest" is the newest modification time of the archive or folder, ties broken by the later id in code-point
order (name archives ``2026-02-27-1.tgz`` when times may not survive a copy).  Earlier non-secondary
submissions are superseded (listed, not scored); secondary ones are scored and shown as unofficial.

Files pair by name (:func:`pair_files`): the task's ``case`` rule, a gold file without a system file
(``missing``: scored as empty, or the submission refused) and a system file without a gold file (``extra``:
listed and ignored, or the submission refused).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from mrp.errors import InputError
from mrp.task.definition import Task
from mrp.task.unpack import ARCHIVES, archive_stem

__all__ = ["FilePlan", "Submission", "gold_files", "pair_files", "submissions"]


@dataclass
class Submission:
    """One submission: its team, id, where it is, whether it is the team's official one."""

    team: str
    id: str
    path: str
    official: bool = True
    #: "superseded" (an earlier non-secondary submission: not scored) or "" (scored)
    status: str = ""

    @property
    def name(self) -> str:
        """The name it is shown under: the team, or ``TEAM (ID)`` for an unofficial one."""
        return self.team if self.official else f"{self.team} ({self.id})"


def _archives(path: str) -> Optional[List[str]]:
    """The archives of a folder holding archives only (a team's submissions), else None."""
    if not os.path.isdir(path) or os.path.islink(path):
        return None
    names = sorted(name for name in os.listdir(path) if not name.startswith("."))
    if names and all(name.lower().endswith(ARCHIVES) and os.path.isfile(os.path.join(path, name))
                     for name in names):
        return [os.path.join(path, name) for name in names]
    return None


def _order(path: str, ident: str) -> Tuple[float, str]:
    try:
        when = os.lstat(path).st_mtime
    except OSError:
        when = 0.0
    return when, ident


def submissions(arguments: Sequence[str], task: Task) -> List[Submission]:
    """The submissions named on the command line, each marked official, unofficial or superseded.

    Raises:
        InputError: for an empty team name.
    """
    found: List[Submission] = []
    for argument in arguments:
        team: Optional[str] = None
        path = argument
        if "=" in argument and not os.path.exists(argument):
            team, path = argument.split("=", 1)
            if not team.strip():
                raise InputError(f"{argument}: an empty team name")
        inside = _archives(path)
        if inside is not None:
            name = team or os.path.basename(os.path.normpath(path))
            found.extend(Submission(name, archive_stem(item), item) for item in inside)
        else:
            stem = archive_stem(path)
            found.append(Submission(team or stem, stem, path))
    by_team: Dict[str, List[Submission]] = {}
    for item in found:
        by_team.setdefault(item.team, []).append(item)
    for items in by_team.values():
        primary = [item for item in items if not item.id.startswith(task.secondary)]
        latest = max(primary, key=lambda item: _order(item.path, item.id)) if primary else None
        for item in items:
            if item.id.startswith(task.secondary):
                item.official = False
            elif item is not latest and latest is not None:
                item.official, item.status = False, "superseded"
    names = [item.name for item in found if not item.status]
    if len(set(names)) != len(names):
        raise InputError(f"two submissions would be shown under the same name: "
                         f"{', '.join(sorted({n for n in names if names.count(n) > 1}))}")
    return found


def gold_files(folder: str, task: Task) -> Dict[str, str]:
    """The gold files of a folder: every regular file whose name fits the task's pattern, by name.

    Raises:
        InputError: for a missing folder or one without a gold file.
    """
    if not os.path.isdir(folder):
        raise InputError(f"{folder}: the gold folder does not exist")
    found = {name: os.path.join(folder, name) for name in sorted(os.listdir(folder))
             if task.matches(name) and os.path.isfile(os.path.join(folder, name))}
    if not found:
        raise InputError(f"{folder}: no gold file fits the task's pattern {task.pattern!r}")
    return found


@dataclass
class FilePlan:
    """Gold files with their system files (None: missing), and the system files that pair with none."""

    pairs: List[Tuple[str, str, Optional[str]]] = field(default_factory=list)
    missing: List[str] = field(default_factory=list)
    extra: List[str] = field(default_factory=list)
    refused: Optional[str] = None


def _key(task: Task, name: str) -> str:
    return name.lower() if task.case == "insensitive" else name


def pair_files(task: Task, gold: Dict[str, str], system: Dict[str, str]) -> FilePlan:
    """Each gold file with the system file of the same name (by the task's ``case`` rule).

    The plan is ``refused`` (one line) when the task refuses a missing or extra file, or when two system
    files have the same name under the case rule.
    """
    plan = FilePlan()
    by_key: Dict[str, str] = {}
    for name in sorted(system):
        key = _key(task, name)
        if key in by_key:
            plan.refused = f"files '{by_key[key]}' and '{name}' have the same name when case is ignored"
            return plan
        by_key[key] = name
    gold_keys = {_key(task, name) for name in gold}
    for name, path in gold.items():
        partner = by_key.get(_key(task, name))
        plan.pairs.append((name, path, system[partner] if partner is not None else None))
        if partner is None:
            plan.missing.append(name)
    plan.extra = sorted(name for key, name in by_key.items() if key not in gold_keys)
    if plan.missing and task.missing == "refuse":
        plan.refused = f"missing file(s): {', '.join(plan.missing[:5])}"
    elif plan.extra and task.extra == "refuse":
        plan.refused = f"file(s) the gold does not have: {', '.join(plan.extra[:5])}"
    return plan
