"""One submission never stops an evaluation (issue 62 item 1): an archive whose member names are not UTF-8
(a tar name, a zip name flagged UTF-8), an empty zip name, a name longer than a file system allows, a file
that makes the validator fail internally: that submission is refused alone, with a message naming it and
the member as submitted (never a temporary path), and every other team is ranked and written."""

from __future__ import annotations

import io
import json
import shutil
import tarfile
import zipfile
from pathlib import Path
from typing import Callable, Dict

import pytest

from mrp.task.definition import load
from mrp.task.evaluate import evaluate_submissions

from conftest import ROOT, run_cli

DEMO = ROOT / "data" / "demo" / "task"


def _gold(tmp_path: Path) -> Path:
    gold = tmp_path / "gold"
    if not gold.exists():
        shutil.copytree(DEMO / "gold", gold)
    return gold


def _files() -> Dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted((DEMO / "team-a").iterdir())}


def _tgz_odd_name(path: Path) -> None:
    with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT, encoding="utf-8",
                      errors="surrogateescape") as archive:
        for name, data in {**_files(), b"extra-\xff.umr".decode("utf-8", "surrogateescape"): b"x\n"}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


def _zip_lying_flag(path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in _files().items():
            archive.writestr(name, data)
        archive.writestr("QQ\u00e9QQ.umr", b"x\n")  # flagged UTF-8 by zipfile
    path.write_bytes(buffer.getvalue().replace("QQ\u00e9QQ".encode(), b"QQ\xff\xfeQQ"))


def _zip_empty_name(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in _files().items():
            archive.writestr(name, data)
        archive.writestr(zipfile.ZipInfo(""), b"y\n")


def _tgz_long_name(path: Path) -> None:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in {**_files(), "a" * 300 + ".umr": b"x\n"}.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


ODD: Dict[str, Callable[[Path], None]] = {"odd.tgz": _tgz_odd_name, "flag.zip": _zip_lying_flag,
                                          "empty.zip": _zip_empty_name, "long.tgz": _tgz_long_name}


@pytest.mark.parametrize("name", sorted(ODD))
def test_an_odd_member_name_refuses_that_submission_alone(tmp_path: Path, name: str) -> None:
    bad = tmp_path / name
    ODD[name](bad)
    out = tmp_path / "out"
    done = run_cli("evaluate", ["--task", "dmr2026-umr", "--gold", str(_gold(tmp_path)), "--output", str(out),
                                str(DEMO / "team-a"), f"bad={bad}"])
    assert done.code == 1, done.err
    assert "Traceback" not in done.err
    refused = [line for line in done.err.splitlines() if "bad" in line and "refused" in line]
    assert len(refused) == 1 and "/tmp/" not in refused[0].replace(str(tmp_path), "TMP"), done.err
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    teams = {item["name"]: item for item in results["submissions"]}
    assert teams["bad"]["refused"] and teams["team-a"]["scores"]["umatch_f"] > 0
    assert [row["team"] for row in results["leaderboard"]["rows"]] == ["team-a"]
    for form in ("md", "tex", "csv", "html"):
        assert "team-a" in (out / f"leaderboard.{form}").read_text(encoding="utf-8")
    assert (out / "team-a" / "scores.json").is_file() and (out / "detailed_results.html").is_file()


@pytest.mark.parametrize("jobs", [1, 2])  # with two, the failure happens first in a worker (mrp.task.pool)
def test_a_file_that_makes_the_validator_fail_refuses_that_submission_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    from mrp.task import evaluate as module

    real = module.umr_problems  # the kit's validator of UMR files

    def crashing(path: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        if b"CRASH" in Path(path).read_bytes():
            raise KeyError("relations")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(module, "umr_problems", crashing)
    bad = tmp_path / "bad"
    shutil.copytree(DEMO / "team-b", bad)
    (bad / "cs-0001.umr").write_bytes((bad / "cs-0001.umr").read_bytes() + b"\n# CRASH\n")
    evaluation = evaluate_submissions(load("dmr2026-umr"), str(_gold(tmp_path)), [str(DEMO / "team-a"),
                                      str(bad)],
                                      str(tmp_path / "work"), jobs=jobs)
    entries = {entry.name: entry for entry in evaluation.entries}
    assert entries["bad"].refused and "cs-0001.umr" in entries["bad"].refused
    assert "internal" in entries["bad"].refused and "KeyError" in entries["bad"].refused
    assert not entries["team-a"].refused and entries["team-a"].scores["umatch_f"] > 0
