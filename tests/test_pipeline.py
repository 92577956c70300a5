"""One pipeline under every door (issue 60): the drifts between the doors, each closed in one place.

- drift 1: an alignment line compare_umr.pl cannot parse (``s2s: -1--1``) stops that sentence's reading
  wherever mrp says it gives compare_umr.pl's figure (mrp-umr-compare, mrp-score --umatch-compat,
  mrp.score, mrp-evaluate), with one warning naming file, line and sentence;
- drift 3: a run's time is the time of its pairs, never the loading of the solver, in every door;
- drift 4: a repaired system graph is counted and said by every door, mrp-evaluate too.
"""

from __future__ import annotations

import json
import random
import time
import warnings
from pathlib import Path
from typing import Any, List

import pytest

import mrp
from mrp.errors import MRPWarning

from conftest import ROOT, run_cli

DATA = ROOT / "tests" / "data" / "umatch"


# ---------------------------------------------------------------- drift 1: compare_umr.pl's alignment rule

def _unparsable(tmp_path: Path, line: str = "s2s: -1--1") -> Path:
    """The hand-made gold with sentence 2's first alignment line replaced."""
    text = (DATA / "gold.umr").read_text(encoding="utf-8")
    assert "\ns2s: 2-2\n" in text
    path = tmp_path / "gold.umr"
    path.write_text(text.replace("\ns2s: 2-2\n", f"\n{line}\n"), encoding="utf-8")
    return path


def _drop_in(gold: Path) -> List[str]:
    done = run_cli("umr_compare", ["--tsv", "GOLD", str(gold), "SYSTEM", str(DATA / "system.umr")])
    assert done.code == 0, done.err
    row = [line for line in done.out.splitlines() if line.startswith("juːmæʧ")][0].split("\t")
    return row[3:6]  # correct, total0 (gold), total1 (system)


#: alignment lines compare_umr.pl stops at (its rule: VAR: I-J[, I-J...], a known variable, 1 <= I <= J or
#: the whole line 0-0), and lines it reads
@pytest.mark.parametrize("line", ["s2s: -1--1", "s2s: 3-2", "s2s: 0-2", "s2s 2-2", "s2x: 2-2"])
def test_compat_stops_at_the_alignment_line_compare_umr_cannot_parse(tmp_path: Path, line: str) -> None:
    gold = _unparsable(tmp_path, line)
    expected = _drop_in(gold)
    done = run_cli("score", ["--score", "umatch", "--umatch-compat", "--gold", str(gold),
                             str(DATA / "system.umr")])
    assert done.code == 0, done.err
    umatch = json.loads(done.out)["umatch"]
    assert [str(umatch["c"]), str(umatch["g"]), str(umatch["s"])] == expected
    told = [text for text in done.err.splitlines() if "compare_umr.pl" in text and "alignment line" in text]
    assert len(told) == 1 and f"{gold.name}:40:" in told[0] and "d1.s2" in told[0], done.err
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = mrp.score(str(gold), str(DATA / "system.umr"), metric="umatch", umatch_compat=True)
    assert [str(result["umatch"][k]) for k in "cgs"] == expected
    assert sum("compare_umr.pl" in str(w.message) for w in caught if issubclass(w.category, MRPWarning)) == 1


def test_compat_keeps_what_compare_umr_reads(tmp_path: Path) -> None:
    """0-0 and a line compare_umr.pl reads change nothing, and the exact figure reads -1--1 as unaligned."""
    gold = _unparsable(tmp_path, "s2s: 0-0")
    expected = _drop_in(gold)
    with warnings.catch_warnings():
        warnings.simplefilter("error", MRPWarning)
        result = mrp.score(str(gold), str(DATA / "system.umr"), metric="umatch", umatch_compat=True)
    assert [str(result["umatch"][k]) for k in "cgs"] == expected
    exact = mrp.score(str(_unparsable(tmp_path, "s2s: -1--1")), str(DATA / "system.umr"), metric="umatch")
    unaligned = mrp.score(str(gold), str(DATA / "system.umr"), metric="umatch")
    assert exact["umatch"] == unaligned["umatch"]


def test_the_kit_gives_compare_umr_figure_and_says_why(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.mkdir()
    _unparsable(gold).rename(gold / "en-0001.umr")
    team = tmp_path / "team"
    team.mkdir()
    (team / "en-0001.umr").write_text((DATA / "system.umr").read_text(encoding="utf-8"), encoding="utf-8")
    expected = _drop_in(gold / "en-0001.umr")
    out = tmp_path / "out"
    done = run_cli("evaluate", ["--task", "dmr2026-umr", "--gold", str(gold), "--output", str(out),
                                str(team)])
    assert done.code == 0, done.err
    results = json.loads((out / "results.json").read_text())
    figures = results["submissions"][0]["files"]["en-0001.umr"]["umatch"]
    assert [str(figures[k]) for k in "cgs"] == expected
    assert "compare_umr.pl" in done.err and "en-0001.umr:40:" in done.err


def _set_apart(text: str, header: str, which: int) -> str:
    """The text with one more empty line before the ``which``-th (from 0) ``header`` line."""
    parts = text.split(f"\n{header}\n")
    assert len(parts) > which + 1
    return "".join(part + (f"\n\n{header}\n" if k == which else f"\n{header}\n")
                   for k, part in enumerate(parts[:-1])) + parts[-1]


@pytest.mark.parametrize("apart", [
    [("# alignment:", 0)], [("# document level annotation:", 1)],
    [("# sentence level graph:", 1)], [("# alignment:", 0), ("# document level annotation:", 0)]])
def test_compat_ends_a_sentence_at_two_empty_lines_as_compare_umr_does(tmp_path: Path, apart: Any) -> None:
    """compare_umr.pl's one rule of where a sentence ends (two empty lines; the UMR 3.0 English release
    sets every section apart so): the sections after it are read as other sentences and not compared, in
    mrp-score --umatch-compat and mrp.score as in mrp-umr-compare, said once per file; the exact figure
    reads the file as before."""
    files = []
    for name in ("gold.umr", "system.umr"):
        text = (DATA / name).read_text(encoding="utf-8")
        for header, which in apart:
            text = _set_apart(text, header, which)
        (tmp_path / name).write_text(text, encoding="utf-8")
        files.append(str(tmp_path / name))
    done = run_cli("umr_compare", ["--tsv", "GOLD", files[0], "SYSTEM", files[1]])
    assert done.code == 0, done.err
    expected = [line for line in done.out.splitlines() if line.startswith("juːmæʧ")][0].split("\t")[3:6]
    before = _drop_in(DATA / "gold.umr")
    assert expected != before  # what is set apart counts in compare_umr.pl's figure
    done = run_cli("score", ["--score", "umatch", "--umatch-compat", "--gold", files[0], files[1]])
    assert done.code == 0, done.err
    umatch = json.loads(done.out)["umatch"]
    told = [text for text in done.err.splitlines() if "two empty lines" in text]
    differs = [text for text in told if "figure differs" in text]
    if apart == [("# alignment:", 0)]:  # the alignment and the annotation, one block apart: a "graph"
        assert [str(umatch[k]) for k in "cgs"] != expected and len(differs) == 2, done.err
        return
    assert not differs and [str(umatch[k]) for k in "cgs"] == expected
    assert len(told) == 2 and "gold.umr:" in told[0] and "system.umr:" in told[1], done.err
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        result = mrp.score(files[0], files[1], metric="umatch", umatch_compat=True)
        exact = mrp.score(files[0], files[1], metric="umatch")
        unchanged = mrp.score(str(DATA / "gold.umr"), str(DATA / "system.umr"), metric="umatch")
    assert [str(result["umatch"][k]) for k in "cgs"] == expected
    assert exact["umatch"] == unchanged["umatch"]


def test_compare_umr_sentences_are_runs_of_blocks() -> None:
    from mrp.metrics.umatch.segments import first_sentence, sentences

    lines = list(enumerate(["", "a", "b", "", "c", "", "", "", "d", "", "e", ""], 1))
    assert sentences(lines) == [[(2, 3, ["a", "b"]), (5, 5, ["c"])], [(9, 9, ["d"]), (11, 11, ["e"])]]
    outline = [(3, "graph"), (5, ""), (6, ""), (7, "alignment"), (9, ""), (10, "document")]
    assert first_sentence(outline, 1) == ({"graph"}, True)  # the annotation, read as a graph
    assert first_sentence(outline[:4], 1) == ({"graph"}, False)
    assert first_sentence([(3, "graph"), (5, ""), (6, "alignment")], 1) == ({"graph", "alignment"}, False)
    assert first_sentence([(3, "graph"), (5, ""), (6, ""), (8, ""), (9, "document")], 1) == ({"graph"}, True)
    assert first_sentence([(3, ""), (4, ""), (5, "graph"), (7, ""), (8, "alignment")], 1) == (set(), False)
    assert first_sentence([], 1) == (set(), False)
    rng = random.Random(7)
    for _ in range(2000):  # against the rule applied to every line, on random blocks
        kinds = ["", "", "x", "graph", "alignment", "document"]
        lines = [rng.choice(kinds) for _ in range(rng.randint(1, 12))]
        outline = [(k, text) for k, text in enumerate(lines, 1) if text != "x"]
        if not outline:
            continue
        found = sentences((k, text) for k, text in enumerate(lines[:max(k for k, _ in outline)], 1))
        own = {text for k, text in outline if text and found and found[0][0][0] <= k <= found[0][-1][1]}
        later = any(len(other) > 1 and lines[other[1][0] - 1] != "alignment" for other in found[1:])
        assert first_sentence(outline, 1) == (own, later), lines


# ---------------------------------------------------------------- drift 3: one clock

GOLD_AMR = "# ::id a\n(w / want-01 :ARG0 (b / boy))\n\n# ::id b\n(s / sleep-01 :ARG0 (g / girl))\n\n" \
           "# ::id c\n(r / rain-01)\n"
SYSTEM_AMR = "# ::id a\n(w / want-01 :ARG0 (b / girl))\n\n# ::id b\n(s / sleep-01 :ARG0 (g / girl))\n\n" \
             "# ::id c\n(r / rain-01 :time (n / now))\n"


@pytest.fixture
def slow_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading a metric's solver (its ``prepare``) takes 1000 s on the wall clock every door reads."""
    from mrp.metrics import registry

    real = time.time
    late = [0.0]
    monkeypatch.setattr(time, "time", lambda: real() + late[0])
    smatch = registry.metric("smatch")
    prepare = type(smatch).prepare

    def slow(self: Any, options: Any) -> None:
        late[0] += 1000.0
        prepare(self, options)

    monkeypatch.setattr(type(smatch), "prepare", slow)


@pytest.mark.usefixtures("slow_loading")
@pytest.mark.parametrize("door", ["mrp-score", "mrp-mtool", "mrp.score"])
def test_a_run_time_leaves_the_solver_loading_out(tmp_path: Path, door: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    gold, system = tmp_path / "gold.amr", tmp_path / "system.amr"
    gold.write_text(GOLD_AMR, encoding="utf-8")
    system.write_text(SYSTEM_AMR, encoding="utf-8")
    if door == "mrp.score":
        seconds = mrp.score(str(gold), str(system), metric="smatch").to_dict()["time"]
    else:
        if door == "mrp-score":
            from mrp.cli.score import main_body

            main_body(["--score", "smatch", "--jobs", "1", "--gold", str(gold), str(system)])
        else:
            from mrp.cli.mtool import main_body

            main_body(["--read", "amr", "--score", "smatch", "--gold", str(gold), str(system)])
        seconds = json.loads(capsys.readouterr().out)["time"]
    assert 0 <= seconds < 1000


# ---------------------------------------------------------------- drift 4: repairs said by every door

def test_the_kit_counts_and_says_each_repair(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "en-0001.umr").write_text((DATA / "gold.umr").read_text(encoding="utf-8"), encoding="utf-8")
    team = tmp_path / "team"
    team.mkdir()
    text = (DATA / "system.umr").read_text(encoding="utf-8")
    assert text.count("    :aspect state)\n") == 2
    (team / "en-0001.umr").write_text(text.replace("    :aspect state)\n", "    :aspect state\n", 1),
                                      encoding="utf-8")
    score = run_cli("score", ["--score", "umatch", "--gold", str(gold / "en-0001.umr"),
                              str(team / "en-0001.umr")])
    assert json.loads(score.out)["repaired"] == 1
    said = [line for line in score.err.splitlines() if "repaired:" in line]
    assert len(said) == 1
    out = tmp_path / "out"
    done = run_cli("evaluate", ["--task", "dmr2026-umr", "--gold", str(gold), "--output", str(out),
                                str(team)])
    assert done.code == 0, done.err
    # the line mrp-score prints, as a warning naming the team and the file as submitted (not its path)
    assert f"mrp-evaluate: team: {said[0].split(str(team) + '/', 1)[1]}" in done.err.splitlines()
    results = json.loads((out / "results.json").read_text())
    for scored in results["submissions"][0]["figures"].values():
        assert scored["pairing"]["en-0001.umr"]["repaired"] == 1


# ---------------------------------------------------------------- every door through the one pipeline

@pytest.mark.parametrize("door", ["mrp.score", "mrp.Scorer", "mrp-score", "mrp-score --explain", "mrp-mtool",
                                  "mrp-evaluate"])
def test_every_door_scores_through_the_pipeline(tmp_path: Path, door: str, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The driver is reached from mrp.pipeline only, by every door (one reading, pairing and scoring)."""
    import sys

    from mrp.engine import driver
    callers: List[str] = []
    run = driver.run

    def watched(*args: Any, **kwargs: Any) -> Any:
        callers.append(sys._getframe(1).f_globals["__name__"])
        return run(*args, **kwargs)

    monkeypatch.setattr(driver, "run", watched)
    gold, system = tmp_path / "gold.amr", tmp_path / "system.amr"
    gold.write_text(GOLD_AMR, encoding="utf-8")
    system.write_text(SYSTEM_AMR, encoding="utf-8")
    if door == "mrp.score":
        mrp.score(str(gold), str(system), metric="smatch")
    elif door == "mrp.Scorer":
        scorer = mrp.Scorer("smatch")
        scorer.update(str(gold), str(system))
        scorer.compute()
    elif door.startswith("mrp-score"):
        from mrp.cli.score import main_body

        extra = ["--explain", str(tmp_path / "report.html")] if "explain" in door else []
        main_body(["--score", "smatch", "--jobs", "1", *extra, "--gold", str(gold), str(system)])
    elif door == "mrp-mtool":
        from mrp.cli.mtool import main_body as mtool

        mtool(["--read", "amr", "--score", "smatch", "--gold", str(gold), str(system)])
    else:
        from mrp.task.definition import load
        from mrp.task.evaluate import evaluate_submissions

        (tmp_path / "g").mkdir()
        (tmp_path / "t").mkdir()
        (tmp_path / "g" / "en-0001.umr").write_text((DATA / "gold.umr").read_text(encoding="utf-8"),
                                                    encoding="utf-8")
        (tmp_path / "t" / "en-0001.umr").write_text((DATA / "system.umr").read_text(encoding="utf-8"),
                                                    encoding="utf-8")
        (tmp_path / "w").mkdir()
        evaluate_submissions(load("dmr2026-umr"), str(tmp_path / "g"), [str(tmp_path / "t")],
                             str(tmp_path / "w"))
    capsys.readouterr()
    assert callers and set(callers) == {"mrp.pipeline.steps"}, callers
