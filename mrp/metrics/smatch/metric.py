"""SMATCH's metric: its triples of a pair (either definition, :mod:`mrp.metrics.smatch`), the exact
alignment, and its report."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Dict, Hashable, List, Optional, Sequence, Tuple

import numpy as np

from mrp.codecs.penman import scanned_root, unbuilt, unscanned
from mrp.corpora import Entry, Packed, live
from mrp.engine import (
    ACCOUNTING,
    CONTENT_KEPT,
    DOC_ALIGN,
    EXACT,
    FIGURES,
    SCORES,
    SEARCH,
    TIME,
    ContentMemo,
    LabelCounts,
    Metric,
    N,
    Options,
    Pair,
    PairCounts,
    Pairing,
    Parameter,
    Run,
    doc_align_field,
    doc_align_report,
    prf,
    score_together,
    triple_detail,
)
from mrp.engine import CountPath as Path
from mrp.graph import Graph
from mrp.memo import ByObject
from mrp.metrics.mrp.large import beyond, triple_graph
from mrp.metrics.mrp.pair import seeding, sentence_groups
from mrp.metrics.smatch.coded import Coder
from mrp.metrics.smatch.errors import differences
from mrp.metrics.smatch.held import Held, coded_held, held, plain_held
from mrp.metrics.smatch.items import filled, matched, most, most_copies, pair_counts  # noqa: F401
from mrp.metrics.smatch.penman import NOT_INVERTED, Local, Relations, norm, penman_triples  # noqa: F401
from mrp.metrics.smatch.smatchpp import SMATCHPP_COMPAT, check_compat, smatchpp_status, smatchpp_triples
from mrp.metrics.smatch.together import Together
from mrp.normalize import normalize
from mrp.solver import Interned, Solution, from_triples, solve_within
from mrp.solver import fits_memory as fits
from mrp.solver import unmapped_across as unmapped


def mrp_triples(graph: Graph) -> Tuple[Local, Relations, int]:
    """Triples of a graph as the MRP reference scorer converts graphs for SMATCH (faithful TOP)."""
    normal = normalize(graph)
    local: Local = [Counter() for _ in range(len(normal))]
    for k in range(len(normal)):
        label = normal.labels[k]
        if label is not None:
            local[k][("instance", norm(label))] = 1
        if normal.anchors[k] is not None:
            local[k][("anchor", normal.anchors[k])] = 1
        if normal.tops[k]:
            local[k][("TOP", norm(label) if label else "")] = 1
        for name, value in normal.properties[k]:
            local[k][(norm(name), norm(value))] = 1
    relations: Relations = Counter()
    for (a, b, label), attributes in normal.edges.items():
        relations[(a, b, norm(label) if label is not None else None)] = 1
        for attribute in attributes:
            relations[(a, b, ("attribute",) + attribute)] = 1
    total = sum(len(triples) for triples in local) + len(relations)
    return local, relations, total


def triples(graph: Graph, options: Options) -> Tuple[Local, Relations, int]:
    """The triples of a graph under the options: Smatch++'s with ``smatchpp_compat``, the original tool's
    for Penman input, else mtool's."""
    if options.smatchpp_compat:
        return smatchpp_triples(graph, options.smatchpp_compat)
    return penman_triples(graph, options.smatch_compat) if options.penman else mrp_triples(graph)


def label_counts(made: Tuple[Local, Relations, int]) -> LabelCounts:
    """A graph's label-only triples (of its :func:`triples`), each with (copies summed, largest copy count),
    and its triple count."""
    local, relations, total = made
    out: Dict[Hashable, List[int]] = {}
    for node in local:
        for key, copies in node.items():
            entry = out.setdefault(("node", key), [0, 0])
            entry[0] += copies
            entry[1] = max(entry[1], copies)
    for (_, _, label), copies in relations.items():
        entry = out.setdefault(("edge", label), [0, 0])
        entry[0] += copies
        entry[1] = max(entry[1], copies)
    return {key: (value[0], value[1]) for key, value in out.items()}, total


def score_pair(gold: Graph, system: Graph, options: Optional[Options] = None,
               made: Optional[Tuple[Triples, Triples]] = None) -> Dict[str, Any]:
    """SMATCH counts of one pair: g, s, c, and whether c is proved optimal (with its bound).

    With ``options.errors`` the item also holds ``differences`` (see :func:`differences`).  ``made``: the
    two graphs' triples under the options, when the caller has them.
    """
    options = options or Options()
    tg, ts = made if made is not None else (triples(gold, options), triples(system, options))
    wanted = options.errors or options.explain
    item = score_triples(gold.id, tg, ts, options, mapping=wanted, graphs=(gold, system))
    if wanted:
        mapping = item.pop("mapping", None) or [-1] * len(tg[0])
        if options.errors:
            item["differences"] = differences(gold, system, mapping, tg, ts)
        if options.explain:
            item["detail"] = triple_detail(gold.node_ids(), system.node_ids(), tg[:2], ts[:2], mapping,
                                           "SMATCH's triples", (gold.input, system.input))
    return item


Triples = Tuple[Local, Relations, int]


def _at_once(gold: Triples, system: Triples, groups: Optional[Tuple[np.ndarray, np.ndarray]],
             options: Options, mapping: bool) -> Optional[Dict[str, Any]]:
    """The item of a pair that needs no search (an empty side; the same graph, whose identity matches
    every triple), else None."""
    local_g, rel_g, g = gold
    local_s, rel_s, s = system
    if not (local_g and local_s):
        return {"g": g, "s": s, "c": 0, "exact": True, "bound": 0, "steps": 0}
    identical = groups is None or options.doc_align != "sentence" or np.array_equal(*groups)  # sentences too
    if local_g == local_s and rel_g == rel_s and identical:
        identity = list(range(len(local_g)))
        c = matched(identity, local_g, local_s, rel_g, rel_s)
        same: Dict[str, Any] = {"g": g, "s": s, "c": c, "exact": True, "bound": c, "steps": 0}
        if mapping:
            same["mapping"] = identity
        return same
    return None


def score_triples(gid: str, gold: Triples, system: Triples, options: Options, mapping: bool = False,
                  graphs: Optional[Tuple[Graph, Graph]] = None) -> Dict[str, Any]:
    """SMATCH counts of two triple sets under the exact optimal alignment (no search when one is empty).

    ``mapping``: the item also holds the alignment (gold position -> system position or -1).
    """
    (local_g, rel_g, _), (local_s, rel_s, _) = gold, system
    groups = sentence_groups(graphs, len(local_g), len(local_s)) if local_g and local_s else None
    found = _at_once(gold, system, groups, options, mapping)
    if found is not None:
        return found
    if not fits(len(local_g), len(local_s), options.max_memory):
        # no n x m array: the linear-time map of mrp.solver.greedy, cut, with the bound of :func:`most`
        solution = beyond(triple_graph(local_g, rel_g), triple_graph(local_s, rel_s), options.timeout)
        if groups is not None and options.doc_align == "sentence":
            solution = solution._replace(mapping=unmapped(solution.mapping, *groups))
        return _item(gid, gold, system, solution, mapping)
    solution = solve_within(lambda stop: from_triples(local_g, local_s, rel_g, rel_s, stop), groups,
                            options.doc_align == "sentence", options.limit, options.timeout, seeding(graphs),
                            options.mip)
    return _item(gid, gold, system, solution, mapping)


def _item(gid: str, gold: Triples, system: Triples, solution: Solution, mapping: bool,
          counted: Optional[int] = None) -> Dict[str, Any]:
    """A pair's item from its Solution, the triples its map matches counted again (a check on the
    solver; ``counted``: so counted already, from the pair's rows, :meth:`Batch.matched`)."""
    (local_g, rel_g, g), (local_s, rel_s, s) = gold, system
    c = matched(solution.mapping, local_g, local_s, rel_g, rel_s) if counted is None else counted
    return filled(gid, g, s, c, solution, mapping, lambda: most(local_g, rel_g, local_s, rel_s))


#: a run keeps the ids of earlier runs' keys and labels while each kind has at most this many (a batch's
#: renumbering takes a scratch array of each kind's ids: at 65,536, numba's allocation took 0.5 ms a call)
KEPT_IDS = 1 << 14


def _key(options: Options) -> Tuple[bool, bool, Optional[str]]:
    """The options :func:`triples` reads (a memo's key)."""
    return options.penman, options.smatch_compat, options.smatchpp_compat


def triples_field(options: Options) -> str:
    """The signature field of the triples counted: the original tool's (penman) or of the MRP form."""
    if options.smatchpp_compat:
        return "triples:smatchpp-1.8.0-" + options.smatchpp_compat
    compat = "+compat" if options.smatch_compat else ""
    return "triples:" + ("penman" if options.penman else "mrp") + compat


class SMATCH(Metric):
    """SMATCH: triple overlap under the best node alignment."""

    name = "smatch"
    #: preparation beyond reading the pair (mrp.engine.limits): none n x m;
    #: its node-pair arrays are the search's, capped there (mrp.solver.greedy.fits)
    preparation_per_cell = 0
    symmetric = True
    summary = "SMATCH: triple overlap under the optimal node alignment (exact; the original tool's triples " \
              "on Penman)"
    normalization = "case"
    primary = ()
    stopped_by_solver = True
    parameters = (Parameter("smatch_compat", "--smatch-compat",
                            "smatch: reproduce the original SMATCH tool's counts, defects included "
                            "(duplicate triples counted repeatedly, quoted strings cut to their first "
                            "word)"), SMATCHPP_COMPAT, DOC_ALIGN)
    searches = True
    explains = True
    layout = (N, FIGURES, EXACT, SCORES, TIME, SEARCH, "compat", "smatchpp", "doc_align", ACCOUNTING)

    def __init__(self, memo: Optional[ByObject] = None) -> None:
        #: the triples of graphs, kept (the instance all-pairs runs score with); None: made for each pair
        self.memo = memo
    #: the Held of packed graphs by content, for this process's runs ...
    _contents = ContentMemo()
    #: ... and the ids their triples are coded with (live graphs' too) ...
    interned = Interned()
    #: ... by Penman graphs' triples coded in one pass (the ids of what they write kept with them)
    coder = Coder(interned)

    def begin(self, pairing: Pairing, options: Options) -> None:
        """Let go of the stores of earlier runs (and of their ids, once there are more than
        :data:`KEPT_IDS`: a loop of calls, a reward function's, codes its graphs with the ids its earlier
        calls made); build the triples of this run's packed graphs by content now, before any worker
        process forks (each inherits them instead of building them again)."""
        self._contents.clear()
        if len(self.interned.keys) > KEPT_IDS or len(self.interned.labels) > KEPT_IDS:
            self.interned.clear()
        for pair in pairing.pairs[:CONTENT_KEPT // 2]:
            for entry in (pair.gold_entry, pair.system_entry):
                if isinstance(entry, Packed):
                    self.held_triples(entry, options)

    def signature_fields(self, options: Options) -> List[str]:
        return [triples_field(options), *doc_align_field(options)]

    def remembering(self, graphs: Sequence[Sequence[Any]], options: Options) -> Metric:
        """The process's SMATCH with a memo of triples, filled with the live graphs of ``graphs``."""
        for group in graphs:
            for graph in group:
                if isinstance(graph, Graph):
                    _REMEMBERING.triples_of(graph, options)
        return _REMEMBERING

    def prepare(self, options: Options) -> None:
        check_compat(options)
        self.load_solver(options)

    def score(self, pair: Pair, options: Options) -> PairCounts:
        made = self.triples_of(pair.gold, options), self.triples_of(pair.system, options)
        return pair_counts(score_pair(pair.gold, pair.system, options, made))

    def score_many(self, pairs: Sequence[Pair], options: Options) -> List[Optional[PairCounts]]:
        return score_together(Together(self.held_triples, self.interned, options), pairs, options)

    def triples_of(self, graph: Graph, options: Options) -> Triples:
        """A graph's triples under the options (:func:`triples`), kept in the memo when there is one (by
        the options :func:`triples` reads)."""
        if self.memo is None:
            return triples(graph, options)
        return self.memo.get(graph, _key(options), lambda made: triples(made, options))

    def label_counts(self, options: Options) -> Optional[Callable[[Graph], LabelCounts]]:
        """Each graph's label-only triples (a node-local one by its name and value, a relation by its label;
        a node map is one to one, so each label matches at most that many copies)."""
        return lambda graph: label_counts(triples(graph, options))

    def held_triples(self, entry: Entry, options: Options) -> Held:
        """A graph's triples as :meth:`triples_of` gives them, whether it is a document and the triples
        coded (:class:`~mrp.metrics.smatch.held.Held`), from the graph as held: for a packed graph under
        Penman triples (which, like the sentences, depend on its content fields alone), made once per
        content of its corpus (:mod:`mrp.engine.content_memo`); kept in the memo when there is one.  The
        codes' ids are of :attr:`interned`'s generation (in the keys: emptied, it is another)."""
        generation = self.interned.generation
        if isinstance(entry, Packed) and options.penman and not options.smatchpp_compat:
            key = ("smatch", options.smatch_compat, generation)
            return self._contents.value(entry, key,  # type: ignore[no-any-return]
                                        lambda graph: self._held(graph, options, triples))
        graph = live(entry)
        if self.memo is None:
            return self._held(graph, options, triples)
        return self.memo.get(graph, (*_key(options), "held", generation),  # type: ignore[no-any-return]
                             lambda made: self._held(made, options, self.triples_of))

    def _held(self, graph: Graph, options: Options, made: Callable[[Graph, Options], Triples]) -> Held:
        """A graph's Held: Penman triples (sets) coded in one pass (:class:`~mrp.metrics.smatch.coded.Coder`),
        others from their triples (``made``: :func:`triples` or :meth:`triples_of`)."""
        if options.penman and not options.smatch_compat and not options.smatchpp_compat:
            form = unscanned(graph)
            if form is not None:  # a text read by the compiled scan, its graph not built: coded from the scan
                coded, total = self.coder.coded_scan(form)
                return plain_held(graph, scanned_root(form), coded, total)
            plain = unbuilt(graph)
            if plain is not None:  # a plain text's graph not built: coded from the text's form
                coded, total = self.coder.coded_plain(plain)
                return plain_held(graph, plain.labels[0], coded, total)
            coded, total = self.coder.coded(graph)
            return coded_held(graph, coded, total)
        return held(graph, made(graph, options), self.interned)

    def alone(self, graph: Graph, gold: bool, options: Options) -> Dict[Path, Tuple[Any, ...]]:
        total = self.triples_of(graph, options)[2]
        return {(): (total, 0, 0) if gold else (0, total, 0)}

    def report(self, run: Run) -> Dict[str, Any]:
        out: Dict[str, Any] = prf(*run.totals.get((), (0, 0, 0)))
        out["compat"] = run.options.smatch_compat
        if run.options.smatchpp_compat:
            out["smatchpp"] = smatchpp_status(run)
        out.update(doc_align_report(run))
        return out


METRIC = SMATCH()

#: graphs whose triples an all-pairs process keeps at most (a block of a packed corpus unpacks its graphs
#: anew, and those are not met again)
MEMO = 50_000

#: the SMATCH of all-pairs runs (:meth:`SMATCH.remembering`): one per process, its memo serving every block
_REMEMBERING = SMATCH(ByObject(MEMO))
