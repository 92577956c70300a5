"""The task's averages of sentence counts: per group (language or framework) the counts summed over its files
and sentences (``micro_average.pl``'s rule: P, R, F from the sums), and overall either the mean of the
groups' F (``macro``, as the MRP tasks ranked across frameworks) or the F of every count summed (``micro``).
Then the keys of ``scores.json``."""

from __future__ import annotations

from typing import Dict, List, Mapping, Sequence

from mrp.task.definition import Task
from mrp.task.figures import figure
from mrp.task.scoring import Counts, Item, Scored

__all__ = ["group_counts", "group_figures", "leaderboard_scores", "overall"]


def group_counts(items: Sequence[Item], groups: Sequence[str]) -> Dict[str, Counts]:
    """(g, s, c) summed per group, every group of the gold present (zeros where it has no sentence)."""
    sums: Dict[str, List[int]] = {group: [0, 0, 0] for group in groups}
    for item in items:
        total = sums.setdefault(item.group, [0, 0, 0])
        for k in range(3):
            total[k] += item.counts[k]
    return {group: (total[0], total[1], total[2]) for group, total in sums.items()}


def group_figures(items: Sequence[Item], groups: Sequence[str], metric: str) -> Dict[str, Dict[str, float]]:
    """Per group its figure (:func:`mrp.task.figures.figure`): g, s, c and P, R, F of the summed counts, or
    (AnCast) P, R, F of its summed sums; every group of the gold present."""
    members: Dict[str, List[Item]] = {group: [] for group in groups}
    for item in items:
        members.setdefault(item.group, []).append(item)
    return {group: figure(metric, [item.counts for item in found], [item.sums for item in found])
            for group, found in members.items()}


def overall(task: Task, items: Sequence[Item], groups: Sequence[str], metric: str) -> float:
    """The overall F: the mean of the groups' F (``macro``) or the F of all sentences together
    (``micro``)."""
    if task.overall == "micro":
        return float(figure(metric, [item.counts for item in items], [item.sums for item in items])["f"])
    figures = group_figures(items, groups, metric)
    return sum(float(value["f"]) for value in figures.values()) / len(figures) if figures else 0.0


def leaderboard_scores(task: Task, scored: Mapping[str, Scored], groups: Sequence[str]) -> Dict[str, float]:
    """``scores.json``: per metric ``KEY_f`` (overall) and ``KEY_f_GROUP``, in the task's column order."""
    out: Dict[str, float] = {}
    for spec in task.metrics:
        found = scored[spec.key]
        figures = group_figures(found.items, groups, spec.metric)
        out[f"{spec.key}_f"] = overall(task, found.items, groups, spec.metric)
        for group in groups:
            out[f"{spec.key}_f_{group}"] = float(figures[group]["f"])
    return {key: out[key] for key in task.keys(list(groups))}
