"""mrp-score's command line: its arguments, their help, and the checks made before anything is read."""

from __future__ import annotations

import argparse
from typing import List, Optional, Sequence, cast

from mrp.cli.common import (
    add_read_options,
    add_selection_options,
    check_frameworks,
    fail,
    new_parser,
    refuse_overwrite,
)
from mrp.errors import MRPError
from mrp.metrics import checked, names

PROGRAM = "mrp-score"

EPILOG = """\
examples:
  mrp-score --gold gold.mrp system.mrp
      the MRP metric (exact), one JSON object on stdout
  mrp-score --framework eds --trace --errors errors.json --gold gold.mrp system.mrp
      per-item counts under "scores", missing and surplus tuples in errors.json
  mrp-score --score smatch --explain report.html --gold gold.amr system.amr
      an HTML report: each pair's graphs drawn side by side, matches and misses marked
  mrp-score --jobs 2 --limit 100000 --output result.json --gold gold.mrp system.mrp
  mrp-score --format amr --no-wiki --gold gold.amr system.amr
  mrp-score --bootstrap --seed 1 --gold gold.mrp system.mrp
      adds 95% confidence intervals ("ci") to the micro and macro scores
  mrp-score -b --score smatch --gold gold.amr system.amr
      the F alone, one line (as sacrebleu -b)
  mrp-score --table --gold gold.mrp a.mrp b.mrp c.mrp
      a leaderboard of three systems with intervals and paired significance tests
  mrp-score --format amr --standardize dereify --aspects --gold gold.amr system.amr
  mrp-score --validate --timeout 10 --gold gold.mrp system.mrp
  mrp-score --framework dm --text wsj.txt --n 10 --gold gold.mrp system.sdp
      an SDP file names no framework; the first 10 gold graphs and their system graphs

exit status: 0 scored (invalid system graphs are counted in "invalid" and score zero; pairs
stopped by --limit/--timeout (default 60 s) or failing are counted under "cut"); 2 nothing
scored (bad arguments, unreadable files, any invalid gold graph, or no system graph pairing
with a gold graph); 130 interrupted (nothing written); 141 stdout closed (| head).
To convert between formats, see mrp-convert --help; mtool's command line: mrp-mtool --help.
"""


def chosen(argv: Sequence[str]) -> Optional[List[str]]:
    """The metrics an argument list names (--score, --aspects, --unlabeled), or None with --help (every
    metric's options are then shown)."""
    if "-h" in argv or "--help" in argv:
        return None
    first = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    first.add_argument("--score", default="mrp")
    first.add_argument("--aspects", action="store_true")
    first.add_argument("--unlabeled", action="store_true")
    known, _ = first.parse_known_args(list(argv))
    names = [name.strip() for name in known.score.split(",") if name.strip()]
    names += ["aspects"] * known.aspects + ["unlabeled"] * known.unlabeled
    from mrp.metrics import canonical

    out = []
    for name in names:
        try:
            out.append(canonical(name))
        except MRPError:
            continue  # refused with its message once the arguments are read
    return out


def add_metric_options(p: argparse.ArgumentParser, metrics: Optional[Sequence[str]]) -> None:
    """The options of these metrics (every metric's for None), from the keyword table the library's
    keywords come from (each metric's declared parameters: a new one is a flag without an edit here)."""
    from mrp.pipeline import metric_keywords

    group = p.add_argument_group("options of the metrics (given with the metric they belong to)")
    for keyword in metric_keywords(metrics):
        group.add_argument(cast(str, keyword.flag), **keyword.argument())  # a metric's keyword has its flag


def add_run_options(p: argparse.ArgumentParser, *names: str) -> None:
    """The flags of these keywords of every run, in this order, from the keyword table the library's
    keywords come from (each keyword's flag, destination, type, argument name, default, choices and help)."""
    from mrp.pipeline import run_keywords

    for keyword in run_keywords(names):
        p.add_argument(cast(str, keyword.flag), **keyword.argument())  # a run keyword with a flag


def owner(flag: str) -> Optional[str]:
    """The metric an option belongs to (the first in the registry's order), or None."""
    from mrp.pipeline import metric_keywords

    given = flag.split("=", 1)[0]
    return next((keyword.owners[0] for keyword in metric_keywords() if keyword.flag == given), None)


def parser(metrics: Optional[Sequence[str]] = None) -> argparse.ArgumentParser:
    """The argument parser of mrp-score, with the options of ``metrics`` (None: every metric's)."""
    p = new_parser(PROGRAM, "Score system graphs against gold graphs (MRP metric with a provably optimal "
                    "node correspondence). Prints one JSON document; with several SYSTEM files, a "
                    "leaderboard.", EPILOG)
    p.add_argument("system", metavar="SYSTEM", nargs="+",
                   help="system graphs ('-' for stdin), e.g. system.mrp; several files give a leaderboard")
    p.add_argument("--gold", required=True, metavar="GOLD", help="gold graphs, e.g. --gold gold.mrp")
    p.add_argument("--score", default="mrp", metavar="METRIC[,METRIC...]",
                   help=f"metrics to compute: {', '.join(names())} (mrp is the default); with several "
                        "(e.g. --score mrp,smatch,edm) the JSON is keyed by metric name and the "
                        "inputs are read once")
    add_run_options(p, "format", "gold_format", "read", "framework")
    add_read_options(p)
    add_selection_options(p)
    add_run_options(p, "positional", "standardize")
    p.add_argument("--aspects", action="store_true",
                   help="add fine-grained AMR aspect scores (named entities, negation, ...) "
                        "under \"aspects\"")
    add_run_options(p, "triples", "trace", "errors", "explain", "explain_id", "limit", "timeout",
                    "max_memory", "mip", "jobs")
    p.add_argument("--unlabeled", action="store_true",
                   help="add the MRP metric with edge and node labels ignored (as --score unlabeled)")
    add_run_options(p, "bootstrap", "seed")
    p.add_argument("--significance", choices=("randomization", "bootstrap"), default="randomization",
                   help="leaderboard: paired test between adjacent systems: approximate randomization "
                        "(default) or paired bootstrap")
    p.add_argument("--table", action="store_true",
                   help="print the result as a plain-text table instead of JSON (a leaderboard with "
                        "several systems)")
    p.add_argument("-b", "--score-only", action="store_true",
                   help="print only the primary figure (F; AnCast: LRM F; SemBLEU: its score), one line per "
                        "metric and system, like sacrebleu -b (the JSON still goes to --output)")
    p.add_argument("--validate", action="store_true",
                   help="first report every problem of GOLD and SYSTEM on stderr (as mrp-validate), "
                        "then score")
    p.add_argument("--output", metavar="FILE", help="write the JSON here instead of stdout")
    add_metric_options(p, metrics)
    p.add_argument("--quiet", action="store_true",
                   help="no progress line, and do not list skipped or unpaired graphs one by one "
                        "(counts are still printed)")
    return p


def check(args: argparse.Namespace) -> None:
    for name in ("limit", "timeout", "max_memory", "bootstrap", "seed"):
        setattr(args, name, checked(name, getattr(args, name), flag=True))
    if args.errors == "-":
        fail(PROGRAM, "--errors -: standard output carries the report; name a file, e.g. "
                      "--errors errors.json")
    if len(args.system) > 1 and args.errors:
        fail(PROGRAM, "--errors works with one SYSTEM file")
    if args.score_only and args.table:
        fail(PROGRAM, "--score-only and --table: choose one")
    if len(set(args.system)) != len(args.system):
        fail(PROGRAM, "a SYSTEM file is named twice")
    check_frameworks(PROGRAM, args.framework)
    from mrp.cli.explain import check_arguments

    check_arguments(args)
    refuse_overwrite(PROGRAM, [args.output, args.errors, args.explain],
                     [args.gold, *args.system, args.text, args.select_filter])
