"""mrp-smatch: a drop-in for ``smatch.py`` (smatch 1.0.4) with mrp's exact numbers.

The options mean what they mean to smatch (``-f`` the two files, the first scored against the second;
``--pr``, ``--ms``, ``--significant``, ``-r``, ``-v``, ``--vv``), the AMRs of each file are those smatch
reads (blocks separated by blank lines, comment lines skipped) and pair by position whatever their ids,
and standard output is smatch's, byte for byte (``F-score: 0.85``; ``Precision:``/``Recall:`` lines before
it with ``--pr``; one group per pair with ``--ms``).  The triples are counted as smatch counts them (its
defects included: ``mrp-score --smatch-compat``), so the numbers equal smatch's wherever its hill climber
finds the optimum and are above them where it does not; one line on standard error says how many pairs are
proved optimal (``--no-std-err``: none).  ``-r`` is accepted and has no effect (the search is exact).
"""

from __future__ import annotations

import argparse
import re
import sys
import warnings
from typing import List, Optional, Sequence, Tuple

from mrp.cli.common import OK, PROBLEMS, fail, new_parser, run, warn
from mrp.io.write import write_text

PROGRAM = "mrp-smatch"

EPILOG = """examples:
  mrp-smatch -f parsed.amr gold.amr                 F-score: 0.76 (the first file against the second)
  mrp-smatch --pr --significant 4 -f parsed.amr gold.amr
  mrp-smatch --ms -f parsed.amr gold.amr            one score per AMR pair

Standard output is smatch.py's; the numbers are the proved optimum (smatch's hill climber may stop below
it).  mrp-score --score smatch gives the same counts with mrp's JSON report."""

#: smatch's options that mrp does not score (each refused with a pointer)
UNSUPPORTED = ("--justinstance", "--justattribute", "--justrelation")


def parser() -> argparse.ArgumentParser:
    """smatch.py's command line, plus mrp's few options."""
    p = new_parser(PROGRAM, "SMATCH with smatch.py's command line and output, exact.", EPILOG)
    p.add_argument("-f", nargs=2, required=True, metavar=("FILE1", "FILE2"),
                   help="two files of AMRs separated by blank lines: FILE1 (the parser's) is scored "
                        "against FILE2 (the gold); '-' reads standard input")
    p.add_argument("-r", type=int, default=4, metavar="N",
                   help="smatch's number of restarts: accepted and ignored (the search is exact)")
    p.add_argument("--significant", type=int, default=2, metavar="N",
                   help="digits after the decimal point (default: 2)")
    p.add_argument("-v", action="store_true", help="each pair's counts on standard error")
    p.add_argument("--vv", action="store_true", help="as -v")
    p.add_argument("--ms", action="store_true", help="one score per AMR pair instead of one over the files")
    p.add_argument("--pr", action="store_true", help="precision and recall as well as the F-score")
    for name in UNSUPPORTED:
        p.add_argument(name, action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--no-std-err", "--no_std_err", dest="no_std_err", action="store_true",
                   help="nothing on standard error but errors (not even the line saying the numbers are "
                        "proved optimal)")
    p.add_argument("--mrp-triples", action="store_true",
                   help="count triples as mrp-score --score smatch does (triples as sets, quoted strings "
                        "whole) instead of as smatch does")
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                   help="time limit of one pair's search (default: 60; a pair cut there says so)")
    return p


def amrs(text: str) -> List[str]:
    """The AMRs of a file as smatch reads them: lines up to a blank line once a line that is not a comment
    (``#``) was read; comment lines kept (mrp reads them), blank lines before an AMR skipped."""
    found: List[str] = []
    lines: List[str] = []
    content = False
    for line in text.split("\n"):
        if not line.strip():
            if content:
                found.append("\n".join(lines))
                lines, content = [], False
            continue
        lines.append(line)
        content = content or not line.strip().startswith("#")
    if content:
        found.append("\n".join(lines))
    return found


#: the ``::id`` of a comment line (smatch pairs by position and reads no ids: two AMRs with the same id are
#: two AMRs)
_ID = re.compile(r"^(\s*#.*?)::id(?=\s)", re.M)


def without_ids(amr: str) -> str:
    """An AMR's text with its ``# ::id`` renamed ``::smatch-id``: mrp then numbers the AMRs by position."""
    return _ID.sub(r"\1::smatch-id", amr)


def compute_f(match: float, test: float, gold: float) -> Tuple[float, float, float]:
    """Precision, recall and F as smatch computes them (the same float operations, so that they print
    the same digits): all three 0 when either side has no triple."""
    if test == 0 or gold == 0:
        return 0.0, 0.0, 0.0
    precision = float(match) / float(test)
    recall = float(match) / float(gold)
    if precision + recall != 0:
        return precision, recall, 2 * precision * recall / (precision + recall)
    return precision, recall, 0.0


def _read(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8-sig") as stream:
            return stream.read()
    except UnicodeDecodeError as error:
        fail(PROGRAM, f"{path}: not UTF-8 text ({error.reason} at byte {error.start})")
    except OSError as error:
        fail(PROGRAM, f"{path}: {error.strerror or error}")


def _lines(figures: Sequence[Tuple[float, float, float]], args: argparse.Namespace) -> str:
    """smatch's standard output for its (precision, recall, F) groups."""
    shown = f"%.{args.significant}f"
    out = []
    for precision, recall, f in figures:
        if args.pr:
            out.append("Precision: " + shown % precision)
            out.append("Recall: " + shown % recall)
        out.append("F-score: " + shown % f)
    return "".join(line + "\n" for line in out)


def main_body(argv: List[str]) -> int:
    """Run mrp-smatch on arguments; returns the exit status."""
    import mrp

    args = parser().parse_args(argv)
    refused = [name for name in UNSUPPORTED if getattr(args, name[2:])]
    if refused:
        fail(PROGRAM, f"{refused[0]} is not supported (mrp-score --score smatch --aspects gives the "
                      "figures of each kind of triple)")
    if args.significant < 0:
        fail(PROGRAM, f"--significant must be 0 or more, not {args.significant}")
    if args.f[0] == args.f[1] == "-":
        fail(PROGRAM, "standard input can be read once: give at most one of the files as '-'")
    tested, gold = (amrs(_read(path)) for path in args.f)
    if len(tested) != len(gold):
        # smatch's own words and behaviour: the pairs both files have are scored
        which = "1 has less AMRs than file 2" if len(tested) < len(gold) else "2 has less AMRs than file 1"
        print(f"Error: File {which}", file=sys.stderr)
        print("Ignoring remaining AMRs", file=sys.stderr)
    n = min(len(tested), len(gold))
    if n == 0:
        fail(PROGRAM, f"{args.f[0] if not tested else args.f[1]}: holds no AMR")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        texts = ("\n\n".join(without_ids(amr) for amr in side[:n]) + "\n" for side in (gold, tested))
        result = mrp.score(*texts, metric="smatch",
                           format="amr", positional=True, trace=True, smatch_compat=not args.mrp_triples,
                           timeout=args.timeout)
    if not args.no_std_err:
        for warning in caught:
            warn(PROGRAM, str(warning.message))
        _unusual(result, args.f[0])
    pairs = result.pairs
    counts = [(pair.figures.c, pair.figures.s, pair.figures.g) if pair.figures else (0, 0, 0)
              for pair in pairs]
    if args.v or args.vv:
        _verbose(counts, pairs)
    if args.ms:
        write_text("-", _lines([compute_f(*count) for count in counts], args))
    else:
        write_text("-", _lines([compute_f(*(sum(column) for column in zip(*counts)))], args))
    exact = sum(pair.exact for pair in pairs)
    if not args.no_std_err:
        warn(PROGRAM, _exactness(exact, pairs, result))
    return OK if exact == len(pairs) and not result["invalid"] and len(tested) == len(gold) else PROBLEMS


def _unusual(result: object, name: str) -> None:
    """One line for the AMRs of FILE1 that could not be read (each scored as an empty graph, where smatch
    stops) and one for those read by a repair."""
    document = getattr(result, "document", {})
    if document.get("invalid"):
        warn(PROGRAM, f"{name}: {document['invalid']} AMR(s) could not be read, each scored as an empty "
                      "graph (mrp-score --score smatch names them)")
    if document.get("repaired"):
        warn(PROGRAM, f"{name}: {document['repaired']} AMR(s) read by a repair (mrp-score --score smatch "
                      "names the repairs)")


def _verbose(counts: Sequence[Tuple[float, float, float]], pairs: Sequence[object]) -> None:
    """smatch -v's per-pair counts, on standard error."""
    for number, ((match, test, gold), pair) in enumerate(zip(counts, pairs), start=1):
        print(f"AMR pair {number}", file=sys.stderr)
        print("============================================", file=sys.stderr)
        print("best match number", int(match), file=sys.stderr)
        print(f"triples in AMR 1: {int(test)}, in AMR 2: {int(gold)}; proved optimal: "
              f"{'yes' if getattr(pair, 'exact', True) else 'no'}", file=sys.stderr)
    totals = [int(sum(column)) for column in zip(*counts)] or [0, 0, 0]
    print("Total match number, total triple number in AMR 1, and total triple number in AMR 2:",
          file=sys.stderr)
    print(*totals, file=sys.stderr)


def _exactness(exact: int, pairs: Sequence[object], result: object) -> str:
    """The line saying how far the numbers are proved optimal."""
    if exact == len(pairs):
        return (f"{exact} of {len(pairs)} pairs proved optimal: the numbers are the best node mapping's "
                f"(smatch's hill climber may stop below it)")
    bound = getattr(result, "document", {}).get("bound", {}).get("f")
    return (f"{exact} of {len(pairs)} pairs proved optimal; the others were cut at their time limit "
            f"(F at most {bound:.4f}; mrp-score --score smatch --trace names them)")


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-smatch."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()


__all__ = ["amrs", "compute_f", "main", "main_body", "parser", "without_ids"]
