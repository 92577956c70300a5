"""Rematch (``--score rematch``): motifs of hand-made graphs, the testbed generator, and Rematch's own
scores of the 2,000 testbed pairs (../shared/reference/rematch).

Rematch's PropBank-to-VerbAtlas table has no licence and is not shipped: the test against every testbed
pair needs a checkout of osome-iu/Rematch-RARE named by ``REMATCH_DIR`` (its
``methods/rematch/pb2va.json``) and is skipped without it; the pairs whose graphs have no PropBank frame
(where the table cannot matter) are checked without it.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import List, Optional

import numpy as np
import pytest

import mrp
from mrp.errors import MRPError
from mrp.metrics.rematch import jaccard, motifs

from conftest import ROOT, run_cli, shared_file

sys.path.insert(0, str(ROOT / "bench"))
import testbed  # noqa: E402

GRAPH = ('(w / want-01 :ARG0 (b / boy :polarity -) :ARG1-of (x / Xx) :op1 top :op2 "top" :mod 5 '
         ':name "New York")')


def frames_file() -> Optional[Path]:
    """Rematch's pb2va.json from $REMATCH_DIR, or None."""
    where = os.environ.get("REMATCH_DIR")
    path = Path(where) / "methods" / "rematch" / "pb2va.json" if where else None
    return path if path is not None and path.exists() else None


@pytest.mark.parametrize("compat", [False, True])
def test_motifs_follow_the_smatch_tools_reading(compat: bool) -> None:
    graph = mrp.read(GRAPH, format="amr")[0]
    name = "new" if compat else "new york"  # Rematch's reader keeps a quoted value's first word
    want = [("want-01", ("op2", "top")), ("want-01", ("name", name))]
    expected = {("op2", "top"), ("name", name), ("polarity", "-"), *want, ("boy", ("polarity", "-")),
                ("xx",)}
    expected |= {(m, "ARG0", ("boy", ("polarity", "-"))) for m in want}  # roles keep their case
    expected |= {(("xx",), "ARG1", m) for m in want}  # ARG1-of restored; :mod 5 and unquoted top lost
    assert motifs(graph, compat=compat) == expected


def test_quoted_constants_with_spaces_kept_whole_and_as_rematch_reads_them() -> None:
    """mrp keeps ``:mode "b c"`` whole; Rematch's reader keeps "b", and beside a node ``b`` reads a relation
    to it (a constant lost, a relation gained); ``--rematch-compat`` reproduces that, and Rematch's own
    scores of hand-made pairs (tests/data/rematch/quoted.*, made by Rematch itself)."""
    one, two = '(s / say-01 :mode "b c" :ARG0 (b / boy))', '(s / say-01 :mode b :ARG0 (b / boy))'
    default = mrp.score(one, two, metric="rematch", format="amr").pairs[0].item["rematch"]
    compat = mrp.score(one, two, metric="rematch", format="amr", rematch_compat=True)
    assert default == pytest.approx(1 / 7)  # a constant against a relation: only (boy) shared
    assert compat.pairs[0].item["rematch"] == 1.0  # as Rematch: the constant became the relation
    assert "|compat|" in compat.signature
    data = ROOT / "tests" / "data" / "rematch"
    stored = json.loads((data / "quoted.scores.json").read_text())["scores"]
    result = mrp.score(str(data / "quoted.a.amr"), str(data / "quoted.b.amr"), metric="rematch", format="amr",
                       rematch_compat=True)
    assert [pair.item["rematch"] for pair in result.pairs] == stored
    plain = mrp.score(str(data / "quoted.a.amr"), str(data / "quoted.b.amr"), metric="rematch", format="amr")
    assert [pair.item["rematch"] for pair in plain.pairs] != stored


def test_frames_generalise_concepts(tmp_path: Path) -> None:
    table = tmp_path / "pb2va.json"
    table.write_text(json.dumps({"want-01": {"label": "desire", "ARG0": "agent"}}))
    gold = mrp.read("(w / want-01 :ARG0 (b / boy))", format="amr")
    system = mrp.read("(w / desire-01 :ARG0 (b / boy))", format="amr")
    plain = mrp.score(gold, system, metric="rematch")
    assert plain["rematch"] == jaccard(1, 5)  # boy shared; want-01, desire-01 and their relation not
    general = mrp.score(gold, system, metric="rematch", rematch_frames=str(table))
    assert general.pairs[0].item["motifs"]["g"] == 3 and general["rematch"] == jaccard(1, 5)
    same = mrp.score(gold, mrp.read("(d / desire :ARG0 (b / boy))", format="amr"), metric="rematch",
                     rematch_frames=str(table))
    assert same["rematch"] == 1.0 and same.signature.split("|")[2].startswith("frames:")
    assert "frames:none" in plain.signature


def test_bad_frames_file_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"want-01": 3}')
    graphs = mrp.read("(w / want-01)", format="amr")
    for path in (str(bad), str(tmp_path / "missing.json")):
        with pytest.raises(MRPError, match="rematch_frames="):
            mrp.score(graphs, graphs, metric="rematch", rematch_frames=path)


def test_rematch_from_the_command_line_and_the_matrix(tmp_path: Path) -> None:
    a, b = tmp_path / "a.amr", tmp_path / "b.amr"
    a.write_text("(w / want-01 :ARG0 (b / boy))\n\n(d / dog)\n")
    b.write_text("(w / want-01 :ARG0 (g / girl))\n\n(d / dog)\n")
    run = run_cli("score", ["--score", "rematch", "--gold", str(a), str(b), "--trace"])
    assert run.code == 0, run.err
    result = json.loads(run.out)
    assert result["n"] == 2 and result["rematch"] == jaccard(2, 6) and result["mean"] == (0.2 + 1.0) / 2
    matrix = mrp.similarity(str(a), metric="rematch")
    assert matrix.f.shape == (2, 2) and matrix.f[0, 1] == 0.0 and np.all(np.diag(matrix.f) == 1.0)
    out = tmp_path / "m.npz"
    run = run_cli("similarity", ["--metric", "rematch", str(a), "--other", str(b), "--output", str(out)])
    assert run.code == 0, run.err
    assert np.load(out)["f"][0, 0] == 0.2
    table = tmp_path / "pb2va.json"
    table.write_text(json.dumps({"want-01": {"label": "desire"}}))
    out.unlink()
    run = run_cli("similarity", ["--metric", "rematch", "--rematch-frames", str(table), str(a), "--output",
                                 str(out), "--quiet"])
    assert run.code == 0, run.err
    assert np.load(out)["f"][0, 0] == 1.0
    picked, report = tmp_path / "picked.amr", tmp_path / "report.json"
    run = run_cli("ensemble", ["--metric", "rematch", "--output", str(picked), "--report", str(report),
                               str(a), str(b), str(a)])
    assert run.code == 0, run.err
    assert json.loads(report.read_text())["chosen"] == [2, 0, 0]  # sentences won per system


def test_testbed_generator_reproduces_the_shared_testbed() -> None:
    amr = shared_file("data", "pairs", "amr")
    texts = testbed.collection([str(amr / "coli.gold.amr"), str(amr / "coli.system.amr")])
    assert len(texts) == 2736
    first, second = testbed.testbed(texts, 2000, seed=0)
    reference = shared_file("reference", "rematch")
    assert first == (reference / "testbed-2k.a.amr").read_text()
    assert second == (reference / "testbed-2k.b.amr").read_text()
    assert all(i < j for i, j in testbed.pairs(len(texts), 500, seed=3))


def _scores(frames: Optional[Path], compat: bool = False) -> List[float]:
    reference = shared_file("reference", "rematch")
    result = mrp.score(str(reference / "testbed-2k.a.amr"), str(reference / "testbed-2k.b.amr"),
                       metric="rematch", format="amr", rematch_frames=str(frames) if frames else None,
                       rematch_compat=compat)
    return [pair.item["rematch"] for pair in result.pairs]


def test_pairs_without_frames_equal_rematch() -> None:
    """Where neither graph has a concept of the form ``lemma-NN``, the VerbAtlas table cannot matter."""
    reference = shared_file("reference", "rematch")
    stored = json.loads((reference / "testbed-2k.scores.json").read_text())["scores"]
    a = mrp.read(str(reference / "testbed-2k.a.amr"), format="amr")
    b = mrp.read(str(reference / "testbed-2k.b.amr"), format="amr")
    frame = re.compile(r"-\d+$")
    free = [k for k in range(len(stored))
            if not any(frame.search(str(node.label)) for graph in (a[k], b[k]) for node in graph.nodes)]
    assert len(free) >= 10
    ours = _scores(None)
    assert [ours[k] for k in free] == [stored[k] for k in free]


def test_every_testbed_pair_equals_rematch() -> None:
    frames = frames_file()
    if frames is None:
        pytest.skip("REMATCH_DIR does not name a checkout of osome-iu/Rematch-RARE (its pb2va.json has no "
                    "licence and is not shipped)")
    stored = json.loads(shared_file("reference", "rematch", "testbed-2k.scores.json").read_text())["scores"]
    ours = _scores(frames)
    assert len(ours) == len(stored) == 2000
    assert ours == stored  # the same integers divided: the same floats
    assert _scores(frames, compat=True) == stored
    assert _scores(None) != stored  # the reference used the table (Rematch's default)


@pytest.mark.parametrize("text", ['{"a": ' * 100_000 + '1' + '}' * 100_000,
                                  '{"a": {"label": ' + '[' * 500 + ']' * 500 + '}}',
                                  '[' * 100_000 + ']' * 100_000])
def test_a_deeply_nested_frame_table_is_refused_naming_the_file(tmp_path: Path, text: str) -> None:
    """Issue 61, item 6: a frame table nested 100,000 deep gave "rematch: cannot load the solver:
    RecursionError"; it is refused in one line naming the option and the file, as is one nested beyond
    the option files' depth (mrp.io.option_files)."""
    path = tmp_path / "deep.json"
    path.write_text(text)
    graphs = mrp.read("(w / want-01 :ARG0 (b / boy))", format="amr")
    with pytest.raises(MRPError, match=f"^(--rematch-frames|rematch_frames=...) {path}: nested too deeply"):
        mrp.score(graphs, graphs, "rematch", rematch_frames=str(path))
    amr = tmp_path / "g.amr"
    amr.write_text("(w / want-01 :ARG0 (b / boy))\n")
    done = run_cli("score", ["--score", "rematch", "--rematch-frames", str(path), "--gold", str(amr),
                             str(amr)])
    assert done.code == 2 and "Traceback" not in done.err and done.out == ""
    lines = done.err.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "nested too deeply" in lines[0], done.err


def test_option_files_are_read_within_a_size(tmp_path: Path) -> None:
    from mrp.errors import InputError
    from mrp.io.option_files import read_option_bytes, read_option_json

    path = tmp_path / "big.json"
    path.write_text("[" + "1," * 1000 + "1]")
    with pytest.raises(InputError, match=f"^--x {path}: larger than 100 bytes"):
        read_option_bytes(str(path), "--x", limit=100)
    assert len(read_option_json(str(path), "--x")) == 1001
    with pytest.raises(InputError, match="not a regular file"):
        read_option_bytes(str(tmp_path), "--x")


def test_perturbed_wsj_compat_equals_rematch_on_every_pair(tmp_path: Path) -> None:
    """Quoted constants rewritten at random in the shared wsj.amr (tests/data/rematch/perturb_wsj.py):
    ``--rematch-compat`` gives Rematch's own score on every pair; mrp's default keeps the constants whole."""
    sys.path.insert(0, str(ROOT / "tests" / "data" / "rematch"))
    import perturb_wsj  # noqa: PLC0415 - the generator beside its data

    one, two = perturb_wsj.perturbed(shared_file("data", "wsj", "amr", "wsj.amr").read_text(encoding="utf-8"))
    (tmp_path / "a.amr").write_text(one, encoding="utf-8")
    (tmp_path / "b.amr").write_text(two, encoding="utf-8")
    stored = json.loads((ROOT / "tests" / "data" / "rematch" / "perturbed.scores.json").read_text())["scores"]

    def scores(compat: bool) -> List[float]:
        result = mrp.score(str(tmp_path / "a.amr"), str(tmp_path / "b.amr"), metric="rematch", format="amr",
                           rematch_compat=compat)
        return [pair.item["rematch"] for pair in result.pairs]

    assert len(stored) == 100
    assert scores(True) == stored
    assert sum(ours != theirs for ours, theirs in zip(scores(False), stored)) > 10
