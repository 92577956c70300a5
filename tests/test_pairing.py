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


def test_a_repaired_system_graph_is_scored_counted_and_refused_with_strict(tmp_path: Path) -> None:
    gold = _write(tmp_path / "gold.amr", GRAPHS)
    broken = [(sentence, graph[:-1] if k == 0 else graph) for k, (sentence, graph) in enumerate(GRAPHS)]
    system = _write(tmp_path / "system.amr", broken)
    repaired = run_cli("score", ["--gold", gold, system])
    assert repaired.code == 0
    assert repaired.err.strip() == (f"{system}:1: graph 0: repaired: closed 1 parenthesis left open at "
                                    "the end of the graph (line 2)")
    out = json.loads(repaired.out)
    assert out["repaired"] == 1 and out["invalid"] == 0 and out["all"]["f"] == 1.0
    strict = run_cli("score", ["--strict", "--gold", gold, system])
    assert strict.code == 0 and "Penman syntax error" in strict.err
    out = json.loads(strict.out)
    assert out["repaired"] == 0 and out["invalid"] == 1 and out["all"]["f"] < 1.0
    assert "|read:strict|" in out["signature"]


def _with_ids(path: Path, graphs: list, ids: list) -> str:
    path.write_text("\n\n".join(f"# ::id {gid}\n{graph}" for gid, (_, graph) in zip(ids, graphs)) + "\n")
    return str(path)


def test_positional_pairs_files_with_different_ids_by_position(tmp_path: Path) -> None:
    gold = _with_ids(tmp_path / "gold.amr", GRAPHS, ["a", "b", "c", "d"])
    system = _with_ids(tmp_path / "system.amr", GRAPHS, ["1", "2", "3", "d"])  # a parser's own ids
    by_id = run_cli("score", ["--score", "smatch", "--gold", gold, system])
    assert by_id.code == 0 and json.loads(by_id.out)["f"] < 0.5  # only "d" pairs by id
    assert "ids_differ" not in json.loads(by_id.out)
    forced = run_cli("score", ["--positional", "--trace", "--score", "smatch", "--gold", gold, system])
    assert forced.code == 0, forced.err
    assert "gold.amr by position (--positional): 3 of 4 graph ids differ" in forced.err
    out = json.loads(forced.out)
    assert out["f"] == 1.0 and out["ids_differ"] == 3 and out["missing"] == out["unpaired"] == 0
    assert list(out["scores"]["amr"]) == ["a", "b", "c", "d"]  # each pair under its gold graph's id
    swapped = _with_ids(tmp_path / "swapped.amr", [GRAPHS[1], GRAPHS[0], *GRAPHS[2:]], ["a", "b", "c", "d"])
    positioned = run_cli("score", ["--positional", "--score", "smatch", "--gold", gold, swapped])
    assert positioned.code == 0 and json.loads(positioned.out)["f"] < 1.0  # position wins over the ids
    assert "ids differ" not in positioned.err and json.loads(positioned.out)["ids_differ"] == 0


def test_positional_refuses_files_with_ids_and_different_counts(tmp_path: Path) -> None:
    gold = _with_ids(tmp_path / "gold.amr", GRAPHS, ["a", "b", "c", "d"])
    short = _with_ids(tmp_path / "short.amr", GRAPHS[:3], ["1", "2", "3"])
    refused = run_cli("score", ["--positional", "--score", "smatch", "--gold", gold, short])
    assert refused.code == 2 and refused.out == ""
    assert "gold.amr has 4 graphs and " in refused.err and "short.amr 3" in refused.err
    assert "Traceback" not in refused.err


def test_positional_is_a_keyword_and_a_scorer_counts_ids_over_batches() -> None:
    import mrp

    gold = [f"# ::id g{k}\n{graph}" for k, (_, graph) in enumerate(GRAPHS)]
    system = [f"# ::id {k + 1}\n{graph}" for k, (_, graph) in enumerate(GRAPHS)]
    result = mrp.score(gold, system, metric="smatch", positional=True)
    assert result.f == 1.0 and result["ids_differ"] == 4
    assert [pair.id for pair in mrp.score(gold, system, metric="smatch", positional=True, trace=True).pairs] \
        == ["g0", "g1", "g2", "g3"]
    scorer = mrp.Scorer("smatch", positional=True)
    scorer.update(gold[:2], system[:2])
    scorer.update(gold[2:], system[2:])
    assert scorer.compute()["ids_differ"] == 4 and scorer.compute().f == 1.0
    assert "ids_differ" not in mrp.score(gold, gold, metric="smatch").to_dict()  # only where asked
