"""Graphs kept packed: a large corpus as compressed bytes in one buffer, each graph unpacked on demand.

A live graph of a few dozen nodes costs about 14 KB of Python objects; packed, about 500 bytes
(:func:`~mrp.corpora.packing.pack` and :func:`~mrp.corpora.packing.unpack` round-trip every field of a
:class:`~mrp.graph.Graph` exactly).
:class:`PackedGraphs` is a sequence of graphs that stores them packed (compressed blocks in one
buffer, which forked processes read without copying it) and gives a fresh graph for each access;
its :class:`Packed` entries carry what pairing needs (id, framework, flavor, line, size) without
unpacking.

The first graph of a text read through a memo of texts (:mod:`mrp.codecs.repeats`: the memo keeps that
graph as the text's template) is kept live rather than packed, up to :data:`LIVE` of them a store: the
memo holds it anyway, packing it costs as much as reading the next several graphs of the same text, and a
fresh graph is copied from it faster than it would be unpacked.  Pickled (a store read ahead goes to the
parent so), such a graph is packed then, unless the process receiving the store holds its content too
(:meth:`PackedGraphs.refer`, :meth:`PackedGraphs.resolve`).
"""

from __future__ import annotations

import zlib
from array import array
from operator import attrgetter, is_
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
    overload,
)

from mrp.codecs.repeats import unshared
from mrp.corpora.packing import OWN, PICKLED, pack, unpack
from mrp.graph import TEXT_FIELDS, Graph
from mrp.memo import Memo

__all__ = ["Entry", "IDENTITY", "Packed", "PackedGraphs", "entries", "live", "mapped", "pack", "size",
           "unpack"]

#: the types of own values a copy may take from the graph of its content: equal values of the same one of
#: these types are the same value
_PLAIN = frozenset({type(None), str, int, bool})
#: the packed bytes of shared content a store keeps decompressed at most (it starts again when full)
SOURCES = 4096
#: graphs compressed together (about 50 KB before compression for sentence graphs)
BLOCK = 32
#: graphs of a text's first reading a store keeps live at most (about 14 KB each for a sentence graph; see
#: the module)
LIVE = 4096


class Packed:
    """One graph of a :class:`PackedGraphs`: what identifies it, and the graph on demand."""

    __slots__ = ("store", "index", "id", "framework", "flavor", "line", "size", "content", "document")

    def __init__(self, store: PackedGraphs, index: int, graph: Graph, content: Optional[int] = None) -> None:
        self.store, self.index = store, index
        self.id, self.framework, self.flavor, self.line = graph.id, graph.framework, graph.flavor, graph.line
        #: the number of nodes
        self.size = len(graph.nodes)
        #: the index of the entry whose :data:`~mrp.graph.TEXT_FIELDS` this graph has (read from the same
        #: text), its own index when none before it has them: entries of a store with the same content
        #: index have equal tops, nodes, edges, layout, variables and breaks
        self.content = index if content is None else content
        #: whether the graph sits in a document (UMR)
        self.document = graph.document is not None

    @classmethod
    def restored(cls, store: PackedGraphs, index: int, identity: Tuple[Any, ...]) -> Packed:
        """An entry of ``store`` again from :data:`IDENTITY`'s values (as a pickled store sends them).

        Args:
            store: the store the entry belongs to.
            index: its position in the store.
            identity: the values of the entry's :data:`IDENTITY` fields, in order.

        Returns:
            The entry.
        """
        entry = cls.__new__(cls)
        entry.store, entry.index = store, index
        for name, value in zip(IDENTITY, identity):
            setattr(entry, name, value)
        return entry

    def graph(self) -> Graph:
        """The graph, unpacked (a new object each time)."""
        return self.store[self.index]

    def empty_copy(self) -> Graph:
        """A graph with the same identity (id, framework, flavor) and no content."""
        return Graph(id=self.id, framework=self.framework, flavor=self.flavor)


#: what a :class:`Packed` entry holds besides its store and index (all plain values)
IDENTITY = Packed.__slots__[2:]
_IDENTITY = attrgetter(*IDENTITY)

#: a graph as a corpus holds it: live, or packed
Entry = Union[Graph, Packed]


class PackedGraphs(Sequence[Graph]):
    """A sequence of graphs kept packed; indexing and iteration unpack (a new graph each time).

    Graphs are compressed in blocks of :data:`BLOCK` (one compressor call per block, not per graph);
    the last block decompressed is kept, so reading the graphs in order inflates each block once.
    """

    def __init__(self, graphs: Iterable[Graph] = ()) -> None:
        #: the compressed blocks, one after the other, and where each ends
        self._data = bytearray()
        self._blocks = array("q")
        #: where each graph's bytes end in its block (uncompressed)
        self._ends = array("l")
        #: the packed graphs of the last block, not compressed yet
        self._pending: List[bytes] = []
        #: the last block decompressed for a graph, and for the content of an earlier graph
        self._cache: List[Tuple[int, bytes]] = [(-1, b""), (-1, b"")]
        #: content index -> its graph's packed bytes (decompressed), for graphs that share that content
        self._sources: Memo[int, bytes] = Memo(SOURCES)
        #: content index -> its graph's own fields (:data:`~mrp.corpora.packing.OWN`) and their types, where
        #: all are plain
        self._owns: Memo[int, Tuple[Tuple[Any, ...], Tuple[type, ...]]] = Memo(SOURCES)
        self._entries: List[Packed] = []
        #: content index -> the digest of the text its graph was read from (:meth:`digest`)
        self._digests: Dict[int, bytes] = {}
        #: index -> its graph kept live (its own fields packed as a graph sharing its content's are)
        self._live: Dict[int, Graph] = {}
        #: index -> its graph packed whole, for a graph kept live where the store was pickled
        self._late: Dict[int, bytes] = {}
        #: index -> the serial of the template whose content its live graph holds, to be pickled so
        #: (:meth:`refer`); after unpickling, until :meth:`resolve`: those not resolved yet
        self._refer: Dict[int, int] = {}
        self._unresolved = False
        #: whether the last graph packed whole needed pickle (the next is pickled at once)
        self._pickled = False
        for graph in graphs:
            self.append(graph)

    def append(self, graph: Graph, same: Optional[int] = None, digest: Optional[bytes] = None) -> None:
        """Pack a graph and add it at the end.

        Args:
            graph: the graph.
            same: the index of an earlier graph whose :data:`~mrp.graph.TEXT_FIELDS` objects this graph
                shares (read from the same text, :mod:`mrp.codecs.repeats`): only its other fields are
                packed, and unpacking takes the content of that graph; nothing at all is packed when they
                are those of the graph whose content it takes, but its id and line (:meth:`_own`).
            digest: for a graph of content of its own, the digest of the text it was read from
                (:meth:`mrp.codecs.repeats.Repeats.digest`), or None; given, the graph is the template of
                its text in a memo of texts, and is kept live (up to :data:`LIVE` a store).
        """
        index = len(self._entries)
        if same is not None:  # a graph of a text read before (most graphs of random pairs): its own fields
            content = self._entries[same].content
            data = self._own(graph, content)
        else:
            content = None
            if digest is not None and len(self._live) < LIVE:
                self._live[index] = graph
                data = pack(graph, own=True)
            else:
                data = pack(graph, pickled=self._pickled)
                self._pickled = data[:1] == PICKLED
            self._keep_own(index, graph)
            if digest is not None:
                self._digests[index] = digest
        pending = self._pending
        self._ends.append((self._ends[-1] + len(data)) if pending else len(data))
        pending.append(data)
        self._entries.append(Packed(self, index, graph, content))
        if len(pending) == BLOCK:
            self._data += zlib.compress(b"".join(pending), 1)
            self._blocks.append(len(self._data))
            self._pending = []

    def _keep_own(self, index: int, graph: Graph) -> None:
        """Remember the own fields of a graph packed whole, where all are plain values (for :meth:`_own`)."""
        own = OWN(graph)
        types = tuple(map(type, own))
        if _PLAIN.issuperset(types):
            self._owns.keep(index, (own, types))

    def _own(self, graph: Graph, content: int) -> bytes:
        """The bytes of a graph whose content is kept at ``content``: none (a reference) when its own
        fields but id and line are those of the graph there, equal and of the same types; else its own
        fields packed."""
        kept = self._owns.get(content)
        if kept is not None:
            own, first = OWN(graph), kept[0]
            # equal, and of the same types (equal values of other types, e.g. True and 1, are another graph):
            # the same objects are both (a copy's own fields are most often its content's graph's objects;
            # kept fields are plain values, each equal to itself)
            if all(map(is_, own, first)) or own == first and tuple(map(type, own)) == kept[1]:
                return b""
        return pack(graph, own=True)

    def __getstate__(self) -> Tuple[Any, ...]:
        """What pickling sends (a store read ahead goes to the parent so): the packed bytes (the graphs kept
        live packed now) and each entry's :data:`IDENTITY` as plain values, not the entry objects; the
        caches of decompressed bytes stay."""
        late = {**self._late, **{index: pack(graph) for index, graph in self._live.items()
                                 if index not in self._refer}}
        return (self._data, self._blocks, self._ends, self._pending, [_IDENTITY(e) for e in self._entries],
                self._digests, late, self._refer)

    def __setstate__(self, state: Tuple[Any, ...]) -> None:
        """The store :meth:`__getstate__` sent, with empty caches (its graphs sent by reference to be
        :meth:`resolve`-d before any is read)."""
        (self._data, self._blocks, self._ends, self._pending, identities, self._digests, self._late,
         self._refer) = state
        self._live = {}
        self._unresolved = bool(self._refer)
        self._pickled = False
        self._cache = [(-1, b""), (-1, b"")]
        self._sources = Memo(SOURCES)
        self._owns = Memo(SOURCES)
        self._entries = [Packed.restored(self, k, identity) for k, identity in enumerate(identities)]

    def digest(self, content: int) -> Optional[bytes]:
        """The digest of the text the graphs of a content were read from, the same for equal texts read
        with the same options into any store (their :data:`~mrp.graph.TEXT_FIELDS` are equal), or None.

        Args:
            content: a content index (:attr:`Packed.content`).

        Returns:
            The digest, or None when the reader gave none.
        """
        return self._digests.get(content)

    def refer(self, serial_of: Callable[[Graph], Optional[int]]) -> None:
        """Pickle the graphs kept live whose content is a template's that the receiving process holds too by
        reference, not packed (a store read ahead by a child forked with the templates of the memo the
        parent reads with): the receiver gets them with :meth:`resolve`.

        Args:
            serial_of: the serial number of the template whose content a graph holds, where the receiver
                holds that template, else None.
        """
        for index, graph in self._live.items():
            serial = serial_of(graph)
            if serial is not None:
                self._refer[index] = serial

    def resolve(self, templates: Mapping[int, Graph]) -> None:
        """Give the graphs this store was sent by reference (:meth:`refer`) their content: that of the
        templates named (then kept live here).

        Args:
            templates: the templates by serial number, as the sending process had them.

        Raises:
            KeyError: a template referred to is not among them.
        """
        for index, serial in self._refer.items():
            self._live[index] = _taking(unpack(self._bytes(index, 1)), templates[serial])
        self._refer = {}
        self._unresolved = False

    def content_of(self, content: int) -> Graph:
        """The graph at a content index, for what its :data:`~mrp.graph.TEXT_FIELDS` say: the graph kept live
        (the store's own: not to be changed), else a new one.

        Args:
            content: a content index (:attr:`Packed.content`).

        Returns:
            The graph.
        """
        live = self._live.get(content)
        return live if live is not None else self[content]

    def entries(self) -> List[Packed]:
        """The packed entries in order (id, framework, flavor, line each, the graph on demand)."""
        return self._entries

    def nbytes(self) -> int:
        """The size of the packed graphs (compressed blocks, and the last block's graphs uncompressed; not
        the graphs kept live)."""
        return len(self._data) + sum(len(data) for data in self._pending) + \
            sum(len(data) for data in self._late.values())

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, index: int) -> Graph: ...

    @overload
    def __getitem__(self, index: slice) -> List[Graph]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Graph, List[Graph]]:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("graph index out of range")
        if self._unresolved:
            raise RuntimeError("a store sent with graphs by reference is read before they are resolved")
        data = self._bytes(index, 0)
        entry = self._entries[index]
        live = self._live.get(entry.content)
        if entry.content == index:
            return unpack(data) if live is None else _with_content(unpack(data), live)
        if not data:  # the graph of its content, with its own id and line
            graph = self._whole(entry.content, live)
            graph.id, graph.line = entry.id, entry.line
            return graph
        if live is not None:
            return _with_content(unpack(data), live)
        return _taking(unpack(data), unpack(self._source(entry.content)))

    def _whole(self, content: int, live: Optional[Graph]) -> Graph:
        """A new graph equal to the one at ``content`` (kept live: ``live``)."""
        if live is None:
            return unpack(self._source(content))
        return _with_content(unpack(self._bytes(content, 1)), live)

    def _source(self, content: int) -> bytes:
        """The bytes packed at ``content``, for a graph that shares that graph's content."""
        data = self._sources.get(content)
        if data is None:
            data = self._sources.keep(content, self._bytes(content, 1))
        return data

    def _bytes(self, index: int, slot: int) -> bytes:
        """The bytes packed at ``index``; ``slot``: the cache of decompressed blocks to use."""
        if self._late:
            late = self._late.get(index)
            if late is not None:
                return late
        block, at = divmod(index, BLOCK)
        if block == len(self._blocks):
            return self._pending[at]
        if self._cache[slot][0] != block:
            start = self._blocks[block - 1] if block else 0
            with memoryview(self._data) as view:
                self._cache[slot] = (block, zlib.decompress(view[start:self._blocks[block]]))
        end = self._ends[index]
        return self._cache[slot][1][(self._ends[index - 1] if at else 0):end]

    def __iter__(self) -> Iterator[Graph]:
        for k in range(len(self)):
            yield self[k]

    def __add__(self, other: Any) -> List[Graph]:
        return list(self) + list(other)

    def __radd__(self, other: Any) -> List[Graph]:
        return list(other) + list(self)


def _taking(graph: Graph, other: Graph) -> Graph:
    """``graph`` (its own fields unpacked) with the :data:`~mrp.graph.TEXT_FIELDS` objects of ``other``."""
    for name in TEXT_FIELDS:
        setattr(graph, name, getattr(other, name))
    return graph


def _with_content(graph: Graph, live: Graph) -> Graph:
    """``graph`` with copies of the :data:`~mrp.graph.TEXT_FIELDS` of a graph kept live (none of its
    objects)."""
    return unshared(_taking(graph, live))


def entries(graphs: Sequence[Graph]) -> Sequence[Entry]:
    """The graphs of a corpus as held: packed entries (nothing unpacked) or the live graphs."""
    return graphs.entries() if isinstance(graphs, PackedGraphs) else graphs


def mapped(graphs: Sequence[Graph], change: Callable[[Graph], Graph]) -> Sequence[Graph]:
    """The graphs changed one by one, kept as they were held (packed or in a list)."""
    if isinstance(graphs, PackedGraphs):
        return PackedGraphs(change(graph) for graph in graphs)
    return [change(graph) for graph in graphs]


def live(entry: Entry) -> Graph:
    """The graph of an entry (unpacked when packed)."""
    return entry.graph() if isinstance(entry, Packed) else entry


def size(entry: Entry) -> int:
    """The number of nodes of an entry's graph (without unpacking it, nor building a graph built when first
    read: ``len`` of a graph is its number of nodes)."""
    return entry.size if isinstance(entry, Packed) else len(entry)
