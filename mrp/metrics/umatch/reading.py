"""Reading a UMR file the way the shared task's comparator (``compare_umr.pl``) reads it.

Its rules, which this module reproduces (each is a compat quirk listed in docs/guide/umr.md):

- a sentence is a run of blocks; blocks are separated by one blank line, sentences by two or more
  (:mod:`mrp.metrics.umatch.segments`);
  the blocks are, in order, sentence information (the first ``Words:`` line gives the tokens), the
  sentence graph, the alignment and the document-level annotation, whatever their headers say;
- in each block a ``#`` starts a comment wherever it stands (so ``#Forn`` as a concept, or a ``#``
  inside a quoted string, cuts the line);
- the graph is read token by token: ``(VAR /`` opens a node whose concept is the next run of
  characters other than spaces and brackets; ``:name`` sets the pending relation; a quoted string or
  any other run of characters is its value; ``)`` closes a node; a line that is left as ``0`` ends
  (the comparator's ``while($line)`` treats "0" as empty);
- an alignment line is ``VAR: I-J[, I-J ...]``; ``0-0`` leaves the node unaligned;
- the document-level block's relations are ``(A :rel B)`` triples inside ``:temporal``/``:modal``/
  ``:coref`` lists; a set of triples (duplicates count once);
- a problem that the comparator treats as fatal stops the reading of that sentence: what was read
  before it stays (graph nodes, alignments, relations), the rest of the sentence is left out, and the
  sentence is compared as it stands (its comment says such sentences are removed from every file; the
  code keeps them);
- a missing closing bracket is a warning only.
"""

from __future__ import annotations

import re
from typing import Container, Iterable, List, Optional, Set, Tuple

from mrp.metrics.umatch import segments
from mrp.metrics.umatch.model import Node, Sentence, UmrFile

_VAR = r"[^\W_]+"
_NODE = re.compile(r"\(\s*(" + _VAR + r")\s*/\s*")
_CONCEPT = re.compile(r"[^\s()]+")
_ROLE = re.compile(r"(:(?:[^\W_]|-)+)\s*")
_QUOTED = re.compile(r'"(.*?)"')
_BARE = re.compile(r"[^\s)]+")
_SPACE = re.compile(r"\s+")
_ALIGNMENT = re.compile(r"(" + _VAR + r"):\s*([0-9]+-[0-9]+(?:\s*,\s*[0-9]+-[0-9]+)*)$")
_INTERVAL = re.compile(r"([0-9]+)-([0-9]+)$")
_INTERVALS = re.compile(r"([0-9]+)-([0-9]+)")
_DOC_OPEN = re.compile(r"\(\s*(" + _VAR + r")\s*/\s*sentence\s*")
_DOC_TRIPLE = re.compile(r"\(\s*((?:[^\W_]|-)+)\s*(:(?:[^\W_]|-)+)\s*((?:[^\W_]|-)+)\s*\)")
_DOC_BRACKET = re.compile(r"\(\s*")
_WORDS = re.compile(r"Words:\s*(.+)$")
_OP = re.compile(r":op[0-9]+$")
_SNT = re.compile(r"\s*#\s*::\s*snt([0-9]+)")
_UNALIGNED = re.compile(r"-1\s*-\s*-1$")


class Failure(Exception):
    """A problem the comparator treats as fatal for the sentence."""


class _Reader:
    """Where problems go: fatal for the sentence (the comparator), or repaired and counted (careful)."""

    def __init__(self, umr: UmrFile, sentence: Sentence, careful: bool) -> None:
        self.umr, self.sentence, self.careful = umr, sentence, careful

    def problem(self, message: str, line: int) -> None:
        """Raise Failure, or (careful) record the repair."""
        if not self.careful:
            raise Failure(f"{message} at {_where(self.umr, line)}")
        self.sentence.repairs.append(f"{self.umr.path}:{line}: {message}")


def _lines(text: str) -> List[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def read(path: str, label: str, top: bool = False, careful: bool = False) -> UmrFile:
    """The file at ``path`` as the comparator reads it (``top``: add its ``:TOP`` attribute; ``careful``:
    read what a careful reader can instead of stopping at the comparator's fatal problems)."""
    with open(path, "rb") as stream:
        text = stream.read().decode("utf-8", errors="replace")
    return read_text(text, label, path, top, careful)


def read_text(text: str, label: str, path: str = "<string>", top: bool = False,
              careful: bool = False) -> UmrFile:
    """A file's text as the comparator reads it (see :func:`read`)."""
    umr = UmrFile(label, path)
    groups = segments.sentences(enumerate(_lines(text), 1))
    for position, group in enumerate(groups, 1):
        sentence = Sentence(position, group[0][0], group[-1][1])
        umr.sentences.append(sentence)
        _read_sentence(sentence, group, umr, top, careful)
    _documents(umr)
    return umr


def _documents(umr: UmrFile) -> None:
    """Documents: a new one starts at ``# :: snt1``; each sentence sees its document's variables."""
    document = 0
    scopes: List[dict] = [{}]  # type: ignore[type-arg]
    for k, sentence in enumerate(umr.sentences):
        if k and sentence.sid == "1":
            document += 1
            scopes.append({})
        sentence.document = document
        sentence.scope = scopes[document]
        scopes[document].update(sentence.nodes)


def _where(umr: UmrFile, line: int) -> str:
    return f"line {line} of file {umr.label}"


def _read_sentence(sentence: Sentence, group: List[segments.Block], umr: UmrFile, top: bool,
                   careful: bool) -> None:
    block = [(first, lines) for first, _, lines in group]
    for line in block[0][1]:
        number = _SNT.match(line)
        if number and sentence.sid is None:
            sentence.sid = number.group(1)
    for line in block[0][1]:
        found = _WORDS.match(line)
        if found:
            sentence.tokens = _SPACE.split(found.group(1))
            break
    if not sentence.tokens:
        umr.messages.append(f"{umr.path}:{block[0][0]}: no tokens in sentence {sentence.number}")
    if len(block) > 1:
        sentence.graph_lines = block[1][1]
    reader = _Reader(umr, sentence, careful)
    try:
        if len(block) > 1:
            _graph(sentence, block[1][0], block[1][1], reader, top)
        if len(block) > 2:
            _alignment(sentence, block[2][0], block[2][1], reader)
        if len(block) > 3:
            _docrels(sentence, block[3][0], block[3][1], reader)
    except Failure as failure:
        sentence.failure = str(failure)
        umr.messages.append(f"{umr.path}: sentence {sentence.number}: {failure}")


def _cleaned(line: str, careful: bool = False) -> str:
    if careful:  # a comment starts a line, or follows a complete element (see _graph)
        line = line.strip()
        return "" if line.startswith("#") else line
    return line.split("#", 1)[0].strip()


def _graph(sentence: Sentence, first: int, lines: List[str], reader: _Reader, top: bool) -> None:
    umr, careful, problem = reader.umr, reader.careful, reader.problem
    nodes = sentence.nodes
    stack: List[Node] = []
    relation: Optional[str] = "START"
    number = first - 1
    for line in lines:
        number += 1
        rest = _cleaned(line, careful)
        while rest and (careful or rest != "0"):
            found = _NODE.match(rest)
            if found:
                variable = found.group(1)
                rest = rest[found.end():]
                if sentence.top is None:
                    sentence.top = variable
                concept = (_CONCEPT.match if careful else _CONCEPT.search)(rest)
                if concept is None:
                    problem(f"a node {variable} without a concept", number)
                    text = ""
                else:
                    text = concept.group(0)
                    rest = rest[:concept.start()] + rest[concept.end():]
                if relation is None:
                    problem(f"node {variable} without a relation (kept apart)", number)
                elif relation != "START":
                    if stack:
                        stack[-1].relations.append((relation, variable))
                    else:
                        problem(f"node {variable} after the graph closed (kept apart)", number)
                nodes[variable] = Node(variable, text, line=number)
                stack.append(nodes[variable])
                relation = None
                continue
            found = _ROLE.match(rest)
            if found:
                if careful and relation not in (None, "START"):
                    problem(f"relation {relation} without a value (left out)", number)
                relation = found.group(1)
                rest = rest[found.end():]
                continue
            if careful and rest[0] == "#" and relation in (None, "START"):
                rest = ""  # a comment after a complete element
                continue
            found = _QUOTED.match(rest) or _BARE.match(rest)
            if found:
                value = found.group(1) if found.re is _QUOTED else found.group(0)
                rest = rest[found.end():]
                if not stack:
                    problem(f"value {value} after the graph closed (left out)", number)
                elif relation is None or relation == "START":
                    problem(f"value {value} without a relation (left out)", number)
                else:
                    stack[-1].relations.append((relation, value))
                relation = None if relation != "START" else relation
                continue
            if rest[0] == ")":
                rest = rest[1:]
                if relation is not None and relation != "START":
                    problem(f"relation {relation} without a value (left out)", number)
                    relation = None
                if not stack:
                    problem("an extra closing bracket (left out)", number)
                else:
                    stack.pop()
                continue
            space = _SPACE.match(rest)
            if space is None:
                raise Failure(f"cannot read the graph at {_where(umr, number)}")
            rest = rest[space.end():]
    if stack:
        message = f"missing closing bracket: {len(stack)} node(s) not closed"
        umr.messages.append(f"{umr.path}:{number}: {message}")
        if careful:
            sentence.repairs.append(f"{umr.path}:{number}: {message} (closed)")
    if top and sentence.top is not None and sentence.top in nodes:
        nodes[sentence.top].relations.append((":TOP", "TOP"))
    for node in nodes.values():
        econcept = node.concept
        if econcept == "name":
            ops = sorted((r for r in node.relations if _OP.match(r[0])), key=lambda r: r[0].lower())
            econcept += "[" + " ".join(value for _, value in ops) + "]"
        node.econcept = econcept
    for variable, node in sorted(nodes.items()):
        umr.nodes[variable] = node


def alignment_line(text: str, variables: Container[str]) -> Tuple[Optional[str], Set[int], List[str]]:
    """compare_umr.pl's reading of one alignment line (comment cut, spaces stripped), the one rule of which
    lines it reads: ``VAR: I-J[, I-J ...]``, ``VAR`` a variable of the sentence, each interval ``1 <= I <=
    J`` unless the whole line is ``0-0``.  Returns the variable (None: the line cannot be read), the token
    positions it aligns (from 0; none for ``0-0``) and the problems (each fatal for the sentence to
    compare_umr.pl, which stops reading it at the first)."""
    found = _ALIGNMENT.match(text)
    if not found:
        return None, set(), ["cannot read the alignment (left out)"]
    variable, spans = found.group(1), found.group(2)
    if variable not in variables:
        return variable, set(), [f"variable {variable} not known in the sentence (alignment left out)"]
    positions: Set[int] = set()
    problems: List[str] = []
    if spans == "0-0":
        return variable, positions, problems
    for span in re.split(r"\s*,\s*", spans):
        interval = _INTERVAL.match(span)
        assert interval is not None
        x, y = int(interval.group(1)), int(interval.group(2))
        if x == 0 or y == 0 or x > y:
            problems.append(f"bad alignment interval {span} (left out)")
            continue
        positions.update(range(x - 1, y))
    return variable, positions, problems


def unread_alignment(lines: Iterable[Tuple[int, str]], variables: Container[str]
                     ) -> Optional[Tuple[int, str]]:
    """(line number, problem) of the first of an alignment block's lines as written (number, text) that
    compare_umr.pl cannot read (:func:`alignment_line`): its reading of the sentence stops there, the
    alignments before kept, the later ones and the document-level relations left out; None: all read."""
    for number, line in lines:
        rest = _cleaned(line)
        if rest and not _readable(rest, variables):
            problems = alignment_line(rest, variables)[2]
            if problems:
                return number, problems[0]
    return None


def _readable(text: str, variables: Container[str]) -> bool:
    """Whether :func:`alignment_line` reads the line without a problem, without making its positions: it
    has the form, a known variable and intervals ``1 <= I <= J`` (or is ``0-0``)."""
    found = _ALIGNMENT.match(text)
    if found is None or found.group(1) not in variables:
        return False
    spans = found.group(2)
    if spans == "0-0":
        return True
    if "," not in spans:  # one interval (the form holds no space then)
        x, y = spans.split("-")
        return 0 < int(x) <= int(y)
    return all(0 < int(x) <= int(y) for x, y in _INTERVALS.findall(spans))


def _alignment(sentence: Sentence, first: int, lines: List[str], reader: _Reader) -> None:
    number = first - 1
    for line in lines:
        number += 1
        rest = _cleaned(line)
        if not rest:
            continue
        if reader.careful:
            loose = re.match(r"(" + _VAR + r"):\s*(.*)$", rest)
            if loose and _UNALIGNED.match(loose.group(2)) and loose.group(1) in sentence.nodes:
                sentence.nodes[loose.group(1)].alignment = None
                continue
        variable, positions, problems = alignment_line(rest, sentence.nodes)
        for problem in problems:
            reader.problem(problem, number)
        if variable is None or variable not in sentence.nodes:
            continue
        node = sentence.nodes[variable]
        if not positions:
            if not problems:  # 0-0
                node.alignment = None
            continue
        node.alignment = tuple(sorted(positions))
        tokens = sentence.tokens
        node.aligned_text = " ".join(tokens[k] for k in node.alignment if k < len(tokens))


def _docrels(sentence: Sentence, first: int, lines: List[str], reader: _Reader) -> None:
    umr, problem, careful = reader.umr, reader.problem, reader.careful
    inside = False
    current: Optional[str] = None
    after_set = False
    number = first - 1
    for line in lines:
        number += 1
        rest = _cleaned(line)
        while rest and (careful or rest != "0"):
            found = _DOC_OPEN.match(rest)
            if found:
                rest = rest[found.end():]
                inside = True
                continue
            found = _ROLE.match(rest)
            if found:
                rest = rest[found.end():]
                current = found.group(1)
                if not inside:
                    problem("expected the document-level graph", number)
                if after_set:
                    problem(f"expected a bracket after {current}", number)
                after_set = True
                continue
            found = _DOC_TRIPLE.match(rest)
            if found:
                rest = rest[found.end():]
                if not inside:
                    problem("expected the document-level graph", number)
                if after_set:
                    problem(f"expected a bracket after {current}", number)
                    after_set = False
                if current is None:
                    problem("a relation outside a relation list", number)
                triple = f"{found.group(1)} {found.group(2)} {found.group(3)}"
                sentence.docrels[triple] = sentence.docrels.get(triple, 0) + 1
                continue
            found = _DOC_BRACKET.match(rest)
            if found:
                rest = rest[found.end():]
                if not inside:
                    problem("expected the document-level graph", number)
                if not after_set:
                    problem("an unexpected bracket", number)
                after_set = False
                continue
            if rest[0] == ")":
                rest = rest[1:]
                if not inside:
                    problem("expected the document-level graph", number)
                if after_set:
                    problem(f"expected a bracket after {current}", number)
                    after_set = False
                if current is not None:
                    current = None
                else:
                    inside = False
                continue
            space = _SPACE.match(rest)
            if space is not None:
                rest = rest[space.end():]
                continue
            problem("cannot read the document-level annotation (rest of the line left out)", number)
            rest = ""
    if inside:
        umr.messages.append(f"{umr.path}:{number}: missing closing bracket: document-level graph not closed")
