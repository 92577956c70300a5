"""What both command-line tools share: error reporting, exit codes and read options."""

from __future__ import annotations

import argparse
import os
import stat
import sys
import warnings
from typing import Any, Callable, Iterable, List, NoReturn, Optional, Sequence, Set, cast

from mrp.codecs import ReadOptions, frameworks
from mrp.corpora import Corpus
from mrp.errors import FormatError, MRPError, MRPWarning, ReadWarning
from mrp.graph import Graph
from mrp.pipeline import input_format, run_keywords
from mrp.pipeline import read_options as reading_options
from mrp.process.collector import own_process

__all__ = ["CLOSED_PIPE", "FATAL", "OK", "PROBLEMS", "Parser", "add_read_options", "add_selection_options",
           "check_frameworks", "counting", "fail", "input_format", "new_parser", "read_ids", "read_options",
           "read_text_lines", "reader_messages", "refuse_overwrite", "refuse_stdin_twice", "report",
           "report_repairs", "run", "select", "selecting", "warn"]

#: Exit codes: 0 fine, 1 results with problems (some graphs skipped), 2 nothing trustworthy.
OK, PROBLEMS, FATAL = 0, 1, 2
#: Exit code after the reader of stdout went away (`| head`): 128 + SIGPIPE, as a killed tool's.
CLOSED_PIPE = 141


def warn(program: str, message: str) -> None:
    """One line on stderr (a message's own line breaks become spaces)."""
    print(f"{program}: {' '.join(message.splitlines())}", file=sys.stderr)


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
    """An argument parser in the style all the tools share (examples in the epilog, no abbreviations,
    ``-V``/``--version``)."""
    from mrp import __version__

    parser = Parser(prog=program, description=description, epilog=epilog,
                    formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    parser.add_argument("-V", "--version", action="version", version=f"{program} {__version__}")
    return parser


class Parser(argparse.ArgumentParser):
    """An argument parser that accepts options between file names (``a.mrp --to dot b.dot``)."""

    def parse_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def, override]
        """Parse options and positional arguments in any order."""
        return self.parse_intermixed_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        """A refused command line: one line on stderr (not argparse's usage block before it), exit 2."""
        fail(self.prog, f"{message} (see {self.prog} --help)")


def add_read_options(parser: argparse.ArgumentParser) -> None:
    """The options that change how input files are read (--text, --no-wiki, --wsj-ids, --strict), from the
    keyword table the library's read keywords come from."""
    for keyword in run_keywords(("text", "no_wiki", "wsj_ids", "strict")):
        parser.add_argument(cast(str, keyword.flag), **keyword.argument())  # a read keyword has its flag


def read_options(args: argparse.Namespace, framework: Optional[str] = None) -> ReadOptions:
    """ReadOptions from parsed arguments (reads the --text table), as the library makes them from its
    keywords (:func:`mrp.pipeline.read_options`)."""
    return reading_options(framework=framework, text=args.text or None, no_wiki=args.no_wiki,
                           wsj_ids=args.wsj_ids, strict=args.strict)


def add_selection_options(parser: argparse.ArgumentParser) -> None:
    """mtool's options that pick graphs by id or position (--id, --i, --n, --filter)."""
    group = parser.add_argument_group("selecting graphs (as mtool selects them)")
    group.add_argument("--id", dest="select_id", metavar="ID",
                       help="only the graph with this id, e.g. --id 20001001")
    group.add_argument("--i", dest="select_i", type=counting(0, "--i"), metavar="K",
                       help="only the K-th graph (from 0, counted after --framework and --filter), "
                            "e.g. --i 0")
    group.add_argument("--n", dest="select_n", type=counting(1, "--n"), metavar="N",
                       help="only the first N graphs (counted after --framework and --filter), "
                            "e.g. --n 500")
    group.add_argument("--filter", dest="select_filter", metavar="FILE",
                       help="only graphs whose id is listed in FILE (first tab-separated field of each "
                            "line), e.g. --filter ids.txt")


def counting(least: int, option: str) -> Callable[[str], int]:
    """An argument type: a whole number of at least ``least`` (else argparse's one-line error, exit 2)."""
    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{option} counts from {least}, not {value} (to select every "
                                             f"graph, leave {option} out)")
        return value

    return number


def selecting(args: argparse.Namespace) -> bool:
    """Whether any selection option was given."""
    return (args.select_id is not None or args.select_i is not None or args.select_n is not None
            or args.select_filter is not None)


def read_ids(path: str) -> Set[str]:
    """The ids of a --filter file: the first tab-separated field of each non-blank line."""
    ids: Set[str] = set()
    for line in read_text_lines(path):
        field = line.split("\t", 1)[0].strip()
        if field:
            ids.add(field)
    return ids


def read_text_lines(path: str) -> List[str]:
    """The lines of a small text file (a --filter list); InputError when it cannot be read."""
    from mrp.io.source import Line, read_lines

    out: List[str] = []
    for line in read_lines(path):
        if isinstance(line, FormatError):
            raise line
        assert isinstance(line, Line)
        out.append(line.text)
    return out


def select(graphs: Sequence[Graph], args: argparse.Namespace, ids: Optional[Set[str]] = None) -> List[Graph]:
    """The graphs that --filter, then --id, --i or --n (in this precedence) keep, as mtool keeps them."""
    kept = [g for g in graphs if ids is None or g.id in ids]
    if args.select_id is not None:
        return [g for g in kept if g.id == args.select_id]
    if args.select_i is not None:
        return kept[args.select_i:args.select_i + 1]
    if args.select_n is not None:
        return kept[:args.select_n]
    return kept


def check_frameworks(program: str, names: Optional[Iterable[str]]) -> None:
    """Refuse a --framework name that no framework has."""
    for name in names or ():
        if name not in frameworks():
            fail(program, f"--framework {name}: unknown framework (known: {', '.join(frameworks())})")


def refuse_stdin_twice(program: str, inputs: Iterable[Optional[str]]) -> None:
    """Exit 2 when standard input (``-``) is named for more than one input: it can be read once."""
    if sum(path == "-" for path in inputs) > 1:
        fail(program, "standard input ('-') can be read once: name it for one input only, and files for "
                      "the others")


def refuse_overwrite(program: str, outputs: Iterable[Optional[str]], inputs: Iterable[Optional[str]]) -> None:
    """Exit 2 when an output file names an input file (it would be overwritten before it is read) or
    another output (one would overwrite the other), or standard input is named for two inputs."""
    inputs = list(inputs)
    refuse_stdin_twice(program, inputs)
    named = [path for path in outputs if path]
    for k, output in enumerate(named):
        if _device(output):  # /dev/null for two outputs: nothing is overwritten
            continue
        for other in named[k + 1:]:
            if output != "-" and (os.path.realpath(output) == os.path.realpath(other) or (
                    os.path.exists(output) and os.path.exists(other) and os.path.samefile(output, other))):
                fail(program, f"{other}: named for two outputs; each needs a file of its own")
    existing = [path for path in inputs if path and path != "-" and os.path.exists(path)]
    for output in named:
        if not output or output == "-" or not os.path.exists(output):
            continue
        for path in existing:
            if os.path.samefile(output, path):
                fail(program, f"{output}: is an input file; refusing to overwrite it (name another output)")


def _device(path: str) -> bool:
    """Whether a path names a character device (``/dev/null``, ``/dev/stdout`` on a terminal)."""
    try:
        return stat.S_ISCHR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def reader_messages(program: str, quiet: bool) -> None:
    """Where the readers' messages (:class:`mrp.errors.ReadWarning`: parts of a graph left out) go: one line
    each on stderr, as every MRPWarning, or (``quiet``) nowhere."""
    if quiet:
        warnings.filterwarnings("ignore", category=ReadWarning)


def _one_line_warnings(program: str) -> None:
    """Warnings as one line each on stderr: mrp's own as `program: message`, a library's (numba's about its
    cache, say) as `program: Category: message`."""
    shown = warnings.showwarning

    def show(message: Any, category: Any, filename: str, lineno: int, file: Any = None,
             line: Optional[str] = None) -> None:
        if file is not None and file is not sys.stderr:
            shown(message, category, filename, lineno, file, line)
        elif issubclass(category, MRPWarning):
            warn(program, str(message))
        else:
            warn(program, f"{category.__name__}: {message}")

    warnings.showwarning = show


def run(program: str, body: Callable[[List[str]], int], argv: Optional[List[str]]) -> NoReturn:
    """Run a CLI body: MRPErrors become one line and exit 2; never a traceback.  Run as the command itself
    (``argv`` None), the process is the command's own (:func:`mrp.process.collector.own_process`)."""
    if argv is None:
        own_process()
    _one_line_warnings(program)
    try:
        code = body(sys.argv[1:] if argv is None else argv)
    except MRPError as error:
        fail(program, str(error))
    except KeyboardInterrupt:
        warn(program, "interrupted; no results written")
        _end(130, argv)
    except BrokenPipeError:
        _closed_pipe()
    except OSError as error:  # an output file that cannot be written
        where = f"{error.filename}: " if error.filename else ""
        fail(program, f"{where}{error.strerror or error}")
    except RecursionError:
        fail(program, "input nested too deeply to process")
    except MemoryError:
        fail(program, "out of memory")
    except Exception as error:  # noqa: BLE001 - the last line of defence against a traceback
        fail(program, f"internal error: {type(error).__name__}: {error} (please report this)")
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _closed_pipe()
    except OSError as error:  # the report, buffered until now, cannot be written (a full disk, /dev/full)
        fail(program, f"standard output: cannot write: {error.strerror or error}")
    _end(code, argv)


def _end(code: int, argv: Optional[List[str]]) -> NoReturn:
    """Exit with ``code``; the command itself (not a caller in Python) skips the interpreter's teardown.

    Everything is written by then, and the teardown only costs time (numba and LLVM: 0.05-0.1 s of a
    sentence-level run) or worse: after an interrupt, ``concurrent.futures``' exit hook may wake the
    manager thread of a process pool already stopped through a pipe already closed, and Python 3.11 then
    prints that OSError's traceback.
    """
    if argv is None:
        sys.stderr.flush()
        kept = sys.modules.get("mrp.process.worker")
        if kept is not None:  # HiGHS's kept process: ended and reaped (its CPU counted as a child's)
            kept.close()
        os._exit(code)
    sys.exit(code)


def _closed_pipe() -> NoReturn:
    """The reader of stdout went away (`| head`): end quietly, without Python's message at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    sys.exit(CLOSED_PIPE)
