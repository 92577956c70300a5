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
from mrp.errors import MRPError, OptionError
from mrp.metrics import AUTO, AUTO_MAX, DEFAULT_MAX_MEMORY, DEFAULT_TIMEOUT, checked, names

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
    p.add_argument("--format", metavar="FMT",
                   help="format of every input, GOLD too unless --gold-format (default: from each "
                        "file's extension, else its content), e.g. --format amr")
    p.add_argument("--gold-format", metavar="FMT",
                   help="format of GOLD (default: --format, else from its extension, else its content), "
                        "e.g. --gold-format mrp")
    p.add_argument("--read", choices=("generated",),
                   help="generated: each SYSTEM file is a language model's responses (JSON Lines), the graph "
                        "found in each (Markdown fences, text around it), repaired as Penman is, an unusable "
                        "one scored as empty; the result gives the well-formed and repaired rates")
    p.add_argument("--framework", action="append", metavar="NAME",
                   help="score only graphs of this framework (repeatable), e.g. --framework eds")
    add_read_options(p)
    add_selection_options(p)
    p.add_argument("--positional", action="store_true",
                   help="pair graphs by position: files with graph ids whatever their ids (as smatch "
                        "does; refused when they hold different numbers of graphs; ids_differ counts the ids "
                        "that differ), files without ids even when they hold different numbers of graphs "
                        "(otherwise refused: every later pair would be misaligned)")
    p.add_argument("--standardize", default="none", metavar="PRESET",
                   help="AMR standardization applied to gold and system alike: none (default), smatchpp, "
                        "reify, dereify, or options joined by '+' (roles, reify, dereify, attributes, "
                        "dedupe, no-wiki), e.g. --standardize roles+dedupe")
    p.add_argument("--aspects", action="store_true",
                   help="add fine-grained AMR aspect scores (named entities, negation, ...) "
                        "under \"aspects\"")
    p.add_argument("--triples", choices=("penman", "mrp"),
                   help="smatch on AMR read from Penman: the original SMATCH tool's triples (penman, the "
                        "default) or mtool's triples of the MRP form (mrp, as mrp-mtool counts)")
    p.add_argument("--trace", action="store_true",
                   help="add per-item counts under \"scores\": {framework: {id: {...}}}")
    p.add_argument("--errors", metavar="FILE",
                   help="write per item the correspondence and the missing/surplus tuples, "
                        "e.g. --errors errors.json")
    p.add_argument("--explain", metavar="FILE",
                   help="write an HTML report of every pair (graphs side by side, aligned nodes, matched, "
                        "missed and surplus tuples; one self-contained file), e.g. --explain report.html")
    p.add_argument("--explain-id", metavar="ID",
                   help="with --explain: write only the page of the pair of this gold id")
    p.add_argument("--limit", metavar="N",
                   help="search steps per pair at most (default 5000000); a pair stopped by it is "
                        "reported inexact with an upper bound, e.g. --limit 100000")
    p.add_argument("--timeout", default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"seconds per pair at most (default {DEFAULT_TIMEOUT:g}; 0 or inf: no cap); a pair "
                        "stopped by it keeps its best correspondence and an upper bound, counted under "
                        "\"cut\", e.g. --timeout 10")
    p.add_argument("--max-memory", default=str(DEFAULT_MAX_MEMORY), metavar="BYTES",
                   help="bytes a pair's node-pair arrays may take (default 2G; e.g. 500M, 8G; 0 or inf: no "
                        "cap), estimated before anything is allocated (75 bytes per node pair; ancast and "
                        "umatch at their own measured costs, compat modes too): a pair "
                        "beyond it gets a linear-time correspondence, counted under \"cut\" as limit "
                        "with its upper bound, e.g. --max-memory 8G")
    p.add_argument("--no-mip", action="store_true",
                   help="decide every pair by the branch and bound alone (by default a pair it has not "
                        "closed after 1000 steps goes to a mixed-integer program solved by HiGHS)")
    p.add_argument("--jobs", type=_jobs, default=AUTO, metavar="N|auto",
                   help=f"worker processes; auto (the default): one per CPU, at most {AUTO_MAX}, when there "
                        "is enough to score (else none: the pairs are scored in this process); 1: this "
                        "process alone, no system file read ahead by a child either; results are identical "
                        "for any N")
    p.add_argument("--unlabeled", action="store_true",
                   help="add the MRP metric with edge and node labels ignored (as --score unlabeled)")
    p.add_argument("--bootstrap", nargs="?", const=1000, metavar="N",
                   help="add 95%% confidence intervals (\"ci\") from N bootstrap resamples of the items "
                        "(default N 1000), e.g. --bootstrap or --bootstrap 5000")
    p.add_argument("--seed", default=0, metavar="S",
                   help="random seed of the bootstrap and of significance tests (default 0)")
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


def _jobs(text: str) -> int:
    try:
        number: object = int(text)
    except ValueError:
        number = text
    try:
        return int(checked("jobs", number))
    except OptionError as error:  # argparse names the option: the message without "jobs: "
        raise argparse.ArgumentTypeError(str(error).split(": ", 1)[-1]) from None


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
