"""Per-item statistics: counts by path, micro and macro averages, bootstrap intervals, paired tests."""

from __future__ import annotations

import copy
import json
from typing import Any, Dict, Iterator, List, Sequence, Tuple

import numpy as np
import pytest

from mrp.corpora.load import read_corpus
from mrp.engine.options import Options
from mrp.engine.pairing import pair
from mrp.metrics.registry import evaluate
from mrp.report.stats import (
    annotate,
    bootstrap,
    item_counts,
    item_keys,
    macro,
    micro,
    pair_counts,
    paired_test,
)

from conftest import ROOT, cpu_seconds

METRICS = ("mrp", "smatch", "edm", "sdp", "ucca")
PATHS = {
    "mrp": [("tops",), ("labels",), ("properties",), ("anchors",), ("edges",), ("attributes",), ("all",)],
    "smatch": [()],
    "edm": [("names",), ("arguments",), ("tops",), ("properties",), ("all",)],
    "sdp": [("labeled",), ("unlabeled",)],
    "ucca": [("labeled", "primary"), ("labeled", "remote"), ("unlabeled", "primary"),
             ("unlabeled", "remote")],
}


@pytest.fixture(scope="module")
def demo() -> Dict[str, Dict[str, Any]]:
    """The traced result of every metric on data/demo/system.mrp against data/demo/gold.mrp."""
    gold = read_corpus(str(ROOT / "data/demo/gold.mrp"))
    system = read_corpus(str(ROOT / "data/demo/system.mrp"))
    pairing = pair(gold, system)
    return {name: evaluate(name, pairing, Options(trace=True))[0] for name in METRICS}


def _prf(g: int, s: int, c: int) -> Dict[str, Any]:
    p = c / s if s else 0.0
    r = c / g if g else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"g": g, "s": s, "c": c, "p": p, "r": r, "f": f}


def _smatch(rows: Sequence[Tuple[int, int, int]], framework: str = "amr") -> Dict[str, Any]:
    """A SMATCH-shaped traced result with the given per-item (g, s, c)."""
    total = [sum(row[k] for row in rows) for k in range(3)]
    result: Dict[str, Any] = {"n": len(rows), **_prf(*total)}
    result["scores"] = {framework: {str(k): {"g": g, "s": s, "c": c, "exact": True}
                                    for k, (g, s, c) in enumerate(rows)}}
    return result


def _synthetic(items: int, seed: int, quality: float = 0.7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    g = rng.integers(1, 40, items)
    s = np.maximum(0, g + rng.integers(-5, 6, items))
    c = np.minimum(np.minimum(g, s), rng.binomial(g, quality))
    return np.stack([g, s, c], axis=1).astype(np.int64)


def _numbers(node: Any) -> Iterator[float]:
    if isinstance(node, dict):
        for value in node.values():
            yield from _numbers(value)
    elif isinstance(node, list):
        for value in node:
            yield from _numbers(value)
    elif isinstance(node, float):
        yield node


def _at(node: Any, path: Sequence[str]) -> Any:
    for key in path:
        node = node[key]
    return node


# --- item_counts -------------------------------------------------------------------------------------


@pytest.mark.parametrize("metric", METRICS)
def test_item_counts_finds_every_path_and_sums_to_the_totals(demo: Dict[str, Dict[str, Any]],
                                                              metric: str) -> None:
    result = demo[metric]
    counts = item_counts(result)
    assert list(counts) == PATHS[metric]
    keys = item_keys(result)
    assert len(keys) == result["n"] == 7
    assert keys[0] == ("amr", "demo-1")
    for path, array in counts.items():
        assert array.dtype == np.int64 and array.shape == (7, 3)
        total = _at(result, path)
        assert array.sum(axis=0).tolist() == [total["g"], total["s"], total["c"]]
        assert micro(array) == (total["p"], total["r"], total["f"])


def test_item_counts_rows_follow_the_items(demo: Dict[str, Dict[str, Any]]) -> None:
    result = demo["ucca"]
    counts = item_counts(result)[("labeled", "primary")]
    for row, (framework, gid) in zip(counts.tolist(), item_keys(result)):
        item = result["scores"][framework][gid]["labeled"]["primary"]
        assert row == [item["g"], item["s"], item["c"]]


def test_edm_all_is_the_per_item_sum_of_its_parts(demo: Dict[str, Dict[str, Any]]) -> None:
    result = demo["edm"]
    assert all("all" not in item for items in result["scores"].values() for item in items.values())
    counts = item_counts(result)
    parts = sum(counts[(name,)] for name in ("names", "arguments", "tops", "properties"))
    assert np.array_equal(counts[("all",)], parts)
    amr = result["scores"]["amr"]["demo-2"]
    assert counts[("all",)][1].tolist() == [sum(amr[name][k] for name in amr) for k in "gsc"]


def test_a_total_that_is_not_the_sum_of_its_parts_is_left_out() -> None:
    result: Dict[str, Any] = {
        "n": 2, "names": _prf(3, 3, 2), "tops": _prf(2, 2, 1), "all": _prf(6, 5, 3),
        "scores": {"eds": {"1": {"names": {"g": 2, "s": 2, "c": 1}, "tops": {"g": 1, "s": 1, "c": 1}},
                           "2": {"names": {"g": 1, "s": 1, "c": 1}, "tops": {"g": 1, "s": 1, "c": 0}}}},
    }
    assert list(item_counts(result)) == [("names",), ("tops",)]
    result["all"] = _prf(5, 5, 3)
    counts = item_counts(result)
    assert counts[("all",)].tolist() == [[3, 3, 2], [2, 2, 1]]


def test_item_counts_rejects_results_without_scores_and_items_without_counts() -> None:
    with pytest.raises(ValueError, match="scores"):
        item_counts({"n": 1, **_prf(1, 1, 1)})
    broken = _smatch([(3, 3, 2), (2, 2, 2)])
    del broken["scores"]["amr"]["1"]["c"]
    with pytest.raises(ValueError, match="amr/1"):
        item_counts(broken)
    empty = _smatch([])
    assert item_counts(empty)[()].shape == (0, 3)


# --- micro and macro ---------------------------------------------------------------------------------


TWO = np.array([[10, 5, 5], [2, 4, 1]], dtype=np.int64)


def test_micro_and_macro_by_hand() -> None:
    # item 1: P = 5/5 = 1, R = 5/10 = 1/2, F = 2/3; item 2: P = 1/4, R = 1/2, F = 1/3
    # micro: g = 12, s = 9, c = 6: P = 2/3, R = 1/2, F = 2 (1/3) / (7/6) = 4/7
    assert micro(TWO) == pytest.approx((2 / 3, 1 / 2, 4 / 7))
    assert macro(TWO) == pytest.approx((5 / 8, 1 / 2, 1 / 2, 2))


def test_macro_leaves_out_items_with_nothing_to_count() -> None:
    padded = np.vstack([TWO, [[0, 0, 0]], TWO[:0], [[0, 0, 0]]])
    assert macro(padded) == macro(TWO)
    assert macro(padded)[3] == 2
    assert micro(padded) == micro(TWO)
    # a gold graph the system missed (s = 0) counts, as P = R = F = 0
    missed = np.vstack([TWO, [[4, 0, 0]]])
    assert macro(missed) == pytest.approx((5 / 12, 1 / 3, 1 / 3, 3))
    assert macro(np.zeros((3, 3), dtype=np.int64)) == (0.0, 0.0, 0.0, 0)
    assert macro(np.zeros((0, 3), dtype=np.int64)) == (0.0, 0.0, 0.0, 0)
    assert micro(np.zeros((0, 3), dtype=np.int64)) == (0.0, 0.0, 0.0)


def test_counts_must_be_triples() -> None:
    with pytest.raises(ValueError, match="shape"):
        micro(np.zeros((3, 2), dtype=np.int64))


# --- bootstrap ---------------------------------------------------------------------------------------


def _point(counts: np.ndarray) -> Dict[str, Dict[str, float]]:
    p, r, f = micro(counts)
    mp, mr, mf, _ = macro(counts)
    return {"micro": {"p": p, "r": r, "f": f}, "macro": {"p": mp, "r": mr, "f": mf}}


@pytest.mark.parametrize("metric", METRICS)
def test_intervals_contain_the_point_estimates_on_the_demo(demo: Dict[str, Dict[str, Any]],
                                                           metric: str) -> None:
    counts = item_counts(demo[metric])
    intervals = bootstrap(counts, 1000, 1)
    assert list(intervals) == list(counts)
    for path, array in counts.items():
        point = _point(array)
        for kind in ("micro", "macro"):
            for name in "prf":
                lo, hi = intervals[path][kind][name]
                assert 0.0 <= lo <= point[kind][name] <= hi <= 1.0, (path, kind, name)


def test_intervals_contain_the_point_estimates_on_a_larger_corpus() -> None:
    counts = {("all",): _synthetic(300, 3), ("edges",): _synthetic(300, 4, 0.4)}
    for seed in range(5):
        for path, value in bootstrap(counts, 500, seed).items():
            point = _point(counts[path])
            for kind in ("micro", "macro"):
                for name in "prf":
                    lo, hi = value[kind][name]
                    assert lo < point[kind][name] < hi


def test_intervals_narrow_as_the_corpus_grows() -> None:
    small = _synthetic(60, 5)
    large = np.tile(small, (16, 1))
    assert micro(small) == micro(large) and macro(small)[:3] == pytest.approx(macro(large)[:3])
    narrow = bootstrap({(): large}, 1000, 0)[()]
    wide = bootstrap({(): small}, 1000, 0)[()]
    for kind in ("micro", "macro"):
        for name in "prf":
            width_small = wide[kind][name][1] - wide[kind][name][0]
            width_large = narrow[kind][name][1] - narrow[kind][name][0]
            # the standard error shrinks with the square root of the corpus size: about 1/4
            assert 0.15 * width_small < width_large < 0.4 * width_small, (kind, name)


def test_bootstrap_is_reproducible_and_depends_on_the_seed(demo: Dict[str, Dict[str, Any]]) -> None:
    counts = item_counts(demo["mrp"])
    first = bootstrap(counts, 200, 7)
    assert first == bootstrap(counts, 200, 7)
    assert first != bootstrap(counts, 200, 8)
    assert repr(first) == repr(bootstrap(copy.deepcopy(counts), 200, 7))


def test_one_resampling_serves_every_path() -> None:
    # two paths with the same counts get the same intervals: the items are drawn once per replicate
    array = _synthetic(50, 6)
    intervals = bootstrap({("a",): array, ("b",): array.copy()}, 300, 2)
    assert intervals[("a",)] == intervals[("b",)]
    assert intervals[("a",)] == bootstrap({("x",): array}, 300, 2)[("x",)]


def test_swapping_gold_and_system_swaps_precision_and_recall(demo: Dict[str, Dict[str, Any]]) -> None:
    counts: Dict[Tuple[str, ...], np.ndarray] = dict(item_counts(demo["mrp"]))
    counts[("synthetic",)] = _synthetic(7, 8)
    swapped = {path: array[:, [1, 0, 2]] for path, array in counts.items()}
    intervals, mirrored = bootstrap(counts, 500, 3), bootstrap(swapped, 500, 3)
    for path, array in counts.items():
        p, r, f = micro(array)
        assert micro(swapped[path]) == (r, p, f)
        mp, mr, mf, items = macro(array)
        assert macro(swapped[path]) == (mr, mp, mf, items)
        for kind in ("micro", "macro"):
            assert mirrored[path][kind]["p"] == intervals[path][kind]["r"]
            assert mirrored[path][kind]["r"] == intervals[path][kind]["p"]
            assert mirrored[path][kind]["f"] == intervals[path][kind]["f"]


def test_no_score_exceeds_one(demo: Dict[str, Dict[str, Any]]) -> None:
    for metric in METRICS:
        result = copy.deepcopy(demo[metric])
        annotate(result, 300, 0)
        values = list(_numbers(result["macro"])) + list(_numbers(result["ci"]))
        assert values and all(0.0 <= value <= 1.0 for value in values), metric


def test_bootstrap_rejects_bad_arguments() -> None:
    array = _synthetic(10, 9)
    with pytest.raises(ValueError, match="at least 1"):
        bootstrap({(): array}, 0, 0)
    with pytest.raises(ValueError, match="level"):
        bootstrap({(): array}, 10, 0, level=1.0)
    with pytest.raises(ValueError, match="same items"):
        bootstrap({("a",): array, ("b",): array[:5]}, 10, 0)
    assert bootstrap({}, 10, 0) == {}
    empty = bootstrap({(): np.zeros((0, 3), dtype=np.int64)}, 10, 0)[()]
    assert empty["micro"]["f"] == [0.0, 0.0] and empty["macro"]["p"] == [0.0, 0.0]


def test_bootstrap_level_widens_the_interval() -> None:
    array = _synthetic(100, 10)
    ninety = bootstrap({(): array}, 1000, 0, level=0.9)[()]["micro"]["f"]
    ninety_nine = bootstrap({(): array}, 1000, 0, level=0.99)[()]["micro"]["f"]
    assert ninety_nine[0] < ninety[0] < ninety[1] < ninety_nine[1]


def test_bootstrap_is_fast() -> None:
    counts = {(name,): _synthetic(1368, k) for k, name in enumerate(("tops", "labels", "properties",
                                                                      "anchors", "edges", "all"))}
    bootstrap(counts, 10, 0)
    elapsed = []  # CPU seconds (the machine's load does not stretch them): 1,000 resamples vectorized
    for _ in range(3):
        start = cpu_seconds()
        bootstrap(counts, 1000, 0)
        elapsed.append(cpu_seconds() - start)
    assert min(elapsed) < 0.5, elapsed


# --- paired tests ------------------------------------------------------------------------------------


METHODS = ("bootstrap", "randomization")


@pytest.mark.parametrize("method", METHODS)
def test_identical_systems_are_not_different(method: str) -> None:
    a = _synthetic(200, 11)
    assert paired_test(a, a.copy(), 1000, 0, method) == 1.0


@pytest.mark.parametrize("method", METHODS)
def test_a_clearly_better_system_is_significantly_better(method: str) -> None:
    a = _synthetic(200, 12, quality=0.8)
    rng = np.random.default_rng(13)
    worse = a.copy()
    worse[:, 2] = np.maximum(0, a[:, 2] - rng.integers(0, 3, len(a)))
    p = paired_test(a, worse, 1000, 0, method)
    assert p < 0.05
    assert p == paired_test(worse, a, 1000, 0, method)  # two-sided
    assert p >= 1 / 1001


@pytest.mark.parametrize("method", METHODS)
def test_a_difference_on_few_items_is_not_significant(method: str) -> None:
    a = _synthetic(200, 14)
    b = a.copy()
    b[:3, 2] = np.maximum(0, b[:3, 2] - 1)
    b[3:5, 2] = np.minimum(b[3:5, :2].min(axis=1), b[3:5, 2] + 1)
    assert paired_test(a, b, 1000, 0, method) > 0.2


@pytest.mark.parametrize("method", METHODS)
def test_paired_test_is_reproducible(method: str) -> None:
    a = _synthetic(100, 15)
    b = a.copy()
    b[:6, 2] = np.maximum(0, b[:6, 2] - 1)
    room = np.flatnonzero(b[:, 2] < b[:, :2].min(axis=1))[-4:]
    b[room, 2] += 1
    first = paired_test(a, b, 500, 4, method)
    assert 0.01 < first < 1.0
    assert first == paired_test(a, b, 500, 4, method)
    assert first != paired_test(a, b, 500, 5, method)


def test_paired_test_rejects_bad_arguments() -> None:
    a = _synthetic(10, 17)
    with pytest.raises(ValueError, match="same items"):
        paired_test(a, a[:5], 100, 0)
    with pytest.raises(ValueError, match="method"):
        paired_test(a, a, 100, 0, "permutation")
    with pytest.raises(ValueError, match="at least 1"):
        paired_test(a, a, 0, 0)
    empty = np.zeros((0, 3), dtype=np.int64)
    assert paired_test(empty, empty, 100, 0) == 1.0


def test_pair_counts_aligns_items_by_framework_and_id() -> None:
    first = _smatch([(3, 3, 2), (4, 4, 4), (5, 5, 1)])
    second = _smatch([(3, 3, 3), (4, 4, 0)])
    second["scores"]["amr"] = dict(reversed(list(second["scores"]["amr"].items())))
    second["scores"]["eds"] = {"2": {"g": 9, "s": 9, "c": 9}}
    keys, (a, b) = pair_counts([first, second], ())
    assert keys == [("amr", "0"), ("amr", "1")]
    assert a.tolist() == [[3, 3, 2], [4, 4, 4]]
    assert b.tolist() == [[3, 3, 3], [4, 4, 0]]
    with pytest.raises(ValueError, match="no counts"):
        pair_counts([first], ("all",))


# --- annotate ----------------------------------------------------------------------------------------


def test_annotate_mrp_mirrors_the_result(demo: Dict[str, Dict[str, Any]]) -> None:
    result = copy.deepcopy(demo["mrp"])
    annotate(result, None, 0)
    assert "ci" not in result and "bootstrap" not in result
    assert "scores" in result
    assert list(result["macro"]) == ["tops", "labels", "properties", "anchors", "edges", "attributes", "all"]
    assert result["macro"]["properties"]["items"] == 3  # four items have no properties in either graph
    assert set(result["macro"]["all"]) == {"p", "r", "f", "items"}
    annotate(result, 100, 5)
    assert result["bootstrap"] == {"n": 100, "seed": 5, "level": 0.95}
    assert set(result["ci"]["all"]) == {"micro", "macro"}
    assert set(result["ci"]["all"]["micro"]) == {"p", "r", "f"}
    assert len(result["ci"]["all"]["macro"]["f"]) == 2
    again = copy.deepcopy(result)
    annotate(again, 100, 5)  # annotating twice changes nothing: what it adds is not counted
    assert again == result
    json.dumps(result)


def test_annotate_smatch_and_ucca(demo: Dict[str, Dict[str, Any]]) -> None:
    smatch = copy.deepcopy(demo["smatch"])
    annotate(smatch, 50, 0)
    assert set(smatch["macro"]) == {"p", "r", "f", "items"}
    assert set(smatch["ci"]) == {"micro", "macro"}
    assert smatch["g"] == demo["smatch"]["g"] and smatch["scores"] == demo["smatch"]["scores"]
    ucca = copy.deepcopy(demo["ucca"])
    annotate(ucca, 50, 0)
    assert set(ucca["macro"]) == {"labeled", "unlabeled"}
    assert set(ucca["macro"]["labeled"]) == {"primary", "remote"}
    assert ucca["macro"]["labeled"]["remote"] == {"p": 0.0, "r": 0.0, "f": 0.0, "items": 1}
    assert set(ucca["ci"]["unlabeled"]["primary"]) == {"micro", "macro"}


def test_annotate_aspects_shape() -> None:
    result: Dict[str, Any] = {
        "aspects": {"negation": {**_prf(3, 2, 2), "items": 2}, "coreference": _prf(1, 1, 0)},
        "scores": {"eds": {
            "1": {"negation": {"g": 2, "s": 1, "c": 1}, "coreference": {"g": 0, "s": 0, "c": 0}},
            "2": {"negation": {"g": 1, "s": 1, "c": 1}, "coreference": {"g": 1, "s": 1, "c": 0}},
        }},
    }
    annotate(result, 20, 0)
    assert result["macro"]["aspects"]["negation"] == {"p": 1.0, "r": 0.75, "f": pytest.approx(5 / 6),
                                                      "items": 2}
    assert result["macro"]["aspects"]["coreference"]["items"] == 1
    assert set(result["ci"]["aspects"]) == {"negation", "coreference"}


def test_annotate_needs_scores() -> None:
    with pytest.raises(ValueError, match="scores"):
        annotate({"n": 0, **_prf(0, 0, 0)}, None, 0)


def _keys(rows: List[Tuple[str, str]]) -> List[str]:
    return ["/".join(row) for row in rows]


def test_item_keys_order(demo: Dict[str, Dict[str, Any]]) -> None:
    # sorted by (framework, id): the same for any order of the input
    assert _keys(item_keys(demo["sdp"])) == ["amr/demo-1", "amr/demo-2", "dm/demo-1", "eds/demo-1",
                                             "eds/demo-2", "psd/demo-2", "ucca/demo-2"]
