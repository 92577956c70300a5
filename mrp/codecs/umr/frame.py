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
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, Iterator, List, Optional, Tuple, Union

from mrp.errors import FormatError
from mrp.io.source import Line

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
    document) -> (line of its header, its lines); ``repeated``: sections given
    twice (the first is kept); ``unread``: lines that could not be decoded; ``outline``: the block's empty
    lines (``""``) and section headers (the section's name) by line number, in order.
    """

    line: int
    number: Optional[int] = None
    number_line: Optional[int] = None
    text: Optional[str] = None
    words: Optional[List[str]] = None
    info: List[str] = field(default_factory=list)
    sections: Dict[str, Tuple[int, List[Line]]] = field(default_factory=dict)
    repeated: List[Tuple[str, int]] = field(default_factory=list)
    unread: List[FormatError] = field(default_factory=list)
    outline: List[Tuple[int, str]] = field(default_factory=list)

    def tokens(self) -> List[str]:
        """The words of the sentence: the ``Words:`` line, else the text of ``# :: sntN``."""
        if self.words is not None:
            return self.words
        return (self.text or "").split()

    def empty(self) -> bool:
        """True for a block that holds no sentence (a file header, a stray rule)."""
        return self.number is None and not self.sections and not self.unread


def blocks(lines: Iterable[Union[Line, FormatError]]) -> Iterator[Block]:
    """The sentence blocks of a file, in order (blocks that hold no sentence are left out)."""
    block: Optional[Block] = None
    section: Optional[List[Line]] = None
    for line in lines:
        if isinstance(line, FormatError):
            if block is None:
                block = Block(line.line or 0)
            block.unread.append(line)
            continue
        text = line.text
        if _RULE.match(text):
            if block is not None and not block.empty():
                yield block
            block, section = Block(line.number), None
            continue
        snt = _SNT.match(text)
        comment = text.lstrip().startswith("#")
        header = _SECTION.match(text)
        if block is None or (snt and (block.number is not None or block.sections)) or (
                comment and not snt and not header and block.sections):
            if block is not None and not block.empty():
                yield block
            block, section = Block(line.number), None
        if not text.strip():
            block.outline.append((line.number, ""))
        if header:
            name = SECTIONS[" ".join(header.group(1).lower().split())]
            block.outline.append((line.number, name))
            if name in block.sections:
                block.repeated.append((name, line.number))
                section = []
            else:
                section = []
                block.sections[name] = (line.number, section)
        elif section is not None:
            section.append(line)
        elif snt:
            block.number, block.number_line = int(snt.group(1)), line.number
            block.text = snt.group(2).strip() or None
        elif _WORDS.match(text):
            block.words = _WORDS.match(text).group(1).split()  # type: ignore[union-attr]
        elif text.strip() and not _INDEX.match(text):
            block.info.append(text.rstrip())
    if block is not None and not block.empty():
        yield block
