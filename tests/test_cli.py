"""mrp-score and mrp-convert as a user runs them: output shape, determinism, limits, help."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_cli, shared_path

DEMO = ROOT / "data" / "demo"
KEYS = ["n", "null", "exact", "tops", "labels", "properties", "anchors", "edges", "attributes", "all",
        "time", "cpu"]


def _without_time(text: str) -> dict:
    result = json.loads(text)
    result.pop("time")
    result.pop("cpu")
    return result


def test_demo_output_layout() -> None:
    result = run_cli("score", ["--gold", str(DEMO / "gold.mrp"), str(DEMO / "system.mrp")])
    assert result.code == 0 and result.err == ""
    score = json.loads(result.out)
    assert list(score)[:len(KEYS)] == KEYS
    for name in KEYS[3:10]:
        assert set(score[name]) == {"g", "s", "c", "p", "r", "f"}
        assert 0.0 <= score[name]["f"] <= 1.0
    assert score["exact"] == score["n"] == 7
    assert score["bound"]["c"] == score["all"]["c"]


def test_jobs_give_identical_output_and_errors(tmp_path: Path) -> None:
    shared = shared_path()
    gold, system = shared / "data/wsj/eds/wsj.mrp", shared / "data/pairs/eds/wsj.pet.mrp"
    args = ["--trace", "--gold", str(gold), str(system)]
    one = run_cli("score", args + ["--jobs", "1", "--errors", str(tmp_path / "e1.json")])
    two = run_cli("score", args + ["--jobs", "2", "--errors", str(tmp_path / "e2.json")])
    again = run_cli("score", args + ["--jobs", "1"])
    assert one.code == two.code == again.code == 0
    assert _without_time(one.out) == _without_time(two.out) == _without_time(again.out)
    strip = [line for line in one.out.splitlines() if not line.startswith((' "time"', ' "cpu"'))]
    assert strip == [line for line in two.out.splitlines() if not line.startswith((' "time"', ' "cpu"'))]
    e1, e2 = (tmp_path / "e1.json").read_text(), (tmp_path / "e2.json").read_text()
    assert e1 == e2
    errors = json.loads(e1)["eds"]
    assert len(errors) == 89
    item = errors["20001001"]
    assert item["correspondences"] and item["edges"]["missing"]


def test_errors_list_missing_and_surplus_tuples(tmp_path: Path) -> None:
    errors = tmp_path / "errors.json"
    args = ["--errors", str(errors), "--gold", str(DEMO / "gold.mrp"), str(DEMO / "system.mrp")]
    result = run_cli("score", args)
    assert result.code == 0
    amr = json.loads(errors.read_text())["amr"]["demo-1"]
    # gold: cat -mod-> on (normal domain) and mat at :location; the system says mat is ARG1, cat ARG2
    assert [3, "on"] in amr["labels"]["missing"]
    assert sorted(map(tuple, amr["correspondences"])) == [(0, 0), (1, 2), (2, 1)]
    assert "surplus" in amr["edges"] and "missing" in amr["edges"]


def test_limit_reports_inexact_pairs_with_bounds() -> None:
    shared = shared_path()
    gold, system = shared / "data/pairs/amr/coli.gold.amr", shared / "data/pairs/amr/coli.system.amr"
    args = ["--format", "amr", "--no-wiki", "--trace", "--limit", "0", "--gold", str(gold), str(system)]
    result = run_cli("score", args)
    assert result.code == 0, result.err
    score = json.loads(result.out)
    items = score["scores"]["amr"]
    cut = [item for item in items.values() if not item["exact"]]
    assert cut and score["exact"] == score["n"] - len(cut)
    for item in items.values():
        assert item["bound"] >= item["all"]["c"]
        assert item["exact"] == (item["bound"] == item["all"]["c"])
    assert score["bound"]["c"] > score["all"]["c"]
    assert score["bound"]["f"] > score["all"]["f"]


def test_python_m_mrp_prints_help_and_points_to_convert() -> None:
    proc = subprocess.run([sys.executable, "-m", "mrp"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0
    assert "--gold GOLD" in proc.stdout and "mrp-convert --help" in proc.stdout
    help_text = run_cli("score", ["--help"]).out
    assert proc.stdout.startswith(help_text.rstrip("\n").split("\n")[0])
    for option in ["--score", "--format", "--gold-format", "--framework", "--text", "--trace", "--errors",
                   "--limit", "--jobs", "--output", "e.g."]:
        assert option in help_text
    convert_help = run_cli("convert", ["--help"]).out
    for option in ["--from", "--to", "--text", "--framework", "--no-wiki", "--wsj-ids", "examples:"]:
        assert option in convert_help


def test_stdin_and_output_file(tmp_path: Path) -> None:
    out = tmp_path / "score.json"
    gold = DEMO / "gold.mrp"
    result = run_cli("score", ["--output", str(out), "--gold", str(gold), "-"], stdin=gold.read_bytes())
    assert result.code == 0 and result.out == ""
    assert json.loads(out.read_text())["all"]["f"] == 1.0
    converted = run_cli("convert", ["--from", "mrp", "--to", "mrp"], stdin=gold.read_bytes())
    assert converted.code == 0
    assert [json.loads(line) for line in converted.out.splitlines()] == [
        json.loads(line) for line in gold.read_text().splitlines()]


def test_conversion_and_startup_do_not_import_numba() -> None:
    code = ("import sys, mrp.cli.convert, mrp.cli.score, mrp.metrics.mrp.metric, mrp.metrics.mrp.pair; "
            "print('numba' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.stdout.strip() == "False"


def test_several_metrics_in_one_run_equal_separate_runs() -> None:
    shared = shared_path()
    gold, system = shared / "data/wsj/eds/wsj.mrp", shared / "data/pairs/eds/wsj.pet.mrp"
    args = ["--trace", "--gold", str(gold), str(system)]
    together = run_cli("score", ["--score", "mrp,smatch,edm", *args])
    assert together.code == 0, together.err
    combined = json.loads(together.out)
    assert list(combined) == ["mrp", "smatch", "edm"]
    for metric in ("mrp", "smatch", "edm"):
        alone = run_cli("score", ["--score", metric, *args])
        assert alone.code == 0, alone.err
        separate = json.loads(alone.out)
        for key in ("time", "cpu"):
            separate.pop(key)
            combined[metric].pop(key)
        assert combined[metric] == separate, metric


def test_score_validate_reports_problems_then_scores(tmp_path: Path) -> None:
    gold = ROOT / "data/demo/gold.mrp"
    bad = tmp_path / "system.mrp"
    bad.write_text('{"id": "demo-1", "framework": "dm", "input": "ab", "tops": [7], "nodes": '
                   '[{"id": 0, "label": "a", "anchors": [{"from": 0, "to": 9}]}], "edges": []}\n')
    result = run_cli("score", ["--validate", "--quiet", "--gold", str(gold), str(bad)])
    assert result.code == 0
    lines = result.err.splitlines()
    assert f"{bad}:1: graph demo-1: top 7: names no node" in lines
    assert f"{bad}:1: graph demo-1: node 0: anchor 0:9 is outside the input (2 characters)" in lines
    assert any(line.startswith(f"{gold}: 7 graphs") for line in lines)
    assert json.loads(result.out)["n"] == 7


def test_numba_is_imported_without_yaml_unless_its_config_file_is_there(tmp_path: Path) -> None:
    """PyYAML (about 0.015 s) is hidden while numba is imported, except where numba has a config file to read
    with it: then that file's settings apply as numba's own import would apply them."""
    pytest.importorskip("yaml")
    probe = ("import sys; from mrp.compiled import jit; jit._import_numba(); import numba.core.config as c; "
             "print('yaml' in sys.modules, c._HAVE_YAML, c.COLOR_SCHEME)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NUMBA_COLOR_SCHEME", None)
    plain = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True,
                           text=True)
    assert plain.stdout.split() == ["False", "False", "no_color"], plain.stderr
    (tmp_path / ".numba_config.yaml").write_text("color_scheme: light_bg\n", encoding="utf-8")
    configured = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True,
                                text=True)
    assert configured.stdout.split() == ["True", "True", "light_bg"], configured.stderr
