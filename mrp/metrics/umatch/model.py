"""The juːmæʧ view of a UMR file: sentences of nodes (concept, relations, token alignment) and
document-level relations, as the UMR shared task's comparator sees them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple


class _Unset(Dict[str, Any]):
    """The empty table every node's ambiguities and winners start as, shared (read as an empty dict; a node
    makes its own when one is first written: most nodes never have one)."""

    __hash__ = object.__hash__  # type: ignore[assignment]

    def __setitem__(self, key: str, value: Any) -> None:
        raise TypeError("a node's shared empty table is not written (Node.ambiguous_to, Node.won)")

    def setdefault(self, key: str, default: Any = None) -> Any:
        raise TypeError("a node's shared empty table is not written (Node.ambiguous_to, Node.won)")


UNSET: Dict[str, Any] = _Unset()


@dataclass(eq=False, slots=True)
class Node:
    """A node of a sentence graph."""

    variable: str
    concept: str
    #: (":name", value) in the order written; a value naming a variable of the sentence is an edge
    relations: List[Tuple[str, str]] = field(default_factory=list)
    #: token positions (0-based, ascending, distinct) the node is aligned to; None: unaligned
    alignment: Optional[Tuple[int, ...]] = None
    #: the aligned words joined by spaces ("" when none)
    aligned_text: str = ""
    #: the concept extended by a name's words (``name[New York]``); None when the graph failed to read
    econcept: Optional[str] = None
    line: int = 0
    #: other file's label -> its variables this node is linked to (the comparator's projections)
    cross: Dict[str, Dict[str, int]] = field(default_factory=dict)
    #: other file's label -> the nodes the node was first projected to, when more than one
    #: (:meth:`ambiguous_to`)
    ambiguous: Dict[str, List[str]] = field(default=UNSET)
    #: other file's label -> the link that won the node's ambiguity (its description, --verbose; :meth:`won`)
    winner: Dict[str, str] = field(default=UNSET)

    #: the relations sorted by lowercased name (kept once computed; relations are not changed afterwards)
    ordered: Optional[List[Tuple[str, str]]] = field(default=None, repr=False)

    def in_name_order(self) -> List[Tuple[str, str]]:
        """The relations sorted by lowercased name, stably (the comparator's order)."""
        if self.ordered is None or len(self.ordered) != len(self.relations):
            self.ordered = sorted(self.relations, key=lambda relation: relation[0].lower())
        return self.ordered

    def clear(self) -> None:
        """Forget the correspondence a run left on the node (its links, ambiguities and winners); its table
        of links stays the same object (a profile of a node relating to it holds it)."""
        self.cross.clear()
        if self.ambiguous is not UNSET:
            self.ambiguous = UNSET
        if self.winner is not UNSET:
            self.winner = UNSET

    def ambiguous_to(self, label: str, variables: List[str]) -> None:
        """Record the nodes of file ``label`` the node was first projected to, when more than one (kept when
        one is recorded already)."""
        if self.ambiguous is UNSET:
            self.ambiguous = {}
        self.ambiguous.setdefault(label, variables)

    def won(self, label: str, description: str) -> None:
        """Record the link to file ``label`` that won the node's ambiguity (--verbose)."""
        if self.winner is UNSET:
            self.winner = {}
        self.winner[label] = description

    def mapped(self, label: str) -> List[str]:
        """The variables of file ``label`` this node is projected to, sorted."""
        return sorted(self.cross.get(label, ()))


class Nodes(Dict[str, Node]):
    """A sentence's nodes by variable, with their profiles kept beside them (:attr:`profiles`,
    :func:`mrp.metrics.umatch.triples.profile`): not on the nodes, so that no cycle ties them (a profile
    names nodes of its sentence), and a sentence no longer referenced is freed at once, not left to the
    collector (which in a command's own process may have frozen it out of its way: it would never be)."""

    __slots__ = ("profiles", "every", "census")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: variable -> the node's profile
        self.profiles: Dict[str, Any] = {}
        #: the selection every node's profile is kept for (:func:`mrp.metrics.umatch.triples.profiles`)
        self.every: Optional[Any] = None
        #: (width, nodes, per token the nodes aligned to it, per extended concept the unaligned nodes) of
        #: :func:`mrp.metrics.umatch.capped.census`, None until made
        self.census: Optional[Tuple[int, int, Dict[int, int], Dict[str, int]]] = None


@dataclass(eq=False, slots=True)
class Sentence:
    """One sentence block of a file (tokens, graph, alignment, document-level relations)."""

    #: position in its file, from 1
    number: int
    line0: int
    line1: int
    tokens: List[str] = field(default_factory=list)
    #: variable -> node, in the order defined
    nodes: Dict[str, Node] = field(default_factory=Nodes)
    #: "source :relation target" -> count, in the order read
    docrels: Dict[str, int] = field(default_factory=dict)
    #: the lines of the sentence-graph block (side-by-side views)
    graph_lines: List[str] = field(default_factory=list)
    #: the first variable of the graph
    top: Optional[str] = None
    #: why reading stopped early (compat: what was read before stays), None when read whole
    failure: Optional[str] = None
    #: compat view of a graph mrp read: the sections compare_umr.pl reads as other sentences (set apart by
    #: two empty lines; :mod:`mrp.metrics.umatch.segments`), not compared
    apart: List[str] = field(default_factory=list)
    #: compat view: a sentence compare_umr.pl reads apart holds blocks it compares (not reproduced)
    apart_compared: bool = False
    #: what a careful reading repaired, one message each
    repairs: List[str] = field(default_factory=list)
    #: the document the sentence belongs to (0-based position in the file)
    document: int = 0
    #: (own label, other label, selection) -> the comparator's greedy made whole against another sentence
    #: (:func:`mrp.metrics.umatch.links.remember`), for a later run on the same sentences
    greedy: Dict[Tuple[str, str, Any], Any] = field(default_factory=dict, repr=False)
    #: the ``# :: sntN`` number, when given
    sid: Optional[str] = None
    #: compat view of a graph whose graph compare_umr.pl reads but not all the rest (alignments,
    #: document-level relations): what mrp's reading has besides, variable -> (alignment, aligned text) of
    #: the nodes whose alignment is left out, and every document-level relation
    #: (:func:`mrp.metrics.umatch.graphs.whole`)
    unread: Optional[Tuple[Dict[str, Tuple[Tuple[int, ...], str]], Dict[str, int]]] = field(default=None,
                                                                                            repr=False)
    #: variable -> node over the sentence's document (the last definition winning); None: the file's
    scope: Optional[Dict[str, Node]] = field(default=None, repr=False)
    #: variable -> node over the sentence's source file, when the file compared gathers several
    #: (the comparator's file-wide table); None: the compared file's
    source: Optional[Dict[str, Node]] = field(default=None, repr=False)


@dataclass(eq=False)
class UmrFile:
    """A UMR file read for comparison."""

    label: str
    path: str
    sentences: List[Sentence] = field(default_factory=list)
    #: variable -> node over the whole file, the last definition winning (the comparator's view)
    nodes: Dict[str, Node] = field(default_factory=dict)
    #: messages of the reading (warnings and failures), each naming file and line
    messages: List[str] = field(default_factory=list)

    @property
    def failed(self) -> int:
        """Sentences whose reading stopped early."""
        return sum(sentence.failure is not None for sentence in self.sentences)
