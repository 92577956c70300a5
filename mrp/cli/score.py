"""mrp-score: score system graphs against gold graphs."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Dict, List, Optional

from ..codecs import infer_format
from ..load import read_corpus
from ..report import render
from ..score.metrics import Options, canonical, evaluator
from .common import FATAL, OK, add_read_options, fail, read_options, report, run, warn

PROGRAM = "mrp-score"

EPILOG = """\
examples:
  mrp-score --gold gold.mrp system.mrp
      the MRP metric (exact), one JSON object on stdout
  mrp-score --framework eds --trace --errors errors.json --gold gold.mrp system.mrp
      per-item counts under "scores", missing and surplus tuples in errors.json
  mrp-score --jobs 2 --limit 100000 --output result.json --gold gold.mrp system.mrp
  mrp-score --format amr --no-wiki --gold gold.amr system.amr

exit status: 0 scored (invalid system graphs are counted in "invalid" and score zero);
2 nothing scored (bad arguments, unreadable files, or any invalid gold graph).
To convert between formats, see mrp-convert --help.
"""


def parser() -> argparse.ArgumentParser:
    """The argument parser of mrp-score."""
    p = argparse.ArgumentParser(
        prog=PROGRAM,
        description="Score system graphs against gold graphs (MRP metric with a provably optimal "
                    "node correspondence). Prints one JSON document.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    p.add_argument("system", metavar="SYSTEM", help="system graphs ('-' for stdin), e.g. system.mrp")
    p.add_argument("--gold", required=True, metavar="GOLD", help="gold graphs, e.g. --gold gold.mrp")
    p.add_argument("--score", default="mrp", metavar="METRIC[,METRIC...]",
                   help="metrics to compute: mrp (default), smatch, edm, sdp, ucca; with several "
                        "(e.g. --score mrp,smatch,edm) the JSON is keyed by metric name and the "
                        "inputs are read once")
    p.add_argument("--format", metavar="FMT",
                   help="format of SYSTEM (default: from its extension, else mrp), e.g. --format amr")
    p.add_argument("--gold-format", metavar="FMT",
                   help="format of GOLD (default: --format, else from its extension), e.g. --gold-format mrp")
    p.add_argument("--framework", action="append", metavar="NAME",
                   help="score only graphs of this framework (repeatable), e.g. --framework eds")
    add_read_options(p)
    p.add_argument("--trace", action="store_true",
                   help="add per-item counts under \"scores\": {framework: {id: {...}}}")
    p.add_argument("--errors", metavar="FILE",
                   help="write per item the correspondence and the missing/surplus tuples, "
                        "e.g. --errors errors.json")
    p.add_argument("--limit", type=int, metavar="N",
                   help="search steps per pair at most (default 5000000); a pair stopped by it is "
                        "reported inexact with an upper bound, e.g. --limit 100000")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="worker processes (default 1); results are identical for any N, e.g. --jobs 2")
    p.add_argument("--smatch-compat", action="store_true",
                   help="smatch: reproduce the original SMATCH tool's counts, defects included "
                        "(duplicate triples counted repeatedly, quoted strings cut to their first word)")
    p.add_argument("--output", metavar="FILE", help="write the JSON here instead of stdout")
    p.add_argument("--quiet", action="store_true",
                   help="do not list skipped or unpaired graphs one by one (counts are still printed)")
    return p


def _metrics(spec: str) -> List[str]:
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if not names:
        fail(PROGRAM, "--score names no metric")
    chosen: List[str] = []
    for name in names:
        metric = canonical(name)
        evaluator(metric)  # refuse a metric this installation lacks before reading anything
        if metric not in chosen:
            chosen.append(metric)
    return chosen


def main_body(argv: List[str]) -> int:
    """Run mrp-score on arguments; returns the exit status."""
    args = parser().parse_args(argv)
    metrics = _metrics(args.score)
    if args.jobs < 1:
        fail(PROGRAM, "--jobs must be at least 1")
    if args.limit is not None and args.limit < 0:
        fail(PROGRAM, "--limit must not be negative")
    frameworks = args.framework
    one = frameworks[0] if frameworks and len(frameworks) == 1 else None
    sys_format = args.format or infer_format(args.system, "mrp")
    gold_format = args.gold_format or args.format or infer_format(args.gold, "mrp")
    read = read_options(args, one)

    from ..score.pairing import duplicate_errors, pair

    gold = read_corpus(args.gold, gold_format, read)
    bad = gold.errors + duplicate_errors(gold)
    if bad:
        for error in bad:
            report(error)
        fail(PROGRAM, f"{gold.name}: {len(bad)} invalid gold graph(s); nothing scored")
    system = read_corpus(args.system, sys_format, read)
    pairing = pair(gold, system, frameworks)
    for error in pairing.invalid:
        report(error, " (scored as an empty graph)")
    if not args.quiet:
        for graph in pairing.unpaired:
            warn(PROGRAM, f"{system.name}:{graph.line or '?'}: graph {graph.id}: no gold graph; not scored")
        for graph in pairing.duplicates:
            warn(PROGRAM, f"{system.name}:{graph.line or '?'}: graph {graph.id}: duplicate id; not scored")
    if not pairing.pairs:
        fail(PROGRAM, "no gold graphs to score (check --framework)")

    options = Options(limit=args.limit, trace=args.trace, errors=bool(args.errors), jobs=args.jobs,
                      smatch_compat=args.smatch_compat, penman=sys_format == gold_format == "amr")
    results: Dict[str, Any] = {}
    details: Dict[str, Any] = {}
    for metric in metrics:
        results[metric], found = evaluator(metric)(pairing, options)
        if found:
            details[metric] = found
    if len(metrics) == 1:
        details = details.get(metrics[0], {})
    document = results[metrics[0]] if len(metrics) == 1 else results
    text = render(document)
    if args.errors:
        import json

        with open(args.errors, "w", encoding="utf-8") as stream:
            json.dump(details, stream, ensure_ascii=False)
            stream.write("\n")
    if args.output and args.output != "-":
        with open(args.output, "w", encoding="utf-8") as stream:
            stream.write(text)
    else:
        sys.stdout.write(text)
    return OK if not gold.errors else FATAL


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-score."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
