"""What the level checks share: the problems found, the current line and sentence, and the file's nodes."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple


#: a node variable: ``s``, the sentence number, lowercase letters, an optional number (``s12p3``)
def whole(digits: str) -> int:
    """A run of digits as a number; one longer than 18 digits (beyond any index or count of a file, and
    beyond what ``int()`` converts by default at 4,300) as 10**18."""
    return int(digits) if len(digits) <= 18 else 10 ** 18


#: a variable of ASCII letters at the start of a text: :func:`variable` ends where it does unless a character
#: beyond ASCII follows (a lowercase letter of another script may continue its letters)
ASCII_VARIABLE = re.compile(r"s[0-9]+[a-z]+[0-9]*")


def variable(text: str) -> Optional[str]:
    """The variable at the start of ``text``, or None."""
    if not text.startswith("s"):
        return None
    found = ASCII_VARIABLE.match(text)
    if found is not None and (found.end() == len(text) or text[found.end()].isascii()):
        return found.group()
    k = 1
    while k < len(text) and "0" <= text[k] <= "9":
        k += 1
    if k == 1:
        return None
    start = k
    while k < len(text) and unicodedata.category(text[k]) == "Ll":
        k += 1
    if k == start:
        return None
    while k < len(text) and "0" <= text[k] <= "9":
        k += 1
    return text[:k]


def punctuation(text: str) -> bool:
    """Whether every character is punctuation (Unicode category P*)."""
    return bool(text) and all(unicodedata.category(ch).startswith("P") for ch in text)


SENTENCE_ID = re.compile(r"#\s*::\s*(snt[0-9]+)(?:\s|$)")


@dataclass
class LevelProblem:
    """One problem: where, which check (validate.py's level, class and test id), and what."""

    file: str
    line: int
    sentence: Optional[str]
    level: int
    kind: str
    test: str
    message: str

    @property
    def error(self) -> bool:
        """Errors fail the file; the Warning class does not."""
        return self.kind != "Warning"

    def __str__(self) -> str:
        where = f" {self.sentence}:" if self.sentence else ""
        return f"{self.file}:{self.line}:{where} [L{self.level} {self.kind} {self.test}] {self.message}"


@dataclass(frozen=True)
class Checks:
    """Which of validate.py's relaxable checks are made: each field is one of its ``Strictness`` options,
    with validate.py's default (``--allow-inline-comments`` sets ``inline_comments``; every other option
    turns its check off, but ``--warn-overlapping-alignment``, which turns ``overlapping_alignment`` on)."""

    #: ``--allow-inline-comments``: everything from a ``#`` after the first character of a line is ignored
    inline_comments: bool = False
    #: ``--allow-trailing-whitespace``
    trailing_whitespace: bool = True
    #: ``--allow-wide-space``: tokens split at any run of white space, no ``empty-token``
    wide_space: bool = True
    #: ``--no-check-ilg``: the interlinear glosses' item counts and index
    ilg: bool = True
    #: ``--allow-forward-references``: a reference to a node defined later in the sentence
    forward_references: bool = True
    #: ``--allow--1``: alignment ``-1--1`` (UMR 1.0's unaligned)
    nonnegative_alignment: bool = True
    #: ``--optional-block-headers``: the blocks' heading comments
    block_headers: bool = True
    #: ``--optional-alignments``: every node has an alignment line
    complete_alignment: bool = True
    #: ``--warn-overlapping-alignment``: a token aligned to two nodes (a warning)
    overlapping_alignment: bool = False
    #: ``--no-warn-unaligned-token``: a token aligned to no node (a warning)
    unaligned_token: bool = True
    #: ``--no-check-wiki``: ``:wiki`` values and coreferent nodes' ``:wiki``
    wiki: bool = True
    #: ``--optional-aspect-modstr``: events' ``:aspect`` (and the other event checks)
    aspect_modstr: bool = True
    #: ``--allow-duplicate-roles``: repeated relations (attributes are still checked)
    duplicate_roles: bool = True
    #: ``--allow-cycles``
    cycles: bool = True
    #: ``--allow-coref-entity-event-mismatch``
    coref_entity_event_mismatch: bool = True
    #: ``--optional-document-level``: events' temporal relations; sentence-level ``:modal-strength``
    document_level: bool = True


@dataclass
class State:
    """The running check of one file."""

    file: str
    level: int
    problems: List[LevelProblem] = field(default_factory=list)
    #: the line being read, the first line of the current sentence, the last sentence id seen
    line: int = 0
    sentence_line: Optional[int] = None
    sentence_id: Optional[str] = None
    #: every node (and document-level node) of the file: variable -> its facts
    nodes: Dict[str, Dict[str, Any]] = field(default_factory=dict)
    known_ids: Set[str] = field(default_factory=set)
    #: which relaxable checks are made
    checks: Checks = field(default_factory=Checks)
    #: the sentences that passed level 1, once the file is checked (for reports)
    sentences: List[Any] = field(default_factory=list)
    #: the node references of the sentence graph being read: (variable, line)
    references: List[Tuple[str, int]] = field(default_factory=list)
    #: validate.py's ``--print-relations`` report, made sentence by sentence when asked for (a list)
    relations: Optional[List[str]] = None
    #: the coreference clusters (:class:`~mrp.validation.umr.clusters.Clusters`) and the temporal graph
    #: (:class:`~mrp.validation.umr.temporal.Temporal`), once a file is checked at level 3
    clusters: Any = None
    temporal: Any = None

    def report(self, level: int, kind: str, test: str, message: str, line: Optional[int] = None) -> None:
        """A problem at ``line`` (None: the line being read; -1: the sentence's first line)."""
        if line is None or line == 0:
            at = self.line
        elif line < 0:
            at = self.sentence_line or 0
        else:
            at = line
        self.problems.append(LevelProblem(self.file, at, self.sentence_id, level, kind, test, message))
