"""mrp-score's statistics, leaderboards, signatures and standardization, end to end (issue 6)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Dict, List

import pytest

from mrp.codecs import WriteOptions, writer
from mrp.corpora.load import read_corpus
from mrp.graph import Graph
from mrp.standardize.graph import Standardization, parse, standardize

from conftest import ROOT, run_cli, shared_file

DEMO_GOLD = str(ROOT / "data/demo/gold.mrp")
DEMO_SYSTEM = str(ROOT / "data/demo/system.mrp")
METRICS = ("mrp", "smatch", "edm", "sdp", "ucca")


def score(*args: str) -> Dict[str, Any]:
    result = run_cli("score", list(args))
    assert result.code == 0, result.err
    assert "Traceback" not in result.err
    return json.loads(result.out)


def write(graphs: List[Graph], path: Path, fmt: str = "mrp") -> str:
    with open(path, "w", encoding="utf-8") as stream:
        writer(fmt)(graphs, stream, WriteOptions())
    return str(path)


def primary(metric: str, result: Dict[str, Any]) -> Dict[str, Any]:
    return {"mrp": result.get("all"), "smatch": result, "edm": result.get("all"),
            "sdp": result.get("labeled"), "ucca": result.get("labeled", {}).get("primary")}[metric]


@pytest.mark.parametrize("preset", ["none", "smatchpp", "reify", "dereify"])
def test_wsj_amr_against_itself_scores_one_with_every_metric_and_preset(preset: str) -> None:
    wsj = str(shared_file("data/wsj/amr/wsj.mrp"))
    results = score("--score", ",".join(METRICS), "--standardize", preset, "--gold", wsj, wsj)
    for metric in METRICS:
        counts = primary(metric, results[metric])
        assert counts["g"] == counts["s"] == counts["c"], (metric, counts)
        if counts["g"]:
            assert counts["f"] == 1.0, metric
        assert f"|std:{parse(preset).name()}|" in results[metric]["signature"]


def test_reified_against_dereified_needs_standardization(tmp_path: Path) -> None:
    graphs = read_corpus(str(shared_file("data/wsj/amr/wsj.mrp")), "mrp").graphs
    reified = write([standardize(g, Standardization(roles=True, reify=True)) for g in graphs],
                    tmp_path / "reified.mrp")
    dereified = write([standardize(g, Standardization(roles=True, dereify=True)) for g in graphs],
                      tmp_path / "dereified.mrp")
    assert sum(node.label.endswith("-91") for g in read_corpus(reified).graphs for node in g.nodes
               if node.label) > 100
    f = {preset: score("--standardize", preset, "--gold", dereified, reified)["all"]["f"]
         for preset in ("none", "reify", "dereify")}
    assert f["none"] < 0.9
    assert f["reify"] == 1.0
    assert f["dereify"] == 1.0


@pytest.mark.parametrize("metric", METRICS)
def test_swapping_gold_and_system_swaps_p_and_r(metric: str) -> None:
    forward = primary(metric, score("--score", metric, "--gold", DEMO_GOLD, DEMO_SYSTEM))
    backward = primary(metric, score("--score", metric, "--gold", DEMO_SYSTEM, DEMO_GOLD))
    assert (forward["p"], forward["r"]) == pytest.approx((backward["r"], backward["p"]))
    assert forward["f"] == pytest.approx(backward["f"])


def test_duplicate_triples_never_score_above_one(tmp_path: Path) -> None:
    text = "(a / want-01 :ARG0 (b / boy) :ARG0 b :polarity - :polarity -)\n"
    (tmp_path / "g.amr").write_text(text)
    (tmp_path / "s.amr").write_text("(a / want-01 :ARG0 (b / boy) :polarity -)\n")
    for metric in METRICS:
        for gold, system in (("g.amr", "s.amr"), ("s.amr", "g.amr"), ("g.amr", "g.amr")):
            result = score("--score", metric, "--format", "amr", "--gold", str(tmp_path / gold),
                           str(tmp_path / system))
            counts = primary(metric, result)
            assert counts["c"] <= min(counts["g"], counts["s"])
            assert 0.0 <= counts["p"] <= 1.0 and 0.0 <= counts["r"] <= 1.0 and 0.0 <= counts["f"] <= 1.0


def test_bootstrap_intervals_contain_the_estimate_and_repeat_with_the_seed() -> None:
    first = score("--bootstrap", "200", "--seed", "7", "--gold", DEMO_GOLD, DEMO_SYSTEM)
    again = score("--bootstrap", "200", "--seed", "7", "--gold", DEMO_GOLD, DEMO_SYSTEM)
    other = score("--bootstrap", "200", "--seed", "8", "--gold", DEMO_GOLD, DEMO_SYSTEM)
    assert first["ci"] == again["ci"]
    assert first["ci"] != other["ci"]
    assert first["bootstrap"] == {"n": 200, "seed": 7, "level": 0.95}
    for key in ("tops", "labels", "edges", "all"):
        for measure in "prf":
            lo, hi = first["ci"][key]["micro"][measure]
            assert lo <= first[key][measure] <= hi
            lo, hi = first["ci"][key]["macro"][measure]
            assert lo <= first["macro"][key][measure] <= hi
    assert "boot:200+seed:7" in first["signature"]


def test_intervals_narrow_as_the_corpus_grows() -> None:
    coli = [str(shared_file("data/pairs/amr", name)) for name in ("coli.gold.amr", "coli.system.amr")]
    result = score("--format", "amr", "--trace", "--bootstrap", "300", "--gold", *coli)
    from mrp.report.stats import annotate

    small = json.loads(json.dumps(result))
    items = small["scores"]["amr"]
    small["scores"]["amr"] = {key: items[key] for key in list(items)[:50]}
    annotate(small, 300, 0)
    wide = small["ci"]["all"]["micro"]["f"]
    narrow = result["ci"]["all"]["micro"]["f"]
    assert narrow[1] - narrow[0] < (wide[1] - wide[0]) / 2


def test_signatures_name_the_options_and_repeat() -> None:
    plain = score("--gold", DEMO_GOLD, DEMO_SYSTEM)["signature"]
    assert plain == score("--gold", DEMO_GOLD, DEMO_SYSTEM)["signature"]
    assert plain.startswith("mrp:amr+dm+eds+psd+ucca|norm:case+anchors+edges|std:none|timeout:60s|v")
    uncapped = score("--timeout", "0", "--gold", DEMO_GOLD, DEMO_SYSTEM)["signature"]
    assert uncapped.startswith("mrp:amr+dm+eds+psd+ucca|norm:case+anchors+edges|std:none|exact|v")
    limited = score("--limit", "10", "--timeout", "5", "--gold", DEMO_GOLD, DEMO_SYSTEM)["signature"]
    assert "|limit:10+timeout:5s|" in limited
    std = score("--standardize", "reify", "--gold", DEMO_GOLD, DEMO_SYSTEM)["signature"]
    assert "|std:roles+reify+dedupe|" in std
    smatch = score("--score", "smatch", "--gold", DEMO_GOLD, DEMO_SYSTEM)["signature"]
    assert smatch.startswith("smatch:") and "|triples:mrp|" in smatch


def _noisy(graphs: List[Graph], seed: int) -> List[Graph]:
    """Gold graphs with one in ten concepts renamed and one in ten relations dropped (deterministic)."""
    rng = random.Random(seed)
    out = []
    for graph in graphs:
        copy = read_corpus_copy(graph)
        for node in copy.nodes:
            if rng.random() < 0.1:
                node.label = "noise-01"
        copy.edges = [edge for edge in copy.edges if rng.random() >= 0.1]
        out.append(copy)
    return out


def read_corpus_copy(graph: Graph) -> Graph:
    from mrp.codecs.mrp import decode, encode

    return decode(json.loads(json.dumps(encode(graph))))


def test_leaderboard_ranks_three_systems_and_separates_them(tmp_path: Path) -> None:
    gold_path = str(shared_file("data/pairs/amr/coli.gold.amr"))
    system_path = str(shared_file("data/pairs/amr/coli.system.amr"))
    gold = read_corpus(gold_path, "amr").graphs
    system = write(read_corpus(system_path, "amr").graphs, tmp_path / "system.mrp")
    noisy = write(_noisy(gold, 1), tmp_path / "noisy.mrp")
    copy = write(gold, tmp_path / "gold-copy.mrp")
    board = score("--gold-format", "amr", "--gold", gold_path, system, noisy, copy)
    assert [entry["system"] for entry in board["systems"]] == [copy, noisy, system]
    assert board["systems"][0]["f"] == 1.0
    assert board["systems"][0]["f"] > board["systems"][1]["f"] > board["systems"][2]["f"]
    first, second = board["comparisons"]
    assert first["significant"] and first["p"] < 0.01
    assert second["significant"] and second["p"] < 0.01
    assert "|test:randomization+seed:0|" in board["signature"]
    assert set(board["results"]) == {copy, noisy, system}
    same = score("--gold-format", "amr", "--gold", gold_path, copy, write(gold, tmp_path / "again.mrp"))
    assert not same["comparisons"][0]["significant"] and same["comparisons"][0]["p"] == 1.0
    text = run_cli("score", ["--table", "--gold-format", "amr", "--gold", gold_path, system, noisy, copy])
    assert text.code == 0
    rows = text.out.splitlines()
    assert rows[0].split()[:5] == ["rank", "system", "P", "R", "F"]
    assert rows[2].split()[1] == copy and rows[2].rstrip().endswith("*")


def test_aspects_from_the_command_line() -> None:
    coli = [str(shared_file("data/pairs/amr", name)) for name in ("coli.gold.amr", "coli.system.amr")]
    result = score("--format", "amr", "--aspects", "--score", "smatch", "--gold", *coli)
    aspects = result["aspects"]["aspects"]
    assert len(aspects) == 11
    for counts in aspects.values():
        assert 0.0 <= counts["f"] <= 1.0 and counts["items"] <= 1368
    assert result["aspects"]["signature"].startswith("aspects:amr|")


def test_aspect_depth_full_takes_everything_below_the_trigger(tmp_path: Path) -> None:
    chain = "(w / want-01 :location (c / city :poss (s / state :poss (n / nation :poss ({})))))\n"
    (tmp_path / "g.amr").write_text(chain.format("x / continent"))
    (tmp_path / "s.amr").write_text(chain.format("x / region"))
    args = ["--format", "amr", "--score", "aspects", "--gold", str(tmp_path / "g.amr"),
            str(tmp_path / "s.amr")]
    two = score(*args)
    full = score("--aspect-depth", "full", *args)
    assert "|depth:2|" in two["signature"] and "|depth:full|" in full["signature"]
    location_two, location_full = two["aspects"]["location"], full["aspects"]["location"]
    assert location_two["f"] == 1.0  # continent/region lie deeper than two levels
    assert location_full["g"] > location_two["g"] and location_full["f"] < 1.0
    assert run_cli("score", ["--aspect-depth", "deep", *args]).code == 2
