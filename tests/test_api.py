"""The library: mrp.metrics gives mrp-score's numbers and signature for every metric, Scorer over batches
gives one call's, every accepted kind of input gives the same numbers, and bad input raises mrp.errors."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any, Dict, List

import penman
import pytest

import mrp
from mrp.errors import FormatError, InputError, MRPError, ScoreError

from conftest import run_cli, shared_file, timeless

#: metric -> (gold, system, extra mrp-score arguments): small shared inputs each metric can score
CASES: Dict[str, Any] = {
    "mrp": ("data/wsj/eds/wsj.mrp", "data/pairs/eds/wsj.pet.mrp", []),
    "smatch": ("data/pairs/amr/test1.amr", "data/pairs/amr/test2.amr", []),
    "edm": ("data/wsj/eds/wsj.mrp", "data/pairs/eds/wsj.pet.mrp", []),
    "sdp": ("data/pairs/psd/107480.gold.mrp", "data/pairs/psd/107480.foxik.mrp", []),
    "ucca": ("data/pairs/ucca/test.gold.mrp", "data/pairs/ucca/test.tupa.mrp", []),
    "aspects": ("data/pairs/amr/test1.amr", "data/pairs/amr/test2.amr", []),
    "sembleu": ("data/pairs/amr/test1.amr", "data/pairs/amr/test2.amr", []),
    "unlabeled": ("data/pairs/amr/test1.mrp", "data/pairs/amr/test2.mrp", []),
    "unlabeled-edges": ("data/pairs/ucca/test.gold.mrp", "data/pairs/ucca/test.tupa.mrp", []),
    "predications": ("data/pairs/psd/107480.gold.mrp", "data/pairs/psd/107480.foxik.mrp", []),
    "ancast": ("data/pairs/amr/test1.amr", "data/pairs/amr/test2.amr", []),
    "umatch": ("data/umr/czech-pdtc/pcedt-gold.umr", "data/umr/czech-pdtc/pcedt-conv.umr", []),
    "rematch": ("data/pairs/amr/test1.amr", "data/pairs/amr/test2.amr", []),
    "wlk": ("data/pairs/amr/test1.amr", "data/pairs/amr/test2.amr", []),
    "s2match": ("data/pairs/amr/test1.amr", "data/pairs/amr/test2.amr", []),
}


def test_every_registered_metric_has_a_case() -> None:
    from mrp.metrics.registry import METRICS

    assert set(CASES) == set(METRICS)


def _cli(metric: str, gold: Path, system: Path, *extra: str) -> Dict[str, Any]:
    run = run_cli("score", ["--score", metric, "--jobs", "1", *extra, "--gold", str(gold), str(system)])
    assert run.code == 0, run.err
    return timeless(json.loads(run.out))  # type: ignore[no-any-return]


@pytest.mark.parametrize("metric", sorted(CASES))
def test_every_metric_gives_mrp_scores_numbers_and_signature(metric: str) -> None:
    gold, system, extra = CASES[metric]
    gold, system = shared_file(gold), shared_file(system)
    expected = _cli(metric, gold, system, *extra)
    result = mrp.score(gold, system, metric=metric)
    assert timeless(result.to_dict()) == expected
    assert result.signature == expected["signature"]
    traced = mrp.score(str(gold), str(system), metric=metric)
    traced.trace = True
    assert timeless(traced.to_dict()) == _cli(metric, gold, system, "--trace", *extra)


def test_the_primary_figures_and_the_pairs() -> None:
    result = mrp.score(shared_file("data/wsj/eds/wsj.mrp"), shared_file("data/pairs/eds/wsj.pet.mrp"))
    document = result.to_dict()
    figures = document["all"]
    assert (result.p, result.r, result.f) == (figures["p"], figures["r"], figures["f"])
    assert len(result.pairs) == document["n"] == 89 and result.exact
    assert sum(pair.figures.c for pair in result.pairs if pair.figures) == document["all"]["c"]
    assert all(pair.bound == pair.figures.c for pair in result.pairs if pair.figures)


def test_the_figures_read_first_are_those_of_the_completed_document() -> None:
    """The document is completed (macro, signature, errors) when first read: reading .f and .pairs first
    changes nothing in it, and a repeated call (its plan kept) gives the same document."""
    gold, system = shared_file("data/wsj/eds/wsj.mrp"), shared_file("data/pairs/eds/wsj.pet.mrp")
    early = mrp.score(gold, system, errors=True)
    figures, pairs = early.figures, [(pair.id, pair.figures) for pair in early.pairs]
    late = mrp.score(gold, system, errors=True)
    document = late.to_dict()
    assert "macro" in document and "signature" in document and "errors" in document
    assert timeless(early.to_dict()) == timeless(document)
    assert list(early.to_dict()) == list(document)  # the same keys in the same order
    assert (figures, pairs) == (late.figures, [(pair.id, pair.figures) for pair in late.pairs])
    assert early.macro == document["macro"] and early.signature == document["signature"]
    import copy
    import pickle

    for fresh in (mrp.score(gold, system, errors=True), mrp.score(gold, system, errors=True)):
        for kept in (pickle.loads(pickle.dumps(fresh)), copy.deepcopy(fresh)):  # completed on the way
            assert timeless(kept.to_dict()) == timeless(document) and kept.f == late.f
    # other keyword arguments: plans of their own (the signature names the timeout)
    assert "timeout:5s" in mrp.score(gold, system, timeout=5).signature and "timeout:60s" in early.signature
    assert "timeout:60s" in mrp.score(gold, system, timeout=60.0).signature


@pytest.mark.parametrize("metric", sorted(CASES))
def test_every_metric_gives_its_own_figure_never_a_zero_in_its_place(metric: str) -> None:
    """.f is the metric's figure: its primary F, SemBLEU's score, AnCast's LRM F; a metric without a
    single figure (aspects) refuses .f and gives NaN per pair, never a 0.0 that looks like a result."""
    gold, system, _ = CASES[metric]
    result = mrp.score(shared_file(gold), shared_file(system), metric=metric)
    document = result.to_dict()
    items = [item for by_id in document["scores"].values() for item in by_id.values()] \
        if "scores" in document else [pair.item for pair in result.pairs]
    if metric == "aspects":
        with pytest.raises(ScoreError, match="no single figure"):
            _ = result.f
        assert all(math.isnan(pair.f) and pair.figures is None for pair in result.pairs)
        return
    path = {"sembleu": ("sembleu",), "ancast": ("lrm",)}.get(metric)
    if path is None:
        return  # the counting metrics: test_the_primary_figures_and_the_pairs
    node: Any = document
    for step in path:
        node = node[step]
    assert result.f == (node if metric == "sembleu" else node["f"]) and result.f > 0
    assert [pair.f for pair in result.pairs] == [
        item[path[0]] if metric == "sembleu" else item[path[0]]["f"] for item in items]
    assert all(math.isnan(pair.figures.c) for pair in result.pairs if pair.figures)


def _penman_blocks(path: Path) -> List[str]:
    text = path.read_text(encoding="utf-8")
    return [block.strip() for block in text.split("\n\n") if block.strip()]


def test_every_kind_of_input_gives_the_same_numbers() -> None:
    gold_path, system_path = shared_file("data/pairs/amr/test1.amr"), shared_file("data/pairs/amr/test2.amr")
    expected = timeless(mrp.score(gold_path, system_path, metric="smatch").to_dict())
    gold_blocks, system_blocks = _penman_blocks(gold_path), _penman_blocks(system_path)
    kinds = {
        "str path": (str(gold_path), str(system_path)),
        "text": (gold_path.read_text(encoding="utf-8"), system_path.read_text(encoding="utf-8")),
        "penman strings": (gold_blocks, system_blocks),
        "penman graphs": ([penman.decode(b) for b in gold_blocks], [penman.decode(b) for b in system_blocks]),
        "mrp graphs": (mrp.read(gold_path), mrp.read(system_path)),
    }
    for kind, (gold, system) in kinds.items():
        assert timeless(mrp.score(gold, system, metric="smatch").to_dict()) == expected, kind


def test_mrp_json_strings_dicts_and_graphs_agree() -> None:
    gold_path, system_path = shared_file("data/wsj/eds/wsj.mrp"), shared_file("data/pairs/eds/wsj.pet.mrp")
    expected = timeless(mrp.score(gold_path, system_path).to_dict())
    lines = [[line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
             for path in (gold_path, system_path)]
    dicts = [[json.loads(x) for x in side] for side in lines]
    graphs = [mrp.read(gold_path), mrp.read(system_path)]
    for gold, system in ((lines[0], lines[1]), (dicts[0], dicts[1]), (graphs[0], graphs[1])):
        assert timeless(mrp.score(gold, system).to_dict()) == expected


@pytest.mark.parametrize("metric", ["smatch", "mrp", "sembleu", "ancast"])
def test_a_scorer_over_random_batches_equals_one_call(metric: str) -> None:
    gold = _penman_blocks(shared_file("data/pairs/amr/coli.gold.amr"))[:60]
    system = _penman_blocks(shared_file("data/pairs/amr/coli.system.amr"))[:60]
    whole = timeless(mrp.score(gold, system, metric=metric).to_dict())
    rng = random.Random(7)
    for _ in range(3):
        cuts = sorted(rng.sample(range(1, 60), 4))
        scorer = mrp.Scorer(metric)
        for start, end in zip([0, *cuts], [*cuts, 60]):
            scorer.update(gold[start:end], system[start:end])
        assert timeless(scorer.compute().to_dict()) == whole, cuts


def test_bad_input_raises_the_documented_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.amr"
    bad.write_text("# ::id one\n(a / alpha)\n\n# ::id two\n(b / beta :ARG0 (c / gamma\n\n", encoding="utf-8")
    with pytest.raises(FormatError) as raised:
        mrp.read(bad, strict=True)
    assert raised.value.file and raised.value.line and raised.value.graph_id == "two"
    assert str(raised.value).startswith(f"{raised.value.file}:{raised.value.line}: graph two")
    with pytest.raises(InputError):
        mrp.read(tmp_path / "missing.amr")
    with pytest.raises(ScoreError, match="invalid gold graph"):
        mrp.score("{\"id\": \"1\", \"nodes\": [{\"id\": 0}, {\"id\": 0}]}", "{\"id\": \"1\", \"nodes\": []}")
    with pytest.raises(MRPError, match="unknown metric"):
        mrp.score(["(a / b)"], ["(a / b)"], metric="nonsense")
    with pytest.raises(TypeError, match="nonsense_option"):
        mrp.score(["(a / b)"], ["(a / b)"], nonsense_option=1)


def test_the_library_never_prints(capfd: pytest.CaptureFixture[str]) -> None:
    result = mrp.score(["(a / alpha :ARG0 (b / beta))"], ["(a / alpha :ARG1 (b / beta))"], metric="smatch")
    assert 0 < result.f < 1
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_read_and_write_round_trip(tmp_path: Path) -> None:
    graphs = mrp.read(shared_file("data/pairs/amr/test1.amr"))
    mrp.write(graphs, tmp_path / "out.mrp")
    again = mrp.read(tmp_path / "out.mrp")
    assert [g.id for g in again] == [g.id for g in graphs]
    assert mrp.write(graphs) == (tmp_path / "out.mrp").read_text(encoding="utf-8")
