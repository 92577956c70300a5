"""The sentence-by-sentence start for document graphs (mrp.engine.seed) and Problem restriction."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Tuple

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mrp.codecs.penman import read_string
from mrp.engine.seed import sentence_seed, sentences
from mrp.graph import Graph
from mrp.metrics.mrp.pair import seeding
from mrp.normalize import normalize
from mrp.solver import mip
from mrp.solver.problem import build, restrict
from mrp.solver.solve import solve_problem

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mip import random_map  # noqa: E402
from test_oracle import pairs  # noqa: E402

from conftest import budget  # noqa: E402

DOCUMENT = """(m / multi-sentence
   :snt1 (a / see-01 :ARG0 (b / boy) :ARG1 (c / cat))
   :snt2 (d / run-02 :ARG0 b :manner (e / fast))
   :snt3 (f / sleep-01 :ARG0 c))"""


def amr(text: str) -> Graph:
    graph = read_string(text)[0]
    assert isinstance(graph, Graph)
    return graph


def test_sentences_are_the_nodes_reached_from_each_snt_edge_first_sentence_first() -> None:
    graph = amr(DOCUMENT)
    labels = {k: node.label for k, node in enumerate(graph.nodes)}
    blocks = sentences(graph)
    assert blocks is not None
    named = {number: sorted(labels[k] for k in block) for number, block in blocks.items()}
    # the boy is shared by sentences 1 and 2: it belongs to the first; the cat is reached from 3 too
    assert named == {1: ["boy", "cat", "see-01"], 2: ["fast", "run-02"], 3: ["sleep-01"]}


def test_a_graph_that_is_not_a_document_has_no_sentences() -> None:
    assert sentences(amr("(a / see-01 :ARG0 (b / boy))")) is None
    assert sentences(amr("(m / multi-sentence :snt1 (a / see-01))")) is None  # one sentence: no seed needed


@budget(200)
@given(pairs(max_nodes=6), st.randoms(use_true_random=False))
def test_a_restricted_problem_values_maps_as_the_whole_does(pair: Tuple[Graph, Graph], rng) -> None:
    gold, system = pair
    problem = build(normalize(gold), normalize(system))
    n, m = problem.U.shape
    rows = np.array(sorted(rng.sample(range(n), rng.randint(0, n))), np.int64)
    cols = np.array(sorted(rng.sample(range(m), rng.randint(0, m))), np.int64)
    part = restrict(problem, rows, cols)
    pi = random_map(rng, rows.shape[0], cols.shape[0])
    whole = np.full(n, -1, np.int64)
    whole[rows[pi >= 0]] = cols[pi[pi >= 0]]
    assert mip.value_of(part, pi) == mip.value_of(problem, whole)


def test_a_document_starts_from_its_sentence_by_sentence_map() -> None:
    from mrp.codecs.penman import read_string as read
    from mrp.engine.options import Options
    from mrp.metrics.smatch import metric as smatch
    from mrp.solver.problem import from_triples

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import documents

    from conftest import shared_path

    options = Options(smatch_compat=True, penman=True)
    sides = []
    for source in documents.COLI:
        sides.append(read(documents.merged(documents.graphs(shared_path() / source)[:8], 1))[0])
    gold, system = sides
    (lg, rg, _), (ls, rs, _) = smatch.triples(gold, options), smatch.triples(system, options)
    problem = from_triples(lg, ls, rg, rs)
    seed = sentence_seed(problem, gold, system)
    assert seed is not None and (seed >= 0).sum() > len(gold.nodes) // 2
    start = mip.value_of(problem, seed)
    alone = solve_problem(problem, limit=0, seeding=None)
    seeded = solve_problem(problem, limit=0, seeding=seeding((gold, system)))
    assert seeded.value >= start and seeded.value >= alone.value
    assert seeded.bound == alone.bound  # the seed changes the start, never the bound



def test_the_seed_stops_with_the_pair(monkeypatch) -> None:
    """The pair's stop flag (set by --timeout) reaches every sentence's search."""
    import mrp.solver.kernel as solver

    gold = amr(DOCUMENT)
    system = amr(DOCUMENT.replace("fast", "slow"))
    problem = build(normalize(gold), normalize(system))
    flags = []
    real = solver.solved

    def recording(pb, limit, lap_size, stop, seed):  # type: ignore[no-untyped-def]
        flags.append(stop)
        return real(pb, limit, lap_size, stop, seed)

    monkeypatch.setattr(solver, "solved", recording)
    stop = np.ones(1, np.int64)
    seed = sentence_seed(problem, gold, system, stop)
    assert seed is not None and flags and all(flag is stop for flag in flags)
    mapped = seed[seed >= 0]
    assert np.unique(mapped).shape[0] == mapped.shape[0] and (mapped < len(system.nodes)).all()
    flags.clear()
    solve_problem(problem, seeding=seeding((gold, system)))
    assert flags and flags[0] is flags[-1]  # the seed's searches got the pair's own flag
