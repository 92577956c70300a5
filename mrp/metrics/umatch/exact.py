"""The exact juːmæʧ correspondence of a sentence pair: among the node pairs the comparator's rule allows
(a shared aligned token, or both unaligned with equal extended concepts), the 1:1 map with the most
correct (name, value) pairs, document-level relations included, found by mrp's branch and bound with a
proved bound and started from the comparator's greedy map (so it never counts fewer).  Among maps with the
most correct pairs it takes one with the most corresponding nodes.  A sentence pair whose structures would
exceed ``max_memory`` (:mod:`.capped`) builds none of them: it gets the linear-time map, cut as "limit"."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, Hashable, List, Optional, Tuple

from mrp.metrics.umatch import capped
from mrp.metrics.umatch.capped import attach
from mrp.metrics.umatch.links import candidates, recall, symmetrize
from mrp.metrics.umatch.model import Node, Sentence
from mrp.metrics.umatch.triples import UNMAPPED, Selection, matches, profiles
from mrp.solver import (
    DEFAULT_MAX_MEMORY,
    Sparse,
    SparseEdge,
    SparseFound,
    sparse_search,
    sparse_upper_bound,
    sparse_value,
)

if TYPE_CHECKING:
    from mrp.solver import Problem

#: sentence pairs up to this many gold nodes are first searched in plain Python (no kernels to load) ...
SMALL_NODES = 200
#: ... for this many steps at most
SMALL_STEPS = 20000
#: a document-level relation end that the current map decides: ("node", position); else ("fixed", name)
End = Tuple[str, Any]


@dataclass
class Proof:
    """How the map of one sentence pair was found."""

    exact: bool = True
    value: int = 0
    bound: int = 0
    steps: int = 0
    cut: Optional[str] = None
    note: Optional[str] = None
    #: mapped in linear time beyond the memory cap (cut "limit"), or by the part of the greedy start made
    #: within the time cap (cut "timeout"): ``value`` and ``bound`` are not known here; the pair's bound is
    #: the trivial one of its counts (:func:`.capped.bound`)
    trivial: bool = False
    #: the allowed node pairs are disjoint (no node has two) and the map pairs them all: every term of the
    #: objective is a reward, so it is the one optimum (any other map pairs a part of them), proved without
    #: building the objective; ``value`` and ``bound`` are then not computed (both 0, no gap)
    forced: bool = False


@dataclass
class ExactMapper:
    """Maps sentence pairs exactly (the solver's step limit, time cap and MIP hand-over as for every
    metric; ``max_memory``: bytes a pair's structures may take, None: no cap), recording each pair's proof
    by (first label, second label, sentence number)."""

    limit: Optional[int] = None
    timeout: Optional[float] = None
    mip: bool = True
    max_memory: Optional[int] = DEFAULT_MAX_MEMORY
    proofs: Dict[Tuple[str, str, int], Proof] = field(default_factory=dict)
    #: called when the solver's kernels take long to load (they are being compiled)
    compiling: Optional[Callable[[], None]] = None

    def __call__(self, sentence0: Sentence, sentence1: Sentence, label0: str, label1: str,
                 settings: object) -> None:
        from mrp.solver import pair_clock

        with pair_clock():  # each sentence pair has the whole --timeout
            self._aligned(sentence0, sentence1, label0, label1, settings)

    def _aligned(self, sentence0: Sentence, sentence1: Sentence, label0: str, label1: str,
                 settings: object) -> None:
        """:meth:`__call__`'s work, the pair's clock started."""
        from mrp.solver import clock, get_watchdog

        deadline = None if self.timeout is None else clock() + self.timeout
        selection: Selection = settings.selection  # type: ignore[attr-defined]
        gold = [sentence0.nodes[v] for v in sorted(sentence0.nodes)]
        system = [sentence1.nodes[v] for v in sorted(sentence1.nodes)]
        for node in gold:
            node.cross.pop(label1, None)
        for node in system:
            node.cross.pop(label0, None)
        proof = Proof()
        self.proofs[(label0, label1, sentence0.number)] = proof
        if not gold or not system:
            attach([], gold, system, label0, label1)
            return
        if not capped.fits(sentence0, sentence1, self.max_memory, False):
            # no n x m structure, not even the links of the greedy start: the linear-time map, cut
            proof.exact, proof.cut, proof.trivial = False, "limit", True
            attach(capped.linear_map(gold, system, len(sentence0.tokens)), gold, system, label0, label1)
            return
        position = {node.variable: j for j, node in enumerate(system)}
        made = recall(sentence0, sentence1, label0, label1, selection)  # a compat run's greedy on them
        if made is None:
            stopped = candidates([sentence0, sentence1], [label0, label1], deadline)
            stopped = symmetrize(sentence0, sentence1, label0, label1, selection, deadline=deadline) or \
                stopped
            if stopped:  # the clock stopped the greedy start: the part it made, cut, no time for the solver
                proof.exact, proof.cut, proof.trivial = False, "timeout", True
                return
            made = {node.variable: node.mapped(label1)[0] for node in gold if node.mapped(label1)}
        seed = [position[made[node.variable]] if node.variable in made else -1 for node in gold]
        for node in gold:
            node.cross.pop(label1, None)
        for node in system:
            node.cross.pop(label0, None)
        partners = _partners(gold, system, len(sentence0.tokens))
        if forced(partners, seed):  # the one optimum: nothing to build or search
            proof.forced = True
            attach(seed, gold, system, label0, label1)
            return
        allowed = _rows(partners, len(system))
        terms = build(sentence0, sentence1, gold, system, allowed, label1, selection, partners)
        scale = terms.scale
        start = [int(j) for j in seed]
        sparse = terms.sparse()
        found = None
        if sparse_value(sparse, start) == sparse_upper_bound(sparse):
            found = SparseFound(start, sparse_value(sparse, start), 0)  # the greedy map meets the bound
        elif len(gold) <= SMALL_NODES:
            found = sparse_search(sparse, start, SMALL_STEPS)
        if found is not None:
            mapping = found.mapping
            proof.value = proof.bound = found.value // scale
            proof.steps = found.steps
        else:
            import numpy as np

            from mrp.solver import ready, solve_problem

            with get_watchdog().paused():  # kernels compiled or loaded outside the pair's clock, which goes
                ready(self.compiling)  # on from where the greedy start and building left it
            begin = np.array(start, np.int64)
            solution = solve_problem(terms.problem(), self.limit, self.timeout, lambda built, stop: begin,
                                     self.mip)
            mapping = [int(j) for j in solution.mapping]
            proof.exact, proof.value, proof.bound = solution.exact, int(solution.value) // scale, \
                int(solution.bound) // scale
            proof.steps, proof.cut, proof.note = solution.steps, solution.cut, solution.note
        mapping = [j if j >= 0 and allowed[i][j] else -1 for i, j in enumerate(mapping)]
        attach(mapping, gold, system, label0, label1)


def allowed_pairs(gold: List[Node], system: List[Node], width: int) -> List[List[bool]]:
    """Which gold node may correspond to which system node (the comparator's candidate rule: a shared aligned
    token within the first ``width`` tokens, or both unaligned with equal extended concepts)."""
    return _rows(_partners(gold, system, width), len(system))


def forced(partners: List[List[int]], mapping: List[int]) -> bool:
    """Whether the allowed node pairs are disjoint (each gold node allowed at most one system node, and each
    system node at most one gold node) and ``mapping`` pairs them all: then it is the one map with the most
    correct pairs and, among those, the most corresponding nodes (the objective's terms are all rewards, and
    every other map pairs only some of the same pairs).

    Args:
        partners: each gold node's allowed system nodes (positions, each once).
        mapping: per gold node, its system node's position or -1.

    Returns:
        True when the map is forced so.
    """
    used = set()
    for found, j in zip(partners, mapping):
        if len(found) > 1 or (found[0] if found else -1) != j:
            return False
        if j >= 0:
            if j in used:
                return False
            used.add(j)
    return True


def _rows(partners: List[List[int]], m: int) -> List[List[bool]]:
    """The allowed pairs as rows of ``m`` flags, from each gold node's allowed system nodes."""
    out = []
    for found in partners:
        row = [False] * m
        for j in found:
            row[j] = True
        out.append(row)
    return out


def _partners(gold: List[Node], system: List[Node], width: int) -> List[List[int]]:
    """Each gold node's allowed system nodes (:func:`allowed_pairs`; their positions, each once)."""
    by_token: Dict[int, List[int]] = {}
    by_concept: Dict[str, List[int]] = {}
    for j, b in enumerate(system):
        if b.alignment is None:
            by_concept.setdefault(b.econcept or "", []).append(j)
        else:
            for k in b.alignment:
                by_token.setdefault(k, []).append(j)
    partners = []
    for a in gold:
        if a.alignment is None:
            found = list(by_concept.get(a.econcept or "", ()))
        else:
            found = []
            seen = set()
            for k in a.alignment:
                if k < width:
                    for j in by_token.get(k, ()):
                        if j not in seen:
                            seen.add(j)
                            found.append(j)
        partners.append(found)
    return partners


@dataclass
class Terms:
    """What a map earns, in plain Python: node rewards (unscaled), and edges keyed (source, target,
    label) with their multiplicities, on the allowed pairs only."""

    U: List[List[int]]
    gold: Dict[Tuple[int, int, Hashable], int]
    system: Dict[Tuple[int, int, Hashable], int]
    allowed: List[List[bool]]
    #: each gold node's allowed system nodes (positions, each once)
    partners: List[List[int]]

    @property
    def scale(self) -> int:
        """What one correct pair is worth, above any number of corresponding nodes."""
        return weight(len(self.U), len(self.U[0]) if self.U else 0)

    def sparse(self) -> Sparse:
        """The objective for the plain-Python search: correct pairs scaled, plus one per mapped pair."""
        scale, allowed = self.scale, self.allowed
        U = [[0] * len(row) for row in self.U]
        for row, out, found in zip(self.U, U, self.partners):  # the allowed pairs alone, not every pair
            for j in found:
                out[j] = row[j] * scale + 1
        by_label: Dict[Hashable, List[Tuple[int, int, int]]] = {}
        for (c, d, key), count in self.system.items():
            by_label.setdefault(key, []).append((c, d, count))
        edges: List[SparseEdge] = []
        for (a, b, key), count in self.gold.items():
            if a == b:  # a loop matches a loop: a node reward
                for c, d, theirs in by_label.get(key, ()):
                    if c == d and allowed[a][c]:
                        U[a][c] += scale * min(count, theirs)
                continue
            table = {(c, d): scale * min(count, theirs) for c, d, theirs in by_label.get(key, ())
                     if c != d and allowed[a][c] and allowed[b][d]}
            edges.append((a, b, table))
        return Sparse(U, edges, allowed)

    def problem(self) -> Problem:
        """The same objective as the branch and bound's Problem."""
        import numpy as np

        from mrp.solver import with_edges

        scale = self.scale
        allowed = np.array(self.allowed, bool).reshape(len(self.U), -1)
        rewards = np.array(self.U, np.int64).reshape(allowed.shape) * scale + allowed
        built = with_edges(rewards, self.gold, self.system, lambda a, b: scale * min(a, b))
        return _allowed_only(built, allowed)


def _side(nodes: List[Node], sentence: Sentence, index: Dict[str, int], selection: Selection
          ) -> Tuple[List[Dict[Tuple[str, str], int]], Dict[Tuple[int, int, Hashable], int]]:
    """One side's constant pairs per node (concept included) and its edges (source, target, name) with
    multiplicities, in the order the relations are written."""
    constants_of = []
    edges_of: Dict[Tuple[int, int, Hashable], int] = {}
    table = profiles(sentence.nodes, selection)
    for k, node in enumerate(nodes):
        found = table[node.variable]
        constants_of.append(found.fixed)
        for name, variable, _ in found.edges:
            key = (k, index[variable], name)
            edges_of[key] = edges_of.get(key, 0) + 1
    return constants_of, edges_of


def build(sentence0: Sentence, sentence1: Sentence, gold: List[Node], system: List[Node],
          allowed: List[List[bool]], label1: str, selection: Selection,
          partners: Optional[List[List[int]]] = None) -> Terms:
    """The terms of a sentence pair: node rewards (concepts, constants, document-level relations with one
    end decided) and edges (relations, document-level relations between two nodes of the sentence);
    ``partners``: each gold node's allowed system nodes, each once (None: read from ``allowed``)."""
    if partners is None:
        partners = [[j for j, ok in enumerate(row) if ok] for row in allowed]
    gi = {node.variable: k for k, node in enumerate(gold)}
    si = {node.variable: k for k, node in enumerate(system)}
    U = [[0] * len(system) for _ in gold]
    gold_constants, gold_edges = _side(gold, sentence0, gi, selection)
    system_constants, system_edges = _side(system, sentence1, si, selection)
    for mine, row, found in zip(gold_constants, U, partners):
        for j in found:
            row[j] = matches(mine, system_constants[j])
    _document_terms(sentence0, sentence1, gi, si, allowed, U, gold_edges, system_edges, label1, selection)
    return Terms(U, gold_edges, system_edges, allowed, partners)


def weight(n: int, m: int) -> int:
    """What one correct pair is worth in the solver's objective, above any number of mapped nodes."""
    return min(n, m) + 1


def _end(name: str, sentence: Sentence, index: Dict[str, int], label: Optional[str]) -> Optional[End]:
    """A relation end: a node of the sentence, or a fixed name (a constant, or the counterpart of a node of
    an earlier sentence); None for a node whose counterpart is not decided yet."""
    if name in index:
        return ("node", index[name])
    if label is None:
        return ("fixed", name)
    node = (sentence.scope or {}).get(name)
    if node is None:
        return ("fixed", name)
    if label not in node.cross:
        return None
    found = node.mapped(label)
    return ("fixed", found[0] if len(found) == 1 else UNMAPPED)


def _document_terms(sentence0: Sentence, sentence1: Sentence, gi: Dict[str, int], si: Dict[str, int],
                    allowed: List[List[bool]], U: List[List[int]],
                    gold_edges: Dict[Tuple[int, int, Hashable], int],
                    system_edges: Dict[Tuple[int, int, Hashable], int], label1: str,
                    selection: Selection) -> None:
    theirs: Dict[Tuple[Optional[End], str, Optional[End]], int] = {}
    for triple in sentence1.docrels:
        a, relation, b = triple.split(" ")
        if selection.ignored(relation):
            continue
        ends = (_end(a, sentence1, si, None), relation, _end(b, sentence1, si, None))
        theirs[ends] = 1
        if ends[0] is not None and ends[2] is not None and ends[0][0] == "node" and ends[2][0] == "node":
            system_edges[(int(ends[0][1]), int(ends[2][1]), "document " + relation)] = 1
    for triple in sentence0.docrels:
        a, relation, b = triple.split(" ")
        if selection.ignored(relation):
            continue
        first, second = _end(a, sentence0, gi, label1), _end(b, sentence0, gi, label1)
        if first is None or second is None:
            continue
        if first[0] == "node" and second[0] == "node":
            gold_edges[(int(first[1]), int(second[1]), "document " + relation)] = 1
        elif first[0] == "node":
            for (x, r, y) in theirs:
                if r == relation and x is not None and x[0] == "node" and y == second:
                    if allowed[int(first[1])][int(x[1])]:
                        U[int(first[1])][int(x[1])] += 1
        elif second[0] == "node":
            for (x, r, y) in theirs:
                if r == relation and y is not None and y[0] == "node" and x == first:
                    if allowed[int(second[1])][int(y[1])]:
                        U[int(second[1])][int(y[1])] += 1


def _allowed_only(problem: Problem, allowed: Any) -> Problem:
    """The Problem without edge candidates whose ends pair nodes the rule does not allow."""
    problem.U[~allowed] = 0  # a relation of a node to itself rewards every pair it could form
    if problem.cc.shape[0] == 0:
        return problem
    import numpy as np

    edge_of = np.repeat(np.arange(problem.src.shape[0]), np.diff(problem.cptr))
    keep = allowed[problem.src[edge_of], problem.cc] & allowed[problem.tgt[edge_of], problem.cd]
    cptr = np.zeros_like(problem.cptr)
    np.cumsum(np.bincount(edge_of[keep], minlength=problem.src.shape[0]), out=cptr[1:])
    return problem._replace(cptr=cptr, cc=problem.cc[keep], cd=problem.cd[keep], cf=problem.cf[keep],
                            cw=problem.cw[keep])
