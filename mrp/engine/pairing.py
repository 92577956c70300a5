"""Pairing gold and system graphs by (framework, id)."""

from __future__ import annotations

import difflib
import warnings
from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

from mrp.codecs.generated import merged, reading_counts
from mrp.corpora import Corpus, Entry, Packed, PackedGraphs, entries, live, size
from mrp.engine.files import by_file
from mrp.errors import FormatError, InputError, MRPWarning
from mrp.graph import Graph

Key = Tuple[Optional[str], str]

#: the pairing counts every result carries, whatever the metric (JSON keys, in this order)
COUNTS = ("invalid", "unpaired", "duplicates", "repaired", "missing")


class PairingWarning(MRPWarning):
    """Gold graphs without a system graph, or system graphs without a gold graph, or repeated ones: the
    figures are over the gold graphs, each missing one scored as an empty graph (one warning a pairing)."""


class Pair:
    """A gold graph and its system graph (an empty graph when the system has none).

    Either graph may be held packed (:class:`~mrp.corpora.packed.Packed`, from a large corpus): ``gold`` and
    ``system`` then unpack it on each access; :meth:`live` gives the pair with both unpacked once.
    """

    __slots__ = ("gold_entry", "system_entry", "null")

    def __init__(self, gold: Entry, system: Entry, null: bool) -> None:
        self.gold_entry, self.system_entry, self.null = gold, system, null

    @property
    def gold(self) -> Graph:
        """The gold graph."""
        return live(self.gold_entry)

    @property
    def system(self) -> Graph:
        """The system graph."""
        return live(self.system_entry)

    def live(self) -> Pair:
        """This pair with both graphs unpacked (itself when neither is packed)."""
        if isinstance(self.gold_entry, Packed) or isinstance(self.system_entry, Packed):
            return Pair(self.gold, self.system, self.null)
        return self

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, Pair):
            return NotImplemented
        return (self.gold, self.system, self.null) == (other.gold, other.system, other.null)

    def __repr__(self) -> str:
        return f"Pair(gold={self.gold!r}, system={self.system!r}, null={self.null!r})"


@dataclass
class Pairing:
    """Pairs in gold file order, and what could not be paired (each counted and reported)."""

    pairs: List[Pair] = field(default_factory=list)
    #: system graphs not scored (as held: id, framework and line without unpacking)
    unpaired: List[Entry] = field(default_factory=list)
    duplicates: List[Entry] = field(default_factory=list)
    invalid: List[FormatError] = field(default_factory=list)
    #: system graphs that their reader repaired (scored as repaired)
    repaired: int = 0
    #: what the user must be told about how the graphs were paired (one line each)
    notes: List[str] = field(default_factory=list)
    #: gold graphs that no system graph (readable or not) answers: each scored against an empty graph
    missing: List[Entry] = field(default_factory=list)
    #: unreadable system graphs whose id is unknown (each may be the one a missing gold graph lacks)
    unidentified: int = 0
    #: paired by position over ids (``by_position``): how many system ids differ from their gold graph's
    #: (None: not paired by position over ids)
    ids_differ: Optional[int] = None
    #: the figures of reading a language model's responses (mrp.codecs.generated.reading_counts), or None
    generated: Optional[Dict[str, Any]] = None
    #: the names of the gold and the system corpus (messages about a graph name its file)
    names: Tuple[str, str] = ("gold", "system")

    def counts(self) -> Dict[str, Any]:
        """The pairing counts (:data:`COUNTS`): gold graphs without a system graph (``missing``; less the
        unreadable system graphs of unknown id, any of which may be the one a gold graph lacks), system
        graphs without a gold graph (``unpaired``), repeated system ids (``duplicates``), unreadable system
        graphs (``invalid``, scored as empty) and repaired ones; then, for a system read as a language
        model's responses, ``generated``: the figures of that reading."""
        missing = max(0, len(self.missing) - self.unidentified)  # an unreadable graph may be a missing one
        found = {"missing": missing, "unpaired": len(self.unpaired),
                 "duplicates": len(self.duplicates), "invalid": len(self.invalid), "repaired": self.repaired}
        counted: Dict[str, Any] = {name: found[name] for name in COUNTS}
        if self.generated is not None:
            counted["generated"] = self.generated
        return counted

    def answered(self) -> int:
        """The gold graphs that a system graph (readable or not) answers."""
        return len(self.pairs) - len(self.missing)

    def extend(self, other: Pairing) -> None:
        """Add another pairing's pairs and counts (a batch of the same run) to this one."""
        self.pairs.extend(other.pairs)
        self.unpaired.extend(other.unpaired)
        self.duplicates.extend(other.duplicates)
        self.invalid.extend(other.invalid)
        self.missing.extend(other.missing)
        self.unidentified += other.unidentified
        self.repaired += other.repaired
        self.notes.extend(other.notes)
        if other.ids_differ is not None:
            self.ids_differ = (self.ids_differ or 0) + other.ids_differ
        self.generated = merged(self.generated, other.generated)
        if self.names == Pairing.names:  # joined batches are named by the first named
            self.names = other.names


def described(counts: Mapping[str, int], gold: Optional[int] = None) -> Optional[str]:
    """The pairing counts that need a word, as one phrase (None when every gold graph has its system graph
    and every system graph its gold graph); ``gold``: the number of gold graphs, for "K of N"."""
    parts = []
    if counts.get("missing"):
        of = f" of {gold}" if gold is not None else ""
        parts.append(f"{counts['missing']}{of} gold graph(s) without a system graph (each scored against an "
                     "empty graph)")
    if counts.get("unpaired"):
        parts.append(f"{counts['unpaired']} system graph(s) without a gold graph (not scored)")
    if counts.get("duplicates"):
        parts.append(f"{counts['duplicates']} system graph(s) repeating an id (not scored)")
    return "; ".join(parts) or None


def key(graph: Entry) -> Key:
    """The pairing key of a graph (live or packed)."""
    return (graph.framework, graph.id)


def duplicate_errors(corpus: Corpus) -> List[FormatError]:
    """One error for each graph whose (framework, id) occurred earlier in the same file."""
    first: Dict[Key, Entry] = {}
    errors = []
    for graph in entries(corpus.graphs):
        k = key(graph)
        if k in first:
            where = f" (first at line {first[k].line})" if first[k].line else ""
            errors.append(FormatError(f"duplicate graph id{where}", corpus.name, graph.line, graph.id,
                                      graph.framework))
        else:
            first[k] = graph
    return errors


def positional(corpus: Corpus) -> bool:
    """True when the graphs of a file have no ids of their own (readers then number them 0, 1, ...)."""
    ids = [graph.id for graph in entries(corpus.graphs)] + [error.graph_id for error in corpus.errors]
    return bool(ids) and set(ids) == {str(k) for k in range(len(ids))}


def _sentence(graph: Graph) -> str:
    return " ".join((graph.input or "").split())


def _by_sentence(gold: Corpus, system: Corpus, notes: List[str]) -> Corpus:
    """The system corpus with each graph renamed to the gold graph of the same sentence (in order)."""
    ours = [_sentence(graph) for graph in gold.graphs]
    theirs = [_sentence(graph) for graph in system.graphs]
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    renamed = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            renamed[block.b + k] = entries(gold.graphs)[block.a + k].id
    graphs = []
    for k, graph in enumerate(system.graphs):
        if k in renamed:
            graphs.append(replace(graph, id=renamed[k]))
        else:
            graphs.append(replace(graph, id=f"unmatched-{k}"))
    moved = sum(1 for k, gid in renamed.items() if gid != entries(system.graphs)[k].id)
    notes.append(f"{system.name}: graphs have no ids; paired with {gold.name} by their sentences (::snt): "
                 f"{len(renamed)} of {len(gold.graphs)} gold graphs found, {moved} not at their position")
    return Corpus(system.name, system.format, graphs, [])


def _documents(corpus: Corpus) -> Dict[str, Set[Tuple[int, str]]]:
    """The (sentence number, sentence) pairs of each document of a file of documents (UMR), or {} when its
    graphs do not sit in documents."""
    documents: Dict[str, Set[Tuple[int, str]]] = {}
    for entry in entries(corpus.graphs):
        graph = live(entry)
        if graph.document is None:
            return {}
        documents.setdefault(graph.document.document, set()).add((graph.document.sentence, _sentence(graph)))
    return documents


def _by_document(gold: Corpus, system: Corpus, notes: List[str]) -> Corpus:
    """The system corpus with each document renamed to the gold document that shares the most sentences
    with it (one to one), so that sentences pair by (document, sentence) whatever the order of the documents
    or the sentences missing; a document that shares none keeps apart (its sentences are unpaired)."""
    ours, theirs = _documents(gold), _documents(system)
    if not ours or not theirs:
        return system
    order = {name: k for k, name in enumerate(ours)}
    candidates = sorted(((len(mine & found), -order[name], -k, name, other)
                         for k, (other, found) in enumerate(theirs.items())
                         for name, mine in ours.items() if mine & found), reverse=True)
    renamed: Dict[str, str] = {}
    for _, _, _, name, other in candidates:
        if other not in renamed and name not in renamed.values():
            renamed[other] = name
    for other in theirs:
        renamed.setdefault(other, f"{other}-unmatched")
    if all(other == name for other, name in renamed.items()):
        return system

    def moved(gid: Optional[str]) -> Optional[str]:
        # the longest document name that the id starts with (a file's name before it may hold dots)
        for document in sorted(renamed, key=len, reverse=True):
            if (gid or "").startswith(document + "."):
                return f"{renamed[document]}{(gid or '')[len(document):]}"
        return gid

    graphs = []
    for entry in entries(system.graphs):
        graph = live(entry)
        assert graph.document is not None
        placement = replace(graph.document, document=renamed[graph.document.document])
        graphs.append(replace(graph, id=moved(graph.id) or graph.id, document=placement))
    errors = [FormatError(error.message, error.file, error.line, moved(error.graph_id), error.framework)
              for error in system.errors]
    changes = ", ".join(f"{other} as {name}" for other, name in renamed.items() if other != name)
    notes.append(f"{system.name}: documents paired with {gold.name}'s by their sentences: {changes}")
    return Corpus(system.name, system.format, graphs, errors, list(system.repaired))


def _positions(gold: Corpus, system: Corpus, by_position: bool, notes: List[str]) -> Corpus:
    """The system corpus to pair with ``gold`` when neither file gives ids; InputError when pairing by
    position would misalign the graphs and the user did not ask for it."""
    n, m = len(gold.graphs) + len(gold.errors), len(system.graphs) + len(system.errors)
    if n == m:
        return system
    if by_position:
        notes.append(f"{gold.name} has {n} graphs and {system.name} {m}, without ids: paired by position "
                     "(--positional); pairs after a missing graph may be misaligned")
        return system
    if all(_sentence(graph) for graph in [*gold.graphs, *system.graphs]) and not system.errors:
        return _by_sentence(gold, system, notes)
    raise InputError(f"{gold.name} has {n} graphs and {system.name} {m}, and neither gives graph ids "
                     "(# ::id): pairing by position would pair every graph after a missing one with "
                     "the wrong gold graph; add ids, or pass --positional to pair by position anyway")


def _in_order(corpus: Corpus) -> List[Tuple[Optional[str], Optional[str], Any]]:
    """(framework, id, graph or error) of a file's graphs and unreadable graphs, in file order."""
    items: List[Tuple[int, int, Optional[str], Optional[str], Any]] = [
        (entry.line or 0, k, entry.framework, entry.id, entry)
        for k, entry in enumerate(entries(corpus.graphs))]
    items += [(error.line or 0, len(items) + k, error.framework, error.graph_id, error)
              for k, error in enumerate(corpus.errors)]
    return [item[2:] for item in sorted(items, key=lambda item: item[:2])]


def _over_ids(gold: Corpus, system: Corpus, result: Pairing) -> Corpus:
    """The system corpus with the k-th graph (read or not) given the id of the k-th gold graph: pairing by
    position (``--positional``) where a file has ids of its own; InputError when the files hold different
    numbers of graphs (position would pair every graph after a missing one with the wrong gold graph)."""
    ours, theirs = _in_order(gold), _in_order(system)
    if len(ours) != len(theirs):
        raise InputError(f"{gold.name} has {len(ours)} graphs and {system.name} {len(theirs)}: pairing by "
                         "position (--positional) needs as many graphs on both sides (pair by ids without "
                         "--positional)")
    own = not positional(gold) and not positional(system)  # ids a reader numbered disagree with nothing
    result.ids_differ = sum(mine[1] != other[1] for mine, other in zip(ours, theirs)) if own else 0
    if result.ids_differ:
        result.notes.append(f"{system.name}: paired with {gold.name} by position (--positional): "
                            f"{result.ids_differ} of {len(ours)} graph ids differ")
    graphs: List[Graph] = []
    errors: List[FormatError] = []
    for (framework, gid, _), (_, _, item) in zip(ours, theirs):
        if isinstance(item, FormatError):
            errors.append(FormatError(item.message, item.file, item.line, gid, item.framework or framework))
        else:
            graph = live(item)
            graphs.append(graph if gid is None or graph.id == gid else replace(graph, id=gid))
    held = PackedGraphs(graphs) if isinstance(system.graphs, PackedGraphs) else graphs
    return Corpus(system.name, system.format, held, errors, list(system.repaired))


def pair(gold: Corpus, system: Corpus, frameworks: Optional[Sequence[str]] = None,
         by_position: bool = False) -> Pairing:
    """Pair a valid gold corpus with a system corpus.

    A system graph that could not be read but whose id is known stands as an
    empty graph (it scores zero and is counted in ``invalid``); a gold graph
    without a system graph is paired with an empty graph (``null``).  When
    neither file gives ids, graphs pair
    by position when the files hold as many graphs (or ``by_position`` says
    so), else by their sentences where both sides carry them, and otherwise
    not at all (InputError).  With ``by_position``, files that give ids pair by
    position too (the k-th system graph answers the k-th gold graph, whatever
    its id; ``ids_differ`` counts the ids that disagree), and are refused
    (InputError) only when they hold different numbers of graphs.
    """
    keep = set(frameworks) if frameworks else None
    result = Pairing(repaired=len(system.repaired), names=(gold.name, system.name))
    if system.format == "generated":
        result.generated = reading_counts(len(system.graphs), [r.repairs for r in system.repaired],
                                          system.errors)
    gold_positional = positional(gold)
    if gold_positional and positional(system):
        system = _positions(gold, system, by_position, result.notes)
    elif by_position:
        system = _over_ids(gold, system, result)
    else:
        system = _by_document(gold, by_file(gold, system, result.notes), result.notes)
    golds = [g for g in entries(gold.graphs) if keep is None or g.framework in keep]
    gold_keys = {key(g) for g in golds}
    by_key: Dict[Key, Entry] = {}
    for graph in entries(system.graphs):
        if keep is not None and graph.framework not in keep:
            continue
        k = key(graph)
        if k in by_key:
            result.duplicates.append(graph)
        elif k not in gold_keys:
            result.unpaired.append(graph)
        else:
            by_key[k] = graph
    for error in system.errors:
        if keep is not None and error.framework is not None and error.framework not in keep:
            continue
        result.invalid.append(error)
    unreadable = {(error.framework, error.graph_id) for error in result.invalid}
    # ids a reader gave by position (a file without ids) identify no graph either
    numbered = not gold_positional and positional(system)
    result.unidentified = sum(error.graph_id is None or numbered for error in result.invalid)
    for graph in golds:
        partner = by_key.get(key(graph))
        if partner is None:
            result.pairs.append(Pair(graph, graph.empty_copy(), True))
            if key(graph) not in unreadable and (None, graph.id) not in unreadable:
                result.missing.append(graph)
        else:
            result.pairs.append(Pair(graph, partner, _empty(partner)))
    told = described(result.counts(), len(result.pairs))
    if told is not None:
        warnings.warn(f"{system.name}: paired with {gold.name}: {told}", PairingWarning, stacklevel=2)
    return result


def _empty(graph: Entry) -> bool:
    """True for a graph without nodes."""
    return size(graph) == 0
