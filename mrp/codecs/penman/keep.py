"""Writing an AMR graph as its file wrote it: the text kept while the graph is unchanged.

The AMR reader records, for a graph read as written (no ``:wiki`` dropped, no id mapped, no text table, no
repair), its comment lines (metadata, and any comment block before it such as an LDC header), its graph
text and a digest of the graph it read (:func:`record`).  The writer asks :func:`kept`: while the digest
of the graph still matches, the comments and the text come back as they were, so that reading and writing
a file changes nothing; a graph changed in any way (a standardization, a new label) is laid out anew,
with the file's comment lines while its id and sentence are the same.  :func:`variables` gives the
variables the file used, where they still name every node once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, cast

import penman

from mrp.codecs.penman.writer import Quoted, Symbol, formatted, penman_tree, quiet_layout
from mrp.graph import Graph

__all__ = ["Kept", "Style", "digest", "keep_frame", "kept", "penman_block", "penman_metadata", "record",
           "variables"]

#: a Penman variable as the writer may write it again (no spaces, quotes, parentheses or slash)
_VARIABLE = re.compile(r'^[^\s()"/:~^]+$')


@dataclass(frozen=True)
class Style:
    """penman's layout options: ``indent`` spaces per level (None: one line; -1: aligned, penman's own
    default), ``compact`` (a node's constants on its line), ``triples`` (a conjunction of triples),
    ``variables`` (penman's ``--make-variables``: each variable made anew with this format, e.g.
    ``'{prefix}{j}'``), ``metadata`` (the comment lines as penman writes them: its ``::key value``
    metadata only, one key a line, in penman's order; none with ``triples``)."""

    indent: Optional[int] = 6
    compact: bool = False
    triples: bool = False
    variables: Optional[str] = None
    metadata: bool = False


#: what this process's hashes are (a constant's hash and types' hashes, which are their addresses): a digest
#: found here is compared only with one found in a process hashing the same (itself, or a fork of it)
_HASHING = hash(("mrp kept", str, Symbol, Quoted))


@dataclass(frozen=True)
class Kept:
    """What the file held for one graph."""

    comments: List[str]
    text: str
    #: the digest of the graph as read (:func:`digest`); None: found when first asked for (:attr:`digest`)
    known: Optional[int]
    #: the graph's id and sentence as read (its comments stay while these do)
    id: str
    input: Optional[str]
    #: for a digest found when asked for: the reader that gives the graph as read again from ``text``, id and
    #: framework (None where it declines), the graph's framework as read, and the hashing of the process
    #: that read it
    again: Optional[Callable[[str, str, Optional[str]], Optional[Graph]]] = field(default=None, compare=False)
    framework: Optional[str] = field(default=None, compare=False)
    hashing: int = field(default=0, compare=False)
    found: Optional[int] = field(default=None, compare=False, repr=False)

    @property
    def digest(self) -> int:
        """The digest of the graph as read: as recorded, else of the graph its text gives again (with the id
        and sentence as read), found once; -1 (never a graph's) in a process that hashes otherwise than the
        one that read it, as a recorded digest compared there would differ."""
        if self.known is not None:
            return self.known
        if self.found is None:
            value = -1
            if self.again is not None and self.hashing == _HASHING:
                graph = self.again(self.text, self.id, self.framework)
                if graph is not None:
                    graph.input = self.input
                    value = digest(graph)
            object.__setattr__(self, "found", value)
        return cast(int, self.found)


def digest(graph: Graph) -> int:
    """A digest of everything the Penman text of a graph says (id, sentence, tops, nodes, edges, variables,
    and which strings were quoted): a hash, cheap next to reading, compared within the process that read
    the graph (a graph that crossed into another process only reads as changed); -1 when some value
    cannot be hashed."""
    try:
        return hash((graph.id, graph.input, graph.framework, tuple(graph.tops),
                     tuple((n.id, n.label, type(n.label), tuple(n.properties), tuple(n.values),
                            tuple(map(type, n.values)), None if n.anchors is None else tuple(n.anchors))
                           for n in graph.nodes),
                     tuple((e.source, e.target, e.label, e.normal, tuple(e.attributes), tuple(e.values))
                           for e in graph.edges),
                     None if graph.variables is None else tuple(sorted(graph.variables.items()))))
    except TypeError:
        return -1


def record(graph: Graph, comments: List[str], text: str,
           again: Optional[Callable[[str, str, Optional[str]], Optional[Graph]]] = None) -> None:
    """Keep the file's comment lines and graph text with the graph as read; with ``again`` (a reader that
    gives the graph as read from its text, id and framework), its digest is found only when asked for."""
    if again is None:
        graph.written = Kept(list(comments), text, digest(graph), graph.id, graph.input)
    else:
        graph.written = Kept(list(comments), text, None, graph.id, graph.input, again, graph.framework,
                             _HASHING)


def kept(graph: Graph) -> Optional[Kept]:
    """The file's comments and text of a graph not changed since it was read, else None."""
    found = graph.written
    if isinstance(found, Kept) and found.digest != -1 and found.digest == digest(graph):
        return found
    return None


def variables(graph: Graph) -> Optional[Dict[int, str]]:
    """The file's variables of a graph, where they name each node once (a graph changed since it was read
    keeps them too: a standardization carries them to the nodes that stay), else None."""
    names = graph.variables
    if not names:
        return None
    ids = [node.id for node in graph.nodes]
    if sorted(names) != sorted(ids) or len(set(names.values())) != len(names):
        return None
    if not all(isinstance(name, str) and _VARIABLE.match(name) for name in names.values()):
        return None
    return dict(names)


def keep_frame(graph: Graph, before: List[str], comments: List[str], text: str,
               again: Optional[Callable[[str, str, Optional[str]], Optional[Graph]]] = None) -> None:
    """Record a graph read as written: the comment blocks before it (each a text of lines), its own
    comment lines and its graph text (``again``: as for :func:`record`)."""
    lines: List[str] = []
    for block in before:
        lines += block.split("\n") + [""]
    record(graph, lines + comments, text, again)


def penman_metadata(comments: List[str]) -> Dict[str, str]:
    """The metadata penman reads in comment lines: each ``::key value`` of a line, read from the line's
    end (so ``# ::id a ::date b`` gives ``date`` before ``id``); a key met again keeps its first place
    and takes the value read last."""
    found: Dict[str, str] = {}
    for line in comments:
        rest = line if line.startswith("#") else ""
        while rest:
            rest, mark, item = rest.rpartition("::")
            if mark:
                key, _, value = item.partition(" ")
                found[key] = value.rstrip()
    return found


def _as_written(text: str) -> Optional[penman.Graph]:
    """penman's graph of a graph's text as its file wrote it (its triples, and the placement of each as
    epidata), None where penman cannot read it."""
    try:
        with quiet_layout():
            return penman.interpret(penman.parse(text))
    except (penman.DecodeError, penman.exceptions.LayoutError, RecursionError):
        return None


def _configured(graph: penman.Graph) -> Optional[penman.Tree]:
    """penman's tree of its graph: each triple placed where its epidata say (the file's placement)."""
    try:
        with quiet_layout():
            return penman.configure(graph)
    except (penman.exceptions.LayoutError, RecursionError):
        return None


def penman_block(graph: Graph, header: List[str], style: Optional[Style]) -> str:
    """A graph's Penman block: as its file wrote it while unchanged and no style is asked for; else its
    file's comments (or ``header``, for a changed graph) and its text in the style.  An unchanged graph
    is laid out as penman's CLI lays out its text (each node and triple where the file placed it, its
    alignments kept), a changed one by :func:`penman_tree` with the file's variables."""
    found = kept(graph)
    if found is not None and style is None:
        return "\n".join(found.comments + [found.text])
    read = graph.written
    as_written = None if found is None else _as_written(found.text)
    if found is None and isinstance(read, Kept) and (read.id, read.input) == (graph.id, graph.input):
        found = read  # changed, but its metadata still describe it
    style = style or Style()
    comments = found.comments if found is not None else header
    if style.triples:
        triples = (as_written or penman.interpret(penman_tree(graph, variables(graph)))).triples
        body = penman.format_triples(triples, indent=bool(style.indent))
        return body if style.metadata else "\n".join(comments + [body])
    tree = None if as_written is None else _configured(as_written)
    if tree is None:
        tree = penman_tree(graph, variables(graph))
    if style.variables is not None:
        tree.reset_variables(style.variables)
    tree.metadata = penman_metadata(comments) if style.metadata else {}
    body = formatted(graph, tree, style.indent, style.compact)
    return body if style.metadata else "\n".join(comments + [body])
