"""The leaderboard of an evaluation: official submissions ranked by the task's primary figure (ties share a
rank and are listed by name, as :func:`mrp.report.leaderboard.leaderboard` ranks), unofficial ones after them
unranked, each with the interval of its primary figure, the p-value of its difference from the best
submission and from the baseline, and its group of submissions not significantly different.

Groups: the best submission opens group 1; going down the ranking, a submission joins the open group while
its difference from that group's first submission is not significant (p >= 1 - level), else it opens the
next group.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from mrp.task.evaluate import Entry, Evaluation
from mrp.task.significance import interval, test, units, varies

__all__ = ["board"]


def _primary_items(evaluation: Evaluation, entry: Entry) -> Any:
    key = evaluation.task.primary[:-2]  # KEY_f -> KEY
    return entry.scored[key].items


def board(evaluation: Evaluation) -> Dict[str, Any]:
    """The leaderboard of an evaluation as data (rendered by :mod:`mrp.task.tables`)."""
    task, groups = evaluation.task, evaluation.groups
    alpha = 1.0 - task.confidence
    scored = evaluation.scored()
    official = sorted((e for e in scored if e.submission.official),
                      key=lambda e: (-e.scores[task.primary], e.name))
    unofficial = sorted((e for e in scored if not e.submission.official), key=lambda e: e.name)
    baseline: Optional[Entry] = next((e for e in scored if task.baseline is not None
                                      and e.submission.team == task.baseline and e.submission.official), None)
    best = official[0] if official else None
    rows: List[Dict[str, Any]] = []
    leader: Optional[Entry] = None
    cluster = 0
    for place, entry in enumerate(official + unofficial, start=1):
        items = _primary_items(evaluation, entry)
        row: Dict[str, Any] = {"team": entry.name, "official": entry.submission.official,
                               "baseline": entry is baseline, "scores": dict(entry.scores),
                               "ci": interval(task, items, groups)}
        if entry.submission.official:
            previous = rows[-1] if rows else None
            tied = previous is not None and previous["scores"][task.primary] == entry.scores[task.primary]
            row["rank"] = previous["rank"] if tied and previous is not None else place
            if leader is None or test(task, _primary_items(evaluation, leader), items, groups) < alpha:
                leader, cluster = entry, cluster + 1
            row["cluster"] = cluster
        else:
            row["rank"] = None
        if best is not None and entry is not best:
            row["p_best"] = test(task, _primary_items(evaluation, best), items, groups)
        if baseline is not None and entry is not baseline:
            row["p_baseline"] = test(task, _primary_items(evaluation, baseline), items, groups)
        rows.append(row)
    signatures: Dict[str, str] = {}
    for entry in scored:
        for key, found in entry.scored.items():
            signatures.setdefault(key, found.signature)
    return {
        "task": task.name, "title": task.title, "primary": task.primary, "overall": task.overall,
        "groups": list(groups), "columns": task.keys(list(groups)), "level": task.confidence,
        "unseen": [group for group in groups if group in task.unseen],
        "test": {"method": "paired bootstrap" + (", stratified by group" if task.overall == "macro" else ""),
                 "n": task.bootstrap, "seed": task.seed,
                 "units": units(task, _primary_items(evaluation, scored[0]), groups) if scored else 0,
                 "varies": varies(task, _primary_items(evaluation, scored[0]), groups) if scored else False},
        "baseline": baseline.name if baseline is not None else task.baseline,
        "baseline_found": baseline is not None,
        "labels": {spec.key: spec.label for spec in task.metrics},
        "signatures": signatures, "rows": rows,
        "refused": [{"team": e.name, "why": e.refused} for e in evaluation.entries if e.refused],
        "superseded": [{"team": e.submission.team, "id": e.submission.id}
                       for e in evaluation.entries if e.submission.status],
    }
