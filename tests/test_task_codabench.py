"""Codabench: the bundle mrp-evaluate writes (competition.yaml's leaderboard columns, the scoring program
and its metadata, the reference data, the Dockerfile), and its scoring program run as Codabench runs it
(``python score.py INPUT OUTPUT`` with INPUT/ref and INPUT/res), its scores.json keys equal to the columns."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import List

import pytest

from conftest import ROOT, run_cli, shared_file


def _gold(folder: Path) -> Path:
    folder.mkdir(parents=True)
    source = shared_file("data", "umr", "czech-pdtc")
    shutil.copyfile(source / "pcedt-gold.umr", folder / "cs-0001.umr")
    shutil.copyfile(source / "pdtsc-gold.umr", folder / "cz-0002.umr")
    return folder


def _columns(yaml: str) -> List[str]:
    """The leaderboard column keys of a competition.yaml (the keys under 'columns:')."""
    block = yaml[yaml.index("    columns:"):]
    return re.findall(r"^        key: (\S+)$", block, re.MULTILINE)


def _bundle(tmp_path: Path) -> Path:
    bundle = tmp_path / "bundle.zip"
    done = run_cli("evaluate", ["--task", "dmr2026-umr", "--bundle", str(bundle), "--gold",
                                str(_gold(tmp_path / "gold"))])
    assert done.code == 0, done.err
    assert "competition.yaml" in done.out.split()
    unpacked = tmp_path / "bundle"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(unpacked)
    return unpacked


def test_the_bundle_holds_the_competition_the_program_the_data_and_the_image(tmp_path: Path) -> None:
    unpacked = _bundle(tmp_path)
    yaml = (unpacked / "competition.yaml").read_text(encoding="utf-8")
    assert "version: 2" in yaml and "scoring_program: scoring_program" in yaml
    assert "reference_data: reference_data" in yaml and "enable_detailed_results: true" in yaml
    figures = ("umatch", "umatch_exact", "umatch_sentence", "umatch_alignment")
    assert _columns(yaml) == [f"{key}_f{group}" for key in figures for group in ("", "_cs", "_cz")]
    metadata = (unpacked / "scoring_program" / "metadata.yaml").read_text()
    assert metadata.startswith("command: python3 /app/program/score.py /app/input /app/output")
    assert (unpacked / "scoring_program" / "task.toml").read_text().startswith("# The First UMR Parsing")
    assert sorted(p.name for p in (unpacked / "reference_data").iterdir()) == ["cs-0001.umr", "cz-0002.umr"]
    docker = (unpacked / "Dockerfile").read_text()
    wheels = sorted(path.name for path in (unpacked / "wheels").iterdir())
    assert len(wheels) == 1 and wheels[0].startswith("mrp_graphs-")
    assert wheels[0].endswith("-py3-none-any.whl") and f"COPY wheels/{wheels[0]} " in docker
    assert f'pip install --no-cache-dir "/tmp/wheels/{wheels[0]}[plot]"' in docker
    assert "==" not in docker  # the wheel it carries, not a version an index may not have
    warm = [line for line in docker.splitlines() if line.endswith("# WARM-UP")]
    assert len(warm) == 1 and warm[0].startswith("RUN mrp-warm-up")
    done = subprocess.run([sys.executable, "-m", "mrp.cli.warm_up", "--quiet"], capture_output=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr.decode()[-1000:]


def test_the_scoring_program_runs_as_codabench_runs_it(tmp_path: Path) -> None:
    unpacked = _bundle(tmp_path)
    columns = _columns((unpacked / "competition.yaml").read_text(encoding="utf-8"))
    source = shared_file("data", "umr", "czech-pdtc")
    run = tmp_path / "run"
    shutil.copytree(unpacked / "reference_data", run / "input" / "ref")
    (run / "input" / "res").mkdir()
    shutil.copyfile(source / "pcedt-conv.umr", run / "input" / "res" / "cs-0001.umr")
    shutil.copyfile(source / "pdtsc-conv.umr", run / "input" / "res" / "cz-0002.umr")
    (run / "output").mkdir()
    done = subprocess.run([sys.executable, str(unpacked / "scoring_program" / "score.py"), str(run / "input"),
                           str(run / "output")], capture_output=True, timeout=900)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    scores = json.loads((run / "output" / "scores.json").read_text())
    assert list(scores) == columns
    assert all(isinstance(value, float) and 0.0 < value < 1.0 for value in scores.values())
    reference = (shared_file("reference", "umrtools", "compare", "pcedt.tsv").read_text(encoding="utf-8"))
    row = next(line.split("\t") for line in reference.splitlines() if line.startswith("juːmæʧ"))
    assert format(scores["umatch_f_cs"], ".15g") == row[8]
    page = (run / "output" / "detailed_results.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in page
    assert done.stdout.decode().splitlines()[0] == f"umatch_f: {scores['umatch_f']!r}"
    # the submission as the zip a team uploads: the same scores
    (run / "input" / "res" / "cs-0001.umr").rename(run / "cs-0001.umr")
    (run / "input" / "res" / "cz-0002.umr").rename(run / "cz-0002.umr")
    with zipfile.ZipFile(run / "input" / "res" / "team.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(run / "cs-0001.umr", "cs-0001.umr")
        archive.write(run / "cz-0002.umr", "cz-0002.umr")
    program = str(unpacked / "scoring_program" / "score.py")
    again = subprocess.run([sys.executable, program, str(run / "input"), str(run / "output2")],
                           capture_output=True, timeout=900)
    assert again.returncode == 0, again.stderr.decode()[-2000:]
    assert json.loads((run / "output2" / "scores.json").read_text()) == scores


def test_a_refused_submission_fails_the_scoring_program_with_the_reason(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _gold(run / "input" / "ref")
    (run / "input" / "res").mkdir()
    (run / "input" / "res" / "team.tgz").write_bytes(b"not a tar archive")
    done = run_cli("evaluate", ["--task", "dmr2026-umr", "--codabench", str(run / "input"),
                                str(run / "output")])
    assert done.code == 1 and done.out == ""
    assert done.err.count("\n") == 1 and "team.tgz: not a readable tar archive" in done.err
    assert not (run / "output" / "scores.json").exists()
    missing = run_cli("evaluate", ["--task", "dmr2026-umr", "--codabench", str(tmp_path / "nowhere"),
                                   str(run / "output")])
    assert missing.code == 1 and "ref: missing" in missing.err


def test_the_bundle_never_overwrites_an_input(tmp_path: Path) -> None:
    gold = _gold(tmp_path / "gold")
    before = (gold / "cs-0001.umr").read_bytes()
    task = tmp_path / "task.toml"
    task.write_text((ROOT / "mrp" / "task" / "tasks" / "dmr2026-umr.toml").read_text(encoding="utf-8"))
    for target, task_name in ((gold / "cs-0001.umr", "dmr2026-umr"), (gold / "new.zip", "dmr2026-umr"),
                              (task, str(task))):
        done = run_cli("evaluate", ["--task", task_name, "--bundle", str(target), "--gold", str(gold)])
        assert done.code == 2 and "overwrite an input" in done.err, done.err
    assert (gold / "cs-0001.umr").read_bytes() == before and not (gold / "new.zip").exists()
    assert task.read_text(encoding="utf-8").startswith("# The First UMR")


def test_the_scoring_environment_builds_from_the_bundle_alone_offline(tmp_path: Path) -> None:
    """A fresh venv, the bundle's wheel installed with no index (mrp's dependencies, which a package index
    gives the image, taken from this environment), its scoring program run as Codabench runs it: the same
    scores.json as this mrp's --codabench run."""
    import venv

    unpacked = _bundle(tmp_path)
    target = tmp_path / "venv"
    try:
        venv.EnvBuilder(with_pip=True).create(target)
    except Exception as error:  # noqa: BLE001 - no ensurepip, a read-only interpreter, ...
        pytest.skip(f"cannot create a virtual environment with pip here: {error}")
    python = target / "bin" / "python"
    if not python.exists():
        pytest.skip("the virtual environment has no bin/python (not a POSIX layout)")
    wheel = next((unpacked / "wheels").iterdir())
    done = subprocess.run([str(python), "-m", "pip", "install", "--no-index", "--no-deps",
                           "--ignore-installed", "--quiet", str(wheel)], capture_output=True, timeout=900)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    here = [path for path in sys.path if path.endswith("site-packages")]
    Path(site, "dependencies.pth").write_text("".join(f"{path}\n" for path in here))
    where = subprocess.run([str(python), "-c", "import mrp; print(mrp.__file__)"], capture_output=True,
                           text=True, cwd=tmp_path, env={"PATH": "/usr/bin:/bin"})
    assert where.returncode == 0 and where.stdout.startswith(site), where.stderr[-2000:]
    run = tmp_path / "run"
    shutil.copytree(unpacked / "reference_data", run / "input" / "ref")
    source = shared_file("data", "umr", "czech-pdtc")
    (run / "input" / "res").mkdir()
    shutil.copyfile(source / "pcedt-conv.umr", run / "input" / "res" / "cs-0001.umr")
    ours = run_cli("evaluate", ["--task", "dmr2026-umr", "--codabench", str(run / "input"),
                                str(run / "ours")])
    assert ours.code == 0, ours.err
    theirs = subprocess.run([str(python), str(unpacked / "scoring_program" / "score.py"), str(run / "input"),
                             str(run / "theirs")], capture_output=True, timeout=900, cwd=tmp_path,
                            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert theirs.returncode == 0, theirs.stderr.decode()[-2000:]
    assert (run / "theirs" / "scores.json").read_text() == (run / "ours" / "scores.json").read_text()


def test_the_bundled_wheel_carries_the_distribution_s_metadata() -> None:
    """From a source checkout's editable install (its egg-info, found first, keeps PKG-INFO, not METADATA)
    as from a wheel's: the bundled wheel's METADATA names the distribution and its version (an empty one
    made pip fail in the scoring image)."""
    import io
    import zipfile

    from mrp import __version__
    from mrp.task.wheel import wheel

    name, data = wheel()
    text = zipfile.ZipFile(io.BytesIO(data)).read(f"mrp_graphs-{__version__}.dist-info/METADATA").decode()
    assert name == f"mrp_graphs-{__version__}-py3-none-any.whl"
    assert "Name: mrp-graphs\n" in text and f"Version: {__version__}\n" in text


def test_the_scoring_program_s_outputs_do_not_depend_on_its_processes(tmp_path: Path) -> None:
    """The scoring program reads, validates and scores the files in as many processes as the machine has
    (mrp.task.pool, as mrp-evaluate --output does): the same scores.json, page and organiser's log as one."""
    from mrp.process.forked import can_fork
    from mrp.task.codabench import score
    from mrp.task.definition import load

    if not can_fork():
        pytest.skip("this platform (or a thread of this process) keeps mrp from forking")
    source = shared_file("data", "umr", "czech-pdtc")
    _gold(tmp_path / "input" / "ref")
    (tmp_path / "input" / "res").mkdir()
    shutil.copyfile(source / "pcedt-conv.umr", tmp_path / "input" / "res" / "cs-0001.umr")
    shutil.copyfile(source / "pdtsc-conv.umr", tmp_path / "input" / "res" / "cz-0002.umr")
    found = {}
    for jobs in (1, 2):
        (tmp_path / f"work-{jobs}").mkdir()
        score(load("dmr2026-umr"), str(tmp_path / "input"), str(tmp_path / f"out-{jobs}"),
              str(tmp_path / f"work-{jobs}"), jobs)
        found[jobs] = {path.name: re.sub(r"nonce-[A-Za-z0-9_-]+|nonce=\"[A-Za-z0-9_-]+\"", "NONCE",
                                         path.read_text(encoding="utf-8"))
                       for path in sorted((tmp_path / f"out-{jobs}").iterdir())}
    assert {"scores.json", "detailed_results.html"} <= set(found[1])
    assert found[1] == found[2]
