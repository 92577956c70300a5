"""Running the level checks over a file."""

from __future__ import annotations

from typing import List

from mrp.validation.umr.blocks import Block, sentences
from mrp.validation.umr.state import LevelProblem, State

__all__ = ["LevelProblem", "check_levels"]


def check_levels(path: str, level: int, name: str = "") -> List[LevelProblem]:
    """The problems of a UMR file up to ``level`` (1: backbone, 2: format, 3: content), in the order
    found; OSError and UnicodeDecodeError for a file that cannot be read."""
    state = State(name or path, level)
    passed: List[List[Block]] = []
    with open(path, encoding="utf-8") as stream:
        for blocks in sentences(stream, state):
            passed.append(blocks)
            if level > 1:
                from mrp.validation.umr import level2

                level2.check(blocks, state)
            if level > 2:
                from mrp.validation.umr import content

                content.check(blocks, state)
            state.sentence_line = None
            state.sentence_id = None
        newlines = stream.newlines
    if newlines and newlines != "\n":
        state.report(1, "Format", "non-unix-newline", "line ends other than LF")
    if level > 2:
        from mrp.validation.umr import clusters

        clusters.check(passed, state)
    return state.problems
