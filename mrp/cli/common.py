"""What both command-line tools share: error reporting, exit codes and read options."""

from __future__ import annotations

import argparse
import sys
import warnings
from typing import Any, Callable, List, NoReturn, Optional

from ..codecs import ReadOptions
from ..errors import FormatError, MRPError, MRPWarning
from ..load import Corpus, read_text

#: Exit codes: 0 fine, 1 results with problems (some graphs skipped), 2 nothing trustworthy.
OK, PROBLEMS, FATAL = 0, 1, 2


def warn(program: str, message: str) -> None:
    """One line on stderr."""
    print(f"{program}: {message}", file=sys.stderr)


def report(error: FormatError, suffix: str = "") -> None:
    """A FormatError as its one line `FILE:LINE: graph ID: message` on stderr."""
    print(f"{error}{suffix}", file=sys.stderr)


def report_repairs(corpus: Corpus) -> None:
    """One warning line `FILE:LINE: graph ID: repaired: ...` per graph that its reader repaired."""
    for item in corpus.repaired:
        print(item, file=sys.stderr)


def fail(program: str, message: str) -> NoReturn:
    """One line on stderr and exit 2."""
    warn(program, message)
    sys.exit(FATAL)


def new_parser(program: str, description: str, epilog: str) -> argparse.ArgumentParser:
    """An argument parser in the style all the tools share (examples in the epilog, no abbreviations)."""
    return argparse.ArgumentParser(prog=program, description=description, epilog=epilog,
                                   formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)


def add_read_options(parser: argparse.ArgumentParser) -> None:
    """The options that change how input files are read."""
    parser.add_argument("--text", metavar="FILE",
                        help="id<TAB>sentence lines giving the input strings (needed to anchor "
                             "SDP and EDS; overrides AMR ::snt), e.g. --text wsj.txt")
    parser.add_argument("--no-wiki", action="store_true",
                        help="AMR: drop :wiki relations, as the MRP 2019 data do")
    parser.add_argument("--wsj-ids", action="store_true",
                        help="AMR: map WSJ ids as the MRP data do (wsj_0001.1 -> 20001001)")
    parser.add_argument("--strict", action="store_true",
                        help="refuse graphs that need a repair (e.g. a Penman graph whose brackets do not "
                             "close) instead of repairing them as SMATCH and mtool do; they count as invalid")


def read_options(args: argparse.Namespace, framework: Optional[str] = None) -> ReadOptions:
    """ReadOptions from parsed arguments (reads the --text table)."""
    text = read_text(args.text) if args.text else None
    return ReadOptions(framework=framework, text=text, no_wiki=args.no_wiki, wsj_ids=args.wsj_ids,
                       strict=args.strict)


def _one_line_warnings(program: str) -> None:
    """mrp's own warnings as one line each on stderr (`program: message`)."""
    shown = warnings.showwarning

    def show(message: Any, category: Any, filename: str, lineno: int, file: Any = None,
             line: Optional[str] = None) -> None:
        if issubclass(category, MRPWarning):
            warn(program, str(message))
        else:
            shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show


def run(program: str, body: Callable[[List[str]], int], argv: Optional[List[str]]) -> NoReturn:
    """Run a CLI body: MRPErrors become one line and exit 2; never a traceback."""
    _one_line_warnings(program)
    try:
        code = body(sys.argv[1:] if argv is None else argv)
    except MRPError as error:
        fail(program, str(error))
    except KeyboardInterrupt:
        warn(program, "interrupted; no results written")
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(FATAL)
    except OSError as error:  # an output file that cannot be written
        where = f"{error.filename}: " if error.filename else ""
        fail(program, f"{where}{error.strerror or error}")
    except RecursionError:
        fail(program, "input nested too deeply to process")
    except MemoryError:
        fail(program, "out of memory")
    except Exception as error:  # noqa: BLE001 - the last line of defence against a traceback
        fail(program, f"internal error: {type(error).__name__}: {error} (please report this)")
    sys.exit(code)
