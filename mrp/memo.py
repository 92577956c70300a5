"""The caches of mrp, by kind: every value mrp makes once and finds again is kept in one of these.

- :class:`Memo`, a bounded dict: values made once by key, forgotten all at once when too many are held (the
  entries that recur come back at once; no bookkeeping per hit).  Normal forms of labels, roles and atoms
  that recur in every graph, plans of repeated library calls, a reader's templates.
- :class:`ByObject`, values by an object's identity (and a key): what a metric computes from one graph alone
  (Rematch's motifs, WLK's features, SMATCH's triples), kept with the graph so that an id reused after
  the graph is gone never finds another graph's value.

Three caches are built on :class:`Memo` but are their own kind, each beside what it knows of
(docs/design.md, "Caches"): :class:`mrp.codecs.repeats.Repeats` (a read's graphs by text, with serials
that name shared content), :class:`mrp.engine.content_memo.ContentMemo` (values by a packed graph's
content: by the digest of its text, or by its store's identity and content index) and
:class:`mrp.task.memo.EvaluationMemo` (an evaluation's readings and scores by the SHA-256 of its files:
unbounded, as a figure must not depend on whether it was computed or found).

This module imports nothing of mrp, so that every layer, the codecs included, may use it.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Hashable, Tuple, TypeVar

__all__ = ["Memo", "ByObject"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Dict[K, V]):
    """A dict of at most ``most`` entries, written through :meth:`keep` (or :meth:`make`): the entry that
    would exceed the bound empties it first.

    Reading is a dict's (``memo.get(key)``, ``key in memo``: as fast as a dict's, for hot loops); an
    entry's value is always what was kept under its key, never one of an earlier key.  A value must depend
    on nothing but its key: the key holds everything the value was made from.
    """

    __slots__ = ("most",)

    def __init__(self, most: int) -> None:
        """A memo of at most ``most`` entries.

        Args:
            most: the bound (at least 1).
        """
        super().__init__()
        if most < 1:
            raise ValueError(f"a memo holds at least one entry, not {most}")
        self.most = most

    def keep(self, key: K, value: V) -> V:
        """Keep ``value`` under ``key`` (emptying the memo first when it is full).

        Args:
            key: the key (everything the value depends on).
            value: its value.

        Returns:
            ``value``.
        """
        if key not in self and len(self) >= self.most:
            self.clear()
        self[key] = value
        return value

    def make(self, key: K, make: Callable[[K], V]) -> V:
        """The value under ``key``, made by ``make(key)`` and kept when there is none.

        Args:
            key: the key.
            make: computes the value from the key.

        Returns:
            The value.
        """
        try:
            return self[key]
        except KeyError:
            return self.keep(key, make(key))


class ByObject:
    """Values by (an object, a key), each kept with its object (so that an id is never reused while its
    entry lives; an entry of another object under a reused id is made anew) in a :class:`Memo` of at most
    ``most`` entries.  The object is found by identity, not equality: a graph met again in many pairs (an
    all-pairs run, an ensemble) has its value made once."""

    __slots__ = ("kept",)

    def __init__(self, most: int = 10_000) -> None:
        """A memo of at most ``most`` values.

        Args:
            most: the bound (at least 1).
        """
        self.kept: Memo[Tuple[int, Hashable], Tuple[Any, Any]] = Memo(most)

    def get(self, owner: Any, key: Hashable, make: Callable[[Any], Any]) -> Any:
        """The value of ``make(owner)`` under ``key``, made once.

        Args:
            owner: the object (a graph).
            key: what else the value depends on (the metric's options).
            make: computes the value from the object.

        Returns:
            The value.
        """
        found = self.kept.get((id(owner), key))
        if found is None or found[0] is not owner:
            found = self.kept.keep((id(owner), key), (owner, make(owner)))
        return found[1]
