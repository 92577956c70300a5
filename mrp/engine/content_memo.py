"""What a metric derives from a packed graph's content alone, derived once per distinct content.

A packed corpus keeps the content of a graph text met again once (:mod:`mrp.codecs.repeats`,
:mod:`mrp.corpora.packed`): its entries with the same ``content`` index have equal
:data:`~mrp.graph.TEXT_FIELDS` (tops, nodes, edges, layout, variables, breaks).  A value that depends on
those fields only (and on options named in the key), such as SMATCH's triples of Penman AMR, is then the
same for all of them: :class:`ContentMemo` derives it once, without unpacking the graph again; and once for
the contents of every store read from the same text with the same options (a testbed's two files hold the
same collection), by the digest the reader gave (:meth:`~mrp.corpora.packed.PackedGraphs.digest`).

A cache of its own kind (see :mod:`mrp.memo`), on a bounded :class:`~mrp.memo.Memo`: it is keyed by a
packed graph's content, which only the corpus knows (a text's digest, or a store's identity and content
index, with the store kept so that its id is never reused while its values live), not by an object as
:class:`~mrp.memo.ByObject` is; both keys share one bound.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, Tuple

from mrp.corpora import Packed
from mrp.graph import Graph
from mrp.memo import Memo

__all__ = ["KEPT", "ContentMemo"]

#: values a memo keeps at most (it starts again when full)
KEPT = 20_000


class ContentMemo:
    """Values derived from the content of packed graphs, by (store, content index, options key)."""

    def __init__(self, kept: int = KEPT) -> None:
        #: key -> (the store, kept alive so that its id names it, and the value)
        self._values: Memo[Tuple[Any, ...], Tuple[Any, Any]] = Memo(kept)

    def value(self, entry: Packed, options: Hashable, derive: Callable[[Graph], Any]) -> Any:
        """The value ``derive`` gives the entry's graph, derived once per content of its store.

        Args:
            entry: a packed graph.
            options: every option ``derive`` depends on besides the graph's content fields.
            derive: the value of a graph; it must read only :data:`~mrp.graph.TEXT_FIELDS` (and the
                options named in ``options``), and change nothing (the graph may be the store's own:
                :meth:`~mrp.corpora.packed.PackedGraphs.content_of`).

        Returns:
            The value (shared between the entries of the same content: not to be changed).
        """
        digest = entry.store.digest(entry.content)
        if digest is not None:  # equal texts read into any store: one value
            key: Tuple[Any, ...] = ("text", digest, options)
            found = self._values.get(key)
            if found is None:
                found = self._values.keep(key, (None, derive(entry.store.content_of(entry.content))))
            return found[1]
        key = (id(entry.store), entry.content, options)
        found = self._values.get(key)
        if found is None or found[0] is not entry.store:
            found = self._values.keep(key, (entry.store, derive(entry.store.content_of(entry.content))))
        return found[1]

    def clear(self) -> None:
        """Forget every value (and the stores kept for them)."""
        self._values.clear()
