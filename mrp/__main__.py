"""`python -m mrp ARGS`: runs mrp-score ARGS (without arguments: its help, and where conversion is)."""

from __future__ import annotations

import sys

from mrp.cli import score


def main() -> None:
    """Run mrp-score on the arguments; without any, print its help and point to mrp-convert."""
    if len(sys.argv) <= 1:
        score.parser().print_help()
        print("\nTo convert between formats (mrp, amr, eds, dm, psd, dot): mrp-convert --help; "
              "mtool's command line: mrp-mtool --help")
        sys.exit(0)
    score.main(sys.argv[1:])


if __name__ == "__main__":
    main()
