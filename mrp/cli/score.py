"""mrp-score: score system graphs against gold graphs."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, Tuple

from mrp.cli import explain as explaining
from mrp.cli import inputs
from mrp.cli.common import (
    OK,
    fail,
    input_format,
    read_options,
    reader_messages,
    report_repairs,
    run,
    warn,
)
from mrp.cli.score_args import PROGRAM, check, chosen, owner, parser
from mrp.codecs import ReadOptions, reads_texts_once
from mrp.corpora import Ahead, Corpus, pays_after, reading_together
from mrp.io.write import write_text
from mrp.metrics import DEFAULT_TIMEOUT, Execution, Options, Pairing, canonical, module_of, warm
from mrp.metrics import metric as registered
from mrp.pipeline import penman_triples, read_file, read_options_for, score_pairing, standardized
from mrp.pipeline import run_options as options_from
from mrp.report.outcome import frameworks_scored
from mrp.report.progress import Line, terminal
from mrp.report.render import render
from mrp.report.signature import Statistics, signature

__all__ = ["DEFAULT_TIMEOUT", "PROGRAM", "main", "main_body", "parser", "validate_report"]

if TYPE_CHECKING:
    from mrp.standardize.options import Standardization

def _metrics(spec: str, aspects: bool) -> List[str]:
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if aspects:
        names.append("aspects")
    if not names:
        fail(PROGRAM, "--score names no metric")
    chosen: List[str] = []
    for name in names:
        metric = canonical(name)
        module_of(metric)  # refuse a metric this installation lacks before reading anything
        if metric not in chosen:
            chosen.append(metric)
    return chosen


def validate_report(path: str, fmt: str, read: ReadOptions, frameworks: Optional[List[str]]) -> None:
    """Every problem of a file on stderr, then its summary (as mrp-validate reports them)."""
    from mrp.validation import validate_for_score

    found = validate_for_score(path, fmt, read, frameworks)
    for problem in found.problems:
        print(problem, file=sys.stderr)
    print(found.summary(), file=sys.stderr)


def _read_gold(args: argparse.Namespace, fmt: str, read: ReadOptions) -> Corpus:
    """The gold corpus, valid and selected; exit 2 on any invalid gold graph or absent framework."""
    gold = read_file(args.gold, fmt, read_options_for(fmt, read, args.framework))
    report_repairs(gold)
    inputs.check_gold(PROGRAM, gold)
    inputs.check_framework_present(PROGRAM, gold, args.framework, args.quiet)
    inputs.warn_missing_text(PROGRAM, gold, read.text, args.quiet)
    return inputs.select_gold(gold, args, args.framework)


def _read_system(ahead: Ahead, read: ReadOptions, gold: Corpus, args: argparse.Namespace,
                 std: Standardization) -> Pairing:
    system = inputs.read_system(ahead, gold, args)
    inputs.warn_missing_text(PROGRAM, system, read.text, args.quiet)
    system = standardized(system, std)
    return inputs.paired(PROGRAM, gold, system, args.framework, args.quiet, args.positional)


def _amr_only(metrics: List[str], pairing: Pairing, std: Standardization, quiet: bool) -> List[str]:
    """Warn about AMR-only options on other frameworks; drop a metric that scores some frameworks only
    (``Metric.frameworks``: aspects) when none of them is scored."""
    scored = frameworks_scored(pairing)
    others = [name for name in scored if name != "amr"]
    if others and std.active() and not quiet:
        warn(PROGRAM, f"--standardize applies to AMR graphs only; not applied to {', '.join(others)} graphs")
    kept = []
    for name in metrics:
        only = registered(name).frameworks
        outside = [framework for framework in scored if only is not None and framework not in only]
        if not outside:
            kept.append(name)
            continue
        which = "/".join(framework.upper() for framework in only or ())
        if any(framework in (only or ()) for framework in scored):
            kept.append(name)
        elif metrics == [name]:
            fail(PROGRAM, f"{name} scores {which} graphs only, and {', '.join(outside)} graphs are all there "
                          f"is to score{registered(name).elsewhere}")
        if not quiet:
            warn(PROGRAM, f"{name} scores {which} graphs only; not applied to {', '.join(outside)} graphs")
    return kept


def _evaluate(metric: str, pairing: Pairing, options: Options, args: argparse.Namespace,
              explain: bool = False) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """One metric's result with macro scores, intervals and signature; per-item scores only with --trace
    (``explain``: and its --explain report written)."""
    from mrp.report.outcome import finish  # after the system file is being read ahead

    if explain:
        result, found, done = explaining.explain_run(metric, pairing, options)
    else:
        scored = score_pairing(metric, pairing, options)
        result, found = scored.result, scored.details
    finish(metric, result, pairing, options, Statistics(args.bootstrap, args.seed))
    if explain:
        explaining.write(metric, done, result, args)
    if not args.trace and len(args.system) == 1:
        result.pop("scores", None)
        if isinstance(result.get("documents"), dict):  # AnCast's per-document items
            result["documents"].pop("scores", None)
    return result, found


def figure_lines(metrics: List[str], runs: Dict[str, List[Dict[str, Any]]]) -> str:
    """``--score-only``: each result's primary figure (its F, or the score itself) alone on a line, metric by
    metric, system by system (a metric without a single figure, as aspects, is left out)."""
    from mrp.errors import MRPError

    lines = []
    paths = {name: registered(name).figure_path() for name in metrics}
    if all(path is None for path in paths.values()):
        raise MRPError(f"--score-only: {', '.join(metrics)} give no single figure (see the JSON)")
    for name, path in paths.items():
        if path is None:
            continue
        for result in runs[name]:
            node: Any = result
            for key in path:
                node = node.get(key) if isinstance(node, dict) else None
            value = node.get("f") if isinstance(node, dict) else node
            if not isinstance(value, (int, float)):
                raise MRPError(f"--score-only: {name} gave no figure at {'.'.join(path) or 'its top'}")
            lines.append(repr(float(value)))
    return "\n".join(lines) + "\n"


def _write(args: argparse.Namespace, text: str, document: Dict[str, Any]) -> None:
    if args.output and args.output != "-":
        write_text(args.output, render(document))
        if args.table or args.score_only:
            write_text("-", text)
    else:
        write_text("-", text)


def write_errors(path: str, details: Dict[str, Any]) -> None:
    """The --errors file: one JSON document."""
    import json

    write_text(path, json.dumps(details, ensure_ascii=False) + "\n")


def _single(args: argparse.Namespace, metrics: List[str], pairing: Pairing, options: Options) -> None:
    results: Dict[str, Any] = {}
    details: Dict[str, Any] = {}
    shown = explaining.explained(metrics, args)
    explaining.check_pair(pairing, args)
    for metric in metrics:
        results[metric], found = _evaluate(metric, pairing, options, args, metric == shown)
        if found:
            details[metric] = found
    if len(metrics) == 1:
        details = details.get(metrics[0], {})
    document = results[metrics[0]] if len(metrics) == 1 else results
    if args.errors:
        write_errors(args.errors, details)
    text = render(document)
    if args.table:
        from mrp.report.leaderboard import summary

        text = "".join(summary(metric, results[metric]) for metric in metrics)
    if args.score_only:
        text = figure_lines(metrics, {metric: [results[metric]] for metric in metrics})
    _write(args, text, document)


def _board(args: argparse.Namespace, metrics: List[str], runs: Dict[str, List[Tuple[str, Dict[str, Any]]]],
           options: Options, frameworks: Set[str]) -> None:
    from mrp.report.leaderboard import leaderboard, ranked, table, unranked, unranked_table

    statistics = Statistics(args.bootstrap, args.seed, args.significance)
    if "amr" not in frameworks:
        options = replace(options, standardization="none")
    document: Dict[str, Any] = {}
    text = ""
    for metric in metrics:
        board: Dict[str, Any] = leaderboard(metric, runs[metric], n=args.bootstrap or 1000, seed=args.seed,
                                            method=args.significance) if ranked(metric) else \
            unranked(metric, runs[metric])
        board["signature"] = signature(metric, frameworks, options, statistics)
        text += (table(board) if ranked(metric) else unranked_table(board)) + "\n"
        board["results"] = {}
        for name, result in runs[metric]:
            if not args.trace:
                result.pop("scores", None)
            board["results"][name] = result
        document[metric] = board
    if len(metrics) == 1:
        document = document[metrics[0]]
    if args.score_only:
        text = figure_lines(metrics, {metric: [result for _, result in runs[metric]] for metric in metrics})
    _write(args, text if args.table or args.score_only else render(document), document)


def options_of(args: argparse.Namespace, std: Standardization, penman: bool, progress: Line,
               metrics: List[str]) -> Options:
    """What the metrics score with in this run (recorded in the signature), and how the run executes: the
    arguments under the library's keywords (:mod:`mrp.pipeline.keywords`), made into Options where every
    door makes them (:func:`mrp.pipeline.options`)."""
    given = {parameter.field: getattr(args, parameter.field)
             for name in metrics for parameter in registered(name).parameters
             if hasattr(args, parameter.field)}
    values = {"limit": args.limit, "timeout": args.timeout or None, "max_memory": args.max_memory,
              "mip": not args.no_mip, "trace": True, "errors": args.errors, "no_wiki": args.no_wiki,
              "strict": args.strict}
    return options_from(values, given, std.name(), penman,
                        Execution(args.jobs, progress, {} if len(args.system) > 1 else None, ending=True))


def _arguments(argv: List[str]) -> argparse.Namespace:
    """The arguments, with the options of the metrics they name; an option of another metric is refused
    with the metric it belongs to."""
    if "-h" not in argv and "--help" not in argv:
        # most runs give no metric option: then no metric module (and no numpy) is imported before the
        # system file is being read ahead
        _, unknown = parser([]).parse_known_args(argv)
        if not any(word.startswith("--") for word in unknown):
            return parser([]).parse_args(argv)
    metrics = chosen(argv)
    known, unknown = parser(metrics).parse_known_args(argv)
    for word in unknown:
        name = owner(word) if word.startswith("--") else None
        if name is not None:
            fail(PROGRAM, f"{word.split('=', 1)[0]} is an option of metric {name}, which --score does not "
                          f"name (e.g. --score {','.join(metrics or []) + ',' if metrics else ''}{name})")
    return parser(metrics).parse_args(argv)


def main_body(argv: List[str]) -> int:
    """Run mrp-score on arguments; returns the exit status."""
    args = _arguments(argv)
    check(args)
    reader_messages(PROGRAM, args.quiet)
    metrics = _metrics(args.score + (",unlabeled" if args.unlabeled else ""), args.aspects)
    from mrp.standardize.options import parse

    std = parse(args.standardize)
    gold_format = input_format(args.gold, args.gold_format or args.format, "--gold-format", "mrp")
    formats = [input_format(path, "generated" if args.read else args.format, "--format", "mrp")
               for path in args.system]
    for path, fmt in [(args.gold, gold_format), *zip(args.system, formats)]:
        inputs.check_before_reading(PROGRAM, path, fmt, args, args.framework)
    read = reading_together(read_options(args))  # a text parsed once for every file read here

    def ahead(k: int, after: int = 0) -> Ahead:  # the k-th system file, read by a child while this process
        # works on (but with --jobs 1: one process, and the texts the files share parsed once; nor after
        # ``after`` graphs of mostly repeated texts: its graphs are mostly copies, made here as fast)
        options = read_options_for(formats[k], read, args.framework)
        allowed = args.jobs != 1 and pays_after(options, after)
        return Ahead(args.system[k], formats[k], options, allowed=allowed)

    # the first system file is read by a child while this process reads the gold file; but when both are
    # read through the memo of texts, after it: the child, forked then, parses only the texts the gold file
    # did not hold (two files of random pairs of one collection share most texts)
    after_gold = reads_texts_once(gold_format) and reads_texts_once(formats[0])
    system = None if after_gold else ahead(0)
    gold = _read_gold(args, gold_format, read)
    if system is None:
        system = ahead(0, len(gold.graphs))
    if args.validate:
        validate_report(args.gold, gold_format, read, args.framework)
        for path, fmt in zip(args.system, formats):
            validate_report(path, fmt, read, args.framework)
    gold = standardized(gold, std)
    penman = penman_triples(args.triples, [gold_format, *formats])
    progress = Line(PROGRAM, gold.name, show=terminal(sys.stderr) and not args.quiet)
    options = options_of(args, std, penman, progress, metrics)
    if system.ahead:  # the kernels load while the system file is read
        for metric in metrics:
            warm(metric, options)
    if len(args.system) == 1:
        pairing = _read_system(system, read, gold, args, std)
        _single(args, _amr_only(metrics, pairing, std, args.quiet), pairing, options)
        return OK
    runs: Dict[str, List[Tuple[str, Dict[str, Any]]]] = {metric: [] for metric in metrics}
    scored: Set[str] = set()
    for k, path in enumerate(args.system):
        pairing = _read_system(system, read, gold, args, std)
        if k + 1 < len(args.system):  # the next file is read while this one is scored
            system = ahead(k + 1)
        scored.update(frameworks_scored(pairing))
        for metric in _amr_only(metrics, pairing, std, args.quiet):
            runs[metric].append((path, _evaluate(metric, pairing, options, args)[0]))
    _board(args, [m for m in metrics if runs[m]], runs, options, scored)
    return OK


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-score."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
