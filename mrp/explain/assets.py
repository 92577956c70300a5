"""The report's one style sheet and one script, placed inline under the page's nonce.

Colours are the Okabe-Ito palette, chosen to stay apart under the common colour blindnesses: missed gold
tuples vermilion, dashed, signed ``−``; surplus system tuples blue, dotted, signed ``+``; matched tuples
dark grey, solid, signed ``✓``.  The script sorts and filters the pair table, opens a pair's page from its
``<template>`` (so a report of thousands of pairs keeps a small live page), links corresponding nodes on
hover and keyboard focus, and reads ``#id=ID``, ``#sort=COLUMN`` (``-COLUMN``: descending) and ``#q=TEXT``
from the address.  It touches the page only through the DOM (``textContent``, ``cloneNode``, classes),
never through HTML strings, and marks ``<body data-ready="1">`` when it ran (``data-error`` on an error).
"""

from __future__ import annotations

STYLE = """
:root{--m:#333;--x:#d55e00;--s:#0072b2;--hi:#f0e442}
body{font:14px/1.4 system-ui,sans-serif;margin:0 1em 2em;color:#111;background:#fff}
h1{font-size:1.3em}h2{font-size:1.15em}h3{font-size:1em;margin:.8em 0 .3em}
.defs{position:absolute}
.legend span{margin-right:1.2em;white-space:nowrap}
table{border-collapse:collapse}
.o th,.o td,.fig th,.fig td{padding:1px 7px;border-bottom:1px solid #ddd;text-align:right}
.o td.t,.o td.k,.fig th{text-align:left}
.o td.t{max-width:38em;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
.o th button{font:inherit;font-weight:bold;background:none;border:0;padding:0;cursor:pointer;color:inherit}
.o th[aria-sort=ascending] button::after{content:" \\25b2"}
.o th[aria-sort=descending] button::after{content:" \\25bc"}
.o tr.sel{background:#fdf6c7}
.scroll{max-height:40vh;overflow:auto;border:1px solid #ccc}
.snt{font-size:1.1em;background:#f4f4f4;padding:.4em}
.sides{display:flex;gap:10px;flex-wrap:wrap;margin:0}
.side{flex:1 1 46%;min-width:20em;overflow:auto;max-height:85vh;border:1px solid #bbb;margin:0}
.side figcaption{font-weight:bold;padding:2px 6px;background:#eee;position:sticky;left:0}
svg.g{font:11px monospace;display:block}
.n rect{fill:#fff;stroke:#666;stroke-width:1.2}
.n.u rect{stroke:#000;stroke-width:1.5;stroke-dasharray:5 2}
.n .h{font-weight:bold}.n .b,span.b{fill:#555;color:#555;font-weight:normal}
.n.hi rect,.n:focus rect{fill:var(--hi);stroke-width:3}
tr.hi{background:var(--hi)}
.n:focus{outline:none}
text.matched{fill:var(--m)}text.missed{fill:var(--x);font-weight:bold}
text.surplus{fill:var(--s);font-weight:bold;font-style:italic}
.e path{fill:none;stroke-width:1.4}
.e.matched path,.e.plain path{stroke:#555}
.e.missed path{stroke:var(--x);stroke-width:2.2;stroke-dasharray:8 4}
.e.surplus path{stroke:var(--s);stroke-width:2.2;stroke-dasharray:2 3}
.e text{paint-order:stroke;stroke:#fff;stroke-width:3px;text-anchor:middle}
.e.matched text,.e.plain text{fill:#333}.e.missed text{fill:var(--x);font-weight:bold}
.e.surplus text{fill:var(--s);font-weight:bold;font-style:italic}
.e.matched path{marker-end:url(#a-matched)}.e.plain path{marker-end:url(#a-plain)}
.e.missed path{marker-end:url(#a-missed)}.e.surplus path{marker-end:url(#a-surplus)}
marker.matched path,marker.plain path{fill:#555}marker.missed path{fill:var(--x)}
marker.surplus path{fill:var(--s)}
li.matched{color:var(--m)}li.missed{color:var(--x);font-weight:bold}
li.surplus{color:var(--s);font-weight:bold;font-style:italic}
.tv ul{margin:0;padding-left:1.2em}.tv td,.tv th{vertical-align:top;text-align:left;padding:2px 6px}
.lists{display:flex;flex-wrap:wrap;gap:0 2em}.lists section{min-width:18em}
.lists ul{margin:.2em 0;padding-left:1.2em}
.note{color:#7a3b00}
.umr>div{flex:1 1 46%;min-width:20em}
[hidden]{display:none}
"""

SCRIPT = r"""
(function () {
  "use strict";
  var body = document.body;
  window.addEventListener("error", function (e) { body.setAttribute("data-error", String(e.message)); });
  var table = document.getElementById("pairs");
  var view = document.getElementById("view");
  var filter = document.getElementById("filter");
  var count = document.getElementById("shown");

  function params() {
    var out = {};
    location.hash.slice(1).split("&").forEach(function (part) {
      var k = part.indexOf("=");
      if (k > 0) {
        try { out[decodeURIComponent(part.slice(0, k))] = decodeURIComponent(part.slice(k + 1)); }
        catch (e) { /* a malformed address part is ignored */ }
      }
    });
    return out;
  }

  function link(root) {
    function mark(event, on) {
      var from = event.target.closest ? event.target.closest("[data-a]") : null;
      if (!from) { return; }
      var key = from.getAttribute("data-a");
      root.querySelectorAll("[data-a]").forEach(function (el) {
        if (el.getAttribute("data-a") === key) { el.classList.toggle("hi", on); }
      });
    }
    root.addEventListener("mouseover", function (e) { mark(e, true); });
    root.addEventListener("mouseout", function (e) { mark(e, false); });
    root.addEventListener("focusin", function (e) { mark(e, true); });
    root.addEventListener("focusout", function (e) { mark(e, false); });
  }

  function show(id) {
    var found = null;
    document.querySelectorAll("template[data-id]").forEach(function (t) {
      if (found === null && t.getAttribute("data-id") === id) { found = t; }
    });
    if (found === null || view === null) { return; }
    while (view.firstChild) { view.removeChild(view.firstChild); }
    view.appendChild(found.content.cloneNode(true));
    if (table) {
      table.querySelectorAll("tbody tr").forEach(function (tr) {
        tr.classList.toggle("sel", tr.getAttribute("data-id") === id);
      });
    }
    view.setAttribute("data-shown", id);
  }

  function sortBy(column) {
    if (!table) { return; }
    var down = column.charAt(0) === "-";
    var name = down ? column.slice(1) : column;
    var heads = table.querySelectorAll("thead th");
    var index = -1, numeric = false;
    heads.forEach(function (th, k) {
      if (th.getAttribute("data-k") === name) { index = k; numeric = th.hasAttribute("data-n"); }
      th.removeAttribute("aria-sort");
    });
    if (index < 0) { return; }
    heads[index].setAttribute("aria-sort", down ? "descending" : "ascending");
    var tbody = table.tBodies[0];
    var rows = Array.prototype.slice.call(tbody.rows);
    function value(tr) {
      var v = tr.cells[index].getAttribute("data-v");
      if (v === null) { v = tr.cells[index].textContent; }
      return numeric ? parseFloat(v) : v.toLowerCase();
    }
    rows.sort(function (a, b) {
      var x = value(a), y = value(b);
      var c = x < y ? -1 : x > y ? 1 : 0;
      if (c === 0) { c = parseInt(a.getAttribute("data-k"), 10) - parseInt(b.getAttribute("data-k"), 10); }
      return down ? -c : c;
    });
    rows.forEach(function (tr) { tbody.appendChild(tr); });
    table.setAttribute("data-sorted", column);
  }

  function filterBy(text) {
    if (!table) { return; }
    var q = text.toLowerCase(), n = 0;
    Array.prototype.forEach.call(table.tBodies[0].rows, function (tr) {
      var hit = q === "" || tr.textContent.toLowerCase().indexOf(q) >= 0;
      tr.hidden = !hit;
      n += hit ? 1 : 0;
    });
    if (count) { count.textContent = String(n); }
  }

  function follow() {
    var p = params();
    if (p.sort) { sortBy(p.sort); }
    if (p.q !== undefined && filter) { filter.value = p.q; filterBy(p.q); }
    if (p.id !== undefined) { show(p.id); }
  }

  if (table) {
    table.querySelectorAll("thead th[data-k] button").forEach(function (button) {
      button.addEventListener("click", function () {
        var th = button.parentNode;
        var k = th.getAttribute("data-k");
        sortBy(th.getAttribute("aria-sort") === "ascending" ? "-" + k : k);
      });
    });
  }
  if (filter) { filter.addEventListener("input", function () { filterBy(filter.value); }); }
  if (view) { link(view); }
  window.addEventListener("hashchange", follow);
  follow();
  body.setAttribute("data-ready", "1");
}());
"""
