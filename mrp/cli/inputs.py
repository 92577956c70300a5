"""Reading the gold and system files of a scoring run: checks made before reading, selection, pairing.

What mrp-score and mrp-mtool share: a format that cannot name its framework
needs one, SDP needs --text, a --framework must be known and present, graphs
are picked by --id/--i/--n/--filter, and a run where no system graph pairs
with a gold graph stops (exit 2) instead of printing a silent 0.0.
"""

from __future__ import annotations

import argparse
import warnings
from typing import Dict, Mapping, Optional, Sequence, Set

from mrp.cli.common import fail, read_ids, report, report_repairs, select, selecting, warn
from mrp.corpora import Ahead, Corpus, entries
from mrp.errors import excerpt
from mrp.graph import Graph
from mrp.metrics import Pairing, PairingWarning, key
from mrp.pipeline import gold_problems, unanswered
from mrp.pipeline import paired as pairing_of

#: formats whose readers need the sentences of --text (they hold only tokens)
NEEDS_TEXT = ("dm", "psd", "sdp")


def check_before_reading(program: str, path: str, fmt: str, args: argparse.Namespace,
                         frameworks: Optional[Sequence[str]], needs_text: bool = True) -> None:
    """Refuse, once and before reading, what would fail for every graph of the file (``needs_text``
    False: SDP is read without --text, unanchored, as mtool reads it)."""
    if fmt == "sdp" and not (frameworks and len(frameworks) == 1):
        fail(program, f"{path}: an SDP file does not name its framework: give --framework dm or "
                      "--framework psd")
    if fmt in NEEDS_TEXT and not args.text and needs_text:
        fail(program, f"{path}: reading {fmt} needs the sentences: give --text FILE "
                      "(id<TAB>sentence lines), e.g. --text wsj.txt")


def check_framework_present(program: str, gold: Corpus, frameworks: Optional[Sequence[str]],
                            quiet: bool) -> None:
    """Every --framework must match some gold graph: none matching stops, a partial match warns."""
    if not frameworks:
        return
    counts: Dict[str, int] = {}
    for graph in entries(gold.graphs):
        counts[graph.framework or "none"] = counts.get(graph.framework or "none", 0) + 1
    held = ", ".join(f"{name} ({n})" for name, n in sorted(counts.items())) or "no graph"
    absent = [name for name in frameworks if name not in counts]
    if len(absent) == len(frameworks):
        fail(program, f"--framework {', '.join(absent)}: {gold.name} holds no graph of "
                      f"{'this framework' if len(absent) == 1 else 'these frameworks'} (it holds: {held})")
    if absent and not quiet:
        warn(program, f"--framework {', '.join(absent)}: {gold.name} holds no graph of it (it holds: {held})")


def warn_missing_text(program: str, corpus: Corpus, text: Optional[Mapping[str, str]], quiet: bool) -> None:
    """AMR graphs that the --text table lacks keep their own ::snt: say so (once per file, with a count)."""
    if text is None or quiet or corpus.format != "amr":
        return
    missing = [g for g in entries(corpus.graphs) if g.id not in text]
    if missing:
        first = missing[0]
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        warn(program, f"{corpus.name}:{first.line or '?'}: graph {excerpt(first.id)}{more}: not in the "
                      "--text table; keeps its own ::snt")


def filter_ids(args: argparse.Namespace) -> Optional[Set[str]]:
    """The ids of --filter FILE, or None."""
    return read_ids(args.select_filter) if args.select_filter else None


def select_gold(gold: Corpus, args: argparse.Namespace, frameworks: Optional[Sequence[str]]) -> Corpus:
    """The gold graphs that --framework and --id/--i/--n/--filter keep (in file order)."""
    if not selecting(args):
        return gold
    keep = [g for g in gold.graphs if not frameworks or g.framework in frameworks]
    gold.graphs = select(keep, args, filter_ids(args))
    return gold


def restrict_system(system: Corpus, gold: Corpus) -> Corpus:
    """The system graphs (and unreadable graphs) whose key is a selected gold graph's."""
    keys = {key(g) for g in gold.graphs}
    ids = {g.id for g in gold.graphs}
    system.graphs = [g for g in system.graphs if key(g) in keys]
    system.errors = [e for e in system.errors if e.graph_id in ids]
    system.repaired = [r for r in system.repaired if r.graph_id in ids]
    return system


def read_system(ahead: Ahead, gold: Corpus, args: argparse.Namespace) -> Corpus:
    """A system file (read ahead, or now), restricted to the selected gold graphs when graphs are
    selected."""
    system = ahead.corpus()
    report_repairs(system)
    return restrict_system(system, gold) if selecting(args) else system


def require_pairs(program: str, gold: Corpus, system: Corpus, pairing: Pairing) -> None:
    """Stop when not one system graph pairs with a gold graph (wrong framework, ids or files)."""
    if not pairing.pairs:
        fail(program, f"{gold.name}: no gold graph to score (check --framework and the graph selection)")
    if not unanswered(pairing):
        return
    fail(program, f"{system.name}: no system graph pairs with a gold graph by (framework, id); "
                  f"gold has {_sample(pairing.pairs[0].gold)}, system has "
                  f"{_sample(system.graphs[0]) if system.graphs else 'no graph'} "
                  "(check --framework, --format and the ids)")


def check_gold(program: str, gold: Corpus) -> None:
    """Exit 2 on any invalid or repeated gold graph (each listed first): a wrong gold spoils every number."""
    bad = gold_problems(gold)
    if bad:
        for error in bad:
            report(error)
        fail(program, f"{gold.name}: {len(bad)} invalid gold graph(s); nothing scored")


def paired(program: str, gold: Corpus, system: Corpus, frameworks: Optional[Sequence[str]],
           quiet: bool, by_position: bool = False) -> Pairing:
    """Pair the files, report how (notes) and what is not scored (invalid, unpaired, duplicate), and
    require a pair."""
    with warnings.catch_warnings():
        if quiet:  # the counts stay in the result
            warnings.simplefilter("ignore", PairingWarning)
        pairing = pairing_of(gold, system, frameworks, by_position)
    for note in pairing.notes:
        warn(program, note)
    for error in pairing.invalid:
        report(error, " (scored as an empty graph)")
    if not quiet:
        for graph in pairing.unpaired:
            warn(program, f"{system.name}:{graph.line or '?'}: graph {excerpt(graph.id)}: no gold graph; "
                          "not scored")
        for graph in pairing.duplicates:
            warn(program, f"{system.name}:{graph.line or '?'}: graph {excerpt(graph.id)}: duplicate id; "
                          "not scored")
    require_pairs(program, gold, system, pairing)
    return pairing


def _sample(graph: Graph) -> str:
    return f"e.g. graph {excerpt(graph.id)} of framework {graph.framework or 'none'}"


