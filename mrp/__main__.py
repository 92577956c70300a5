"""`python -m mrp`: the help of mrp-score, and a pointer to mrp-convert."""

from __future__ import annotations

import sys

from .cli.score import parser


def main() -> None:
    """Print mrp-score's help and where to find conversion."""
    parser().print_help()
    print("\nTo convert between formats (mrp, amr, eds, dm, psd, dot): mrp-convert --help")
    sys.exit(0)


if __name__ == "__main__":
    main()
