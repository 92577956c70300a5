"""``detailed_results.html``: one self-contained page under the ``--explain`` report's Content-Security-Policy
(its head, style and pair pictures: :mod:`mrp.explain.page`): the leaderboard; plots of the intervals and of
the per-sentence F (matplotlib, optional: without it the page says so and keeps its tables); per metric and
group a ranked table with intervals and paired tests (:func:`mrp.report.leaderboard.leaderboard`); per
submission its files (missing, extra, failing validation with their first problems, notes) and its worst
sentences drawn as the ``--explain`` report draws a pair."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence

from mrp.explain.build import views
from mrp.explain.escape import attribute, nonce, text
from mrp.explain.page import head, pair_html
from mrp.metrics import prf
from mrp.report.leaderboard import leaderboard
from mrp.report.signature import signature_line
from mrp.task import plots
from mrp.task.evaluate import Entry, Evaluation
from mrp.task.figures import figure, ranks
from mrp.task.scoring import Item, explained_pairs
from mrp.task.tables import html_table

__all__ = ["WORST", "detailed_page"]

#: worst sentences drawn per submission
WORST = 3

_STYLE = (".board tr.baseline th{font-style:italic}.board tr.unofficial{color:#666}ul.notes{font-size:90%}"
          "figure.plot{margin:1em 0}figure.plot svg{max-width:100%;height:auto}.bad{color:#a00}"
          "section.team{border-top:1px solid #ccc;margin-top:1.5em}")
_SCRIPT = ("try{document.body.setAttribute('data-ready','1')}"
           "catch(e){document.body.setAttribute('data-error',String(e))}")


def _traced(key: str, items: Sequence[Item]) -> Dict[str, Any]:
    """A traced result of a submission's sentences (for :func:`mrp.report.leaderboard.leaderboard`)."""
    g = sum(item.counts[0] for item in items)
    s = sum(item.counts[1] for item in items)
    c = sum(item.counts[2] for item in items)
    scores = {f"{item.file}/{item.id}": {key: {"g": item.counts[0], "s": item.counts[1], "c": item.counts[2]}}
              for item in items}
    return {key: prf(g, s, c), "scores": {"all": scores}}


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
    task = evaluation.task
    if not ranks(metric):
        return _figure_table(key, metric, group, entries)
    results = [(entry.name, _traced(key, [i for i in entry.scored[key].items if i.group == group]))
               for entry in entries]
    board = leaderboard(metric, results, task.bootstrap, task.seed, level=task.confidence, path=(key,))
    following = {c["better"]: c for c in board["comparisons"]}
    rows = []
    for system in board["systems"]:
        after = following.get(system["system"])
        tail = "<td></td><td></td>" if after is None else \
            f"<td>{after['delta']:.4f}</td><td>{after['p']:.4f}{' *' if after['significant'] else ''}</td>"
        low, high = system["ci"]["f"]
        rows.append(f"<tr><td>{system['rank']}</td><th scope=\"row\">{text(system['system'])}</th>"
                    f"<td>{system['p']:.4f}</td><td>{system['r']:.4f}</td><td>{system['f']:.4f}</td>"
                    f"<td>[{low:.4f}, {high:.4f}]</td>{tail}</tr>")
    head_cells = "".join(f'<th scope="col">{name}</th>' for name in
                         ("rank", "team", "P", "R", "F", f"{task.confidence * 100:g}% CI", "delta to next",
                          "p (* significant)"))
    return (f'<table class="fig"><caption>{text(key)}: {text(group)}</caption><thead><tr>{head_cells}</tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table>')


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


def _files(entry: Entry) -> str:
    parts = []
    if entry.refused:
        parts.append(f'<p class="bad">Refused: {text(entry.refused)}</p>')
    if entry.plan.missing:
        parts.append(f"<p>Missing files (scored as empty): {text(', '.join(entry.plan.missing))}</p>")
    if entry.plan.extra:
        parts.append(f"<p>Files the gold does not have (not scored): {text(', '.join(entry.plan.extra))}</p>")
    for name, problems in entry.invalid.items():
        what = "scored as empty" if name in entry.emptied else "scored as read"
        items = "".join(f"<li>{text(problem)}</li>" for problem in problems)
        parts.append(f'<p class="bad">{text(name)} fails validation ({what}):</p><ul>{items}</ul>')
    notes = [note for found in entry.scored.values() for note in found.notes]
    if notes:
        parts.append("<details><summary>notes</summary><ul>" + "".join(
            f"<li>{text(note)}</li>" for note in dict.fromkeys(notes)) + "</ul></details>")
    return "".join(parts) or "<p>Every file present and valid.</p>"


def _worst(evaluation: Evaluation, entry: Entry) -> str:
    task = evaluation.task
    spec = next(s for s in task.metrics if f"{s.key}_f" == task.primary)
    items = [i for i in entry.scored[spec.key].items if i.counts[0] + i.counts[1]]
    answered = [i for i in items if i.counts[1]] or items  # a missing or empty sentence shows nothing to fix
    worst = sorted(answered, key=lambda i: (float(prf(*i.counts)["f"]), i.file, i.id))[:WORST]
    parts = []
    by_file: Dict[str, List[Item]] = {}
    for item in worst:
        by_file.setdefault(item.file, []).append(item)
    for name, chosen in by_file.items():
        metric, done = explained_pairs(task, spec, evaluation.corpora[name], entry.system.get(name),
                                       [i.id for i in chosen], evaluation.memo)
        for item in chosen:
            for view in views(metric, done, only=item.id):
                view.id = f"{name}/{view.id}"
                parts.append(f"<details><summary>{text(view.id)}: F {prf(*item.counts)['f']:.4f}</summary>"
                             f"{pair_html(view)}</details>")
    return "".join(parts)


def detailed_page(evaluation: Evaluation, board: Mapping[str, Any], only: Optional[str] = None) -> str:
    """The page of an evaluation (``only``: one submission's section alone, as Codabench shows a
    submission's page)."""
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
        for spec in task.metrics:
            tables = "".join(_group_table(evaluation, spec.key, spec.metric, group, entries)
                             for group in evaluation.groups)
            parts.append(f"<section><h2>{text(spec.label)} per group</h2>{tables}</section>")
    for entry in evaluation.entries:
        if entry.submission.status or (only is not None and entry.name != only):
            continue
        parts.append(f'<section class="team" aria-label="{attribute(entry.name)}"><h2>{text(entry.name)}</h2>'
                     f"{_files(entry)}")
        if not entry.refused:
            parts.append(f"<h3>Worst sentences ({text(task.primary)})</h3>{_worst(evaluation, entry)}")
        parts.append("</section>")
    parts.append(f'</main><script nonce="{key}">{_SCRIPT}</script></body></html>\n')
    return "".join(parts)
