"""The pre-commit hooks (.pre-commit-hooks.yaml), run by pre-commit's own ``try-repo`` on a sample
repository, offline (the hooks are ``language: system``: mrp's commands from this environment)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
GOOD_AMR = "# ::id 1\n(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))\n"
GOOD_MRP = (ROOT / "data/demo/gold.mrp").read_text()  # 7 graphs of five frameworks, no problems


def _environment(tmp_path: Path) -> Dict[str, str]:
    if shutil.which("pre-commit", path=str(BIN)) is None and shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed (pip install pre-commit)")
    if shutil.which("mrp-validate", path=str(BIN)) is None:
        pytest.skip("mrp's commands are not installed in this environment (pip install -e .)")
    env = dict(os.environ, PRE_COMMIT_HOME=str(tmp_path / "cache"), HOME=str(tmp_path),
               PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    env.pop("PRE_COMMIT", None)
    return env


def _sample(tmp_path: Path, files: Dict[str, str], env: Dict[str, str]) -> Path:
    repo = tmp_path / "annotations"
    repo.mkdir()
    for name, text in files.items():
        (repo / name).write_text(text)
    subprocess.run(["git", "init", "-q"], cwd=repo, env=env, check=True)
    subprocess.run(["git", "add", "."], cwd=repo, env=env, check=True)
    return repo


def _try(repo: Path, hook: str, env: Dict[str, str]) -> subprocess.CompletedProcess:
    pre_commit = shutil.which("pre-commit", path=str(BIN)) or "pre-commit"
    command: List[str] = [pre_commit, "try-repo", str(ROOT), hook, "--all-files", "--color", "never"]
    return subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True, timeout=600)


def test_hooks_pass_good_files_and_stop_bad_ones(tmp_path: Path) -> None:
    env = _environment(tmp_path)
    bad_umr = (ROOT / "tests/data/umr_validate/1.Format.trailing-whitespace.umr").read_text()
    repo = _sample(tmp_path, {"good.amr": GOOD_AMR, "good.mrp": GOOD_MRP, "notes.txt": "(not a graph"}, env)
    for hook in ("mrp-validate-amr", "mrp-validate-mrp"):
        run = _try(repo, hook, env)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "Passed" in run.stdout
    (repo / "bad.amr").write_text("# ::id 2\n(w / want-01 :ARG0 (b / boy) / x)\n")
    (repo / "bad.umr").write_text(bad_umr)
    subprocess.run(["git", "add", "."], cwd=repo, env=env, check=True)
    amr = _try(repo, "mrp-validate-amr", env)
    assert amr.returncode == 1 and "Failed" in amr.stdout
    assert "bad.amr:2: graph 2" in amr.stdout and "good.amr" in amr.stdout  # both files, one line each
    umr = _try(repo, "mrp-validate-umr", env)
    assert umr.returncode == 1 and "trailing-whitespace" in umr.stdout


def test_the_manifest_names_existing_commands() -> None:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    scripts = (ROOT / "setup.cfg").read_text()
    for line in text.splitlines():
        if line.strip().startswith("entry:"):
            command = line.split(":", 1)[1].split()[0]
            assert f"    {command} = " in scripts, command
    hooks = [line.split(": ", 1)[1] for line in text.splitlines() if line.startswith("- id: ")]
    assert hooks == ["mrp-validate-amr", "mrp-validate-umr", "mrp-validate-mrp"]
    assert text.count("  language: system") == 3
