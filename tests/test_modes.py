"""Every metric in every mode: one system and a leaderboard, JSON and --table, each gives a non-empty report
(a leaderboard's figures equal each system scored alone) or refuses with a one-line message; and the small
command-line promises (--version, --help, --errors)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from mrp.metrics.registry import METRICS

from conftest import ROOT, run_cli, shared_file, timeless

AMR = ("data/pairs/amr/test1.amr", "data/pairs/amr/test2.amr")
UCCA = ("data/pairs/ucca/test.gold.mrp", "data/pairs/ucca/test.tupa.mrp")
PSD = ("data/pairs/psd/107480.gold.mrp", "data/pairs/psd/107480.foxik.mrp")
UMR = ("data/umr/czech-pdtc/pcedt-gold.umr", "data/umr/czech-pdtc/pcedt-conv.umr")
#: metric -> the shared pair it is scored on
DATA = {"mrp": UCCA, "smatch": AMR, "edm": UCCA, "sdp": PSD, "ucca": UCCA, "aspects": AMR, "sembleu": AMR,
        "unlabeled": AMR, "unlabeled-edges": UCCA, "predications": PSD, "ancast": AMR, "umatch": UMR,
        "rematch": AMR, "wlk": AMR, "s2match": AMR}


def test_the_matrix_covers_every_registered_metric() -> None:
    assert set(DATA) == set(METRICS)


def _score(*args: str) -> Any:
    return run_cli("score", ["--jobs", "1", *args])


@pytest.mark.parametrize("metric", sorted(DATA))
def test_every_metric_alone_and_in_a_leaderboard_as_json_and_table(metric: str, tmp_path: Path) -> None:
    gold, system = (str(shared_file(path)) for path in DATA[metric])
    copy = tmp_path / ("copy" + Path(gold).suffix)
    copy.write_bytes(Path(gold).read_bytes())  # a second system: the gold graphs themselves
    alone: Dict[str, Any] = {}
    for name in (system, str(copy)):
        run = _score("--score", metric, "--gold", gold, name)
        assert run.code == 0 and run.out.strip(), run.err
        alone[name] = timeless(json.loads(run.out))
        table = _score("--score", metric, "--table", "--gold", gold, name)
        assert table.code == 0 and table.out.strip() and "signature:" in table.out, table.err
    board = _score("--score", metric, "--gold", gold, system, str(copy))
    assert board.code == 0, board.err
    document = json.loads(board.out)
    assert set(document) - {"signature", "results"}, "a leaderboard with nothing but its inputs' results"
    for name, result in document["results"].items():
        expected = dict(alone[name])
        expected.pop("signature", None)
        got = timeless(result)
        got.pop("signature", None)
        assert got == expected, name
    table = _score("--score", metric, "--table", "--gold", gold, system, str(copy))
    assert table.code == 0, table.err
    lines = [line for line in table.out.splitlines() if line.strip()]
    assert any(system in line for line in lines) and any(str(copy) in line for line in lines), table.out


@pytest.mark.parametrize("metric", ["mrp", "smatch", "ancast", "edm", "umatch"])
def test_trace_and_errors_for_every_searching_metric(metric: str, tmp_path: Path) -> None:
    gold, system = (str(shared_file(path)) for path in DATA[metric])
    errors = tmp_path / "errors.json"
    run = _score("--score", metric, "--trace", "--errors", str(errors), "--gold", gold, system)
    assert run.code == 0, run.err
    assert "scores" in json.loads(run.out) or "scores" in json.loads(run.out).get("documents", {})
    assert errors.exists() and isinstance(json.loads(errors.read_text(encoding="utf-8")), dict)


def test_aspects_on_umr_alone_is_refused_with_a_message() -> None:
    gold = str(shared_file("data/umr/czech-pdtc/pcedt-gold.umr"))
    system = str(shared_file("data/umr/czech-pdtc/pcedt-conv.umr"))
    for systems in ([system], [system, gold]):
        run = _score("--score", "aspects", "--gold", gold, *systems)
        assert run.code == 2 and run.out == ""
        assert run.err.strip().splitlines()[-1].startswith("mrp-score: aspects scores AMR graphs only")
        assert "internal error" not in run.err
    both = _score("--score", "smatch,aspects", "--gold", gold, system)
    alone = _score("--score", "smatch", "--gold", gold, system)
    assert both.code == 0 and timeless(json.loads(both.out)) == timeless(json.loads(alone.out))
    assert "aspects scores AMR graphs only" in both.err


def test_edm_on_unanchored_graphs_says_what_it_cannot_see() -> None:
    gold, system = (str(shared_file(path)) for path in AMR)
    run = _score("--score", "edm", "--gold", gold, system)
    assert run.code == 0 and json.loads(run.out)["unanchored"] == 3
    assert "several nodes without anchors" in run.err


@pytest.mark.parametrize("tool", ["score", "convert", "validate"])
def test_version(tool: str) -> None:
    from mrp import __version__

    run = run_cli(tool, ["--version"])
    assert run.code == 0 and run.out.strip() == f"mrp-{tool} {__version__}"


def test_help_names_every_metric_and_alias_and_their_options() -> None:
    from mrp.metrics.registry import metric

    text = " ".join(run_cli("score", ["--help"]).out.split())
    for name, (_, aliases) in METRICS.items():
        assert name in text and all(alias in text for alias in aliases)
        assert all(parameter.flag in text for parameter in metric(name).parameters)


def test_an_option_of_another_metric_is_refused() -> None:
    run = _score("--score", "mrp", "--smatch-compat", "--gold", str(ROOT / "data/demo/gold.mrp"),
                 str(ROOT / "data/demo/system.mrp"))
    assert run.code == 2 and "--smatch-compat is an option of metric smatch" in run.err


def test_errors_and_output_must_be_two_files_and_errors_not_stdout(tmp_path: Path) -> None:
    args: List[str] = ["--gold", str(ROOT / "data/demo/gold.mrp"), str(ROOT / "data/demo/system.mrp")]
    same = _score("--errors", str(tmp_path / "x.json"), "--output", str(tmp_path / "." / "x.json"), *args)
    assert same.code == 2 and "named for two outputs" in same.err and not (tmp_path / "x.json").exists()
    dash = run_cli("score", ["--errors", "-", *args])
    assert dash.code == 2 and "standard output carries the report" in dash.err
    assert not (ROOT / "-").exists()
