"""SemBLEU: the authors' implementation's figures (corpus and per pair, every weight setting),
and each rule (path extraction, brevity penalty, auto-reweigh, smoothing) on hand-made graphs."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import pytest
from hypothesis import given
from test_oracle import pairs

from mrp.codecs import ReadOptions
from mrp.codecs.penman import read_string
from mrp.corpora.load import read_corpus
from mrp.engine.options import Options
from mrp.engine.pairing import Pair, Pairing
from mrp.graph import Edge, Graph, Node
from mrp.metrics.registry import evaluate
from mrp.metrics.sembleu import (
    DEFAULT_WEIGHTS,
    Counts,
    bleu,
    brevity_penalty,
    empty_counts,
    ngrams,
    pair_counts,
    parse_weights,
    score_pair,
)
from mrp.report.signature import signature

from conftest import budget, run_cli, shared_file

#: the reference's settings: name -> weights (eval.py's default, then its third argument K = 1..4)
SETTINGS: Dict[str, Tuple[float, ...]] = {
    "default": DEFAULT_WEIGHTS, "n1": (1.0,), "n2": (0.5, 0.5), "n3": (1 / 3,) * 3, "n4": (0.25,) * 4}
#: pairs where the original's defects change the counts (unreached nodes: 153; ':' dropped: 1234, 1303)
COLI_DEFECTS = {153, 1234, 1303}


def _amr(path: Path) -> List[Graph]:
    corpus = read_corpus(str(path), "amr", ReadOptions())
    assert not corpus.errors
    return corpus.graphs


def _penman(text: str) -> Graph:
    (graph,) = read_string(text)
    assert isinstance(graph, Graph)
    return graph


def _total(golds: Sequence[Graph], systems: Sequence[Graph], compat: bool) -> Counts:
    total = empty_counts()
    for gold, system in zip(golds, systems):
        total.add(pair_counts(ngrams(gold, compat), ngrams(system, compat)))
    return total


def _reference() -> Dict[str, object]:
    return json.loads(shared_file("reference/sembleu/corpus.json").read_text())


def _rows(name: str) -> List[List[str]]:
    lines = shared_file(f"reference/sembleu/{name}.sentences.tsv").read_text().splitlines()
    return [line.split("\t") for line in lines[1:]]


@pytest.mark.parametrize("name,hyp,ref", [("coli", "coli.system.amr", "coli.gold.amr"),
                                          ("test", "test2.amr", "test1.amr")])
def test_corpus_scores_and_counts_equal_the_original(name: str, hyp: str, ref: str) -> None:
    expected = _reference()[name]
    assert isinstance(expected, dict)
    golds = _amr(shared_file("data/pairs/amr", ref))
    systems = _amr(shared_file("data/pairs/amr", hyp))
    total = _total(golds, systems, compat=True)
    stats = expected["stats"]
    assert [[m, t] for m, t in zip(total.matches, total.totals)] == [stats["p1"], stats["p2"], stats["p3"]]
    assert total.references == [stats["ref_ngrams_1"], stats["ref_ngrams_2"], stats["ref_ngrams_3"]]
    assert (total.system, total.gold) == (stats["hyp_len"], stats["ref_len"])
    assert abs(brevity_penalty(total.gold, total.system) - stats["bp"]) < 1e-12
    for setting, weights in SETTINGS.items():
        assert abs(bleu(total, weights) - expected[setting]) < 1e-9, setting


def test_test_pairs_score_the_same_by_default_and_reversed() -> None:
    expected = _reference()["test"]
    assert isinstance(expected, dict)
    one, two = _amr(shared_file("data/pairs/amr/test1.amr")), _amr(shared_file("data/pairs/amr/test2.amr"))
    for setting, weights in SETTINGS.items():
        assert abs(bleu(_total(one, two, compat=False), weights) - expected[setting]) < 1e-9
    assert abs(bleu(_total(two, one, compat=False)) - expected["reversed_default"]) < 1e-9


@pytest.mark.parametrize("name,hyp,ref", [("coli", "coli.system.amr", "coli.gold.amr"),
                                          ("test", "test2.amr", "test1.amr")])
def test_per_pair_scores_equal_the_original(name: str, hyp: str, ref: str) -> None:
    golds = _amr(shared_file("data/pairs/amr", ref))
    systems = _amr(shared_file("data/pairs/amr", hyp))
    rows = _rows(name)
    assert len(rows) == len(golds) == len(systems)
    reweighed = perfect = 0
    total = 0.0
    for k, (gold, system, row) in enumerate(zip(golds, systems, rows), 1):
        value = score_pair(gold, system, compat=True)[0]
        total += value
        perfect += value == 1.0
        for compat in (True, False):
            if not compat and name == "coli" and k in COLI_DEFECTS:
                continue
            counts = pair_counts(ngrams(gold, compat), ngrams(system, compat))
            shown = ["-" if t == 0 else f"{m}/{t}" for m, t in zip(counts.matches, counts.totals)]
            assert shown == row[6:9], (k, compat)
            assert [counts.system, counts.gold] == [int(row[9]), int(row[10])]
            for column, setting in enumerate(("default", "n1", "n2", "n3"), 1):
                # the reference prints six decimals
                assert abs(bleu(counts, SETTINGS[setting]) - float(row[column])) <= 5e-7, (k, setting)
        reweighed += row[5] == "1"
    if name == "coli":
        # the reference README: mean 0.605602, 103 pairs reweighed, 167 pairs score 1.0
        assert (reweighed, perfect) == (103, 167)
        assert abs(total / len(rows) - 0.605602) <= 5e-7


def test_default_mode_differs_only_where_the_original_is_wrong() -> None:
    golds = _amr(shared_file("data/pairs/amr/coli.gold.amr"))
    systems = _amr(shared_file("data/pairs/amr/coli.system.amr"))
    differ = set()
    for k, (gold, system) in enumerate(zip(golds, systems), 1):
        if pair_counts(ngrams(gold), ngrams(system)) != pair_counts(ngrams(gold, True), ngrams(system, True)):
            differ.add(k)
    assert differ == COLI_DEFECTS
    # pair 153: the original reaches 4 of its 18 system nodes; every node counts here
    assert sum(ngrams(systems[152]).orders[1].values()) == 18
    assert sum(ngrams(systems[152], compat=True).orders[1].values()) == 4


# --- rules on hand-made graphs ---------------------------------------------------------------

def test_paths_of_one_to_three_nodes() -> None:
    graph = _penman('(w / Want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b) :polarity -)')
    grams = ngrams(graph)
    assert grams.orders[1] == {("want-01",): 1, ("boy",): 1, ("go-01",): 1, ("-",): 1}
    assert grams.orders[2] == {("want-01", ":ARG0", "boy"): 1, ("want-01", ":ARG1", "go-01"): 1,
                               ("go-01", ":ARG0", "boy"): 1, ("want-01", ":polarity", "-"): 1}
    assert grams.orders[3] == {("want-01", ":ARG1", "go-01", ":ARG0", "boy"): 1}
    # length: 4 nodes (the constant is a node) and 4 relations
    assert grams.length == 8


def test_of_relations_are_reversed_and_lose_every_of() -> None:
    graph = _penman('(b / boy :ARG0-of (g / go-01) :prep-out-of (h / house))')
    grams = ngrams(graph)
    assert grams.orders[2] == {("go-01", ":ARG0", "boy"): 1, ("house", ":prep-out", "boy"): 1}
    assert not grams.orders[3]
    # the same graph written the other way round gives the same n-grams
    assert ngrams(_penman('(g / go-01 :ARG0 (b / boy :prep-out-of (h / house)))')).orders == grams.orders


def test_a_constant_ending_in_of_is_a_value_not_a_relation() -> None:
    # the original crashes on this constant
    grams = ngrams(_penman('(n / name :op1 "Out-of")'))
    assert grams.orders[2] == {("name", ":op1", "out-of"): 1}


def test_reentrancy_gives_one_unigram_and_a_bigram_per_incoming_relation() -> None:
    grams = ngrams(_penman('(a / and :op1 (x / x1 :mod (z / z1)) :op2 (y / y1 :mod z))'))
    assert grams.orders[1][("z1",)] == 1
    assert grams.orders[2][("x1", ":mod", "z1")] == grams.orders[2][("y1", ":mod", "z1")] == 1
    assert grams.orders[3] == {("and", ":op1", "x1", ":mod", "z1"): 1, ("and", ":op2", "y1", ":mod", "z1"): 1}


def test_a_cycle_returns_to_its_start_and_is_counted_from_every_node() -> None:
    graph = _penman('(a / p :r (b / q :s a))')
    grams = ngrams(graph)
    assert grams.orders[3] == {("p", ":r", "q", ":s", "p"): 1, ("q", ":s", "p", ":r", "q"): 1}
    # the original starts only where nothing comes in (nowhere here), so from the top only
    assert ngrams(graph, compat=True).orders == grams.orders
    unreached = _penman('(t / top :x (a / p :r (b / q :s a)))')
    assert unreached.nodes and sum(ngrams(unreached).orders[1].values()) == 3


def test_compat_skips_a_cycle_the_search_does_not_reach() -> None:
    # c is the only node without incoming relations, the cycle a <-> b (with the top) is not reached
    graph = Graph(id="1", framework="amr", tops=[0], nodes=[Node(0, "a"), Node(1, "b"), Node(2, "c")],
                  edges=[Edge(0, 1, "r"), Edge(1, 0, "s")])
    assert sum(ngrams(graph, compat=True).orders[1].values()) == 1
    assert sum(ngrams(graph).orders[1].values()) == 3
    assert ngrams(graph).length == ngrams(graph, compat=True).length == 5


def test_compat_string_handling() -> None:
    graph = _penman('(c / country :name (n / name :op1 "Georgia_(country)" :op2 "New York"))')
    assert ("georgia_(country)",) in ngrams(graph).orders[1]
    assert ("new york",) in ngrams(graph).orders[1]
    compat = ngrams(graph, compat=True).orders
    assert ("georgia_country",) in compat[1] and ("new", "york") in compat[1]


def test_every_framework_properties_and_anchors_are_leaves() -> None:
    text = "Dogs bark."
    graph = Graph(id="1", framework="dm", input=text, tops=[1],
                  nodes=[Node(0, "dog", ["pos"], ["NNS"], [(0, 4)]), Node(1, "bark", [], [], [(5, 10)])],
                  edges=[Edge(1, 0, "ARG1")])
    grams = ngrams(graph)
    assert grams.orders[2] == {("dog", ":pos", "nns"): 1, ("dog", ":anchor", "0:4"): 1,
                               ("bark", ":anchor", "5:9"): 1, ("bark", ":ARG1", "dog"): 1}
    assert ("bark", ":ARG1", "dog", ":anchor", "0:4") in grams.orders[3]
    assert grams.length == 5 + 4
    # an unlabelled node (UCCA) is an empty item, and an unlabelled edge a bare ':'
    ucca = Graph(id="1", framework="ucca", nodes=[Node(0), Node(1)], edges=[Edge(0, 1)])
    assert ngrams(ucca).orders[2] == {("", ":", ""): 1}


def test_penman_and_mrp_json_of_the_same_amr_score_the_same() -> None:
    from mrp.codecs.mrp import decode, dumps

    graph = _penman('(w / want-01 :ARG0 (b / boy) :ARG1-of (g / go-01) :polarity -)')
    again = decode(json.loads(dumps(graph)))
    assert ngrams(again).orders == ngrams(graph).orders


def _counts(matches: Sequence[int], totals: Sequence[int], system: int, gold: int) -> Counts:
    return Counts(list(matches), list(totals), system, gold)


def test_brevity_penalty() -> None:
    assert brevity_penalty(10, 12) == 1.0
    assert brevity_penalty(10, 10) == 1.0
    assert brevity_penalty(12, 10) == math.exp(1 - 12 / 10)
    assert brevity_penalty(5, 0) == 0.0
    assert bleu(_counts([4, 3, 2], [4, 3, 2], 8, 10)) == pytest.approx(math.exp(1 - 10 / 8))


def test_weighted_geometric_mean_with_the_original_default_weights() -> None:
    counts = _counts([4, 3, 1], [5, 4, 2], 9, 8)
    expected = math.exp(0.34 * math.log(4 / 5) + 0.33 * math.log(3 / 4) + 0.34 * math.log(1 / 2))
    assert bleu(counts) == pytest.approx(expected, abs=1e-15)
    assert bleu(counts, (1.0,)) == pytest.approx(4 / 5)


def test_smoothing_gives_the_kth_order_without_matches_one_over_two_to_the_k() -> None:
    counts = _counts([2, 0, 0], [3, 2, 1], 5, 5)
    expected = math.exp((math.log(2 / 3) + math.log(1 / (2 * 2)) + math.log(1 / (4 * 1))) / 3)
    assert bleu(counts, (1 / 3,) * 3) == pytest.approx(expected, abs=1e-15)
    assert bleu(_counts([0, 0, 0], [3, 2, 1], 5, 5)) == 0.0


def test_auto_reweigh_when_the_system_has_no_higher_orders() -> None:
    counts = _counts([2, 0, 0], [3, 2, 0], 5, 7)
    expected = math.exp(1 - 7 / 5) * math.exp(0.5 * math.log(2 / 3) + 0.5 * math.log(1 / (2 * 2)))
    assert bleu(counts) == pytest.approx(expected, abs=1e-15)
    # 4 weights: n-grams stop at 3, so they become thirds
    full = _counts([3, 2, 1], [3, 3, 2], 5, 5)
    assert bleu(full, (0.25,) * 4) == bleu(full, (1 / 3,) * 3)


def test_an_empty_system_graph_scores_zero() -> None:
    gold = _penman("(a / b)")
    value, counts = score_pair(gold, gold.empty_copy())
    assert value == 0.0 and counts.totals == [0, 0, 0] and counts.gold == 1


def test_weights_option() -> None:
    assert parse_weights("3") == (1 / 3,) * 3
    assert parse_weights("0.34,0.33,0.33") == (0.34, 0.33, 0.33)
    for bad in ("0", "a,b", "-1,2", "nan", "0,0", "inf"):
        with pytest.raises(ValueError):
            parse_weights(bad)
    one = signature("sembleu", ["amr"], Options())
    two = signature("sembleu", ["amr"], Options(sembleu_weights=(0.5, 0.5), sembleu_compat=True))
    assert "weights:0.34+0.33+0.34" in one and "compat" not in one
    assert "weights:uniform2|compat" in two
    other = Options(sembleu_weights=(0.34, 0.33, 0.33))
    assert "weights:0.34+0.33+0.33|" in signature("sembleu", ["amr"], other)
    assert "weights:1.0|" in signature("sembleu", ["amr"], Options(sembleu_weights=parse_weights("1")))


def test_evaluate_reports_corpus_and_per_pair_scores() -> None:
    gold = _penman("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))")
    system = _penman("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01))")
    other = _penman("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))")
    other.id = "1"
    pairing = Pairing(pairs=[Pair(gold, system, False), Pair(other, other, False)])
    result, _ = evaluate("sembleu", pairing, Options(trace=True))
    assert result["n"] == 2
    value, counts = score_pair(gold, system)
    assert result["scores"]["amr"]["0"]["sembleu"] == value
    # every system n-gram matches, it has no 3-gram (the weights are reweighed), and only the
    # brevity penalty lowers it (3 nodes + 2 relations against 3 + 3)
    assert counts.totals == [3, 2, 0] and value == pytest.approx(math.exp(1 - 6 / 5), abs=1e-15)
    assert result["scores"]["amr"]["1"]["sembleu"] == 1.0
    assert [tuple(result["orders"][k][x] for x in "gsc") for k in "123"] == [(6, 6, 6), (6, 5, 5), (2, 1, 1)]
    assert result["orders"]["2"]["p"] == 1.0 and result["orders"]["2"]["r"] == 5 / 6
    assert 0 < result["sembleu"] < 1.0
    assert score_pair(gold, gold)[0] == 1.0
    assert result["mean"] == pytest.approx((value + 1.0) / 2)


def test_cli_reproduces_the_original_with_compat() -> None:
    gold, system = shared_file("data/pairs/amr/coli.gold.amr"), shared_file("data/pairs/amr/coli.system.amr")
    run = run_cli("score", ["--score", "sembleu", "--sembleu-compat", "--sembleu-weights", "2",
                                "--gold", str(gold), str(system)])
    assert run.code == 0, run.err
    result = json.loads(run.out)
    assert abs(result["sembleu"] - 0.700436458064738) < 1e-9
    assert "weights:uniform2|compat" in result["signature"]


def test_sembleu_and_the_new_metric_modules_do_not_import_numba() -> None:
    import subprocess
    import sys

    code = ("import sys, mrp.metrics.sembleu as s, mrp.metrics.predications, mrp.metrics.unlabeled.metric; "
            "from mrp.codecs.penman import read_string; (g,) = read_string('(a / b :c (d / e))'); "
            "s.score_pair(g, g); print('numba' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stdout.strip() == "False", proc.stderr


@budget(150)
@given(pairs(max_nodes=5))
def test_random_pairs_score_in_zero_one_and_one_against_themselves(pair: Tuple[Graph, Graph]) -> None:
    gold, system = pair
    value, counts = score_pair(gold, system)
    assert 0.0 <= value <= 1.0
    assert all(0 <= c <= min(t, g) for c, t, g in zip(counts.matches, counts.totals, counts.references))
    for graph in (gold, system):
        assert score_pair(graph, graph)[0] == (1.0 if graph.nodes else 0.0)
        assert score_pair(graph, graph, compat=True)[0] == (1.0 if graph.nodes else 0.0)


@pytest.mark.parametrize("framework", ["amr", "dm", "psd", "eds", "ucca"])
def test_every_shared_framework_scores_one_against_itself(framework: str) -> None:
    graphs = read_corpus(str(shared_file(f"data/wsj/{framework}/wsj.mrp"))).graphs
    pairing = Pairing(pairs=[Pair(graph, graph, False) for graph in graphs])
    result, _ = evaluate("sembleu", pairing, Options(trace=True))
    assert result["sembleu"] == 1.0 and result["mean"] == 1.0
    assert all(result["orders"][k]["f"] == 1.0 for k in "123")


def test_an_eds_parser_scores_below_one() -> None:
    from mrp.engine.pairing import pair

    gold = read_corpus(str(shared_file("data/wsj/eds/wsj.mrp")))
    system = read_corpus(str(shared_file("data/pairs/eds/wsj.pet.mrp")))
    result, _ = evaluate("sembleu", pair(gold, system), Options())
    # 2 gold graphs have no system graph: they count in the gold length only
    assert result["n"] == 89 and 0.9 < result["sembleu"] < 1.0
    assert result["length"]["gold"] > result["length"]["system"] and result["bp"] < 1.0


def test_inputs_the_original_misreads_or_crashes_on() -> None:
    # an undefined variable (the original stops the run): a constant here
    assert ngrams(_penman("(r / recommend-01 :ARG0 b)")).orders[2] == {("recommend-01", ":ARG0", "b"): 1}
    # a variable used before its definition, named u_2: one node with two incoming relations here,
    # where the original makes the first reference an extra constant leaf
    early = ngrams(_penman("(a / b :ARG1 u_2 :ARG0 (u_2 / x))"))
    assert early.orders[1] == {("b",): 1, ("x",): 1} and early.length == 4
