"""The steps between reading and the result, one rule each, for every door: the gold's check, the AMR
standardization (and its warning), the "score Penman triples" rule, the pairing and its checks, and the
metric's run on the one driver."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from itertools import chain
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from mrp.codecs import reads_penman
from mrp.corpora import Corpus, mapped
from mrp.engine import Options, Pairing, Run, duplicate_errors, pair, run_summary
from mrp.errors import FormatError, MRPWarning
from mrp.graph import Graph
from mrp.metrics.registry import metric as registered

__all__ = ["LayoutWarning", "Scored", "gold_problems", "load_solver", "paired", "penman_corpora",
           "penman_triples", "run_pairing", "score_pairing", "standardized", "unanswered"]


class LayoutWarning(MRPWarning):
    """AMR graphs without a Penman layout, which ``--standardize structure`` leaves unchanged."""


def gold_problems(gold: Corpus) -> List[FormatError]:
    """The gold graphs that cannot be scored against: those that could not be read, and repeated ids (a
    wrong gold spoils every number: every door refuses the run).

    Args:
        gold: the gold corpus.

    Returns:
        One error each, in file order (unreadable first).
    """
    return gold.errors + duplicate_errors(gold)


def standardized(corpus: Corpus, std: Any) -> Corpus:
    """The corpus with the AMR standardization applied to every graph (in place); with structure
    preservation, one :class:`LayoutWarning` for its AMR graphs that have no Penman layout to preserve.

    Args:
        corpus: the corpus.
        std: the standardization (:func:`mrp.standardize.options.parse`).

    Returns:
        The corpus.
    """
    if std.active():
        from mrp.standardize.graph import standardize

        if std.structure:
            from mrp.standardize.structure import applies

            missing = sum(graph.framework in (None, "amr") and not applies(graph) for graph in corpus.graphs)
            if missing:
                warnings.warn(f"{corpus.name}: {missing} AMR graph(s) have no Penman layout (read from MRP "
                              "JSON?); structure preservation leaves them unchanged", LayoutWarning,
                              stacklevel=2)
        corpus.graphs = mapped(corpus.graphs, lambda graph: standardize(graph, std))
    return corpus


def penman_triples(triples: Optional[str], formats: Sequence[Optional[str]],
                   graphs: Optional[Iterable[Graph]] = None) -> bool:
    """The one rule of which triples SMATCH counts: the original tool's (its Penman triples) on AMR read from
    Penman; mtool's of the MRP form otherwise, or when asked (``triples="mrp"``).

    Args:
        triples: "penman", "mrp" or None (the default: by the inputs).
        formats: the formats of every input (gold first).
        graphs: the graphs of inputs given as text or objects (None: files, whose formats decide): Penman
            when every one is AMR with a Penman layout.

    Returns:
        Whether SMATCH counts Penman triples.
    """
    if triples == "mrp":
        return False
    if formats and all(fmt is not None and reads_penman(fmt) for fmt in formats):
        return True
    if graphs is None:
        return False
    return all(graph.framework in (None, "amr") and graph.layout is not None for graph in graphs)


def penman_corpora(triples: Optional[str], corpora: Sequence[Corpus]) -> bool:
    """:func:`penman_triples` of corpora read already (their formats, then their graphs decide).

    Args:
        triples: "penman", "mrp" or None.
        corpora: every corpus of the run.

    Returns:
        Whether SMATCH counts Penman triples.
    """
    return penman_triples(triples, [corpus.format for corpus in corpora],
                          chain.from_iterable(corpus.graphs for corpus in corpora))


def paired(gold: Corpus, system: Corpus, frameworks: Optional[Sequence[str]] = None,
           by_position: bool = False) -> Pairing:
    """Gold and system graphs paired (:func:`mrp.engine.pairing.pair`: by framework and id, by position
    or by sentence), with its counts and notes.

    Args:
        gold: the gold corpus.
        system: the system corpus.
        frameworks: the frameworks scored (None: all).
        by_position: pair by position even where the files hold different numbers of graphs.

    Returns:
        The pairing.
    """
    return pair(gold, system, frameworks, by_position=by_position)


def unanswered(pairing: Pairing) -> bool:
    """Whether no system graph (read, or unreadable and counted) answers a gold graph: a run that would
    print a silent zero."""
    return not (pairing.answered() or pairing.invalid)


@dataclass
class Scored:
    """One metric's run over a pairing: the Run (every pair's result), the result object (the envelope
    every result has, before macro figures, intervals and signature) and the ``--errors`` data."""

    run: Run
    result: Dict[str, Any]
    details: Dict[str, Any]


def load_solver() -> None:
    """Load (or compile) the solver's kernels now, before any run's clock (the kit, before forking its
    workers: each child then has them)."""
    from mrp.solver import ready

    ready(None)


def run_pairing(name: str, pairing: Pairing, options: Options) -> Tuple[Run, Dict[str, Any]]:
    """A metric's pairs scored on the one driver (the solver loaded before the run's clock starts), every
    door's only way to the driver: the Run and the ``--errors`` data (a batch of :class:`mrp.Scorer`, or
    a file of the kit, whose results are summed later).

    Args:
        name: the metric's registry name.
        pairing: the pairs.
        options: the run's options.

    Returns:
        The Run and the ``--errors`` data {framework: {id: data}}.
    """
    from mrp.engine import run_metric  # looked up at each run: a test may replace the driver's run

    return run_metric(registered(name), pairing, options)


def score_pairing(name: str, pairing: Pairing, options: Options) -> Scored:
    """A metric over a pairing (:func:`run_pairing`) and its result object.

    Args:
        name: the metric's registry name.
        pairing: the pairs.
        options: the run's options.

    Returns:
        The scored run.
    """
    done, details = run_pairing(name, pairing, options)
    return Scored(done, run_summary(registered(name), done), details)
