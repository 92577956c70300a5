"""mrp-ensemble: per sentence, the system output with the highest mean similarity to the other systems'
(MBSE), written in the input format, with a JSON report; stdout carries only the summary."""

from __future__ import annotations

import json
from typing import Any, List, Optional

from mrp.cli.common import fail, input_format, new_parser, reader_messages, refuse_overwrite, run
from mrp.cli.similarity import Teller, jobs_of, pair_arguments, scoring_options
from mrp.io.write import write_text
from mrp.metrics import checked

PROGRAM = "mrp-ensemble"

EPILOG = """examples:
  mrp-ensemble --metric smatch --output selected.amr --report report.json a.amr b.amr c.amr
  mrp-ensemble --output selected.amr --report report.json --gold gold.amr a.amr b.amr c.amr --jobs auto

Graphs pair by id (a sentence any system has; a system without it, or whose graph there cannot be read,
offers no candidate, and is counted in the report's "pairing"); files without ids pair by position when they
hold as many graphs.  A candidate's score is its mean F
against the other candidates (each taken as gold); the highest wins, a tie going to the first system named.
The report lists per sentence the chosen system, every candidate's mean and all pairwise F.

exit status: 0 done; 2 the input or the options were refused."""


def parser() -> Any:
    """The argument parser."""
    p = new_parser(PROGRAM, "Ensemble selection (MBSE): per sentence, the most central system output.",
                   EPILOG)
    p.add_argument("systems", metavar="SYSTEM", nargs="+", help="system outputs (the same sentences)")
    p.add_argument("--output", metavar="SELECTED", required=True, help="where the selected graphs go")
    p.add_argument("--report", metavar="REPORT.json", required=True, help="where the report goes")
    p.add_argument("--gold", metavar="GOLD", help="also score the selection and each system against GOLD")
    p.add_argument("--metric", "--score", dest="metric", default="smatch", help="the metric (default smatch)")
    p.add_argument("--format", help="the format of every input (default: from each file's name, else its "
                   "content)")
    p.add_argument("--jobs", default="auto", metavar="N|auto",
                   help="local worker processes (default auto: one per available CPU, at most 4; "
                        "the output is the same for every N)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on the Dask scheduler at ADDRESS ('local': "
                   "a cluster of --jobs processes on 127.0.0.1)")
    pair_arguments(p)
    return p


def main_body(argv: List[str]) -> int:
    """Run mrp-ensemble on arguments; returns the exit status."""
    args = parser().parse_args(argv)
    if len(args.systems) < 2:
        fail(PROGRAM, "give at least two system files")
    refuse_overwrite(PROGRAM, [args.output, args.report], [*args.systems, args.gold])
    args.block_size = checked("block_size", args.block_size, flag=True)
    reader_messages(PROGRAM, args.quiet)
    first = input_format(args.systems[0], args.format, "--format")  # the selection is written in it
    for path in [*args.systems[1:], *([args.gold] if args.gold else [])]:
        input_format(path, args.format, "--format")  # each input by the one rule (checked before reading)
    from mrp.api.ensemble import ensemble
    from mrp.api.reading import write

    result = ensemble(args.systems, args.metric, gold=args.gold, jobs=jobs_of(args.jobs),
                      scheduler=args.scheduler, block_size=args.block_size,
                      progress=Teller(PROGRAM, not args.quiet), **scoring_options(args))
    write(result.graphs, args.output, format=args.format or first)
    report = result.report()
    write_text(args.report, json.dumps(report, indent=1) + "\n")
    summary = {key: value for key, value in report.items() if key != "sentences"}
    summary.update(output=args.output, report=args.report)
    print(json.dumps(summary))
    return 0


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-ensemble."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
