"""compare_umr.pl's cutting of a UMR file into sentences: the one rule, used by its reading of a file
(:mod:`mrp.metrics.umatch.reading`) and by the compat view of the graphs mrp read
(:mod:`mrp.metrics.umatch.graphs`).

A block is a run of non-empty lines (a line of spaces is empty); one empty line ends a block, two or more end
the sentence. compare_umr.pl gives a sentence's blocks their roles by position (sentence information, graph,
alignment, document-level annotation), so a file whose sections are set apart by two empty lines (the UMR 3.0
English release) is read as several "sentences", the first holding the words and the graph, the others
nothing it compares: neither their alignment nor their document-level relations are counted.
"""

from __future__ import annotations

from typing import Iterable, List, Set, Tuple

#: a block: (first line, last line, its lines)
Block = Tuple[int, int, List[str]]

__all__ = ["Block", "sentences", "first_sentence"]


def sentences(lines: Iterable[Tuple[int, str]]) -> List[List[Block]]:
    """compare_umr.pl's sentences of numbered lines (consecutive numbers, trailing spaces stripped), each a
    list of blocks."""
    out: List[List[Block]] = []
    blocks: List[Block] = []
    current: List[str] = []
    first = last = 0
    last_empty = False
    for number, line in lines:
        if line == "":
            if last_empty:
                if blocks:
                    out.append(blocks)
                    blocks = []
            elif current:
                blocks.append((first, last, current))
                current = []
            last_empty = True
        else:
            if not current:
                first = number
            current.append(line)
            last, last_empty = number, False
    if current:
        blocks.append((first, last, current))
    if blocks:
        out.append(blocks)
    return out


def first_sentence(outline: Iterable[Tuple[int, str]], start: int) -> Tuple[Set[str], bool]:
    """The sections compare_umr.pl reads as a sentence's own, of a sentence block that starts at line
    ``start``: its ``outline`` gives the block's empty lines (``""``) and section headers (the section's
    name) by line number; the other lines are not empty. A section after two empty lines is read as (part
    of) another sentence. Also whether such another sentence has a second block that is not the alignment
    section (compare_umr.pl reads it as a graph, and compares what it finds there)."""
    marks = dict(outline)
    if not marks:
        return set(), False
    last = max(marks)
    if not any(name == "" and marks.get(number + 1) == "" and number + 1 < last
               for number, name in marks.items()):  # no two empty lines before another line: one sentence
        return {name for name in marks.values() if name}, False
    numbered = ((number, marks.get(number, "x")) for number in range(start, max(marks) + 1))
    found = sentences(numbered)
    if not found:
        return set(), False
    first, last = found[0][0][0], found[0][-1][1]
    own = {name for number, name in marks.items() if name and first <= number <= last}
    return own, any(len(other) > 1 and marks.get(other[1][0], "x") != "alignment" for other in found[1:])
