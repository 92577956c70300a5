"""The HTML report: one self-contained file (its style, script and pictures inline; nothing loaded from
anywhere) with the corpus figures, a sortable and filterable table of the pairs (worst first), and each
pair's page kept in a ``<template>`` that the script opens on demand.

The page carries a Content-Security-Policy allowing only its own style and script (by a fresh nonce), no
images, no connections, no forms and no base address; every string from the graphs is escaped where it
is placed (:mod:`mrp.explain.escape`).  A single pair's page (``--explain-id``) is the same page with the
pair shown directly.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple
from urllib.parse import quote

from mrp.explain.assets import SCRIPT, STYLE
from mrp.explain.escape import attribute, nonce, script_json, shorten, text
from mrp.explain.model import STATUSES, PairView, SideView
from mrp.explain.svg import MARKERS, SIGNS, STATUS_WORDS, TEXT_VIEW, draw, text_view

#: characters of a sentence shown in the pair table (all of it on the pair's page)
TABLE_TEXT = 160


def _number(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def _head(title: str, key: str) -> str:
    policy = (f"default-src 'none'; style-src 'nonce-{key}'; script-src 'nonce-{key}'; img-src 'none'; "
              "connect-src 'none'; base-uri 'none'; form-action 'none'")
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{attribute(policy)}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<meta name="referrer" content="no-referrer">'
            f"<title>{text(title)}</title><style nonce=\"{key}\">{STYLE}</style></head>\n<body>{MARKERS}")


def head(title: str, key: str) -> str:
    """The start of a page under the report's Content-Security-Policy (``key``: the page's nonce), with its
    style and arrow markers, up to the open ``<body>`` (for other pages drawn from scored pairs)."""
    return _head(title, key)


def _tail(key: str, data: Any) -> str:
    return (f'<script type="application/json" id="result">{script_json(data)}</script>\n'
            f'<script nonce="{key}">{SCRIPT}</script></body></html>\n')


LEGEND = ('<p class="legend">' + "".join(
    f'<span class="{status}"><svg width="34" height="10" aria-hidden="true"><g class="e {status}">'
    f'<path d="M1,5L26,5"/></g></svg> <b class="{status}">'
    f'{SIGNS[status]}</b>{STATUS_WORDS[status]}</span>' for status in STATUSES)
    + '<span><b>#3</b> corresponding nodes share a number (hover or focus one to light up both)</span>'
    '<span><b>\u2205 unaligned</b> a node with no counterpart (dashed border)</span></p>')


def _figures_table(result: Dict[str, Any]) -> str:
    """The corpus figures: each {g, s, c, p, r, f} object of the result (nested one level at most)."""
    rows: List[str] = []

    def add(name: str, value: Dict[str, Any]) -> None:
        cells = "".join(f"<td>{text(_number(value.get(k)))}</td>" for k in ("g", "s", "c", "p", "r", "f"))
        rows.append(f'<tr><th scope="row">{text(name)}</th>{cells}</tr>')

    if "f" in result:
        add("all", result)
    for name, value in result.items():
        if isinstance(value, dict) and "f" in value and name not in ("bound", "cut"):
            add(name, value)
        elif isinstance(value, dict) and name not in ("macro", "bound", "cut", "scores", "ci"):
            for inner, deeper in value.items():
                if isinstance(deeper, dict) and "f" in deeper:
                    add(f"{name} {inner}", deeper)
    if not rows:
        return ""
    head = "".join(f'<th scope="col">{k}</th>' for k in ("", "g", "s", "c", "P", "R", "F"))
    return f'<table class="fig"><caption>corpus figures</caption><thead><tr>{head}</tr></thead>' \
           f'<tbody>{"".join(rows)}</tbody></table>'


COLUMNS: Tuple[Tuple[str, str, bool], ...] = (
    ("k", "#", True), ("id", "id", False), ("g", "g", True), ("s", "s", True), ("c", "c", True),
    ("f", "F", True), ("exact", "exact", True), ("bound", "bound", True), ("repairs", "repairs", True),
    ("text", "text", False))


def _row(view: PairView) -> str:
    fig = view.figures
    exact = "" if fig.exact is None else ("yes" if fig.exact else f"no ({fig.cut})" if fig.cut else "no")
    href = "#id=" + quote(view.id, safe="")
    cells = [
        f'<td data-v="{view.index}">{view.index + 1}</td>',
        f'<td class="k"><a href="{attribute(href)}">{text(view.id)}</a></td>',
        *(f'<td data-v="{_number(v) or -1}">{_number(v)}</td>' for v in (fig.g, fig.s, fig.c)),
        f'<td data-v="{fig.f!r}">{fig.f:.4f}</td>',
        f'<td data-v="{1 if fig.exact else 0}">{text(exact)}</td>',
        f'<td data-v="{_number(fig.bound) or -1}">{text(_number(fig.bound))}</td>',
        f"<td>{fig.repairs}</td>",
        f'<td class="t" title="{attribute(shorten(view.text, 1000))}">{text(shorten(view.text, TABLE_TEXT))}'
        "</td>"]
    return f'<tr data-k="{view.index}" data-id="{attribute(view.id)}">{"".join(cells)}</tr>'


#: the columns of a table of graphs drawn alone (g and s then hold the numbers of nodes and edges)
GRAPH_COLUMNS = (("k", "#", True), ("id", "id", False), ("g", "nodes", True), ("s", "edges", True),
                 ("text", "text", False))


def _graph_row(view: PairView) -> str:
    href = "#id=" + quote(view.id, safe="")
    return (f'<tr data-k="{view.index}" data-id="{attribute(view.id)}"><td data-v="{view.index}">'
            f'{view.index + 1}</td><td class="k"><a href="{attribute(href)}">{text(view.id)}</a></td>'
            f"<td>{_number(view.figures.g)}</td><td>{_number(view.figures.s)}</td>"
            f'<td class="t">{text(shorten(view.text, TABLE_TEXT))}</td></tr>')


def _table(views: Sequence[PairView], scored: bool) -> str:
    heads = "".join(f'<th scope="col" data-k="{key}"{" data-n" if numeric else ""}>'
                    f"<button type=\"button\">{text(name)}</button></th>"
                    for key, name, numeric in (COLUMNS if scored else GRAPH_COLUMNS))
    rows = [_row(v) for v in sorted(views, key=lambda v: (v.figures.f, v.index))] if scored else [
        _graph_row(v) for v in views]
    what = "pairs, worst first" if scored else "graphs"
    return (f'<p><label>Filter by id or text: <input id="filter" type="search" autocomplete="off"></label> '
            f'<span id="shown">{len(views)}</span> of {len(views)} {what}; a column heading sorts by it.</p>'
            f'<div class="scroll"><table id="pairs" class="o"><thead><tr>{heads}</tr></thead><tbody>'
            + "".join(rows) + "</tbody></table></div>")


def _side(side: SideView, large: bool, title: str, scored: bool) -> str:
    inner = text_view(side, scored) if large else draw(side, title, side.roots, side.keys, scored)
    return f'<figure class="side"><figcaption>{text(side.label)}</figcaption>{inner}</figure>'


def _summary(side: SideView) -> str:
    counts = {status: 0 for status in STATUSES}
    for node in side.nodes:
        for row in node.rows:
            counts[row.status] = counts.get(row.status, 0) + 1
    for edge in side.edges:
        counts[edge.status] = counts.get(edge.status, 0) + 1
    found = ", ".join(f"{n} {STATUS_WORDS[s]}" for s, n in counts.items() if n and s in STATUS_WORDS)
    return f"{side.label} graph: {len(side.nodes)} nodes, {len(side.edges)} arrows" + (
        f"; tuples {found}" if found else "")


def _umr(side: SideView) -> str:
    parts = []
    if side.tokens:
        rows = "".join(f"<tr><th scope=\"row\">{text(var)}</th><td>{text(tokens)}</td></tr>"
                       for var, tokens in side.tokens)
        parts.append(f'<table class="tv"><caption>{text(side.label)}: token alignments</caption>{rows}'
                     "</table>")
    if side.documents:
        items = "".join(f'<li class="{status}">{text(SIGNS.get(status, ""))}{text(kind)}: ({text(source)} '
                        f':{text(label)} {text(target)})</li>' for kind, source, label, target, status
                        in side.documents)
        parts.append(f"<p>{text(side.label)}: document-level relations</p><ul class=\"tv\">{items}</ul>")
    return "".join(parts)


def _lists(view: PairView) -> str:
    kinds: Dict[str, Dict[str, List[str]]] = {}
    for kind, status, description in view.facts:
        kinds.setdefault(kind, {s: [] for s in STATUSES}).setdefault(status, []).append(description)
    parts = []
    for kind, found in kinds.items():
        wrong = "".join(f'<li class="{status}">{text(SIGNS[status] + d)}</li>'
                        for status in ("missed", "surplus") for d in found[status])
        right = "".join(f'<li class="matched">{text(SIGNS["matched"] + d)}</li>' for d in found["matched"])
        parts.append(f"<section><h4>{text(kind)}: {len(found['missed'])} missed, {len(found['surplus'])} "
                     f"surplus, {len(found['matched'])} matched</h4><ul>{wrong}</ul><details><summary>"
                     f"{len(found['matched'])} matched</summary><ul>{right}</ul></details></section>")
    return f'<div class="lists">{"".join(parts)}</div>' if parts else ""


def pair_html(view: PairView, scored: bool = True) -> str:
    """One pair's page: sentence, figures, the two graphs side by side, UMR annotation, the tuple lists."""
    fig = view.figures
    large = max(len(view.gold.nodes), len(view.system.nodes)) > TEXT_VIEW
    numbers = " \u00b7 ".join(f"{name} <b>{text(_number(value))}</b>"
                      for name, value in (("g", fig.g), ("s", fig.s), ("c", fig.c), ("F", fig.f),
                                          ("exact", fig.exact), ("bound", fig.bound), ("cut", fig.cut),
                                          ("repairs", fig.repairs)) if value is not None) if scored else ""
    sides = [_side(view.gold, large, f"{_summary(view.gold)} (pair {view.id})", scored)]
    if scored:
        sides.append(_side(view.system, large, f"{_summary(view.system)} (pair {view.id})", scored))
    notes = [f'<p class="note">{text(fig.note)}</p>'] if fig.note else []
    if large:
        notes.append(f"<p>More than {TEXT_VIEW} nodes: shown as text.</p>")
    sentence = text(view.text) or "(the files give no sentence)"
    return (f'<article class="pair" aria-label="pair {attribute(view.id)}"><h2>{text(view.id)} '
            f'<small>{text(view.framework)}</small></h2><p class="snt">{sentence}</p>'
            + (f'<p class="pf">{numbers}</p>' if numbers else "")
            + "".join(notes) + (f"<p>Tuples: {text(view.source)}.</p>" if scored else "")
            + f'<div class="sides">{"".join(sides)}</div>'
            + (f'<div class="sides umr"><div>{_umr(view.gold)}</div><div>{_umr(view.system)}</div></div>'
               if scored and (view.gold.tokens or view.system.tokens or view.gold.documents) else
               _umr(view.gold))
            + (f"<h3>Tuples by type</h3>{_lists(view)}" if scored else "") + "</article>")


def report(views: Sequence[PairView], result: Dict[str, Any], title: str, heading: str,
           only: Optional[PairView] = None, scored: bool = True) -> str:
    """The whole report (``only``: a single pair's page, shown at once, without the table)."""
    key = nonce()
    signature = result.get("signature")
    parts = [_head(title, key), f"<header><h1>{text(heading)}</h1>"]
    if signature:
        parts.append(f"<p>signature: <code>{text(signature)}</code></p>")
    parts.append(LEGEND if scored else "")
    parts.append("</header>")
    if only is not None:
        parts.append(f'<main id="view" tabindex="-1">{pair_html(only, scored)}</main>')
        return "".join(parts) + _tail(key, result)
    if scored:
        parts.append(_figures_table(result))
    heading = "Pairs" if scored else "Graphs"
    parts.append(f'<section aria-label="pairs"><h2>{heading}</h2>{_table(views, scored)}</section>')
    parts.append('<main id="view" tabindex="-1" aria-live="polite"><p>Choose a pair in the table.</p></main>')
    for view in views:
        parts.append(f'<template data-id="{attribute(view.id)}">{pair_html(view, scored)}</template>\n')
    return "".join(parts) + _tail(key, result)
