"""mrp-convert: convert graphs between formats."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone
from typing import List, Optional

from ..codecs import WriteOptions, infer_format, writer
from ..errors import FormatError
from ..graph import Graph
from ..load import read_corpus
from .common import OK, PROBLEMS, add_read_options, new_parser, read_options, report, run, warn

PROGRAM = "mrp-convert"
#: The MRP format version written for graphs converted from other formats.
MRP_VERSION = 1.1

EPILOG = """\
examples:
  mrp-convert --from amr --to mrp --no-wiki --wsj-ids --text wsj.txt wsj.amr wsj.mrp
  mrp-convert --from dm --to mrp --text wsj.txt wsj.sdp > wsj.mrp
  mrp-convert --from mrp --to dot graphs.mrp graphs.dot

exit status: 0 every graph converted; 1 some graphs could not be read or written (each
is reported with file, line and graph id, and the rest is converted); 2 nothing converted.
"""


def parser() -> argparse.ArgumentParser:
    """The argument parser of mrp-convert."""
    p = new_parser(PROGRAM, "Convert meaning representation graphs between formats "
                    "(mrp, amr, eds, dm, psd; dot for pictures).", EPILOG)
    p.add_argument("input", metavar="INPUT", nargs="?", default="-",
                   help="input file ('-' or omitted: stdin), e.g. wsj.amr")
    p.add_argument("output", metavar="OUTPUT", nargs="?", default="-",
                   help="output file ('-' or omitted: stdout), e.g. wsj.mrp")
    p.add_argument("--from", dest="source", metavar="FMT",
                   help="input format (default: from INPUT's extension), e.g. --from amr")
    p.add_argument("--to", dest="target", metavar="FMT",
                   help="output format (default: from OUTPUT's extension, else mrp), e.g. --to mrp")
    p.add_argument("--framework", metavar="NAME",
                   help="set the framework of formats that do not name one, and keep only graphs "
                        "of it in those that do, e.g. --framework psd")
    add_read_options(p)
    p.add_argument("--errors", metavar="FILE",
                   help="DOT: colour the missing (red) and surplus (blue) tuples of mrp-score --errors FILE")
    return p


def stamp(graphs: List[Graph], source: str) -> None:
    """Give graphs read from a format other than MRP the version and time that MRP requires.

    (mtool drops MRP lines without time.)
    """
    if source == "mrp":
        return
    today = datetime.now(timezone.utc).strftime("%Y-%m-%d")
    for graph in graphs:
        graph.version = graph.version if graph.version is not None else MRP_VERSION
        graph.time = graph.time or today


def main_body(argv: List[str]) -> int:
    """Run mrp-convert on arguments; returns the exit status."""
    args = parser().parse_args(argv)
    source = args.source or infer_format(args.input)
    target = args.target or (infer_format(args.output, "mrp") if args.output != "-" else "mrp")
    write = writer(target)
    options = read_options(args, args.framework)
    corpus = read_corpus(args.input, source, options)
    errors = None
    if args.errors:
        import json

        with open(args.errors, encoding="utf-8") as stream:
            errors = json.load(stream)
    for error in corpus.errors:
        report(error, " (skipped)")
    unwritable: List[FormatError] = []

    lines = {(g.framework, g.id): g.line for g in corpus.graphs}

    def skipped(error: FormatError) -> None:
        if error.file is None:
            error.file = corpus.name
            error.line = lines.get((error.framework, error.graph_id or ""))
        report(error, " (skipped)")
        unwritable.append(error)

    graphs = [g for g in corpus.graphs if not args.framework or g.framework in (None, args.framework)]
    stamp(graphs, source)
    options_out = WriteOptions(errors=errors, skipped=skipped)
    if args.output == "-":
        write(graphs, sys.stdout, options_out)
    else:
        with open(args.output, "w", encoding="utf-8") as stream:
            write(graphs, stream, options_out)
    skipped_count = len(corpus.errors) + len(unwritable)
    if skipped_count:
        warn(PROGRAM, f"{skipped_count} graph(s) skipped; {len(graphs) - len(unwritable)} converted")
        return PROBLEMS
    return OK


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-convert."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
