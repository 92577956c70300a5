"""Pairs scored together (Metric.score_many: the sentence pairs of SMATCH and of the MRP metric built and
searched in one compiled call, mrp.solver.batch) give each pair the result it gets alone, field for
field: on real parser output, on random graphs, with every option that changes how a pair is searched;
and the pairs they cannot settle (a long search, documents, errors asked for) are scored alone."""

from __future__ import annotations

import random
from typing import Any, Dict, List, Optional, Sequence

import pytest

import mrp
from mrp.corpora.corpus import Corpus
from mrp.engine import driver
from mrp.engine.base import Metric, PairCounts
from mrp.engine.options import Options
from mrp.engine.pairing import Pair, pair
from mrp.graph import Edge, Graph, Node
from mrp.memo import ByObject
from mrp.metrics.mrp import metric as mrp_module
from mrp.metrics.smatch import metric as smatch_module
from mrp.metrics.smatch.coded import Coder
from mrp.solver.solve import TOGETHER_STEPS

from conftest import shared_file, timeless


def _alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(smatch_module.SMATCH, "score_many", Metric.score_many)


def _pairs(gold: Any, system: Any, options: Options) -> List[Any]:
    """Every pair's result as the driver gathers it: counts, exactness, bound, steps, cut, note."""
    pairing = pair(Corpus("gold", "amr", graphs=mrp.read(gold)), Corpus("system", "amr",
                                                                         graphs=mrp.read(system)))
    run, _ = driver.run(smatch_module.METRIC, pairing, options)
    return [(result.counts, result.exact, result.bound, result.steps, result.cut, result.note)
            for result in run.results]


def _both(monkeypatch: pytest.MonkeyPatch, gold: Any, system: Any, **fields: Any) -> List[List[Any]]:
    options = Options(penman=fields.pop("penman", True), timeout=fields.pop("timeout", 60.0), **fields)
    together = _pairs(gold, system, options)
    with monkeypatch.context() as patch:
        _alone(patch)
        alone = _pairs(gold, system, options)
    return [together, alone]


def _amr(rng: random.Random, variables: int) -> str:
    """A random AMR: a tree over the variables, re-entrancies, constants, an inverted role now and then."""
    concepts, roles = ["a", "b", "c", "d"], [":ARG0", ":ARG1", ":mod", ":ARG0-of", ":op1"]
    names = [f"v{k}" for k in range(variables)]
    children: Dict[int, List[int]] = {k: [] for k in range(variables)}
    for k in range(1, variables):
        children[rng.randrange(k)].append(k)

    def node(k: int) -> str:
        out = f"({names[k]} / {rng.choice(concepts)}"
        for child in children[k]:
            out += f" {rng.choice(roles)} {node(child)}"
        if rng.random() < 0.3:
            out += f" {rng.choice(roles)} {names[rng.randrange(variables)]}"
        if rng.random() < 0.3:
            out += ' :polarity -' if rng.random() < 0.5 else f' :quant {rng.randrange(3)}'
        return out + ")"

    return node(0)


def test_random_pairs_get_the_results_they_get_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    gold = [_amr(rng, rng.randrange(1, 9)) for _ in range(300)]
    system = [_amr(rng, rng.randrange(1, 9)) if k % 7 else gold[k] for k in range(300)]  # some identical
    text = ("\n\n".join(gold), "\n\n".join(system))
    for options in ({}, {"smatch_compat": True}, {"limit": 3}, {"penman": False}, {"mip": False},
                    {"timeout": 0.5}, {"limit": TOGETHER_STEPS}):
        together, alone = _both(monkeypatch, *text, **options)
        assert len(together) == 300 and together == alone, options


def test_parser_output_gets_the_results_it_gets_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    gold, system = shared_file("data/pairs/amr/coli.gold.amr"), shared_file("data/pairs/amr/coli.system.amr")
    together, alone = _both(monkeypatch, gold, system)
    assert together == alone
    assert len(together) == 1368 and all(exact for _, exact, *_ in together)
    assert max(steps for *_, steps, _, _ in together) >= TOGETHER_STEPS  # one at least was open after them


#: the metric classes scored together, and the two files of parser output each is tested on
_TOGETHER = {
    "smatch": (smatch_module.SMATCH, ("data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr")),
    "mrp": (mrp_module.MRP, ("data/wsj/eds/wsj.mrp", "data/pairs/eds/wsj.pet.mrp")),
}


@pytest.mark.parametrize("metric, most", [("smatch", 10), ("mrp", 8)])
def test_only_what_together_cannot_settle_is_scored_alone(monkeypatch: pytest.MonkeyPatch, metric: str,
                                                          most: int) -> None:
    module, files = _TOGETHER[metric]
    gold, system = (mrp.read(shared_file(name))[:200] for name in files)
    alone: List[str] = []
    score = module.score

    def counted(self: Any, pair: Pair, options: Options) -> PairCounts:
        alone.append(pair.gold.id)
        return score(self, pair, options)

    monkeypatch.setattr(module, "score", counted)
    mrp.score(gold, system, metric)
    assert len(alone) < most  # of the sentence pairs, those kept apart (documents, too large, ...)
    alone.clear()
    mrp.score(gold, system, metric, errors=True)
    assert len(alone) == len(gold)  # the differences are the per-pair path's


def test_a_failure_scoring_together_leaves_each_pair_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Any, pairs: Sequence[Pair], options: Options) -> List[Optional[PairCounts]]:
        raise RuntimeError("broken")

    rng = random.Random(4)
    gold = [_amr(rng, 5) for _ in range(20)]
    system = [_amr(rng, 5) for _ in range(20)]
    expected = timeless(mrp.score(gold, system, "smatch").to_dict())
    monkeypatch.setattr(smatch_module.SMATCH, "score_many", broken)
    assert timeless(mrp.score(gold, system, "smatch").to_dict()) == expected


def test_pairs_go_to_the_metric_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: List[int] = []
    many = smatch_module.SMATCH.score_many

    def seen(self: Any, pairs: Sequence[Pair], options: Options) -> List[Optional[PairCounts]]:
        sizes.append(len(pairs))
        return many(self, pairs, options)

    monkeypatch.setattr(smatch_module.SMATCH, "score_many", seen)
    monkeypatch.setattr(driver, "TOGETHER", 7)
    rng = random.Random(5)
    gold = [_amr(rng, 4) for _ in range(20)]
    mrp.score(gold, list(reversed(gold)), "smatch")
    assert sizes == [7, 7, 6]


# --- the MRP metric ---------------------------------------------------------------------------------------


def _mrp_pairs(gold: List[Graph], system: List[Graph], options: Options) -> List[Any]:
    pairing = pair(Corpus("gold", "mrp", graphs=gold), Corpus("system", "mrp", graphs=system))
    run, _ = driver.run(mrp_module.METRIC, pairing, options)
    return [(result.counts, result.exact, result.bound, result.steps, result.cut, result.note, result.failure)
            for result in run.results]


def _mrp_both(monkeypatch: pytest.MonkeyPatch, gold: List[Graph], system: List[Graph],
              **fields: Any) -> List[List[Any]]:
    options = Options(timeout=fields.pop("timeout", 60.0), **fields)
    together = _mrp_pairs(gold, system, options)
    with monkeypatch.context() as patch:
        patch.setattr(mrp_module.MRP, "score_many", Metric.score_many)
        alone = _mrp_pairs(gold, system, options)
    return [together, alone]


TEXT = "the cat sat on the mat , quickly ."


def _graph(rng: random.Random, gid: str, nodes: int) -> Graph:
    """A random anchored graph: labels, properties, anchors (some spanning punctuation), tops, edges with
    repeats and loops, an attribute now and then (then the pair is scored alone)."""
    made = []
    for k in range(nodes):
        start = rng.randrange(len(TEXT) - 3)
        properties = ["pos"] if rng.random() < 0.4 else []
        values = [rng.choice(["n", "v"])] * len(properties)
        made.append(Node(k, rng.choice(["a", "b", None]), properties, values,
                         anchors=[(start, start + rng.randrange(1, 4))] if rng.random() < 0.3 else None))
    edges = [Edge(rng.randrange(nodes), rng.randrange(nodes), rng.choice(["x", "x", "y", "x-of"]))
             for _ in range(rng.randrange(3 * nodes + 1))]
    if rng.random() < 0.1 and edges:
        edges[0].attributes, edges[0].values = ["remote"], ["true"]
    tops = [rng.randrange(nodes)] if rng.random() < 0.8 else []
    return Graph(id=gid, framework="eds", input=TEXT, tops=tops, nodes=made, edges=edges)


def test_mrp_random_pairs_get_the_results_they_get_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(6)
    gold = [_graph(rng, str(k), rng.randrange(1, 11)) for k in range(300)]
    system = [_graph(rng, str(k), rng.randrange(1, 11)) if k % 9 else gold[k] for k in range(300)]
    for options in ({}, {"limit": 3}, {"mip": False}, {"timeout": 0.5}, {"limit": TOGETHER_STEPS}):
        together, alone = _mrp_both(monkeypatch, gold, system, **options)
        assert len(together) == 300 and together == alone, options
        assert not any(failure for *_, failure in together)


@pytest.mark.parametrize("gold_file, system_file", [
    ("data/wsj/eds/wsj.mrp", "data/pairs/eds/wsj.pet.mrp"),
    ("data/pairs/psd/107480.gold.mrp", "data/pairs/psd/107480.foxik.mrp"),
    ("data/pairs/ucca/test.gold.mrp", "data/pairs/ucca/test.tupa.mrp"),
    ("data/pairs/amr/test1.mrp", "data/pairs/amr/test2.mrp"),
    ("data/pairs/dm/empty.gold.mrp", "data/pairs/dm/empty.peking.mrp"),
])
# TUPA's UCCA output holds a graph with a duplicate node id: it is left out, with a warning
@pytest.mark.filterwarnings("ignore::mrp.api.reading.ReadWarning")
def test_mrp_parser_output_gets_the_results_it_gets_alone(monkeypatch: pytest.MonkeyPatch, gold_file: str,
                                                          system_file: str) -> None:
    gold = mrp.read(shared_file(gold_file), errors="skip")
    system = mrp.read(shared_file(system_file), errors="skip")
    together, alone = _mrp_both(monkeypatch, gold, system)
    assert together == alone and together


def test_mrp_a_failure_scoring_together_is_the_failing_pairs_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    gold = [_graph(rng, str(k), 5) for k in range(20)]
    system = [_graph(rng, str(k), 5) for k in range(20)]
    healthy = mrp.score(gold, system).document
    normalize = mrp_module.normalize

    def flaky(graph: Graph) -> Any:
        if graph is system[3]:
            raise RuntimeError("boom")
        return normalize(graph)

    monkeypatch.setattr(mrp_module, "normalize", flaky)  # scoring together raises: the chunk goes alone
    result = mrp.score(gold, system).document
    items = result["scores"]["eds"]
    assert result["cut"]["error"] == 1 and items["3"]["cut"] == "error" and items["3"]["all"]["c"] == 0
    for gid, item in healthy["scores"]["eds"].items():
        if gid != "3":
            assert items[gid] == item


@pytest.mark.parametrize("metric", ["mrp", "smatch"])
def test_worker_processes_score_their_pairs_together(monkeypatch: pytest.MonkeyPatch, tmp_path: Any,
                                                      metric: str) -> None:
    module, files = _TOGETHER[metric]
    gold, system = (mrp.read(shared_file(name))[:300] for name in files)
    one = mrp.score(gold, system, metric, jobs=1).document
    score, log = module.score, tmp_path / "alone.log"

    def counted(self: Any, pair: Pair, options: Options) -> PairCounts:
        with open(log, "a") as out:  # forked workers inherit the patch
            out.write(f"{pair.gold.id}\n")
        return score(self, pair, options)

    monkeypatch.setattr(module, "score", counted)
    two = mrp.score(gold, system, metric, jobs=2).document
    assert timeless(two) == timeless(one) and two["n"] == len(gold)
    assert 0 < len(log.read_text().split()) < len(gold) // 10  # the workers scored most pairs together


@pytest.mark.parametrize("metric", ["unlabeled", "unlabeled-edges"])
def test_mrp_variants_score_together_what_they_score_alone(monkeypatch: pytest.MonkeyPatch,
                                                          metric: str) -> None:
    rng = random.Random(8)
    gold = [_graph(rng, str(k), rng.randrange(1, 9)) for k in range(150)]
    system = [_graph(rng, str(k), rng.randrange(1, 9)) for k in range(150)]
    together = timeless(mrp.score(gold, system, metric).document)
    with monkeypatch.context() as patch:
        patch.setattr(mrp_module.MRP, "score_many", Metric.score_many)
        alone = timeless(mrp.score(gold, system, metric).document)
    assert together == alone and together["n"] == 150
    assert together["edges"] != mrp.score(gold, system).document["edges"]  # the edge labels are dropped


def test_a_pair_too_large_to_score_together_is_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pair over the size solve_together takes is left alone before its triples are made (they are
    made once, by the path that scores it); the small pairs' triples are made once too."""
    rng = random.Random(9)
    gold = [_amr(rng, 60), _amr(rng, 5), _amr(rng, 6)]
    system = [_amr(rng, 55), _amr(rng, 5), _amr(rng, 6)]
    made: List[str] = []
    of, coded = smatch_module.SMATCH.triples_of, Coder.coded

    def counted(self: Any, graph: Graph, options: Options) -> Any:
        made.append(graph.id)
        return of(self, graph, options)

    def counted_coded(self: Any, graph: Graph) -> Any:  # the small pairs' triples are coded in one pass
        made.append(graph.id)
        return coded(self, graph)

    coded_plain = Coder.coded_plain

    def counted_plain(self: Any, plain: Any) -> Any:  # strings' graphs not built: coded from their texts
        made.append(f"{len(plain.labels)} nodes")
        return coded_plain(self, plain)

    monkeypatch.setattr(smatch_module.SMATCH, "triples_of", counted)
    monkeypatch.setattr(Coder, "coded", counted_coded)
    coded_scan = Coder.coded_scan

    def counted_scan(self: Any, form: Any) -> Any:  # or from the compiled scan's integers, once it is ready
        made.append(f"{form.codes[0]} nodes")
        return coded_scan(self, form)

    monkeypatch.setattr(Coder, "coded_plain", counted_plain)
    monkeypatch.setattr(Coder, "coded_scan", counted_scan)
    result = mrp.score(gold, system, "smatch")
    assert result.document["exact"] == 3
    assert sorted(made) == sorted(["0", "0"] + [f"{len(mrp.read(text)[0].nodes)} nodes"
                                                for text in gold[1:] + system[1:]])
    made.clear()
    result = mrp.score(mrp.read("\n\n".join(gold)), mrp.read("\n\n".join(system)), "smatch")  # graphs
    assert result.document["exact"] == 3
    assert sorted(made) == ["0", "0", "1", "1", "2", "2"]


def _triples_counted(monkeypatch: pytest.MonkeyPatch) -> List[int]:
    """The graphs (by id) whose triples are made (or coded in one pass) from now on, by the all-pairs
    SMATCH's memo or by SMATCH itself."""
    made: List[int] = []
    triples, coded = smatch_module.triples, Coder.coded

    def counted(graph: Graph, options: Options) -> Any:
        made.append(id(graph))
        return triples(graph, options)

    def counted_coded(self: Any, graph: Graph) -> Any:
        made.append(id(graph))
        return coded(self, graph)

    monkeypatch.setattr(smatch_module, "triples", counted)
    monkeypatch.setattr(Coder, "coded", counted_coded)
    return made


def test_all_pairs_memo_serves_pairs_scored_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """SMATCH with a memo (mrp-similarity's, SMATCH.remembering) makes a graph's triples once, whether its
    pairs are scored together or alone, and gives each pair SMATCH's result."""
    made = _triples_counted(monkeypatch)
    rng = random.Random(10)
    graphs = mrp.read("\n\n".join(_amr(rng, rng.randrange(2, 8)) for _ in range(6)))
    gold = [a for a in graphs for _ in graphs]  # every pair of the six, as an all-pairs block has them
    system = [b for _ in graphs for b in graphs]
    pairs = [Pair(a, b, False) for a, b in zip(gold, system)]
    options = Options(penman=True, timeout=60.0)
    memo = smatch_module.SMATCH(ByObject())
    results = list(driver._together(memo, pairs, options))
    assert sorted(set(made)) == sorted(id(graph) for graph in graphs) and len(made) == len(graphs)
    plain = list(driver._together(smatch_module.METRIC, pairs, options))
    assert [(r.counts, r.exact, r.bound, r.steps) for r in results] == \
        [(r.counts, r.exact, r.bound, r.steps) for r in plain]


def test_all_pairs_memo_serves_a_failed_pairs_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pair whose scoring failed is counted alone (Metric.fallback): SMATCH with a memo takes those counts
    from its memo too, and they are SMATCH's."""
    made = _triples_counted(monkeypatch)
    rng = random.Random(11)
    gold, system = mrp.read("\n\n".join(_amr(rng, rng.randrange(2, 8)) for _ in range(2)))
    options = Options(penman=True, timeout=60.0)
    memo = smatch_module.SMATCH(ByObject())
    memo.triples_of(gold, options), memo.triples_of(system, options)
    assert len(made) == 2
    failed = memo.fallback(Pair(gold, system, False), options, "a test")
    assert len(made) == 2  # nothing made again
    plain = smatch_module.METRIC.fallback(Pair(gold, system, False), options, "a test")
    assert failed.counts == plain.counts and len(made) == 4  # SMATCH makes both again
    assert failed.counts[()][:2] == (smatch_module.triples(gold, options)[2],
                                     smatch_module.triples(system, options)[2])


def test_all_pairs_blocks_score_with_the_metrics_own_remembering(monkeypatch: pytest.MonkeyPatch) -> None:
    """An all-pairs block scores with what ``Metric.remembering`` gives: SMATCH's instance with a memo,
    filled with the block's live graphs (packed ones left for later); any other metric, itself."""
    made = _triples_counted(monkeypatch)
    rng = random.Random(12)
    graphs = mrp.read("\n\n".join(_amr(rng, rng.randrange(2, 8)) for _ in range(3)))
    options = Options(penman=True, smatch_compat=True)  # a key no other test fills
    kept = smatch_module.METRIC.remembering([graphs[:2], [graphs[2], b"packed"]], options)
    assert isinstance(kept, smatch_module.SMATCH) and kept is not smatch_module.METRIC
    assert kept.memo is not None and sorted(made) == sorted(id(graph) for graph in graphs)
    assert smatch_module.METRIC.remembering([graphs], options) is kept and len(made) == 3
    assert mrp_module.METRIC.remembering([graphs], options) is mrp_module.METRIC


def test_a_pair_open_after_the_batch_steps_is_closed_there_by_its_relaxation_as_alone() -> None:
    """coli pair 757 is open after the batch's TOGETHER_STEPS (= RELAX_AFTER) steps; its relaxation closes
    it there, with the Solution the pair gets alone, field for field (it used to be searched again alone)."""
    from test_mip import coli_rows

    from mrp.solver import mip
    from mrp.solver.problem import from_rows
    from mrp.solver.solve import RELAX_AFTER, solve_problem, solve_together

    if not mip.available():
        pytest.skip("HiGHS (highspy) is not installed")
    rows = coli_rows("757")
    (together,) = solve_together([rows])
    alone = solve_problem(from_rows(rows))
    assert together is not None, "the batch left the pair to be solved alone"
    assert together.exact and together.steps == RELAX_AFTER == TOGETHER_STEPS
    assert together == alone
