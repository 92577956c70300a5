"""mrp-convert: convert graphs between formats."""

from __future__ import annotations

import argparse
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional

from mrp.cli.common import (
    FATAL,
    OK,
    PROBLEMS,
    add_read_options,
    add_selection_options,
    check_frameworks,
    fail,
    input_format,
    new_parser,
    read_ids,
    read_options,
    refuse_overwrite,
    report,
    report_repairs,
    run,
    select,
    selecting,
    warn,
)
from mrp.codecs import WriteOptions, infer_format, writer
from mrp.corpora import read_corpus
from mrp.errors import FormatError
from mrp.graph import Graph
from mrp.io.write import output, write_text

PROGRAM = "mrp-convert"
#: The MRP format version written for graphs converted from other formats.
MRP_VERSION = 1.1

EPILOG = """\
examples:
  mrp-convert --from amr --to mrp --no-wiki --wsj-ids --text wsj.txt wsj.amr wsj.mrp
  mrp-convert --from dm --to mrp --text wsj.txt wsj.sdp > wsj.mrp
  mrp-convert --from mrp --to dot graphs.mrp graphs.dot
  mrp-convert --to html graphs.amr graphs.html
      the graphs drawn in one self-contained HTML page (no Graphviz needed)
  mrp-convert --to dot --errors errors.json --id 20001001 gold.mrp graph.dot
      one gold graph with the differences of mrp-score --errors errors.json drawn in

exit status: 0 every graph converted; 1 some graphs could not be read or written (each
is reported with file, line and graph id, and the rest is converted); 2 nothing converted
(or bad arguments, or an unreadable file); 141 stdout closed (| head).
"""


def parser() -> argparse.ArgumentParser:
    """The argument parser of mrp-convert."""
    p = new_parser(PROGRAM, "Convert meaning representation graphs between formats "
                    "(mrp, amr, eds, dm, psd; dot and html for pictures).", EPILOG)
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
    add_selection_options(p)
    p.add_argument("--errors", metavar="FILE",
                   help="DOT: colour the missing (red) and surplus (blue) tuples of mrp-score --errors FILE "
                        "on the GOLD graphs (a graph the file does not describe is refused)")
    layout = p.add_argument_group("AMR output layout (penman's options, with penman's placement of each "
                                  "node and triple; without them an unchanged graph is written exactly as "
                                  "its file wrote it)")
    layout.add_argument("--indent", metavar="N",
                        help="indent N spaces per level (-1: aligned, as penman's default; 'no': one line "
                             "per graph; default 6, as the AMR releases, or -1 with --penman)")
    layout.add_argument("--compact", action="store_true", help="a node's constants on the node's line")
    layout.add_argument("--triples", action="store_true", help="each graph as a conjunction of triples")
    layout.add_argument("--make-variables", metavar="FMT",
                        help="each node's variable made anew from FMT, as penman's: {prefix} (the first "
                             "letter of the concept), {i} (0-based count of the prefix) or {j} (empty, then "
                             "2, 3, ...), e.g. '{prefix}{j}'")
    layout.add_argument("--penman", action="store_true",
                        help="write as penman's command line does: the comment lines as its metadata (each "
                             "::key on its own line, other comments left out), indent -1 unless --indent; "
                             "mrp-convert --penman [OPTIONS] F gives the output of penman [OPTIONS] F")
    return p


def _indent(text: str) -> Optional[int]:
    """--indent: an integer of at least -1, or 'no' for one line (None)."""
    if text.lower() in ("no", "none", "false"):
        return None
    try:
        value = int(text)
    except ValueError:
        value = -2
    if value < -1:
        fail(PROGRAM, f"--indent {text}: an integer of at least -1, or 'no'")
    return value


def penman_style(args: argparse.Namespace, target: str) -> Any:
    """The Penman layout the options ask for (None: as the file wrote each unchanged graph)."""
    if not (args.indent is not None or args.compact or args.triples or args.make_variables is not None
            or args.penman):
        return None
    if target != "amr":
        fail(PROGRAM, "--indent, --compact, --triples, --make-variables and --penman lay out AMR (Penman) "
                      f"output; the output is {target}")
    from mrp.codecs import Style

    if args.make_variables is not None:
        _check_variables(args.make_variables)
    default = -1 if args.penman else 6
    return Style(indent=default if args.indent is None else _indent(args.indent), compact=args.compact,
                 triples=args.triples, variables=args.make_variables, metadata=args.penman)


def _check_variables(form: str) -> None:
    """--make-variables: a format of {prefix}, {i} and {j} that numbers a prefix met again (penman itself
    loops for ever on a format without {i} or {j})."""
    try:
        first = form.format(prefix="a", i=0, j="")
        second = form.format(prefix="a", i=1, j=2)
    except (KeyError, IndexError, ValueError, AttributeError) as error:
        fail(PROGRAM, f"--make-variables {form}: not a format of {{prefix}}, {{i}} and {{j}} ({error})")
    if first == second:
        fail(PROGRAM, f"--make-variables {form}: gives one variable to every node with the same prefix "
                      "(use {i} or {j})")


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


def report_error(error: FormatError, name: str, lines: Dict[Any, Optional[int]]) -> FormatError:
    """Report a graph left out, naming its file and line; returns the error."""
    if error.file is None:
        error.file = name
        error.line = lines.get((error.framework, error.graph_id or ""))
    report(error, " (skipped)")
    return error


def _errors(path: Optional[str]) -> Optional[Dict[str, Any]]:
    """The --errors file of mrp-score (or mtool): JSON {framework: {id: differences}}; exit 2 otherwise."""
    if not path:
        return None
    import json

    try:
        with open(path, encoding="utf-8") as stream:
            errors = json.load(stream)
    except (ValueError, UnicodeDecodeError) as error:
        fail(PROGRAM, f"{path}: not an --errors file of mrp-score (JSON): {error}")
    if not isinstance(errors, dict) or not all(isinstance(v, dict) for v in errors.values()):
        fail(PROGRAM, f"{path}: not an --errors file of mrp-score ({{framework: {{id: ...}}}} expected)")
    for table in errors.values():
        for entry in table.values():
            if isinstance(entry, dict) and "triples" in entry:
                fail(PROGRAM, f"{path}: holds SMATCH differences; DOT draws the MRP metric's: "
                              "mrp-score --score mrp --errors FILE")
    return errors


def main_body(argv: List[str]) -> int:
    """Run mrp-convert on arguments; returns the exit status."""
    args = parser().parse_args(argv)
    refuse_overwrite(PROGRAM, [args.output], [args.input, args.text, args.errors, args.select_filter])
    if args.framework:
        check_frameworks(PROGRAM, [args.framework])
    source = input_format(args.input, args.source, "--from")
    target = args.target or (infer_format(args.output, "mrp") if args.output != "-" else "mrp")
    if target.lower() == "html" or (args.target is None and args.output.lower().endswith((".html", ".htm"))):
        return _html(args, source)
    write = writer(target)
    if source == "sdp" and not args.framework:
        fail(PROGRAM, f"{args.input}: an SDP file does not name its framework: give --framework dm or "
                      "--framework psd (or --from dm)")
    if source in ("dm", "psd", "sdp") and not args.text:
        fail(PROGRAM, f"{args.input}: reading {source} needs the sentences: give --text FILE "
                      "(id<TAB>sentence lines), e.g. --text wsj.txt")
    errors = _errors(args.errors)
    # keep what a file holds to write it again (a Penman graph's text, a CoNLL-U sentence's enhanced graph)
    options = replace(read_options(args, args.framework if source == "sdp" else None), keep=True,
                      companions=not args.framework)
    corpus = read_corpus(args.input, source, options)
    for error in corpus.errors:
        report(error, " (skipped)")
    report_repairs(corpus)
    unwritable: List[FormatError] = []
    refused: List[FormatError] = []

    lines = {(g.framework, g.id): g.line for g in corpus.graphs}

    def skipped(error: FormatError) -> None:
        unwritable.append(report_error(error, corpus.name, lines))

    graphs = [g for g in corpus.graphs if not args.framework or g.framework in (None, args.framework)]
    if selecting(args):
        graphs = select(graphs, args, read_ids(args.select_filter) if args.select_filter else None)
    if errors is not None and target == "dot":
        from mrp.cli.dot_check import drawable

        def refuse(error: FormatError) -> None:
            refused.append(report_error(error, corpus.name, lines))

        graphs = drawable(graphs, errors, refuse)
    stamp(graphs, source)
    options_out = WriteOptions(errors=errors, skipped=skipped, penman=penman_style(args, target))
    with output(args.output) as stream:
        write(graphs, stream, options_out)
    converted = len(graphs) - len(unwritable)
    skipped_count = len(corpus.errors) + len(unwritable) + len(refused)
    if converted <= 0:
        what = f"{skipped_count} graph(s) skipped" if skipped_count else "no graph selected"
        if args.framework and not any(g.framework == args.framework for g in corpus.graphs):
            what += f"; the file holds no graph of framework {args.framework}"
        warn(PROGRAM, f"nothing converted ({what})")
        return FATAL
    if skipped_count:
        warn(PROGRAM, f"{skipped_count} graph(s) skipped; {converted} converted")
        return PROBLEMS
    return OK


def _html(args: argparse.Namespace, source: str) -> int:
    """--to html: the graphs drawn (no scoring), one self-contained page (see mrp-score --explain)."""
    from mrp.explain.build import graphs_page

    if args.errors:
        fail(PROGRAM, "--errors draws differences in DOT; for HTML with differences, use mrp-score --explain")
    corpus = read_corpus(args.input, source, read_options(args, args.framework if source == "sdp" else None))
    for error in corpus.errors:
        report(error, " (skipped)")
    report_repairs(corpus)
    graphs = [g for g in corpus.graphs if not args.framework or g.framework in (None, args.framework)]
    if selecting(args):
        graphs = select(graphs, args, read_ids(args.select_filter) if args.select_filter else None)
    if not graphs:
        warn(PROGRAM, "nothing converted (no graph selected)")
        return FATAL
    page = graphs_page(graphs, f"graphs of {corpus.name}")
    write_text(args.output, page, errors="replace")
    return PROBLEMS if corpus.errors else OK


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-convert."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
