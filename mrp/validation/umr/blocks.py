"""Level 1: the technical backbone of a UMR file, and its sentences of four blocks.

A block is a run of non-empty lines (its leading comment lines apart); one empty line ends a block, a
second ends the sentence.  Every line must be a comment, a graph line (``(`` or ``:``), an alignment line
(``VAR:``) or an interlinear-gloss line (``Words:``, ``Index:``, ...).  A sentence with the wrong number
of blocks, a comment inside a block or a line of no kind is reported and left out of the higher levels.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Dict, Iterator, List, TextIO

from mrp.validation.umr.state import SENTENCE_ID, State, variable

Block = Dict[str, Any]

ILG = re.compile(r"(Index|Words|Word Gloss \([a-z]{2,3}\)|Part of Speech|Morphemes|"
                 r"Morpheme Gloss \([a-z]{2,3}\)|Morpheme Category|Sentence|"
                 r"Sentence Gloss \([a-z]{2,3}\)):\s*(.+)")
ILG_OLD = re.compile(r"(Words|tx|Morphemes|mb|Morpheme Gloss\((?:English|Spanish)\)|ge|Morpheme Cat|ps|"
                     r"Word Gloss|(?:English|Spanish) Sent Gloss:|tr)\s+(.+)")
ATTRIBUTE = re.compile(r":[A-Za-z][-A-Za-z0-9]*")
#: an inline comment (``--allow-inline-comments``): a ``#`` after the line's first character, to the end
INLINE_COMMENT = re.compile(r"(.)#.*")


def stripped(text: str) -> str:
    """``text`` without leading white space (``str.lstrip``: the same white space as the regular expressions'
    ``\\s``, in time linear in the line; ``re.sub("^\\s+", ...)`` tries every position of a long line)."""
    return text.lstrip()


def _graph_or_alignment(line: str) -> bool:
    first = line[:1]
    if first == "(":
        return True
    if first != "s":  # a variable starts with s
        return first == ":" and ATTRIBUTE.match(line) is not None
    found = variable(line)
    return found is not None and line[len(found):len(found) + 1] == ":"


def _normalization(state: State, line: str) -> None:
    normal = unicodedata.normalize("NFC", line)
    if normal == line:
        return
    for k, (mine, theirs) in enumerate(zip(line, normal)):
        if mine != theirs:
            state.report(1, "Unicode", "unicode-normalization",
                         f"not in Unicode normal form C: character {k} is {unicodedata.name(mine, '?')}, NFC "
                         f"has {unicodedata.name(theirs, '?')}")
            return
    state.report(1, "Unicode", "unicode-normalization", "not in Unicode normal form C")


def sentences(stream: TextIO, state: State) -> Iterator[List[Block]]:
    """The sentences of a file that pass level 1 (each a list of blocks with their first line, comment
    lines and other lines), level-1 problems reported on the way."""
    blocks: List[Block] = []
    first = None
    comments: List[str] = []
    lines: List[str] = []
    corrupt = False
    inline, trailing = state.checks.inline_comments, state.checks.trailing_whitespace
    ilg, ilg_old, attribute = ILG.match, ILG_OLD.match, ATTRIBUTE.match
    for number, raw in enumerate(stream, 1):
        state.line = number
        if not state.sentence_line:
            state.sentence_line = number
        if not first:
            first = number
        line = raw[:-1] if raw[-1:] == "\n" else raw
        if inline:
            line = INLINE_COMMENT.sub(r"\1", line).rstrip()
        if line[-1:].isspace():  # not re's "\s+$", which is quadratic in a long run of inner white space
            if trailing:
                state.report(1, "Format", "trailing-whitespace", "trailing whitespace")
            line = line.rstrip()
        if not line.isascii():  # ASCII is in every normal form
            _normalization(state, line)
        line = line.lstrip()  # as stripped() strips
        start = line[:1]
        if start == "(" or start == ":" and attribute(line) is not None:  # a graph line: the most common
            lines.append(line)
        elif not line:
            if comments or lines:
                blocks.append({"line0": first, "comments": comments, "lines": lines})
                first, comments, lines = None, [], []
                if len(blocks) > 4:
                    state.report(1, "Format", "too-many-blocks",
                                 "more than four blocks in a sentence (two empty lines end a sentence)")
                    corrupt = True
            elif blocks:
                if len(blocks) < 4:
                    state.report(1, "Format", "too-few-blocks", "fewer than four blocks in the sentence "
                                 "(sentence information, graph, alignment, document-level annotation)")
                    corrupt = True
                if not corrupt:
                    yield blocks
                blocks, first, comments, lines, corrupt = [], None, [], [], False
            else:
                state.report(1, "Format", "extra-empty-line",
                             "an empty line too many (one ends a block, two end a sentence)")
        elif start == "#":
            found = SENTENCE_ID.match(line)
            if found:
                state.sentence_id = found.group(1)
            if not lines:
                comments.append(line)
            else:
                state.report(1, "Format", "misplaced-comment", "a comment line inside a block")
                corrupt = True
        elif start == "s" and _graph_or_alignment(line) or ilg(line) or ilg_old(line):
            lines.append(line)
        else:
            state.report(1, "Format", "invalid-line",
                         f"a line of no kind (comment, graph, alignment, interlinear gloss): '{line[:40]}'")
            corrupt = True
    if blocks:
        state.report(1, "Format", "missing-empty-line", "no empty line after the last sentence")
        if len(blocks) < 4:
            state.report(1, "Format", "too-few-blocks", "fewer than four blocks in the sentence")
            corrupt = True
        if not corrupt:
            yield blocks
