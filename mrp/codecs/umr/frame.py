"""Cutting a UMR file into sentence blocks and each block into its sections.

Two layouts are read, and mixtures of them:

- the release layout: a block starts at a line of ``#`` signs (the release
  uses 80); then meta-info (``# meta-info :: sent_id = ...``), ``# :: sntN``
  and sentence information (``Index:``, ``Words:``, morphemes, glosses,
  translations), then the sections;
- the scorer's (AnCast's) layout: a block starts at ``# :: sntN TEXT`` and
  sections are separated by blank lines.

A block also starts at a ``# :: sntN`` line when the current block already has
one, and at any other comment line once the current block's sections have
begun (meta-info of the next sentence without a rule line).  The sections are
``# sentence level graph:``, ``# alignment:`` and ``# document level
annotation:`` (case and spacing are free); each runs to the next section header
or the end of the block.

A file is cut in one pass over its lines (decoded a large chunk at a time when read from a
:class:`~mrp.io.source.Source`): only comment lines are matched against the patterns, and a section keeps
where its lines start and end among the file's lines rather than a copy of each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union, cast

from mrp.errors import FormatError
from mrp.io.source import Line, Source

_RULE = re.compile(r"\s*#{3,}\s*$")
_SNT = re.compile(r"\s*#\s*::\s*snt(\d+)\b[ \t]*(.*)$")
_SECTION = re.compile(r"\s*#\s*(sentence\s+level\s+graph|alignment|document\s+level\s+annotation)\s*:?\s*$",
                      re.IGNORECASE)
_WORDS = re.compile(r"\s*words\s*:(.*)$", re.IGNORECASE)
_INDEX = re.compile(r"\s*index\s*:", re.IGNORECASE)

def structural(text: str) -> bool:
    """Whether a line is read as part of a block's frame (a rule, ``# :: sntN``, a section header, ``Index:``
    or ``Words:``) rather than as a sentence-information line."""
    return any(pattern.match(text) for pattern in (_RULE, _SNT, _SECTION, _WORDS, _INDEX))


#: section header (lower case, single spaces) -> section name
SECTIONS = {"sentence level graph": "graph", "alignment": "alignment",
            "document level annotation": "document"}


@dataclass
class Block:
    """The lines of one sentence: its header, sentence information and sections.

    ``number``: N of ``# :: sntN`` (None when the block has none); ``text``:
    the text after it (the scorer's layout); ``words``: the tokens of the
    ``Words:`` line (None when there is none); ``info``: the other lines
    before the first section, verbatim; ``sections``: name (graph, alignment,
    document) -> (line of its header, where its lines start and end among the file's lines: read them with
    :meth:`lines`, :meth:`texts` or :meth:`numbered`); ``repeated``: sections given
    twice (the first is kept); ``unread``: lines that could not be decoded; ``outline``: the block's empty
    lines (``""``) and section headers (the section's name) by line number, in order.
    """

    line: int
    number: Optional[int] = None
    number_line: Optional[int] = None
    text: Optional[str] = None
    words: Optional[List[str]] = None
    info: List[str] = field(default_factory=list)
    sections: Dict[str, Tuple[int, int, int]] = field(default_factory=dict)
    repeated: List[Tuple[str, int]] = field(default_factory=list)
    unread: List[FormatError] = field(default_factory=list)
    outline: List[Tuple[int, str]] = field(default_factory=list)
    #: the file's line numbers and lines (texts, or the FormatErrors of lines that could not be decoded),
    #: which the sections index
    file_numbers: Sequence[int] = field(default=(), repr=False, compare=False)
    file_lines: Sequence[Union[str, FormatError]] = field(default=(), repr=False, compare=False)

    def tokens(self) -> List[str]:
        """The words of the sentence: the ``Words:`` line, else the text of ``# :: sntN``."""
        if self.words is not None:
            return self.words
        return (self.text or "").split()

    def empty(self) -> bool:
        """True for a block that holds no sentence (a file header, a stray rule)."""
        return self.number is None and not self.sections and not self.unread

    def numbered(self, name: str) -> List[Tuple[int, str]]:
        """A section's lines as (file line number, text), in order (none for a section the block lacks).

        Args:
            name: the section (graph, alignment, document).

        Returns:
            The lines.
        """
        if name not in self.sections:
            return []
        _, start, end = self.sections[name]
        numbers, lines = self.file_numbers[start:end], self.file_lines[start:end]
        if self.unread:  # an undecodable line is among the block's unread lines, not its section's
            return [(number, text) for number, text in zip(numbers, lines) if isinstance(text, str)]
        return cast("List[Tuple[int, str]]", list(zip(numbers, lines)))

    def texts(self, name: str) -> List[str]:
        """A section's lines' texts, in order (see :meth:`numbered`)."""
        return [text for _, text in self.numbered(name)]

    def lines(self, name: str) -> List[Line]:
        """A section's lines, in order (see :meth:`numbered`)."""
        return [Line(number, text) for number, text in self.numbered(name)]


def _lines(lines: Iterable[Union[Line, FormatError]]
           ) -> Tuple[Sequence[int], Sequence[Union[str, FormatError]]]:
    """The numbers and the texts (or FormatErrors) of lines; a :class:`~mrp.io.source.Source`'s decoded a
    large chunk at a time."""
    if isinstance(lines, Source):
        texts = lines.texts()
        return range(1, len(texts) + 1), texts
    numbers: List[int] = []
    items: List[Union[str, FormatError]] = []
    for line in lines:
        if isinstance(line, FormatError):
            numbers.append(line.line or 0)
            items.append(line)
        else:
            numbers.append(line.number)
            items.append(line.text)
    return numbers, items


def blocks(lines: Iterable[Union[Line, FormatError]]) -> Iterator[Block]:
    """The sentence blocks of a file, in order (blocks that hold no sentence are left out)."""
    numbers, texts = _lines(lines)
    block: Optional[Block] = None
    #: the section whose lines follow: its name (None: none; "": a repeated one, whose lines are left out)
    section: Optional[str] = None
    for k, text in enumerate(texts):
        if not isinstance(text, str):
            if block is None:
                block = Block(text.line or 0, file_numbers=numbers, file_lines=texts)
            block.unread.append(text)
            continue
        bare = text.lstrip()
        if section is not None and bare and bare[0] != "#":
            continue  # a section's line (most lines: read from the section's range)
        if bare[:1] == "#":  # a comment: a rule, a sentence number, a section header or information
            if _RULE.match(text):
                if block is not None:
                    _close(block, section, k)
                    if not block.empty():
                        yield block
                block, section = Block(numbers[k], file_numbers=numbers, file_lines=texts), None
                continue
            snt = _SNT.match(text)
            header = _SECTION.match(text)
            if block is None or (snt and (block.number is not None or block.sections)) or (
                    not snt and not header and block.sections):
                if block is not None:
                    _close(block, section, k)
                    if not block.empty():
                        yield block
                block, section = Block(numbers[k], file_numbers=numbers, file_lines=texts), None
            if header:
                _close(block, section, k)
                name = SECTIONS[" ".join(header.group(1).lower().split())]
                block.outline.append((numbers[k], name))
                if name in block.sections:
                    block.repeated.append((name, numbers[k]))
                    section = ""
                else:
                    section = name
                    block.sections[name] = (numbers[k], k + 1, k + 1)
            elif snt:  # no section is open here: a comment after a section starts a new block
                block.number, block.number_line = int(snt.group(1)), numbers[k]
                block.text = snt.group(2).strip() or None
            elif not _INDEX.match(text):
                block.info.append(text.rstrip())
            continue
        if block is None:
            block = Block(numbers[k], file_numbers=numbers, file_lines=texts)
        if not bare:
            block.outline.append((numbers[k], ""))
        if section is not None or not bare:
            continue  # a section's line (read from its range), or an empty line
        words = _WORDS.match(text)
        if words:
            block.words = words.group(1).split()
        elif not _INDEX.match(text):
            block.info.append(text.rstrip())
    if block is not None:
        _close(block, section, len(texts))
        if not block.empty():
            yield block


def _close(block: Block, section: Optional[str], end: int) -> None:
    """The section open in a block (its name; None or "" for none kept) ends before line index ``end``."""
    if section:
        header, start, _ = block.sections[section]
        block.sections[section] = (header, start, end)
