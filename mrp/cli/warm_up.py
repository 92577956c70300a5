"""mrp-warm-up: compile the solver's kernels into numba's cache now (for images, CI and the shared-task kit).

A fresh installation compiles the kernels the first time a metric that searches
runs (in a background process, while the same kernels run as plain Python);
``mrp-warm-up`` does it ahead, so that the first run loads them from the cache
at once.  It waits for a background compiler of the same cache that is already
running, then compiles what is still missing, saying on stderr what it does.
Nothing is written on stdout.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import List, Optional

from mrp.cli.common import new_parser, run
from mrp.report.progress import terminal

PROGRAM = "mrp-warm-up"


def _arguments(argv: List[str]) -> argparse.Namespace:
    parser = new_parser(PROGRAM, "Compile the solver's kernels into numba's cache, once per installation "
                        "(NUMBA_CACHE_DIR chooses where), so that the first scoring run starts at once.",
                        "examples:\n  mrp-warm-up\n  NUMBA_CACHE_DIR=/opt/numba-cache mrp-warm-up   "
                        "# in a Dockerfile: RUN mrp-warm-up")
    parser.add_argument("--quiet", action="store_true", help="say nothing unless it fails")
    return parser.parse_args(argv)


def main_body(argv: List[str]) -> int:
    """Run mrp-warm-up on arguments; returns the exit status."""
    args = _arguments(argv)
    quiet = bool(getattr(args, "quiet", False))
    began = time.monotonic()
    live = terminal(sys.stderr) and not quiet

    def say(done: int, total: int, what: str) -> None:
        if quiet or what == "done":
            return
        text = f"{PROGRAM}: {done + 1} of {total}: {what} ({time.monotonic() - began:.0f} s so far)"
        sys.stderr.write(("\r\x1b[K" + text) if live else text + "\n")
        sys.stderr.flush()

    from mrp.solver import compile_status, wait_compiled

    def waiting() -> None:
        found = compile_status()
        if found is not None:
            say(int(found.get("done", 0)), int(found.get("total", 0)),
                f"{found.get('kernel', '')}, in the background compiler")

    wait_compiled(waiting, say)
    if live:
        sys.stderr.write("\r\x1b[K")
    if not quiet:
        sys.stderr.write(f"{PROGRAM}: the solver's kernels are compiled and cached "
                         f"({time.monotonic() - began:.1f} s)\n")
    return 0


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-warm-up."""
    run(PROGRAM, main_body, argv)


if __name__ == "__main__":
    main()
