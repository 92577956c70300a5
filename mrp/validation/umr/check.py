"""Running the level checks over a file."""

from __future__ import annotations

import contextlib
from typing import List, Optional, Set, TextIO, Union

from mrp.validation.umr.blocks import Block, pieces, sentences
from mrp.validation.umr.state import Checks, LevelProblem, State

__all__ = ["Checks", "LevelProblem", "check_levels"]

#: validate.py's levels: 4 (language-specific labels) and 5 (language-specific contents) check nothing more
#: than 3 in the shared task's validator (ufal/umrtools 4377bc4), and so here
LEVELS = (1, 2, 3, 4, 5)


def check_levels(path: Union[str, TextIO], level: int, name: str = "", checks: Optional[Checks] = None,
                 known_ids: Optional[Set[str]] = None, state: Optional[State] = None) -> List[LevelProblem]:
    """The problems of a UMR file up to ``level`` (1: backbone, 2: format, 3: content; 4 and 5 as 3), in the
    order found; OSError and UnicodeDecodeError for a file that cannot be read.

    Args:
        path: the file, or an open text stream (read with universal newlines).
        level: the highest level checked.
        name: the file's name in the problems (default: ``path``).
        checks: which relaxable checks are made (default: validate.py's defaults).
        known_ids: sentence ids seen in earlier files of the same run (validate.py reports an id used in any
            of them); updated with this file's.
        state: where the file's nodes and problems are collected (a new one by default).

    Returns:
        The problems found.
    """
    label = name or (path if isinstance(path, str) else "<stdin>")
    state = state or State(label, level)
    state.file = label
    state.checks = checks or Checks()
    if known_ids is not None:
        state.known_ids = known_ids
    passed: List[List[Block]] = []
    with (open(path, encoding="utf-8") if isinstance(path, str) else contextlib.nullcontext(path)) as stream:
        for blocks in sentences(pieces(stream, state.checks.inline_comments), state):
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
        from mrp.validation.umr import clusters, temporal

        state.clusters = clusters.check(passed, state)
        state.temporal = temporal.check(passed, state, state.clusters.members, state.clusters.line)
    state.sentences = passed
    return state.problems
