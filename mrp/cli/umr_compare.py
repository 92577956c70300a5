"""mrp-umr-compare: a drop-in for the UMR shared task's ``compare_umr.pl`` (and ``micro_average.pl``).

``mrp-umr-compare [OPTIONS] LABEL1 FILE1 LABEL2 FILE2 [LABEL3 FILE3 ...]`` compares the files as the
comparator does (its reading, its greedy node correspondence, its counts and layouts; ``--tsv`` rows
equal byte for byte); ``--exact`` takes the exact correspondence instead.  Given directories instead of
files, the documents of the same name are compared one by one and their figures summed as
``micro_average.pl`` sums them; ``--micro-average`` sums ``--tsv`` outputs already written.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence, Tuple

from mrp.cli.common import FATAL, new_parser, run, warn
from mrp.metrics import DEFAULT_MAX_MEMORY, checked

PROGRAM = "mrp-umr-compare"

EPILOG = """\
examples:
  mrp-umr-compare --tsv GOLD gold.umr SYSTEM system.umr
      compare_umr.pl's --tsv rows, byte for byte
  mrp-umr-compare --exact GOLD gold.umr SYSTEM system.umr
      the same figures under the exact node correspondence (juːmæʧ proved optimal per sentence)
  mrp-umr-compare --tsv GOLD gold-docs/ SYSTEM system-docs/
      every document of the same name compared, then summed as micro_average.pl sums them
  mrp-umr-compare --micro-average doc1.tsv doc2.tsv doc3.tsv
      micro_average.pl's sums of --tsv outputs

The first file is the gold standard: recall is against it, precision against the second.
exit status: 0 compared; 2 bad arguments or a file that cannot be compared (unreadable, no sentences,
different words in a sentence).
"""


def parser() -> argparse.ArgumentParser:
    """The argument parser of mrp-umr-compare."""
    p = new_parser(PROGRAM, "Compare UMR files as the UMR shared task's compare_umr.pl does (juːmæʧ, "
                   "aligned token sets, node projections, triples in mapped nodes); --exact for the "
                   "exact node correspondence.", EPILOG)
    p.add_argument("items", metavar="LABEL FILE", nargs="*", help="a label and a file (or directory) each")
    p.add_argument("--exact", action="store_true",
                   help="the node correspondence that maximises juːmæʧ's correct count (proved; the files "
                        "read as mrp-score reads them, each repair reported: the figures of mrp-score "
                        "--score umatch)")
    p.add_argument("--tsv", action="store_true", help="tab-separated rows (as compare_umr.pl --tsv)")
    p.add_argument("--quiet", action="store_true", help="the juːmæʧ figure alone")
    p.add_argument("--verbose", action="store_true",
                   help="per sentence: the graphs side by side, token-node alignments, the node "
                        "correspondence and every mismatch")
    p.add_argument("--top", action="store_true", help="a TOP attribute on each sentence's first node")
    p.add_argument("--no-document-level", action="store_true", help="leave document-level relations out")
    p.add_argument("--only", metavar="ROLE,...", help="count only these relations ('concept': concepts)")
    p.add_argument("--except", dest="excluded", metavar="ROLE,...",
                   help="do not count these relations ('concept': concepts)")
    p.add_argument("--micro-average", action="store_true",
                   help="sum the --tsv outputs given as arguments (micro_average.pl)")
    p.add_argument("--timeout", default=60.0, metavar="SECONDS",
                   help="--exact: seconds per sentence pair at most (default 60; 0 or inf: no cap)")
    p.add_argument("--max-memory", default=str(DEFAULT_MAX_MEMORY), metavar="BYTES",
                   help="bytes a sentence pair's node correspondence may take (default 2G; e.g. 500M, 8G; 0 "
                        "or inf: no cap), estimated before anything is allocated (per node pair with "
                        "--exact, per candidate link without): a pair beyond it is mapped in linear time "
                        "instead, with a warning (not compare_umr.pl's figures for that pair)")
    return p


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-umr-compare."""
    run(PROGRAM, _main, argv)


def _main(argv: List[str]) -> int:
    args = parser().parse_args(argv)
    args.timeout = checked("timeout", args.timeout, flag=True)
    args.max_memory = checked("max_memory", args.max_memory, flag=True)
    if args.micro_average:
        from mrp.report.umatch.micro import micro_average

        if not args.items:
            warn(PROGRAM, "--micro-average needs the --tsv files to sum")
            return FATAL
        sys.stdout.write(micro_average(args.items))
        return 0
    items: List[str] = args.items
    if len(items) < 4 or len(items) % 2:
        warn(PROGRAM, "expected LABEL1 FILE1 LABEL2 FILE2 [...]: two labels and two files at least")
        return FATAL
    labels, paths = items[0::2], items[1::2]
    if len(set(labels)) != len(labels):
        warn(PROGRAM, "file labels must be distinct")
        return FATAL
    if args.verbose and (args.quiet or args.tsv):
        args.verbose = False  # as the comparator: --quiet and --tsv win
    directories = [os.path.isdir(path) for path in paths]
    if any(directories):
        if not all(directories):
            warn(PROGRAM, "give files, or directories of documents, not both")
            return FATAL
        return _documents(args, labels, paths)
    sys.stdout.write(compare_files(args, labels, paths))
    return 0


def compare_files(args: argparse.Namespace, labels: Sequence[str], paths: Sequence[str]) -> str:
    """The comparator's output for one set of files (warnings and read failures go to stderr), through the
    pipeline (:func:`mrp.pipeline.umr.compare_umr`)."""
    from mrp.pipeline.umr import Comparison, compare_umr

    how = Comparison(_names(args.only), _names(args.excluded), not args.no_document_level, args.top,
                     args.exact, args.timeout, checked("max_memory", args.max_memory, flag=True),
                     args.quiet, args.tsv, args.verbose)  # max_memory as parsed, or checked already
    return compare_umr(how, labels, paths, lambda message: warn(PROGRAM, message),
                       lambda line: print(line, file=sys.stderr))


def _names(text: Optional[str]) -> List[str]:
    return [name for name in (text or "").split(",") if name]


def _documents(args: argparse.Namespace, labels: Sequence[str], paths: Sequence[str]) -> int:
    """Directories: the documents every directory has, compared one by one, then micro-averaged."""
    from mrp.metrics import pair_files
    from mrp.report.umatch.micro import micro_rows

    listed = [sorted(n for n in os.listdir(path) if not n.startswith(".")) for path in paths]
    # each directory's files paired with the first's by the one rule (the same name, else ignoring case)
    pairings = [pair_files(listed[0], found) for found in listed[1:]]
    for path, files in zip(paths[1:], pairings):
        for note in files.notes(paths[0], path):
            warn(PROGRAM, note)
    names = [name for name in listed[0] if all(name in dict(files.pairs) for files in pairings)]
    if not names:
        warn(PROGRAM, "the directories have no document in common")
        return FATAL
    outputs: List[Tuple[str, str]] = []
    tsv = argparse.Namespace(**dict(vars(args), tsv=True, quiet=False, verbose=False))
    for name in names:
        chosen = [os.path.join(paths[0], name)] + [os.path.join(path, dict(pairing.pairs)[name])
                                                   for path, pairing in zip(paths[1:], pairings)]
        outputs.append((name, compare_files(tsv, labels, chosen)))
    rows = micro_rows([text for _, text in outputs])
    if args.verbose:
        for name, text in outputs:
            sys.stdout.write(f"# {name}\n{text}")
    sys.stdout.write(rows)
    return 0


if __name__ == "__main__":
    main()
