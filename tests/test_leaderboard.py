"""Leaderboards: ranking systems by the primary score, paired comparisons, and the text table."""

from __future__ import annotations

import copy
import json
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import pytest

from mrp.corpora.load import read_corpus
from mrp.engine.options import Options
from mrp.engine.pairing import pair
from mrp.metrics.registry import evaluate
from mrp.report.leaderboard import leaderboard, primary, table
from mrp.report.stats import item_counts, micro

from conftest import ROOT


def _smatch(rows: Sequence[Tuple[int, int, int]], framework: str = "amr") -> Dict[str, Any]:
    """A SMATCH-shaped traced result with the given per-item (g, s, c)."""
    g, s, c = (sum(row[k] for row in rows) for k in range(3))
    p = c / s if s else 0.0
    r = c / g if g else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"n": len(rows), "g": g, "s": s, "c": c, "p": p, "r": r, "f": f,
            "scores": {framework: {str(k): {"g": gi, "s": si, "c": ci}
                                   for k, (gi, si, ci) in enumerate(rows)}}}


@pytest.fixture(scope="module")
def demo() -> Dict[str, Dict[str, Dict[str, Any]]]:
    """Per metric: the traced results of the demo system and of the gold itself, against the gold."""
    gold = read_corpus(str(ROOT / "data/demo/gold.mrp"))
    system = read_corpus(str(ROOT / "data/demo/system.mrp"))
    out: Dict[str, Dict[str, Dict[str, Any]]] = {}
    for name in ("mrp", "smatch", "edm", "sdp", "ucca"):
        out[name] = {
            "system": evaluate(name, pair(gold, system), Options(trace=True))[0],
            "gold": evaluate(name, pair(gold, gold), Options(trace=True))[0],
        }
    return out


def test_primary_paths() -> None:
    expected = {"mrp": ("all",), "smatch": (), "edm": ("all",), "sdp": ("labeled",),
                "ucca": ("labeled", "primary"), "unlabeled": ("all",), "predications": ("predications",)}
    assert {name: primary(name) for name in expected} == expected
    assert primary("MCES") == ("all",)
    with pytest.raises(ValueError, match="aspects"):
        primary("aspects")


def test_ranking_order_ties_and_comparisons() -> None:
    alpha = _smatch([(10, 10, 9)] * 20)
    beta = _smatch([(10, 8, 6)] * 20)
    gamma = _smatch([(10, 8, 6)] * 20)
    delta = _smatch([(10, 10, 2)] * 20)
    board = leaderboard("smatch", [("gamma", gamma), ("delta", delta), ("beta", beta), ("alpha", alpha)],
                        999, 0)
    assert [(e["rank"], e["system"]) for e in board["systems"]] == [
        (1, "alpha"), (2, "beta"), (2, "gamma"), (4, "delta")]  # beta and gamma tie: one rank, by name
    first = board["systems"][0]
    assert first == {"rank": 1, "system": "alpha", "p": 0.9, "r": 0.9, "f": 0.9,
                     "ci": {"p": [0.9, 0.9], "r": [0.9, 0.9], "f": [0.9, 0.9]},
                     "macro": {"f": pytest.approx(0.9)}, "n": 20}
    assert [(c["better"], c["worse"]) for c in board["comparisons"]] == [
        ("alpha", "beta"), ("beta", "gamma"), ("gamma", "delta")]
    top, tie, last = board["comparisons"]
    assert top["delta"] == pytest.approx(0.9 - 2 / 3)
    assert top["p"] == pytest.approx(1 / 1000) and top["significant"] is True
    assert tie == {"better": "beta", "worse": "gamma", "delta": 0.0, "p": 1.0, "significant": False,
                   "items": 20}
    assert last["significant"] is True and "note" not in last
    assert board["test"] == {"method": "bootstrap", "n": 999, "seed": 0}
    assert board["metric"] == "smatch" and board["path"] == [] and board["level"] == 0.95


def test_leaderboard_on_real_runs(demo: Dict[str, Dict[str, Dict[str, Any]]]) -> None:
    for metric, runs in demo.items():
        board = leaderboard(metric, [("system", runs["system"]), ("gold", runs["gold"])], 500, 1)
        assert [e["system"] for e in board["systems"]] == ["gold", "system"], metric
        best, second = board["systems"]
        assert best["f"] == 1.0 and best["ci"]["f"] == [1.0, 1.0]
        expected = item_counts(runs["system"])[primary(metric)]
        assert (second["p"], second["r"], second["f"]) == micro(expected)
        lo, hi = second["ci"]["f"]
        assert lo <= second["f"] <= hi <= 1.0
        assert second["n"] == 7 and board["path"] == list(primary(metric))
        (comparison,) = board["comparisons"]
        assert comparison["items"] == 7 and comparison["delta"] == pytest.approx(1.0 - second["f"])
        assert 0.0 < comparison["p"] <= 1.0


@pytest.mark.parametrize("method", ["bootstrap", "randomization"])
def test_clearly_better_system_on_synthetic_items(method: str) -> None:
    rng = np.random.default_rng(0)
    g = rng.integers(5, 30, 200)
    good = np.minimum(g, rng.binomial(g, 0.85))
    worse = np.maximum(0, good - rng.integers(0, 3, 200))
    first = _smatch([(int(x), int(x), int(y)) for x, y in zip(g, good)])
    second = _smatch([(int(x), int(x), int(y)) for x, y in zip(g, worse)])
    board = leaderboard("smatch", [("worse", second), ("good", first)], 1000, 3, method=method)
    assert [e["system"] for e in board["systems"]] == ["good", "worse"]
    (comparison,) = board["comparisons"]
    assert comparison["p"] < 0.05 and comparison["significant"]
    assert board["test"]["method"] == method
    assert board == leaderboard("smatch", [("worse", second), ("good", first)], 1000, 3, method=method)


def test_different_item_sets_are_compared_on_their_intersection(
        demo: Dict[str, Dict[str, Dict[str, Any]]]) -> None:
    system = demo["sdp"]["system"]
    partial = copy.deepcopy(system)
    del partial["scores"]["amr"]
    board = leaderboard("sdp", [("full", system), ("partial", partial)], 200, 0)
    entries = {e["system"]: e for e in board["systems"]}
    assert entries["full"]["n"] == 7 and entries["partial"]["n"] == 5
    (comparison,) = board["comparisons"]
    assert comparison["items"] == 5
    assert comparison["delta"] == 0.0 and comparison["p"] == 1.0  # the same counts on the shared items
    assert "5 items both were scored on" in comparison["note"]
    assert "+ partial vs full: compared on the 5 items" in table(board)


def test_leaderboard_rejects_bad_input() -> None:
    one = _smatch([(3, 3, 2)])
    with pytest.raises(ValueError, match="at least one"):
        leaderboard("smatch", [], 10, 0)
    with pytest.raises(ValueError, match="distinct"):
        leaderboard("smatch", [("a", one), ("a", one)], 10, 0)
    with pytest.raises(ValueError, match="no counts"):
        leaderboard("mrp", [("a", one)], 10, 0)
    with pytest.raises(ValueError, match="scores"):
        leaderboard("smatch", [("a", {k: v for k, v in one.items() if k != "scores"})], 10, 0)
    with pytest.raises(ValueError, match="method"):
        leaderboard("smatch", [("a", one), ("b", one)], 10, 0, method="t-test")
    aspects = {"aspects": {"negation": {"g": 3, "s": 3, "c": 2, "p": 2 / 3, "r": 2 / 3, "f": 2 / 3}},
               "scores": {"eds": {"1": {"negation": {"g": 3, "s": 3, "c": 2}}}}}
    board = leaderboard("aspects", [("a", aspects)], 10, 0, path=("aspects", "negation"))
    assert board["systems"][0]["f"] == pytest.approx(2 / 3)


def _lines(text: str) -> List[str]:
    return text.split("\n")


def test_table_rendering() -> None:
    board = leaderboard("smatch", [("gamma", _smatch([(10, 8, 6)] * 20)),
                                   ("beta", _smatch([(10, 8, 6)] * 20)),
                                   ("alpha", _smatch([(10, 10, 9)] * 20))], 999, 0)
    text = table(board)
    assert _lines(text) == [
        "rank  system       P       R       F       95% CI of F   delta  p-value  sig",
        "----  ------  ------  ------  ------  ----------------  ------  -------  ---",
        "   1  alpha   0.9000  0.9000  0.9000  [0.9000, 0.9000]  0.2333   0.0010  *",
        "   2  beta    0.7500  0.6000  0.6667  [0.6667, 0.6667]  0.0000   1.0000",
        "   2  gamma   0.7500  0.6000  0.6667  [0.6667, 0.6667]",
        "",
        "ranked by micro F (smatch); delta and p-value: against the next system down",
        "* p < 0.05 (paired bootstrap, 999 samples, seed 0)",
        "",
    ]


def test_table_of_real_runs(demo: Dict[str, Dict[str, Dict[str, Any]]]) -> None:
    runs = demo["ucca"]
    board = leaderboard("ucca", [("demo", runs["system"]), ("gold", runs["gold"])], 100, 0,
                        method="randomization", level=0.9)
    lines = _lines(table(board))
    assert lines[0].split() == ["rank", "system", "P", "R", "F", "90%", "CI", "of", "F", "delta", "p-value",
                                "sig"]
    assert lines[2].startswith("   1  gold    1.0000  1.0000  1.0000  [1.0000, 1.0000]  0.2857")
    assert lines[3].startswith("   2  demo    0.7407  0.6897  0.7143  [")
    assert lines[-2] == "* p < 0.1 (approximate randomization, 100 samples, seed 0)"
    assert lines[-3] == ("ranked by micro F (ucca labeled primary); "
                         "delta and p-value: against the next system down")
    assert len({len(line) for line in lines[:2]}) == 1  # header and rule are equally wide


SYSTEMS = ["data/demo/system.mrp", "data/demo/gold.mrp"]


@pytest.mark.parametrize("metrics", ["mrp", "ancast", "mrp,ancast"])
def test_the_table_leaderboard_prints_each_metrics_signature(metrics: str) -> None:
    """``mrp-score --table`` with several systems: every metric's board (ranked or not) ends with the
    signature the JSON records, rendered as every other leaderboard renders it."""
    from mrp.report.signature import signature_line

    from conftest import run_cli

    shown = run_cli("score", ["--table", "--score", metrics, "--gold", "data/demo/gold.mrp", *SYSTEMS])
    data = run_cli("score", ["--score", metrics, "--gold", "data/demo/gold.mrp", *SYSTEMS])
    assert shown.code == 0 and data.code == 0, shown.err + data.err
    document = json.loads(data.out)
    boards = {metrics: document} if "," not in metrics else document
    for metric, board in boards.items():
        assert board["signature"].startswith(metric + ":")
        assert signature_line(board["signature"]) in shown.out.splitlines(), metric


def test_every_leaderboard_renders_the_signature_alike() -> None:
    """The text table, the unranked table and the task kit's notes use the one rendering."""
    from mrp.report.leaderboard import unranked, unranked_table
    from mrp.report.signature import signature_line
    from mrp.task.tables import notes

    board = leaderboard("smatch", [("a", _smatch([(3, 3, 2)])), ("b", _smatch([(3, 3, 3)]))], 50, 0)
    board["signature"] = "smatch:amr|v0"
    assert signature_line("smatch:amr|v0") in table(board).splitlines()
    flat = unranked("sembleu", [("a", {"sembleu": 0.5})])
    flat["signature"] = "sembleu:amr|v0"
    assert signature_line("sembleu:amr|v0") in unranked_table(flat).splitlines()
    task = {"title": "T", "task": "t", "primary": "x_f", "overall": "macro", "groups": ["cs"],
            "baseline": None, "baseline_found": False, "level": 0.95, "refused": [],
            "test": {"method": "paired bootstrap", "n": 10, "seed": 0}, "signatures": {"x": "x:umr|v0"}}
    assert signature_line("x:umr|v0", "x") in notes(task)
