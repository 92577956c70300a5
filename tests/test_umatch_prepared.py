"""juːmæʧ prepares a pairing's pairs once for every run on them (issue 64 goal 2: the kit's compat, exact,
no-document-level and aligned-token figures of one file pair), and its compat run without document-level
relations takes the correspondence of the one with them: the shared work gives, pair for pair, the counts,
proofs and cuts of runs made afresh, on every shared UMR file pair and on files whose compat reading differs
from mrp's (the exact figure then reads them itself)."""

from __future__ import annotations

import contextlib
import gc
import shutil
from pathlib import Path
from typing import Any, Iterator, List, Tuple

import pytest

from mrp.corpora.load import read_corpus
from mrp.metrics.umatch import compare, graphs
from mrp.metrics.umatch.metric import METRIC
from mrp.task.definition import load
from mrp.task.scoring import score_file

from conftest import ROOT, shared_file

CZECH = "data/umr/czech-pdtc"
RUNS: List[int] = []  # correspondences made (compare.run)


def _runs(gold: str, system: str, fresh: bool) -> Tuple[List[Any], int]:
    """Every figure of dmr2026-umr on one file pair, in the task's order (``fresh``: each run prepares the
    pairs itself): per run and pair its counts, proof and cut; and how many preparations were made."""
    made = []
    files, comparing = graphs.files, compare.run

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(args[2] if len(args) > 2 else kwargs.get("compat"))
        return files(*args, **kwargs)

    def mapped(*args: Any, **kwargs: Any) -> Any:
        RUNS.append(1)
        return comparing(*args, **kwargs)

    graphs.files = counted  # type: ignore[assignment]
    compare.run = mapped  # type: ignore[assignment]
    try:
        first, second = read_corpus(gold, "umr"), read_corpus(system, "umr")
        out = []
        for spec in load("dmr2026-umr").metrics:
            if fresh:
                METRIC._last = METRIC._greedy = None
                METRIC._kept = graphs.Kept()
            run = score_file(spec, first, second)
            out.append([(sorted(result.counts.items()), result.exact, result.bound, result.cut)
                        for result in run.results])
    finally:
        graphs.files, compare.run = files, comparing  # type: ignore[assignment]
    return out, len(made)


def _pairs() -> List[Tuple[str, str]]:
    czech = [(str(shared_file(CZECH, f"{n}-gold.umr")), str(shared_file(CZECH, f"{n}-conv.umr")))
             for n in ("pdt", "pdtsc", "pcedt")]
    english = sorted(shared_file("data", "umr", "english").glob("*.umr"))
    return czech + [(str(path), str(path)) for path in english] + [(czech[0][1], czech[0][0])]


@pytest.mark.parametrize("k", range(7))
def test_one_preparation_gives_the_figures_of_separate_ones(k: int) -> None:
    gold, system = _pairs()[k]
    RUNS.clear()
    shared, made = _runs(gold, system, fresh=False)
    together = len(RUNS)
    separate, fresh = _runs(gold, system, fresh=True)
    english = "english" in gold  # sections set apart: the exact figure reads the files as mrp reads them
    assert shared == separate
    assert (made, fresh) == ((2, 5) if english else (1, 4))
    assert (together, len(RUNS) - together) == (2, 4)  # compat and exact; each figure on its own


def test_the_exact_figure_reads_an_alignment_line_compare_umr_stops_at_as_mrp_does(tmp_path: Path) -> None:
    data = ROOT / "tests" / "data" / "umatch"
    text = (data / "gold.umr").read_text(encoding="utf-8").replace("\ns2s: 2-2\n", "\ns2s: -1--1\n")
    (tmp_path / "gold.umr").write_text(text, encoding="utf-8")
    shutil.copyfile(data / "system.umr", tmp_path / "system.umr")
    shared, made = _runs(str(tmp_path / "gold.umr"), str(tmp_path / "system.umr"), fresh=False)
    separate, _ = _runs(str(tmp_path / "gold.umr"), str(tmp_path / "system.umr"), fresh=True)
    assert shared == separate and made == 2
    assert shared[0] != shared[1]  # compat stops at the line, exact reads it as unaligned


@contextlib.contextmanager
def _counted(name: str) -> Iterator[List[int]]:
    """Each call of juːmæʧ's ``graphs.<name>`` counted (one item a call) while the block runs."""
    calls: List[int] = []
    original = getattr(graphs, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    setattr(graphs, name, counted)
    try:
        yield calls
    finally:
        setattr(graphs, name, original)


@pytest.mark.parametrize("k, limit", [(0, 20_000), (3, 20_000), (0, 10)])
def test_sentences_let_go_are_freed_without_the_collector(k: int, limit: int) -> None:
    """A preparation done with (the last pairing's when the next begins, the exact reading's own sentences,
    a kept gold sentence let go for room) leaves no cycle behind: in a command's own process what a run
    made is frozen out of the collector's way when it ends, so that a cycle would never be freed (the
    night's memory doubled with the runs' frozen sentences)."""
    gold, system = _pairs()[k]
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        METRIC._kept = graphs.Kept(limit)
        for other in (system, gold, system):  # each its own pairing: the one before it let go
            _runs(gold, other, fresh=False)
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = sorted({type(found).__name__ for found in gc.garbage} & {"Node", "Profile", "Sentence"})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        METRIC._kept = graphs.Kept()
        if enabled:
            gc.enable()
    assert left == []


def _kit(gold: str, systems: List[str], fresh: bool) -> Tuple[List[Any], List[Tuple[int, int]]]:
    """Every figure of dmr2026-umr on one gold file, read once as mrp-evaluate reads it, against each system
    file in turn (``fresh``: nothing kept from one pair to the next), per run and pair; and per system file,
    how many sentence graphs juːmæʧ read of the gold file's and of the system file's."""
    first = read_corpus(gold, "umr")
    ours = {id(graph) for graph in first.graphs}
    read: List[bool] = []  # per sentence graph juːmæʧ reads: whether it is one of the gold file's
    original = graphs.sentence

    def counted(graph: Any, *args: Any, **kwargs: Any) -> Any:
        read.append(id(graph) in ours)
        return original(graph, *args, **kwargs)

    out, per_file = [], []
    METRIC._last = METRIC._greedy = None
    METRIC._kept = graphs.Kept()
    graphs.sentence = counted  # type: ignore[assignment]
    try:
        for system in systems:
            second = read_corpus(system, "umr")
            if fresh:
                METRIC._last = METRIC._greedy = None
                METRIC._kept = graphs.Kept()
            read.clear()
            for spec in load("dmr2026-umr").metrics:
                out.append([(sorted(result.counts.items()), result.exact, result.bound, result.cut)
                            for result in score_file(spec, first, second).results])
            per_file.append((sum(read), len(read) - sum(read)))
    finally:
        graphs.sentence = original  # type: ignore[assignment]
    return out, per_file


@pytest.mark.parametrize("k", [0, 3])
def test_a_gold_file_is_read_once_for_every_team(k: int) -> None:
    """A gold file read once, as mrp-evaluate's process reads it, against every team's file in turn: juːmæʧ
    reads its sentence graphs for the first team only (each once; a fresh reading, for every team), the
    later teams are given the sentences kept, and the figures are those of fresh readings, pair for pair
    (the second team's file is the gold file read again: graphs of its own, read as a system's)."""
    gold, system = _pairs()[k]
    try:
        kept, read = _kit(gold, [system, gold, system], fresh=False)
        separate, fresh = _kit(gold, [system, gold, system], fresh=True)
    finally:
        METRIC._kept = graphs.Kept()
    sentences = len(read_corpus(gold, "umr").graphs)
    assert fresh == [(sentences, sentences)] * 3
    assert read == [(sentences, sentences), (0, sentences), (0, sentences)]
    assert kept == separate


def test_a_gold_files_exact_reading_is_made_once_for_every_team() -> None:
    """Where compare_umr.pl's reading of the gold leaves a part out (sections set apart), mrp's reading that
    the exact figure takes is made from it once while the gold is kept, and given again to the next team's
    pairing cleared of the run before: the figures of fresh readings, pair for pair."""
    gold, system = _pairs()[3]
    try:
        with _counted("whole") as made:
            kept, _ = _kit(gold, [system, gold, system], fresh=False)
            once = len(made)
            separate, _ = _kit(gold, [system, gold, system], fresh=True)
    finally:
        METRIC._kept = graphs.Kept()
    assert kept == separate
    derived = sum(graphs.sentence(graph, k, compat=True).unread is not None
                  for k, graph in enumerate(read_corpus(gold, "umr").graphs, 1))
    assert derived > 10 and (len(made) - once) - once == 2 * derived  # the gold: for the first team only
