"""juːmæʧ as an mrp-score metric: per corpus, per document and per sentence, exact by default."""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Optional, Tuple

from mrp.engine import (
    ACCOUNTING,
    EXACT,
    FIGURES,
    SCORES,
    SEARCH,
    TIME,
    Metric,
    N,
    Options,
    Pair,
    PairCounts,
    Pairing,
    Parameter,
    Run,
    prf,
)
from mrp.engine import CountPath as Path
from mrp.errors import MRPError, MRPWarning, ScoreError
from mrp.graph import Graph
from mrp.metrics.umatch import capped, compare, explained, graphs
from mrp.metrics.umatch.details import differences
from mrp.metrics.umatch.exact import ExactMapper, Proof
from mrp.metrics.umatch.model import UmrFile
from mrp.metrics.umatch.triples import Selection, count

#: the count paths of a pair, each (g, s, c) but node projections (g, s, mapped g, mapped s)
PARTS: Tuple[str, ...] = ("umatch", "aligned_tokens", "mapped_triples", "node_projections")


def settings(options: Options) -> compare.Settings:
    """The comparator's settings of a run's options."""
    def names(text: Optional[str]) -> List[str]:
        return [name.strip() for name in (text or "").split(",") if name.strip()]

    try:
        selection = Selection.of(names(options.umatch_only), names(options.umatch_except))
    except MRPError as error:
        raise ScoreError(f"umatch: {error}") from error
    return compare.Settings(selection, not options.umatch_no_document_level, options.umatch_top)


class UMatch(Metric):
    """juːmæʧ (the UMR shared task's compare_umr.pl): concepts and relations of corresponding nodes,
    nodes corresponding only where they share aligned tokens (or, unaligned, their concept)."""

    name = "umatch"
    #: preparation beyond reading the pair (mrp.engine.limits): none n x m;
    #: its candidate links are capped in the pair (.capped)
    preparation_per_cell = 0
    aliases = ("jumatch",)
    summary = "juːmæʧ (UMR shared task, compare_umr.pl): exact node correspondence among token-sharing " \
              "nodes; aligned tokens, node projections, mapped triples too"
    primary = ("umatch",)
    headlines = (("umatch",), ("aligned_tokens",), ("node_projections",), ("mapped_triples",))
    parameters = (
        Parameter("umatch_compat", "--umatch-compat",
                  "umatch: compare_umr.pl's greedy node correspondence and counting, quirks included"),
        Parameter("umatch_top", "--top", "umatch: a TOP attribute on each sentence's first node"),
        Parameter("umatch_no_document_level", "--no-document-level",
                  "umatch: leave document-level relations out"),
        Parameter("umatch_only", "--only", "umatch: count only these relations ('concept': concepts)",
                  str, "ROLE,..."),
        Parameter("umatch_except", "--except", "umatch: do not count these relations ('concept': concepts)",
                  str, "ROLE,..."),
    )
    searches = True
    contextual = True
    explains = True
    layout = (N, FIGURES, EXACT, SCORES, TIME, SEARCH, "compat", ACCOUNTING)

    def __init__(self) -> None:
        self._results: Dict[str, PairCounts] = {}
        #: the last pairing's preparation: its key (the pairs' stored entries, kept so that their ids stay
        #: theirs, and --top) and the two files read by compare_umr.pl's rules with the notes
        self._last: Optional[Tuple[Any, Tuple[UmrFile, UmrFile, List[Tuple[Graph, str]]]]] = None
        #: the last compat run with document-level relations on it: its key, comparison, counts per sentence
        #: pair and each pair's document-level (correct, total0, total1)
        self._greedy: Optional[Tuple[Any, Any]] = None
        #: whether a run has used the last preparation (its nodes then carry that run's correspondence)
        self._used = False
        #: the gold sentences read, kept for the next pairings of the same gold graphs (a task's teams)
        self._kept = graphs.Kept()

    def _compared(self, gold: UmrFile, system: UmrFile, chosen: compare.Settings,
                  mapper: Optional[ExactMapper], options: Options) -> Tuple[Any, List[Dict[str, int]]]:
        """The comparison of the prepared files and its counts per sentence pair. compare_umr.pl's greedy
        correspondence does not depend on document-level relations: a compat run without them after one with
        them on the same preparation and options takes its correspondence and counts, less the relations'
        (each sentence's, kept from that run); one with them takes that run's counts as they are."""
        key = (self._last[0][0] if self._last is not None else None, chosen.selection.key(), chosen.top,
               options.max_memory, options.timeout)
        shareable = mapper is None and not options.errors and not options.explain
        if shareable and self._greedy is not None and self._greedy[0] == key:
            result, counts, relations = self._greedy[1]
            if chosen.document_level:
                return result, counts
            less = []
            for found, (correct, total0, total1) in zip(counts, relations):
                found = dict(found)
                found["correct"] = found.get("correct", 0) - correct
                found["total0"] = found.get("total0", 0) - total0
                found["total1"] = found.get("total1", 0) - total1
                less.append(found)
            return result, less
        kept = shareable and chosen.document_level
        if self._used:  # a run on this preparation before: its correspondence cleared from the nodes
            _clear(gold, system)
        self._used = True
        result = compare.run([gold, system], chosen, mapper, check_tokens=False,
                             max_memory=options.max_memory, timeout=options.timeout, one_way=True)
        counts = result.sentences.get(("GOLD", "SYSTEM"), [])
        if mapper is None:  # an exact run in between leaves the greedy's counts as they were
            documents = result.documents.get(("GOLD", "SYSTEM"), [])  # as the run counted them
            self._greedy = (key, (result, counts, documents)) if kept else None
        return result, counts

    def _prepared(self, pairing: Pairing, live: List[Pair], top: bool, compat: bool
                  ) -> Tuple[UmrFile, UmrFile, List[Tuple[Graph, str]]]:
        """The pairs as the two files juːmæʧ compares, prepared once for the runs of one pairing's pairs
        (the figures of a task: compat, exact, without document-level relations, other paths): read by
        compare_umr.pl's rules, which the exact figure shares where they read every sentence as mrp does
        (no alignment line it stops at, no section it sets apart); the correspondence of a previous run
        is cleared by the next run made on them (:meth:`_compared`), not by one that takes a run's counts."""
        entries = tuple((pair.gold_entry, None if pair.null else pair.system_entry)
                        for pair in pairing.pairs)
        key = (tuple((id(a), id(b)) for a, b in entries), top)
        if self._last is None or self._last[0][0] != key:
            self._last = self._greedy = None
            self._kept.release()
            prepared = graphs.files([(pair.gold, pair.system) for pair in live], top, True, kept=self._kept)
            self._last = ((key, entries), prepared)
            self._greedy = None  # its key names entries only the last preparation keeps alive
            self._used = False
        gold, system, notes = self._last[1]
        if not compat and any(item.failure is not None or item.apart
                              for umr in (gold, system) for item in umr.sentences):
            # the exact reading: the sentences both read alike shared (their nodes then carry its run's
            # correspondence: cleared before the next run on this preparation, :meth:`_compared`)
            return graphs.files([(pair.gold, pair.system) for pair in live], top, False, (gold, system),
                                self._kept)
        return gold, system, notes

    def signature_fields(self, options: Options) -> List[str]:
        chosen = settings(options)
        fields = ["align:" + ("compare_umr" if options.umatch_compat else "exact"),
                  "rel:" + chosen.selection.key()]
        if chosen.top:
            fields.append("top")
        if not chosen.document_level:
            fields.append("nodoc")
        return fields

    def prepare(self, options: Options) -> None:
        settings(options)
        if not options.umatch_compat:
            self.load_solver(options)

    def begin(self, pairing: Pairing, options: Options) -> None:
        """Map every sentence pair in document order (a document-level relation's ends may lie in earlier
        sentences) and keep each pair's counts."""
        chosen = settings(options)
        live = [pair.live() for pair in pairing.pairs]
        for pair in live:
            for graph in (pair.gold, pair.system):
                if graph.nodes and graph.framework not in (None, "umr", "amr"):
                    raise ScoreError(f"umatch scores UMR graphs, not {graph.framework} (graph {graph.id})")
        gold, system, notes = self._prepared(pairing, live, chosen.top, options.umatch_compat)
        _unread(pairing, live, gold, system)
        mapper = None if options.umatch_compat else ExactMapper(options.limit, options.timeout, options.mip,
                                                                 options.max_memory)
        result, counts = self._compared(gold, system, chosen, mapper, options)
        self._results = {}
        places = (explained.places(gold.sentences), explained.places(system.sentences)) \
            if options.explain and mapper is None else ({}, {})
        for number, (pair, found) in enumerate(zip(live, counts), 1):
            proof = mapper.proofs.get(("GOLD", "SYSTEM", number)) if mapper is not None else None
            paths: Dict[Path, Tuple[Any, ...]] = {
                ("umatch",): (found.get("total0", 0), found.get("total1", 0), found.get("correct", 0)),
                ("aligned_tokens",): (found["alignment_total0"], found["alignment_total1"],
                                      found["alignment_correct"]),
                ("mapped_triples",): (found.get("mapped_total0", 0), found.get("mapped_total1", 0),
                                      found.get("mapped_correct", 0)),
                ("node_projections",): (found["nodes0"], found["nodes1"], found["mapped0"], found["mapped1"]),
            }
            c = paths[("umatch",)][2]
            gap = 0 if proof is None else max(0, proof.bound - proof.value)
            cut = "limit" if number in result.capped else "timeout" if number in result.stopped else \
                proof.cut if proof is not None and proof.trivial else None
            if cut is not None:  # mapped in linear time beyond --max-memory, or the greedy's part made in
                # time: cut, with the trivial bound
                proof = Proof(False, c, capped.bound(gold.sentences[number - 1], system.sentences[number - 1],
                                                     paths[("umatch",)][0], chosen.selection), cut=cut)
                gap = proof.bound - c
            errors = None
            if options.errors:
                errors = differences(gold.sentences[number - 1], system.sentences[number - 1], "GOLD",
                                     "SYSTEM", chosen.selection)
            shown = None
            if options.explain:
                first, second = gold.sentences[number - 1], system.sentences[number - 1]
                tables = None
                if chosen.document_level:
                    tables = (first.scope or {}, second.scope or {}) if mapper is not None else \
                        (explained.AsOf(first.source or gold.nodes, places[0], number),
                         explained.AsOf(second.source or system.nodes, places[1], number))
                shown = explained.detail(first, second, pair.gold, pair.system, "GOLD", "SYSTEM",
                                         chosen.selection, tables)
            self._results[pair.gold.id] = PairCounts(
                paths, exact=True if proof is None else proof.exact, bound=c + gap,
                steps=0 if proof is None else proof.steps, cut=None if proof is None else proof.cut,
                errors=errors, note=None if proof is None else proof.note, detail=shown)
        progress = options.run.progress
        for graph, note in notes:
            if progress is not None:
                progress.problem(graph, note)

    def score(self, pair: Pair, options: Options) -> PairCounts:
        found = self._results.get(pair.gold.id)
        if found is None:
            raise ScoreError(f"graph {pair.gold.id}: not prepared (umatch scores pairs of one run together)")
        return found

    def alone(self, graph: Graph, gold: bool, options: Options) -> Dict[Path, Tuple[Any, ...]]:
        chosen = settings(options)
        sentence = graphs.sentence(graph, 1, chosen.top)
        total = sum(count(node, chosen.selection) for node in sentence.nodes.values())
        if chosen.document_level:
            total += sum(1 for triple in sentence.docrels
                         if not chosen.selection.ignored(triple.split(" ")[1]))
        sets = len({node.alignment for node in sentence.nodes.values() if node.alignment})
        n = len(sentence.nodes)
        out: Dict[Path, Tuple[Any, ...]] = {("umatch",): (total, 0, 0), ("aligned_tokens",): (sets, 0, 0),
                                            ("mapped_triples",): (0, 0, 0),
                                            ("node_projections",): (n, 0, 0, 0)}
        if not gold:
            out = {path: (values[1], values[0], *values[2:]) for path, values in out.items()}
        return out

    def main(self) -> Path:
        return ("umatch",)

    def figures(self, counts: Dict[Path, Tuple[Any, ...]]) -> Dict[str, Any]:
        return _figures(counts)

    def report(self, run: Run) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        out.update(_figures({path: tuple(values) for path, values in run.totals.items()}))
        documents: Dict[str, Dict[Path, List[Any]]] = {}
        for pair, result in zip(run.pairing.pairs, run.results):
            gold = pair.gold
            name = gold.document.document if gold.document is not None else gold.id
            sums = documents.setdefault(name, {})
            for path, values in result.counts.items():
                mine = sums.setdefault(path, [0] * len(values))
                for k, value in enumerate(values):
                    mine[k] += value
        if any(pair.gold.document is not None for pair in run.pairing.pairs):
            out["documents"] = {name: _figures({path: tuple(v) for path, v in sums.items()})
                                for name, sums in documents.items()}
        out["compat"] = run.options.umatch_compat
        return out


def _clear(*files: UmrFile) -> None:
    """The correspondence of a previous run cleared from the files' nodes."""
    for umr in files:
        for item in umr.sentences:
            for node in item.nodes.values():
                node.clear()


class CompatWarning(MRPWarning):
    """A sentence that compare_umr.pl reads only in part (``--umatch-compat`` reads it as it does)."""


def _unread(pairing: Pairing, pairs: List[Pair], gold: UmrFile, system: UmrFile) -> None:
    """One warning per sentence whose alignment compare_umr.pl stops reading at a line (naming file, line
    and sentence): the compat figures leave out what it leaves out."""
    for (name, umr), side in zip(zip(pairing.names, (gold, system)), ("gold", "system")):
        _apart(name, side, [(pair, item) for pair, item in zip(pairs, umr.sentences) if item.apart])
        for pair, item in zip(pairs, umr.sentences):
            if item.failure is None:
                continue
            graph = pair.gold if side == "gold" else pair.system
            line, problem = item.failure.split(": ", 1)
            why = problem.replace(" (left out)", "")
            warnings.warn(f"{name}:{line}: graph {graph.id}: compare_umr.pl stops reading the sentence at "
                          f"this alignment line ({why}): as it does, --umatch-compat leaves out the "
                          "sentence's alignments from this line on and its document-level relations",
                          CompatWarning, stacklevel=2)


def _apart(name: str, side: str, apart: List[Tuple[Pair, Any]]) -> None:
    """One warning per file side whose sentences compare_umr.pl ends early, at two empty lines (and one more
    where the blocks it reads apart hold what it compares as a graph: a figure --umatch-compat differs on)."""
    if not apart:
        return
    graph = apart[0][0].gold if side == "gold" else apart[0][0].system
    sections = sorted({section for _, item in apart for section in item.apart})
    where = f"{name}:{graph.line or '?'}: graph {graph.id}: compare_umr.pl "
    warnings.warn(where + "ends a sentence at two empty lines and reads what follows as another sentence: as "
                  f"it does, --umatch-compat leaves out the {' and '.join(sections)} section(s) of "
                  f"{len(apart)} sentence(s) set apart so (the first here)", CompatWarning, stacklevel=3)
    compared = [pair for pair, item in apart if item.apart_compared]
    if compared:
        graph = compared[0].gold if side == "gold" else compared[0].system
        where = f"{name}:{graph.line or '?'}: graph {graph.id}: compare_umr.pl "
        warnings.warn(where + "reads the blocks after two empty lines as a sentence of its own and compares "
                      f"its second block as a graph, in {len(compared)} sentence(s) (the first here): "
                      "--umatch-compat does not, and its figure differs from compare_umr.pl's "
                      "(mrp-umr-compare gives it)", CompatWarning, stacklevel=3)


def _figures(counts: Dict[Path, Tuple[Any, ...]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for part in PARTS:
        values = counts.get((part,))
        if part == "node_projections":
            g, s, mapped_g, mapped_s = values if values is not None else (0, 0, 0, 0)
            p = mapped_s / s if s else 0.0
            r = mapped_g / g if g else 0.0
            out[part] = {"g": g, "s": s, "mapped_g": mapped_g, "mapped_s": mapped_s, "p": p, "r": r,
                         "f": 2 * p * r / (p + r) if p + r else 0.0}
        else:
            out[part] = prf(*(values if values is not None else (0, 0, 0)))
    return out


METRIC = UMatch()
