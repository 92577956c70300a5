"""mrp-validate: report every problem of graph files before anyone scores them.

Problems go to stdout, one per line (``FILE:LINE: graph ID: node N: message``),
so that they can be counted and filtered; the one-line summary of each file
(``FILE: N graphs, K problems in M graphs``) and the reason a file could not be
read go to stderr.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

from mrp.cli.common import (
    FATAL,
    OK,
    PROBLEMS,
    add_read_options,
    check_frameworks,
    new_parser,
    read_options,
    refuse_stdin_twice,
    run,
    warn,
)
from mrp.cli.umr_validate import add_relaxations, checks_of
from mrp.codecs import reader
from mrp.validation import validate_file
from mrp.validation.umr import LEVELS

PROGRAM = "mrp-validate"

EPILOG = """\
examples:
  mrp-validate system.mrp
      every problem, one per line: FILE:LINE: graph ID: node N: message
  mrp-validate --framework ucca --quiet parses/*.mrp
      apply the UCCA rules to every graph, print only each file's summary
  mrp-validate --format dm --text wsj.txt wsj.sdp

what is checked: JSON; the fields MRP requires (id, framework, flavor, version, time)
and their types; known frameworks, and a flavor that fits the framework; duplicate
graph ids; tops, edges and anchors that name missing nodes; anchors outside the input,
empty, whitespace-only or with from > to; the input of anchored frameworks; properties/
attributes and values of different lengths; reading limits (nesting, anchor width,
size); AMR/DRG: no anchors, AMR one top; DM/PSD/CCD/PAS: each node anchored to one
token; EDS: every node labelled, with one anchor; UCCA: edge labels are categories,
remote flags are true/false, a second parent's edge is remote, one top, anchored leaves.
UMR files also get the UMR shared task validator's checks (validate.py) up to --umr-level
(default 2), each naming validate.py's level, class and test id; its Warning class fails nothing,
nor do mrp's own UMR problems of a higher level, nor what the reader repairs (--strict: refused).
Each problem is reported once; the summary counts the graphs mrp-score cannot read.

output: problems on stdout; one summary line per file on stderr.
exit status: 0 no problems; 1 problems; 2 a file could not be read at all (missing,
a directory, compressed, no UTF-8 line, no graph) or bad arguments.
"""


def parser() -> argparse.ArgumentParser:
    """The argument parser of mrp-validate."""
    p = new_parser(PROGRAM, "Report every problem of graph files (MRP JSON lines and the other readable "
                    "formats) before they are scored.", EPILOG)
    p.add_argument("files", metavar="FILE", nargs="+", help="files to check ('-' for stdin), e.g. system.mrp")
    p.add_argument("--format", metavar="FMT",
                   help="input format (default: from each file's extension, else mrp), e.g. --format amr")
    p.add_argument("--framework", metavar="NAME",
                   help="apply this framework's rules to every graph (default: each graph's own "
                        "'framework'); a graph naming another framework is a problem, e.g. --framework dm")
    add_read_options(p)
    p.add_argument("--umr-level", type=int, choices=(0, *LEVELS), default=2, metavar="L",
                   help="UMR files: the UMR shared task validator's checks (validate.py) up to level L: 1 "
                        "the file's backbone, 2 the UMR format (default), 3 UMR content (4 and 5: as 3, "
                        "as in validate.py); 0 none")
    add_relaxations(p)
    p.add_argument("--quiet", action="store_true", help="print only the summary of each file")
    return p


def main_body(argv: List[str]) -> int:
    """Run mrp-validate on arguments; returns the exit status."""
    args = parser().parse_args(argv)
    if args.framework:
        check_frameworks(PROGRAM, [args.framework])
    if args.format:
        reader(args.format)  # refuse an unknown or write-only format before reading anything
    refuse_stdin_twice(PROGRAM, [*args.files, args.text])
    options = read_options(args, args.framework)
    code = OK
    for path in args.files:
        report = validate_file(path, args.format, args.framework, options.text,
                               no_wiki=options.no_wiki, wsj_ids=options.wsj_ids, umr_level=args.umr_level,
                               strict=options.strict, umr_checks=checks_of(args))
        if report.unreadable:
            warn(PROGRAM, report.summary())
            code = FATAL
            continue
        if not args.quiet:
            found = sorted(report.problems + report.warnings, key=lambda problem: problem.line or 0)
            for problem in found:
                print(problem)
        sys.stdout.flush()
        print(report.summary(), file=sys.stderr)
        if report.problems and code == OK:
            code = PROBLEMS
    return code


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-validate."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
