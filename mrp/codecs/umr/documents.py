"""UMR (Uniform Meaning Representation) documents: reader, writer and the document API.

A UMR file holds documents; a document holds sentences; a sentence has a
Penman graph, an alignment and a document-level annotation (layouts:
:mod:`mrp.codecs.umr.frame`; alignment and annotation syntax:
:mod:`mrp.codecs.umr.annotation`).  In the graph model:

- each sentence is one :class:`~mrp.graph.Graph`, framework ``umr`` (flavor
  2), read from Penman as the AMR reader reads it (node ids ``0..n-1`` in order
  of definition, the first node the top; concepts such as ``být-011`` or
  Chinese ones kept exactly);
- ``input`` is the sentence's words (the ``Words:`` line, else the text of
  ``# :: sntN``) joined by single spaces; an alignment span ``I-J`` becomes the
  node anchor from the start of word I to the end of word J (several spans,
  several anchors); ``0-0`` and ``-1--1`` leave the node unanchored (and are
  written back as ``0-0``);
- ``Graph.variables`` maps node ids to the Penman variables of the file;
- ``Graph.document`` (:class:`~mrp.graph.Placement`) holds the document id,
  the sentence number, the sentence's document-level variable (``s3s0``), its
  relations ``(source, label, target)`` of kind temporal, modal or coref,
  and the sentence-information lines besides ``Index:``/``Words:`` (verbatim).

Ids pair a system file with a gold file sentence by sentence: the graph id is
``dK.sN``, K the document's position in the file (from 1) and N the sentence
number of ``# :: sntN``.  A new document starts at ``# :: snt1``, so that
files concatenating several documents (as the PDT-C evaluation files do) pair
document by document; a number that does not exceed the previous one is
reported (the release's ``snt1155`` between ``snt114`` and ``snt116``).

Problems are reported as ``FILE:LINE: graph ID: problem``.  A sentence whose
graph cannot be read (no graph, a Penman syntax error, a variable defined twice
in the graph, an undecodable line) is lost and yields a FormatError; the rest
of the document is read (the variables its graph defines still count as
defined, so later references to them are not reported again).  A problem of a sentence's other parts keeps the
graph: an alignment line that cannot be read, names no variable of the graph,
aligns a variable twice or holds a span outside the sentence is left out; an
annotation that cannot be read is left out; a relation whose end is neither a
variable of this or an earlier sentence nor a special node, or whose label is
not in UMR's inventories, is kept.  The registry reader warns of these
(:class:`mrp.errors.ReadWarning`, one each); :func:`read_documents` returns them, and
``mrp-validate`` reports them.

For document-level work (AnCast++-style scores), :func:`read_documents` gives
:class:`Document` objects: the sentence graphs in order, ``relations()``
(sentence number, relation) and ``resolve(name, sentence)`` (the sentence and
node a variable names); :func:`token_spans` gives a graph's alignment back as
token spans.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Dict, Iterable, Iterator, List, Optional, Tuple, Union

from mrp.codecs.base import Item, ReadOptions
from mrp.codecs.umr import annotation
from mrp.codecs.umr.frame import Block, blocks
from mrp.codecs.umr.sentence import sentence_graph
from mrp.codecs.umr.writer import format_graph, token_spans, write
from mrp.errors import FormatError, ReadWarning, excerpt
from mrp.graph import Graph, Placement, Relation
from mrp.io.source import Line, Source, display_name
from mrp.process.collector import collector_paused

__all__ = ["Document", "read_documents", "parse_documents", "document_items", "read", "write", "format_graph",
           "token_spans", "graph_id", "SPECIAL", "LABELS"]

SPECIAL = annotation.SPECIAL
LABELS = annotation.LABELS

_DEFINITION = re.compile(r'\(\s*([^\s()/:"~]+)\s*/')

def graph_id(document: int, sentence: int) -> str:
    """The id of sentence N of the K-th document of a file (both from 1): ``dK.sN``."""
    return f"d{document}.s{sentence}"


@dataclass
class Document:
    """One UMR document of a file: its sentence graphs in order and what was wrong with them.

    ``errors``: sentences whose graph could not be read (they are not in
    ``graphs``); ``problems``: problems of the sentences' other parts (the
    graphs are kept).  Both are in file order.
    """

    id: str
    graphs: List[Graph] = field(default_factory=list)
    errors: List[FormatError] = field(default_factory=list)
    problems: List[FormatError] = field(default_factory=list)

    def relations(self) -> List[Tuple[int, Relation]]:
        """Every document-level relation with the number of the sentence that holds it, in order."""
        return [(graph.document.sentence, relation) for graph in self.graphs if graph.document is not None
                for relation in graph.document.relations]

    def resolve(self, name: str, sentence: Optional[int] = None) -> Optional[Tuple[int, int]]:
        """The (sentence number, node id) a variable names, as seen from ``sentence`` (default: the end).

        The latest definition in that sentence or an earlier one wins; None for a
        special node or a name no such sentence defines.
        """
        found = None
        for graph in self.graphs:
            if graph.document is None or (sentence is not None and graph.document.sentence > sentence):
                continue
            for nid, var in (graph.variables or {}).items():
                if var == name:
                    found = (graph.document.sentence, nid)
        return found


class _Reader:
    """Reads blocks into documents, keeping the variables each document has defined so far."""

    def __init__(self, name: str, options: ReadOptions) -> None:
        self.name = name
        self.options = ReadOptions(framework="umr", no_wiki=options.no_wiki, strict=options.strict)
        self.count = 0
        self.previous = 0
        #: the number before ``previous`` in the same document (to tell a mistyped number from a new
        #: document), None at a document's first sentence
        self.before: Optional[int] = None
        self.document: Optional[Document] = None
        self.defined: Dict[str, int] = {}

    def block(self, block: Block) -> Optional[Document]:
        """Read one block; returns the document it closes, if it starts a new one."""
        number = block.number if block.number is not None else self.previous + 1
        done = None
        starts = self.document is None or self._starts_document(number)
        if starts:
            done = self.document
            self.count += 1
            self.document = Document(f"d{self.count}")
            self.defined = {}
        gid = graph_id(self.count, number)
        document = self.document
        assert document is not None
        if number > self.previous + 1 and document.graphs:
            document.problems.append(FormatError(
                f"sentence number {number} does not follow {self.previous} (the previous one)",
                self.name, block.number_line or block.line, gid, "umr"))
        self.before, self.previous = (None if starts else self.previous), number
        if block.unread:
            for error in block.unread:
                error.graph_id = gid
                error.framework = "umr"
                document.errors.append(error)
            return done
        try:
            graph = sentence_graph(block, gid, self.options)
        except FormatError as error:
            error.file = self.name
            document.errors.append(error)
            for text in block.texts("graph"):
                # the variables of a lost graph are defined: their uses later are not problems of their own
                self.defined.update((var, number) for var in _DEFINITION.findall(text))
            return done
        problems = [(line, f"a second '{name}' section (left out)") for name, line in block.repeated]
        self._redefined(graph, number, block, problems)
        self._align(graph, block, problems)
        graph.document = Placement(document.id, number, info=list(block.info),
                                   alignment=block.numbered("alignment"),
                                   outline=list(block.outline))
        self._annotate(graph, block, problems)
        document.graphs.append(graph)
        document.problems.extend(FormatError(message, self.name, line, gid, "umr")
                                 for line, message in problems)
        return done

    def _starts_document(self, number: int) -> bool:
        """Whether sentence ``number`` starts a new document: it is 1, or it does not exceed the previous
        number (a document whose first sentences are missing) unless the previous number was a slip of
        the pen (``snt114``, ``snt1155``, ``snt116``: 116 follows 114)."""
        if number == 1:
            return True
        slip = self.before is not None and self.previous > self.before + 1 and number == self.before + 2
        return number <= self.previous and not slip

    def _redefined(self, graph: Graph, number: int, block: Block, problems: List[Tuple[int, str]]) -> None:
        line = block.sections["graph"][0]
        for var in (graph.variables or {}).values():
            if var in self.defined:
                problems.append((line, f"variable '{excerpt(var)}' is already defined in sentence "
                                       f"{self.defined[var]} of the document"))
            self.defined[var] = number

    def _align(self, graph: Graph, block: Block, problems: List[Tuple[int, str]]) -> None:
        if "alignment" not in block.sections:
            return
        tokens = block.tokens()
        #: where token k (from 1) starts: starts[k - 1]; where it ends: starts[k] - 1
        starts = [0, *accumulate(len(token) + 1 for token in tokens)]
        nodes = {var: nid for nid, var in (graph.variables or {}).items()}
        seen: Dict[str, int] = {}
        count = len(tokens)
        lines = [(number, text) for number, text in block.numbered("alignment")
                 if text and not text.isspace()]
        for (number, _), read in zip(lines, annotation.parse_alignments([text for _, text in lines])):
            if isinstance(read, ValueError):
                problems.append((number, f"alignment: {read}"))
                continue
            var, spans = read
            if var not in nodes:
                problems.append((number, f"alignment of '{excerpt(var)}': the graph has no variable "
                                         f"'{excerpt(var)}'"))
                continue
            if var in seen:
                problems.append((number, f"alignment of '{excerpt(var)}': already aligned at line "
                                         f"{seen[var]}"))
                continue
            first, last = spans[0]
            if len(spans) == 1 and 1 <= first <= last <= count:  # one span within the sentence (most lines)
                anchors = [(starts[first - 1], starts[last] - 1)]
            else:
                bad = [p for p in (annotation.span_problem(span, count) for span in spans) if p]
                if bad:
                    problems.append((number, f"alignment of '{excerpt(var)}': {bad[0]}"))
                    continue
                anchors = [(starts[i - 1], starts[j] - 1) for i, j in spans
                           if not annotation.unaligned((i, j))]
            seen[var] = number
            graph.nodes[nodes[var]].anchors = anchors or None

    def _annotate(self, graph: Graph, block: Block, problems: List[Tuple[int, str]]) -> None:
        if "document" not in block.sections:
            return
        place = graph.document
        assert place is not None
        numbered = block.numbered("document")
        # its empty lines hold no token: only the last line is kept among them (an error at the end names it)
        lines = [Line(number, text) for number, text in numbered[:-1] if text and not text.isspace()]
        lines.extend(Line(number, text) for number, text in numbered[-1:])
        try:
            variable, relations = annotation.parse_document(lines)
        except annotation.DocumentError as error:
            closed = None if self.options.strict else annotation.closed_document(lines)
            recovered = None if self.options.strict or closed else annotation.recover_document(lines)
            if closed is not None:
                variable, relations, added = closed
                problems.append((error.line, f"document-level annotation: {added} closing bracket(s) missing "
                                             "at the end (added; its relations kept)"))
            elif recovered is not None:
                variable, relations = recovered
                graph.repairs = [*(graph.repairs or []), f"document-level annotation (line {error.line}): "
                                 f"{error.message}; its {len(relations)} relation(s) read as the shared "
                                 "task's comparator reads them"]
            else:
                problems.append((error.line, f"document-level annotation: {error.message} (left out)"))
                return
        place.variable = variable
        for relation, line in relations:
            place.relations.append(relation)
            what = f"document-level relation ({relation.source} :{relation.label} {relation.target}): "
            problem = annotation.label_problem(relation)
            if problem is not None:
                problems.append((line, what + problem))
            for end in (relation.source, relation.target):
                if end not in self.defined and end not in SPECIAL:
                    problems.append((line, f"{what}'{excerpt(end)}' is neither a variable of this or an "
                                           "earlier sentence nor a special node"))

    def finish(self) -> Optional[Document]:
        return self.document


def parse_documents(lines: Iterable[Union[Line, FormatError]], name: str,
                    options: Optional[ReadOptions] = None) -> Iterator[Document]:
    """The documents of UMR lines, in file order, each with its problems."""
    reader = _Reader(name, options or ReadOptions())
    for block in blocks(lines):
        done = reader.block(block)
        if done is not None:
            yield done
    last = reader.finish()
    if last is not None:
        yield last


def read_documents(path: str, options: Optional[ReadOptions] = None) -> List[Document]:
    """The documents of a UMR file (``-`` for stdin); InputError for a file that cannot be used.  The garbage
    collector is paused while it is read (as every reader of a corpus pauses it: graphs hold no cycles)."""
    with collector_paused():
        return list(parse_documents(Source(path), display_name(path), options))


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """The sentence graphs of a UMR file, and a FormatError for each sentence that cannot be read.

    Problems of a kept graph's alignment and document-level annotation are
    given as warnings (:class:`mrp.errors.ReadWarning`, one each; the commands print each as a line).
    """
    yield from document_items(parse_documents(lines, name, options))


def document_items(documents: Iterable[Document], warn: bool = True) -> Iterator[Item]:
    """The sentence graphs and the errors of parsed documents in file order (what :func:`read` yields, for
    documents already parsed, e.g. by the validator), warning of each document's problems.

    Args:
        documents: the documents (:func:`parse_documents`).
        warn: give the documents' problems as warnings (False: the graphs of a file read again, whose
            problems were given with its first reading; no warning filter is changed to keep them quiet).

    Returns:
        The graphs and FormatErrors, in line order within each document.
    """
    for document in documents:
        items: List[Tuple[int, int, Item]] = []
        items.extend((graph.line or 0, 1, graph) for graph in document.graphs)
        items.extend((error.line or 0, 0, error) for error in document.errors)
        for _, _, item in sorted(items, key=lambda entry: (entry[0], entry[1])):
            yield item
        for problem in document.problems if warn else ():
            warnings.warn(str(problem), ReadWarning, stacklevel=2)


# --------------------------------------------------------------------------- writing
