"""A :class:`~mrp.api.scoring.Scorer`'s state: small, picklable, and merged across processes.

A state holds what :meth:`Scorer.compute` reads of the batches scored so far: each pair's counts and how
its search ended (exact, bound, steps, cut), its gold graph's id and framework, and the pairing counts;
not the graphs (a metric whose result needs them, as umatch's documents, keeps them).  States of the same
scorer merge in order (``a.merge(b)``, ``a + b``, ``sum(states)``): the merged state gives the result of
one :func:`mrp.score` call over the pairs of ``a`` then those of ``b``, however the batches were cut and
whichever process scored them, so that any framework's all-gather of states followed by a merge gives
one call's numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, Optional, Tuple

from mrp.corpora import Entry, live
from mrp.engine import Execution, Options, Pair, Pairing, Run
from mrp.errors import ScoreError
from mrp.graph import Graph

__all__ = ["ScorerState"]


@dataclass
class ScorerState:
    """What a Scorer has gathered, without its graphs: picklable, and merged with another scorer's state
    of the same metric and options (:meth:`merge`, ``+``, ``sum``).

    Attributes:
        key: the metric and the options that change the numbers (states of different keys do not merge).
        runs: each scored batch (its pairs' results, the gold graphs' ids and the pairing counts).
        held: batches kept whole for a metric whose pairs depend on each other (umatch), with their graphs.
        details: the --errors data of the pairs, by framework and id.
        penman: whether the batches were read from Penman (None: no batch yet).
        paired: whether any system graph paired with a gold graph.
        seen: the number of pairs so far (pairs numbered by position are numbered from it).
    """

    key: Tuple[Any, ...]
    runs: List[Run] = field(default_factory=list)
    held: List[Pairing] = field(default_factory=list)
    details: Dict[str, Any] = field(default_factory=dict)
    penman: Optional[bool] = None
    paired: bool = False
    seen: int = 0

    def merge(self, other: ScorerState) -> ScorerState:
        """This state's batches, then ``other``'s, as one scorer would hold them.

        Args:
            other: a state of a scorer with the same metric and options.

        Returns:
            A new state (neither is changed).

        Raises:
            mrp.errors.ScoreError: for states of different metrics or options, or of Penman and other
                graphs.
        """
        if other.key != self.key:
            raise ScoreError("scorer states of different metrics or options cannot be merged: "
                             f"{self.key[0]} and {other.key[0]}")
        if None not in (self.penman, other.penman) and self.penman != other.penman:
            raise ScoreError("a state of Penman graphs and a state of other graphs cannot be merged")
        details = {framework: dict(items) for framework, items in self.details.items()}
        for framework, items in other.details.items():
            details.setdefault(framework, {}).update(items)
        runs = list(self.runs)
        position = 0
        for run in other.runs:
            runs.append(replace(run, pairing=renumbered(run.pairing, self.seen, position)))
            position += len(run.pairing.pairs)
        held = list(self.held)
        position = 0
        for pairing in other.held:
            held.append(renumbered(pairing, self.seen, position))
            position += len(pairing.pairs)
        penman = self.penman if self.penman is not None else other.penman
        return ScorerState(self.key, runs, held, details, penman, self.paired or other.paired,
                           self.seen + other.seen)

    def __add__(self, other: Any) -> ScorerState:
        if isinstance(other, ScorerState):
            return self.merge(other)
        return NotImplemented

    def __radd__(self, other: Any) -> ScorerState:
        if isinstance(other, int) and other == 0:  # sum(states) starts from 0
            return self
        return NotImplemented


def renumbered(pairing: Pairing, offset: int, start: int = 0) -> Pairing:
    """A pairing whose pairs numbered by position (the pair at position k, counted from ``start``, whose
    gold id is ``str(k)``) are numbered from ``offset`` instead, so that batches of several scorers keep
    distinct ids."""
    if not offset:
        return pairing
    pairs = []
    for position, item in enumerate(pairing.pairs, start=start):
        gold, system = item.gold_entry, item.system_entry
        if gold.id == str(position):
            gold = replace(live(gold), id=str(position + offset))
            system = replace(live(system), id=str(position + offset))
        pairs.append(Pair(gold, system, item.null))
    return replace(pairing, pairs=pairs)


def _stub(entry: Entry) -> Graph:
    """A graph's identity without its content."""
    graph = live(entry)
    return Graph(id=graph.id, framework=graph.framework, flavor=graph.flavor)


def light(run: Run) -> Run:
    """A run without its graphs (each pair's gold and system graphs kept as their identity) and without
    its execution settings (progress lines, workers): what its result reads, picklable."""
    pairing = run.pairing
    kept = replace(pairing, pairs=[Pair(_stub(item.gold_entry), _stub(item.system_entry), item.null)
                                   for item in pairing.pairs],
                   unpaired=[_stub(entry) for entry in pairing.unpaired],
                   duplicates=[_stub(entry) for entry in pairing.duplicates],
                   missing=[_stub(entry) for entry in pairing.missing],
                   invalid=list(pairing.invalid), notes=list(pairing.notes))
    options: Options = replace(run.options, run=Execution())
    results = [replace(result, detail=None) for result in run.results]
    return replace(run, pairing=kept, results=results, options=options)


def needs_graphs(metric: Any, options: Options) -> bool:
    """Whether a metric's result reads the graphs of its pairs and not only their results (documents
    restricted by sentence, AnCast's document figures, umatch's documents): its state keeps them."""
    return bool(metric.contextual or options.doc_align == "sentence"
                or (metric.name == "ancast" and options.ancast_scope != "snt"))


def key_of(metric: str, options: Options, arguments: Dict[str, Any]) -> Tuple[Any, ...]:
    """The key of a scorer's state: its metric and everything that changes the numbers."""
    fixed = replace(options, run=Execution())
    return (metric, repr(fixed), repr(sorted((name, repr(value)) for name, value in arguments.items()
                                             if name not in ("progress", "jobs"))))
