"""One bounded memo: a dict that holds at most a given number of entries and starts again when full.

The caches of mrp (normal forms of labels, roles and atoms that recur in every graph, plans of repeated
library calls, per-graph values of all-pairs runs) are all this: values made once by key, forgotten all at
once when too many are held (the entries that recur come back at once; no bookkeeping per hit).  It imports
nothing of mrp, so that every layer, the codecs included, may use it.
"""

from __future__ import annotations

from typing import Callable, Dict, Hashable, TypeVar

__all__ = ["Memo"]

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
