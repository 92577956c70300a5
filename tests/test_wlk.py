"""WLK (``--score wlk``): the reading, the relabelling, and the reference's scores of the 2,000 testbed pairs.

``tests/data/wlk/testbed-2k.json`` holds the outputs of flipz357/weisfeiler-leman-amr-metrics (MIT) on
../shared/reference/rematch's testbed, made by ``tests/wlk_reference.py``; with ``WLK_DIR`` (a checkout)
and ``WLK_PYTHON`` (a Python with networkx, scipy and smatchpp 1.5) the development test runs the
reference again and compares.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import FrozenSet, List, Tuple

import numpy as np
import pytest

import mrp
from mrp.graph import Edge, Graph, Node
from mrp.metrics.wlk import features, similarity, wl_graph

from conftest import ROOT, run_cli, shared_file

STORED = ROOT / "tests" / "data" / "wlk" / "testbed-2k.json"


def test_reading_follows_the_reference() -> None:
    graph = mrp.read('(a / Want-01 :ARG0 (b / boy :mod "A" :op1 "Don\'t") :consist-of (c / cat) '
                     ':ARG0-of 7 :polarity - :mod cat)', format="amr")[0]
    labels, edges = wl_graph(graph)
    assert labels == ["want-01", "boy", "cat", "dont", "-"]
    named = Counter((labels[s], r, labels[t]) for s, r, t in edges)
    # a quoted "A" is the variable a; consist-of is inverted; :ARG0-of 7 is lost; "cat" is the node c (the
    # reference drops that edge under the string-hash orders that make c its first node: checked by hand)
    assert named == Counter({("want-01", ":arg0", "boy"): 1, ("boy", ":mod", "want-01"): 1,
                             ("boy", ":op1", "dont"): 1, ("cat", ":consist", "want-01"): 1,
                             ("want-01", ":polarity", "-"): 1, ("want-01", ":mod", "cat"): 1})


def test_relabelling_per_node_and_as_the_reference() -> None:
    graph = mrp.read("(a / and :op1 (x / dog :mod (b / big)) :op2 (y / dog :mod (s / small)))",
                     format="amr")[0]
    own = features(graph, 1)
    assert len(own[2]) == 5  # both dogs keep their own neighbourhood
    compat = _texts(graph, 1, compat=True)
    assert len(compat[2]) == 4 and "big" not in " ".join(label for label in compat[2] if "dog" in label[:3])
    assert [len(level) for level in features(graph, 1, compat=True)] == [len(level) for level in compat]
    assert similarity(own, own) == 1.0
    other = features(mrp.read("(z / zebra)", format="amr")[0], 1)
    assert similarity(own, other) == 0.0


def _ours(a: Path, b: Path, **options: object) -> List[float]:
    result = mrp.score(str(a), str(b), metric="wlk", format="amr", **options)
    return [pair.item["wlk"] for pair in result.pairs]


def test_every_testbed_pair_equals_the_reference() -> None:
    reference = shared_file("reference", "rematch")
    a, b = reference / "testbed-2k.a.amr", reference / "testbed-2k.b.amr"
    stored = json.loads(STORED.read_text())["runs"]
    for name, run in stored.items():
        if "ordered" not in run["patches"]:
            continue
        ours = _ours(a, b, wlk_iterations=run["iterations"], wlk_direction=run["direction"],
                     wlk_compat="pernode" not in run["patches"])
        assert len(ours) == len(run["scores"]) == 2000, name
        assert np.max(np.abs(np.array(ours) - np.array(run["scores"]))) < 1e-12, name


def test_compat_equals_the_unpatched_reference_where_order_cannot_matter() -> None:
    """The reference's own order (string hashing) only matters for a graph with two nodes of one label."""
    reference = shared_file("reference", "rematch")
    a, b = reference / "testbed-2k.a.amr", reference / "testbed-2k.b.amr"
    run = json.loads(STORED.read_text())["runs"]["unpatched PYTHONHASHSEED=0"]
    ours = _ours(a, b, wlk_compat=True)
    graphs = mrp.read(str(a), format="amr"), mrp.read(str(b), format="amr")

    def unique(graph: mrp.Graph) -> bool:
        labels = wl_graph(graph)[0]
        return len(set(labels)) == len(labels)

    plain = [k for k in range(2000) if unique(graphs[0][k]) and unique(graphs[1][k])]
    assert len(plain) >= 100
    assert max(abs(ours[k] - run["scores"][k]) for k in plain) < 1e-12


def test_wlk_from_the_command_line_and_the_matrix(tmp_path: Path) -> None:
    a, b = tmp_path / "a.amr", tmp_path / "b.amr"
    a.write_text("(w / want-01 :ARG0 (b / boy))\n\n(d / dog)\n")
    b.write_text("(w / want-01 :ARG0 (g / girl))\n\n(d / dog)\n")
    run = run_cli("score", ["--score", "wlk", "--gold", str(a), str(b), "--wlk-iterations", "1"])
    assert run.code == 0, run.err
    result = json.loads(run.out)
    assert result["n"] == 2 and 0.5 < result["wlk"] < 1.0 and result["iterations"] == 1
    assert "k:1|dir:both" in result["signature"]
    matrix = mrp.similarity(str(a), metric="wlk")
    assert matrix.f.shape == (2, 2) and np.allclose(np.diag(matrix.f), 1.0) and matrix.f[0, 1] == 0.0
    out = tmp_path / "m.npz"
    run = run_cli("similarity", ["--metric", "wlk", "--wlk-compat", "--wlk-iterations", "1", str(a),
                                 "--other", str(b), "--output", str(out), "--quiet"])
    assert run.code == 0, run.err
    one = mrp.score(str(a), str(b), metric="wlk", wlk_compat=True, wlk_iterations=1)
    assert np.load(out)["f"][0, 0] == one.pairs[0].item["wlk"]
    picked, report = tmp_path / "picked.amr", tmp_path / "report.json"
    run = run_cli("ensemble", ["--metric", "wlk", "--output", str(picked), "--report", str(report),
                               str(a), str(b), str(a)])
    assert run.code == 0, run.err
    assert json.loads(report.read_text())["chosen"] == [2, 0, 0]  # sentences won per system


def test_reference_run_again() -> None:
    """Development: run the reference (WLK_DIR, WLK_PYTHON) and compare with the stored values."""
    where, python = os.environ.get("WLK_DIR"), os.environ.get("WLK_PYTHON")
    if not where or not python:
        pytest.skip("WLK_DIR (a checkout of flipz357/weisfeiler-leman-amr-metrics) and WLK_PYTHON (a Python "
                    "with networkx, scipy, smatchpp 1.5) are not both set")
    reference = shared_file("reference", "rematch")
    run = json.loads(STORED.read_text())["runs"]["default"]
    out = subprocess.run([python, str(ROOT / "tests" / "wlk_reference.py"), str(Path(where) / "src"),
                          str(reference / "testbed-2k.a.amr"), str(reference / "testbed-2k.b.amr"), "2",
                          "both", "ordered,pernode"], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONHASHSEED="0")).stdout
    assert json.loads(out) == run["scores"]


def _texts(graph: Graph, iterations: int = 2, direction: str = "both",
           compat: bool = False) -> Tuple[FrozenSet[str], ...]:
    """The oracle: the features as main computed them before issue 61 (each label the text of its
    neighbourhood, uncompressed: exponential in the iterations)."""
    labels, edges = wl_graph(graph)
    levels = [frozenset(labels), frozenset(f"{labels[s]}_{r}_{labels[t]}" for s, r, t in edges)]
    hears_out, hears_in = direction in ("both", "fromout"), direction in ("both", "fromin")
    for _ in range(iterations):
        items: List[List[str]] = [[label] for label in labels]
        for s, r, t in edges:
            if hears_out:
                items[s].append(f"{r}_{labels[t]}")
            if hears_in:
                items[t].append(f"{r}_{labels[s]}")
        new = [" ::: ".join(sorted(mine)) for mine in items]
        if compat:
            by_label = {label: new[k] for k, label in enumerate(labels)}
            labels = [by_label[label] for label in labels]
        else:
            labels = new
        levels.append(frozenset(labels))
    return tuple(levels)


def _random_graph(rng: random.Random) -> Graph:
    """A small random graph of few labels (many nodes alike: where relabelling matters), with loops,
    repeated edges, inverted roles and constants."""
    n = rng.randint(1, 9)
    words = ["a", "b", "dog", "_and_c", "x-01", "2", "big dog", "-"]
    nodes = [Node(k, rng.choice(words), ["op1"], [rng.choice(words)]) if rng.random() < 0.2
             else Node(k, rng.choice(words)) for k in range(n)]
    edges = [Edge(rng.randrange(n), rng.randrange(n), rng.choice(["arg0", "arg1", "mod", "arg0-of", "l"]))
             for _ in range(rng.randint(0, 2 * n))]
    return Graph(id="1", framework="amr", tops=[0], nodes=nodes, edges=edges)


@pytest.mark.parametrize("seed", range(60))
def test_compressed_labels_score_as_the_uncompressed_oracle(seed: int) -> None:
    """Issue 61, item 2: integer labels give the same feature counts, overlaps and scores as main's texts,
    for every direction and mode, up to 5 iterations."""
    rng = random.Random(seed)
    a, b = _random_graph(rng), _random_graph(rng)
    for iterations in range(6):
        for direction in ("both", "fromout", "fromin"):
            for compat in (False, True):
                ours = [features(g, iterations, direction, compat) for g in (a, b)]
                theirs = [_texts(g, iterations, direction, compat) for g in (a, b)]
                assert [len(x) for x in ours[0]] == [len(x) for x in theirs[0]]
                assert [len(x & y) for x, y in zip(*ours)] == [len(x & y) for x, y in zip(*theirs)]
                assert similarity(*ours) == similarity(*theirs)


def test_memory_is_flat_in_the_iterations() -> None:
    """Issue 61, item 2: 200 iterations on a branching graph take no more memory per level than 2 (main's
    labels double in length each iteration: this took more memory than the machine has)."""
    graph = mrp.read("(a / and :op1 (x / dog :mod (b / big) :ARG0-of (w / want-01 :ARG1 a)) "
                     ":op2 (y / dog :mod (s / small)) :op3 x)", format="amr")[0]
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        few = features(graph, 2)
        small = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        many = features(graph, 200)
        large = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(many) == 202 and many[:4] == few
    assert max(sys.getsizeof(label) for level in many[2:] for label in level) <= 48  # 128 bits
    assert large < 200 * small, (small, large)


def test_a_pair_that_fails_is_reported_not_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 61, item 2: under a memory limit the features raise MemoryError; the pair scores 0, cut as
    "limit", and the run reports (main: "internal error: KeyError: ('pair',)")."""
    from mrp.metrics import wlk

    def out_of_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError()

    monkeypatch.setattr(wlk, "features", out_of_memory)
    monkeypatch.setattr(wlk.METRIC, "memo", wlk.ByObject(wlk.MEMO))
    result = mrp.score(["(d / dog)", "(c / cat)"], ["(d / dog)", "(c / cat)"], metric="wlk", trace=True)
    assert result.to_dict()["wlk"] == 0.0
    assert result.to_dict()["cut"] == {"n": 2, "limit": 2, "timeout": 0}  # out of memory: a limit
    assert [pair.item["wlk"] for pair in result.pairs] == [0.0, 0.0]
