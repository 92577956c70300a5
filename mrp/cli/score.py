"""mrp-score: score system graphs against gold graphs."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, Tuple

from ..codecs import ReadOptions
from ..load import Corpus, read_corpus
from ..report import render
from ..score.metrics import Options, canonical, evaluator
from ..score.pairing import Pairing
from ..signature import Settings, signature
from . import inputs
from .common import (
    OK,
    add_read_options,
    add_selection_options,
    check_frameworks,
    fail,
    input_format,
    new_parser,
    read_options,
    refuse_overwrite,
    report_repairs,
    run,
    warn,
)
from .progress import Line, terminal

if TYPE_CHECKING:
    from ..standardize import Standardization

PROGRAM = "mrp-score"
#: seconds per pair at most unless --timeout says otherwise (recorded in the signature)
DEFAULT_TIMEOUT = 60.0

EPILOG = """\
examples:
  mrp-score --gold gold.mrp system.mrp
      the MRP metric (exact), one JSON object on stdout
  mrp-score --framework eds --trace --errors errors.json --gold gold.mrp system.mrp
      per-item counts under "scores", missing and surplus tuples in errors.json
  mrp-score --jobs 2 --limit 100000 --output result.json --gold gold.mrp system.mrp
  mrp-score --format amr --no-wiki --gold gold.amr system.amr
  mrp-score --bootstrap --seed 1 --gold gold.mrp system.mrp
      adds 95% confidence intervals ("ci") to the micro and macro scores
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


def parser() -> argparse.ArgumentParser:
    """The argument parser of mrp-score."""
    p = new_parser(PROGRAM, "Score system graphs against gold graphs (MRP metric with a provably optimal "
                    "node correspondence). Prints one JSON document; with several SYSTEM files, a "
                    "leaderboard.", EPILOG)
    p.add_argument("system", metavar="SYSTEM", nargs="+",
                   help="system graphs ('-' for stdin), e.g. system.mrp; several files give a leaderboard")
    p.add_argument("--gold", required=True, metavar="GOLD", help="gold graphs, e.g. --gold gold.mrp")
    p.add_argument("--score", default="mrp", metavar="METRIC[,METRIC...]",
                   help="metrics to compute: mrp (default), smatch, edm, sdp, ucca, aspects, sembleu, "
                        "predications, unlabeled; with several "
                        "(e.g. --score mrp,smatch,edm) the JSON is keyed by metric name and the "
                        "inputs are read once")
    p.add_argument("--format", metavar="FMT",
                   help="format of SYSTEM (default: from its extension, else mrp), e.g. --format amr")
    p.add_argument("--gold-format", metavar="FMT",
                   help="format of GOLD (default: from its extension, else mrp; --format does not apply "
                        "to GOLD), e.g. --gold-format mrp")
    p.add_argument("--framework", action="append", metavar="NAME",
                   help="score only graphs of this framework (repeatable), e.g. --framework eds")
    add_read_options(p)
    add_selection_options(p)
    p.add_argument("--positional", action="store_true",
                   help="pair graphs by position even when two files without graph ids hold different "
                        "numbers of graphs (otherwise refused: every later pair would be misaligned)")
    p.add_argument("--standardize", default="none", metavar="PRESET",
                   help="AMR standardization applied to gold and system alike: none (default), smatchpp, "
                        "reify, dereify, or options joined by '+' (roles, reify, dereify, attributes, "
                        "dedupe, no-wiki), e.g. --standardize roles+dedupe")
    p.add_argument("--aspects", action="store_true",
                   help="add fine-grained AMR aspect scores (named entities, negation, ...) "
                        "under \"aspects\"")
    p.add_argument("--aspect-depth", default="2", metavar="N|full",
                   help="aspects: relation levels kept below a trigger: 2 (default, as Smatch++ extracts) "
                        "or 'full' (everything reachable from the trigger), e.g. --aspect-depth full")
    p.add_argument("--triples", choices=("penman", "mrp"),
                   help="smatch on AMR read from Penman: the original SMATCH tool's triples (penman, the "
                        "default) or mtool's triples of the MRP form (mrp, as mrp-mtool counts)")
    p.add_argument("--trace", action="store_true",
                   help="add per-item counts under \"scores\": {framework: {id: {...}}}")
    p.add_argument("--errors", metavar="FILE",
                   help="write per item the correspondence and the missing/surplus tuples, "
                        "e.g. --errors errors.json")
    p.add_argument("--limit", type=int, metavar="N",
                   help="search steps per pair at most (default 5000000); a pair stopped by it is "
                        "reported inexact with an upper bound, e.g. --limit 100000")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help=f"seconds per pair at most (default {DEFAULT_TIMEOUT:g}; 0: no cap); a pair "
                        "stopped by it keeps its best correspondence and an upper bound, counted under "
                        "\"cut\", e.g. --timeout 10")
    p.add_argument("--no-mip", action="store_true",
                   help="decide every pair by the branch and bound alone (by default a pair it has not "
                        "closed after 1000 steps goes to a mixed-integer program solved by HiGHS)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="worker processes (default 1); results are identical for any N, e.g. --jobs 2")
    p.add_argument("--smatch-compat", action="store_true",
                   help="smatch: reproduce the original SMATCH tool's counts, defects included "
                        "(duplicate triples counted repeatedly, quoted strings cut to their first word)")
    p.add_argument("--unlabeled", action="store_true",
                   help="add the MRP metric with edge and node labels ignored (as --score unlabeled)")
    p.add_argument("--sembleu-weights", type=_weights, metavar="K|W1,W2,...",
                   help="SemBLEU weights of orders 1, 2, 3 (default 0.34,0.33,0.34, as the original; "
                        "K: uniform over orders 1..K), e.g. --sembleu-weights 2")
    p.add_argument("--sembleu-compat", action="store_true",
                   help="SemBLEU: reproduce the original tool, defects included (unreached nodes skipped, "
                        ":/() dropped from strings)")
    p.add_argument("--ancast-compat", action="store_true",
                   help="ancast: reproduce AnCast 0.1.1 (its reading, anchor-broadcast alignment and "
                        "scoring quirks) instead of the proved-optimal alignment")
    p.add_argument("--bootstrap", type=int, nargs="?", const=1000, metavar="N",
                   help="add 95%% confidence intervals (\"ci\") from N bootstrap resamples of the items "
                        "(default N 1000), e.g. --bootstrap or --bootstrap 5000")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="random seed of the bootstrap and of significance tests (default 0)")
    p.add_argument("--significance", choices=("randomization", "bootstrap"), default="randomization",
                   help="leaderboard: paired test between adjacent systems: approximate randomization "
                        "(default) or paired bootstrap")
    p.add_argument("--table", action="store_true",
                   help="print the result as a plain-text table instead of JSON (a leaderboard with "
                        "several systems)")
    p.add_argument("--validate", action="store_true",
                   help="first report every problem of GOLD and SYSTEM on stderr (as mrp-validate), "
                        "then score")
    p.add_argument("--output", metavar="FILE", help="write the JSON here instead of stdout")
    p.add_argument("--quiet", action="store_true",
                   help="no progress line, and do not list skipped or unpaired graphs one by one "
                        "(counts are still printed)")
    return p


def _weights(text: str) -> Any:
    from ..score.sembleu import parse_weights

    try:
        return parse_weights(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _metrics(spec: str, aspects: bool) -> List[str]:
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if aspects:
        names.append("aspects")
    if not names:
        fail(PROGRAM, "--score names no metric")
    chosen: List[str] = []
    for name in names:
        metric = canonical(name)
        evaluator(metric)  # refuse a metric this installation lacks before reading anything
        if metric not in chosen:
            chosen.append(metric)
    return chosen


def _check(args: argparse.Namespace) -> None:
    if args.jobs < 1:
        fail(PROGRAM, "--jobs must be at least 1")
    if args.limit is not None and args.limit < 0:
        fail(PROGRAM, "--limit must not be negative")
    if args.timeout is not None and not args.timeout >= 0:
        fail(PROGRAM, "--timeout must be a number of seconds (0: no cap)")
    if args.bootstrap is not None and args.bootstrap < 1:
        fail(PROGRAM, "--bootstrap needs at least 1 resample")
    if args.aspect_depth != "full" and not (args.aspect_depth.isdigit()):
        fail(PROGRAM, "--aspect-depth must be a number of levels or 'full'")
    if len(args.system) > 1 and args.errors:
        fail(PROGRAM, "--errors works with one SYSTEM file")
    if len(set(args.system)) != len(args.system):
        fail(PROGRAM, "a SYSTEM file is named twice")
    check_frameworks(PROGRAM, args.framework)
    refuse_overwrite(PROGRAM, [args.output, args.errors],
                     [args.gold, *args.system, args.text, args.select_filter])


def validate_report(path: str, fmt: str, read: ReadOptions, frameworks: Optional[List[str]]) -> None:
    """Every problem of a file on stderr, then its summary (as mrp-validate reports them)."""
    from ..validation import validate_for_score

    found = validate_for_score(path, fmt, read, frameworks)
    for problem in found.problems:
        print(problem, file=sys.stderr)
    print(found.summary(), file=sys.stderr)


def _standardized(corpus: Corpus, std: Standardization) -> Corpus:
    if std.active():
        from ..packed import mapped
        from ..standardize import standardize

        if std.structure:
            from ..structure import applies

            missing = sum(graph.framework in (None, "amr") and not applies(graph) for graph in corpus.graphs)
            if missing:
                warn(PROGRAM, f"{corpus.name}: {missing} AMR graph(s) have no Penman layout (read from "
                              "MRP JSON?); structure preservation leaves them unchanged")
        corpus.graphs = mapped(corpus.graphs, lambda graph: standardize(graph, std))
    return corpus


def _read_gold(args: argparse.Namespace, fmt: str, read: ReadOptions) -> Corpus:
    """The gold corpus, valid and selected; exit 2 on any invalid gold graph or absent framework."""
    gold = read_corpus(args.gold, fmt, inputs.read_options_for(fmt, read, args.framework))
    report_repairs(gold)
    inputs.check_gold(PROGRAM, gold)
    inputs.check_framework_present(PROGRAM, gold, args.framework, args.quiet)
    inputs.warn_missing_text(PROGRAM, gold, read.text, args.quiet)
    return inputs.select_gold(gold, args, args.framework)


def _read_system(path: str, fmt: str, read: ReadOptions, gold: Corpus, args: argparse.Namespace,
                 std: Standardization) -> Pairing:
    system = inputs.read_system(path, fmt, inputs.read_options_for(fmt, read, args.framework), gold, args)
    inputs.warn_missing_text(PROGRAM, system, read.text, args.quiet)
    system = _standardized(system, std)
    return inputs.paired(PROGRAM, gold, system, args.framework, args.quiet, args.positional)


def _amr_only(metrics: List[str], pairing: Pairing, std: Standardization, quiet: bool) -> List[str]:
    """Warn about AMR-only options on other frameworks; drop aspects when no AMR graph is scored."""
    others = [name for name in inputs.frameworks_scored(pairing) if name != "amr"]
    if not others:
        return metrics
    where = f"not applied to {', '.join(others)} graphs"
    if std.active() and not quiet:
        warn(PROGRAM, f"--standardize applies to AMR graphs only; {where}")
    if "aspects" in metrics:
        if not quiet:
            warn(PROGRAM, f"--aspects scores AMR graphs only; {where}")
        if "amr" not in inputs.frameworks_scored(pairing):
            metrics = [m for m in metrics if m != "aspects"] or ["mrp"]
    return metrics


def _claimed(settings: Settings, pairing: Pairing) -> Settings:
    """The settings a signature may claim for this pairing (no standardization without AMR graphs)."""
    if "amr" not in inputs.frameworks_scored(pairing):
        return replace(settings, standardization="none")
    return settings


def _evaluate(metric: str, pairing: Pairing, options: Options, args: argparse.Namespace,
              settings: Settings) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """One metric's result with macro scores, intervals and signature; per-item scores only with --trace."""
    from ..score.stats import annotate

    result, found = evaluator(metric)(pairing, options)
    annotate(result, args.bootstrap, args.seed)
    if not args.trace and len(args.system) == 1:
        result.pop("scores", None)
        if isinstance(result.get("documents"), dict):  # AnCast's per-document items
            result["documents"].pop("scores", None)
    result["signature"] = signature(metric, inputs.frameworks_scored(pairing), _claimed(settings, pairing))
    return result, found


def _write(args: argparse.Namespace, text: str, document: Dict[str, Any]) -> None:
    if args.output and args.output != "-":
        with open(args.output, "w", encoding="utf-8") as stream:
            stream.write(render(document))
        if args.table:
            sys.stdout.write(text)
    else:
        sys.stdout.write(text)


def write_errors(path: str, details: Dict[str, Any]) -> None:
    """The --errors file: one JSON document."""
    import json

    with open(path, "w", encoding="utf-8") as stream:
        json.dump(details, stream, ensure_ascii=False)
        stream.write("\n")


def _single(args: argparse.Namespace, metrics: List[str], pairing: Pairing, options: Options,
            settings: Settings) -> None:
    results: Dict[str, Any] = {}
    details: Dict[str, Any] = {}
    for metric in metrics:
        results[metric], found = _evaluate(metric, pairing, options, args, settings)
        if found:
            details[metric] = found
    if len(metrics) == 1:
        details = details.get(metrics[0], {})
    document = results[metrics[0]] if len(metrics) == 1 else results
    if args.errors:
        write_errors(args.errors, details)
    text = render(document)
    if args.table:
        from ..leaderboard import summary

        text = "".join(summary(metric, results[metric]) for metric in metrics)
    _write(args, text, document)


def _board(args: argparse.Namespace, metrics: List[str], runs: Dict[str, List[Tuple[str, Dict[str, Any]]]],
           settings: Settings, frameworks: Set[str]) -> None:
    from ..leaderboard import PRIMARY, leaderboard, table

    test = replace(settings, test=args.significance)
    if "amr" not in frameworks:
        test = replace(test, standardization="none")
    document: Dict[str, Any] = {}
    text = ""
    for metric in metrics:
        board: Dict[str, Any] = {}
        if metric in PRIMARY:
            board = leaderboard(metric, runs[metric], n=args.bootstrap or 1000, seed=args.seed,
                                method=args.significance)
            text += table(board) + "\n"
        board["signature"] = signature(metric, frameworks, test)
        board["results"] = {}
        for name, result in runs[metric]:
            if not args.trace:
                result.pop("scores", None)
            board["results"][name] = result
        document[metric] = board
    if len(metrics) == 1:
        document = document[metrics[0]]
    _write(args, text if args.table else render(document), document)


def settings_of(args: argparse.Namespace, std: Standardization, penman: bool) -> Settings:
    """What the signature records about this run's options."""
    depth = None if args.aspect_depth == "full" else int(args.aspect_depth)
    return Settings(standardization=std.name(), limit=args.limit, timeout=args.timeout or None,
                    smatch_compat=args.smatch_compat, penman=penman, no_wiki=args.no_wiki,
                    strict=args.strict, bootstrap=args.bootstrap, seed=args.seed, aspect_depth=depth,
                    sembleu_weights=args.sembleu_weights, sembleu_compat=args.sembleu_compat,
                    ancast_compat=args.ancast_compat, mip=not args.no_mip)


def options_of(args: argparse.Namespace, penman: bool, progress: Line) -> Options:
    """How the metrics score in this run."""
    depth = None if args.aspect_depth == "full" else int(args.aspect_depth)
    return Options(limit=args.limit, timeout=args.timeout or None, trace=True, errors=bool(args.errors),
                   jobs=args.jobs, smatch_compat=args.smatch_compat, penman=penman, progress=progress,
                   memo={} if len(args.system) > 1 else None, aspect_depth=depth,
                   sembleu_weights=args.sembleu_weights, sembleu_compat=args.sembleu_compat,
                   ancast_compat=args.ancast_compat)


def main_body(argv: List[str]) -> int:
    """Run mrp-score on arguments; returns the exit status."""
    args = parser().parse_args(argv)
    _check(args)
    if args.no_mip:
        from ..score import mip

        mip.ENABLED = False
    metrics = _metrics(args.score + (",unlabeled" if args.unlabeled else ""), args.aspects)
    from ..standardize import parse

    std = parse(args.standardize)
    gold_format = input_format(args.gold, args.gold_format, "--gold-format", "mrp")
    formats = [input_format(path, args.format, "--format", "mrp") for path in args.system]
    for path, fmt in [(args.gold, gold_format), *zip(args.system, formats)]:
        inputs.check_before_reading(PROGRAM, path, fmt, args, args.framework)
    read = read_options(args)
    gold = _read_gold(args, gold_format, read)
    if args.validate:
        validate_report(args.gold, gold_format, read, args.framework)
        for path, fmt in zip(args.system, formats):
            validate_report(path, fmt, read, args.framework)
    gold = _standardized(gold, std)
    penman = all(fmt == gold_format == "amr" for fmt in formats) and args.triples != "mrp"
    settings = settings_of(args, std, penman)
    progress = Line(PROGRAM, gold.name, show=terminal(sys.stderr) and not args.quiet)
    options = options_of(args, penman, progress)
    if len(args.system) == 1:
        pairing = _read_system(args.system[0], formats[0], read, gold, args, std)
        _single(args, _amr_only(metrics, pairing, std, args.quiet), pairing, options, settings)
        return OK
    runs: Dict[str, List[Tuple[str, Dict[str, Any]]]] = {metric: [] for metric in metrics}
    scored: Set[str] = set()
    for path, fmt in zip(args.system, formats):
        pairing = _read_system(path, fmt, read, gold, args, std)
        scored.update(inputs.frameworks_scored(pairing))
        for metric in _amr_only(metrics, pairing, std, args.quiet):
            runs[metric].append((path, _evaluate(metric, pairing, options, args, settings)[0]))
    _board(args, [m for m in metrics if runs[m]], runs, settings, scored)
    return OK


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-score."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
