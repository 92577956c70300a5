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
from mrp.validation.umr.clusters import clusters_of
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
    group.add_argument("--quiet", action="store_true", help="print nothing; the exit status says it")
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
                         help="print every node of the sentence graphs with its relations (level 3)")
    reports.add_argument("--print-clusters", action="store_true",
                         help="print the coreference clusters (level 3)")
    reports.add_argument("--print-temporal", action="store_true",
                         help="print the document-level temporal relations (level 3)")
    return p


def line_of(problem: LevelProblem, prefix: str = "") -> str:
    """A problem in validate.py's layout (``prefix``: ``(in FILE) `` when several files are checked)."""
    sentence = f" Sent {problem.sentence}" if problem.sentence else ""
    return (f"[{prefix}Line {problem.line}{sentence}]: [L{problem.level} {problem.kind} {problem.test}] "
            f"{problem.message}")


def _relations(state: State, out: TextIO) -> None:
    for sentence in state.sentences:
        for name in sorted(sentence[1].get("nodes", ())):
            node = state.nodes[name]
            alignment = node.get("alignment", {})
            out.write(f"Node {name}, concept={node.get('concept', '')}, line={node.get('line0', 0)}, "
                      f"tokens={alignment.get('tokids', [])} {alignment.get('tokstr', '')}\n")
            for relation in node.get("relations", []):
                out.write(f"  Relation {relation['dir']} {relation['relation']}, "
                          f"type={relation.get('type')}, value={relation.get('value', '')}, "
                          f"line={relation['line0']}\n")
            if "event_reason" in node:
                out.write(f"  This node is an event because {node['event_reason']}.\n")
            out.write("\n")


def _clusters(state: State, out: TextIO) -> None:
    for members in clusters_of(state.sentences, state):
        out.write(f"Coreference cluster '{members[0]}':\n")
        for name in members:
            node = state.nodes[name]
            wikis = [r.get("value", "") for r in node.get("relations", []) if r.get("relation") == ":wiki"]
            tokens = node.get("alignment", {}).get("tokstr", "")
            out.write(f"  {name} ({tokens} / {node.get('concept', '')}) wiki '{wikis[0] if wikis else ''}' "
                      f"line {node.get('line0', 0)}\n")


def _temporal(state: State, out: TextIO) -> None:
    for sentence in state.sentences:
        for relation in sentence[3].get("relations", []):
            if relation["group"] == ":temporal":
                out.write(f"{relation['node0']} {relation['relation']} {relation['node1']} "
                          f"(line {relation['line0']})\n")


def main_body(argv: List[str]) -> int:
    """Run mrp-umr-validate on arguments; returns the exit status."""
    args = parser().parse_args(argv)
    say = (lambda text: None) if args.quiet else (lambda text: print(text, file=sys.stderr))
    level = args.level
    if level < 1:
        say(f"--level {level} is below 1: checking level 1")
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
        try:
            problems = check_levels(sys.stdin if path == "-" else path, level, path, checks, known, state)
        except (OSError, UnicodeError) as error:
            problems = [LevelProblem(path, state.line, None, 0, "Internal", "internal-error",
                                     f"{path}: cannot be read: {getattr(error, 'strerror', None) or error}")]
        for problem in problems:
            counts[problem.kind] = counts.get(problem.kind, 0) + 1
            if args.max_err > 0 and counts[problem.kind] > args.max_err:
                if counts[problem.kind] == args.max_err + 1:
                    say(f"...suppressing further errors regarding {problem.kind}")
                continue
            say(line_of(problem, prefix))
        if level > 2:
            if args.print_relations:
                _relations(state, sys.stdout)
            if args.print_clusters:
                _clusters(state, sys.stdout)
            if args.print_temporal:
                _temporal(state, sys.stdout)
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
