"""Pairing files whose graphs have no ids: never silently misaligned."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli, shared_file

GRAPHS = [
    ("The boy wants to go.", "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))"),
    ("The girl sleeps.", "(s / sleep-01 :ARG0 (g / girl))"),
    ("It rains.", "(r / rain-01)"),
    ("Dogs bark loudly.", "(b / bark-01 :ARG0 (d / dog) :manner (l / loud))"),
]


def _write(path: Path, graphs: list, snt: bool = True) -> str:
    blocks = []
    for sentence, graph in graphs:
        blocks.append((f"# ::snt {sentence}\n" if snt else "") + graph)
    path.write_text("\n\n".join(blocks) + "\n")
    return str(path)


def test_different_counts_without_ids_are_refused(tmp_path: Path) -> None:
    blocks = shared_file("data/pairs/amr/coli.system.amr").read_text().split("\n\n")
    missing = tmp_path / "missing.amr"
    missing.write_text("\n\n".join(blocks[:5] + blocks[6:]))
    gold = str(shared_file("data/pairs/amr/coli.gold.amr"))
    refused = run_cli("score", ["--format", "amr", "--score", "smatch", "--gold", gold, str(missing)])
    assert refused.code == 2 and refused.out == ""
    assert "has 1368 graphs" in refused.err and "1367" in refused.err and "--positional" in refused.err
    forced = run_cli("score", ["--positional", "--format", "amr", "--score", "smatch", "--gold", gold,
                               str(missing)])
    assert forced.code == 0
    assert "paired by position (--positional)" in forced.err
    assert json.loads(forced.out)["f"] < 0.5  # the misalignment the refusal protects from


def test_graphs_without_ids_pair_by_their_sentences(tmp_path: Path) -> None:
    gold = _write(tmp_path / "gold.amr", GRAPHS)
    whole = _write(tmp_path / "whole.amr", GRAPHS)
    gap = _write(tmp_path / "gap.amr", GRAPHS[:1] + GRAPHS[2:])
    same = run_cli("score", ["--trace", "--gold", gold, whole])
    assert same.code == 0 and same.err == ""
    assert json.loads(same.out)["all"]["f"] == 1.0
    result = run_cli("score", ["--trace", "--gold", gold, gap])
    assert result.code == 0, result.err
    assert "gold.amr by their sentences (::snt): 3 of 4 gold graphs found, 2 not at their " \
           "position" in result.err
    out = json.loads(result.out)
    items = out["scores"]["amr"]
    assert items["1"]["null"] is True
    for k in ("0", "2", "3"):
        assert items[k]["all"]["c"] == items[k]["all"]["g"] == items[k]["all"]["s"] > 0


def test_equal_counts_without_ids_pair_by_position_quietly(tmp_path: Path) -> None:
    gold = _write(tmp_path / "gold.amr", GRAPHS, snt=False)
    system = _write(tmp_path / "system.amr", GRAPHS, snt=False)
    result = run_cli("score", ["--gold", gold, system])
    assert result.code == 0 and result.err == ""
    assert json.loads(result.out)["all"]["f"] == 1.0
