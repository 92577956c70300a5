"""A Scorer's state: small, picklable, merged across (simulated) processes into one call's numbers."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any, Dict, List

import pytest

import mrp
from mrp.errors import ScoreError

from conftest import shared_file, timeless

ROOT = Path(__file__).resolve().parent.parent


def _blocks(path: Path, n: int) -> List[str]:
    return [block for block in path.read_text().split("\n\n") if block.strip()][:n]


def _document(result: Any) -> Dict[str, Any]:
    return timeless(result.to_dict())


def _processes(metric: str, gold: List[Any], system: List[Any], rng: random.Random, **options: Any) -> Any:
    """The pairs cut into consecutive shards, one per simulated process, each cut into random batches;
    each process's state pickled (as an all-gather sends it) and merged in rank order."""
    n = len(gold)
    ranks = rng.randint(1, 4)
    cuts = sorted(rng.sample(range(1, n), ranks - 1)) if ranks > 1 else []
    states = []
    for start, end in zip([0, *cuts], [*cuts, n]):
        scorer = mrp.Scorer(metric, **options)
        k = start
        while k < end:
            step = rng.randint(1, max(1, end - k))
            scorer.update(gold[k:k + step], system[k:k + step])
            k += step
        states.append(pickle.loads(pickle.dumps(scorer.state())))
    merged = mrp.Scorer(metric, **options)
    merged.merge(sum(states))
    return merged.compute()


@pytest.mark.parametrize("seed", range(4))
def test_smatch_states_merge_to_one_call(seed: int) -> None:
    gold = _blocks(shared_file("data/pairs/amr/coli.gold.amr"), 40)
    system = _blocks(shared_file("data/pairs/amr/coli.system.amr"), 40)
    one = mrp.score(gold, system, metric="smatch", trace=True)
    merged = _processes("smatch", gold, system, random.Random(seed), trace=True)
    assert _document(merged) == _document(one)
    assert merged.f == one.f and merged.exact == one.exact


def test_cut_pairs_merge_their_exactness_and_bounds() -> None:
    gold = _blocks(shared_file("data/pairs/amr/coli.gold.amr"), 60)
    system = _blocks(shared_file("data/pairs/amr/coli.system.amr"), 60)
    one = mrp.score(gold, system, metric="smatch", trace=True, max_memory=20000)
    document = _document(one)
    assert document["exact"] < document["n"] and document["cut"]["n"] > 0  # the case is real
    merged = _processes("smatch", gold, system, random.Random(7), trace=True, max_memory=20000)
    assert _document(merged) == document  # exact, bound, steps and cut summed as one call's


@pytest.mark.parametrize("seed", range(3))
def test_mrp_metric_states_merge_to_one_call(seed: int) -> None:
    gold = [graph for graph in mrp.read(ROOT / "data/demo/gold.mrp")]
    system = {(graph.framework, graph.id): graph for graph in mrp.read(ROOT / "data/demo/system.mrp")}
    paired = [system.get((graph.framework, graph.id), graph.empty_copy()) for graph in gold]
    one = mrp.score(gold, paired, metric="mrp", trace=True)
    merged = _processes("mrp", gold, paired, random.Random(seed), trace=True)
    assert _document(merged) == _document(one)


def test_positional_ids_stay_distinct_across_processes() -> None:
    graphs = ["(a / alpha)", "(b / beta :ARG0 (c / gamma))", "(d / delta)", "(e / epsilon)"]
    system = ["(a / alpha)", "(b / beta)", "(d / delta)", "(x / chi)"]
    one = mrp.score(graphs, system, metric="smatch", trace=True)
    first, second = mrp.Scorer("smatch", trace=True), mrp.Scorer("smatch", trace=True)
    first.update(graphs[:2], system[:2])
    second.update(graphs[2:], system[2:])
    merged = first.merge(second).compute()
    assert [pair.id for pair in merged.pairs] == ["0", "1", "2", "3"]
    assert _document(merged) == _document(one)


def test_a_state_is_small_and_refuses_another_scorer() -> None:
    gold = _blocks(shared_file("data/pairs/amr/coli.gold.amr"), 30)
    system = _blocks(shared_file("data/pairs/amr/coli.system.amr"), 30)
    scorer = mrp.Scorer("smatch")
    scorer.update(gold, system)
    state = pickle.dumps(scorer.state())
    assert len(state) < 400 * 30  # a few hundred bytes a pair: counts and ids, no graphs
    with pytest.raises(ScoreError, match="cannot be merged"):
        mrp.Scorer("smatch", smatch_compat=True).merge(scorer)
    with pytest.raises(ScoreError, match="cannot be merged"):
        mrp.Scorer("mrp").merge(scorer.state())


def test_a_metric_of_documents_keeps_its_graphs_and_merges() -> None:
    gold = mrp.read(ROOT / "tests/data/umatch/gold.umr")
    system = mrp.read(ROOT / "tests/data/umatch/system.umr")
    one = mrp.score(gold, system, metric="umatch", trace=True)
    first, second = mrp.Scorer("umatch", trace=True), mrp.Scorer("umatch", trace=True)
    first.update(gold[:1], system[:1])
    second.update(gold[1:], system[1:])
    merged = first.merge(pickle.loads(pickle.dumps(second.state()))).compute()
    assert _document(merged) == _document(one)  # the document's relations scored over both sentences
