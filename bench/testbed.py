"""Rematch's speed testbed: N random pairs (i < j) of a graph collection, written as two Penman files
paired by position.

The collection is the graphs of the files given, in order (the shared testbed: ``coli.gold.amr`` then
``coli.system.amr``, 2,736 graphs).  Pair k is ``sorted(random.Random(seed).sample(range(len), 2))``
drawn k-th, so a pair never repeats a graph; the same pair may be drawn twice.  Each graph is written
as its own text in the collection (comment lines such as ``# ::id`` left out, so that the two files pair
by position), followed by a blank line.  With seed 0 and 2,000 pairs of coli this gives
``../shared/reference/rematch/testbed-2k.{a,b}.amr`` byte for byte (``tests/test_rematch.py`` checks
it).  Rematch's own ``generate_matchups.py`` draws pair numbers of ``itertools.combinations`` with
``numpy.random.choice`` and no seed, and rewrites the graphs through ``penman.dump``: the same kind of
load, not reproducible.

``python bench/testbed.py --pairs 20000 --seed 0 OUT.a.amr OUT.b.amr COLLECTION.amr...``
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import List, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mrp.codecs.penman import frames  # noqa: E402
from mrp.errors import FormatError  # noqa: E402
from mrp.io.source import read_lines  # noqa: E402
from mrp.io.write import write_text  # noqa: E402


def collection(paths: Sequence[str]) -> List[str]:
    """The text of every graph of the Penman files, in order (without its comment lines).

    Args:
        paths: Penman files.

    Returns:
        One string per graph, as written in its file.
    """
    texts: List[str] = []
    for path in paths:
        for frame in frames(line for line in read_lines(str(path)) if not isinstance(line, FormatError)):
            if frame.has_graph():
                texts.append(frame.chunk.text())
    return texts


def pairs(n: int, count: int, seed: int = 0) -> List[Tuple[int, int]]:
    """``count`` random pairs ``(i, j)``, ``i < j < n``, as the testbed draws them.

    Args:
        n: the collection's size (at least 2).
        count: how many pairs.
        seed: the seed of :class:`random.Random`.

    Returns:
        The pairs, in the order drawn.
    """
    if n < 2:
        raise ValueError("a testbed needs at least two graphs")
    draw = random.Random(seed)
    out: List[Tuple[int, int]] = []
    for _ in range(count):
        i, j = sorted(draw.sample(range(n), 2))
        out.append((i, j))
    return out


def testbed(texts: Sequence[str], count: int, seed: int = 0) -> Tuple[str, str]:
    """The two files' text: the first and the second graph of each pair.

    Args:
        texts: the collection's graphs (:func:`collection`).
        count: pairs.
        seed: the seed.

    Returns:
        The text of file a and of file b.
    """
    drawn = pairs(len(texts), count, seed)
    first = "".join(texts[i] + "\n\n" for i, _ in drawn)
    second = "".join(texts[j] + "\n\n" for _, j in drawn)
    return first, second


def main(argv: Sequence[str] = ()) -> None:
    """Write a testbed (the command line above)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pairs", type=int, default=20_000, help="pairs (default 20000)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("a", help="the file of each pair's first graph")
    p.add_argument("b", help="the file of each pair's second graph")
    p.add_argument("collection", nargs="+", help="Penman files, their graphs taken in order")
    args = p.parse_args(list(argv) or None)
    first, second = testbed(collection(args.collection), args.pairs, args.seed)
    write_text(args.a, first)
    write_text(args.b, second)


if __name__ == "__main__":
    main(sys.argv[1:])
