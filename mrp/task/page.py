"""``detailed_results.html``: one self-contained page under the ``--explain`` report's Content-Security-Policy
(its head, style and pair pictures: :mod:`mrp.explain.page`): the leaderboard; plots of the intervals and of
the per-sentence F (matplotlib, optional: without it the page says so and keeps its tables); per metric and
group a ranked table with intervals and paired tests (:func:`mrp.report.leaderboard.leaderboard`); per
submission its files (missing, extra, failing validation with their first problems, notes) and its worst
sentences drawn as the ``--explain`` report draws a pair."""

from __future__ import annotations

import warnings
from functools import partial
from types import TracebackType
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Type

from mrp.explain.build import views
from mrp.explain.escape import attribute, nonce
from mrp.explain.page import head, pair_html
from mrp.metrics import prf
from mrp.process.forked import Child, can_fork
from mrp.report.signature import signature_line
from mrp.task import plots
from mrp.task.escape import html as text
from mrp.task.escape import visible
from mrp.task.evaluate import Entry, Evaluation
from mrp.task.figures import figure, ranks
from mrp.task.messages import file_changes
from mrp.task.scoring import Item, explained_pairs
from mrp.task.significance import file_interval, interval, prime, test, units
from mrp.task.tables import html_table

__all__ = ["WORST", "PagesAhead", "costly_parts", "detailed_page"]

#: worst sentences drawn per submission
WORST = 3

_STYLE = (".board tr.baseline th{font-style:italic}.board tr.unofficial{color:#666}ul.notes{font-size:90%}"
          "figure.plot{margin:1em 0}figure.plot svg{max-width:100%;height:auto}.bad{color:#a00}"
          "section.team{border-top:1px solid #ccc;margin-top:1.5em}")
_SCRIPT = ("try{document.body.setAttribute('data-ready','1')}"
           "catch(e){document.body.setAttribute('data-error',String(e))}")


def _figure_table(key: str, metric: str, group: str, entries: List[Entry]) -> str:
    """A group's figures of a metric that is not a sum of counts (AnCast): P, R, F per submission, best
    first, without intervals or tests."""
    found = [(entry.name, figure(metric, [], [i.sums for i in entry.scored[key].items if i.group == group]))
             for entry in entries]
    rows = sorted(found, key=lambda row: (-row[1]["f"], row[0]))
    body = "".join(f'<tr><th scope="row">{text(name)}</th><td>{value["p"]:.4f}</td><td>{value["r"]:.4f}</td>'
                   f'<td>{value["f"]:.4f}</td></tr>' for name, value in rows)
    head_cells = "".join(f'<th scope="col">{name}</th>' for name in ("team", "P", "R", "F"))
    return (f'<table class="fig"><caption>{text(key)}: {text(group)} (not a sum of counts: no intervals or '
            f'tests)</caption><thead><tr>{head_cells}</tr></thead><tbody>{body}</tbody></table>')


def _group_table(evaluation: Evaluation, key: str, metric: str, group: str, entries: List[Entry]) -> str:
    """A group's figures of one metric, best first: P, R, F, the interval and the paired test to the next
    submission, each from :mod:`mrp.task.significance` (the leaderboard's own computation)."""
    task = evaluation.task
    if not ranks(metric):
        return _figure_table(key, metric, group, entries)
    groups = evaluation.groups
    found = [(entry.name, [i for i in entry.scored[key].items if i.group == group]) for entry in entries]
    values = [(name, figure(metric, [i.counts for i in items]), items) for name, items in found]
    ordered = sorted(values, key=lambda row: (-row[1]["f"], row[0]))
    rows = []
    rank = 0
    for place, (name, value, items) in enumerate(ordered, 1):
        if place == 1 or value["f"] != ordered[place - 2][1]["f"]:
            rank = place
        low, high = interval(task, items, groups, group)
        tail = "<td></td><td></td>"
        if place < len(ordered):
            after = ordered[place]
            p = test(task, items, after[2], groups, group)
            star = " *" if p < 1 - task.confidence else ""
            tail = f"<td>{value['f'] - after[1]['f']:.4f}</td><td>{p:.4f}{star}</td>"
        rows.append(f"<tr><td>{rank}</td><th scope=\"row\">{text(name)}</th>"
                    f"<td>{value['p']:.4f}</td><td>{value['r']:.4f}</td><td>{value['f']:.4f}</td>"
                    f"<td>[{low:.4f}, {high:.4f}]</td>{tail}</tr>")
    head_cells = "".join(f'<th scope="col">{name}</th>' for name in
                         ("rank", "team", "P", "R", "F", f"{task.confidence * 100:g}% CI", "delta to next",
                          "p (* significant)"))
    count = units(task, found[0][1], groups, group) if found else 0
    unseen = " (no training data)" if group in task.unseen else ""
    return (f'<table class="fig"><caption>{text(key)}: {text(group)}{unseen}</caption><thead><tr>'
            f'{head_cells}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
            f'<p class="note">{count} sentences resampled'
            f"{' (fewer than two: p is 1)' if count < 2 else ''}.</p>")


def _primed(evaluation: Evaluation, entries: List[Entry]) -> None:
    """The replicates of every group table's intervals and tests drawn group by group, for every metric and
    submission at once (:func:`mrp.task.significance.prime`; the tables then find them kept)."""
    keys = [spec.key for spec in evaluation.task.metrics if ranks(spec.metric)]
    prime(evaluation.task, evaluation.groups, [entry.scored[key].items for key in keys for entry in entries])


def _plots(evaluation: Evaluation, board: Mapping[str, Any], key_: str) -> str:
    if not plots.available():
        return ('<p class="note">Plots need matplotlib (pip install "mrp-graphs[plot]"); the tables above '
                "hold every number.</p>")
    primary = board["primary"]
    rows = [(row["team"], row["scores"][primary], row["ci"][0], row["ci"][1]) for row in board["rows"]]
    spec = primary[:-2]
    by_name = {entry.name: entry for entry in evaluation.scored()}
    values = {row["team"]: [float(prf(*i.counts)["f"]) for i in by_name[row["team"]].scored[spec].items
                            if i.counts[0] + i.counts[1]] for row in board["rows"]}
    label = board["labels"].get(spec, spec)
    return (f'<figure class="plot">{plots.intervals_svg(rows, f"{label} ({primary})", key_)}<figcaption>'
            f"{text(primary)} with its {board['level'] * 100:g}% bootstrap interval</figcaption></figure>"
            f'<figure class="plot">{plots.sentences_svg(values, label, key_)}<figcaption>per-sentence F '
            "(box: quartiles; triangle: mean)</figcaption></figure>")


def _documents(evaluation: Evaluation, entry: Entry) -> str:
    """Per document (file): each figure's F, and the interval of the primary one."""
    task = evaluation.task
    primary = task.primary[:-2]
    keys = [spec.key for spec in task.metrics]
    per_file: Dict[str, Dict[str, List[Item]]] = {}
    for key in keys:
        for item in entry.scored[key].items:
            per_file.setdefault(item.file, {}).setdefault(key, []).append(item)
    rows = []
    for name, found in per_file.items():
        cells = []
        for spec in task.metrics:
            items = found.get(spec.key, [])
            value = figure(spec.metric, [i.counts for i in items], [i.sums for i in items])
            cells.append(f"<td>{value['f']:.4f}</td>")
        low, high = file_interval(task, found.get(primary, []))
        rows.append(f'<tr><th scope="row">{text(name)}</th>{"".join(cells)}'
                    f"<td>[{low:.4f}, {high:.4f}]</td></tr>")
    titles = ["document", *(f"{key}_f" for key in keys), f"{task.confidence * 100:g}% CI of {primary}_f"]
    head_cells = "".join(f'<th scope="col">{text(title)}</th>' for title in titles)
    return (f'<table class="fig"><caption>per document</caption><thead><tr>{head_cells}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _files(evaluation: Evaluation, entry: Entry) -> str:
    """Per file what changed its score (:func:`mrp.task.messages.file_changes`): missing, other line ends,
    validation (first problems, the policy applied), repairs, missing and surplus sentences, notes."""
    parts = []
    if entry.refused:
        parts.append(f'<p class="bad">Refused: {text(entry.refused)}</p>')
    for name, lines in file_changes(evaluation, entry).items():
        items = "".join(f"<li>{text(line.strip())}</li>" for line in lines)
        parts.append(f"<p>{text(name or 'other files')}:</p><ul>{items}</ul>")
    return "".join(parts) or "<p>Every file present and valid; nothing repaired; every sentence paired.</p>"


def _worst(evaluation: Evaluation, entry: Entry, participant: bool = False) -> str:
    """The submission's worst sentences by the primary figure, a missing one (no system sentence: F 0)
    among them; each drawn as ``--explain`` draws a pair, or (``participant``) listed by id and F alone."""
    task = evaluation.task
    spec = next(s for s in task.metrics if f"{s.key}_f" == task.primary)
    items = [i for i in entry.scored[spec.key].items if i.counts[0] + i.counts[1]]
    worst = sorted(items, key=lambda i: (float(prf(*i.counts)["f"]), i.file, i.id))[:WORST]
    parts = []
    by_file: Dict[str, List[Item]] = {}
    for item in worst:
        by_file.setdefault(item.file, []).append(item)
    for name, chosen in by_file.items():
        drawn = [] if participant else [i for i in chosen if i.counts[1]]
        done = explained_pairs(task, spec, evaluation.corpora[name], entry.system.get(name),
                               [i.id for i in drawn], evaluation.memo) if drawn else None
        for item in chosen:
            title = f"{name}/{item.id}: F {prf(*item.counts)['f']:.4f}" + \
                ("" if item.counts[1] else " (no system sentence: every gold triple missed)")
            pictures = "" if done is None or item not in drawn else "".join(
                pair_html(view) for view in views(done[0], done[1], only=item.id))
            parts.append(f"<details><summary>{text(title)}</summary>{pictures}</details>" if pictures
                         else f"<p>{text(title)}</p>")
    return "".join(parts)


#: a costly part of the page: ("table", metric key, group) or ("worst", entry's index, participant)
Part = Tuple[Any, ...]


def costly_parts(evaluation: Evaluation) -> Dict[Part, str]:
    """The costly parts of the organiser's page (:func:`detailed_page`, not a participant's): each metric's
    table per group (intervals and paired tests) and each submission's worst sentences drawn; neither
    depends on the leaderboard, so that they can be computed while it is.  A part whose computation gave a
    warning is left out: the page computes it itself, giving the warning where it would have (a warning a
    forked child gives is lost, and the messages must not depend on the processes).

    Args:
        evaluation: the evaluation.

    Returns:
        Each part's HTML.
    """
    entries = evaluation.scored()
    work: List[Tuple[Part, Callable[[], str]]] = []
    if entries:
        work.extend((("table", spec.key, group),
                     partial(_group_table, evaluation, spec.key, spec.metric, group, entries))
                    for spec in evaluation.task.metrics for group in evaluation.groups)
    work.extend((("worst", k, False), partial(_worst, evaluation, entry)) for k, entry in
                enumerate(evaluation.entries) if not entry.submission.status and not entry.refused)
    if entries:
        _primed(evaluation, entries)
    found: Dict[Part, str] = {}
    for part, compute in work:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            html = compute()
        if not caught:
            found[part] = html
    return found


class PagesAhead:
    """The organiser's page's costly parts (:func:`costly_parts`) computed in a forked child while this
    process ranks the submissions and writes the other files (with ``jobs`` > 1 where the platform forks):
    the same HTML, as the page computes it.  A context manager: the child is ended on leaving it."""

    def __init__(self, evaluation: Evaluation, jobs: int) -> None:
        self._child: Optional[Child] = None
        self._parts: Optional[Dict[Part, str]] = None
        if jobs > 1 and can_fork():
            self._child = Child(partial(costly_parts, evaluation))

    def parts(self) -> Dict[Part, str]:
        """The parts the child computed (waiting for it); empty without a child, or when it failed (the
        page then computes them itself)."""
        if self._parts is None:
            done = self._child.result() if self._child is not None else None
            self._parts = done if isinstance(done, dict) else {}
        return self._parts

    def __enter__(self) -> PagesAhead:
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 trace: Optional[TracebackType]) -> None:
        if self._child is not None:
            self._child.kill()


def detailed_page(evaluation: Evaluation, board: Mapping[str, Any], only: Optional[str] = None,
                  participant: bool = False, made: Optional[Mapping[Part, str]] = None) -> str:
    """The page of an evaluation.

    Args:
        evaluation: the evaluation.
        board: its leaderboard.
        only: one submission's section alone.
        participant: the page a team sees (Codabench): its worst sentences listed by id and F, not drawn
            (a drawing shows the hidden gold graph).
        made: its costly parts computed already (:func:`costly_parts`); a part not there is computed here.

    Returns:
        The page.
    """
    made = made or {}
    key = nonce()
    task = evaluation.task
    title = f"{task.title}: results"
    entries = evaluation.scored()
    parts = [head(title, key), f'<style nonce="{key}">{_STYLE}</style>',
             f"<header><h1>{text(title)}</h1>"]
    parts.extend(f"<p><code>{text(signature_line(v, k))}</code></p>" for k, v in board["signatures"].items())
    parts.append("</header><main>")
    parts.append(f"<section><h2>Leaderboard</h2>{html_table(board)}</section>")
    if entries:
        parts.append(f"<section><h2>Plots</h2>{_plots(evaluation, board, key)}</section>")
        if any(("table", spec.key, group) not in made for spec in task.metrics
               for group in evaluation.groups):
            _primed(evaluation, entries)
        for spec in task.metrics:
            tables = "".join(made.get(("table", spec.key, group))
                             or _group_table(evaluation, spec.key, spec.metric, group, entries)
                             for group in evaluation.groups)
            parts.append(f"<section><h2>{text(spec.label)} per group</h2>{tables}</section>")
    for k, entry in enumerate(evaluation.entries):
        if entry.submission.status or (only is not None and entry.name != only):
            continue
        parts.append(f'<section class="team" aria-label="{attribute(visible(entry.name))}">'
                     f"<h2>{text(entry.name)}</h2>{_files(evaluation, entry)}")
        if not entry.refused:
            parts.append(_documents(evaluation, entry))
            parts.append(f"<h3>Worst sentences ({text(task.primary)})</h3>"
                         f"{made.get(('worst', k, participant)) or _worst(evaluation, entry, participant)}")
        parts.append("</section>")
    parts.append(f'</main><script nonce="{key}">{_SCRIPT}</script></body></html>\n')
    return "".join(parts)
