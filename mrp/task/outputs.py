"""The files of an evaluation, each written through the one writer (:mod:`mrp.io.write`):

- per submission ``TEAM/scores.json`` (the leaderboard keys, as Codabench reads them) and ``TEAM/scores.txt``
  (``key: value`` lines, as CodaLab read them);
- ``results.json``: everything, for the archive (the task definition, the signatures, per submission its
  files, validation, figures per group and file, scores, and the leaderboard);
- ``leaderboard.md``, ``.tex``, ``.csv`` and ``.html``, each naming the baseline and carrying the signatures;
- ``detailed_results.html``.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Dict, List, Mapping, Optional, Sequence

from mrp.explain.escape import nonce
from mrp.explain.page import head
from mrp.io.write import write_text
from mrp.task.averaging import group_figures
from mrp.task.definition import Task
from mrp.task.escape import shown
from mrp.task.evaluate import Entry, Evaluation
from mrp.task.figures import figure, ranks
from mrp.task.messages import file_changes
from mrp.task.page import PagesAhead, detailed_page
from mrp.task.scoring import Item
from mrp.task.significance import file_interval
from mrp.task.tables import forms, html_table

__all__ = ["folder_name", "results", "scores_json", "scores_txt", "write_all"]


def scores_json(scores: Mapping[str, float]) -> str:
    """``scores.json``: the leaderboard keys and their values."""
    return json.dumps(dict(scores), indent=1) + "\n"


def scores_txt(scores: Mapping[str, float]) -> str:
    """``scores.txt``: one ``key: value`` line per leaderboard key."""
    return "".join(f"{key}: {value!r}\n" for key, value in scores.items())


def _files(task: Task, entry: Entry) -> Dict[str, Any]:
    """Per document (file) and metric: g, s, c, P, R, F summed and F's interval (a metric of counts), or P,
    R, F (AnCast's figure)."""
    sums: Dict[str, Dict[str, Any]] = {}
    for key, found in entry.scored.items():
        per_file: Dict[str, List[Item]] = {}
        for item in found.items:
            per_file.setdefault(item.file, []).append(item)
        for name, items in per_file.items():
            value = figure(found.spec.metric, [item.counts for item in items], [item.sums for item in items])
            counted = ranks(found.spec.metric)
            shown = ("g", "s", "c", "p", "r", "f") if counted else ("p", "r", "f")
            sums.setdefault(name, {})[key] = {letter: value[letter] for letter in shown}
            if counted:
                sums[name][key]["ci"] = file_interval(task, items)
    return sums


def _stored(value: Any) -> Any:
    """A document whose every string (keys too) can be written as UTF-8 (:func:`mrp.task.escape.shown`)."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, dict):
        return {_stored(key): _stored(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_stored(item) for item in value]
    return value


def results(evaluation: Evaluation, board: Mapping[str, Any]) -> Dict[str, Any]:
    """The full results of an evaluation, for the archive (every name as :func:`mrp.task.escape.shown`
    shows it)."""
    submissions = []
    for entry in evaluation.entries:
        item: Dict[str, Any] = {"team": entry.submission.team, "id": entry.submission.id,
                                "name": entry.name, "official": entry.submission.official,
                                "path": entry.submission.path}
        if entry.submission.status:
            item["status"] = entry.submission.status
            submissions.append(item)
            continue
        item.update(refused=entry.refused, missing=entry.plan.missing, extra=entry.plan.extra,
                    invalid=entry.invalid, emptied=entry.emptied, repaired=entry.repaired,
                    submitted=entry.members, changes=file_changes(evaluation, entry))
        if not entry.refused:
            item["scores"] = entry.scores
            item["figures"] = {key: {"signature": found.signature,
                                     "groups": group_figures(found.items, evaluation.groups,
                                                             found.spec.metric),
                                     "exact": sum(i.exact for i in found.items),
                                     "sentences": len(found.items),
                                     "notes": found.notes, "pairing": found.pairing}
                               for key, found in entry.scored.items()}
            item["files"] = _files(evaluation.task, entry)
        submissions.append(item)
    return _stored({"task": evaluation.task.name, "title": evaluation.task.title,
                    "unseen": [group for group in evaluation.groups if group in evaluation.task.unseen],
                    "definition": evaluation.task.source, "groups": evaluation.groups,
                    "gold": sorted(evaluation.gold), "signatures": board["signatures"], "leaderboard": board,
                    "submissions": submissions})


def folder_name(name: str, taken: List[str]) -> str:
    """A safe folder name for a submission's files (letters, digits, ``.``, ``_``, ``-``), unique."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "team"
    found, k = safe, 1
    while found in taken:
        k += 1
        found = f"{safe}_{k}"
    taken.append(found)
    return found


def leaderboard_page(evaluation: Evaluation, board: Mapping[str, Any]) -> str:
    """``leaderboard.html``: the leaderboard alone, a self-contained page under the report's policy."""
    key = nonce()
    return (head(f"{evaluation.task.title}: leaderboard", key) + f"<main>{html_table(board)}</main>"
            f"<script nonce=\"{key}\">document.body.setAttribute('data-ready','1')</script></body></html>\n")


def write_all(evaluation: Evaluation, board: Mapping[str, Any], folder: str,
              organiser: Sequence[str] = (), ahead: Optional[PagesAhead] = None) -> List[str]:
    """Write every file of an evaluation into ``folder`` (created); returns the paths written.

    Args:
        evaluation: the evaluation.
        board: its leaderboard.
        folder: the output folder.
        organiser: the organiser's lines (:func:`mrp.task.messages.organiser_lines`), written to
            ``organiser.log`` (always written, empty when the gold passes).
        ahead: the detailed page's costly parts being computed in a child
            (:class:`~mrp.task.page.PagesAhead`), taken when the page is written.

    Returns:
        The paths written.
    """
    os.makedirs(folder, exist_ok=True)
    written: List[str] = []

    def put(name: str, content: str) -> None:
        path = os.path.join(folder, name)
        write_text(path, content)
        written.append(path)

    taken: List[str] = ["results.json", "detailed_results.html", "organiser.log",
                        *(f"leaderboard.{extension}" for extension in ("md", "tex", "csv", "html"))]
    for entry in evaluation.scored():
        sub = folder_name(entry.name, taken)
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
        put(os.path.join(sub, "scores.json"), scores_json(entry.scores))
        put(os.path.join(sub, "scores.txt"), scores_txt(entry.scores))
    put("results.json", json.dumps(results(evaluation, board), indent=1, ensure_ascii=False) + "\n")
    for extension, content in forms(board).items():
        put(f"leaderboard.{extension}", content)
    put("leaderboard.html", leaderboard_page(evaluation, board))
    put("detailed_results.html", detailed_page(evaluation, board, made=ahead.parts() if ahead else None))
    put("organiser.log", "".join(f"{line}\n" for line in organiser))
    return written
