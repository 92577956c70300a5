"""What the one pipeline gives every door (issue 41, leaks 4-8 and 10; issue 42, items 8 and 10; issue 60):
one pairing and its counts and warnings, one input-resolution rule, one pairing of files by name, reuse
keyed on every field; each checked through the doors that show it (the library, the commands)."""

from __future__ import annotations

import json
import warnings
from typing import Any, Dict

import pytest

import mrp
from mrp.engine.pairing import COUNTS, PairingWarning
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
               "document": Placement("d", 1), "written": ("# ::id x", "(w / want-01)", "digest"),
               "assigned_id": "7"}
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


# --- leak 8: one input-resolution rule ----------------------------------------------------------------------


@pytest.mark.parametrize(("name", "expected"), [
    ("data/pairs/smatch/test_input1.txt", "amr"), ("data/umr/ancast-samples/umr_test.txt", "umr"),
    ("data/umr/ancast-samples/amr_test.txt", "amr"), ("data/wsj/eds/wsj.eds", "eds"),
    ("data/wsj/dm/wsj.sdp", "sdp"), ("data/wsj/amr/wsj.mrp", "mrp"), ("data/umr/english/english_umr-0001.umr",
                                                                         "umr")])
def test_the_content_tells_the_format(tmp_path: Any, name: str, expected: str) -> None:
    from mrp.codecs import resolve_format

    path = shared_file(name)
    unnamed = tmp_path / "unnamed.txt"
    unnamed.write_bytes(path.read_bytes())
    assert resolve_format(str(unnamed)) == expected
    assert resolve_format(str(unnamed), "mrp") == "mrp"  # the option wins


def test_a_file_the_rule_cannot_place_is_refused_with_the_fix(tmp_path: Any) -> None:
    odd = tmp_path / "odd.txt"
    odd.write_text("hello world\n")
    done = run_cli("score", ["--gold", str(odd), str(odd)])
    assert done.code == 2 and done.out == ""
    assert "odd.txt: cannot tell the format" in done.err and "pass --gold-format" in done.err


def test_smatch_example_files_score_without_options() -> None:
    one, two = (str(shared_file(f"data/pairs/smatch/test_input{k}.txt")) for k in (1, 2))
    done = run_cli("score", ["--score", "smatch", "--gold", one, two])
    assert done.code == 0, done.err
    assert json.loads(done.out)["n"] == 3
    named = run_cli("score", ["--score", "smatch", "--format", "amr", "--gold", one, two])
    assert named.code == 0 and json.loads(named.out)["f"] == json.loads(done.out)["f"]
    assert mrp.score(one, two, metric="smatch").f == json.loads(done.out)["f"]


def test_validate_reads_umr_named_txt() -> None:
    done = run_cli("validate", [str(shared_file("data/umr/ancast-samples/umr_test.txt"))])
    assert "invalid JSON" not in done.err and "2 graphs" in done.err


def test_an_existing_file_is_a_path_whatever_its_name_starts_with(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "(gold.amr").write_text(GOLD)
    (tmp_path / "#system.amr").write_text(GOLD)
    assert mrp.score("(gold.amr", "#system.amr", metric="smatch").f == 1.0


# --- leak 10 and issue 42 item 10: rough doors -----------------------------------------------------------


def test_mtool_text_directory_with_a_file_not_utf8(tmp_path: Any) -> None:
    texts = tmp_path / "texts"
    texts.mkdir()
    (texts / "20001001.txt").write_bytes("Pierre Vinken \xe9\n".encode("latin-1"))
    gold = str(shared_file("data/wsj/amr/wsj.mrp"))
    done = run_cli("mtool", ["--read", "mrp", "--text", str(texts), "--n", "1", gold])
    assert done.code == 2 and "internal error" not in done.err
    assert "20001001.txt:1: not valid UTF-8" in done.err or "20001001.txt:1:" in done.err


@pytest.mark.parametrize("option", [["--n", "0"], ["--n", "-1"], ["--i", "-1"]])
@pytest.mark.parametrize("tool", ["score", "mtool"])
def test_selections_that_select_nothing_are_refused(tool: str, option: list) -> None:
    gold = str(shared_file("data/wsj/amr/wsj.mrp"))
    args = ["--gold", gold, gold] if tool == "score" else ["--read", "mrp", "--score", "mrp", "--gold", gold,
                                                            gold]
    done = run_cli(tool, [*option, *args])
    assert done.code == 2 and done.out == ""
    assert option[0] in done.err and "Traceback" not in done.err


def test_jobs_default_alike() -> None:
    from mrp.cli import ensemble, similarity
    from mrp.cli.score_args import parser as score_parser

    assert score_parser([]).get_default("jobs") == 0  # AUTO
    assert similarity.parser().get_default("jobs") == ensemble.parser().get_default("jobs") == "auto"


@pytest.mark.parametrize(("tool", "args"), [("score", ["--gold", "-", "-"]), ("validate", ["-", "-"]),
                                            ("similarity", ["-", "--other", "-", "--output", "x.npz"])])
def test_standard_input_named_twice_is_refused(tool: str, args: list) -> None:
    done = run_cli(tool, args, stdin=b"(a / b)\n")
    assert done.code == 2 and "standard input ('-') can be read once" in done.err


def test_bytes_are_text() -> None:
    assert mrp.score(GOLD.encode(), GOLD.encode(), metric="smatch", format="amr").f == 1.0
    assert mrp.score([b"(a / b)"], ["(a / b)"], metric="smatch").f == 1.0
    with pytest.raises(mrp.errors.InputError, match="not UTF-8"):
        mrp.score(b"(a / b\xff)", b"(a / b)", metric="smatch")
    with pytest.raises(mrp.errors.InputError, match="cannot score a int"):
        mrp.score(5, b"(a / b)", metric="smatch")  # type: ignore[arg-type]


def test_umr_reader_problems_are_read_warnings(tmp_path: Any) -> None:
    from mrp.errors import ReadWarning

    source = shared_file("data/umr/czech-pdtc/dtest-gold.umr").read_text()
    broken = source.replace("# alignment:\n", "# alignment:\nnonsense: 1-1\n", 1)
    path = tmp_path / "broken.umr"
    path.write_text(broken)
    with pytest.warns(ReadWarning):
        mrp.read(str(path))
    done = run_cli("validate", ["--quiet", str(path)])
    quiet = run_cli("score", ["--quiet", "--score", "smatch", "--gold", str(path), str(path)])
    assert quiet.err == "", quiet.err
    loud = run_cli("score", ["--score", "smatch", "--gold", str(path), str(path)])
    assert loud.err and all(line.startswith("mrp-score: ") for line in loud.err.splitlines()), loud.err
    assert done.code in (0, 1)


# --- leak 5: the files of two directories pair by name, one rule --------------------------------------------


def test_pair_files_by_name_then_ignoring_case() -> None:
    from mrp.engine.files import pair_files

    files = pair_files(["a.umr", "b.umr", "C.umr", "d.umr", "D.UMR"], ["a.umr", "B.umr", "c.umr", "d.Umr",
                                                                       "e.umr"])
    assert files.pairs == [("a.umr", "a.umr"), ("b.umr", "B.umr"), ("C.umr", "c.umr")]
    assert files.missing == ["d.umr", "D.UMR"]  # two gold files fold alike: neither is guessed
    assert files.unpaired == ["d.Umr", "e.umr"]
    notes = files.notes("gold", "system")
    assert any("B.umr as b.umr" in note for note in notes)
    assert any("2 of 5 file(s)" in note for note in notes) and any("e.umr" in note for note in notes)


def _directories(tmp_path: Any) -> tuple:
    source = shared_file("data/umr/czech-pdtc")
    gold, system = tmp_path / "gold", tmp_path / "system"
    gold.mkdir()
    system.mkdir()
    (gold / "pcedt.umr").write_bytes((source / "pcedt-gold.umr").read_bytes())
    (system / "PCEDT.umr").write_bytes((source / "pcedt-conv.umr").read_bytes())
    return source, gold, system


def test_umr_directories_pair_files_whose_names_differ_in_case(tmp_path: Any) -> None:
    source, gold, system = _directories(tmp_path)
    files = run_cli("score", ["--score", "umatch", "--gold", str(source / "pcedt-gold.umr"),
                              str(source / "pcedt-conv.umr")])
    folders = run_cli("score", ["--score", "umatch", "--gold", str(gold), str(system)])
    assert folders.code == 0, folders.err
    by_file, by_folder = json.loads(files.out), json.loads(folders.out)
    assert by_folder["umatch"] == by_file["umatch"] and by_folder["n"] == by_file["n"] == 16
    assert by_folder["missing"] == by_folder["unpaired"] == 0
    assert "PCEDT.umr as pcedt.umr" in folders.err and "no gold graph" not in folders.err
    library = mrp.score(str(gold), str(system), metric="umatch")
    assert library.f == by_file["umatch"]["f"]


def test_umr_compare_directories_pair_files_by_the_same_rule(tmp_path: Any) -> None:
    source, gold, system = _directories(tmp_path)
    same = tmp_path / "same"
    same.mkdir()
    (same / "pcedt.umr").write_bytes((source / "pcedt-conv.umr").read_bytes())
    named = run_cli("umr_compare", ["--tsv", "G", str(gold), "S", str(same)])
    folders = run_cli("umr_compare", ["--tsv", "G", str(gold), "S", str(system)])
    assert folders.code == named.code == 0, folders.err
    assert "PCEDT.umr as pcedt.umr" in folders.err and "no document in common" not in folders.err
    assert folders.out == named.out and "juːmæʧ" in folders.out


# --- leak 6: ensembles pair as scoring pairs -------------------------------------------------------------


def test_ensemble_pairs_differing_id_sets_by_id_and_counts_what_is_missing(tmp_path: Any) -> None:
    a = "# ::id s1\n(a / dog)\n\n# ::id s2\n(a / cat)\n\n# ::id s3\n(a / cow)\n"
    b = "# ::id s1\n(a / dog)\n\n# ::id s3\n(a / cow)\n\n# ::id s4\n(a / pig)\n"  # as many graphs, other ids
    c = "# ::id s1\n(a / dog)\n\n# ::id s2\n(a / cat :ARG0 (a / dog))\n\n# ::id s3\n(a / cow)\n"
    paths = []
    for name, text in (("a", a), ("b", b), ("c", c)):
        path = tmp_path / f"{name}.amr"
        path.write_text(text)
        paths.append(str(path))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = mrp.ensemble(paths, metric="smatch")
    assert result.ids == ["s1", "s2", "s3", "s4"]
    assert [graph.id for graph in result.graphs] == result.ids  # each sentence once
    assert [graph.nodes[0].label for graph in result.graphs] == ["dog", "cat", "cow", "pig"]
    report = result.report()["pairing"]
    assert report[paths[0]] == {"missing": 1, "invalid": 0, "duplicates": 0}
    assert report[paths[1]] == {"missing": 1, "invalid": 0, "duplicates": 0}
    assert report[paths[2]] == {"missing": 1, "invalid": 1, "duplicates": 0}
    told = [str(w.message) for w in caught if issubclass(w.category, PairingWarning)]
    assert len(told) == 3 and any("1 unreadable graph" in line for line in told)
    out = tmp_path / "selected.amr"
    done = run_cli("ensemble", ["--output", str(out), "--report", str(tmp_path / "r.json"), *paths])
    assert done.code == 0, done.err
    assert [graph.id for graph in mrp.read(str(out))] == ["s1", "s2", "s3", "s4"]
    assert "c.amr: 1 of 4 sentence(s) without its graph" in done.err
    assert "1 unreadable graph(s)" in done.err and json.loads(done.out)["pairing"][paths[2]]["invalid"] == 1


# --- issue 42 item 8: mrp-umr-compare --exact reads as mrp-score reads -----------------------------------


def _umatch_f(gold: str, system: str) -> float:
    done = run_cli("score", ["--score", "umatch", "--gold", gold, system])
    assert done.code == 0, done.err
    return float(json.loads(done.out)["umatch"]["f"])


def _exact_f(gold: str, system: str) -> tuple:
    done = run_cli("umr_compare", ["--exact", "--quiet", "G", gold, "S", system])
    assert done.code == 0, done.err
    return float(done.out.split("=")[1]), done.err


def test_exact_comparison_reads_the_sentences_mrp_score_reads() -> None:
    english = shared_file("data/umr/english/english_umr-0004.umr")  # blank lines inside its sentences
    value, err = _exact_f(str(english), str(english))
    assert value == 1.0 and "no tokens" not in err
    gold, system = (str(shared_file(f"data/umr/czech-pdtc/pdt-{side}.umr")) for side in ("gold", "conv"))
    value, _ = _exact_f(gold, system)
    assert value == pytest.approx(_umatch_f(gold, system), abs=5e-7)  # the comparator prints 6 decimals


def test_a_document_level_list_closed_early_keeps_its_relations(tmp_path: Any) -> None:
    source = shared_file("data/umr/czech-pdtc/dtest-gold.umr").read_text()
    early = tmp_path / "early.umr"
    early.write_text(source.replace("    :coref ((s1s1 :same-event s2s1)\n",
                                    "    :coref ((s1s1 :same-event s2s1))\n", 1))
    gold = str(shared_file("data/umr/czech-pdtc/dtest-gold.umr"))
    done = run_cli("score", ["--score", "umatch", "--gold", gold, str(early)])
    assert json.loads(done.out)["umatch"]["f"] == 1.0  # the five relations of the block are all read
    assert "graph d1.s2: repaired: document-level annotation" in done.err and "5 relation(s)" in done.err
    value, err = _exact_f(gold, str(early))
    assert value == 1.0 and "repaired: document-level annotation" in err
    strict = run_cli("score", ["--strict", "--score", "umatch", "--gold", gold, str(early)])
    assert json.loads(strict.out)["umatch"]["f"] < 1.0 and "(left out)" in strict.err


def test_library_text_follows_the_content_rule() -> None:
    umr = shared_file("data/umr/czech-pdtc/dtest-gold.umr").read_text()
    assert len(mrp.read(umr)) == 91  # UMR text, without format="umr"
    eds = shared_file("data/wsj/eds/wsj.eds").read_text()
    from mrp.corpora.load import read_text

    table = read_text(str(shared_file("data/wsj/wsj.txt")))
    assert mrp.read(eds, text=table)[0].framework == "eds"


def test_a_file_misnamed_by_its_extension_is_refused_with_the_fix(tmp_path: Any) -> None:
    misnamed = tmp_path / "penman.mrp"
    misnamed.write_bytes(shared_file("data/pairs/smatch/test_input1.txt").read_bytes())
    gold = str(shared_file("data/pairs/smatch/test_input1.txt"))
    done = run_cli("score", ["--gold", gold, str(misnamed)])
    assert done.code == 2 and "looks like amr: name that format (--format amr" in done.err
    with pytest.raises(mrp.errors.InputError, match="format='amr'"):
        mrp.read(str(misnamed))
    assert len(mrp.read(str(misnamed), format="amr")) == 3


def test_similarity_reads_each_input_by_its_own_name(tmp_path: Any) -> None:
    import numpy as np

    rows, columns = shared_file("data/pairs/amr/test1.mrp"), shared_file("data/pairs/amr/test1.amr")
    out = tmp_path / "m.npz"
    done = run_cli("similarity", [str(rows), "--other", str(columns), "--output", str(out), "--jobs", "1"])
    assert done.code == 0, done.err
    assert "invalid" not in done.err
    assert np.load(out)["f"].shape == (3, 3)
