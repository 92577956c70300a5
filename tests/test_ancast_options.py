"""AnCast's other options as parameters of the ``ancast`` metric, against AnCast 0.1.1 run with them
(tests/data/ancast/options.json; tests/ancast_options.py made it): ``--ancast-cneighbor`` (``-c``) and
``--ancast-separate-1-and-2`` per pair under ``--ancast-compat``, ``--ancast-no-smatch-top``
(``--use-smatch-top false``) per pair, ``--ancast-weighted snts|toks`` (``--weighted``) for AnCast++'s mean
over documents, and ``--ancast-allow-reify`` (``--allow-reify``, which changes no figure of AnCast 0.1.1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest
from ancast_options import DOC_RUNS, NO_EFFECT, RUNS
from test_ancast_umr import _pairing

from mrp.corpora.load import read_corpus
from mrp.engine.options import Options
from mrp.errors import MRPError
from mrp.graph import Graph
from mrp.metrics.ancast import score_pair
from mrp.metrics.ancast.metric import METRIC
from mrp.metrics.registry import evaluate

from conftest import run_cli, shared_file, timeless

REFERENCE = json.loads((Path(__file__).parent / "data" / "ancast" / "options.json").read_text(
    encoding="utf-8"))
TOLERANCE = 1e-6
NAMES = {"sent": "lrm", "modal": "modal", "temporal": "temporal", "coref": "coref", "comp": "comprehensive"}


def _graphs(form: str, path: str) -> List[Graph]:
    return read_corpus(str(shared_file(*path.split("/"))), form).graphs


def _differences(run: str, parameters: Dict[str, Any]) -> List[str]:
    form, test, gold, _, _ = RUNS[run]
    system, gold_graphs = _graphs(form, test), _graphs(form, gold)
    options = Options(ancast_compat=True, ancast_scope="snt", **parameters)
    found = []
    for record in REFERENCE["pairs"][run]:
        k = record["pair"]
        item = score_pair(gold_graphs[k], system[k], options).item
        for key in ("concept", "lrm", "ulrm", "wlrm", "smatch"):
            for side, suffix in (("p", "_p"), ("r", "_r"), ("f", "")):
                if abs(item[key][side] - record[key + suffix]) > TOLERANCE:
                    found.append(f"{run} pair {k} {key} {side}: {item[key][side]} != {record[key + suffix]}")
    return found


@pytest.mark.parametrize("run", sorted(RUNS))
def test_pairs_as_ancast_with_the_option(run: str) -> None:
    assert not _differences(run, RUNS[run][4])


@pytest.mark.parametrize("run", ["amr.notop", "pdt.c2", "pdt.c0", "pdt.sep", "pcedt.sep", "amr.sc5",
                                 "pdt.sc5", "pdt.sc0"])
def test_the_option_changes_the_figures(run: str) -> None:
    """Without the option the same pairs give other figures (the references test the option)."""
    assert _differences(run, {})


@pytest.mark.parametrize("name", sorted(DOC_RUNS))
def test_document_scope_as_ancast_with_the_option(name: str) -> None:
    """--ancast-use-alignment: AnCast++'s anchors from the alignments, per pair and per document."""
    run = "samples" if name.startswith("samples") else name.split(".")[0]
    expected = REFERENCE["documents"][name]
    inert = set(DOC_RUNS[name][3]) <= NO_EFFECT
    for parameters, same in ((DOC_RUNS[name][3], True), ({}, inert)):
        result, _ = evaluate("ancast", _pairing(run), Options(ancast_compat=True, trace=True, **parameters))
        items = list(result["scores"]["umr"].values())
        assert len(items) == len(expected["pairs"])
        found = [abs(item[key][side] - record[key + suffix]) <= TOLERANCE
                 for item, record in zip(items, expected["pairs"])
                 for key in ("concept", "lrm", "ulrm", "wlrm", "smatch")
                 for side, suffix in (("p", "_p"), ("r", "_r"), ("f", ""))]
        documents = list(result["documents"]["scores"].values())
        found += [abs(mine[ours]["f"] - theirs[key]) <= TOLERANCE for mine, theirs in zip(documents, expected[
            "documents"]) for key, ours in NAMES.items()]
        assert all(found) if same else not all(found)


@pytest.mark.parametrize("name", sorted(REFERENCE["weighted"]))
def test_weighted_mean_over_documents_as_ancast(name: str) -> None:
    run, by = name.split(".")
    options = Options(ancast_compat=True, ancast_weighted=by)
    result, _ = evaluate("ancast", _pairing(run), options)
    weighted = result["documents"]["weighted"]
    assert weighted["by"] == by
    for key, ours in NAMES.items():
        assert weighted[ours] == pytest.approx(REFERENCE["weighted"][name][key], abs=1e-9), key
    assert result["documents"]["macro"]["lrm"] != pytest.approx(weighted["lrm"], abs=1e-6)


def test_the_exact_mode_takes_the_options_that_concern_it() -> None:
    """Cneighbor steers AnCast's heuristic alone; the TOP triple and the weighting count in both modes."""
    form, test, gold, _, _ = RUNS["amr.notop"]
    system, gold_graphs = _graphs(form, test), _graphs(form, gold)
    plain = score_pair(gold_graphs[0], system[0], Options()).item
    assert score_pair(gold_graphs[0], system[0], Options(ancast_cneighbor=3)).item == plain
    no_top = score_pair(gold_graphs[0], system[0], Options(ancast_no_smatch_top=True)).item
    assert no_top["smatch"] != plain["smatch"] and no_top["lrm"] == plain["lrm"]
    result, _ = evaluate("ancast", _pairing("pdt"), Options(ancast_weighted="snts"))
    assert result["documents"]["weighted"]["by"] == "snts"


@pytest.mark.parametrize("coefficient", [0.5, 0.25])
def test_the_exact_mode_with_a_sense_coefficient(coefficient: float) -> None:
    """The optimum under another sense coefficient: proved with exact weights where 10 (1 - X) is whole,
    with rounded ones (and said so) otherwise; never below AnCast's alignment under the same coefficient."""
    form, test, gold, _, _ = RUNS["pdt.sc5"]
    system, gold_graphs = _graphs(form, test), _graphs(form, gold)
    for k in range(5):
        mine = score_pair(gold_graphs[k], system[k],
                          Options(ancast_sense_coefficient=coefficient))
        theirs = score_pair(gold_graphs[k], system[k], Options(
            ancast_compat=True, ancast_sense_coefficient=coefficient))
        assert mine.item.get("rounded", False) == (coefficient == 0.25)
        assert mine.precision.lr >= theirs.precision.lr - 1e-6
        assert mine.exact or coefficient == 0.25


#: the runs with --allow-reify -> AnCast's own run of the same pairs without it (the shared reference)
WITHOUT = {"amr.reify": "samples/amr.snt", "umr.reify": "samples/umr.snt", "pdt.reify": "czech-pdtc/pdt.snt",
           "samples.reify": "samples/umr.doc", "pdt.reify.doc": "czech-pdtc/pdt.docsplit"}


def _lines(run: str, kind: str) -> List[Dict[str, Any]]:
    path = shared_file("reference", "ancast", *f"{run}.{kind}.jsonl".split("/"))
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("run", sorted(WITHOUT))
def test_allow_reify_changes_no_figure_of_ancast(run: str) -> None:
    """AnCast 0.1.1's figures with --allow-reify are its figures without it, per pair and per document:
    its tables are loaded, never applied (mrp.metrics.ancast.knobs); so are mrp's, in both modes."""
    without = WITHOUT[run]
    documents = run.endswith(".doc") or run.startswith("samples")
    name = run[:-4] if run.endswith(".doc") else run
    pairs = (REFERENCE["documents"][name]["pairs"] if documents else REFERENCE["pairs"][name])
    theirs = [r for r in _lines(without, "pairs") if "skipped" not in r]
    assert len(pairs) == len(theirs) > 0
    for mine, record in zip(pairs, theirs):
        assert all(abs(mine[k] - record[k]) <= 1e-12 for k in mine if k != "pair"), (run, mine["pair"])
    if documents:
        for mine, record in zip(REFERENCE["documents"][name]["documents"], _lines(without, "docs")):
            assert all(abs(mine[key] - record[key]["f"]) <= 1e-12 for key in NAMES), run


def test_allow_reify_in_the_exact_mode_and_the_signature() -> None:
    form, test, gold, _, _ = RUNS["umr.reify"]
    system, gold_graphs = _graphs(form, test), _graphs(form, gold)
    for k in range(len(system)):
        plain = score_pair(gold_graphs[k], system[k], Options()).item
        assert score_pair(gold_graphs[k], system[k], Options(ancast_allow_reify=True)).item == plain
    for compat in (False, True):
        plain, _ = evaluate("ancast", _pairing("samples"), Options(ancast_compat=compat, trace=True))
        reify, _ = evaluate("ancast", _pairing("samples"), Options(ancast_compat=compat, trace=True,
                                                                   ancast_allow_reify=True))
        assert timeless(reify) == timeless(plain)
    assert "reify:none" in METRIC.signature_fields(Options(ancast_allow_reify=True))
    assert not any("reify" in field for field in METRIC.signature_fields(Options()))


ANCAST_PYTHON = os.environ.get("ANCAST_PYTHON")  # a Python with ancast 0.1.1 (pip install ancast==0.1.1)


@pytest.mark.parametrize("scope,form", [("snt", "amr"), ("snt", "umr"), ("doc", "umr")])
def test_ancast_itself_with_and_without_allow_reify(tmp_path: Path, scope: str, form: str) -> None:
    """Development test: AnCast 0.1.1's command line gives the same CSV with --allow-reify as without, on
    its samples (which hold :name, :mod, :temporal, :purpose..., roles its tables would reify)."""
    if not ANCAST_PYTHON:
        pytest.skip("ANCAST_PYTHON does not name a Python with ancast 0.1.1 (pip install ancast==0.1.1)")
    test = shared_file("data", "umr", "ancast-samples", f"{form}_test.txt")
    gold = shared_file("data", "umr", "ancast-samples", f"{form}_gold.txt")
    found = []
    for flags in ([], ["--allow-reify"]):
        out = tmp_path / f"out{len(flags)}.csv"
        subprocess.run([ANCAST_PYTHON, "-m", "ancast", "-p", str(test), "-g", str(gold), "-s", scope, "-df",
                        form, *flags, "-o", str(out)], cwd=tmp_path, capture_output=True, timeout=600,
                       env=dict(os.environ, PYTHONHASHSEED="0"))
        found.append(out.read_bytes())
    assert found[0] == found[1] and found[0]


def test_command_line_flags_and_signature() -> None:
    gold = str(shared_file("data", "umr", "ancast-samples", "amr_gold.txt"))
    test = gold  # the samples' ids differ between the files; the flags are what is tested
    done = run_cli("score", ["--score", "ancast", "--ancast-compat", "--ancast-cneighbor", "2",
                             "--ancast-no-smatch-top", "--ancast-allow-reify", "--format", "amr", "--gold",
                             gold, test])
    assert done.code == 0, done.err
    assert "c:2" in done.out and "top:no" in done.out and "reify:none" in done.out
    for flags in (["--ancast-weighted", "words"], ["--ancast-sense-coefficient", "1.5"],
                  ["--ancast-cneighbor", "-1"]):
        bad = run_cli("score", ["--score", "ancast", *flags, "--gold", gold, test])
        assert bad.code == 2 and "Traceback" not in bad.err, flags
    with pytest.raises(MRPError):
        evaluate("ancast", _pairing("pdt"), Options(ancast_weighted="words"))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
