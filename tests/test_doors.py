"""The front doors read, pair and report alike (issue 41, leaks 4-8 and 10; issue 42, items 8 and 10)."""

from __future__ import annotations

import json
import warnings
from typing import Any, Dict

import pytest

import mrp
from mrp.metrics.pairing import COUNTS, PairingWarning
from mrp.metrics.registry import METRICS

from conftest import run_cli, shared_file

GOLD = ("# ::id a\n# ::snt x\n(w / want-01 :ARG0 (b / boy))\n\n"
        "# ::id b\n# ::snt y\n(s / sleep-01 :ARG0 (g / girl))\n\n"
        "# ::id c\n# ::snt z\n(r / rain-01)\n")
#: a, then a again (duplicate), then d (no gold graph); b and c have no system graph
SYSTEM = ("# ::id a\n# ::snt x\n(w / want-01 :ARG0 (b / boy))\n\n"
          "# ::id a\n# ::snt x\n(w / want-01)\n\n"
          "# ::id d\n# ::snt q\n(r / rain-01)\n")


def _counts(result: Any) -> Dict[str, int]:
    return {name: result[name] for name in COUNTS}


# --- leak 4: missing sentences are counted, under the same keys, and warned about ---------------------------


@pytest.mark.parametrize("metric", sorted(METRICS))
def test_every_metric_reports_the_same_pairing_counts(metric: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = mrp.score(GOLD, SYSTEM, metric=metric, format="amr")
    assert _counts(result) == {"missing": 2, "unpaired": 1, "duplicates": 1, "invalid": 0, "repaired": 0}
    told = [str(w.message) for w in caught if issubclass(w.category, PairingWarning)]
    assert len(told) == 1
    assert "2 of 3 gold graph(s) without a system graph" in told[0]
    assert "1 system graph(s) without a gold graph" in told[0] and "repeating an id" in told[0]


def test_a_complete_pairing_says_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = mrp.score(GOLD, GOLD, metric="smatch", format="amr")
    assert _counts(result) == dict.fromkeys(COUNTS, 0)


@pytest.mark.parametrize("metric", ["umatch", "smatch", "mrp"])
def test_missing_umr_sentences_are_reported_by_the_command(metric: str) -> None:
    gold = shared_file("data/umr/czech-pdtc/dtest-gold.umr")
    system = shared_file("data/umr/czech-pdtc/pdt-conv.umr")
    done = run_cli("score", ["--score", metric, "--gold", str(gold), str(system)])
    assert done.code == 0, done.err
    out = json.loads(done.out)
    assert out["missing"] == 66 and out["n"] == 91
    assert "66 of 91 gold graph(s) without a system graph" in done.err
    table = run_cli("score", ["--table", "--score", metric, "--gold", str(gold), str(system)])
    assert "pairing: 66 of 91 gold graph(s) without a system graph" in table.out


# --- leak 7: a reused result is keyed on everything the metric reads ----------------------------------------


def test_fingerprint_covers_every_field_but_the_line() -> None:
    from dataclasses import fields, replace

    from mrp.graph import PLACE_FIELDS, Placement, fingerprint

    graph = mrp.read("(w / want-01 :ARG0 (b / boy) :ARG1\n  (g / go-02 :ARG0 b))", format="amr")[0]
    samples = {"id": "x", "framework": "eds", "flavor": 0, "input": "y", "language": "cs", "time": "t",
               "source": "s", "provenance": "p", "targets": ["t"], "version": 1.1, "tops": [], "nodes": [],
               "edges": [], "variables": {0: "q"}, "layout": {}, "breaks": {}, "repairs": ["r"],
               "document": Placement("d", 1)}
    for name in [f.name for f in fields(graph) if f.name not in PLACE_FIELDS]:
        changed = samples[name]  # a new field needs a sample here: then the test shows it is covered
        assert fingerprint(replace(graph, **{name: changed})) != fingerprint(graph), name
    assert fingerprint(replace(graph, line=99)) == fingerprint(graph)


def test_leaderboard_results_do_not_depend_on_the_order_of_the_systems(tmp_path: Any) -> None:
    gold = tmp_path / "gold.amr"
    gold.write_text("# ::id 1\n(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))\n")
    a = tmp_path / "a.amr"
    a.write_text(gold.read_text())
    b = tmp_path / "b.amr"  # a with two line breaks after roles, which AnCast 0.1.1 reads into the roles
    b.write_text("# ::id 1\n(w / want-01 :ARG0\n  (b / boy) :ARG1\n  (g / go-02 :ARG0 b))\n")
    boards = []
    for order in ([a, b], [b, a]):
        done = run_cli("score", ["--score", "ancast", "--ancast-compat", "--gold", str(gold),
                                 *map(str, order)])
        assert done.code == 0, done.err
        boards.append({row["system"]: row["figures"] for row in json.loads(done.out)["systems"]})
    assert boards[0] == boards[1]
    assert boards[0][str(a)] != boards[0][str(b)]
