"""A participant's check before uploading (issue 62 item 9): ``mrp-evaluate --task dmr2026-umr --check
team.tgz [--input TEST_INPUT_DIR]`` reports file names and count, validation at the task's level (four
blocks per sentence) and tokens identical to the test input, with no gold."""

from __future__ import annotations

import re
import shutil
import tarfile
from pathlib import Path

from conftest import ROOT, run_cli

DEMO = ROOT / "data" / "demo" / "task"


def _tgz(folder: Path, path: Path) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for item in sorted(folder.iterdir()):
            archive.add(item, arcname=item.name)
    return path


def test_a_good_submission_is_ready_to_upload(tmp_path: Path) -> None:
    archive = _tgz(DEMO / "team-a", tmp_path / "a.tgz")
    done = run_cli("evaluate", ["--task", "dmr2026-umr", "--check", str(archive),
                                "--input", str(DEMO / "gold")])
    assert done.code == 0, done.out + done.err
    assert "validation level 1" in done.out and "files: 2 (the input has 2)" in done.out
    assert "ok   cs-0001.umr: 2 sentences" in done.out and done.out.splitlines()[-1] == "ready to upload"


def test_every_rule_broken_is_named(tmp_path: Path) -> None:
    team = tmp_path / "team"
    shutil.copytree(DEMO / "team-a", team)
    text = (team / "cs-0001.umr").read_text(encoding="utf-8")
    text = re.sub(r"# alignment:\n(s1\S+: .*\n)+\n", "", text, count=1)  # sentence 1 without its alignment
    (team / "cs-0001.umr").write_text(text.replace("Words: Pes spí .", "Words: Pes spal ."), encoding="utf-8")
    (team / "en-0001.umr").unlink()
    (team / "notes.txt").write_text("x\n")
    done = run_cli("evaluate", ["--task", "dmr2026-umr", "--check", str(team), "--input", str(DEMO / "gold")])
    assert done.code == 1, done.out + done.err
    out = done.out
    assert "notes.txt: not named as the task requires" in out
    assert "en-0001.umr: in the test input, missing from the submission" in out
    assert "cs-0001.umr: sentence 1: tokens differ from the input's at token 2 ('spal .' for 'spí .')" in out
    assert "FAIL cs-0001.umr" in out and "[L1 Format too-few-blocks]" in out  # at the task's level
    assert out.index("FAIL cs-0001.umr") < out.index("too-few-blocks")
    assert out.splitlines()[-1].endswith("problem(s): not ready to upload")
    unsafe = run_cli("evaluate", ["--task", "dmr2026-umr", "--check", str(tmp_path / "none.tgz")])
    assert unsafe.code == 1 and "no such submission" in unsafe.out
