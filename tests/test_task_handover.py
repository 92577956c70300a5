"""What mrp-evaluate's workers hand back (mrp.task.pool): each file read is handed over without its graphs,
which the evaluation reads again from the file's bytes where it uses them (mrp.task.reading.Reread: the same
graphs, no warning given again); the outputs do not change (tests/test_task_jobs.py compares them)."""

from __future__ import annotations

import io
import pickle
import warnings
from pathlib import Path
from typing import Any, List

import pytest
from test_task_memo import _folder

from mrp.graph import Graph
from mrp.task.definition import load
from mrp.task.files import gold_files
from mrp.task.memo import EvaluationMemo, file_digest
from mrp.task.pool import compute_ahead
from mrp.task.reading import Reread, handed, read_file

from conftest import ROOT

DEMO = ROOT / "data" / "demo"


def _validation(task, path, memo):  # type: ignore[no-untyped-def]
    return False, [], []


def _graphs_pickled(value: Any) -> int:
    """How many graphs pickling ``value`` writes."""
    found: List[Graph] = []

    class Watched(pickle.Pickler):
        def persistent_id(self, obj: Any) -> None:
            if isinstance(obj, Graph):
                found.append(obj)
            return None

    Watched(io.BytesIO(), protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return len(found)


def test_the_files_read_ahead_are_handed_over_without_their_graphs(tmp_path: Path) -> None:
    """Every file read ahead comes back as little more than its bytes (its graphs pickled back cost more than
    reading them again), and its graphs, read where they are used, are those a reading in this process
    gives."""
    folder = _folder(tmp_path)
    task = load("dmr2026-umr")
    gold = gold_files(str(folder / "gold"), task)
    plans = [[(name, path, str(folder / team / name)) for name, path in gold.items()]
             for team in ("team-a", "team-b")]
    memo = EvaluationMemo()
    compute_ahead(task, gold, plans, memo, 2, _validation)
    paths = [*gold.values(), *(path for pairs in plans for _, _, path in pairs)]
    seen = set()
    for path in paths:
        digest = file_digest(path)
        if digest in seen:
            continue
        seen.add(digest)
        corpus, said = memo.get("read", (digest, "umr"), lambda: pytest.fail("not read ahead"))
        assert _graphs_pickled(corpus) == 0
        fresh, _ = read_file(path, "umr")
        assert fresh.graphs and list(corpus.graphs) == list(fresh.graphs)
        assert [g.variables for g in corpus.graphs] == [g.variables for g in fresh.graphs]
        assert [g.document for g in corpus.graphs] == [g.document for g in fresh.graphs]
        assert corpus.errors == fresh.errors and corpus.repaired == fresh.repaired


@pytest.mark.parametrize("path", [DEMO / "task" / "team-a" / "cs-0001.umr",
                                  DEMO / "task" / "gold" / "en-0001.umr"])
def test_a_file_s_graphs_read_again_from_its_bytes_are_those_first_read(path: Path, tmp_path: Path) -> None:
    """The same graphs, the reader's warnings not given again, and no warning filter changed (Python would
    give again a warning it gives once: the pages' warnings would depend on the processes)."""
    copy = tmp_path / "renamed.txt"  # another name, another extension: the graphs do not depend on them
    copy.write_bytes(path.read_bytes())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus, _ = read_file(str(copy), "umr")
    held = handed(corpus, str(copy), "umr")
    assert _graphs_pickled(held) == 0 < _graphs_pickled(corpus)
    copy.unlink()  # read again from the bytes kept, not from the file
    later = pickle.loads(pickle.dumps(held))
    assert isinstance(later.graphs, Reread)
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        filters = warnings.filters[:]
        changed = warnings._filters_mutated  # type: ignore[attr-defined]
        bumped = []
        warnings._filters_mutated = lambda: bumped.append(1)  # type: ignore[attr-defined]
        try:
            graphs = list(later.graphs)
        finally:
            warnings._filters_mutated = changed  # type: ignore[attr-defined]
        assert warnings.filters == filters and not bumped
    assert not again  # the reader's warnings were given with the first reading alone
    assert graphs == list(corpus.graphs) and len(later.graphs) == len(corpus.graphs)
    assert later.graphs[0] == corpus.graphs[0] and list(later.graphs[1:3]) == list(corpus.graphs[1:3])
    assert [g.variables for g in graphs] == [g.variables for g in corpus.graphs]
    assert (later.name, later.format, later.errors, later.repaired) == \
        (corpus.name, corpus.format, corpus.errors, corpus.repaired)


def test_another_format_is_handed_over_as_it_is(tmp_path: Path) -> None:
    corpus, _ = read_file(str(DEMO / "system.mrp"), "mrp")
    assert handed(corpus, str(DEMO / "system.mrp"), "mrp") is corpus
