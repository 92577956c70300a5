"""mrp-mtool: mtool's command lines on the shared pairs print mtool's layout and counts, and mrp-score's.

For every reference output in ../shared/reference/mtool the command line that
produced it (``main.py --trace --score M --read R --gold GOLD SYSTEM``, with
``--n 500`` for coli and ``--limit 50`` for the small AMR SMATCH run) is run as
``mrp-mtool``: its keys are mtool's, in mtool's order; per item g and s equal
the reference and c is at least the reference's (mtool's search is a bounded
surrogate, mrp's is exact); and the counts equal those of ``mrp-score`` on
the same pairs.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

import pytest

from conftest import run_cli, shared_path

W = "data/wsj"
P = "data/pairs"
#: reference file -> (metric, --read, gold, system, extra mtool options)
CASES: Dict[str, Tuple[str, str, str, str, List[str]]] = {
    "eds.mrp.json": ("mrp", "mrp", f"{W}/eds/wsj.mrp", f"{P}/eds/wsj.pet.mrp", []),
    "eds.smatch.json": ("smatch", "mrp", f"{W}/eds/wsj.mrp", f"{P}/eds/wsj.pet.mrp", []),
    "eds.edm.json": ("edm", "mrp", f"{W}/eds/wsj.mrp", f"{P}/eds/wsj.pet.mrp", []),
    "coli.mrp.json": ("mrp", "amr", f"{P}/amr/coli.gold.amr", f"{P}/amr/coli.system.amr", ["--n", "500"]),
    "coli.smatch.json": ("smatch", "amr", f"{P}/amr/coli.gold.amr", f"{P}/amr/coli.system.amr",
                         ["--n", "500"]),
    "ucca-test.mrp.json": ("mrp", "mrp", f"{P}/ucca/test.gold.mrp", f"{P}/ucca/test.tupa.mrp", []),
    "ucca-test.ucca.json": ("ucca", "mrp", f"{P}/ucca/test.gold.mrp", f"{P}/ucca/test.tupa.mrp", []),
    "ucca-small.mrp.json": ("mrp", "mrp", f"{P}/ucca/small.gold.mrp", f"{P}/ucca/small.tupa.mrp", []),
    "amrtest.mrp.json": ("mrp", "amr", f"{P}/amr/test1.amr", f"{P}/amr/test2.amr", []),
    "amrtest.smatch.json": ("smatch", "amr", f"{P}/amr/test1.amr", f"{P}/amr/test2.amr", ["--limit", "50"]),
    "amrtestmrp.smatch.json": ("smatch", "mrp", f"{P}/amr/test1.mrp", f"{P}/amr/test2.mrp", []),
    "partial.mrp.json": ("mrp", "mrp", f"{P}/amr/partial.gold.mrp", f"{P}/amr/partial.system.mrp", []),
    "psd107480.mrp.json": ("mrp", "mrp", f"{P}/psd/107480.gold.mrp", f"{P}/psd/107480.foxik.mrp", []),
    "psd107480.sdp.json": ("sdp", "mrp", f"{P}/psd/107480.gold.mrp", f"{P}/psd/107480.foxik.mrp", []),
}
#: items whose g or s a documented difference explains (see test_conformance_mrp and test_smatch)
KNOWN = {
    "coli.smatch.json": {"366": "mtool counts a triple twice that an inverted role duplicates"},
}


def _leaves(value: Any, path: Tuple[str, ...] = ()) -> Dict[Tuple[str, ...], Any]:
    """Every count (g, s, c, m) under a per-item score, by its path."""
    out: Dict[Tuple[str, ...], Any] = {}
    if isinstance(value, dict):
        for key, inner in value.items():
            out.update(_leaves(inner, path + (key,)))
    elif path and path[-1] in ("g", "s", "c", "m"):
        out[path] = value
    return out


def _items(metric: str, scores: Dict[str, Any]) -> Dict[str, Any]:
    if metric == "mrp":
        return {gid: item for items in scores.values() for gid, item in items.items()}
    return scores


def _mtool(name: str) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    shared = shared_path()
    metric, read, gold, system, extra = CASES[name]
    run = run_cli("mtool", ["--trace", "--score", metric, "--read", read, *extra,
                            "--gold", str(shared / gold), str(shared / system)])
    assert run.code == 0, run.err
    return json.loads(run.out), json.loads((shared / "reference/mtool" / name).read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_mtool_command_line_gives_mtool_layout_and_counts(name: str) -> None:
    metric = CASES[name][0]
    ours, reference = _mtool(name)
    assert list(ours) == list(reference)
    assert ours["n"] == reference["n"]
    mine, theirs = _items(metric, ours["scores"]), _items(metric, reference["scores"])
    known = KNOWN.get(name, {})
    assert set(mine) - set(known) == set(theirs) - set(known)
    above = 0
    for gid, ref in theirs.items():
        if gid in known:
            continue
        assert list(mine[gid]) == list(ref), gid
        counts, ref_counts = _leaves(mine[gid]), _leaves(ref)
        assert set(counts) == set(ref_counts), gid
        for path, value in ref_counts.items():
            if path[-1] in ("g", "s"):
                assert counts[path] == value, (gid, path)
        ref_c = sum(v for p, v in ref_counts.items() if p[-1] == "c")
        c = sum(v for p, v in counts.items() if p[-1] == "c")
        assert c >= ref_c, gid
        above += c > ref_c
    print(f"{name}: {above} of {len(theirs)} items above the reference")


#: items of system graphs that mrp-mtool reads as mtool (a duplicate node id) and mrp-score skips
READ_AS_MTOOL = {"ucca-test.ucca.json": {"20003013"}}
#: mrp-score's options for the same runs (mtool reads AMR without :wiki, with WSJ ids, MRP triples)
SCORE_EQUIVALENT = {"amr": ["--no-wiki", "--wsj-ids", "--triples", "mrp"], "mrp": []}


@pytest.mark.parametrize("name", ["eds.mrp.json", "coli.smatch.json", "amrtest.mrp.json",
                                  "ucca-test.ucca.json", "eds.edm.json", "psd107480.sdp.json"])
def test_mtool_counts_equal_mrp_score(name: str) -> None:
    shared = shared_path()
    metric, read, gold, system, extra = CASES[name]
    ours, _ = _mtool(name)
    extra = [x for x in extra if x not in ("--limit", "50")]
    run = run_cli("score", ["--trace", "--score", metric, *SCORE_EQUIVALENT[read], *extra,
                            "--gold", str(shared / gold), str(shared / system)])
    assert run.code == 0, run.err
    score = json.loads(run.out)
    if metric == "mrp":
        score_items = _items("mrp", score["scores"])
    else:
        score_items = {gid: item for items in score["scores"].values() for gid, item in items.items()}
    for gid, item in _items(metric, ours["scores"]).items():
        counts = _leaves(item)
        if gid in READ_AS_MTOOL.get(name, ()):
            # mrp-mtool reads it as mtool does; mrp-score skips it (an empty system graph)
            assert any(v for p, v in counts.items() if p[-1] == "s"), gid
            assert not any(v for p, v in _leaves(score_items[gid]).items() if p[-1] == "s"), gid
            continue
        assert counts == {p: v for p, v in _leaves(score_items[gid]).items() if p in counts}, gid
    for key in ours:
        if key not in ("scores", "time", "cpu") and name not in READ_AS_MTOOL:
            assert ours[key] == score[key], key


def test_mtool_errors_cores_and_dot_pictures(tmp_path) -> None:
    shared = shared_path()
    gold, system = str(shared / f"{W}/eds/wsj.mrp"), str(shared / f"{P}/eds/wsj.pet.mrp")
    errors = tmp_path / "errors.json"
    one = run_cli("mtool", ["--read", "mrp", "--score", "mrp", "--errors", str(errors), "--gold", gold,
                            system])
    assert one.code == 0, one.err
    table = json.loads(errors.read_text())
    # mtool's layout: {framework: {id: ...}}, without the two gold graphs that have no system graph
    assert set(table) == {"eds"} and len(table["eds"]) == 87
    score_errors = tmp_path / "score.json"
    assert run_cli("score", ["--quiet", "--errors", str(score_errors), "--gold", gold, system]).code == 0
    everything = json.loads(score_errors.read_text())["eds"]
    assert table["eds"] == {gid: entry for gid, entry in everything.items() if gid in table["eds"]}
    every = run_cli("mtool", ["--read", "mrp", "--score", "mrp", "--cores", "0", "--gold", gold, system])
    assert json.loads(every.out)["all"] == json.loads(one.out)["all"]
    pictures = tmp_path / "pictures.dot"
    drawn = run_cli("mtool", ["--read", "mrp", "--score", "mrp", "--write", "dot", "--errors", str(pictures),
                              "--gold", gold, system])
    assert drawn.code == 0 and pictures.read_text().count("digraph") == 89  # the gold graphs, as mtool


def test_mtool_writes_and_selects(tmp_path) -> None:
    shared = shared_path()
    gold = str(shared / f"{W}/eds/wsj.mrp")
    ids = run_cli("mtool", ["--read", "mrp", "--write", "id", "--n", "3", gold])
    assert ids.out.split() == ["20001001", "20001002", "20003001"]
    picked = run_cli("mtool", ["--read", "mrp", "--write", "txt", "--i", "1", gold])
    assert picked.out.startswith("20001002\tMr. Vinken is chairman")
    listed = tmp_path / "ids.txt"
    listed.write_text("20003001\tanything\n20001001\n")
    chosen = run_cli("mtool", ["--read", "mrp", "--write", "mrp", "--filter", str(listed), gold])
    assert [json.loads(x)["id"] for x in chosen.out.splitlines()] == ["20001001", "20003001"]
    evaluation = run_cli("mtool", ["--read", "mrp", "--write", "evaluation", "--id", "20001001", gold])
    assert set(json.loads(evaluation.out)) >= {"id", "input"} and "nodes" not in evaluation.out
    out = tmp_path / "one.mrp"
    assert run_cli("mtool", ["--read", "mrp", "--write", "mrp", "--id", "20001001", gold, str(out)]).code == 0
    assert json.loads(out.read_text())["id"] == "20001001"
    text = tmp_path / "text"
    text.mkdir()
    (text / "20001001.txt").write_text("Pierre Vinken, 61 years old, will join the board as a nonexecutive "
                                       "director Nov. 29.\n")
    dm = run_cli("mtool", ["--read", "dm", "--write", "mrp", "--text", str(text), "--id", "20001001",
                           str(shared / f"{W}/dm/wsj.sdp")])
    assert dm.code == 0, dm.err
    assert json.loads(dm.out)["framework"] == "dm" and json.loads(dm.out)["input"].startswith("Pierre")
