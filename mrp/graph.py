"""The one anchored graph model that every codec reads into and writes from.

A :class:`Graph` holds the MRP 2019/2020 graph fields; :class:`Node` and
:class:`Edge` are slotted so that a corpus of 100k graphs stays small in memory.
Node ids are arbitrary integers (they need not be ``0..n-1``); edges and tops
refer to nodes by id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import AbstractSet, Any, Dict, Iterator, List, Optional, Tuple

Anchor = Tuple[int, int]
#: One branch of a node as a Penman file writes it: the role as written (``ARG0-of`` for an
#: inverted edge), the target (a node id, or the constant), and whether the branch holds the
#: target node's definition (``:ARG0 (d / dog)``) rather than a reference (``:ARG0 d``).
Branch = Tuple[str, Any, bool]

#: Default flavor per framework: 0 bilexical, 1 anchored, 2 unanchored.
FLAVORS: Dict[str, int] = {
    "dm": 0,
    "psd": 0,
    "pas": 0,
    "ccd": 0,
    "ud": 0,
    "eud": 0,
    "eds": 1,
    "ucca": 1,
    "ptg": 1,
    "amr": 2,
    "drg": 2,
    "umr": 2,
}

#: Frameworks the scorers and codecs know by name.
FRAMEWORKS = ("amr", "dm", "eds", "psd", "ucca", "ptg", "drg", "umr", "ud", "eud", "ccd", "pas")


def default_flavor(framework: Optional[str]) -> Optional[int]:
    """The MRP flavor of a framework, or None for an unknown framework."""
    return FLAVORS.get(framework) if framework is not None else None


@dataclass(slots=True)
class Node:
    """A node: its id, optional label, properties with values in order, and anchors.

    ``anchors`` is None for an unanchored node and a list of half-open
    ``(start, end)`` character spans into the graph's input otherwise.
    ``anchorings`` (MRP 2020, per-property anchors) is kept as read and never scored.
    """

    id: int
    label: Optional[str] = None
    properties: List[str] = field(default_factory=list)
    values: List[Any] = field(default_factory=list)
    anchors: Optional[List[Anchor]] = None
    anchorings: Optional[List[Any]] = None


@dataclass(slots=True)
class Edge:
    """A directed, optionally labelled edge between two node ids.

    ``normal`` names the label of the edge in its normal (non-inverted)
    direction, as the MRP AMR data do for inverted roles.  ``attributes`` and
    ``values`` are parallel lists.  ``legacy`` remembers that the file used the
    old key ``properties`` for the attributes, so that writing reproduces it.
    """

    source: int
    target: int
    label: Optional[str] = None
    normal: Optional[str] = None
    attributes: List[str] = field(default_factory=list)
    values: List[Any] = field(default_factory=list)
    id: Optional[int] = None
    anchors: Optional[List[Anchor]] = None
    legacy: bool = False


@dataclass(slots=True)
class Relation:
    """A UMR document-level relation ``(source :label target)`` from the ``kind`` list of a sentence.

    ``kind`` is ``temporal``, ``modal`` or ``coref``; ``source`` and ``target``
    are Penman variables of this or an earlier sentence of the document, or
    special nodes (``author``, ``root``, ``document-creation-time``, ...).
    """

    kind: str
    source: str
    label: str
    target: str


@dataclass(slots=True)
class Placement:
    """Where a sentence graph sits in its document, and the document-level annotation it carries (UMR).

    ``document``: the document id; ``sentence``: the sentence number in the
    document (``# :: sntN``); ``variable``: the variable of the sentence's
    document-level node (``s3s0``), None when the file has no annotation for
    it; ``relations``: its document-level relations in file order; ``info``:
    the sentence-information lines other than ``# :: sntN``, ``Index:`` and
    ``Words:`` (meta-info, morphemes, glosses, translations), kept verbatim;
    ``alignment``: the alignment block's lines as written (line number, text),
    for a reading by another tool's rules (compare_umr.pl's, under
    ``--umatch-compat``); not compared by ``==``, the nodes' anchors being what
    mrp reads of them; ``outline``: the sentence block's empty lines (``""``) and
    section headers (``graph``, ``alignment``, ``document``) by line number,
    for the same reading (compare_umr.pl ends a sentence at two empty lines).
    """

    document: str
    sentence: int
    variable: Optional[str] = None
    relations: List[Relation] = field(default_factory=list)
    info: List[str] = field(default_factory=list)
    alignment: List[Tuple[int, str]] = field(default_factory=list, compare=False)
    outline: List[Tuple[int, str]] = field(default_factory=list, compare=False)


@dataclass(slots=True)
class Graph:
    """A meaning representation graph in the MRP model.

    Optional top-level fields are None when absent; ``flavor`` defaults from the
    framework (dm/psd 0, eds/ucca 1, amr 2) when not given.
    """

    id: str
    framework: Optional[str] = None
    flavor: Optional[int] = None
    input: Optional[str] = None
    language: Optional[str] = None
    time: Optional[str] = None
    source: Optional[str] = None
    provenance: Optional[str] = None
    targets: Optional[List[str]] = None
    version: Optional[Any] = None
    tops: List[int] = field(default_factory=list)
    nodes: List[Node] = field(default_factory=list)
    edges: List[Edge] = field(default_factory=list)
    #: the line of its file where the graph starts (not part of the MRP format)
    line: Optional[int] = None
    #: node id -> Penman variable, when the file named them (UMR; never scored)
    variables: Optional[Dict[int, str]] = None
    #: the graph's document and its document-level annotation (UMR; not scored by the MRP metric)
    document: Optional[Placement] = None
    #: how a Penman file wrote the graph: each node id's branches in order (not part of the MRP format)
    layout: Optional[Dict[int, List[Branch]]] = field(default=None, compare=False, repr=False)
    #: how a Penman file spaced some roles: the k-th role written (counted in the text) -> the whitespace
    #: after its name, where that does not start with a space (a line break, a tab); None when none does
    #: (not part of the MRP format; AnCast's reader depends on it)
    breaks: Optional[Dict[int, str]] = field(default=None, compare=False, repr=False)
    #: what the reader repaired to read the graph, as the established tools do silently (not part
    #: of the MRP format; None when nothing was repaired)
    repairs: Optional[List[str]] = field(default=None, compare=False)
    #: how a Penman file wrote the graph: its comment lines, its text and a digest of the graph as read
    #: (mrp.codecs.penman.keep: written again as it was while the graph is unchanged; not part of the MRP
    #: format)
    written: Optional[Any] = field(default=None, compare=False, repr=False)
    #: the id :func:`mrp.read` gave a graph whose input wrote none (its position in the file); while ``id``
    #: equals it, the library pairs the graph by its position in the list it is given, as text without
    #: ids pairs (not part of the MRP format)
    assigned_id: Optional[str] = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.flavor is None:
            self.flavor = default_flavor(self.framework)

    def node(self, node_id: int) -> Optional[Node]:
        """The node with this id, or None."""
        for node in self.nodes:
            if node.id == node_id:
                return node
        return None

    def node_ids(self) -> List[int]:
        """Node ids in list order."""
        return [node.id for node in self.nodes]

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def empty_copy(self) -> Graph:
        """A graph with the same identity (id, framework, flavor) and no content."""
        return Graph(id=self.id, framework=self.framework, flavor=self.flavor)


#: the fields of a Graph that say where it was read, not what it is (left out of :func:`fingerprint`)
PLACE_FIELDS = frozenset({"line"})

#: the fields of a Graph that a Penman reader derives from the graph's text alone (with the read options):
#: graphs read from the same text may share these objects while a corpus packs them
#: (:mod:`mrp.codecs.repeats`, :mod:`mrp.corpora.packed`); every other field is the graph's own
TEXT_FIELDS = ("tops", "nodes", "edges", "layout", "variables", "breaks")


def fingerprint(graph: Graph) -> Tuple[Any, ...]:
    """Everything a metric can see of a graph (not where it was read), as one hashable value.

    Every field of the graph, at every depth (nodes, edges, variables, the document-level annotation, the
    Penman layout and line breaks, repairs; a field added later too) except :data:`PLACE_FIELDS`, each
    value with its type (``"1"``, ``1``, ``1.0`` and ``true`` stay apart): two graphs with the same
    fingerprint are scored alike by every metric, so a result can be reused (leaderboards, checkpoints).
    """
    return _frozen(graph)


def _frozen(value: Any) -> Any:
    """A hashable value standing for ``value`` and everything inside it, with the types."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__,) + tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return ("{}",) + tuple((_frozen(k), _frozen(v)) for k, v in value.items())
    if isinstance(value, (set, frozenset)):
        return ("set",) + tuple(sorted((_frozen(v) for v in value), key=repr))  # repr: the same in every run
    fields = getattr(type(value), "__dataclass_fields__", None)
    if fields is not None:
        return (type(value).__name__,) + tuple((name, _frozen(getattr(value, name))) for name in fields
                                               if not (isinstance(value, Graph) and name in PLACE_FIELDS))
    try:
        hash(value)
    except TypeError:
        return (type(value).__name__, repr(value))
    # True == 1 == 1.0 and hash alike: the type keeps "1", 1, 1.0 and true apart
    return (type(value).__name__, value)


def check_references(graph: Graph) -> Optional[str]:
    """A message naming the first broken reference (duplicate node, dangling top or edge), or None."""
    for _, _, message in reference_problems(graph):
        if message is not None:
            return message
    return None


#: A structural problem: (where, message, the reader's message or None when the reader accepts it).
Reference = Tuple[str, str, Optional[str]]


def reference_problems(graph: Graph, unread: AbstractSet[int] = frozenset()) -> Iterator[Reference]:
    """Every broken reference: duplicate node ids, tops and edge ends naming no node, a top listed twice.

    ``where`` is ``node N``, ``top N`` or ``edge K`` (K counts the edges from 0).  ``unread``: ids of
    nodes that a reader left out for a problem of their own (references to them are not problems again).
    """
    position: Dict[int, int] = {}
    for k, node in enumerate(graph.nodes):
        if node.id in position:
            yield (f"node {node.id}", f"duplicate node id (nodes[{position[node.id]}] and nodes[{k}])",
                   f"duplicate node id {node.id}")
        else:
            position[node.id] = k
    listed: set = set()
    for top in graph.tops:
        if top not in position:
            if top not in unread:
                yield f"top {top}", "names no node", f"top {top} names no node"
        elif top in listed:
            yield f"top {top}", "listed twice", None
        listed.add(top)
    for k, edge in enumerate(graph.edges):
        for end, nid in (("source", edge.source), ("target", edge.target)):
            if nid not in position and nid not in unread:
                yield (f"edge {k}", f"{end} {nid} names no node",
                       f"edge {k} ({edge.source} -> {edge.target}): {end} {nid} names no node")


def length_problems(graph: Graph) -> Iterator[Reference]:
    """Properties and values (nodes), attributes and values (edges) of different lengths."""
    for node in graph.nodes:
        if len(node.properties) != len(node.values):
            where = f"node {node.id}"
            yield _mismatch(where, len(node.properties), len(node.values), "property", "properties")
    for k, edge in enumerate(graph.edges):
        if len(edge.attributes) != len(edge.values):
            noun, nouns = ("property", "properties") if edge.legacy else ("attribute", "attributes")
            yield _mismatch(f"edge {k}", len(edge.attributes), len(edge.values), noun, nouns)


def _mismatch(where: str, names: int, values: int, noun: str, nouns: str) -> Reference:
    """``has 2 property names but 1 value`` (and the reader's wording)."""
    text = f"has {names} {noun} name{'s' if names != 1 else ''} but {values} value"
    text += "s" if values != 1 else ""
    return where, text, f"{where}: has {names} {nouns} but {values} values"
