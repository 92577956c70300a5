"""Fine-grained AMR aspects: the sub-graph each aspect extracts, exact counts, empty aspects, coli."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any, Dict, List, Tuple

import pytest

from mrp.codecs.penman import read_string
from mrp.corpora.load import read_corpus
from mrp.engine.options import Options
from mrp.engine.pairing import Pair, Pairing, pair
from mrp.graph import Graph, Node
from mrp.metrics.aspects import ASPECTS, extract, score_aspects
from mrp.metrics.registry import evaluate

from conftest import shared_path

#: the keys every result ends with: how many system graphs were not read or scored normally
ACCOUNTING = ["invalid", "unpaired", "duplicates", "repaired", "missing"]

PENMAN = Options(penman=True)

#: "Tom did not want to go to Paris, in the park with 3 friends, in 2001, because of rain."
GOLD = """
(w / want-01 :polarity -
   :ARG0 (b / boy :wiki "Tom_X" :name (n / name :op1 "Tom"))
   :ARG1 (g / go-02 :ARG0 b
            :ARG4 (c / city :wiki "Paris" :name (n2 / name :op1 "Paris"))
            :accompanier (f / friend :quant 3)
            :location (p / park))
   :time (d / date-entity :year 2001)
   :ARG1-of (c2 / cause-01 :ARG0 (r / rain-01)))
"""

SYSTEM = """
(w / want-01
   :ARG0 (b / boy :wiki "Tom_X" :name (n / name :op1 "Tom"))
   :ARG1 (g / go-02 :ARG0 b
            :ARG4 (c / city :wiki "Paris_Texas" :name (n2 / name :op1 "Paris")))
   :time (d / date-entity :year 2002))
"""

Shape = Tuple[List[Tuple[str, Tuple[Tuple[str, str], ...]]], List[Tuple[str, str, str]]]


def _graph(text: str, gid: str = "1") -> Graph:
    (graph,) = read_string(f"# ::id {gid}\n{text.strip()}\n")
    assert isinstance(graph, Graph)
    return graph


def _shape(graph: Graph) -> Shape:
    """Nodes as (concept, constants) and edges as (source concept, label, target concept), sorted."""
    label = {node.id: node.label or "" for node in graph.nodes}
    nodes = sorted((label[node.id], tuple(zip(node.properties, map(str, node.values))))
                   for node in graph.nodes)
    edges = sorted((label[e.source], e.label or "", label[e.target]) for e in graph.edges)
    return nodes, edges


def _pairing(*pairs: Tuple[Graph, Graph]) -> Pairing:
    return Pairing(pairs=[Pair(gold, system, not system.nodes) for gold, system in pairs])


ALL_EDGES = [
    ("boy", "name", "name"), ("cause-01", "ARG0", "rain-01"), ("city", "name", "name"),
    ("go-02", "ARG0", "boy"), ("go-02", "ARG4", "city"), ("go-02", "accompanier", "friend"),
    ("go-02", "location", "park"), ("want-01", "ARG0", "boy"), ("want-01", "ARG1", "go-02"),
    ("want-01", "ARG1-of", "cause-01"), ("want-01", "time", "date-entity"),
]

EXPECTED: Dict[str, Shape] = {
    "named-entities": (
        [("boy", ()), ("city", ()), ("name", (("op1", "Paris"),)), ("name", (("op1", "Tom"),))],
        [("boy", "name", "name"), ("city", "name", "name")]),
    "negation": ([("want-01", (("polarity", "-"),))], []),
    "wikification": ([("boy", (("wiki", "Tom_X"),)), ("city", (("wiki", "Paris"),))], []),
    # want-01 is the ARG1 of cause-01, so the whole graph is below some argument; :wiki is left out
    "arguments": (
        [("boy", ()), ("cause-01", ()), ("city", ()), ("date-entity", (("year", "2001"),)),
         ("friend", (("quant", "3"),)), ("go-02", ()), ("name", (("op1", "Paris"),)),
         ("name", (("op1", "Tom"),)), ("park", ()), ("rain-01", ()), ("want-01", (("polarity", "-"),))],
        ALL_EDGES),
    # boy is the ARG0 of want-01 and of go-02; the concepts at both ends only
    "reentrancies": ([("boy", ()), ("go-02", ()), ("want-01", ())],
                     [("go-02", "ARG0", "boy"), ("want-01", "ARG0", "boy")]),
    "concepts": (
        sorted([("boy", ()), ("cause-01", ()), ("city", ()), ("date-entity", ()), ("friend", ()),
                ("go-02", ()), ("name", ()), ("name", ()), ("park", ()), ("rain-01", ()), ("want-01", ())]),
        []),
    "frames": ([("cause-01", ()), ("go-02", ()), ("rain-01", ()), ("want-01", ())], []),
    # cause-01 with its arguments (rain-01; want-01 by the inverted ARG1-of) and two levels below them
    "cause": (
        [("boy", ()), ("cause-01", ()), ("city", ()), ("date-entity", (("year", "2001"),)), ("friend", ()),
         ("go-02", ()), ("name", ()), ("park", ()), ("rain-01", ()), ("want-01", (("polarity", "-"),))],
        [edge for edge in ALL_EDGES if edge != ("city", "name", "name")]),
    "location": ([("go-02", ()), ("park", ())], [("go-02", "location", "park")]),
    "quantifier": ([("friend", (("quant", "3"),))], []),
    "time": ([("date-entity", (("year", "2001"),)), ("want-01", ())], [("want-01", "time", "date-entity")]),
}

#: (g, s, c) of GOLD against SYSTEM per aspect, SMATCH triples without TOP.
COUNTS = {
    "named-entities": (8, 8, 8),      # per entity: 2 instances, :name, :op1
    "negation": (2, 0, 0),            # want-01 and its :polarity; the system lost it
    "wikification": (4, 4, 3),        # 2 instances, 2 :wiki; Paris_Texas is wrong
    "arguments": (27, 14, 14),        # the system's want-01 is no argument: only its concept counts
    "reentrancies": (5, 5, 5),
    "concepts": (11, 7, 7),
    "frames": (4, 2, 2),
    "cause": (22, 0, 0),              # 10 instances, :polarity, :year, 10 relations
    "location": (3, 0, 0),
    "quantifier": (2, 0, 0),
    "time": (4, 4, 3),                # the year differs
}


def test_aspects_in_a_fixed_order() -> None:
    assert ASPECTS == ("named-entities", "negation", "wikification", "arguments", "reentrancies",
                       "concepts", "frames", "cause", "location", "quantifier", "time")
    assert set(EXPECTED) == set(COUNTS) == set(ASPECTS)


@pytest.mark.parametrize("aspect", ASPECTS)
def test_extracted_subgraph(aspect: str) -> None:
    gold = _graph(GOLD)
    before = copy.deepcopy(gold)
    sub = extract(gold, aspect)
    assert _shape(sub) == EXPECTED[aspect]
    assert gold == before  # the input is untouched
    ids = {node.id: node.label for node in gold.nodes}
    assert all(ids[node.id] == node.label for node in sub.nodes)  # node ids kept
    assert sub.tops == [] and sub.id == gold.id and sub.framework == "amr"
    if sub.nodes:
        assert all(node is not original for node in sub.nodes for original in gold.nodes)


def test_unknown_aspect() -> None:
    with pytest.raises(ValueError, match="unknown aspect"):
        extract(_graph(GOLD), "sentiment")


def test_depth_of_the_context_below_a_trigger() -> None:
    chain = _graph("(a / go-02 :location (b / b1 :quant 1 :mod (c / c1 :quant 2 :mod (d / d1 :quant 3"
                   " :mod (e / e1)))))")
    labels = {depth: _shape(extract(chain, "location", depth)) for depth in (0, 1, 2, None)}
    assert labels[0] == ([("b1", ()), ("go-02", ())], [("go-02", "location", "b1")])
    assert labels[1] == ([("b1", (("quant", "1"),)), ("c1", ()), ("go-02", ())],
                         [("b1", "mod", "c1"), ("go-02", "location", "b1")])
    assert labels[2] == _shape(extract(chain, "location"))  # Smatch++'s range is the default
    assert labels[2][0] == [("b1", (("quant", "1"),)), ("c1", (("quant", "2"),)), ("d1", ()), ("go-02", ())]
    assert labels[None][0][-2:] == [("e1", ()), ("go-02", ())]
    assert len(labels[None][1]) == 4


def test_roles_count_in_their_normal_direction() -> None:
    written = _graph("(s / say-01 :ARG1 (b / boy :ARG0-of (g / go-02 :ARG4 (c / city))))")
    inverted = _graph("(g / go-02 :ARG0 (b / boy :ARG1-of (s / say-01)) :ARG4 (c / city))")
    assert _shape(extract(written, "arguments"))[0] == _shape(extract(inverted, "arguments"))[0]
    scores = score_aspects(written, inverted, PENMAN)
    assert [scores["arguments"][k] for k in "gsc"] == [7, 7, 7]  # 4 instances, 3 ARG relations
    # boy is the argument of say-01 and of go-02 however it is written
    assert [scores["reentrancies"][k] for k in "gsc"] == [5, 5, 5]
    edges = [("boy", "ARG0-of", "go-02"), ("say-01", "ARG1", "boy")]
    assert _shape(extract(written, "reentrancies"))[1] == edges


def test_exact_counts_of_a_small_pair() -> None:
    scores = score_aspects(_graph(GOLD), _graph(SYSTEM), PENMAN)
    assert list(scores) == list(ASPECTS)
    for aspect, item in scores.items():
        assert (item["g"], item["s"], item["c"]) == COUNTS[aspect], aspect
        assert item["exact"] and item["bound"] == item["c"], aspect
        assert item["gold"] is True
        assert item["system"] is (COUNTS[aspect][1] > 0), aspect


def test_mrp_triples_agree_on_the_small_pair() -> None:
    penman = score_aspects(_graph(GOLD), _graph(SYSTEM), PENMAN)
    mrp = score_aspects(_graph(GOLD), _graph(SYSTEM), Options())
    for aspect in ASPECTS:
        assert [mrp[aspect][k] for k in "gsc"] == [penman[aspect][k] for k in "gsc"], aspect


def test_evaluate_output() -> None:
    result, details = evaluate("aspects", _pairing((_graph(GOLD), _graph(SYSTEM))), PENMAN)
    assert details == {}
    assert list(result) == ["n", "aspects", "time", "cpu"] + ACCOUNTING
    assert result["n"] == 1 and list(result["aspects"]) == list(ASPECTS)
    negation = result["aspects"]["negation"]
    assert negation == {"items": 1, "gold": 1, "system": 0, "g": 2, "s": 0, "c": 0, "p": 0.0, "r": 0.0,
                        "f": 0.0, "exact": 1, "bound": {"c": 0, "f": 0.0}}
    time = result["aspects"]["time"]
    assert (time["p"], time["r"], time["f"]) == (0.75, 0.75, 0.75)
    json.dumps(result)


def test_empty_in_both_counts_zero() -> None:
    plain = _graph("(s / sleep-01 :ARG0 (c / cat))")
    item = score_aspects(plain, plain, PENMAN)["cause"]
    assert (item["g"], item["s"], item["c"], item["gold"], item["system"]) == (0, 0, 0, False, False)
    result, _ = evaluate("aspects", _pairing((plain, plain), (plain, plain.empty_copy())), PENMAN)
    cause = result["aspects"]["cause"]
    assert cause == {"items": 0, "gold": 0, "system": 0, "g": 0, "s": 0, "c": 0, "p": 0.0, "r": 0.0,
                     "f": 0.0, "empty": True, "exact": 0, "bound": {"c": 0, "f": 0.0}}
    concepts = result["aspects"]["concepts"]
    assert (concepts["items"], concepts["gold"], concepts["system"]) == (2, 2, 1)
    assert (concepts["g"], concepts["s"], concepts["c"]) == (4, 2, 2)


def test_no_graphs_at_all() -> None:
    result, _ = evaluate("aspects", Pairing(), PENMAN)
    assert result["n"] == 0
    assert all(value["empty"] and value["f"] == 0.0 for value in result["aspects"].values())


def test_non_amr_graphs_have_no_aspects() -> None:
    nodes = [Node(0, "_go_v_1"), Node(1, "name", ["carg"], ["x"])]
    eds = Graph(id="1", framework="eds", tops=[0], nodes=nodes)
    assert all(not extract(eds, aspect).nodes for aspect in ASPECTS)
    result, _ = evaluate("aspects", _pairing((eds, eds)), Options())
    assert all(value["items"] == 0 and value.get("empty") for value in result["aspects"].values())


def test_swapping_gold_and_system_swaps_precision_and_recall() -> None:
    gold, system = _graph(GOLD), _graph(SYSTEM)
    ahead, _ = evaluate("aspects", _pairing((gold, system)), PENMAN)
    back, _ = evaluate("aspects", _pairing((system, gold)), PENMAN)
    for aspect in ASPECTS:
        a, b = ahead["aspects"][aspect], back["aspects"][aspect]
        assert (a["p"], a["r"], a["f"], a["c"]) == (b["r"], b["p"], b["f"], b["c"]), aspect
        assert (a["gold"], a["system"], a["items"]) == (b["system"], b["gold"], b["items"]), aspect


@pytest.mark.parametrize("options", [PENMAN, Options(), Options(penman=True, smatch_compat=True)])
def test_a_graph_against_itself_scores_one(options: Options) -> None:
    graphs = [_graph(GOLD, "1"), _graph(SYSTEM, "2")]
    result, _ = evaluate("aspects", _pairing(*((graph, graph) for graph in graphs)), options)
    for aspect, value in result["aspects"].items():
        assert value["items"] == value["gold"] == value["system"] > 0, aspect
        assert value["f"] == 1.0 and value["g"] == value["s"] == value["c"], aspect


def test_trace_and_limit() -> None:
    options = Options(penman=True, trace=True, limit=1)
    result, _ = evaluate("aspects", _pairing((_graph(GOLD, "7"), _graph(SYSTEM, "7"))), options)
    assert list(result) == ["n", "aspects", "scores", "time", "cpu"] + ACCOUNTING
    item = result["scores"]["amr"]["7"]
    assert list(item) == list(ASPECTS)
    for aspect, value in result["aspects"].items():
        assert value["bound"]["c"] >= value["c"] and value["exact"] <= value["items"], aspect
        assert list(item[aspect]) == ["g", "s", "c"]


# --------------------------------------------------------------------------- coli


@pytest.fixture(scope="module")
def coli() -> Tuple[Pairing, Dict[str, Any]]:
    shared = shared_path()
    gold = read_corpus(str(shared / "data/pairs/amr/coli.gold.amr"), "amr")
    system = read_corpus(str(shared / "data/pairs/amr/coli.system.amr"), "amr")
    pairing = pair(gold, system)
    assert len(pairing.pairs) == 1368 and not pairing.unpaired
    result, _ = evaluate("aspects", pairing, Options(penman=True, trace=True))
    return pairing, result


def test_coli_every_aspect(coli: Tuple[Pairing, Dict[str, Any]]) -> None:
    pairing, result = coli
    assert result["n"] == 1368
    json.dumps(result)
    lines = []
    for aspect in ASPECTS:
        value = result["aspects"][aspect]
        assert 0 <= value["c"] <= min(value["g"], value["s"]), aspect
        assert all(0.0 <= value[key] <= 1.0 for key in "prf"), aspect
        gold, system = value["gold"], value["system"]
        assert max(gold, system) <= value["items"] <= min(1368, gold + system), aspect
        assert value["exact"] == value["items"] and value["bound"]["c"] == value["c"], aspect
        lines.append(f"{aspect}: items {value['items']} "
                     f"p {value['p']:.4f} r {value['r']:.4f} f {value['f']:.4f}")
    for aspect in ("concepts", "arguments", "named-entities", "negation", "reentrancies"):
        assert result["aspects"][aspect]["items"] > 0 and not result["aspects"][aspect].get("empty"), aspect
    assert result["aspects"]["concepts"]["items"] == 1368
    print("\n".join(lines))


def test_coli_per_item_counts_add_up(coli: Tuple[Pairing, Dict[str, Any]]) -> None:
    _, result = coli
    items = result["scores"]["amr"]
    assert len(items) == 1368
    for aspect in ASPECTS:
        totals = [sum(item[aspect][key] for item in items.values()) for key in "gsc"]
        assert totals == [result["aspects"][aspect][key] for key in "gsc"], aspect
        assert all(item[aspect]["c"] <= min(item[aspect]["g"], item[aspect]["s"]) for item in items.values())


def _sense(label: str) -> bool:
    stem, _, sense = label.rpartition("-")
    return bool(stem) and sense.isdigit()


def _concepts(graph: Graph, frames: bool = False) -> Counter:
    return Counter(str(node.label).lower() for node in graph.nodes if not frames or _sense(str(node.label)))


@pytest.mark.parametrize("aspect", ["concepts", "frames"])
def test_coli_concepts_are_the_multiset_overlap(coli: Tuple[Pairing, Dict[str, Any]], aspect: str) -> None:
    """Concept sub-graphs have no relations, so the optimum is the overlap of the concept multisets."""
    pairing, result = coli
    frames = aspect == "frames"
    for p in pairing.pairs:
        gold, system = _concepts(p.gold, frames), _concepts(p.system, frames)
        counts = result["scores"]["amr"][p.gold.id][aspect]
        expected = {"g": sum(gold.values()), "s": sum(system.values()),
                                              "c": sum((gold & system).values())}
        assert counts == expected, p.gold.id
