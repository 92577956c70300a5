"""Every command writes every output through the one writer (mrp.io.write): a symbolic link is written through
(the link stays), a device stays the device it was (/dev/null is never replaced, even run as root), a FIFO
receives the content, a write that fails (/dev/full, a full disk) is one line on stderr naming the path with
exit 2 and no traceback, and a previous good file is kept when the new one cannot be written."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple

import numpy as np
import pytest

import mrp

AMR = "(a / dog :ARG0-of (b / bark-01))\n\n(a / cat :mod (b / big))\n\n(a / see-01 :ARG0 (b / dog))\n"
OTHER = "(a / dog :ARG0-of (b / bark-01))\n\n(a / cat)\n\n(a / see-01 :ARG1 (b / dog))\n"


class Command(NamedTuple):
    """A command and the output it writes to OUT (the other files under the test's directory)."""

    module: str
    arguments: Callable[[Path, str], List[str]]
    check: Callable[[bytes], None]


def _json(data: bytes) -> None:
    assert isinstance(json.loads(data.decode("utf-8")), dict)


def _npz(data: bytes) -> None:
    import io

    with np.load(io.BytesIO(data), allow_pickle=False) as found:
        assert found["f"].shape == (3, 3)


def _html(data: bytes) -> None:
    assert data.lstrip().lower().startswith(b"<!doctype html")


def _mrp(data: bytes) -> None:
    assert len([json.loads(line) for line in data.decode("utf-8").splitlines()]) == 3


def _amr(data: bytes) -> None:
    assert len(mrp.read(data.decode("utf-8"), format="amr")) == 3


COMMANDS: Dict[str, Command] = {
    "score --output": Command("mrp.cli.score", lambda d, out: [
        "--score", "smatch", "--gold", str(d / "gold.amr"), str(d / "system.amr"), "--output", out], _json),
    "score --errors": Command("mrp.cli.score", lambda d, out: [
        "--score", "smatch", "--gold", str(d / "gold.amr"), str(d / "system.amr"), "--errors", out], _json),
    "score --explain": Command("mrp.cli.score", lambda d, out: [
        "--score", "smatch", "--gold", str(d / "gold.amr"), str(d / "system.amr"), "--explain", out], _html),
    "similarity --output": Command("mrp.cli.similarity", lambda d, out: [
        str(d / "gold.amr"), "--output", out, "--quiet"], _npz),
    "convert --output": Command("mrp.cli.convert", lambda d, out: [
        "--to", "mrp", str(d / "gold.amr"), out], _mrp),
    "convert --to html": Command("mrp.cli.convert", lambda d, out: [
        "--to", "html", str(d / "gold.amr"), out], _html),
    "ensemble --output": Command("mrp.cli.ensemble", lambda d, out: [
        str(d / "gold.amr"), str(d / "system.amr"), "--format", "amr", "--output", out, "--report",
        str(d / "report.json"), "--quiet"], _amr),
    "ensemble --report": Command("mrp.cli.ensemble", lambda d, out: [
        str(d / "gold.amr"), str(d / "system.amr"), "--format", "amr", "--output", str(d / "chosen.amr"),
        "--report", out, "--quiet"], _json),
    "mtool OUTPUT": Command("mrp.cli.mtool", lambda d, out: [
        "--read", "amr", "--write", "mrp", str(d / "gold.amr"), out], _mrp),
    "mtool --errors": Command("mrp.cli.mtool", lambda d, out: [
        "--read", "amr", "--score", "smatch", "--gold", str(d / "gold.amr"), str(d / "system.amr"),
        "--errors", out], _json),
}


def run(command: Command, directory: Path, out: str, prelude: str = "") -> subprocess.CompletedProcess:
    code = f"{prelude}\nfrom {command.module} import main\nmain({command.arguments(directory, out)!r})"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    (tmp_path / "gold.amr").write_text(AMR, encoding="utf-8")
    (tmp_path / "system.amr").write_text(OTHER, encoding="utf-8")
    return tmp_path


def _suffix(name: str) -> str:
    """The file name's extension: mrp-similarity writes the format its output's name says."""
    return ".npz" if name.startswith("similarity") else ".out"


def no_traceback(done: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr


@pytest.mark.parametrize("name", COMMANDS)
def test_a_symbolic_link_is_written_through(inputs: Path, name: str) -> None:
    suffix = _suffix(name)
    real, link = inputs / f"real{suffix}", inputs / f"link{suffix}"
    real.write_text("old", encoding="utf-8")
    link.symlink_to(real)
    done = run(COMMANDS[name], inputs, str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    COMMANDS[name].check(real.read_bytes())


@pytest.mark.parametrize("name", COMMANDS)
def test_dev_null_stays_the_device(inputs: Path, name: str) -> None:
    before = os.stat("/dev/null")
    done = run(COMMANDS[name], inputs, "/dev/null")
    after = os.stat("/dev/null")
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_rdev, after.st_dev) == (before.st_ino, before.st_rdev, before.st_dev)


@pytest.mark.parametrize("name", COMMANDS)
def test_a_fifo_receives_the_output(inputs: Path, name: str) -> None:
    fifo = inputs / "pipe"
    os.mkfifo(fifo)
    got: List[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as stream:
            got.append(stream.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    done = run(COMMANDS[name], inputs, str(fifo))
    if reader.is_alive():  # the command never opened the FIFO: release the reader
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    reader.join(10)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got, "nothing was written to the FIFO"
    COMMANDS[name].check(got[0])


@pytest.mark.parametrize("name", COMMANDS)
def test_dev_full_is_one_line_naming_the_path(inputs: Path, name: str) -> None:
    done = run(COMMANDS[name], inputs, "/dev/full")
    assert done.returncode == 2
    no_traceback(done)
    told = [line for line in done.stderr.splitlines() if "/dev/full" in line]
    assert len(told) == 1 and "No space left on device" in told[0], done.stderr


#: the disk fills up as result.out is written (only then: another output of the command is written as usual)
def failing_disk(name: str) -> str:
    """A prelude under which the disk is full for the temporary file of the output named ``name``."""
    return ("import errno, os\n"
            "flushed = os.fsync\n"
            "def fsync(fd):\n"
            f"    if '.{name}.' in os.readlink(f'/proc/self/fd/{{fd}}'):\n"
            "        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))\n"
            "    flushed(fd)\n"
            "os.fsync = fsync")


@pytest.mark.parametrize("name", COMMANDS)
def test_a_failed_write_keeps_the_previous_good_file(inputs: Path, name: str) -> None:
    target = inputs / f"result{_suffix(name)}"
    first = run(COMMANDS[name], inputs, str(target))
    assert first.returncode == 0, first.stderr
    good = target.read_bytes()
    COMMANDS[name].check(good)
    before = sorted(os.listdir(inputs))
    done = run(COMMANDS[name], inputs, str(target), failing_disk(target.name))
    assert done.returncode == 2
    no_traceback(done)
    told = [line for line in done.stderr.splitlines() if str(target) in line]
    assert len(told) == 1 and "kept" in told[0], done.stderr
    assert target.read_bytes() == good
    assert sorted(os.listdir(inputs)) == before, "a temporary file was left behind"


def test_standard_output_on_a_full_device_is_named(inputs: Path) -> None:
    for module, arguments in [("mrp.cli.score", ["--score", "smatch", "--gold", str(inputs / "gold.amr"),
                                                 str(inputs / "system.amr")]),
                              ("mrp.cli.convert", ["--to", "mrp", str(inputs / "gold.amr")])]:
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", module, *arguments], stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=600)
        assert done.returncode == 2
        no_traceback(done)
        assert done.stderr.strip().endswith("standard output: cannot write: No space left on device")
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_the_library_write_goes_through_the_writer(tmp_path: Path) -> None:
    graphs = mrp.read(AMR, format="amr")
    real, link = tmp_path / "real.amr", tmp_path / "link.amr"
    real.write_text("old", encoding="utf-8")
    link.symlink_to(real)
    mrp.write(graphs, link, format="amr")
    assert link.is_symlink() and len(mrp.read(real.read_text(encoding="utf-8"), format="amr")) == 3
    before = os.stat("/dev/null")
    mrp.write(graphs, "/dev/null", format="amr")
    assert os.stat("/dev/null").st_ino == before.st_ino
    with pytest.raises(mrp.errors.MRPError, match="/dev/full"):
        mrp.write(graphs, "/dev/full", format="amr")


def test_dev_null_may_take_two_outputs(inputs: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mrp.cli.score", "--score", "smatch", "--gold",
                           str(inputs / "gold.amr"), str(inputs / "system.amr"), "--output", "/dev/null",
                           "--errors", "/dev/null"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_an_error_about_another_file_passes_the_writer_unchanged(tmp_path: Path) -> None:
    from mrp.io.write import OutputError, output

    target = tmp_path / "out.txt"
    target.write_text("good", encoding="utf-8")
    with pytest.raises(FileNotFoundError):
        with output(target) as stream:
            stream.write("half")
            open(tmp_path / "missing.txt", encoding="utf-8")  # reading an input fails: not this output's
    assert target.read_text(encoding="utf-8") == "good"
    assert sorted(os.listdir(tmp_path)) == ["out.txt"]
    with pytest.raises(OutputError, match="^standard output: cannot write: No space left on device"):
        with open("/dev/full", "w") as full:
            saved, sys.stdout = sys.stdout, full
            try:
                with output("-") as stream:
                    stream.write("x" * 100_000)
            finally:
                sys.stdout = saved
