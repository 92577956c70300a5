"""The MRP metric against the reference scorer's per-item output and the true optimum.

Per item: g and s equal the reference for every tuple type, ``all`` c is at
least the reference's (it is a bounded, surrogate search) and equals the
optimum proved by an independent integer program; every item is exact with
bound == c.  Items whose difference a documented rule explains are listed
with the reason.
"""

from __future__ import annotations

import json
from typing import Dict

import pytest

from mrp.codecs import ReadOptions
from mrp.corpora.load import read_corpus
from mrp.engine.options import Options
from mrp.engine.pairing import pair
from mrp.graph import Graph, Node
from mrp.metrics.mrp.pair import score_pair
from mrp.metrics.mrp.tuples import TYPES
from mrp.metrics.registry import evaluate

from conftest import shared_path

#: (reference output, optimum, gold, system, format, read options, first N pairs)
CASES = {
    "eds": ("eds.mrp.json", "eds.json", "data/wsj/eds/wsj.mrp", "data/pairs/eds/wsj.pet.mrp",
            "mrp", None, None),
    "ucca-small": ("ucca-small.mrp.json", "ucca-small.json", "data/pairs/ucca/small.gold.mrp",
                   "data/pairs/ucca/small.tupa.mrp", "mrp", None, None),
    "ucca-test": ("ucca-test.mrp.json", "ucca-test.json", "data/pairs/ucca/test.gold.mrp",
                  "data/pairs/ucca/test.tupa.mrp", "mrp", None, None),
    "partial": ("partial.mrp.json", "partial.json", "data/pairs/amr/partial.gold.mrp",
                "data/pairs/amr/partial.system.mrp", "mrp", None, None),
    "psd": ("psd107480.mrp.json", "psd.json", "data/pairs/psd/107480.gold.mrp",
            "data/pairs/psd/107480.foxik.mrp", "mrp", None, None),
    "amrtest": ("amrtest.mrp.json", "amrtest.json", "data/pairs/amr/test1.amr", "data/pairs/amr/test2.amr",
                "amr", ReadOptions(no_wiki=True), None),
    "coli": ("coli.mrp.json", "coli.json", "data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr",
             "amr", ReadOptions(no_wiki=True), 500),
}

#: Items where a documented rule, not the search, makes our counts differ from the reference.
KNOWN: Dict[str, Dict[str, str]] = {
    "ucca-test": {
        "20003013": "the system graph has node id 23 twice; we reject it as invalid (scored as an "
                    "empty graph, counted in 'invalid'), the reference reads it",
    },
}


def _run(name: str):
    shared = shared_path()
    ref_file, opt_file, gold_file, sys_file, fmt, options, first = CASES[name]
    gold = read_corpus(str(shared / gold_file), fmt, options)
    system = read_corpus(str(shared / sys_file), fmt, options)
    if first is not None:
        gold.graphs = gold.graphs[:first]
        system.graphs = system.graphs[:first]
    result, _ = evaluate("mrp", pair(gold, system), Options(trace=True))
    reference = json.loads((shared / "reference" / "mtool" / ref_file).read_text())
    optimum = json.loads((shared / "reference" / "optimum" / opt_file).read_text())
    return result, reference, optimum


def _items(result) -> Dict[str, dict]:
    return {gid: item for framework in result["scores"].values() for gid, item in framework.items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_counts_match_reference_and_optimum(name: str) -> None:
    result, reference, optimum = _run(name)
    ours = _items(result)
    known = KNOWN.get(name, {})
    theirs = {gid: item for framework in reference["scores"].values() for gid, item in framework.items()}
    above = []
    for gid, ref in theirs.items():
        item = ours[gid]
        assert item["exact"] and item["bound"] == item["all"]["c"], gid
        if gid in known:
            continue
        for kind in TYPES:
            assert (item[kind]["g"], item[kind]["s"]) == (ref[kind]["g"], ref[kind]["s"]), (gid, kind)
        ref_c = sum(ref[kind]["c"] for kind in TYPES)
        assert item["all"]["c"] >= ref_c, gid
        if item["all"]["c"] > ref_c:
            above.append(gid)
    print(f"{name}: {len(above)} of {len(theirs)} items above the reference: {above}")
    assert set(ours) <= set(optimum)
    for gid, item in ours.items():
        if gid in known:
            continue
        best = optimum[gid]
        counts = (item["all"]["g"], item["all"]["s"], item["all"]["c"])
        assert counts == (best["g"], best["s"], best["c"]), gid
    assert result["exact"] == result["n"]
    assert result["bound"]["c"] == result["all"]["c"]
    if not known:
        assert result["n"] == reference["n"] and result["null"] == reference["null"]


def test_empty_gold_graphs_score_without_error() -> None:
    shared = shared_path()
    gold = read_corpus(str(shared / "data/pairs/dm/empty.gold.mrp"))
    system = read_corpus(str(shared / "data/pairs/dm/empty.peking.mrp"))
    result, _ = evaluate("mrp", pair(gold, system), Options(trace=True))
    assert result["n"] == 3 and result["exact"] == 3
    items = result["scores"]["dm"]
    assert items["22100001"]["all"]["g"] == 0 and items["22100001"]["all"]["s"] > 0
    assert items["22100003"]["all"]["s"] == 0 and items["22100003"]["null"] is True
    assert 0.0 <= result["all"]["f"] <= 1.0


def _last_value_wins(graph: Graph) -> Graph:
    """The reference AMR reader's rule: a repeated property name overwrites the earlier value."""
    copy = Graph(graph.id, graph.framework, input=graph.input, tops=list(graph.tops),
                 nodes=[], edges=list(graph.edges))
    for node in graph.nodes:
        values = dict(zip(node.properties, node.values))
        copy.nodes.append(Node(node.id, node.label, list(values), list(values.values()), node.anchors))
    return copy


def _repeats(graph: Graph) -> bool:
    return any(len(set(node.properties)) < len(node.properties) for node in graph.nodes)


def test_all_coli_pairs_are_exact_and_optimal() -> None:
    """All 1368 coli pairs: exact, and equal to the optimum except where the reference's
    reader drops repeated attributes (each such item is shown to match under its rule)."""
    shared = shared_path()
    options = ReadOptions(no_wiki=True)
    gold = read_corpus(str(shared / "data/pairs/amr/coli.gold.amr"), "amr", options)
    system = read_corpus(str(shared / "data/pairs/amr/coli.system.amr"), "amr", options)
    result = evaluate("mrp", pair(gold, system), Options(trace=True))[0]
    optimum = json.loads((shared / "reference/optimum/coli.json").read_text())
    ours = _items(result)
    assert result["n"] == 1368 and result["exact"] == 1368
    graphs = {g.id: (g, s) for g, s in zip(gold.graphs, system.graphs)}
    explained = []
    for gid, best in optimum.items():
        item = ours[gid]
        assert item["exact"] and item["bound"] == item["all"]["c"]
        expected = (best["g"], best["s"], best["c"])
        if (item["all"]["g"], item["all"]["s"], item["all"]["c"]) == expected:
            continue
        g, s = graphs[gid]
        assert _repeats(g) or _repeats(s), f"{gid}: differs from the optimum without a known reason"
        again = score_pair(_last_value_wins(g), _last_value_wins(s))
        assert again.exact and again.counts["all"] == expected, gid
        explained.append(gid)
    print(f"coli: {len(explained)} items differ from the optimum on the reference's tuples, all because "
          f"the reference keeps only the last of repeated attributes: {explained}")
    assert len(explained) <= 10
