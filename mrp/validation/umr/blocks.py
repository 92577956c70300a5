"""Level 1: the technical backbone of a UMR file, and its sentences of four blocks.

A block is a run of non-empty lines (its leading comment lines apart); one empty line ends a block, a
second ends the sentence.  Every line must be a comment, a graph line (``(`` or ``:``), an alignment line
(``VAR:``) or an interlinear-gloss line (``Words:``, ``Index:``, ...).  A sentence with the wrong number
of blocks, a comment inside a block or a line of no kind is reported and left out of the higher levels.

A file read whole (:func:`pieces`) hands its runs of plain graph and alignment lines over at once, each run
found by one regular expression: such a line is kept as it is and reports nothing (see :data:`PLAIN_RUN`).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Dict, Iterable, Iterator, List, TextIO, Union

from mrp.validation.umr.state import ASCII_VARIABLE, SENTENCE_ID, State, variable

Block = Dict[str, Any]

ILG = re.compile(r"(Index|Words|Word Gloss \([a-z]{2,3}\)|Part of Speech|Morphemes|"
                 r"Morpheme Gloss \([a-z]{2,3}\)|Morpheme Category|Sentence|"
                 r"Sentence Gloss \([a-z]{2,3}\)):\s*(.+)")
ILG_OLD = re.compile(r"(Words|tx|Morphemes|mb|Morpheme Gloss\((?:English|Spanish)\)|ge|Morpheme Cat|ps|"
                     r"Word Gloss|(?:English|Spanish) Sent Gloss:|tr)\s+(.+)")
#: the start of a graph line that is a role (a colon, then a letter): all the check asks of one
ATTRIBUTE = re.compile(r":[A-Za-z]")
#: an inline comment (``--allow-inline-comments``): a ``#`` after the line's first character, to the end
INLINE_COMMENT = re.compile(r"(.)#.*")
#: a run of whole lines each of which :func:`sentences` keeps as a graph or alignment line and reports nothing
#: of (in a file in Unicode normal form C, without ``--allow-inline-comments``): spaces and tabs, then ``(``,
#: ``:`` and a letter (:data:`ATTRIBUTE`) or an ASCII variable and ``:`` (:func:`.state.variable`), and no
#: trailing white space (``\\S``: what ``str.isspace`` calls white space)
PLAIN_RUN = re.compile(r"(?:[ \t]*(?:\(|" + ATTRIBUTE.pattern + "|" + ASCII_VARIABLE.pattern
                       + r":)(?:[^\n]*\S)?\n)+")
#: :data:`PLAIN_RUN` after a line end (its first group): found by looking for the line end alone
_AFTER_LINE_END = re.compile("\n(" + PLAIN_RUN.pattern + ")")

#: what :func:`sentences` reads: a line as read (its line end, if any, kept), or a run of :data:`PLAIN_RUN`'s
#: lines, each without its line end and leading white space
Piece = Union[str, List[str]]


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


def pieces(stream: TextIO, inline: bool = False) -> Iterable[Piece]:
    """A file's lines as :func:`sentences` reads them: read whole and its plain runs found at once
    (:data:`PLAIN_RUN`) where the stream can be read again from where it is (a file) and it decodes; else
    line by line, as read (the file met where it cannot be decoded, as before).

    Args:
        stream: the file, read with universal newlines (every line ends at ``\\n``).
        inline: inline comments are allowed (no run is then found: a comment is cut from each line).

    Returns:
        The lines and runs, in order.
    """
    if not stream.seekable():
        return stream
    start = stream.tell()
    try:
        text = stream.read()
    except UnicodeDecodeError:
        stream.seek(start)
        return stream
    normal = text.isascii() or unicodedata.is_normalized("NFC", text)
    return _pieces(text, normal and not inline)


def _pieces(text: str, runs: bool) -> List[Piece]:
    found: List[Piece] = []
    at = 0
    # a run at the first line: the text read as if after a line end (each offset one more)
    for run in _AFTER_LINE_END.finditer("\n" + text) if runs else ():
        start, end = run.start(1) - 1, run.end(1) - 1
        if start > at:
            found.extend(text[at:start].split("\n")[:-1])
        plain = run.group(1).split("\n")
        plain.pop()
        found.append([line.lstrip() for line in plain])
        at = end
    rest = text[at:].split("\n")
    if not rest[-1]:
        rest.pop()
    found.extend(rest)
    return found


def sentences(stream: Union[TextIO, Iterable[Piece]], state: State) -> Iterator[List[Block]]:
    """The sentences of a file that pass level 1 (each a list of blocks with their first line, comment
    lines and other lines), level-1 problems reported on the way.

    Args:
        stream: the file's lines as read, or :func:`pieces` of it.
        state: the running check.

    Returns:
        The sentences.
    """
    blocks: List[Block] = []
    first = None
    comments: List[str] = []
    lines: List[str] = []
    corrupt = False
    inline, trailing = state.checks.inline_comments, state.checks.trailing_whitespace
    ilg, ilg_old, attribute = ILG.match, ILG_OLD.match, ATTRIBUTE.match
    number = 0
    for raw in stream:
        number += 1
        if isinstance(raw, list):  # a run of plain lines (pieces()): each kept
            if not state.sentence_line:
                state.sentence_line = number
            if not first:
                first = number
            lines.extend(raw)
            number += len(raw) - 1
            state.line = number
            continue
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
