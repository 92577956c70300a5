"""mrp-mtool: mtool's command line (``main.py``) for what mrp does: reading, writing, scoring, validation.

Options mean what they mean to mtool (``--read`` the input's format,
``--format`` the gold's, ``--n``/``--i``/``--id`` applied to each file), the
output is mtool's JSON layout, and the counts are mtool's (``--score smatch``
uses its triples of the MRP form of a graph; AMR drops ``:wiki`` unless
``--full``).  What mrp cannot do gets a one-line message naming the mrp
equivalent.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Dict, List, Optional, Set, TextIO, Tuple

from mrp.cli import inputs
from mrp.cli.common import (
    FATAL,
    OK,
    Parser,
    add_selection_options,
    check_frameworks,
    fail,
    input_format,
    refuse_overwrite,
    report,
    run,
    select,
    warn,
)
from mrp.cli.mtool_layout import as_read, as_written, layout, mtool_object, render
from mrp.codecs import ReadOptions, WriteOptions, readable, writer
from mrp.corpora import Corpus, read_text
from mrp.errors import FormatError, OptionError
from mrp.io.write import output, write_text
from mrp.metrics import METRICS as REGISTERED
from mrp.metrics import Execution, Pairing, checked
from mrp.pipeline import read_file, score_pairing
from mrp.pipeline import run_options as options_from
from mrp.report.progress import Line, terminal

PROGRAM = "mrp-mtool"
#: what --read and --format refuse of the formats mrp reads (the codec registry): UCCA XML, which mtool
#: reads with options mrp does not have (refused with a pointer)
REFUSED = {"ucca"}
#: mtool's output formats that mrp writes
WRITES = {"mrp", "dot", "txt", "id", "json", "evaluation"}
#: mtool's metrics (mrp scores each as mtool does)
METRICS = ("mrp", "smatch", "edm", "sdp", "ucca")


def _metric_names() -> str:
    """mtool's metrics as help texts name them, each with its other names (from the registry)."""
    return ", ".join(f"{name} (or {', '.join(aliases)})" if (aliases := REGISTERED[name][1]) else name
                     for name in METRICS)

#: mtool options without an mrp counterpart: name -> the message (nargs: takes a value)
UNSUPPORTED: Dict[str, Tuple[int, str]] = {
    "--inspect": (0, "use mrp-validate and mrp-score --trace"),
    "--reify": (0, "for AMR use mrp-score --standardize reify"),
    "--alignment": (1, "AMR alignment overlays are not supported"),
    "--overlay": (1, "AMR alignment overlays are not supported"),
    "--anchors": (1, "mrp anchors CoNLL-U tokens by TokenRange=FROM:TO in MISC, else by finding the forms in "
                     "'# text'; put the spans there instead of in a separate file"),
    "--inject": (1, "edit the MRP lines instead (mtool evaluates this option as Python code)"),
    "--source": (1, "edit the MRP lines instead"),
    "--targets": (1, "edit the MRP lines instead"),
    "--robust": (0, "mrp reports graphs with edges to missing nodes as invalid (mrp-validate)"),
    "--strict": (0, "not needed: mrp reads as strictly as it can and reports every problem"),
    "--inverse": (0, "not supported"),
    "--version": (1, "mrp-convert writes MRP version 1.1"),
}

EPILOG = """\
examples (mtool's own command lines):
  mrp-mtool --read mrp --score mrp --gold gold.mrp system.mrp
  mrp-mtool --read amr --score smatch --trace --n 500 --gold gold.amr system.amr
  mrp-mtool --read mrp --score mrp --framework eds --cores 0 --errors errors.json --gold gold.mrp system.mrp
  mrp-mtool --read mrp --write dot --id 20001001 graphs.mrp graph.dot

differences from mtool: the search is exact (--limit is not needed); a pair is stopped after
--timeout seconds (default 60; reported on stderr); invalid gold graphs stop the run (exit 2);
options mtool has and mrp cannot honour are named with their mrp equivalent.
"""


def parser() -> argparse.ArgumentParser:
    """The argument parser of mrp-mtool (mtool's options; abbreviations allowed as mtool allows them)."""
    p = Parser(prog=PROGRAM, description="mtool's command line, run by mrp: read, write, score and "
               "validate graphs with mtool's options and output.", epilog=EPILOG,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    from mrp import __version__

    p.add_argument("-V", action="version", version=f"{PROGRAM} {__version__}",
                   help="show mrp's version and exit (mtool's --version is the MRP version it writes)")
    p.add_argument("input", metavar="INPUT", nargs="?", default="-", help="input graphs (default: stdin)")
    p.add_argument("output", metavar="OUTPUT", nargs="?", default="-", help="output (default: stdout)")
    p.add_argument("--read", required=True, metavar="FMT",
                   help="format of INPUT: mrp, amr, eds, dm, psd, conllu (ud), eud")
    p.add_argument("--write", metavar="FMT", help="write INPUT's graphs: mrp, dot, txt, id, evaluation")
    p.add_argument("--format", metavar="FMT", help="format of GOLD (default: --read)")
    p.add_argument("--gold", metavar="FILE", help="gold graphs, needed with --score")
    p.add_argument("--score", metavar="M[,M...]", help=f"metrics: {_metric_names()}")
    p.add_argument("--framework", action="append", metavar="NAME", help="only graphs of this framework")
    p.add_argument("--text", metavar="FILE|DIR", help="id<TAB>sentence lines, or a directory of ID.txt")
    add_selection_options(p)
    p.add_argument("--limit", metavar="N|A:B", help="mtool's search limits (not needed: the search is exact)")
    p.add_argument("--timeout", default=60.0, metavar="SECONDS",
                   help="mrp: seconds per pair at most (default 60; 0: no cap)")
    p.add_argument("--cores", type=int, default=1, metavar="K", help="worker processes (0: all cores)")
    p.add_argument("--trace", "-t", action="count", default=0, help="per-item scores")
    p.add_argument("--errors", metavar="FILE", help="differences per item (with --write dot: pictures)")
    p.add_argument("--normalize", action="append", default=[], metavar="ACTION",
                   help="anchors, case, edges, attributes or all (scoring always applies all)")
    p.add_argument("--validate", action="append", default=[], metavar="ACTION",
                   help="report problems of INPUT on stderr (mrp applies all its checks)")
    p.add_argument("--full", action="store_true", help="AMR: keep :wiki")
    p.add_argument("--ids", action="store_true", help="DOT: node ids (not shown by mrp)")
    p.add_argument("--strings", action="store_true", help="DOT: anchored substrings (always shown)")
    p.add_argument("--pretty", action="store_true", help="DRG typing for pictures (not supported)")
    p.add_argument("--unique", action="store_true", help="drop repeated ids from INPUT (the first wins)")
    p.add_argument("--prefix", metavar="P", help="UCCA XML id prefix (UCCA XML is not read by mrp)")
    p.add_argument("--analyze", action="store_true",
                   help="graph-bank statistics of INPUT (Kuhlmann & Oepen 2016) on stdout, in mtool's "
                        "layout; per framework as JSON or a table: mrp-analyze")
    p.add_argument("--quiet", action="store_true", help="fewer messages")
    for option, (nargs, _) in UNSUPPORTED.items():
        if nargs:
            p.add_argument(option, metavar="X", help=argparse.SUPPRESS)
        else:
            p.add_argument(option, action="store_true", help=argparse.SUPPRESS)
    return p


def _refuse_unsupported(args: argparse.Namespace) -> None:
    for option, (_, message) in UNSUPPORTED.items():
        value = getattr(args, option[2:].replace("-", "_"))
        if value:
            fail(PROGRAM, f"{option} is not honoured by mrp: {message}")


def _notes(args: argparse.Namespace) -> None:
    """Options honoured differently: one line each (unless --quiet)."""
    notes = []
    if args.limit is not None:
        notes.append(f"--limit {args.limit}: not needed, mrp's search is exact (to cap it: "
                     "mrp-score --limit STEPS or --timeout SECONDS)")
    if args.pretty:
        notes.append("--pretty: DRG typing for pictures is not supported; ignored")
    if args.ids:
        notes.append("--ids: mrp's DOT pictures do not show node ids; ignored")
    if args.prefix is not None:
        notes.append("--prefix: mrp reads UCCA only as MRP (mrp-convert); ignored")
    if args.validate and args.validate != ["all"]:
        notes.append(f"--validate {' '.join(args.validate)}: mrp applies all its checks (as mrp-validate)")
    if not args.quiet:
        for note in notes:
            warn(PROGRAM, note)


def _check(args: argparse.Namespace) -> List[str]:
    """Validate the options; returns the metrics to compute."""
    _refuse_unsupported(args)
    reads = set(readable()) - REFUSED
    for option, fmt in (("--read", args.read), ("--format", args.format)):
        if fmt is not None and fmt not in reads:
            fail(PROGRAM, f"{option} {fmt}: mrp-mtool reads {', '.join(sorted(reads))} (UCCA XML: convert "
                          "it with mrp-convert --from ucca; see mrp-convert --help)")
    if args.write is not None and args.write not in WRITES:
        fail(PROGRAM, f"--write {args.write}: mrp writes {', '.join(sorted(WRITES))} "
                      "(see mrp-convert --help)")
    check_frameworks(PROGRAM, args.framework)
    if args.normalize and (args.score or args.normalize != ["all"]):
        fail(PROGRAM, f"--normalize {' '.join(args.normalize)}: mrp's metrics always apply all four "
                      "normalizations, and mrp does not write normalized graphs; drop --normalize")
    if args.cores < 0:
        fail(PROGRAM, "--cores must not be negative")
    if args.cores:
        try:
            checked("jobs", args.cores)  # the one rule of worker processes (0 here: all cores)
        except OptionError as error:
            fail(PROGRAM, "--cores" + str(error)[len("jobs"):])
    args.timeout = checked("timeout", args.timeout, flag=True)
    refuse_overwrite(PROGRAM, [args.output, args.errors],
                     [args.input, args.gold, args.text, args.select_filter])
    if not args.score:
        return []
    if not args.gold:
        fail(PROGRAM, "--score needs --gold FILE")
    metrics = ["mrp" if name.strip() == "mces" else name.strip() for name in args.score.split(",")]
    for metric in metrics:
        if metric not in METRICS:
            fail(PROGRAM, f"--score {metric}: mtool's metrics are {', '.join(METRICS)} "
                          "(mrp-score --help lists mrp's others)")
    return metrics


def _text(path: Optional[str]) -> Optional[Dict[str, str]]:
    """The --text table: a file of id<TAB>sentence lines, or a directory of ID.txt files (as mtool)."""
    return None if path is None else read_text(path)


def _read(path: str, fmt: str, args: argparse.Namespace, text: Optional[Dict[str, str]]) -> Corpus:
    """A file read as mtool reads it: --framework, --filter, then --id, --i or --n, on this file alone."""
    options = ReadOptions(args.framework[0] if fmt == "sdp" and args.framework else None, text,
                          no_wiki=fmt == "amr" and not args.full, wsj_ids=fmt == "amr", mtool=True)
    corpus = read_file(path, fmt, options)
    as_read(corpus.graphs, fmt)
    kept = [g for g in corpus.graphs if not args.framework or g.framework in args.framework]
    corpus.graphs = select(kept, args, inputs.filter_ids(args))
    ids = {g.id for g in corpus.graphs}
    if inputs.selecting(args) or args.framework:
        corpus.errors = [e for e in corpus.errors if e.graph_id in ids]
    inputs.warn_missing_text(PROGRAM, corpus, text, args.quiet)
    return corpus


def _unique(corpus: Corpus) -> Corpus:
    seen: Set[Tuple[Optional[str], str]] = set()
    graphs = []
    for graph in corpus.graphs:
        if (graph.framework, graph.id) not in seen:
            seen.add((graph.framework, graph.id))
            graphs.append(graph)
    corpus.graphs = graphs
    return corpus


def _pairing(args: argparse.Namespace, system: Corpus, text: Optional[Dict[str, str]]) -> Pairing:
    gold_format = input_format(args.gold, args.format or args.read, "--format")
    inputs.check_before_reading(PROGRAM, args.gold, gold_format, args, args.framework, needs_text=False)
    gold = _read(args.gold, gold_format, args, text)
    inputs.check_gold(PROGRAM, gold)
    inputs.check_framework_present(PROGRAM, gold, args.framework, args.quiet)
    return inputs.paired(PROGRAM, gold, system, args.framework, args.quiet)


def _score(args: argparse.Namespace, metrics: List[str], pairing: Pairing, out: TextIO) -> None:
    cores = (os.cpu_count() or 1) if args.cores == 0 else args.cores
    progress = Line(PROGRAM, args.gold, show=terminal(sys.stderr) and not args.quiet)
    null = {(p.gold.framework or "none", p.gold.id) for p in pairing.pairs if p.null}
    errors: Dict[str, object] = {}
    for metric in metrics:
        options = options_from({"timeout": args.timeout or None, "trace": True,
                                "errors": args.errors}, run=Execution(jobs=cores, progress=progress))
        scored = score_pairing(metric, pairing, options)
        result, details = scored.result, scored.details
        out.write(render(layout(metric, result, args.trace > 0, null)))
        out.flush()
        cut = result.get("cut", {})
        if isinstance(cut, dict) and cut.get("n") and not args.quiet:
            stopped = "failing" if args.timeout is None else f"stopped by --timeout {args.timeout:g} s or " \
                                                             "failing"
            warn(PROGRAM, f"{metric}: {cut['n']} pair(s) not proved optimal ({stopped}); mrp-score reports "
                          "their bounds under \"cut\"")
        if details and metric in ("mrp", "smatch") and not errors:
            # as mtool, no entry for a gold graph without a system graph
            errors = {framework: {gid: entry for gid, entry in table.items() if (framework, gid) not in null}
                      for framework, table in details.items()}
    if args.errors:
        _write_errors(args, pairing, errors)


def _write_errors(args: argparse.Namespace, pairing: Pairing, errors: Dict[str, object]) -> None:
    with output(args.errors) as stream:
        if args.write == "dot":
            writer("dot")([p.gold for p in pairing.pairs], stream, WriteOptions(errors=errors))
        else:
            import json

            json.dump(errors, stream)


def _write(args: argparse.Namespace, corpus: Corpus, out: TextIO) -> None:
    from mrp.cli.convert import stamp

    if args.write in (None, "json"):
        return
    graphs = [as_written(graph) for graph in corpus.graphs]  # copies: stamp() changes them in place
    if args.write in ("mrp", "evaluation"):
        stamp(graphs, corpus.format)
    if args.write in ("txt", "id", "evaluation", "mrp"):
        import json

        from mrp.codecs import encode

        for graph in graphs:
            if args.write == "txt":
                out.write(f"{graph.id}\t{graph.input}\n")
            elif args.write == "id":
                out.write(f"{graph.id}\n")
            elif args.write == "mrp":  # the keys mtool writes, and its separators
                try:
                    out.write(json.dumps(mtool_object(encode(graph)), ensure_ascii=False, allow_nan=False)
                              + "\n")
                except ValueError:  # mtool writes NaN, which is no JSON: left out, as mrp-convert does
                    report(FormatError("a number is NaN or Infinity, which JSON does not allow",
                                       graph_id=graph.id, framework=graph.framework), " (skipped)")
            else:
                obj = {k: v for k, v in encode(graph).items() if k not in ("flavor", "framework", "nodes",
                                                                             "edges", "tops")}
                out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        return
    writer(args.write)(graphs, out, WriteOptions(skipped=lambda error: report(error, " (skipped)")))


def main_body(argv: List[str]) -> int:
    """Run mrp-mtool on arguments; returns the exit status."""
    args = parser().parse_args(argv)
    if args.quiet:
        args.trace = 0  # as mtool: --quiet drops the per-item scores too
    metrics = _check(args)
    _notes(args)
    fmt = input_format(args.input, args.read, "--read")
    inputs.check_before_reading(PROGRAM, args.input, fmt, args, args.framework, needs_text=False)
    text = _text(args.text)
    system = _read(args.input, fmt, args, text)
    for error in system.errors:
        report(error, " (skipped)" if not metrics else "")
    if args.unique:
        system = _unique(system)
    if args.validate:
        from mrp.cli.score import validate_report

        validate_report(args.input, fmt, ReadOptions(None, text, not args.full, fmt == "amr"),
                        args.framework)
    if args.analyze:
        from mrp.report.analysis import mtool_analysis

        write_text("-", mtool_analysis(system.graphs))
    with output(args.output) as out:
        if metrics:
            _score(args, metrics, _pairing(args, system, text), out)
        else:
            _write(args, system, out)
    return FATAL if not metrics and args.write not in (None, "json") and not system.graphs else OK


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-mtool."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
