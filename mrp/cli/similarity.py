"""mrp-similarity: every graph of a file scored against every other (or against another file's), the
matrix written to an .npz file; stdout carries only the report (one JSON object)."""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Dict, List, Optional

from mrp.cli.common import fail, input_format, new_parser, reader_messages, refuse_overwrite, run
from mrp.cli.score_args import add_metric_options
from mrp.metrics import checked

PROGRAM = "mrp-similarity"

EPILOG = """examples:
  mrp-similarity --metric smatch parses.amr --output smatch.npz --jobs auto
  mrp-similarity --metric smatch parses.amr --top-k 10 --output neighbours.npz
  mrp-similarity --metric mrp a.mrp --other b.mrp --output ab.npz --checkpoint ckpt/ --resume
  mrp-similarity --metric smatch parses.amr --output smatch.npz --scheduler tcp://head:8786

the .npz holds f, c, g, s, bound, exact (N x N, or N x M with --other; row: the graph as gold, column: as
system) and ids (and other_ids); with --top-k K, N x K arrays and neighbours (column indices, -1: none).
Load it with numpy.load(path) (no pickle).  Progress goes to stderr, the report to stdout.

exit status: 0 every pair scored; 1 some pairs failed (named on stderr; their counts are a lower bound);
2 the input or the options were refused."""


def parser() -> Any:
    """The argument parser."""
    p = new_parser(PROGRAM, "The similarity matrix (or top-k neighbours) of graphs under a metric, exact.",
                   EPILOG)
    p.add_argument("file", metavar="FILE", help="the graphs (rows, and columns without --other)")
    p.add_argument("--other", metavar="FILE2", help="graphs for the columns (an N x M matrix)")
    p.add_argument("--output", metavar="OUT", required=True,
                   help="where the figures go, in the format its extension names: .npz (the arrays), .csv "
                        "(one row per pair: row, column, f, c, g, s, bound, exact; in top-k mode with rank), "
                        ".parquet or .arrow (the same table; need pyarrow)")
    p.add_argument("--metric", "--score", dest="metric", default="smatch", help="the metric (default smatch)")
    p.add_argument("--format", help="the format of every input (default: from each file's name, else its "
                   "content)")
    p.add_argument("--top-k", metavar="K", help="each graph's K most similar graphs only, skipping "
                   "the pairs a bound shows cannot enter any top K (still exact)")
    p.add_argument("--jobs", default="auto", metavar="N|auto",
                   help="local worker processes (default auto: one per available CPU, at most 4; "
                        "the output is the same for every N)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the blocks on the Dask scheduler at ADDRESS "
                   "(e.g. tcp://head:8786; 'local': a cluster of --jobs processes on 127.0.0.1); needs "
                   "pip install 'mrp-graphs[dask]'")
    p.add_argument("--checkpoint", metavar="DIR", help="keep each finished block in DIR")
    p.add_argument("--resume", action="store_true", help="finish the run checkpointed in --checkpoint DIR")
    pair_arguments(p)
    return p


def pair_arguments(p: Any) -> None:
    """The options of how each pair is scored and the run told (mrp-similarity and mrp-ensemble)."""
    p.add_argument("--block-size", metavar="B", help="pairs per block (default 2000)")
    p.add_argument("--timeout", metavar="S",
                   help="seconds per pair at most (default 60; 0 or inf: none)")
    p.add_argument("--limit", metavar="N", help="search steps per pair at most")
    p.add_argument("--max-memory", metavar="BYTES",
                   help="bytes a pair's node-pair arrays may take (default 2G; e.g. 500M, 8G; 0 or inf: no "
                        "cap): a pair beyond it gets a linear-time correspondence, inexact, with its bound")
    p.add_argument("--no-mip", action="store_true", help="no hand-over of hard pairs to HiGHS")
    p.add_argument("--no-wiki", action="store_true", help="leave AMR :wiki out")
    p.add_argument("--quiet", action="store_true", help="no progress and no reader warnings")
    add_metric_options(p, matrix_metrics())


def matrix_metrics() -> List[str]:
    """The metrics whose options these commands take: every registered metric that can fill a matrix (each
    option is given to the metric it belongs to), as mrp.similarity and mrp.ensemble take them."""
    from mrp.metrics import METRICS, metric

    return [name for name in METRICS if not metric(name).contextual]


def jobs_of(value: str) -> Any:
    """--jobs: a number of at least 1, or "auto"."""
    try:
        number: Any = int(value)
    except ValueError:
        number = value
    return "auto" if checked("jobs", number, flag=True) == 0 else number


class Teller:
    """Progress on stderr: blocks done, pairs per second, time left (redrawn on a terminal, else a line
    every few seconds)."""

    def __init__(self, program: str, show: bool) -> None:
        self.program, self.show = program, show
        self.terminal = sys.stderr.isatty()
        self.last = 0.0

    def __call__(self, status: Any) -> None:
        if not self.show:
            return
        now = time.monotonic()
        final = status.blocks == status.blocks_total
        if not final and now - self.last < (0.2 if self.terminal else 5.0):
            return
        self.last = now
        eta = status.eta
        left = f", about {_duration(eta)} left" if eta is not None and not final else ""
        line = (f"{self.program}: blocks {status.blocks}/{status.blocks_total}, pairs {status.pairs:,}/"
                f"{status.pairs_total:,}, {status.rate:,.0f} pairs/s{left}")
        if self.terminal:
            sys.stderr.write("\r" + line.ljust(100) + ("\n" if final else ""))
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h {seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m {seconds % 60:02d}s"
    return f"{seconds}s"


def scoring_options(args: Any) -> Dict[str, Any]:
    """mrp.score's keyword arguments from the command line: the run's, and the chosen metric's own."""
    from mrp.metrics import canonical, metric

    options: Dict[str, Any] = {"format": args.format, "mip": not args.no_mip, "no_wiki": args.no_wiki}
    if args.timeout is not None:
        options["timeout"] = checked("timeout", args.timeout, flag=True)
    if args.limit is not None:
        options["limit"] = checked("limit", args.limit, flag=True)
    if args.max_memory is not None:
        options["max_memory"] = checked("max_memory", args.max_memory, flag=True)
    chosen = {parameter.field for parameter in metric(canonical(args.metric)).parameters}
    for name in matrix_metrics():
        for parameter in metric(name).parameters:
            value = getattr(args, parameter.field, None)
            if value is None or value is False or value == parameter.default:
                continue
            if parameter.field not in chosen:
                fail(PROGRAM, f"{parameter.flag} is an option of --metric "
                              f"{' or '.join(owners_of(parameter.field))}, not of {args.metric}")
            options[parameter.field] = value
    return options


def owners_of(field: str) -> List[str]:
    """The matrix metrics that declare an option."""
    from mrp.metrics import metric

    return [name for name in matrix_metrics() if any(p.field == field for p in metric(name).parameters)]


def main_body(argv: List[str]) -> int:
    """Run mrp-similarity on arguments; returns the exit status."""
    args = parser().parse_args(argv)
    refuse_overwrite(PROGRAM, [args.output], [args.file, args.other])
    from mrp.io.tables import table_format

    table_format(args.output)  # an unknown extension is refused before any work
    if args.resume and not args.checkpoint:
        fail(PROGRAM, "--resume needs --checkpoint DIR")
    for name in ("top_k", "block_size"):
        setattr(args, name, checked(name, getattr(args, name), flag=True))
    reader_messages(PROGRAM, args.quiet)
    for path in [args.file, *([args.other] if args.other else [])]:
        input_format(path, args.format, "--format")  # each input by the one rule (checked before reading)
    from mrp.api.similarity import similarity

    options = scoring_options(args)
    result = similarity(args.file, args.other, args.metric, top_k=args.top_k, jobs=jobs_of(args.jobs),
                        scheduler=args.scheduler, checkpoint=args.checkpoint, resume=args.resume,
                        block_size=args.block_size, progress=Teller(PROGRAM, not args.quiet), **options)
    result.save(args.output)
    for row, column in result.failed[:20]:
        print(f"{PROGRAM}: pair ({result.ids[row]}, {(result.other_ids or result.ids)[column]}): scoring "
              "failed; its counts are a lower bound", file=sys.stderr)
    summary = result.summary()
    summary["output"] = args.output
    print(json.dumps(summary))
    return 1 if result.failed else 0


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-similarity."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
