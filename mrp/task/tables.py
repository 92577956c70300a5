"""The leaderboard (:func:`mrp.task.board.board`) in Markdown, LaTeX, CSV and HTML; every form names the
baseline and carries the signatures of the figures (what can change the numbers): as a footer, comment
lines and a caption, or (CSV, which holds data only) a column per figure.  Every text goes through the
escaping of its medium (:mod:`mrp.task.escape`): a team's or a member's name can never become markup, a
command, a formula or a terminal sequence."""

from __future__ import annotations

import csv
import io
from typing import Any, Callable, Dict, List, Mapping, Sequence

from mrp.report.signature import signature_line
from mrp.task.escape import csv_cell, markdown, tex, visible
from mrp.task.escape import html as html_text

__all__ = ["csv_table", "html_table", "latex_table", "markdown_table", "tex"]


def _number(value: Any) -> str:
    return "" if value is None else f"{value:.4f}" if isinstance(value, float) else str(value)


def _column(board: Mapping[str, Any], key: str) -> str:
    """A column's title: its key, marked when its group has no training data."""
    unseen = board.get("unseen", ())
    return key + (" (unseen)" if any(key.endswith(f"_f_{group}") for group in unseen) else "")


def _header(board: Mapping[str, Any]) -> List[str]:
    level = f"{board['level'] * 100:g}%"
    return ["rank", "team", *(_column(board, key) for key in board["columns"]),
            f"{level} CI of {board['primary']}", "p vs best", "p vs baseline", "group"]


def _cells(board: Mapping[str, Any], row: Mapping[str, Any]) -> List[str]:
    name = row["team"] + (" (baseline)" if row["baseline"] else "") + ("" if row["official"] else " †")
    low, high = row["ci"]
    return [str(row["rank"]) if row["rank"] is not None else "–", name,
            *(_number(row["scores"].get(key)) for key in board["columns"]),
            f"[{_number(low)}, {_number(high)}]", _number(row.get("p_best")), _number(row.get("p_baseline")),
            str(row.get("cluster", ""))]


def notes(board: Mapping[str, Any], participant: Callable[[Any], str] = visible) -> List[str]:
    """The lines every form carries under its table: the ranking, the baseline, the test, the refused
    submissions (their lines, a participant's text, through ``participant``), the signatures; each on one
    line (:func:`mrp.task.escape.visible`)."""
    test = board["test"]
    out = [f"{board['title']} ({board['task']}): ranked by {board['primary']} "
           f"({'mean of the groups' if board['overall'] == 'macro' else 'all counts summed'}); "
           f"groups: {', '.join(board['groups'])}.",
           f"Baseline: {board['baseline'] or 'none'}"
           + ("" if board["baseline_found"] or not board["baseline"] else " (not among the submissions)")
           + ".",
           f"p: {test['method']}, {test['n']} samples, seed {test['seed']}"
           + (f", over {test['units']} sentences" if "units" in test else "")
           + ("" if test.get("varies", True) else " (fewer than two to resample: p is 1)")
           + "; group: submissions whose difference "
           f"from the group's first is not significant (p >= {1 - board['level']:.4g}); † unofficial "
           "(secondary) submission, not ranked."]
    if board.get("unseen"):
        out.append(f"Groups without training data (unseen): {', '.join(board['unseen'])}.")
    for entry in board["refused"]:
        out.append(participant(f"Refused: {entry['team']}: {entry['why']}"))
    for key, signature in board["signatures"].items():
        out.append(signature_line(signature, key))
    return [visible(line) for line in out]


def markdown_table(board: Mapping[str, Any]) -> str:
    """The leaderboard as a Markdown table, its notes below."""
    header = _header(board)

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(visible(cell).replace("|", "\\|") for cell in cells) + " |"

    out = [line(header), "|" + "|".join("---" if k == 1 else "---:" for k in range(len(header))) + "|"]
    for row in board["rows"]:
        cells = [visible(cell).replace("|", "\\|") for cell in _cells(board, row)]
        cells[1] = markdown(_cells(board, row)[1])  # the team's name: nothing in it is Markdown or HTML
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.extend(notes(board, markdown))
    return "\n".join(out) + "\n"


def latex_table(board: Mapping[str, Any]) -> str:
    """The leaderboard as a LaTeX ``table`` (booktabs rules), the notes as its caption's text and the
    signatures as comments."""
    header = _header(board)
    out = ["% " + tex(line) for line in notes(board)]
    out += [r"\begin{table}", r"\centering", r"\begin{tabular}{l" + "l" + "r" * (len(header) - 2) + "}",
            r"\toprule", " & ".join(tex(cell) for cell in header) + r" \\", r"\midrule"]
    out.extend(" & ".join(tex(cell) for cell in _cells(board, row)) + r" \\" for row in board["rows"])
    out += [r"\bottomrule", r"\end{tabular}",
            r"\caption{" + " ".join(tex(line) for line in notes(board)) + "}", r"\end{table}"]
    return "\n".join(out) + "\n"


def csv_table(board: Mapping[str, Any]) -> str:
    """The leaderboard as CSV, data only: a header row, one row per submission, its last columns the
    signature of each figure (no comment or note rows, which a CSV reader would take as data); every cell
    safe from formula evaluation (:func:`mrp.task.escape.csv_cell`)."""
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    keys = list(board["signatures"])
    writer.writerow([csv_cell(cell) for cell in _header(board) + [f"signature of {key}" for key in keys]])
    for row in board["rows"]:
        writer.writerow([csv_cell(cell) for cell in _cells(board, row) +
                         [board["signatures"][key] for key in keys]])
    return stream.getvalue()


def html_table(board: Mapping[str, Any], caption: str = "leaderboard") -> str:
    """The leaderboard as an HTML table (a fragment), its notes below."""
    head = "".join(f'<th scope="col">{html_text(cell)}</th>' for cell in _header(board))
    body: List[str] = []
    for row in board["rows"]:
        cells = _cells(board, row)
        marks = (("baseline", row["baseline"]), ("unofficial", not row["official"]))
        classes = " ".join(name for name, on in marks if on)
        body.append(f'<tr class="{classes}"><td>{html_text(cells[0])}</td><th scope="row">'
                    f'{html_text(cells[1])}</th>'
                    + "".join(f"<td>{html_text(cell)}</td>" for cell in cells[2:])
                    + "</tr>")
    notes_html = "".join(f"<li>{html_text(line)}</li>" for line in notes(board))
    return (f'<table class="fig board"><caption>{html_text(caption)}</caption><thead><tr>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table><ul class="notes">{notes_html}</ul>')


def forms(board: Mapping[str, Any]) -> Dict[str, str]:
    """Every form by file extension: md, tex, csv (HTML is part of the page, :mod:`mrp.task.page`)."""
    return {"md": markdown_table(board), "tex": latex_table(board), "csv": csv_table(board)}
