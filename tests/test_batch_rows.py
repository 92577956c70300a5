"""Triples interned once per graph with run-wide ids and renumbered pair by pair in one compiled call
(mrp.solver.batch_rows.Interned, mrp.solver.renumber.renumbered) give the rows triple_rows gives each pair,
number for number and in its order: on random small triple sets, on the coli parser output of ../shared
(skipped without it), as plain Python too; and SMATCH on packed corpora, whose triples are coded once per
content, scores every pair together as alone."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Dict, Hashable, List, Sequence, Tuple

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mrp
from mrp.engine import driver
from mrp.engine.base import Metric
from mrp.engine.options import Options
from mrp.engine.pairing import pair
from mrp.metrics.smatch import metric as smatch_module
from mrp.metrics.smatch.penman import penman_triples
from mrp.solver.batch_rows import Batch, Interned
from mrp.solver.problem import Rows, triple_rows

from conftest import budget, shared_file

Local = List[Dict[Hashable, int]]
Relations = Dict[Tuple[int, int, Hashable], int]
Side = Tuple[Local, Relations]


def _batched(pairs: Sequence[Tuple[Side, Side]], interned: Interned) -> Batch:
    """The pairs (gold, system) coded by ``interned`` (every graph first, the ids in that order) and
    renumbered together."""
    coded = [(interned.coded(*gold), interned.coded(*system)) for gold, system in pairs]
    return interned.batch(coded)


def _reference(pairs: Sequence[Tuple[Side, Side]]) -> List[Rows]:
    return [triple_rows(gold[0], system[0], gold[1], system[1]) for gold, system in pairs]


def _same(batch: Batch, expected: List[Rows]) -> None:
    """The Batch holds the rows ``expected``, pair for pair, and the arrays Batch.of makes of them."""
    assert [batch.rows(k) for k in range(len(batch))] == expected
    made = Batch.of(expected)
    for mine, theirs in ((batch.sizes, made.sizes), (batch.nodes, made.nodes), (batch.edges, made.edges)):
        assert mine.dtype == theirs.dtype == np.int64 and mine.shape == theirs.shape
        assert np.array_equal(mine, theirs) and mine.flags.c_contiguous


#: keys of node-local triples and labels of relations: a few, so that the two sides share some
KEYS = st.sampled_from(["a", "b", "c", ("instance", "d"), 3, ("TOP", ""), None])
COUNTS = st.integers(1, 3)


@st.composite
def sides(draw: Any) -> Side:
    """A random graph's triples: 0 to 5 nodes with a few counted keys each, relations between them."""
    n = draw(st.integers(0, 5))
    local = [draw(st.dictionaries(KEYS, COUNTS, max_size=4)) for _ in range(n)]
    ends = st.integers(0, n - 1) if n else st.nothing()
    relations = draw(st.dictionaries(st.tuples(ends, ends, KEYS), COUNTS, max_size=8)) if n else {}
    return local, relations


@budget(200)
@given(st.lists(st.tuples(sides(), sides()), max_size=6), st.lists(KEYS, max_size=4))
def test_random_triples_get_triple_rows(pairs: List[Tuple[Side, Side]], earlier: List[Hashable]) -> None:
    interned = Interned()
    interned.coded([dict.fromkeys(earlier, 1)], {(0, 0, key): 1 for key in reversed(earlier)})  # ids taken
    _same(_batched(pairs, interned), _reference(pairs))


def test_seeded_random_triples_get_triple_rows() -> None:
    """Many pairs in one batch, their graphs coded in random order (run-wide ids far from a pair's)."""
    rng = random.Random(1)
    keys = [f"k{k}" for k in range(30)]

    def side() -> Side:
        n = rng.randrange(0, 9)
        local = [{rng.choice(keys): rng.randrange(1, 4) for _ in range(rng.randrange(4))} for _ in range(n)]
        relations = {(rng.randrange(n), rng.randrange(n), rng.choice(keys[:8])): rng.randrange(1, 4)
                     for _ in range(rng.randrange(2 * n + 1))} if n else {}
        return local, relations

    pairs = [(side(), side()) for _ in range(300)]
    interned = Interned()
    order = list(range(2 * len(pairs)))
    rng.shuffle(order)
    coded: Dict[int, Any] = {k: interned.coded(*pairs[k // 2][k % 2]) for k in order}
    batch = interned.batch([(coded[2 * k], coded[2 * k + 1]) for k in range(len(pairs))])
    _same(batch, _reference(pairs))
    assert len(Interned().batch([])) == 0


def _random_maps(pairs: Sequence[Tuple[Side, Side]], rng: random.Random) -> List[List[int]]:
    """A random map of each pair (gold node -> system node or -1, one to one)."""
    maps = []
    for gold, system in pairs:
        targets = list(range(len(system[0]))) + [-1] * len(gold[0])
        rng.shuffle(targets)
        maps.append(targets[:len(gold[0])])
    return maps


def _counted(batch: Batch, pairs: Sequence[Tuple[Side, Side]], maps: List[List[int]]) -> None:
    """Batch.matched under the maps is SMATCH's count of the triples each map matches."""
    flat = np.array([j for mapping in maps for j in mapping], np.int64)
    expected = [smatch_module.matched(mapping, gold[0], system[0], gold[1], system[1])
                for (gold, system), mapping in zip(pairs, maps)]
    found = batch.matched(flat)
    assert found.dtype == np.int64 and found.tolist() == expected


@budget(200)
@given(st.lists(st.tuples(sides(), sides()), max_size=6), st.randoms(use_true_random=False))
def test_a_batch_counts_the_triples_a_map_matches(pairs: List[Tuple[Side, Side]], rng: random.Random) -> None:
    """Every map: random ones, the identity where it is one, the empty map."""
    batch = _batched(pairs, Interned())
    _counted(batch, pairs, _random_maps(pairs, rng))
    _counted(batch, pairs, [[-1] * len(gold[0]) for gold, _ in pairs])
    with pytest.raises(ValueError, match="mapped nodes"):
        batch.matched(np.zeros(sum(len(gold[0]) for gold, _ in pairs) + 1, np.int64))


@budget(200)
@given(st.lists(st.tuples(sides(), sides()), max_size=6), st.randoms(use_true_random=False))
def test_few_pairs_count_from_their_codes_as_many_do(pairs: List[Tuple[Side, Side]],
                                                     rng: random.Random) -> None:
    """A batch of few pairs, counted from each pair's codes in Python (SMATCH's scoring together), and a
    batch counted from its rows (numpy) count the same."""
    from mrp.metrics.smatch.together import matched_codes

    interned = Interned()
    coded = [(interned.coded(*gold), interned.coded(*system)) for gold, system in pairs]
    batch = interned.batch(coded)
    maps = _random_maps(pairs, rng)
    flat = np.array([j for mapping in maps for j in mapping], np.int64)
    numpy_counts = batch.matched(flat).tolist()
    assert [matched_codes(mapping, *codes) for mapping, codes in zip(maps, coded)] == numpy_counts
    assert [matched_codes(np.array(mapping, np.int64), *codes) for mapping, codes in zip(maps, coded)] == \
        numpy_counts


def _coli() -> Tuple[List[Side], List[Side]]:
    """SMATCH's triples of the coli gold and system graphs of ../shared (skipped without it)."""
    sides = []
    for name in ("coli.gold.amr", "coli.system.amr"):
        graphs = mrp.read(shared_file("data", "pairs", "amr", name))
        sides.append([smatch_module.triples(graph, Options(penman=True))[:2] for graph in graphs])
    return sides[0], sides[1]


def test_coli_pairs_get_triple_rows() -> None:
    """Each gold graph against its system graph, and random pairs of either (repeats too), in batches."""
    gold, system = _coli()
    graphs = gold + system
    rng = random.Random(2)
    drawn = [(graphs[rng.randrange(len(graphs))], graphs[rng.randrange(len(graphs))]) for _ in range(2000)]
    interned = Interned()
    for pairs in (list(zip(gold, system)), drawn):
        for start in range(0, len(pairs), 256):
            chunk = pairs[start:start + 256]
            batch = _batched(chunk, interned)
            _same(batch, _reference(chunk))
            _counted(batch, chunk, _random_maps(chunk, rng))
    itself = [(graph, graph) for graph in graphs[:300]]  # each graph with itself, the identity matches all
    _counted(_batched(itself, interned), itself, [list(range(len(graph[0]))) for graph, _ in itself])


def test_renumbering_runs_as_plain_python_alike() -> None:
    """The kernel's twin (what runs while the kernels compile) gives the compiled kernel's arrays."""
    from mrp import compiled as jit
    from mrp.solver.plain import twin

    rng = random.Random(3)
    pairs = [(([{rng.choice("abcd"): 1} for _ in range(3)], {(0, 1, rng.choice("xy")): 2}),
              ([{rng.choice("abcd"): 2} for _ in range(4)], {(1, 0, "x"): 1, (2, 2, "y"): 1}))
             for _ in range(20)]
    interned = Interned()
    coded = [(interned.coded(*gold), interned.coded(*system)) for gold, system in pairs]
    compiled = interned.batch(coded)
    jit.route(lambda kernel, args: twin(kernel)(*args))
    try:
        plain = interned.batch(coded)
    finally:
        jit.route(None)
    for mine, theirs in ((compiled.sizes, plain.sizes), (compiled.nodes, plain.nodes),
                         (compiled.edges, plain.edges)):
        assert np.array_equal(mine, theirs) and mine.dtype == theirs.dtype
    _same(compiled, _reference(pairs))


def _results(gold: Path, system: Path, options: Options) -> List[Any]:
    """Every pair's result through the driver, both files read packed (their triples coded by content)."""
    from mrp.corpora.load import read_corpus

    pairing = pair(read_corpus(str(gold), "amr", pack_after=0), read_corpus(str(system), "amr", pack_after=0))
    run, _ = driver.run(smatch_module.METRIC, pairing, options)
    return [(result.counts, result.exact, result.bound, result.steps, result.cut, result.note)
            for result in run.results]


def test_packed_pairs_score_together_as_alone(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Random pairs of random graphs (each met many times, so coded once per content), packed: scored
    together (ids interned across the run, renumbered per batch) each pair gets its result alone."""
    from test_together import _amr

    rng = random.Random(4)
    graphs = [_amr(rng, rng.randrange(1, 9)) for _ in range(40)]
    for side in ("gold", "system"):
        (tmp_path / f"{side}.amr").write_text("\n\n".join(f"# ::id {k}\n{rng.choice(graphs)}"
                                                           for k in range(600)) + "\n")
    for fields in ({}, {"smatch_compat": True}):
        options = Options(penman=True, timeout=60.0, **fields)
        together = _results(tmp_path / "gold.amr", tmp_path / "system.amr", options)
        with monkeypatch.context() as patch:
            patch.setattr(smatch_module.SMATCH, "score_many", Metric.score_many)
            alone = _results(tmp_path / "gold.amr", tmp_path / "system.amr", options)
        assert len(together) == 600 and together == alone, fields


def test_held_codes_are_made_again_once_the_ids_are_forgotten() -> None:
    """A memo of SMATCH's held triples (an all-pairs run's, by graph) keys the codes by the ids' generation:
    after the ids are forgotten (a run's begin, once there are many), a graph's codes are made anew, so a
    batch never mixes two numberings."""
    from test_together import _amr

    from mrp.memo import ByObject

    rng = random.Random(5)
    graphs = mrp.read("\n\n".join(_amr(rng, 6) for _ in range(3)))
    metric, options = smatch_module.SMATCH(ByObject()), Options(penman=True)
    first = metric.held_triples(graphs[0], options)
    assert metric.held_triples(graphs[0], options) is first
    metric.interned.clear()
    other = metric.held_triples(graphs[1], options)  # its keys take the first ids now
    again = metric.held_triples(graphs[0], options)
    assert again is not first and again.coded != first.coded and again.total == first.total
    sides = [penman_triples(graph, False)[:2] for graph in graphs[:2]]
    _same(metric.interned.batch([(again.coded, other.coded)]), _reference([(sides[0], sides[1])]))


def test_a_solver_value_the_triples_do_not_give_is_refused_together(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Scored together, each map's matched triples are counted again from the rows: a Solution whose value
    is not that count is an internal error, never a score."""
    from test_together import _amr

    from mrp.engine import together
    from mrp.engine.pairing import pair as paired
    from mrp.errors import ScoreError

    rng = random.Random(6)
    for side in ("gold", "system"):
        (tmp_path / f"{side}.amr").write_text("\n\n".join(_amr(rng, rng.randrange(2, 7)) for _ in range(30)))
    from mrp.corpora.load import read_corpus

    pairing = paired(read_corpus(str(tmp_path / "gold.amr"), "amr"),
                     read_corpus(str(tmp_path / "system.amr"), "amr"))
    options = Options(penman=True, timeout=60.0)
    real = together.solve_together
    assert all(result is not None for result in smatch_module.METRIC.score_many(pairing.pairs, options))

    def wrong(*args: Any) -> List[Any]:
        found = real(*args)
        found[-1] = found[-1]._replace(value=found[-1].value + 1)
        return found

    monkeypatch.setattr(together, "solve_together", wrong)
    with pytest.raises(ScoreError, match="disagrees with the triples matched"):
        smatch_module.METRIC.score_many(pairing.pairs, options)
