"""mrp-analyze: graph-bank statistics (Kuhlmann & Oepen 2016, as mtool's --analyze) per framework, as JSON
or a table; stdout carries only the report."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Dict, List, Optional

from mrp.cli.common import (
    add_read_options,
    input_format,
    new_parser,
    read_options,
    refuse_overwrite,
    report,
    run,
)
from mrp.graph import Graph

PROGRAM = "mrp-analyze"

EPILOG = """\
examples:
  mrp-analyze wsj.mrp
      one JSON object: per framework, every statistic by name
  mrp-analyze --table dm/wsj.mrp psd/wsj.mrp eds/wsj.mrp
      mtool's figures, one column per framework
  mrp-analyze --html stats.html */wsj.mrp
      the JSON, and the per-graph distributions drawn in one HTML page
  mrp-mtool --read mrp --analyze wsj.mrp
      mtool's own numbered lines (the drop-in)

statistics (mtool's definitions, on the graphs as read): tops, node labels, properties, anchors, edges and
edge attributes (and their share of all these tuples), edge labels; percentages of graphs that are trees,
of treewidth one, cyclic, not connected, multi-rooted; treewidth (exact; mtool's QuickBB runs to completion,
so it reports the same) and edge density on average; reentrant nodes and non-top roots among the nodes
that are no singletons; for DM and PSD (flavor 0) edge length, non-crossing and page number two.

exit status: 0 analyzed (unreadable graphs are listed on stderr and left out); 2 nothing to analyze.
"""


def parser() -> argparse.ArgumentParser:
    """The argument parser of mrp-analyze."""
    p = new_parser(PROGRAM, "Graph-bank statistics per framework (Kuhlmann & Oepen 2016; mtool's --analyze).",
                   EPILOG)
    p.add_argument("files", metavar="FILE", nargs="+", help="graph files ('-' for stdin), e.g. wsj.mrp")
    p.add_argument("--format", metavar="FMT", help="format of the files (default: from each extension)")
    p.add_argument("--framework", action="append", metavar="NAME",
                   help="only graphs of this framework (repeatable)")
    p.add_argument("--table", action="store_true", help="a plain-text table instead of JSON")
    p.add_argument("--html", metavar="FILE",
                   help="also write the distributions per framework (nodes, edges, treewidth, edge density, "
                        "reentrant nodes per graph) as bar charts in one HTML page")
    add_read_options(p)
    return p


def _grouped(args: argparse.Namespace) -> Dict[str, List[Graph]]:
    from mrp.corpora import read_corpus

    groups: Dict[str, List[Graph]] = {}
    for path in args.files:
        fmt = input_format(path, args.format, "--format")
        corpus = read_corpus(path, fmt, read_options(args))
        for error in corpus.errors:
            report(error, " (skipped)")
        for graph in corpus.graphs:
            framework = graph.framework or "none"
            if not args.framework or framework in args.framework:
                groups.setdefault(framework, []).append(graph)
    return groups


def table(figures: Dict[str, List[str]]) -> str:
    """mtool's figures, a row per statistic and a column per framework."""
    names = list(figures)
    rows = [["", *names]]
    for k, line in enumerate(next(iter(figures.values()))):
        label = line.split("\t")[1]
        rows.append([label, *[figures[name][k].split("\t")[2] for name in names]])
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    return "".join("  ".join(cell.ljust(widths[c]) if c == 0 else cell.rjust(widths[c])
                             for c, cell in enumerate(row)).rstrip() + "\n" for row in rows)


def main_body(argv: List[str]) -> int:
    """Run mrp-analyze on arguments; returns the exit status."""
    from mrp.errors import InputError
    from mrp.report.analysis import analyze, mtool_lines, to_json

    args = parser().parse_args(argv)
    refuse_overwrite(PROGRAM, [args.html], args.files)
    groups = _grouped(args)
    if not groups:
        raise InputError("no graph to analyze" + (f" of framework {', '.join(args.framework)}"
                                                  if args.framework else ""))
    totals = {name: analyze(graphs) for name, graphs in groups.items()}
    if args.html:
        from mrp.io.write import write_text
        from mrp.report.analysis_html import page

        write_text(args.html, page(totals))
    if args.table:
        lines = {name: mtool_lines(total) for name, total in totals.items()}
        if len({len(found) for found in lines.values()}) > 1:  # a framework without tuples: its own table
            sys.stdout.write("".join(table({name: found}) for name, found in lines.items()))
        else:
            sys.stdout.write(table(lines))
    else:
        sys.stdout.write(json.dumps({name: to_json(total) for name, total in totals.items()}) + "\n")
    return 0


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-analyze."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
