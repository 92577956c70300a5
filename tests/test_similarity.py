"""mrp.similarity and mrp-similarity: every cell equals that pair's mrp.score, whatever the engine, block
size or number of workers; top-k equals the full matrix's; checkpoints resume without loss."""

from __future__ import annotations

import copy
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, List, Tuple

import numpy as np
import pytest

import mrp
from mrp.allpairs.topk import bounds
from mrp.api.similarity import prepared
from mrp.errors import InputError

from conftest import shared_file

CONCEPTS = ["dog", "cat", "run-01", "see-01", "person", "big", "and", "name", "want-01", "city"]
ROLES = [":ARG0", ":ARG1", ":mod", ":ARG0-of", ":location", ":op1"]


def random_amr(rng: random.Random, nodes: int) -> str:
    """A random tree (with a re-entrancy now and then) over a small vocabulary, in Penman."""
    names = [f"v{k}" for k in range(nodes)]

    def build(k: int, depth: int) -> str:
        parts = [f"({names[k]} / {rng.choice(CONCEPTS)}"]
        for child in range(k + 1, nodes):
            if child % max(1, depth + 1) == k % max(1, depth + 1) and child not in used:
                used.add(child)
                parts.append(f" {rng.choice(ROLES)} {build(child, depth + 1)}")
        if rng.random() < 0.3:
            parts.append(f' :quant {rng.randint(1, 3)}')
        if rng.random() < 0.2 and k > 0:
            parts.append(f" {rng.choice(ROLES)} {names[0]}")
        return "".join(parts) + ")"

    used = {0}
    return build(0, 0)


def random_graphs(seed: int, count: int) -> List[mrp.Graph]:
    rng = random.Random(seed)
    text = "\n\n".join(random_amr(rng, rng.randint(1, 7)) for _ in range(count))
    return mrp.read(text, format="amr")


def coli(count: int) -> List[mrp.Graph]:
    return mrp.read(shared_file("data", "pairs", "amr", "coli.system.amr"), format="amr")[:count]


def pair_score(a: mrp.Graph, b: mrp.Graph, metric: str = "smatch") -> mrp.PairResult:
    """mrp.score of one pair (the two graphs given one id, so that they pair)."""
    a, b = copy.copy(a), copy.copy(b)
    a.id = b.id = "pair"
    return mrp.score([a], [b], metric=metric).pairs[0]


def check_cells(result: mrp.Similarity, rows: List[mrp.Graph], columns: List[mrp.Graph], cells, metric: str):
    for i, j in cells:
        expected = pair_score(rows[i], columns[j], metric)
        assert expected.figures is not None
        assert (result.g[i, j], result.s[i, j], result.c[i, j]) == (expected.figures.g, expected.figures.s,
                                                                    expected.figures.c), (i, j)
        assert result.f[i, j] == expected.f, (i, j)  # the same bits
        assert bool(result.exact[i, j]) == expected.exact


def test_matrix_equals_each_pairs_score_on_random_graphs() -> None:
    graphs = random_graphs(7, 12)
    result = mrp.similarity(graphs, metric="smatch")
    assert result.f.shape == (12, 12) and result.pairs == 12 * 13 // 2 and result.symmetric
    check_cells(result, graphs, graphs, [(i, j) for i in range(12) for j in range(12)], "smatch")
    assert np.array_equal(result.f, result.f.T) and np.array_equal(result.g, result.s.T)
    assert all(result.f[i, i] == 1.0 for i in range(12))
    assert result.all_exact and result.summary()["exact"] is True


def test_matrix_equals_each_pairs_score_on_coli() -> None:
    graphs = coli(24)
    result = mrp.similarity(graphs, metric="smatch")
    rng = random.Random(3)
    check_cells(result, graphs, graphs, [(rng.randrange(24), rng.randrange(24)) for _ in range(30)], "smatch")
    assert result.ids == [graph.id for graph in graphs]


def test_other_and_an_asymmetric_metric_are_scored_in_both_orders() -> None:
    rows, columns = random_graphs(11, 5), random_graphs(12, 4)
    result = mrp.similarity(rows, columns, metric="mrp")
    assert result.f.shape == (5, 4) and result.pairs == 20 and result.other_ids is not None
    check_cells(result, rows, columns, [(i, j) for i in range(5) for j in range(4)], "mrp")
    square = mrp.similarity(rows, metric="unlabeled")
    assert not square.symmetric and square.pairs == 25
    check_cells(square, rows, rows, [(i, j) for i in range(5) for j in range(5)], "unlabeled")


def test_numbers_do_not_depend_on_block_size_or_workers() -> None:
    graphs = coli(20)
    one = mrp.similarity(graphs, metric="smatch")
    many = mrp.similarity(graphs, metric="smatch", jobs=2, block_size=23)
    for name in ("f", "g", "s", "c", "bound", "exact"):
        assert np.array_equal(getattr(one, name), getattr(many, name)), name


def test_the_top_k_bound_holds_on_every_pair() -> None:
    graphs = coli(30)
    work, _, _ = prepared(graphs, None, "smatch", {})
    row = bounds(work)
    assert row is not None
    full = mrp.similarity(graphs, metric="smatch")
    for i in range(30):
        assert (row(i) >= full.f[i]).all()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_top_k_equals_the_full_matrix(seed: int) -> None:
    everything = coli(60)
    rng = random.Random(seed)
    graphs = [everything[k] for k in sorted(rng.sample(range(60), 25))]
    full = mrp.similarity(graphs, metric="smatch")
    f = full.f.copy()
    np.fill_diagonal(f, -np.inf)
    for k in (1, 3, 6):
        top = mrp.similarity(graphs, metric="smatch", top_k=k)
        assert top.neighbours is not None and top.k == k
        for i in range(25):
            order = np.lexsort((np.arange(25), -f[i]))[:k]  # F down, then column index up
            assert top.neighbours[i].tolist() == order.tolist(), (k, i)
            assert top.f[i].tolist() == full.f[i, order].tolist()
            assert top.c[i].tolist() == full.c[i, order].tolist()
        assert top.pairs + top.skipped == 25 * 24 // 2
    assert mrp.similarity(graphs, metric="smatch", top_k=1).skipped > 0


def test_top_k_ties_go_to_the_lower_index() -> None:
    text = "\n\n".join(["(a / dog)", "(a / cat)", "(a / cat)", "(a / dog)", "(a / cat)"])
    top = mrp.similarity(text, metric="smatch", format="amr", top_k=2)
    assert top.neighbours is not None
    assert top.neighbours.tolist() == [[3, 1], [2, 4], [1, 4], [0, 1], [1, 2]]


def test_invalid_input_is_refused_with_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.amr"
    bad.write_text("(a / dog)\n\n(b / cat :ARG0 )\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.amr:3"):
        mrp.similarity(str(bad), metric="smatch", format="amr")
    with pytest.raises(mrp.errors.MRPError, match="no per-pair figure"):
        mrp.similarity(random_graphs(1, 3), metric="aspects")
    with pytest.raises(mrp.errors.MRPError, match="in the context of their documents"):
        mrp.similarity(random_graphs(1, 3), metric="umatch")


def cli(*arguments: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mrp.cli.similarity", *arguments], capture_output=True,
                          text=True, **kwargs)


def test_the_command_writes_the_arrays_and_only_the_report_on_stdout(tmp_path: Path) -> None:
    source = tmp_path / "g.amr"
    source.write_text(mrp.write(random_graphs(5, 9), format="amr") or "", encoding="utf-8")
    out = tmp_path / "m.npz"
    done = cli("--metric", "smatch", str(source), "--output", str(out), "--jobs", "2", "--block-size", "5")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)  # one JSON object, nothing else
    assert report["pairs"] == 45 and report["exact"] is True
    assert "blocks 9/9" in done.stderr
    with np.load(out, allow_pickle=False) as data:
        assert {"f", "c", "g", "s", "exact", "ids"} <= set(data.files)
        expected = mrp.similarity(str(source), metric="smatch", format="amr")
        assert np.array_equal(data["f"], expected.f) and data["ids"].tolist() == expected.ids
    bad = tmp_path / "bad.amr"
    bad.write_text("(a / dog)\n\n(b / cat :ARG0 )\n", encoding="utf-8")
    done = cli(str(bad), "--output", str(tmp_path / "x.npz"))
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "bad.amr:3" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_local_run_never_imports_dask() -> None:
    code = ("import sys, mrp; mrp.similarity('(a / dog)\\n\\n(b / cat)', format='amr', jobs=2); "
            "print(any(name.split('.')[0] in ('dask', 'distributed') for name in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_a_resumed_checkpoint_scores_nothing_again_and_refuses_another_run(tmp_path: Path) -> None:
    graphs = coli(16)
    directory = tmp_path / "ckpt"
    first = mrp.similarity(graphs, metric="smatch", checkpoint=directory, block_size=10)
    blocks = sorted(path.name for path in directory.iterdir() if path.name.startswith("block-"))
    assert len(blocks) == 14  # 136 pairs
    seen = []
    again = mrp.similarity(graphs, metric="smatch", checkpoint=directory, block_size=10, resume=True,
                           progress=seen.append)
    assert seen == [] and np.array_equal(first.f, again.f) and np.array_equal(first.c, again.c)
    with pytest.raises(InputError, match="holds a checkpoint"):
        mrp.similarity(graphs, metric="smatch", checkpoint=directory, block_size=10)
    with pytest.raises(InputError, match="differs in: .*options"):
        mrp.similarity(graphs, metric="smatch", checkpoint=directory, block_size=10, resume=True,
                       smatch_compat=True)
    with pytest.raises(InputError, match="differs in: rows"):
        mrp.similarity(graphs[:15], metric="smatch", checkpoint=directory, block_size=10, resume=True)


def test_top_k_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    graphs = coli(20)
    first = mrp.similarity(graphs, metric="smatch", top_k=2, checkpoint=tmp_path / "c", block_size=15)
    seen = []
    again = mrp.similarity(graphs, metric="smatch", top_k=2, checkpoint=tmp_path / "c", block_size=15,
                           resume=True, progress=seen.append)
    assert seen == [] and again.neighbours is not None and first.neighbours is not None
    assert np.array_equal(first.neighbours, again.neighbours) and np.array_equal(first.f, again.f)


def test_an_interrupted_run_resumes_without_loss(tmp_path: Path) -> None:
    source = shared_file("data", "pairs", "amr", "coli.system.amr")
    text = source.read_text(encoding="utf-8").split("\n\n")[:40]
    small = tmp_path / "small.amr"
    small.write_text("\n\n".join(text) + "\n", encoding="utf-8")
    directory, out = tmp_path / "ckpt", tmp_path / "m.npz"
    arguments = [str(small), "--output", str(out), "--checkpoint", str(directory), "--block-size", "40",
                 "--quiet"]
    process = subprocess.Popen([sys.executable, "-m", "mrp.cli.similarity", *arguments],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if len(list(directory.glob("block-*.npz"))) >= 3:
            break
        time.sleep(0.02)
    process.send_signal(signal.SIGKILL)  # no chance to clean up
    process.wait()
    finished = len(list(directory.glob("block-*.npz")))
    assert 0 < finished < 21, "the run was not interrupted midway"
    done = cli(*arguments, "--resume")
    assert done.returncode == 0, done.stderr
    expected = mrp.similarity(str(small), metric="smatch", format="amr")
    with np.load(out, allow_pickle=False) as data:
        for name in ("f", "g", "s", "c", "exact"):
            assert np.array_equal(data[name], getattr(expected, name)), name


def _children() -> List[int]:
    found = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            found.extend(int(pid) for pid in (task / "children").read_text().split())
        except OSError:
            pass
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc to find the workers")
def test_a_killed_worker_loses_nothing() -> None:
    graphs = coli(30)
    expected = mrp.similarity(graphs, metric="smatch")
    killed: List[int] = []

    def killer() -> None:
        deadline = time.monotonic() + 60
        while not killed and time.monotonic() < deadline:
            for pid in _children():
                try:
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    return
                except ProcessLookupError:
                    pass
            time.sleep(0.01)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    result = mrp.similarity(graphs, metric="smatch", jobs=2, block_size=200)
    thread.join()
    assert killed, "no worker was killed"
    for name in ("f", "g", "s", "c", "exact"):
        assert np.array_equal(getattr(result, name), getattr(expected, name)), name


@pytest.mark.parametrize("metric, path", [("sembleu", ("sembleu",)), ("ancast", ("lrm", "f"))])
def test_metrics_without_counts_give_each_pairs_figure(metric: str, path: Tuple[str, ...]) -> None:
    """SemBLEU's score and AnCast's LRM F per pair (both orders: neither is symmetric), counts NaN."""
    rows = coli(6)
    result = mrp.similarity(rows, metric=metric)
    assert not result.symmetric and result.pairs == 36
    for i in range(6):
        for j in range(6):
            node = pair_score(rows[i], rows[j], metric).item
            for step in path:
                node = node[step]
            assert result.f[i, j] == node, (i, j)
    assert np.isnan(result.c).all() and np.isnan(result.g).all()
    assert all(result.f[i, i] == 1.0 for i in range(6))
    top = mrp.similarity(rows, metric=metric, top_k=2)
    for i in range(6):
        others = sorted((j for j in range(6) if j != i), key=lambda j: (-result.f[i, j], j))[:2]
        assert list(top.neighbours[i]) == others


def test_the_commands_take_every_option_the_library_takes_for_its_metrics(tmp_path: Path) -> None:
    """mrp-similarity and mrp-ensemble take the options of every metric that can fill a matrix, as the
    registry declares them (mrp.similarity takes them all as keywords); an option of another metric than
    the one chosen is refused, naming the metrics it belongs to."""
    from mrp.cli import similarity as command
    from mrp.metrics.registry import METRICS, metric

    flags = {action.option_strings[0] for action in command.parser()._actions if action.option_strings}
    for name in METRICS:
        if metric(name).contextual:
            continue
        for parameter in metric(name).parameters:
            assert parameter.flag in flags, (name, parameter.flag)
    # one chosen metric's option applies; another's is refused (exit 2, one line)
    graphs = tmp_path / "three.amr"
    graphs.write_text("(a / b :ARG0 (c / d))\n\n(a / b :ARG1 (c / d))\n\n(x / y)\n", encoding="utf-8")
    for argv, status in [(["--metric", "smatch", "--smatchpp-compat", "amr"], 0),
                         (["--metric", "rematch", "--smatchpp-compat", "amr"], 2),
                         (["--metric", "wlk", "--doc-align", "sentence"], 2)]:
        done = subprocess.run([sys.executable, "-m", "mrp.cli.similarity", *argv, str(graphs), "--quiet",
                               "--output", str(tmp_path / "out.npz")], capture_output=True, text=True)
        assert done.returncode == status, done.stderr
        if status:
            flag = argv[2]
            assert done.stderr.count("\n") == 1, done.stderr
            assert f"{flag} is an option of --metric" in done.stderr, done.stderr
            assert f"not of {argv[1]}" in done.stderr


def test_a_local_run_forks_its_workers_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Local workers score whole blocks on one pool for the run (before: a pool of forked workers per
    block, every pair's result sent back through a pipe), with the arrays of a run in this process."""
    graphs = coli(20)
    one = mrp.similarity(graphs, metric="smatch")
    forks: List[int] = []
    real = os.fork

    def counted() -> int:
        pid = real()
        if pid:
            forks.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", counted)
    many = mrp.similarity(graphs, metric="smatch", jobs=2, block_size=23)  # 190 pairs: 9 blocks
    assert 0 < len(forks) <= 2, forks
    for name in ("f", "g", "s", "c", "bound", "exact"):
        assert np.array_equal(getattr(one, name), getattr(many, name)), name


def test_a_block_whose_worker_dies_is_scored_again_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that dies on a block breaks the pool: that block and those not scored yet are scored here
    through the driver, with the same arrays."""
    from mrp.allpairs import pool

    graphs = coli(20)
    one = mrp.similarity(graphs, metric="smatch")
    real = pool._score

    def dying(k: int) -> Any:
        if k == 3:
            os._exit(1)  # as a worker killed (e.g. out of memory) in the middle of a block
        return real(k)

    monkeypatch.setattr(pool, "_score", dying)
    many = mrp.similarity(graphs, metric="smatch", jobs=2, block_size=23)
    for name in ("f", "g", "s", "c", "bound", "exact"):
        assert np.array_equal(getattr(one, name), getattr(many, name)), name
