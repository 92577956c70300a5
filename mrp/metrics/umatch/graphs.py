"""juːmæʧ's view of UMR graphs as mrp reads them (:mod:`mrp.codecs.umr`): each sentence graph with its
variables, branches as written, token alignment and document-level relations."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from copy import copy
from typing import Dict, List, Optional, Sequence, Set, Tuple

from mrp.graph import Edge, Graph
from mrp.metrics.umatch.model import Node, Nodes, Sentence, UmrFile
from mrp.metrics.umatch.reading import unread_alignment
from mrp.metrics.umatch.segments import first_sentence

_OP = re.compile(r":op[0-9]+$")
_TOKEN = re.compile(r"\S+")


class _Roles(Dict[str, str]):
    """A role's relation name (``ARG0`` -> ``:ARG0``), one string per role kept for every sentence (at most
    :data:`LIMIT` roles: made anew beyond)."""

    LIMIT = 10_000

    def __missing__(self, role: str) -> str:
        found = ":" + role
        if len(self) < self.LIMIT:
            self[role] = found
        return found


_ROLES = _Roles()


def _spans(graph: Graph) -> Dict[int, List[int]]:
    """Node id -> the token positions (0-based) its anchors cover in the whitespace tokens of the input (the
    tokens are in order and apart: each anchor's are found by bisection, not by reading them all)."""
    out: Dict[int, List[int]] = {}
    anchored = [node for node in graph.nodes if node.anchors]
    if not anchored:
        return out
    starts: List[int] = []
    ends: List[int] = []
    for match in _TOKEN.finditer(graph.input or ""):
        starts.append(match.start())
        ends.append(match.end())
    for node in anchored:
        found = out.setdefault(node.id, [])
        for start, end in node.anchors or ():
            first = bisect_right(ends, start)  # the first token ending after the anchor starts
            found.extend(range(first, max(first, bisect_left(starts, end))))
    return out


def sentence(graph: Graph, number: int, top: bool = False, tokens: Optional[List[str]] = None,
             compat: bool = False) -> Sentence:
    """A sentence graph (``tokens``: the words to align against, when they are another graph's; ``compat``:
    its alignment lines read as compare_umr.pl reads them, which stops at a line it cannot read: the
    alignments of that line and the later ones, and the document-level relations, left out, the line and
    the reason in ``failure`` as ``LINE: PROBLEM``; and its sections set apart by two empty lines, which
    compare_umr.pl reads as other sentences, left out and named in ``apart``)."""
    words = (graph.input or "").split() if tokens is None else tokens
    out = Sentence(number, graph.line or 0, graph.line or 0, tokens=words)
    if graph.document is not None:
        out.sid = str(graph.document.sentence)
    names = graph.variables or {}
    lost: Set[str] = set()  # variables whose alignment compare_umr.pl does not read
    if compat and graph.document is not None and graph.document.outline:
        own, out.apart_compared = first_sentence(graph.document.outline, graph.line or 0)
        out.apart = [name for line, name in graph.document.outline if name and name not in own]
    if "alignment" in out.apart:
        lost = set(names.values())
    elif compat and graph.document is not None and graph.document.alignment:
        lines = graph.document.alignment
        stop = unread_alignment(lines, set(names.values()))
        if stop is not None:
            out.failure = f"{stop[0]}: {stop[1]}"
            lost = {text.split(":", 1)[0].strip() for number_, text in lines if number_ >= stop[0]}

    def name(node_id: int) -> str:
        return names.get(node_id) or f"n{node_id}"  # a node read without a variable has None

    aligned = _spans(graph)
    layout = graph.layout or {}
    outgoing: Optional[Dict[int, List[Edge]]] = None  # each node's edges in the graph's order, gathered once
    nodes = out.nodes
    restored: Dict[str, Tuple[Tuple[int, ...], str]] = {}  # what mrp reads of the alignments left out
    for node in graph.nodes if "graph" not in out.apart else ():
        relations: List[Tuple[str, str]]
        branches = layout.get(node.id)
        if branches is not None:  # a node is named by its id (an int), a constant by text
            relations = [(_ROLES[role], (names.get(value) or f"n{value}") if isinstance(value, int) else
                          str(value)) for role, value, _ in branches]
        else:
            if outgoing is None:
                outgoing = {}
                for edge in graph.edges:
                    outgoing.setdefault(edge.source, []).append(edge)
            relations = [(_ROLES[p], str(v)) for p, v in zip(node.properties, node.values)]
            relations.extend((_ROLES[edge.label or ""], name(edge.target))
                             for edge in outgoing.get(node.id, ()))
        variable = name(node.id)
        item = Node(variable, node.label if node.label is not None else "", relations)
        found = aligned.get(node.id)
        if found:
            positions = sorted(set(found)) if len(found) > 1 else found
            text = " ".join([words[k] for k in positions if k < len(words)])
            if variable in lost:
                restored[variable] = (tuple(positions), text)
            else:
                item.alignment, item.aligned_text = tuple(positions), text
        nodes[variable] = item
    if graph.tops and out.nodes:
        out.top = name(graph.tops[0])
        if top:
            out.nodes[out.top].relations.append((":TOP", "TOP"))
    for item in out.nodes.values():
        econcept = item.concept
        if econcept == "name":
            ops = sorted((r for r in item.relations if _OP.match(r[0])), key=lambda r: r[0].lower())
            econcept += "[" + " ".join(value for _, value in ops) + "]"
        item.econcept = econcept
    if graph.document is not None:
        every: Dict[str, int] = {}
        for relation in graph.document.relations:
            triple = f"{relation.source} :{relation.label} {relation.target}"
            every[triple] = every.get(triple, 0) + 1
        if out.failure is None and "document" not in out.apart:
            out.docrels = every
        if (out.failure is not None or out.apart) and "graph" not in out.apart:
            out.unread = (restored, every)
    return out


def whole(item: Sentence) -> Sentence:
    """mrp's reading of a sentence (:func:`sentence` without ``compat``) from its compat reading, when that
    read its graph (:attr:`~mrp.metrics.umatch.model.Sentence.unread`): new nodes, their concepts and
    relations shared, every alignment and document-level relation in."""
    assert item.unread is not None
    restored, every = item.unread
    out = copy(item)
    out.nodes = nodes = Nodes()
    for variable, node in item.nodes.items():
        found = restored.get(variable)
        alignment, text = found if found is not None else (node.alignment, node.aligned_text)
        nodes[variable] = Node(variable, node.concept, node.relations, alignment, text, node.econcept)
    old = item.nodes
    if isinstance(old, Nodes) and old.every is not None and len(old.profiles) == len(old):
        # every node's profile made for the compat run: the same pairs, moved to the new nodes
        profiles = nodes.profiles
        for variable, found in old.profiles.items():
            node = old[variable]
            if found.node is not node or found.size != len(node.relations):
                break
            profiles[variable] = found.moved(nodes[variable], nodes)
        else:
            nodes.every = old.every
    out.docrels, out.failure, out.apart, out.apart_compared = every, None, [], False
    out.greedy, out.unread = {}, None
    return out


class Kept:
    """Gold sentences kept from one preparation to the next (a gold file paired with each team's file in
    turn, as mrp-evaluate's processes take a gold file and every team's file for it: read once, not once a
    team), by the gold graph itself (held, so that its identity names it while kept) and how it was read;
    at most ``limit`` nodes (about 2 kB each, with their profiles), the oldest sentences let go first. A
    graph is read as it is when first met: one changed in place afterwards must not be given again while
    kept.

    A sentence given again is the one given before, cleared of what a run left on it (its nodes'
    correspondence, the greedy kept): one preparation uses it at a time (:func:`files` sets its file-wide
    tables)."""

    def __init__(self, limit: int = 20_000) -> None:
        self.limit = limit
        #: per key: the graph, its reading, and (a compat reading's) mrp's reading made from it by
        #: :meth:`whole`, None until made
        self._found: OrderedDict[Tuple[int, int, bool, bool], Tuple[Graph, Sentence, Optional[Sentence]]] = \
            OrderedDict()
        self._nodes = 0
        #: the sentences given since :meth:`release`
        self._given: List[Sentence] = []

    def release(self) -> None:
        """Let the sentences given so far drop what ties them to their preparation (its file-wide tables,
        the greedy kept with another file's sentence): called when that preparation is done with."""
        for item in self._given:
            item.greedy, item.scope, item.source = {}, None, None
        self._given = []

    def sentence(self, graph: Graph, number: int, top: bool, compat: bool) -> Sentence:
        """:func:`sentence` of a gold graph, read once while kept."""
        key = (id(graph), number, top, compat)
        found = self._found.get(key)
        if found is not None and found[0] is graph:
            return self._again(found[1])
        item = sentence(graph, number, top, compat=compat)
        self._given.append(item)
        self._found[key] = (graph, item, None)
        self._grown(len(item.nodes) + 1)
        return item

    def whole(self, graph: Graph, item: Sentence, top: bool) -> Sentence:
        """:func:`whole` of a gold graph's compat reading ``item`` as :meth:`sentence` gave it, made once
        while that reading is kept (else made anew)."""
        key = (id(graph), item.number, top, True)
        found = self._found.get(key)
        if found is None or found[0] is not graph or found[1] is not item:
            return whole(item)
        if found[2] is not None:
            return self._again(found[2])
        made = whole(item)
        self._given.append(made)
        self._found[key] = (graph, item, made)
        self._grown(len(made.nodes))
        return made

    def _again(self, item: Sentence) -> Sentence:
        """A kept sentence given again, cleared of what a run left on it."""
        for node in item.nodes.values():
            node.clear()
        item.greedy = {}
        self._given.append(item)
        return item

    def _grown(self, nodes: int) -> None:
        """Count ``nodes`` more kept, and let the oldest sentences go while beyond the limit."""
        self._nodes += nodes
        while self._nodes > self.limit and self._found:
            _, item, made = self._found.popitem(last=False)[1]  # no scan of those popped
            self._nodes -= len(item.nodes) + 1 + (len(made.nodes) if made is not None else 0)


def files(pairs: Sequence[Tuple[Graph, Graph]], top: bool = False, compat: bool = False,
          like: Optional[Tuple[UmrFile, UmrFile]] = None, kept: Optional[Kept] = None
          ) -> Tuple[UmrFile, UmrFile, List[Tuple[Graph, str]]]:
    """The gold and the system side of paired graphs as two files of corresponding sentences (an empty
    system graph aligns against the gold words; ``compat``: alignment lines read as compare_umr.pl reads
    them, see :func:`sentence`), and notes on pairs whose words differ.

    ``like``: the two files of the same pairs prepared by compare_umr.pl's reading (``compat``), for the
    exact reading: each of their sentences that reading read whole (no alignment line it stopped at, no
    section it set apart) is read alike by both, and is taken from them (its nodes shared, their profiles
    kept; the greedy correspondence a compat run kept on a pair of them with it: :func:`.links.remember`)
    instead of being read again. ``kept``: the gold sentences kept between preparations (None: each read).
    """
    gold, system = UmrFile("GOLD", "gold"), UmrFile("SYSTEM", "system")
    notes: List[Tuple[Graph, str]] = []
    files_of: List[Optional[str]] = []
    for number, (mine, theirs) in enumerate(pairs, 1):
        old0 = old1 = None
        if like is not None and not compat:
            old0, old1 = like[0].sentences[number - 1], like[1].sentences[number - 1]
            old0 = old0 if old0.failure is None and not old0.apart else None
            old1 = old1 if old1.failure is None and not old1.apart else None
        derived = [item if item is not None and item.unread is not None else None for item in
                   ((like[0].sentences[number - 1], like[1].sentences[number - 1])
                    if like is not None and not compat else (None, None))]
        if old0 is not None:
            first = _again(old0)
        elif derived[0] is not None:  # what compare_umr.pl's reading left out put back, not read again
            first = whole(derived[0]) if kept is None else kept.whole(mine, derived[0], top)
        else:
            first = sentence(mine, number, top, compat=compat) if kept is None else \
                kept.sentence(mine, number, top, compat)
        words = None if theirs.nodes else first.tokens
        if old1 is None and derived[1] is None:
            second = sentence(theirs, number, top, words, compat)
            differ = second.tokens != first.tokens
        else:
            second = _again(old1) if old1 is not None else whole(derived[1])  # type: ignore[arg-type]
            differ = words is None and (theirs.input or "").split() != first.tokens
        if differ:
            notes.append((mine, "the system's words differ from the gold words (aligned against the gold's)"))
            second.tokens = first.tokens
        if old0 is not None and old1 is not None:
            for made, (other, links, ambiguous) in old0.greedy.items():
                if other is old1:
                    first.greedy[made] = (second, links, ambiguous)
        for umr, item, graph in ((gold, first, mine), (system, second, mine)):
            umr.sentences.append(item)
            item.document = hash(graph.document.document) if graph.document is not None else number
        files_of.append(_source(mine))
    for umr in (gold, system):
        scopes: Dict[int, Dict[str, Node]] = {}
        sources: Dict[Optional[str], Dict[str, Node]] = {}
        for item, key in zip(umr.sentences, files_of):
            scope = scopes.setdefault(item.document, {})
            scope.update(item.nodes)
            item.scope = scope
            source = sources.setdefault(key, {})
            source.update(item.nodes)
            item.source = source
            umr.nodes.update(item.nodes)
    return gold, system, notes


def _again(item: Sentence) -> Sentence:
    """A sentence of another preparation of the same graph, for this one: its nodes (and their profiles)
    shared, its own file-wide tables and no greedy kept yet (:func:`files` sets them)."""
    out = copy(item)
    out.greedy = {}
    return out


def _source(graph: Graph) -> Optional[str]:
    """The file a graph came from when a directory of files was read as one corpus (its document id is
    then ``FILE/dK``), else None."""
    if graph.document is None or "/" not in graph.document.document:
        return None
    return graph.document.document.rsplit("/", 1)[0]
