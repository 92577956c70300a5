"""Write a perturbed copy of the shared wsj.amr for Rematch's reading of quoted constants.

Each graph of ../shared/data/wsj/amr/wsj.amr (comments dropped) is paired with a copy where quoted
constants are rewritten, at random (seed 7): some get a first word that is a variable of the graph, some
words after them, some the first word ``top``; and some ``-01`` frames become ``-02``.

    python tests/data/rematch/perturb_wsj.py ../shared/data/wsj/amr/wsj.amr A.amr B.amr

Rematch's scores of the pairs (tests/data/rematch/perturbed.scores.json) were made by Rematch-RARE 41e1834
itself (Python 3.11, numpy, pandas, networkx), with an empty frame list and table:

    cd methods/rematch && python rematch.py -f A.amr B.amr --ms --pb EMPTY.txt --va EMPTY.json

(its scores are A.amr_rematch_scores.npy, written here as a JSON list).
"""

from __future__ import annotations

import random
import re
import sys


def perturbed(text: str, seed: int = 7) -> tuple:
    """The graphs of a Penman file (without comments) and their perturbed copies, as two texts."""
    rng = random.Random(seed)
    first, second = [], []
    for block in text.split("\n\n"):
        if "(" not in block:
            continue
        graph = "\n".join(line for line in block.split("\n") if not line.startswith("#"))
        variables = re.findall(r"\((\S+) /", graph)

        def quoted(match: re.Match, variables: list = variables) -> str:
            draw = rng.random()
            if draw < 0.3:
                return '"' + rng.choice(variables) + " " + match.group(1) + '"'
            if draw < 0.5:
                return '"' + match.group(1) + ' x y"'
            if draw < 0.6:
                return '"top ' + match.group(1) + '"'
            return match.group(0)

        copy = re.sub(r'"([^"]*)"', quoted, graph)
        copy = re.sub(r"/ ([a-z]+)-01",
                      lambda m: "/ " + m.group(1) + ("-02" if rng.random() < 0.2 else "-01"), copy)
        first.append(graph)
        second.append(copy)
    return "\n\n".join(first) + "\n", "\n\n".join(second) + "\n"


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as stream:
        one, two = perturbed(stream.read())
    with open(sys.argv[2], "w", encoding="utf-8") as stream:
        stream.write(one)
    with open(sys.argv[3], "w", encoding="utf-8") as stream:
        stream.write(two)
