"""Reading each distinct graph text once: a memo of the graphs a Penman reader built, by their text.

A corpus often repeats graph texts (a testbed of random pairs of a collection holds each text about 15
times).  :func:`mrp.corpora.load.read_corpus` gives the reader a :class:`Repeats` (``ReadOptions.memo``); the
reader then builds the graph of a text it has met before in the same read from the first graph of that
text, sharing its :data:`~mrp.graph.TEXT_FIELDS` objects (nodes, edges, layout, ...), while every other
field (id, line, input, repairs, what was written) is the graph's own.  The key is the whole text the
reader parses and every read option that shapes those fields, so a graph read through the memo equals the
graph read without it.  The corpus then packs shared content once (:mod:`mrp.corpora.packed`), or gives
each graph its own copy (:func:`unshared`): no caller ever holds two graphs sharing objects.

Each template graph has a serial number (:meth:`Repeats.serial`): two graphs with the same serial have the
same content objects.  The memo keeps at most :data:`KEPT` templates; when full it starts again (serials
are never reused), so that a corpus of distinct texts does not keep every graph alive.

A cache of its own kind (see :mod:`mrp.memo`), made of bounded :class:`~mrp.memo.Memo` s: beyond graphs by
text it numbers the templates (serials that name shared content, never reused) and keeps what readers
derive beside the texts, for the corpus's packing.
"""

from __future__ import annotations

import hashlib
from dataclasses import fields
from operator import attrgetter, is_
from typing import Any, Dict, Hashable, Optional, Tuple

from mrp.graph import TEXT_FIELDS, Edge, Graph, Node
from mrp.memo import Memo

__all__ = ["KEPT", "Repeats", "copied", "shared", "unshared"]

#: a graph's content objects, in the order of TEXT_FIELDS
_CONTENT = attrgetter(*TEXT_FIELDS)

#: templates a memo keeps at most (about 14 KB each for a sentence graph)
KEPT = 4096


class Repeats:
    """The graphs built so far in one read, by the key of their text (see the module)."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        #: key -> template graph
        self._graphs: Memo[Hashable, Graph] = Memo(kept)
        #: id of a template's node list -> (the template, its serial number); one entry per template, so
        #: that it starts again with the templates
        self._serials: Memo[int, Tuple[Graph, int]] = Memo(kept)
        #: serial -> the key of its template's text (for :meth:`digest`), and its digest once made
        self._keys: Memo[int, Hashable] = Memo(kept)
        self._digests: Memo[int, bytes] = Memo(kept)
        #: what readers keep beside the texts, by name (:meth:`kept`)
        self._aside: Dict[Hashable, Memo[Any, Any]] = {}
        self._next = 0
        #: the last graph :meth:`serial` was asked about and its answer (the reader's limits and the corpus
        #: ask about each graph in turn)
        self._asked: Tuple[Optional[Graph], Optional[int]] = (None, None)

    def __reduce__(self) -> Tuple[type, Tuple[int]]:
        """Pickled empty (a memo only saves work: read options sent to another process do not carry the
        graphs read here)."""
        return (Repeats, (self._kept,))

    def kept(self, name: Hashable) -> Memo[Any, Any]:
        """A memo a reader keeps beside the texts, for as long as this memo lives (one read, or all the reads
        that share it): what it derives from the texts, or from the serials given here (never reused).

        Args:
            name: whose memo, and every read option its values depend on.

        Returns:
            The memo of that name (empty at first).
        """
        found = self._aside.get(name)
        if found is None:
            found = self._aside[name] = Memo(self._kept)
        return found

    def template(self, key: Hashable) -> Optional[Graph]:
        """The graph first built for ``key`` (its content to share), or None.

        Args:
            key: the text read and every read option that shapes the graph's content.

        Returns:
            The template graph, or None for a key not met (or forgotten).
        """
        return self._graphs.get(key)

    def keep(self, key: Hashable, graph: Graph) -> None:
        """Remember a graph just built as the template of ``key``.

        Args:
            key: as for :meth:`template`.
            graph: the graph built from the text (its content fields are shared from now on).
        """
        self._graphs.keep(key, graph)
        self._serials.keep(id(graph.nodes), (graph, self._next))
        self._keys.keep(self._next, key)
        self._next += 1
        self._asked = (None, None)

    @property
    def built(self) -> int:
        """How many graphs were built from texts through this memo (each a template once; the graphs of
        texts met again are copies)."""
        return self._next

    def templates(self) -> Dict[int, Graph]:
        """The templates kept now, by serial number (a snapshot: the memo may let them go later).

        Returns:
            serial -> template graph.
        """
        return {serial: graph for graph, serial in self._serials.values()}

    def serial(self, graph: Graph) -> Optional[int]:
        """The serial number of the content a graph shares with its template, or None (content of its own).

        Args:
            graph: a graph the reader just gave (its template still kept).

        Returns:
            The template's serial number, the same for every graph sharing that template's content.
        """
        if graph is self._asked[0]:
            return self._asked[1]
        found = self._serials.get(id(graph.nodes))
        serial = None
        if found is not None and found[0].nodes is graph.nodes and all(map(is_, _CONTENT(graph),
                                                                           _CONTENT(found[0]))):
            serial = found[1]
        self._asked = (graph, serial)
        return serial

    def copy(self, template: Graph, gid: str) -> Graph:
        """:func:`copied`, the copy's :meth:`serial` known at once (the template's): the reader's limits and
        the corpus ask it next, and need not compare the copy's content objects with the template's.

        Args:
            template: a template of this memo (:meth:`template`).
            gid: the copy's id.

        Returns:
            The new graph; its content objects are the template's.
        """
        graph = copied(template, gid)
        found = self._serials.get(id(template.nodes))
        if found is not None and found[0] is template:  # what serial() finds for the copy, as made
            self._asked = (graph, found[1])
        return graph

    def digest(self, graph: Graph) -> Optional[bytes]:
        """A digest of the key of the text a graph was read from (the text and every read option that shapes
        its content), the same in any process and read: graphs of equal digests have equal
        :data:`~mrp.graph.TEXT_FIELDS`, whatever file they were read from.

        Args:
            graph: a graph the reader just gave (its template still kept).

        Returns:
            16 bytes, or None for a graph with content of its own (or whose template was forgotten).
        """
        serial = self.serial(graph)
        if serial is None:
            return None
        found = self._digests.get(serial)
        if found is not None:
            return found
        key = self._keys.get(serial)
        if key is None:
            return None
        return self._digests.keep(serial, hashlib.blake2b(repr(key).encode("utf-8", "surrogatepass"),
                                                          digest_size=16).digest())


def shared(template: Graph, **own: object) -> Graph:
    """A graph with the template's content objects (:data:`~mrp.graph.TEXT_FIELDS`) and its own fields.

    Args:
        template: the graph first built from the same text.
        **own: the graph's own fields (id, framework, flavor, ...).

    Returns:
        The new graph; its content objects are the template's.
    """
    graph = Graph(**own)  # type: ignore[arg-type]
    for name, value in zip(TEXT_FIELDS, _CONTENT(template)):
        setattr(graph, name, value)
    return graph


def copied(template: Graph, gid: str) -> Graph:
    """:func:`shared` with the template's framework and flavor and an id of its own, made faster (a copy of
    a text read before, once per copy).

    Args:
        template: the graph first built from the same text.
        gid: the copy's id.

    Returns:
        The new graph; its content objects are the template's.
    """
    tops, nodes, edges, layout, variables, breaks = _CONTENT(template)
    # every field in the order of Graph's: the content given, not made empty and then replaced
    return Graph(gid, template.framework, template.flavor, None, None, None, None, None, None, None, tops,
                 nodes, edges, None, variables, None, layout, breaks)


if TEXT_FIELDS != ("tops", "nodes", "edges", "layout", "variables", "breaks"):  # pragma: no cover
    raise ImportError("mrp.codecs.repeats.copied sets the content fields by name: update it to TEXT_FIELDS")
#: Graph's fields in the order :func:`copied` gives them (those after ``breaks`` left to their defaults)
_ORDER = ("id", "framework", "flavor", "input", "language", "time", "source", "provenance", "targets",
          "version", "tops", "nodes", "edges", "line", "variables", "document", "layout", "breaks")
if tuple(field.name for field in fields(Graph))[:len(_ORDER)] != _ORDER:  # pragma: no cover
    raise ImportError("mrp.codecs.repeats.copied gives Graph's fields by position: update it to them")


def unshared(graph: Graph) -> Graph:
    """The graph with content objects of its own (copies of nodes, edges, tops, layout, variables, breaks).

    Args:
        graph: a graph that may share its content with others.

    Returns:
        The same graph object, its content fields replaced by equal copies.
    """
    graph.tops = list(graph.tops)
    graph.nodes = [Node(n.id, n.label, list(n.properties), list(n.values),
                        None if n.anchors is None else list(n.anchors),
                        None if n.anchorings is None else list(n.anchorings)) for n in graph.nodes]
    graph.edges = [Edge(e.source, e.target, e.label, e.normal, list(e.attributes), list(e.values), e.id,
                        None if e.anchors is None else list(e.anchors), e.legacy) for e in graph.edges]
    if graph.layout is not None:
        graph.layout = {k: list(branches) for k, branches in graph.layout.items()}
    if graph.variables is not None:
        graph.variables = dict(graph.variables)
    if graph.breaks is not None:
        graph.breaks = dict(graph.breaks)
    return graph
