"""AnCast on UMR (sentence and document scope) against AnCast 0.1.1 / AnCast++ (../shared/reference/ancast).

* sentence scope: every pair of the four Czech PDT-C runs and of AnCast's UMR
  samples gives AnCast's alignment and every value to 1e-6;
* document scope: ``evaluate`` with ``ancast_compat`` on the raw files (our
  codec reads the multi-span alignments AnCast++ crashes on) gives every pair
  and every document of the ``docsplit`` runs (AnCast++ run on each document
  alone) and their mean;
* the default (exact) mode proves every pair optimal and never has a lower
  LRM than AnCast's alignment;
* closures and the document ids, on hand-made relations.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

import pytest

from mrp.codecs.umr import read_documents
from mrp.corpora.load import Corpus
from mrp.engine.options import Options
from mrp.engine.pairing import pair as make_pairing
from mrp.graph import Graph
from mrp.metrics.ancast.closure import clusters, coref_steps, overlap, temporal_steps
from mrp.metrics.ancast.compat import align
from mrp.metrics.ancast.documents import SentencePair, score_document
from mrp.metrics.ancast.exact import solve
from mrp.metrics.ancast.pair import views
from mrp.metrics.ancast.reading import anchor_text, view
from mrp.metrics.ancast.scores import Sums, report, score
from mrp.metrics.ancast.similarity import Similarity
from mrp.metrics.registry import evaluate

from conftest import shared_file

TOLERANCE = 1e-6
CZECH = ("pdt", "pdtsc", "pcedt", "dtest")
FIELDS = [(key, side, key + suffix) for key in ("concept", "lrm", "ulrm", "wlrm", "smatch")
          for side, suffix in (("p", "_p"), ("r", "_r"), ("f", ""))]


def _records(*parts: str) -> List[Dict[str, Any]]:
    with shared_file("reference", "ancast", *parts).open(encoding="utf-8") as stream:
        return [json.loads(line) for line in stream]


def _sentences(*parts: str) -> List[Graph]:
    return [graph for document in read_documents(str(shared_file(*parts))) for graph in document.graphs]


def _files(run: str) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    if run == "samples":
        folder = ("data", "umr", "ancast-samples")
        return folder + ("umr_test.txt",), folder + ("umr_gold.txt",)
    folder = ("data", "umr", "czech-pdtc")
    return folder + (f"{run}-conv.umr",), folder + (f"{run}-gold.umr",)


def _reference_run(run: str, scope: str) -> Tuple[str, ...]:
    if run == "samples":
        return ("samples", f"umr.{scope}")
    return ("czech-pdtc", f"{run}.{'snt' if scope == 'snt' else 'docsplit'}")


def _compare(found: Dict[str, Dict[str, float]], record: Dict[str, Any], where: str) -> List[str]:
    return [f"{where} {field}: {found[key][side]} != {record[field]}" for key, side, field in FIELDS
            if abs(found[key][side] - record[field]) > TOLERANCE]


@pytest.mark.parametrize("run", CZECH + ("samples",))
def test_sentence_scope(run: str) -> None:
    test_file, gold_file = _files(run)
    system, gold = _sentences(*test_file), _sentences(*gold_file)
    *folder, name = _reference_run(run, "snt")
    records = _records(*folder, name + ".pairs.jsonl")
    assert len(records) == len(system) == len(gold)
    problems: List[str] = []
    for record in records:
        k = record["pair"]
        test = view(system[k], True, True, anchor_text(system[k], "snt"))
        gold_view = view(gold[k], True, True, anchor_text(gold[k], "snt"))
        sim = Similarity(test, gold_view)
        alignment = align(test, gold_view, sim)
        problems += _compare(report(*score(test, gold_view, sim, alignment, True), True), record, f"pair {k}")
        mapping = {test.variables[i]: (gold_view.variables[j] if j >= 0 else None)
                   for i, j in enumerate(alignment.t2g)}
        if mapping != record["map_t2g"]:
            problems.append(f"pair {k}: alignment differs")
    assert not problems, problems[:5]


def _pairing(run: str) -> Any:
    test_file, gold_file = _files(run)
    return make_pairing(Corpus("gold", "umr", _sentences(*gold_file)),
                        Corpus("system", "umr", _sentences(*test_file)))


@pytest.mark.parametrize("run", CZECH + ("samples",))
def test_document_scope(run: str) -> None:
    result, _ = evaluate("ancast", _pairing(run), Options(ancast_compat=True, trace=True))
    *folder, name = _reference_run(run, "doc")
    records = _records(*folder, name + ".pairs.jsonl")
    documents = _records(*folder, name + ".docs.jsonl")
    items = list(result["scores"]["umr"].values())
    assert len(items) == len(records)
    problems: List[str] = []
    for item, record in zip(items, records):
        problems += _compare(item, record, f"doc {record.get('doc')} pair {record['pair']}")
    found = list(result["documents"]["scores"].values())
    assert len(found) == len(documents)
    names = {"sent": "lrm", "modal": "modal", "temporal": "temporal", "coref": "coref",
             "comp": "comprehensive"}
    for mine, theirs in zip(found, documents):
        for key, ours in names.items():
            for side in "prf":
                if abs(mine[ours][side] - theirs[key][side]) > TOLERANCE:
                    problems.append(f"doc {theirs['doc']} {key} {side}: {mine[ours][side]} "
                                    f"!= {theirs[key][side]}")
    assert not problems, problems[:5]
    if len(documents) > 1:
        summary = json.loads(shared_file("reference", "ancast", *folder, name + ".summary.json").read_text())
        for key, ours in names.items():
            assert result["documents"]["macro"][ours] == pytest.approx(summary["cli_return"][key], abs=1e-9)


@pytest.mark.parametrize("run", CZECH + ("samples",))
def test_exact_beats_compat(run: str) -> None:
    pairing = _pairing(run)
    for pair in pairing.pairs:
        test, gold = views(pair.gold, pair.system, True)
        sim = Similarity(test, gold)
        heuristic = score(test, gold, sim, align(test, gold, sim), True)[0].lr
        found = solve(test, gold, sim)
        assert found.exact, pair.gold.id
        assert found.lr >= heuristic - 1e-9, pair.gold.id
    result, _ = evaluate("ancast", pairing, Options())
    assert result["exact"] == len(pairing.pairs)
    assert set(result["documents"]) >= {"lrm", "modal", "temporal", "coref", "comprehensive", "macro"}


# ------------------------------------------------------------------ hand-made document relations


def test_temporal_closure_is_transitive() -> None:
    """a after b, b after c: the closure holds (a, c) too; a test with only a after c finds it."""
    gold = temporal_steps({(0, 1): "after", (1, 2): "after"})
    test = temporal_steps({(0, 2): "after"})
    found, everything = clusters(gold)
    assert (0, 2, "r") in everything and len(found) == 1
    score_t, count_t, score_g, count_g = overlap(test, gold)
    assert (score_t, count_t) == (2.0, 2.0)  # the test's one fact is in the gold closure
    assert count_g == 3.0 and score_g == pytest.approx(3 * 1 / 3)


def test_contains_is_not_read_and_same_event_goes_one_way() -> None:
    assert temporal_steps({(0, 1): "contains"}) == {}
    assert coref_steps({(0, 1): "same-event"}) == {1: [(0, "sv"), (0, "sv")]}


def test_document_ids_compat_and_resolved() -> None:
    """An earlier sentence's variable: by name under compat, through its own alignment by default."""
    empty = Sums()
    first = SentencePair([("coref", "s1a", "same-entity", "s1b")], [("coref", "s1x", "same-entity", "s1y")],
                         {"s1a": "s1x", "s1b": "s1y"}, {"s1x": "s1a", "s1y": "s1b"}, empty, empty)
    second = SentencePair([("modal", "author", "full-affirmative", "s1a")],
                          [("modal", "author", "full-affirmative", "s1x")], {}, {}, empty, empty)
    for compat in (True, False):
        precision, recall = score_document([first, second], compat)
        assert precision.kinds["coref"][0] == precision.kinds["coref"][1] == 2
        assert precision.kinds["modal"] == [1, 1]
    alone = SentencePair([("modal", "author", "full-affirmative", "s1a")],
                         [("modal", "author", "full-affirmative", "s1x")], {}, {}, empty, empty)
    mapped = SentencePair([], [], {"s1a": "s1x"}, {"s1x": "s1a"}, empty, empty)
    assert score_document([mapped, alone], False)[0].kinds["modal"] == [1, 1]
    assert score_document([mapped, alone], True)[0].kinds["modal"] == [0, 1]  # s1a is not s1x by name


@pytest.mark.parametrize("name", ["english_umr-0001", "english_umr-0003", "english_umr-0004"])
def test_release_file_against_itself(name: str) -> None:
    """The UMR 3.0 release files scored against themselves: AnCast's per-pair 100s, and 100 everywhere."""
    graphs = _sentences("data", "umr", "english", f"{name}.umr")
    records = _records("english-self", f"{name}.snt.pairs.jsonl")
    pairing = make_pairing(Corpus("gold", "umr", graphs), Corpus("system", "umr", graphs))
    for compat in (True, False):
        result, _ = evaluate("ancast", pairing, Options(ancast_compat=compat, trace=True))
        items = list(result["scores"]["umr"].values())
        assert len(items) == len(records) == len(graphs)
        for item, record in zip(items, records):
            assert not _compare(item, record, record["pair"])
        for key in ("lrm", "modal", "temporal", "coref", "comprehensive"):
            assert result["documents"][key]["f"] == pytest.approx(1.0)
