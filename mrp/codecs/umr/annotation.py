"""UMR alignments and document-level annotation: parsing, inventories and checks.

An alignment line is ``VAR: I-J`` with token indices from 1, several spans
separated by commas; ``0-0`` and ``-1--1`` mark an unaligned node.

A document-level annotation is ``(sNs0 / sentence :temporal (REL ...) :modal
(REL ...) :coref (REL ...))`` where each REL is ``(SOURCE :LABEL TARGET)``.
Its ends are variables of this or an earlier sentence of the document, or one
of :data:`SPECIAL` nodes.  The labels of each list come from UMR's
document-level inventories (:data:`LABELS`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Dict, List, Optional, Tuple, Union

from mrp.graph import Relation
from mrp.io.source import Line

#: UMR's document-level relation labels, per kind (the UMR guidelines, part 4).
LABELS: Dict[str, frozenset] = {
    "temporal": frozenset({"before", "after", "overlap", "contained", "depends-on"}),
    "modal": frozenset({"modal", "full-affirmative", "partial-affirmative", "neutral-affirmative",
                        "full-negative", "partial-negative", "neutral-negative", "unspecified"}),
    "coref": frozenset({"same-entity", "same-event", "subset-of"}),
}
#: The nodes a document-level relation may name besides variables (conceivers and temporal metanodes).
SPECIAL = frozenset({"author", "root", "null-conceiver", "have-condition", "document-creation-time",
                     "present-reference", "past-reference", "future-reference"})

#: A span of token indices (from 1), as written.
Span = Tuple[int, int]

_ALIGNMENT = re.compile(r"\s*([^\s:]+)\s*:(.*)$")
_SPAN = re.compile(r"\s*(-?\d+)\s*-\s*(-?\d+)\s*$")
#: an alignment line of one span: what :data:`_ALIGNMENT` and :data:`_SPAN` read of it at once
_SIMPLE = re.compile(r"\s*([^\s:]+)\s*:\s*(-?\d+)\s*-\s*(-?\d+)\s*$")
_TOKEN = re.compile(r'\s*(?:([()/])|(:[^\s()/:"]*)|("(?:[^"\\]|\\.)*")|([^\s()/:"]+))')
#: :data:`_TOKEN`, or any other character (the fifth group): a line's tokens found at once
_TOKENS = re.compile(_TOKEN.pattern[:-1] + r'|(\S))')


def unaligned(span: Span) -> bool:
    """True for the spans that mark an unaligned node (``0-0``, ``-1--1``)."""
    return span in ((0, 0), (-1, -1))


def parse_alignment(text: str) -> Tuple[str, List[Span]]:
    """The variable and the spans of one alignment line; ValueError naming the problem."""
    simple = _SIMPLE.match(text)
    if simple is not None:  # one span of numbers (most lines), read as below
        return simple.group(1), [(int(simple.group(2)), int(simple.group(3)))]
    match = _ALIGNMENT.match(text)
    if match is None:
        raise ValueError("expected 'VARIABLE: I-J'")
    spans: List[Span] = []
    for part in match.group(2).split(","):
        span = _SPAN.match(part)
        if span is None:
            raise ValueError(f"'{part.strip()}' is not a span I-J")
        spans.append((int(span.group(1)), int(span.group(2))))
    return match.group(1), spans


#: :data:`_SIMPLE` in a text of lines, each line's match within it
_SIMPLE_LINES = re.compile("^" + _SIMPLE.pattern.replace(r"\s*", r"[^\S\n]*"), re.MULTILINE)


def parse_alignments(texts: List[str]) -> List[Union[Tuple[str, List[Span]], ValueError]]:
    """:func:`parse_alignment` of each of a section's lines (none holding a newline), or the ValueError it
    raises: read at once where every line holds one span of numbers (most sections), else line by line.

    Args:
        texts: the lines.

    Returns:
        Each line's variable and spans, or its error.
    """
    rows = _SIMPLE_LINES.findall("\n".join(texts))
    if len(rows) == len(texts):  # a match per line (none crosses a line): every line is simple
        return [(var, [(int(start), int(end))]) for var, start, end in rows]
    found: List[Union[Tuple[str, List[Span]], ValueError]] = []
    for text in texts:
        try:
            found.append(parse_alignment(text))
        except ValueError as error:
            found.append(error)
    return found


def span_problem(span: Span, length: int) -> Optional[str]:
    """Why a span cannot anchor in a sentence of ``length`` tokens, or None."""
    start, end = span
    if unaligned(span):
        return None
    if start > end:
        return f"span {start}-{end} ends before it starts"
    if start < 1 or end > length:
        return f"span {start}-{end} is outside the sentence (tokens 1-{length})"
    return None


def format_spans(spans: List[Span]) -> str:
    """Spans as an alignment line writes them (``0-0`` for none)."""
    return ", ".join(f"{start}-{end}" for start, end in spans) if spans else "0-0"


class _Tokens:
    """The tokens of a document-level annotation, each with its file line."""

    def __init__(self, lines: List[Line]) -> None:
        self.items: List[Tuple[str, str, int]] = []
        for line in lines:
            found = _TOKENS.findall(line.text)
            if not any(other for *_, other in found):  # tokens alone (else the line is read token by token)
                number = line.number
                self.items.extend((bracket or ("role" if role else "symbol"),
                                   bracket or role or string or symbol, number)
                                  for bracket, role, string, symbol, _ in found)
                continue
            text, position = line.text, 0
            while position < len(text):
                match = _TOKEN.match(text, position)
                if match is None or match.end() == position:
                    if text[position:].strip():
                        raise DocumentError(f"unexpected '{text[position:].strip()[:20]}'", line.number)
                    break
                if match.group(1):
                    kind = match.group(1)
                else:
                    kind = "role" if match.group(2) else "symbol"
                value = match.group(1) or match.group(2) or match.group(3) or match.group(4)
                self.items.append((kind, value, line.number))
                position = match.end()
        self.position = 0
        self.last = lines[-1].number if lines else 0

    def peek(self) -> Optional[str]:
        return self.items[self.position][0] if self.position < len(self.items) else None

    def take(self, kind: str, what: str) -> Tuple[str, int]:
        if self.position >= len(self.items):
            raise DocumentError(f"expected {what}, found the end of the annotation", self.last)
        found, value, number = self.items[self.position]
        if found != kind:
            raise DocumentError(f"expected {what}, found '{value[:20]}'", number)
        self.position += 1
        return value, number


class DocumentError(Exception):
    """A document-level annotation that cannot be read, with the file line of the problem."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


#: :data:`_TOKEN`'s symbol and role, each as long as it goes (no shorter one lets a pattern below match)
_SYM = r'[^\s()/:"]+(?![^\s()/:"])'
_ROLE_TOKEN = r':[^\s()/:"]*(?![^\s()/:"])'
#: a relation ``(SOURCE :LABEL TARGET)``, its parts as groups; a list of relations, its role and its
#: relations as groups; a whole annotation of symbols alone (no string), in the one way :func:`parse_document`
#: reads it, its variable, concept and lists as groups
_ONES = re.compile(rf"\s*\(\s*({_SYM})\s*({_ROLE_TOKEN})\s*({_SYM})\s*\)")
_ONE = rf"\(\s*{_SYM}\s*{_ROLE_TOKEN}\s*{_SYM}\s*\)"
_LISTS = re.compile(rf"\s*({_ROLE_TOKEN})\s*\(((?:\s*{_ONE})*)\s*\)")
_WHOLE = re.compile(rf"\s*\(\s*({_SYM})\s*/\s*({_SYM})"
                    rf"((?:\s*{_ROLE_TOKEN}\s*\((?:\s*{_ONE})*\s*\))*)\s*\)\s*")


def _read_whole(lines: List[Line]) -> Optional[Tuple[str, List[Tuple[Relation, int]]]]:
    """What :func:`parse_document` reads of an annotation of symbols alone, read by regular expressions (the
    same variable, relations and lines); None for any other (read token by token)."""
    text = "\n".join([line.text for line in lines])
    found = _WHOLE.fullmatch(text)
    if found is None or found.group(2) != "sentence":
        return None
    ends = list(accumulate(len(line.text) + 1 for line in lines))
    relations: List[Tuple[Relation, int]] = []
    body, position, offset = found.group(3), 0, found.start(3)
    while position < len(body):
        listed = _LISTS.match(body, position)
        if listed is None:
            return None
        kind, inner, start = listed.group(1)[1:], listed.group(2), offset + listed.start(2)
        at = 0
        while at < len(inner):
            one = _ONES.match(inner, at)
            if one is None:
                return None
            number = lines[bisect_right(ends, start + one.start(1))].number
            relations.append((Relation(kind, one.group(1), one.group(2)[1:], one.group(3)), number))
            at = one.end()
        position = listed.end()
    return found.group(1), relations


def parse_document(lines: List[Line]) -> Tuple[Optional[str], List[Tuple[Relation, int]]]:
    """The sentence variable and the relations (each with its file line) of an annotation: one of symbols
    alone (most) read by regular expressions (:func:`_read_whole`), any other token by token.

    No lines (an empty section) give (None, []); DocumentError for bad syntax.
    """
    whole = _read_whole(lines) if lines else None
    if whole is not None:
        return whole
    tokens = _Tokens(lines)
    if tokens.peek() is None:
        return None, []
    tokens.take("(", "'('")
    variable, _ = tokens.take("symbol", "the sentence variable")
    tokens.take("/", "'/'")
    concept, number = tokens.take("symbol", "the concept 'sentence'")
    if concept != "sentence":
        raise DocumentError(f"the document-level node is '{concept[:20]}', not 'sentence'", number)
    relations: List[Tuple[Relation, int]] = []
    while tokens.peek() == "role":
        kind, _ = tokens.take("role", "a role")
        tokens.take("(", f"'(' opening the {kind} list")
        while tokens.peek() == "(":
            tokens.take("(", "'('")
            source, number = tokens.take("symbol", "a relation's source")
            label, _ = tokens.take("role", "a relation's label")
            target, _ = tokens.take("symbol", "a relation's target")
            tokens.take(")", "')' closing the relation")
            relations.append((Relation(kind[1:], source, label[1:], target), number))
        tokens.take(")", f"')' closing the {kind} list")
    tokens.take(")", "')' closing the annotation")
    if tokens.peek() is not None:
        _, value, number = tokens.items[tokens.position]
        raise DocumentError(f"unexpected '{value[:20]}' after the end of the annotation", number)
    return variable, relations


def closed_document(lines: List[Line]) -> Optional[Tuple[Optional[str], List[Tuple[Relation, int]], int]]:
    """A document-level annotation read with up to three closing brackets added at its end (as the shared
    task's comparator reads it), and how many were added; None when that does not make it readable."""
    last = max((k for k, line in enumerate(lines) if line.text.strip()), default=None)
    if last is None:
        return None
    for added in range(1, 4):
        fixed = list(lines)
        fixed[last] = Line(lines[last].number, lines[last].text + ")" * added)
        try:
            variable, relations = parse_document(fixed)
        except DocumentError:
            continue
        return variable, relations, added
    return None


#: a symbol and a role name of an annotation, as :func:`parse_document` reads them
_SYMBOL = re.compile(r'[^\s()/:"]+')
_ROLE = re.compile(r'[^\s()/:"]*')
_S = _SYMBOL.pattern
_RECOVERED = re.compile(rf"\(\s*(?P<variable>{_S})\s*/\s*sentence\b|:(?P<kind>temporal|modal|coref)\b"
                        rf"|\(\s*(?P<source>{_S})\s*:(?P<label>{_S})\s+(?P<target>{_S})\s*\)")


def recover_document(lines: List[Line]) -> Optional[Tuple[Optional[str], List[Tuple[Relation, int]]]]:
    """An annotation that :func:`parse_document` refuses, read as the shared task's comparator reads it:
    every ``(SOURCE :LABEL TARGET)`` wherever it stands (e.g. after a list closed early), of the kind of the
    last ``:temporal``/``:modal``/``:coref`` before it; None when that finds no relation."""
    variable: Optional[str] = None
    kind: Optional[str] = None
    relations: List[Tuple[Relation, int]] = []
    for line in lines:
        text = line.text.split("#", 1)[0] if line.text.lstrip().startswith("#") else line.text
        for found in _RECOVERED.finditer(text):
            if found.group("variable") and variable is None:
                variable = found.group("variable")
            elif found.group("kind"):
                kind = found.group("kind")
            elif found.group("source") and kind is not None:
                relations.append((Relation(kind, found.group("source"), found.group("label"),
                                           found.group("target")), line.number))
    return (variable, relations) if relations else None


def label_problem(relation: Relation) -> Optional[str]:
    """Why a relation's kind or label is outside UMR's inventories, or None."""
    labels = LABELS.get(relation.kind)
    if labels is None:
        return f"':{relation.kind}' is not a document-level relation list (temporal, modal, coref)"
    if relation.label not in labels:
        return f"':{relation.label}' is not a {relation.kind} relation (known: {', '.join(sorted(labels))})"
    return None


def unwritable(variable: Optional[str], relations: List[Relation]) -> Optional[str]:
    """Why an annotation would not read back as itself (a variable, kind, label or end that is no single
    token: white space, a line break, a parenthesis, slash, colon or quote in it), or None."""
    if variable is not None and not _SYMBOL.fullmatch(variable):
        return f"the sentence variable {variable!r} is not one symbol"
    for relation in relations:
        parts = (("list", relation.kind, _ROLE), ("label", relation.label, _ROLE),
                 ("source", relation.source, _SYMBOL), ("target", relation.target, _SYMBOL))
        for what, text, pattern in parts:
            if not isinstance(text, str) or not pattern.fullmatch(text):
                return f"document-level relation {what} {text!r} is not one token"
    return None


def format_document(variable: Optional[str], relations: List[Relation]) -> str:
    """The text of a document-level annotation (empty for no variable and no relations); ValueError when it
    would not read back as itself (see :func:`unwritable`)."""
    if variable is None and not relations:
        return ""
    problem = unwritable(variable, relations)
    if problem is not None:
        raise ValueError(problem)
    parts = [f"({variable} / sentence"]
    kinds: List[str] = []
    for relation in relations:
        if relation.kind not in kinds:
            kinds.append(relation.kind)
    for kind in kinds:
        items = [f"({r.source} :{r.label} {r.target})" for r in relations if r.kind == kind]
        indent = " " * (len(kind) + 7)
        parts.append(f"    :{kind} (" + ("\n" + indent).join(items) + ")")
    return "\n".join(parts) + ")"
