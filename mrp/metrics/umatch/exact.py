"""The exact juːmæʧ correspondence of a sentence pair: among the node pairs the comparator's rule allows
(a shared aligned token, or both unaligned with equal extended concepts), the 1:1 map with the most
correct (name, value) pairs, document-level relations included, found by mrp's branch and bound with a
proved bound and started from the comparator's greedy map (so it never counts fewer).  Among maps with the
most correct pairs it takes one with the most corresponding nodes."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Hashable, List, Optional, Tuple

import numpy as np

from mrp.metrics.umatch.links import candidates, symmetrize
from mrp.metrics.umatch.model import Node, Sentence
from mrp.metrics.umatch.triples import UNMAPPED, Selection
from mrp.solver import small
from mrp.solver.problem import Problem, with_edges

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


@dataclass
class ExactMapper:
    """Maps sentence pairs exactly (the solver's step limit, time cap and MIP hand-over as for every
    metric), recording each pair's proof by (first label, second label, sentence number)."""

    limit: Optional[int] = None
    timeout: Optional[float] = None
    mip: bool = True
    proofs: Dict[Tuple[str, str, int], Proof] = field(default_factory=dict)
    #: called when the solver's kernels take long to load (they are being compiled)
    compiling: Optional[Callable[[], None]] = None

    def __call__(self, sentence0: Sentence, sentence1: Sentence, label0: str, label1: str,
                 settings: object) -> None:
        from mrp.solver.watchdog import start_pair

        start_pair()  # each sentence pair has the whole --timeout
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
            _attach([], gold, system, label0, label1)
            return
        candidates([sentence0, sentence1], [label0, label1])
        symmetrize(sentence0, sentence1, label0, label1, selection)
        position = {node.variable: j for j, node in enumerate(system)}
        seed = np.array([position[node.mapped(label1)[0]] if node.mapped(label1) else -1 for node in gold],
                        np.int64)
        for node in gold:
            node.cross.pop(label1, None)
        for node in system:
            node.cross.pop(label0, None)
        allowed = allowed_pairs(gold, system, len(sentence0.tokens))
        problem = build(sentence0, sentence1, gold, system, allowed, label1, selection)
        scale = weight(len(gold), len(system))
        start = [int(j) for j in seed]
        found = None
        if small.value(problem, start) == small.upper_bound(problem):
            found = small.Found(start, small.value(problem, start), 0)  # the greedy map meets the bound
        elif len(gold) <= SMALL_NODES:
            found = small.search(problem, allowed, start, SMALL_STEPS)
        if found is not None:
            mapping = found.mapping
            proof.value = proof.bound = found.value // scale
            proof.steps = found.steps
        else:
            from mrp.metrics.mrp_pair import solve_problem
            from mrp.solver.warmup import ready

            ready(self.compiling)  # kernels compiled or loaded outside the pair's clock
            start_pair()
            solution = solve_problem(problem, self.limit, self.timeout, lambda built, stop: seed, self.mip)
            mapping = list(solution.mapping)
            proof.exact, proof.value, proof.bound = solution.exact, int(solution.value) // scale, \
                int(solution.bound) // scale
            proof.steps, proof.cut, proof.note = solution.steps, solution.cut, solution.note
        mapping = [j if j >= 0 and allowed[i, j] else -1 for i, j in enumerate(mapping)]
        _attach(mapping, gold, system, label0, label1)


def _attach(mapping: List[int], gold: List[Node], system: List[Node], label0: str, label1: str) -> None:
    for node in gold:
        node.cross[label1] = {}
    for node in system:
        node.cross[label0] = {}
    for i, j in enumerate(mapping):
        if j >= 0:
            gold[i].cross[label1] = {system[j].variable: 1}
            system[j].cross[label0] = {gold[i].variable: 1}


def allowed_pairs(gold: List[Node], system: List[Node], width: int) -> np.ndarray:
    """Which gold node may correspond to which system node (the comparator's candidate rule)."""
    out = np.zeros((len(gold), len(system)), bool)
    for i, a in enumerate(gold):
        mine = None if a.alignment is None else {k for k in a.alignment if k < width}
        for j, b in enumerate(system):
            if mine is None:
                out[i, j] = b.alignment is None and (a.econcept or "") == (b.econcept or "")
            elif b.alignment is not None:
                out[i, j] = any(k in mine for k in b.alignment)
    return out


def _split(node: Node, nodes: Dict[str, Node], index: Dict[str, int], selection: Selection
           ) -> Tuple[Counter, List[Tuple[int, str]]]:  # type: ignore[type-arg]
    """A node's constant pairs (concept included) and its edges (target position, name)."""
    constants: Counter = Counter()  # type: ignore[type-arg]
    if not selection.ignored("concept"):
        constants[("concept", node.concept)] += 1
    edges = []
    for name, value in node.relations:
        if not value or selection.ignored(name):
            continue
        if value in nodes:
            edges.append((index[value], name))
        else:
            constants[(name, value)] += 1
    return constants, edges


def build(sentence0: Sentence, sentence1: Sentence, gold: List[Node], system: List[Node],
          allowed: np.ndarray, label1: str, selection: Selection) -> Problem:
    """The solver's Problem: node rewards (concepts, constants, document-level relations with one end
    decided) and edges (relations, document-level relations between two nodes of the sentence)."""
    gi = {node.variable: k for k, node in enumerate(gold)}
    si = {node.variable: k for k, node in enumerate(system)}
    n, m = len(gold), len(system)
    U = np.zeros((n, m), np.int64)
    gold_edges: Dict[Tuple[int, int, Hashable], int] = {}
    system_edges: Dict[Tuple[int, int, Hashable], int] = {}
    gold_constants = []
    for i, node in enumerate(gold):
        constants, edges = _split(node, sentence0.nodes, gi, selection)
        gold_constants.append(constants)
        for target, name in edges:
            gold_edges[(i, target, name)] = gold_edges.get((i, target, name), 0) + 1
    system_constants = []
    for j, node in enumerate(system):
        constants, edges = _split(node, sentence1.nodes, si, selection)
        system_constants.append(constants)
        for target, name in edges:
            system_edges[(j, target, name)] = system_edges.get((j, target, name), 0) + 1
    for i, j in zip(*np.nonzero(allowed)):
        U[i, j] = sum((gold_constants[i] & system_constants[j]).values())
    _document_terms(sentence0, sentence1, gi, si, allowed, U, gold_edges, system_edges, label1, selection)
    # correct pairs first, then as many corresponding nodes as the rule allows: scaled by WEIGHT(n, m)
    scale = weight(n, m)
    problem = with_edges(U * scale + allowed, gold_edges, system_edges, lambda a, b: scale * min(a, b))
    return _allowed_only(problem, allowed)


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
                    allowed: np.ndarray, U: np.ndarray, gold_edges: Dict[Tuple[int, int, Hashable], int],
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
                    if allowed[int(first[1]), int(x[1])]:
                        U[int(first[1]), int(x[1])] += 1
        elif second[0] == "node":
            for (x, r, y) in theirs:
                if r == relation and y is not None and y[0] == "node" and x == first:
                    if allowed[int(second[1]), int(y[1])]:
                        U[int(second[1]), int(y[1])] += 1


def _allowed_only(problem: Problem, allowed: np.ndarray) -> Problem:
    """The Problem without edge candidates whose ends pair nodes the rule does not allow."""
    problem.U[~allowed] = 0  # a relation of a node to itself rewards every pair it could form
    if problem.cc.shape[0] == 0:
        return problem
    edge_of = np.repeat(np.arange(problem.src.shape[0]), np.diff(problem.cptr))
    keep = allowed[problem.src[edge_of], problem.cc] & allowed[problem.tgt[edge_of], problem.cd]
    cptr = np.zeros_like(problem.cptr)
    np.cumsum(np.bincount(edge_of[keep], minlength=problem.src.shape[0]), out=cptr[1:])
    return problem._replace(cptr=cptr, cc=problem.cc[keep], cd=problem.cd[keep], cf=problem.cf[keep],
                            cw=problem.cw[keep])
