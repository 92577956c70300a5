"""--ancast-scope snt|doc (library ``ancast_scope``): AnCast's two scopes on a UMR file with documents, each
against AnCast 0.1.1 / AnCast++ run with that scope (../shared/reference/ancast/czech-pdtc)."""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest

import mrp

from conftest import run_cli, shared_file

TOLERANCE = 1e-6
CZECH = ("pdt", "pdtsc", "pcedt", "dtest")
FIELDS = [(key, side, key + suffix) for key in ("concept", "lrm", "ulrm", "wlrm", "smatch")
          for side, suffix in (("p", "_p"), ("r", "_r"), ("f", ""))]


def _records(name: str) -> List[Dict[str, Any]]:
    with shared_file("reference", "ancast", "czech-pdtc", name).open(encoding="utf-8") as stream:
        return [json.loads(line) for line in stream]


def _score(run: str, **options: Any) -> Any:
    folder = shared_file("data", "umr", "czech-pdtc")
    return mrp.score(str(folder / f"{run}-gold.umr"), str(folder / f"{run}-conv.umr"), "ancast",
                     ancast_compat=True, **options)


def _differences(result: Any, records: List[Dict[str, Any]]) -> List[str]:
    items = [pair.item for pair in result.pairs]
    assert len(items) == len(records)
    return [f"pair {k} {field}: {item[key][side]} != {record[field]}"
            for k, (item, record) in enumerate(zip(items, records)) for key, side, field in FIELDS
            if abs(item[key][side] - record[field]) > TOLERANCE]


@pytest.mark.parametrize("run", CZECH)
def test_sentence_scope(run: str) -> None:
    """``ancast -s snt``: every pair's figures and its printed Sent Micro; no document figures."""
    result = _score(run, ancast_scope="snt")
    assert _differences(result, _records(f"{run}.snt.pairs.jsonl")) == []
    summary = json.loads(shared_file("reference", "ancast", "czech-pdtc", f"{run}.snt.summary.json")
                         .read_text())
    micro = summary["cli_sent_micro_lrm"]
    for side in "prf":
        assert result.document["lrm"][side] == pytest.approx(micro[side], abs=1e-12)
    assert "documents" not in result.document
    assert "scope:snt" in result.signature


@pytest.mark.parametrize("run", CZECH)
def test_document_scope_is_the_default(run: str) -> None:
    """``ancast -s doc`` (AnCast++): every pair, every document (its docsplit runs); the default is doc."""
    result = _score(run, ancast_scope="doc")
    assert _differences(result, _records(f"{run}.doc.pairs.jsonl")) == []
    documents = _records(f"{run}.docsplit.docs.jsonl")
    mine = result.document["documents"]
    found = list(mine["scores"].values())
    assert len(found) == len(documents)
    names = {"sent": "lrm", "modal": "modal", "temporal": "temporal", "coref": "coref",
             "comp": "comprehensive"}
    assert [f"doc {theirs['doc']} {key} {side}" for ours, theirs in zip(found, documents)
            for key, name in names.items() for side in "prf"
            if abs(ours[name][side] - theirs[key][side]) > TOLERANCE] == []
    default = _score(run)
    assert default.document["lrm"] == result.document["lrm"]
    assert default.document["documents"] == mine


def test_scopes_differ_where_anchors_do() -> None:
    """dtest: AnCast's sentence F is 29.69 at snt scope and 28.83 at doc scope (its anchors differ)."""
    assert round(100 * _score("dtest", ancast_scope="snt").document["lrm"]["f"], 2) == 29.69
    assert round(100 * _score("dtest", ancast_scope="doc").document["lrm"]["f"], 2) == 28.83


def test_unknown_scope_refused() -> None:
    with pytest.raises(ValueError, match="ancast_scope='sentence': must be one of 'snt', 'doc'"):
        mrp.score("(a / a)", "(a / a)", "ancast", format="amr", gold_format="amr", ancast_scope="sentence")


def test_command_line() -> None:
    folder = shared_file("data", "umr", "czech-pdtc")
    done = run_cli("score", ["--score", "ancast", "--ancast-compat", "--ancast-scope", "snt",
                             "--gold", str(folder / "pdt-gold.umr"), str(folder / "pdt-conv.umr")])
    assert done.code == 0, done.err
    out = json.loads(done.out)
    summary = json.loads(shared_file("reference", "ancast", "czech-pdtc", "pdt.snt.summary.json").read_text())
    assert out["lrm"]["f"] == pytest.approx(summary["cli_sent_micro_lrm"]["f"], abs=1e-12)
    assert "documents" not in out
