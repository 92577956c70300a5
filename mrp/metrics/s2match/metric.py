"""S2match (Opitz, Parcalabescu and Frank, TACL 2020): SMATCH with graded credit for similar concepts.

A node pair's ``instance`` triples (and the ``TOP`` triples of two tops) are worth the concepts'
similarity (:mod:`mrp.metrics.s2match.similarity`: 1 for equal ones, ``diffsense`` for another sense,
else the word vectors' cosine above ``cutoff``), every other triple 1 when it matches, as in SMATCH; the
matched total ``c`` gives ``P = c / s``, ``R = c / g`` and F.  The original searches the node alignment
by hill climbing with random restarts; mrp maximises the graded total with the branch and bound every
searching metric uses and proves the result optimal with an upper bound.

**Exact, in integers.**  The solver takes integer rewards, so every similarity is counted in units of
``1 / SCALE`` (rounded to the nearest, :data:`SCALE` = 10**6, in the signature): the reported ``c`` and its
``bound`` are multiples of ``1 / SCALE``, and a pair's ``c`` differs from the same alignment's unrounded
total by at most half a unit per graded triple (the original's F printed to three or four decimals does
not see it).  Hence mrp's ``c`` is never below the original's, up to that rounding, and equals it where
the original's hill climbing found the optimum.

Triples (:mod:`mrp.metrics.s2match.triples`): by default SMATCH's (sets; the original SMATCH tool's
reading of Penman, or mtool's of MRP graphs), the ``TOP`` triple valued with the top's concept and graded
like it, as S2match does; ``--s2match-compat`` counts the triples the original's reader gives instead
(an older SMATCH reader: a node keeps one relation per other node and one value per attribute name,
``consist-of`` is inverted, quoted values are marked and cut to their first word).

Vectors are never downloaded: the user names a file (GloVe or word2vec text format); without one, only
equal concepts and senses earn credit, and the signature says ``vectors:none``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import numpy as np

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
    Parameter,
    Run,
    prf,
)
from mrp.engine import CountPath as Path
from mrp.errors import MRPError, ScoreError
from mrp.graph import Graph
from mrp.metrics.s2match.similarity import FUNCTIONS, Similarity, load
from mrp.metrics.s2match.triples import Soft, compat_triples, soft_triples
from mrp.solver import fits_memory, solve_problem, with_edges

__all__ = ["METRIC", "SCALE", "counted", "rewards", "score_soft"]

#: similarities are counted in units of 1 / SCALE
SCALE = 10**6


def _unit_interval(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 1:
        raise ValueError("between 0 and 1")
    return value


def rewards(gold: Soft, system: Soft, similarity: Similarity) -> np.ndarray:
    """The integer reward (in units of 1 / SCALE) of matching each gold node with each system node: its
    concepts' and its tops' graded credit and its exact node-local triples matched (copies multiply)."""
    n, m = len(gold.concepts), len(system.concepts)
    U = np.zeros((n, m), np.int64)
    if not (n and m):
        return U
    names_g = sorted({c for c in gold.concepts if c is not None})
    names_s = sorted({c for c in system.concepts if c is not None})
    graded = np.rint(similarity.matrix(names_g, names_s) * SCALE).astype(np.int64)
    at_g = {name: k for k, name in enumerate(names_g)}
    at_s = {name: k for k, name in enumerate(names_s)}
    rows = np.array([at_g.get(c, -1) if c is not None else -1 for c in gold.concepts], np.int64)
    cols = np.array([at_s.get(c, -1) if c is not None else -1 for c in system.concepts], np.int64)
    if graded.size:
        concept = graded[np.ix_(np.maximum(rows, 0), np.maximum(cols, 0))]
        concept[rows < 0, :] = 0
        concept[:, cols < 0] = 0
        tops = np.outer(np.array(gold.tops, np.int64), np.array(system.tops, np.int64))
        U += concept * (1 + tops)  # the instance triple, and the TOP triple of two tops
    holders: Dict[Any, List[Tuple[int, int]]] = {}
    for j, triples in enumerate(system.local):
        for key, copies in triples.items():
            holders.setdefault(key, []).append((j, copies))
    for i, triples in enumerate(gold.local):
        for key, copies in triples.items():
            for j, theirs in holders.get(key, ()):
                U[i, j] += SCALE * copies * theirs
    return U


def counted(mapping: List[int], U: np.ndarray, gold: Soft, system: Soft) -> int:
    """The graded total of a map in units of 1 / SCALE, counted from the rewards and the relations (a check
    on the solver's value)."""
    total = sum(int(U[i, j]) for i, j in enumerate(mapping) if j >= 0)
    for (a, b, key), copies in gold.relations.items():
        c, d = mapping[a], mapping[b]
        if c >= 0 and d >= 0:
            total += SCALE * copies * system.relations.get((c, d, key), 0)
    return total


def score_soft(gold: Soft, system: Soft, similarity: Similarity, options: Options) -> PairCounts:
    """A pair's S2match counts (g, s, c) under the optimal alignment, with its bound (units: triples)."""
    g, s = gold.total, system.total
    n, m = len(gold.concepts), len(system.concepts)
    if not (n and m):
        return PairCounts({(): (g, s, 0.0)}, exact=True, bound=0.0)
    most = float(min(g, s))
    if not fits_memory(n, m, options.max_memory):
        return PairCounts({(): (g, s, 0.0)}, exact=False, bound=most, cut="limit",
                          note=f"{n} x {m} nodes exceed --max-memory: not aligned")
    U = rewards(gold, system, similarity)
    scaled_g = {key: copies * SCALE for key, copies in gold.relations.items()}
    # the Problem adds the loops' matches to its rewards: a copy of them, U counts the map below
    solution = solve_problem(lambda stop: with_edges(U.copy(), scaled_g, system.relations, None, stop),
                             options.limit, options.timeout, handover=options.mip)
    total = counted(solution.mapping, U, gold, system)
    if solution.complete and total != solution.value:
        raise ScoreError(f"internal error: solver value {solution.value} disagrees with the map's {total}")
    bound = solution.bound / SCALE if solution.complete else most
    return PairCounts({(): (g, s, total / SCALE)}, exact=solution.exact and solution.complete,
                      bound=min(bound, most), steps=solution.steps, cut=solution.cut, note=solution.note)


_PARAMETERS = (
    Parameter("s2match_vectors", "--s2match-vectors",
              "s2match: word vectors, a text file in GloVe or word2vec format (the original's -vectors; none "
              "is shipped or downloaded; without it only equal concepts and senses earn credit)", kind=str,
              metavar="PATH"),
    Parameter("s2match_cutoff", "--s2match-cutoff", "s2match: similarities at or below it count nothing (the "
              "original's -cutoff, default 0.5)", kind=float, metavar="X", default=0.5),
    Parameter("s2match_diffsense", "--s2match-diffsense", "s2match: the credit of another sense of a frame, "
              "and the factor of a similarity involving a frame (the original's -diffsense, default 0.5)",
              kind=_unit_interval, metavar="X", default=0.5),
    Parameter("s2match_similarityfunction", "--s2match-similarityfunction", "s2match: cosine (default), "
              "euclidean or cityblock (the original's -similarityfunction)", kind=str, metavar="NAME",
              default="cosine", choices=tuple(FUNCTIONS)),
    Parameter("s2match_compat", "--s2match-compat", "s2match: count the triples the original's reader gives "
              "(one relation per node pair, one value per attribute name, quoted values marked and cut)"),
    Parameter("s2match_do_not_mark_quotes", "--s2match-do-not-mark-quotes", "s2match: with --s2match-compat, "
              "a quoted value equals the same unquoted one (the original's --do_not_mark_quotes)"),
)


class S2match(Metric):
    """S2match: SMATCH with graded concept credit from word vectors, aligned exactly."""

    name = "s2match"
    #: preparation beyond reading the pair (mrp.engine.limits): its node-pair arrays are the search's,
    #: capped before they are built (``greedy.fits`` in :func:`score_soft`)
    preparation_per_cell = 0
    summary = "S2match: SMATCH with graded credit for similar concepts (word vectors; Opitz et al. 2020; " \
              "exact)"
    normalization = "case"
    #: graded counts (c in triples, with fractions): no count path to rank and resample by, as AnCast's sums
    #: (a leaderboard lists the systems' figures unranked); the one figure is the top level's F
    primary = None
    headlines = ((),)
    parameters = _PARAMETERS
    searches = True
    symmetric = True
    layout = (N, FIGURES, EXACT, SCORES, TIME, SEARCH, "compat", ACCOUNTING)

    def prepare(self, options: Options) -> None:
        self._similarity(options)
        self.load_solver(options)

    @staticmethod
    def _value(options: Options, name: str) -> Any:
        return next(p for p in _PARAMETERS if p.field == name).value(options)

    def _similarity(self, options: Options) -> Similarity:
        """The run's similarity (one per set of parameters, its memo kept with it)."""
        key = tuple(self._value(options, p.field) for p in _PARAMETERS[:4])
        found = self._similarities.get(key)
        if found is None:
            path, cutoff, diffsense, function = key
            if function not in FUNCTIONS:
                raise MRPError(f"--s2match-similarityfunction: unknown function {function!r}")
            vectors = load(path)[0] if path else {}
            found = self._similarities[key] = Similarity(vectors, float(cutoff), float(diffsense), function)
            if len(self._similarities) > 4:
                del self._similarities[next(iter(self._similarities))]
        return found

    _similarities: Dict[Tuple[Any, ...], Similarity] = {}

    def triples_of(self, graph: Graph, options: Options) -> Soft:
        """A graph's triples under the options (mrp's, or with ``--s2match-compat`` the original's)."""
        if self._value(options, "s2match_compat"):
            return compat_triples(graph, not self._value(options, "s2match_do_not_mark_quotes"))
        return soft_triples(graph, options)

    def signature_fields(self, options: Options) -> List[str]:
        path = self._value(options, "s2match_vectors")
        out = ["vectors:" + (load(path)[1] if path else "none"),
               f"cutoff:{self._value(options, 's2match_cutoff')}",
               f"diffsense:{self._value(options, 's2match_diffsense')}",
               "similarity:" + self._value(options, "s2match_similarityfunction"),
               f"scale:1e{len(str(SCALE)) - 1}"]
        if self._value(options, "s2match_compat"):
            marked = "" if self._value(options, "s2match_do_not_mark_quotes") else "+marked"
            out.append("triples:s2match-original" + marked)
        else:  # recorded when set, as every parameter is, though it reads quotes only under compat
            out.append("triples:" + ("penman" if options.penman else "mrp"))
            if self._value(options, "s2match_do_not_mark_quotes"):
                out.append("quotes:unmarked")
        return out

    def score(self, pair: Pair, options: Options) -> PairCounts:
        gold, system = self.triples_of(pair.gold, options), self.triples_of(pair.system, options)
        return score_soft(gold, system, self._similarity(options), options)

    def alone(self, graph: Graph, gold: bool, options: Options) -> Dict[Path, Tuple[Any, ...]]:
        total = self.triples_of(graph, options).total
        return {(): (total, 0, 0.0) if gold else (0, total, 0.0)}

    def report(self, run: Run) -> Dict[str, Any]:
        out: Dict[str, Any] = prf(*run.totals.get((), (0, 0, 0.0)))
        out["compat"] = bool(self._value(run.options, "s2match_compat"))
        return out


METRIC = S2match()
