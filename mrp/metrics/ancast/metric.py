"""AnCast over a pairing: per-pair items, micro and macro figures, and UMR documents."""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Tuple

from mrp.engine import (
    ACCOUNTING,
    EXACT,
    FIGURES,
    SCORES,
    TIME,
    Detail,
    Metric,
    N,
    Options,
    Pair,
    PairCounts,
    Parameter,
    Run,
    triple_detail,
)
from mrp.errors import MRPError
from mrp.graph import Graph
from mrp.metrics.ancast import knobs
from mrp.metrics.ancast.documents import KINDS, DocRelation, DocSums, SentencePair, score_document
from mrp.metrics.ancast.documents import report as document_report
from mrp.metrics.ancast.pair import AncastPair, failed, score_pair
from mrp.metrics.ancast.reading import anchor_text
from mrp.metrics.ancast.scores import KEYS, Sums, f_score, report
from mrp.metrics.smatch.metric import penman_triples

#: Document keys in output order (AnCast++ calls them sent, modal, temporal, coref, comp).
DOCUMENT_KEYS = {"sent": "lrm", "modal": "modal", "temporal": "temporal", "coref": "coref",
                 "comp": "comprehensive"}


class Totals:
    """Micro sums and macro lists over pairs."""

    def __init__(self) -> None:
        self.precision, self.recall = Sums(), Sums()
        self.f: Dict[str, List[float]] = {key: [] for key in KEYS}
        self.bound = 0.0

    def add(self, result: AncastPair) -> None:
        """Count one pair."""
        self.precision.add(result.precision)
        self.recall.add(result.recall)
        for key in KEYS:
            self.f[key].append(result.item[key]["f"])
        self.bound += result.bound

    def to_json(self, compat_mode: bool) -> Dict[str, Any]:
        """Micro P/R/F per metric, then the macro F means (over pairs)."""
        out: Dict[str, Any] = dict(report(self.precision, self.recall, compat_mode))
        out["macro"] = {key: (sum(values) / len(values) if values else 0.0) for key, values in self.f.items()}
        return out

    def bound_json(self) -> Dict[str, float]:
        """LRM P/R/F with the proved upper bounds of the numerators."""
        p_count, r_count = self.precision.lr_count, self.recall.lr_count
        p = self.bound / p_count if p_count else 0.0
        r = self.bound / r_count if r_count else 0.0
        return {"p": p, "r": r, "f": f_score(p, r)}


def _relations(graph: Graph) -> List[DocRelation]:
    if graph.document is None:
        return []
    return [(relation.kind, relation.source, relation.label, relation.target)
            for relation in graph.document.relations]


def _sentence(pair: Pair, result: AncastPair) -> SentencePair:
    test_vars, gold_vars = result.variables
    t2g: Dict[str, Optional[str]] = {}
    g2t: Dict[str, Optional[str]] = {}
    if result.alignment is not None:
        for i, j in enumerate(result.alignment.t2g):
            t2g[test_vars[i]] = gold_vars[j] if j >= 0 else None
        for j, i in enumerate(result.alignment.g2t):
            g2t[gold_vars[j]] = test_vars[i] if i >= 0 else None
    return SentencePair(_relations(pair.system), _relations(pair.gold), t2g, g2t, result.precision,
                        result.recall)


def _tokens(pair: Pair, compat_mode: bool) -> int:
    """A sentence's tokens for ``--ancast-weighted toks``: the words of the gold sentence; in compat mode
    those AnCast counts, of the test sentence's text as AnCast++ reads it (its whole header)."""
    if compat_mode:
        system = pair.system if pair.system.document is not None else pair.gold
        return len(anchor_text(system, "doc").split())
    return len((pair.gold.input or "").split())


def _weighted(means: Dict[str, List[float]], weights: List[float], by: str) -> Dict[str, Any]:
    """AnCast++'s mean over documents weighted by ``weights`` (0 where they sum to 0)."""
    total = math.fsum(weights)
    out: Dict[str, Any] = {"by": by}
    for key, values in means.items():
        out[key] = math.fsum(w * v for w, v in zip(weights, values)) / total if total else 0.0
    return out


def documents(scored: List[Tuple[Pair, AncastPair]], options: Options) -> Optional[Dict[str, Any]]:
    """Document figures (UMR): micro over documents, AnCast++'s mean over documents (weighted too, with
    ``ancast_weighted``), and per document."""
    grouped: Dict[str, List[SentencePair]] = {}
    sizes: Dict[str, List[int]] = {}
    for pair, result in scored:
        if pair.gold.document is None:
            continue
        if options.ancast_compat and result.skipped is not None:
            continue
        grouped.setdefault(pair.gold.document.document, []).append(_sentence(pair, result))
        size = sizes.setdefault(pair.gold.document.document, [0, 0])
        size[0] += 1
        size[1] += _tokens(pair, options.ancast_compat)
    if not grouped:
        return None
    precision, recall = DocSums(), DocSums()
    per_document: Dict[str, Any] = {}
    means: Dict[str, List[float]] = {key: [] for key in DOCUMENT_KEYS.values()}
    for name, pairs in grouped.items():
        p, r = score_document(pairs, options.ancast_compat)
        precision.sentences.add(p.sentences)
        recall.sentences.add(r.sentences)
        for kind in KINDS:
            for mine, theirs in ((precision, p), (recall, r)):
                mine.kinds[kind] = [mine.kinds[kind][0] + theirs.kinds[kind][0],
                                    mine.kinds[kind][1] + theirs.kinds[kind][1]]
        values = {DOCUMENT_KEYS[key]: value for key, value in document_report(p, r).items()}
        for key, value in values.items():
            means[key].append(value["f"])
        per_document[name] = dict(values, n=len(pairs))
    out: Dict[str, Any] = {"n": len(grouped)}
    out.update((DOCUMENT_KEYS[key], value) for key, value in document_report(precision, recall).items())
    out["macro"] = {key: sum(values) / len(values) for key, values in means.items()}
    by = knobs.weighted(options)
    if by is not None:
        out["weighted"] = _weighted(means, [float(sizes[name][by == "toks"]) for name in grouped], by)
    if options.trace:
        out["scores"] = per_document
    return out


def _trace_item(result: AncastPair) -> Dict[str, Any]:
    item = dict(result.item)
    if result.alignment is not None:
        test_vars, gold_vars = result.variables
        item["alignment"] = [[test_vars[i], gold_vars[j] if j >= 0 else None]
                             for i, j in enumerate(result.alignment.t2g)]
    item["precision"] = result.precision.to_json()
    item["recall"] = result.recall.to_json()
    return item


def _detail(pair: Pair, result: AncastPair) -> Optional[Detail]:
    """SMATCH's triples of the pair under AnCast's alignment (what it aligned, and which concepts and
    relations then agree; AnCast's own figures weigh them, partial credit included)."""
    gold, system = pair.gold, pair.system
    test_vars, gold_vars = result.variables
    if len(test_vars) != len(system.nodes) or len(gold_vars) != len(gold.nodes):
        return None
    mapping = [-1] * len(gold.nodes)
    if result.alignment is not None:
        for i, j in enumerate(result.alignment.t2g):
            if j >= 0:
                mapping[j] = i
    tg, ts = penman_triples(gold, False), penman_triples(system, False)
    return triple_detail(gold.node_ids(), system.node_ids(), tg[:2], ts[:2], mapping,
                         "SMATCH's triples under AnCast's alignment")


#: AnCast's -s: sentence by sentence, or AnCast++'s documents (the default where the graphs carry documents)
SCOPES = (None, "snt", "doc")
ANCAST_SCOPE = Parameter("ancast_scope", "--ancast-scope",
                         "ancast: on UMR documents, 'doc' (the default) scores as AnCast++ does (ancast "
                         "-s doc: document figures too; with --ancast-compat the anchors come from the "
                         "sentence header); 'snt' as ancast -s snt (sentences only, anchors from each "
                         "'# :: sntN' line)", str, "SCOPE", None, ("snt", "doc"))


class AnCast(Metric):
    """AnCast: concept and relation scores, and UMR document scores, under an alignment of the nodes."""

    name = "ancast"
    #: preparation beyond reading the pair (mrp.engine.limits): none n x m;
    #: its n x m matrices are capped in the pair (.capped); descendant sets check the pair's limits (.reach)
    preparation_per_cell = 0
    summary = "AnCast (Sun & Xue 2024): concept, LRM, ULRM, WLRM and mock-Smatch; UMR documents too"
    primary = None
    headlines = (("lrm",), ("concept",), ("ulrm",), ("wlrm",), ("smatch",))
    parameters = (Parameter("ancast_compat", "--ancast-compat",
                            "ancast: reproduce AnCast 0.1.1 (its reading, anchor-broadcast alignment and "
                            "scoring quirks) instead of the proved-optimal alignment"), ANCAST_SCOPE,
                  knobs.CNEIGHBOR, knobs.SEPARATE, knobs.SENSE, knobs.ALIGNMENT, knobs.NO_SMATCH_TOP,
                  knobs.WEIGHTED, knobs.REIFY)
    searches = True
    explains = True
    #: its own bound (by LRM figures) and cut (no F interval: no single count), after the time
    layout = (N, FIGURES, EXACT, "skipped", "with_skipped", SCORES, TIME, "bound", "steps", "cut", "compat",
              ACCOUNTING)

    def signature_fields(self, options: Options) -> List[str]:
        scope = ["scope:snt"] if options.ancast_scope == "snt" else []
        # AnCast's heuristic's options, recorded even where they change nothing (the proved optimum)
        if knobs.cneighbor(options) != 1:
            scope.append(f"c:{knobs.cneighbor(options)}")
        if knobs.separate(options):
            scope.append("separate-1-and-2")
        if knobs.use_alignment(options):
            scope.append("anchors:alignment")
        if knobs.sense(options) != 0.1:
            scope.append(f"sc:{knobs.sense(options):g}")
        if not knobs.smatch_top(options):
            scope.append("top:no")
        if knobs.weighted(options) is not None:
            scope.append(f"weighted:{knobs.weighted(options)}")
        if knobs.allow_reify(options):  # asked, and applied nowhere, as in AnCast 0.1.1
            scope.append("reify:none")
        return ["align:" + ("ancast-0.1.1" if options.ancast_compat else "lrm-optimal"), *scope]

    def prepare(self, options: Options) -> None:
        if options.ancast_scope not in SCOPES:
            raise MRPError(f"ancast_scope: unknown scope '{options.ancast_scope}' (choose from snt, doc)")
        knobs.weighted(options)
        knobs.sense(options)
        if knobs.cneighbor(options) < 0:
            raise MRPError(f"ancast_cneighbor: {knobs.cneighbor(options)} is below 0")
        if not options.ancast_compat:
            self.load_solver(options)

    def score(self, pair: Pair, options: Options) -> PairCounts:
        found = self._wrap(score_pair(pair.gold, pair.system, options))
        if options.explain:
            found.detail = _detail(pair, found.extra["ancast"])
        return found

    def fallback(self, pair: Pair, options: Options, failure: str) -> PairCounts:
        result = self._wrap(failed(pair, options, failure))
        result.failure = failure
        return result

    def cut(self, pair: Pair, options: Options, why: str) -> PairCounts:
        note = (f"ancast: stopped at the pair's {'clock' if why == 'timeout' else 'memory cap'}: counted as "
                "nothing aligned, WLRM unweighted")
        result = self._wrap(failed(pair, options, note, why))
        result.note = note
        return result

    @staticmethod
    def _wrap(result: AncastPair) -> PairCounts:
        return PairCounts({}, exact=result.exact, bound=result.bound, steps=result.steps, cut=result.cut,
                            extra={"ancast": result})

    def item(self, pair: Pair, result: PairCounts) -> Dict[str, Any]:
        return _trace_item(result.extra["ancast"])

    def report(self, run: Run) -> Dict[str, Any]:
        options = run.options
        kept, every = Totals(), Totals()
        skipped: List[str] = []
        scored: List[Tuple[Pair, AncastPair]] = []
        for pair, found in zip(run.pairing.pairs, run.results):
            result: AncastPair = found.extra["ancast"]
            scored.append((pair, result))
            every.add(result)
            if result.skipped is None:
                kept.add(result)
            else:
                skipped.append(pair.gold.id)
        out: Dict[str, Any] = {}
        out.update((kept if options.ancast_compat else every).to_json(options.ancast_compat))
        documented = documents(scored, options) if options.ancast_scope != "snt" else None
        if documented is not None:
            out["documents"] = documented
        if options.ancast_compat:
            out["skipped"] = {"n": len(skipped), "ids": sorted(skipped)}
            if skipped:
                out["with_skipped"] = every.to_json(True)
        if not options.ancast_compat or options.trace:
            out["bound"] = {"lrm": every.bound_json()}
        out["steps"] = sum(result.steps for result in run.results)
        cut = {"limit": 0, "timeout": 0, "error": 0}
        for found in run.results:
            if found.cut is not None:
                cut[found.cut] += 1
        out["cut"] = cut
        out["compat"] = options.ancast_compat
        return out


METRIC = AnCast()
