"""mrp-umr-validate: the UMR shared task's validate.py, run by mrp (its command line and its line layout).

The relaxation flags (:data:`RELAXATIONS`) are shared with ``mrp-validate``.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Dict, List, Optional, Set, TextIO, Tuple

from mrp.cli.common import new_parser, run
from mrp.validation.umr import Checks, LevelProblem
from mrp.validation.umr.check import check_levels
from mrp.validation.umr.clusters import lines as clusters_report
from mrp.validation.umr.state import State

PROGRAM = "mrp-umr-validate"

#: validate.py's Strictness options: flag -> (field of :class:`~mrp.validation.umr.Checks`, value, help)
RELAXATIONS: Dict[str, Tuple[str, bool, str]] = {
    "--allow-inline-comments": ("inline_comments", True, "ignore everything from a '#' after a line's first "
                                "character (and so trailing whitespace before it)"),
    "--allow-trailing-whitespace": ("trailing_whitespace", False, "do not report trailing whitespace"),
    "--allow-wide-space": ("wide_space", False, "split tokens at any run of white space; no empty tokens"),
    "--no-check-ilg": ("ilg", False, "do not compare the interlinear glosses' item counts and index"),
    "--allow-forward-references": ("forward_references", False, "allow a reference to a node defined later "
                                   "in the sentence graph"),
    "--allow--1": ("nonnegative_alignment", False, "accept UMR 1.0's alignment -1--1 for unaligned"),
    "--optional-block-headers": ("block_headers", False, "do not require the blocks' heading comments"),
    "--optional-alignments": ("complete_alignment", False, "do not require an alignment line for every "
                              "node"),
    "--warn-overlapping-alignment": ("overlapping_alignment", True, "warn of a token aligned to more than "
                                     "one node"),
    "--no-warn-unaligned-token": ("unaligned_token", False, "do not warn of tokens aligned to no node"),
    "--no-check-wiki": ("wiki", False, "do not check :wiki values, nor coreferent nodes' :wiki"),
    "--optional-aspect-modstr": ("aspect_modstr", False, "do not require :aspect of events (nor the other "
                                 "checks of events' attributes)"),
    "--allow-duplicate-roles": ("duplicate_roles", False, "allow any relation to repeat under one parent "
                                "(attributes are still checked)"),
    "--allow-cycles": ("cycles", False, "allow cycles outside :quot and :modal-predicate"),
    "--allow-coref-entity-event-mismatch": ("coref_entity_event_mismatch", False, "allow :same-event and "
                                            ":same-entity to join an entity and an event"),
    "--optional-document-level": ("document_level", False, "do not require events' temporal relations; "
                                  "allow :modal-strength in the sentence graph"),
}

EPILOG = """\
examples:
  mrp-umr-validate --level 2 cs-0001.umr
  mrp-umr-validate --max-err 0 --allow--1 --optional-document-level english_umr-0001.umr

validate.py's options mean what they mean there (the messages are in mrp's words). Levels 4 and 5
(language-specific labels and contents) check nothing beyond level 3 in the shared task's validate.py,
and so here. Problems go to stderr as validate.py prints them,
[Line N Sent sntK]: [Llevel CLASS test-id] message
then a count per class and *** PASSED *** or *** FAILED ***; --print-* reports go to stdout.
exit status: 0 passed (warnings fail nothing); 1 failed; 2 bad arguments.
"""


def add_relaxations(parser: argparse.ArgumentParser) -> None:
    """validate.py's Strictness options, on any command that validates UMR."""
    group = parser.add_argument_group("UMR strictness (validate.py's options)")
    for flag, (field, value, text) in RELAXATIONS.items():
        group.add_argument(flag, dest=f"umr_{field}", action="store_const", const=value,
                           default=not value, help=text)


def checks_of(args: argparse.Namespace) -> Checks:
    """The :class:`~mrp.validation.umr.Checks` that the relaxation flags of ``args`` ask for."""
    return Checks(**{field: getattr(args, f"umr_{field}") for field, _, _ in RELAXATIONS.values()})


def parser() -> argparse.ArgumentParser:
    """The argument parser of mrp-umr-validate (validate.py's options)."""
    p = new_parser(PROGRAM, "Validate UMR files as the UMR shared task's validate.py does.", EPILOG)
    group = p.add_argument_group("Input / output options")
    group.add_argument("--quiet", action="store_true",
                       help="print no problem, count or verdict (the exit status says it); as validate.py, "
                            "still say which classes are suppressed past --max-err")
    group.add_argument("--max-err", type=int, default=20, metavar="N",
                       help="how many problems of a class to print (0: all; default 20)")
    group.add_argument("input", nargs="*", help="input files, or '-' or nothing for standard input")
    labels = p.add_argument_group("Label sets")
    labels.add_argument("--lang", metavar="LL",
                        help="the language (accepted; levels 4 and 5 check nothing more)")
    labels.add_argument("--level", type=int, default=5,
                        help="1 the technical backbone, 2 the UMR format, 3 UMR contents, 4 and 5 the same "
                             "as 3 (default 5)")
    add_relaxations(p)
    reports = p.add_argument_group("Reports")
    reports.add_argument("--print-relations", action="store_true",
                         help="print every node of the sentence graphs with its relations and why it is an "
                              "event, as validate.py (level 3)")
    reports.add_argument("--print-clusters", action="store_true",
                         help="print the coreference clusters, as validate.py (level 3)")
    reports.add_argument("--print-temporal", action="store_true",
                         help="print the document's temporal graph and time line, as validate.py (level 3)")
    return p


def line_of(problem: LevelProblem, prefix: str = "") -> str:
    """A problem in validate.py's layout (``prefix``: ``(in FILE) `` when several files are checked)."""
    sentence = f" Sent {problem.sentence}" if problem.sentence else ""
    return (f"[{prefix}Line {problem.line}{sentence}]: [L{problem.level} {problem.kind} {problem.test}] "
            f"{problem.message}")


def _reports(args: argparse.Namespace, state: State, out: TextIO) -> None:
    """validate.py's --print-* reports of a file checked at level 3 (the relations made sentence by
    sentence, as the nodes were then)."""
    lines = list(state.relations or [])
    if args.print_clusters and state.clusters is not None:
        lines += clusters_report(state.clusters, state)
    if args.print_temporal and state.temporal is not None:
        lines += state.temporal.lines()
    if lines:
        out.write("\n".join(lines) + "\n")


def main_body(argv: List[str]) -> int:
    """Run mrp-umr-validate on arguments; returns the exit status."""
    args = parser().parse_args(argv)
    say = (lambda text: None) if args.quiet else (lambda text: print(text, file=sys.stderr))
    level = args.level
    if level < 1:  # validate.py says so even with --quiet
        print(f"--level {level} is below 1: checking level 1", file=sys.stderr)
        level = 1
    inputs = args.input or ["-"]
    checks = checks_of(args)
    known: Set[str] = set()
    counts: Dict[str, int] = {}
    for path in inputs:
        prefix = ""
        if len(inputs) > 1:
            prefix = "(in STDIN) " if path == "-" else f"(in {os.path.basename(path)}) "
        state = State(path, level)
        if args.print_relations:
            state.relations = []
        try:
            problems = check_levels(sys.stdin if path == "-" else path, level, path, checks, known, state)
        except (OSError, UnicodeError) as error:
            problems = [LevelProblem(path, state.line, None, 0, "Internal", "internal-error",
                                     f"{path}: cannot be read: {getattr(error, 'strerror', None) or error}")]
        for problem in problems:
            counts[problem.kind] = counts.get(problem.kind, 0) + 1
            if args.max_err > 0 and counts[problem.kind] > args.max_err:
                if counts[problem.kind] == args.max_err + 1:  # validate.py says so even with --quiet
                    print(f"...suppressing further errors regarding {problem.kind}", file=sys.stderr)
                continue
            say(line_of(problem, prefix))
        _reports(args, state, sys.stdout)
    errors = 0
    for kind, count in sorted(counts.items()):
        say(f"Warnings: {count}" if kind == "Warning" else f"{kind} errors: {count}")
        errors += 0 if kind == "Warning" else count
    say("*** PASSED ***" if not errors else f"*** FAILED *** with {errors} errors")
    return 1 if errors else 0


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-umr-validate."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
