"""mrp-evaluate end to end on the shared UMR and MRP files: the per-language micro-averages equal
micro_average.pl's, a missing file, an extra file, a file that fails validation, a secondary submission, two
teams tied, the outputs (scores.json, scores.txt, results JSON, leaderboards with signatures and baseline)."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import tarfile
from pathlib import Path
from typing import Dict, List, Sequence

import pytest

from mrp.errors import InputError
from mrp.task.board import board
from mrp.task.definition import load, parse, shipped
from mrp.task.evaluate import Evaluation, evaluate_submissions
from mrp.task.tables import tex

from conftest import run_cli, shared_file

CZECH = ("pdt", "pdtsc", "pcedt")


def _reference(name: str) -> Dict[str, List[str]]:
    """The rows of a compare_umr.pl / micro_average.pl --tsv output by figure name."""
    text = shared_file("reference", "umrtools", "compare", name).read_text(encoding="utf-8")
    return {line.split("\t")[0]: line.split("\t") for line in text.splitlines()}


def _czech(folder: Path, side: str, names: Sequence[str] = CZECH, prefix: str = "cs") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    source = shared_file("data", "umr", "czech-pdtc")
    for k, name in enumerate(names, 1):
        shutil.copyfile(source / f"{name}-{side}.umr", folder / f"{prefix}-{k:04d}.umr")
    return folder


def _tgz(folder: Path, path: Path) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for item in sorted(folder.iterdir()):
            archive.add(item, arcname=item.name)
    return path


def _run(tmp_path: Path, arguments: List[str], task: str = "dmr2026-umr") -> Evaluation:
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    return evaluate_submissions(load(task), str(tmp_path / "gold"), arguments, str(work))


def test_the_shipped_tasks_load_and_name_their_keys() -> None:
    assert {"dmr2026-umr", "mrp2019"} <= set(shipped())
    dmr = load("dmr2026-umr")
    assert dmr.format == "umr" and dmr.primary == "umatch_f" and dmr.group_of("CS-0001.UMR") == "cs"
    figures = ("umatch", "umatch_exact", "umatch_sentence", "umatch_alignment")
    assert dmr.keys(["cs", "en"]) == [f"{key}_f{group}" for key in figures for group in ("", "_cs", "_en")]
    assert [spec.compat for spec in dmr.metrics] == [True, False, True, True]
    assert dmr.metrics[2].options == (("umatch_no_document_level", True),)
    assert dmr.metrics[3].path == "aligned_tokens" and dmr.unseen == ()
    mrp2019 = load("mrp2019")
    assert mrp2019.group == "framework" and mrp2019.primary == "mrp_f" and mrp2019.overall == "macro"


@pytest.mark.parametrize("text,why", [
    ("name = 'x'\nformat = 'umr'\n", "pattern"),
    ("name = 'x'\nformat = 'umr'\n[files]\npattern = '('\n", "regular expression"),
    ("name = 'x'\nformat = 'umr'\n[files]\npattern = '.'\ncase = 'upper'\n[[metrics]]\nkey='a'\n"
     "metric='umatch'\n", "'case' is 'upper'"),
    ("name = 'x'\nformat = 'umr'\n[files]\npattern = '.'\n[[metrics]]\nkey='a'\nmetric='sembleu'\n",
     "counts"),
    ("name = 'x'\nformat = 'umr'\n[files]\npattern = '.'\n[[metrics]]\nkey='a'\nmetric='umatch'\n[ranking]\n"
     "primary = 'b_f'\n", "primary"),
    ("name = = 'x'\n", "not a valid TOML"),
])
def test_a_bad_task_file_is_refused_in_one_line(text: str, why: str) -> None:
    with pytest.raises(InputError) as found:
        parse(text, "bad.toml")
    assert why in str(found.value) and "\n" not in str(found.value) and "bad.toml" in str(found.value)


def test_per_language_micro_averages_equal_micro_average_pl(tmp_path: Path) -> None:
    _czech(tmp_path / "gold", "gold")
    team = _czech(tmp_path / "team", "conv")
    evaluation = _run(tmp_path, [str(_tgz(team, tmp_path / "team.tgz"))])
    entry = evaluation.entries[0]
    assert entry.refused is None and not entry.invalid and evaluation.groups == ["cs"]
    micro = _reference("micro-pdt-pdtsc-pcedt.tsv")["juːmæʧ"]
    items = entry.scored["umatch"].items
    sums = [sum(item.counts[k] for item in items) for k in range(3)]
    assert (sums[2], sums[0], sums[1]) == (int(micro[3]), int(micro[4]), int(micro[5]))
    assert format(entry.scores["umatch_f_cs"], ".15g") == micro[8]
    assert entry.scores["umatch_f"] == entry.scores["umatch_f_cs"]  # one language: its mean is itself
    for k, name in enumerate(CZECH, 1):  # each file's own counts are compare_umr.pl's for that pair
        row = _reference(f"{name}.tsv")["juːmæʧ"]
        mine = [item for item in items if item.file == f"cs-{k:04d}.umr"]
        assert sum(i.counts[2] for i in mine) == int(row[3]) and sum(i.counts[0] for i in mine) == int(row[4])
    exact = entry.scored["umatch_exact"].items
    assert sum(i.counts[2] for i in exact) >= sums[2]  # the exact map never counts fewer


def test_missing_extra_and_invalid_files_and_their_policies(tmp_path: Path) -> None:
    _czech(tmp_path / "gold", "gold", ["pcedt", "pdt"])
    gold = tmp_path / "gold"
    full = _czech(tmp_path / "full", "conv", ["pcedt", "pdt"])
    partial = tmp_path / "partial"
    partial.mkdir()
    shutil.copyfile(full / "cs-0001.umr", partial / "CS-0001.UMR")  # case differs: pairs anyway
    (partial / "cs-0099.umr").write_text("extra\n")
    broken = tmp_path / "broken"
    shutil.copytree(full, broken)
    text = (broken / "cs-0002.umr").read_text(encoding="utf-8")
    (broken / "cs-0002.umr").write_text(text.replace("\n\n", "\n \n", 1), encoding="utf-8")
    evaluation = _run(tmp_path, [f"full={full}", f"partial={partial}", f"broken={broken}"])
    by_name = {entry.name: entry for entry in evaluation.entries}
    assert by_name["partial"].plan.missing == ["cs-0002.umr"]
    assert by_name["partial"].plan.extra == ["cs-0099.umr"]
    assert by_name["broken"].emptied == ["cs-0002.umr"]
    problem = by_name["broken"].invalid["cs-0002.umr"][0]
    assert problem.startswith("cs-0002.umr:") and "[L1" in problem  # the file as submitted
    # a missing file and a file scored as empty count the gold triples as missed: the same figure
    assert by_name["partial"].scores == by_name["broken"].scores
    assert by_name["full"].scores["umatch_f_cs"] > by_name["partial"].scores["umatch_f_cs"]
    counts = by_name["partial"].scored["umatch"].pairing
    assert counts["cs-0002.umr"]["missing"] == counts["cs-0002.umr"]["sentences"] == 25
    assert counts["cs-0001.umr"] == {"sentences": 16, "missing": 0, "unpaired": 0, "invalid": 0,
                                     "repaired": 0}
    empty = [i for i in by_name["partial"].scored["umatch"].items if i.file == "cs-0002.umr"]
    assert empty and all(i.counts[1] == i.counts[2] == 0 for i in empty)
    # policy "refuse" refuses the submission, naming the file and its first problem
    task_file = tmp_path / "strict.toml"
    task_file.write_text(load("dmr2026-umr").source.replace('policy = "empty"', 'policy = "refuse"')
                         .replace('missing = "empty"', 'missing = "refuse"'), encoding="utf-8")
    strict = evaluate_submissions(load(str(task_file)), str(gold), [f"broken={broken}", f"partial={partial}"],
                                  str(tmp_path / "work2"))
    reasons = {entry.name: entry.refused for entry in strict.entries}
    assert "cs-0002.umr fails validation" in (reasons["broken"] or "")
    assert "missing file(s): cs-0002.umr" in (reasons["partial"] or "")


def test_the_latest_submission_counts_unless_it_is_secondary(tmp_path: Path) -> None:
    _czech(tmp_path / "gold", "gold", ["pcedt"])
    good = _czech(tmp_path / "good", "conv", ["pcedt"])
    perfect = _czech(tmp_path / "perfect", "gold", ["pcedt"])
    team = tmp_path / "ufal"
    team.mkdir()
    old = _tgz(good, team / "2026-02-20.tgz")
    new = _tgz(good, team / "2026-02-27.tgz")
    second = _tgz(perfect, team / "secondary-gold.tgz")
    os.utime(old, (1_000, 1_000))
    os.utime(new, (2_000, 2_000))
    os.utime(second, (3_000, 3_000))  # the newest, but secondary
    evaluation = _run(tmp_path, [str(team)])
    status = {entry.submission.id: (entry.submission.official, entry.submission.status)
              for entry in evaluation.entries}
    assert status == {"2026-02-20": (False, "superseded"), "2026-02-27": (True, ""),
                      "secondary-gold": (False, "")}
    found = board(evaluation)
    assert [(row["team"], row["rank"]) for row in found["rows"]] == [("ufal", 1),
                                                                      ("ufal (secondary-gold)", None)]
    assert found["superseded"] == [{"team": "ufal", "id": "2026-02-20"}]


def test_two_teams_tied_share_a_rank_and_a_group(tmp_path: Path) -> None:
    _czech(tmp_path / "gold", "gold", ["pcedt"])
    one = _czech(tmp_path / "one", "conv", ["pcedt"])
    two = _czech(tmp_path / "two", "conv", ["pcedt"])
    gold_copy = _czech(tmp_path / "baseline", "gold", ["pcedt"])
    evaluation = _run(tmp_path, [f"zeta={one}", f"alpha={two}", str(gold_copy)])
    found = board(evaluation)
    rows = [(row["team"], row["rank"], row["cluster"]) for row in found["rows"]]
    assert rows == [("baseline", 1, 1), ("alpha", 2, 2), ("zeta", 2, 2)]
    assert found["rows"][1]["p_baseline"] < 0.05 and found["rows"][2]["p_best"] < 0.05
    assert found["baseline"] == "baseline" and found["baseline_found"]
    # the same numbers and ranks whatever the order of the submissions and the number of processes
    again = evaluate_submissions(load("dmr2026-umr"), str(tmp_path / "gold"),
                                 [str(gold_copy), f"alpha={two}", f"zeta={one}"], str(tmp_path / "work2"),
                                 jobs=2)
    assert board(again)["rows"] == found["rows"]
    assert [e.scored["umatch_exact"].items for e in again.entries] == \
        [evaluation.entries[k].scored["umatch_exact"].items for k in (2, 1, 0)]


def test_the_command_writes_every_output_with_signatures_and_baseline(tmp_path: Path) -> None:
    _czech(tmp_path / "gold", "gold", ["pcedt"])
    one = _tgz(_czech(tmp_path / "one", "conv", ["pcedt"]), tmp_path / "one.tgz")
    base = _czech(tmp_path / "baseline", "gold", ["pcedt"])
    out = tmp_path / "out"
    done = run_cli("evaluate", ["--task", "dmr2026-umr", "--gold", str(tmp_path / "gold"), "--output",
                                str(out), str(one), str(base)])
    assert done.code == 0, done.err
    scores = json.loads((out / "one" / "scores.json").read_text())
    assert list(scores) == [f"{key}_f{group}" for key in ("umatch", "umatch_exact", "umatch_sentence",
                                                          "umatch_alignment") for group in ("", "_cs")]
    lines = (out / "one" / "scores.txt").read_text().splitlines()
    assert [line.split(": ")[0] for line in lines] == list(scores)
    assert all(float(line.split(": ")[1]) == scores[line.split(": ")[0]] for line in lines)
    results = json.loads((out / "results.json").read_text())
    assert results["signatures"]["umatch"].startswith("task:dmr2026-umr|umatch:umr")
    assert "align:compare_umr" in results["signatures"]["umatch"]
    assert "align:exact" in results["signatures"]["umatch_exact"]
    row = _reference("pcedt.tsv")["juːmæʧ"]
    figures = results["submissions"][0]["figures"]["umatch"]["groups"]["cs"]
    assert (figures["c"], figures["g"], figures["s"]) == (int(row[3]), int(row[4]), int(row[5]))
    assert results["submissions"][0]["files"]["cs-0001.umr"]["umatch"]["c"] == int(row[3])
    for extension in ("md", "tex", "html"):
        text = (out / f"leaderboard.{extension}").read_text()
        signature = results["signatures"]["umatch"]
        assert (tex(signature) if extension == "tex" else signature) in text
        assert "Baseline: baseline" in text
    rows = list(csv.reader(io.StringIO((out / "leaderboard.csv").read_text())))
    assert rows[0][:3] == ["rank", "team", "umatch_f"] and rows[1][1] == "baseline (baseline)"
    # the CSV holds data only: the signatures are columns, no note or comment rows
    assert rows[0][-4:-2] == ["signature of umatch", "signature of umatch_exact"]
    assert all(row[-4] == results["signatures"]["umatch"] for row in rows[1:]) and len(rows) == 3
    assert done.out == (out / "leaderboard.md").read_text()  # stdout carries the leaderboard alone
    assert "wrote" in done.err


def test_mrp2019_scores_per_framework_and_macro_averages(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.mkdir()
    shutil.copyfile(shared_file("data", "wsj", "eds", "wsj.mrp"), gold / "eds.mrp")
    shutil.copyfile(shared_file("data", "pairs", "psd", "107480.gold.mrp"), gold / "psd.mrp")
    team = tmp_path / "team"
    team.mkdir()
    shutil.copyfile(shared_file("data", "pairs", "eds", "wsj.pet.mrp"), team / "eds.mrp")
    shutil.copyfile(shared_file("data", "pairs", "psd", "107480.foxik.mrp"), team / "psd.mrp")
    evaluation = _run(tmp_path, [str(team)], "mrp2019")
    entry = evaluation.entries[0]
    assert evaluation.groups == ["eds", "psd"] and entry.refused is None
    reference = json.loads(shared_file("reference", "mtool", "psd107480.mrp.json").read_text())
    assert entry.scores["mrp_f_psd"] >= reference["all"]["f"] - 1e-12
    assert entry.scores["mrp_f"] == pytest.approx((entry.scores["mrp_f_eds"] + entry.scores["mrp_f_psd"]) / 2)
    eds = [i for i in entry.scored["mrp"].items if i.group == "eds"]
    assert len(eds) == 89 and sum(i.counts[2] for i in eds) == 7572  # the proved optimum (reference/optimum)


def test_bad_arguments_get_one_line_and_status_2(tmp_path: Path) -> None:
    unknown = run_cli("evaluate", ["--task", "nope", "--gold", str(tmp_path), "--output", str(tmp_path / "o"),
                                   str(tmp_path)])
    assert unknown.code == 2 and unknown.err.count("\n") == 1 and "neither a shipped task" in unknown.err
    modes = run_cli("evaluate", ["--task", "mrp2019", "--gold", str(tmp_path), str(tmp_path)])
    assert modes.code == 2 and "give one of --output" in modes.err
    empty = run_cli("evaluate", ["--task", "mrp2019", "--gold", str(tmp_path), "--output",
                                 str(tmp_path / "o"), str(tmp_path)])
    assert empty.code == 2 and "no gold file fits" in empty.err and "Traceback" not in empty.err
    listed = run_cli("evaluate", ["--list-tasks"])
    assert listed.code == 0 and listed.out.split() == shipped()


def test_output_folders_of_teams_never_clash_with_the_evaluation_files() -> None:
    from mrp.task.outputs import folder_name

    taken = ["results.json"]
    assert folder_name("results.json", taken) == "results.json_2"
    assert folder_name("../..", taken) == "team" and folder_name("a b/c", taken) == "a_b_c"
    assert folder_name("a b/c", taken) == "a_b_c_2"


def test_policy_score_keeps_a_failing_file_and_extra_refuse_refuses(tmp_path: Path) -> None:
    _czech(tmp_path / "gold", "gold", ["pcedt"])
    broken = _czech(tmp_path / "broken", "conv", ["pcedt"])
    text = (broken / "cs-0001.umr").read_text(encoding="utf-8")
    (broken / "cs-0001.umr").write_text(text.replace("\n\n", "\n \n", 1), encoding="utf-8")
    extra = _czech(tmp_path / "extra", "conv", ["pcedt"])
    (extra / "cs-0002.umr").write_text("x\n")
    source = load("dmr2026-umr").source
    task_file = tmp_path / "lenient.toml"
    task_file.write_text(source.replace('policy = "empty"', 'policy = "score"')
                         .replace('extra = "ignore"', 'extra = "refuse"'), encoding="utf-8")
    found = evaluate_submissions(load(str(task_file)), str(tmp_path / "gold"), [f"broken={broken}",
                                 f"extra={extra}"],
                                 str(tmp_path / "work"))
    by_name = {entry.name: entry for entry in found.entries}
    assert "cs-0001.umr" in by_name["broken"].invalid and not by_name["broken"].emptied
    row = _reference("pcedt.tsv")["juːmæʧ"]
    assert format(by_name["broken"].scores["umatch_f_cs"], ".15g") == row[8]  # scored as read
    assert by_name["extra"].refused is not None and "cs-0002.umr" in by_name["extra"].refused


def test_the_official_figure_of_the_english_release_is_compare_umr_pl_s(tmp_path: Path) -> None:
    english = shared_file("data", "umr", "english")
    gold = tmp_path / "gold"
    gold.mkdir()
    names = {}
    for k, path in enumerate(sorted(english.glob("english_umr-*.umr")), 1):
        shutil.copyfile(path, gold / f"en-{k:04d}.umr")
        names[f"en-{k:04d}.umr"] = path.stem
    found = _run(tmp_path, [f"copy={gold}"])
    sums: Dict[str, List[int]] = {}
    for item in found.entries[0].scored["umatch"].items:
        total = sums.setdefault(item.file, [0, 0, 0])
        for k in range(3):
            total[k] += item.counts[k]
    for name, stem in names.items():  # compare_umr.pl's own counts of each file against itself
        row = _reference(f"self-{stem}.tsv")["juːmæʧ"]
        assert (sums[name][2], sums[name][0], sums[name][1]) == (int(row[3]), int(row[4]), int(row[5]))
