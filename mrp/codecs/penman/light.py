"""Graphs of plain Penman texts whose content is built when first read (:class:`LightGraph`).

A reward function reads each sampled graph's text only to score it: SMATCH codes its triples from the
text's :class:`~.fast.Plain` form (:func:`unbuilt`), and nothing else of the graph is ever looked at.  A
:class:`LightGraph` is an :class:`mrp.Graph` that holds that form and builds its content fields
(``nodes``, ``edges``, ``layout``, ``variables``: what :func:`.fast.built` makes) the first time any of them
is read, or before ``tops`` or one of them is changed; it is then the graph :func:`.fast.fast_graph` gives,
field for field, and compares equal to it (a graph's other fields read as their defaults until set).  Only
the scorers read light graphs (:func:`.reading.one_line_graphs` without ``ReadOptions.keep``):
:func:`mrp.read` gives graphs built.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import TYPE_CHECKING, Any, Dict, Optional, Union

from mrp.codecs.base import ReadOptions
from mrp.codecs.penman.fast import Plain, built
from mrp.codecs.penman.scan import Scanned, plain_of
from mrp.graph import Graph

__all__ = ["LightGraph", "light", "unbuilt", "unread", "unscanned"]

#: the content fields built on first reading (the others are set when the graph is made)
_BUILT = frozenset(("nodes", "edges", "layout", "variables"))
#: the fields whose change (before the content is built) builds it first: the form is then no longer the graph
_CONTENT = _BUILT | {"tops"}
#: the fields a graph's equality compares
_COMPARED = tuple(field.name for field in fields(Graph) if field.compare)
#: the other fields with a plain default, which a light graph holds only once set
_DEFAULTS: Dict[str, Any] = {field.name: field.default for field in fields(Graph)
                             if field.default is not MISSING and field.name not in _CONTENT}
#: what no default is
_NONE = object()


class LightGraph(Graph):
    """An :class:`mrp.Graph` read from a plain Penman text, its content built when first read."""

    __slots__ = ("plain",)

    if not TYPE_CHECKING:  # (mypy would take any attribute of any Graph for one)
        def __getattr__(self, name: str) -> Any:
            # called only for a slot not set: a content field of a graph not built yet, or a field left at
            # its default
            if name in _BUILT and getattr(self, "plain", None) is not None:
                self._build()
                return object.__getattribute__(self, name)
            found = _DEFAULTS.get(name, _NONE)
            if found is _NONE:
                raise AttributeError(name)
            return found

        def __setattr__(self, name: str, value: Any) -> None:
            if name in _CONTENT and getattr(self, "plain", None) is not None:
                self._build()
            object.__setattr__(self, name, value)

        def __delattr__(self, name: str) -> None:
            if name in _CONTENT and getattr(self, "plain", None) is not None:
                self._build()
            object.__delattr__(self, name)

    def _build(self) -> None:
        plain: Optional[Union[Plain, Scanned]] = object.__getattribute__(self, "plain")
        if plain is None:
            return  # built meanwhile (by another thread)
        if isinstance(plain, Scanned):
            plain = plain_of(plain)
        graph = built(plain, self.id, ReadOptions(framework=self.framework))
        put = object.__setattr__
        for name in _BUILT:
            put(self, name, getattr(graph, name))
        put(self, "plain", None)

    def __len__(self) -> int:
        plain = getattr(self, "plain", None)
        if plain is None:
            return len(self.nodes)
        return plain.codes[0] if type(plain) is Scanned else len(plain.labels)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _COMPARED)

    __hash__ = None  # type: ignore[assignment]


def light(plain: Union[Plain, Scanned], gid: str, options: ReadOptions) -> LightGraph:
    """The graph of a text's Plain or Scanned form, built when first read.

    Args:
        plain: the form (:func:`.fast.plain_form` or :func:`.scan.scanned`, with the options' ``no_wiki``).
        gid: the graph's id.
        options: the read options (``framework`` is read).

    Returns:
        The graph.
    """
    graph = LightGraph.__new__(LightGraph)
    put = object.__setattr__  # (the other fields read as their defaults until set)
    put(graph, "id", gid)
    put(graph, "framework", options.framework or "amr")
    put(graph, "flavor", 2)
    put(graph, "tops", [0])
    put(graph, "plain", plain)
    return graph


def unbuilt(graph: Graph) -> Optional[Plain]:
    """The Plain form of a graph whose content has not been built (read) yet, else None.

    Args:
        graph: a graph.

    Returns:
        Its form, or None (for any other graph, and for a light graph once read: it may have been changed).
    """
    if type(graph) is not LightGraph:
        return None
    plain = getattr(graph, "plain", None)
    if type(plain) is Scanned:
        plain = plain_of(plain)
        object.__setattr__(graph, "plain", plain)
    return plain


def unscanned(graph: Graph) -> Optional[Scanned]:
    """The Scanned form of a graph whose content has not been built (read) yet, read by the compiled scan,
    else None.

    Args:
        graph: a graph.

    Returns:
        Its form, or None (for any other graph, a graph read the present way, and a light graph once read).
    """
    if type(graph) is not LightGraph:
        return None
    plain = getattr(graph, "plain", None)
    return plain if type(plain) is Scanned else None


def unread(graph: Graph) -> bool:
    """Whether a graph is a light graph whose content has not been built (read) yet.

    Args:
        graph: a graph.

    Returns:
        Whether it is.
    """
    return type(graph) is LightGraph and getattr(graph, "plain", None) is not None
