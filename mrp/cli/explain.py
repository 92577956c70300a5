"""mrp-score's ``--explain FILE`` and ``--explain-id ID``: which metric is explained, the checks made before
scoring, and the scoring run whose pairs the report draws (:mod:`mrp.explain`)."""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from typing import Any, Dict, List, Optional, Tuple

from mrp.cli.common import fail, warn
from mrp.metrics import Options, Pairing, metric
from mrp.pipeline import score_pairing

PROGRAM = "mrp-score"


def check_arguments(args: argparse.Namespace) -> None:
    """Refuse what cannot give a report (before anything is read)."""
    if args.explain_id is not None and not args.explain:
        fail(PROGRAM, "--explain-id needs --explain FILE (where the pair's page goes), e.g. "
                      f"--explain pair.html --explain-id {args.explain_id}")
    if not args.explain:
        return
    if args.explain == "-":
        fail(PROGRAM, "--explain -: standard output carries the scores; name a file, e.g. "
                      "--explain report.html")
    if len(args.system) > 1:
        fail(PROGRAM, "--explain works with one SYSTEM file")
    folder = os.path.dirname(os.path.abspath(args.explain))
    if not os.path.isdir(folder):
        fail(PROGRAM, f"--explain {args.explain}: no such folder: {folder}")


def explained(metrics: List[str], args: argparse.Namespace) -> Optional[str]:
    """The metric whose pairs the report explains: the first named that aligns nodes (None without
    --explain); exit 2 when none does."""
    if not args.explain:
        return None
    able = [name for name in metrics if metric(name).explains]
    if not able:
        from mrp.metrics import metrics as registered

        those = [measure.name for measure in registered() if measure.explains]
        fail(PROGRAM, f"--explain: {', '.join(metrics)} align(s) no nodes to show; explain with --score "
                      f"{', '.join(those[:-1])} or {those[-1]}")
    if len(metrics) > 1 and not args.quiet:
        warn(PROGRAM, f"--explain shows the pairs of {able[0]} (the first metric named that aligns nodes)")
    return able[0]


def check_pair(pairing: Pairing, args: argparse.Namespace) -> None:
    """With --explain-id, exit 2 when no scored pair has that gold id (before scoring)."""
    if args.explain_id is None:
        return
    if not any(pair.gold_entry.id == args.explain_id for pair in pairing.pairs):
        fail(PROGRAM, f"--explain-id {args.explain_id}: no gold graph of that id is scored")


def explain_run(name: str, pairing: Pairing, options: Options) -> Tuple[Dict[str, Any], Dict[str, Any], Any]:
    """The metric's result and --errors data, as ``evaluate`` gives them, and the Run the report draws
    (every pair's detail collected)."""
    scored = score_pairing(name, pairing, replace(options, explain=True))
    return scored.result, scored.details, scored.run


def write(name: str, done: Any, result: Dict[str, Any], args: argparse.Namespace) -> None:
    """Write the report (the whole run, or the one pair of --explain-id), and say where on stderr."""
    from mrp.explain.build import write_scored

    title = f"{os.path.basename(args.system[0])} against {os.path.basename(args.gold)}"
    try:
        written = write_scored(args.explain, metric(name), done, result, title, args.explain_id)
    except OSError as error:
        fail(PROGRAM, f"--explain {args.explain}: cannot write it: {error.strerror or error}")
    if not args.quiet:
        warn(PROGRAM, f"--explain: {written} pair(s) in {args.explain}")
