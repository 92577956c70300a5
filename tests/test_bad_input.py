"""Bad input: one clear line per problem, the documented exit status, never a traceback."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from conftest import run_cli

GOOD = {"id": "g1", "framework": "eds", "input": "a b", "tops": [0],
        "nodes": [{"id": 0, "label": "a", "anchors": [{"from": 0, "to": 1}]},
                  {"id": 1, "label": "b", "anchors": [{"from": 2, "to": 3}]}],
        "edges": [{"source": 0, "target": 1, "label": "ARG1"}]}
OTHER = dict(GOOD, id="g2")

#: (bad line, graph id in the message or None, words the message must contain)
CASES = {
    "invalid-json": (b'{"id": "bad", "nodes": [', None, "invalid JSON"),
    "not-an-object": (b'[1, 2, 3]', None, "not a JSON object"),
    "missing-id": (json.dumps({"framework": "eds", "nodes": []}).encode(), None, "no 'id'"),
    "nodes-not-list": (json.dumps({"id": "bad", "framework": "eds", "nodes": {"id": 0}}).encode(),
                       "bad", "'nodes' is not a list"),
    "node-without-id": (json.dumps({"id": "bad", "framework": "eds", "nodes": [{"label": "x"}]}).encode(),
                        "bad", "node 0 has no 'id'"),
    "duplicate-node": (json.dumps({"id": "bad", "framework": "eds",
                                   "nodes": [{"id": 1}, {"id": 1}]}).encode(), "bad", "duplicate node id 1"),
    "dangling-edge": (json.dumps({"id": "bad", "framework": "eds", "nodes": [{"id": 0}],
                                  "edges": [{"source": 0, "target": 5}]}).encode(), "bad",
                      "target 5 names no node"),
    "dangling-top": (json.dumps({"id": "bad", "framework": "eds", "tops": [9],
                                 "nodes": [{"id": 0}]}).encode(), "bad", "top 9 names no node"),
    "not-utf8": (b'{"id": "bad", "framework": "eds", "input": "caf\xe9"}', None, "not valid UTF-8"),
}


def _write(path: Path, lines) -> Path:
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_system_line_is_reported_counted_and_scored_empty(case: str, tmp_path: Path) -> None:
    bad, gid, words = CASES[case]
    gold = _write(tmp_path / "gold.mrp", [json.dumps(GOOD).encode(), json.dumps(OTHER).encode()])
    system = _write(tmp_path / "system.mrp", [json.dumps(GOOD).encode(), bad])
    result = run_cli("score", ["--gold", str(gold), str(system)])
    assert "Traceback" not in result.err
    assert result.code == 0, result.err
    # the unreadable graph's line, and where its id is known (and not the other gold graph's), one line of
    # pairing counts: the other gold graph has no system graph
    lines = [line for line in result.err.splitlines() if line and "paired with" not in line]
    assert len(lines) == 1, result.err
    assert ("1 of 2 gold graph(s) without a system graph" in result.err) == (gid is not None)
    prefix = f"{system}:2: " + (f"graph {gid}: " if gid else "")
    assert lines[0].startswith(prefix), lines[0]
    assert words in lines[0]
    score = json.loads(result.out)
    assert score["invalid"] == 1 and score["missing"] == (1 if gid else 0)
    assert score["n"] == 2 and score["null"] == 1
    assert score["all"]["c"] == score["all"]["s"] < score["all"]["g"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_gold_line_is_fatal(case: str, tmp_path: Path) -> None:
    bad, gid, words = CASES[case]
    gold = _write(tmp_path / "gold.mrp", [json.dumps(GOOD).encode(), bad])
    system = _write(tmp_path / "system.mrp", [json.dumps(GOOD).encode()])
    result = run_cli("score", ["--gold", str(gold), str(system)])
    assert "Traceback" not in result.err
    assert result.code == 2
    assert result.out == ""
    first = result.err.splitlines()[0]
    assert first.startswith(f"{gold}:2: " + (f"graph {gid}: " if gid else "")) and words in first
    assert "nothing scored" in result.err


def test_duplicate_gold_id_is_fatal(tmp_path: Path) -> None:
    gold = _write(tmp_path / "gold.mrp", [json.dumps(GOOD).encode(), json.dumps(GOOD).encode()])
    result = run_cli("score", ["--gold", str(gold), str(gold)])
    assert result.code == 2 and "graph g1: duplicate graph id (first at line 1)" in result.err


def test_duplicate_and_unpaired_system_graphs_are_counted(tmp_path: Path) -> None:
    gold = _write(tmp_path / "gold.mrp", [json.dumps(GOOD).encode()])
    extra = dict(GOOD, id="zzz")
    system = _write(tmp_path / "system.mrp", [json.dumps(GOOD).encode(), json.dumps(GOOD).encode(),
                                              json.dumps(extra).encode()])
    result = run_cli("score", ["--gold", str(gold), str(system)])
    assert result.code == 0
    score = json.loads(result.out)
    assert score["duplicates"] == 1 and score["unpaired"] == 1 and score["all"]["f"] == 1.0
    assert "graph g1: duplicate id; not scored" in result.err
    assert "graph zzz: no gold graph; not scored" in result.err


def _unusable(tmp_path: Path):
    empty = tmp_path / "empty.mrp"
    empty.write_bytes(b"")
    blank = tmp_path / "blank.mrp"
    blank.write_bytes(b"\n  \n\t\n")
    zipped = tmp_path / "graphs.mrp"
    zipped.write_bytes(gzip.compress(json.dumps(GOOD).encode()))
    return {
        "empty": (empty, "holds no graphs"),
        "blank": (blank, "holds no graphs"),
        "missing": (tmp_path / "nope.mrp", "no such file"),
        "directory": (tmp_path, "is a directory"),
        "gzip": (zipped, "gzip-compressed"),
    }


@pytest.mark.parametrize("case", ["empty", "blank", "missing", "directory", "gzip"])
@pytest.mark.parametrize("role", ["gold", "system"])
def test_unusable_files(case: str, role: str, tmp_path: Path) -> None:
    path, words = _unusable(tmp_path)[case]
    good = _write(tmp_path / "good.mrp", [json.dumps(GOOD).encode()])
    args = ["--gold", str(path), str(good)] if role == "gold" else ["--gold", str(good), str(path)]
    result = run_cli("score", args)
    assert result.code == 2
    assert result.out == ""
    assert "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert result.err.startswith("mrp-score: ") and words in result.err


def test_convert_reports_and_skips_bad_lines(tmp_path: Path) -> None:
    source = _write(tmp_path / "in.mrp", [json.dumps(GOOD).encode(), b"{oops", json.dumps(OTHER).encode()])
    out = tmp_path / "out.mrp"
    result = run_cli("convert", ["--from", "mrp", "--to", "mrp", str(source), str(out)])
    assert result.code == 1
    assert f"{source}:2: invalid JSON" in result.err and "1 graph(s) skipped" in result.err
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["g1", "g2"]


def test_unknown_metric_and_format(tmp_path: Path) -> None:
    good = _write(tmp_path / "good.mrp", [json.dumps(GOOD).encode()])
    result = run_cli("score", ["--score", "bleu", "--gold", str(good), str(good)])
    assert result.code == 2 and "unknown metric 'bleu'" in result.err
    result = run_cli("score", ["--format", "xml", "--gold", str(good), str(good)])
    assert result.code == 2 and "unknown format 'xml'" in result.err
