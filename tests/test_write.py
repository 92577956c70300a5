"""The one writer (mrp.io.write): atomic replacement of regular files, written through for links, devices and
FIFOs, the old file kept and the path named on failure."""

import os
import stat
import threading

import pytest

from mrp.io.write import OutputError, output, write_bytes, write_text


def test_new_file_and_replacement(tmp_path):
    path = tmp_path / "out.json"
    write_text(path, "one")
    assert path.read_text() == "one"
    os.chmod(path, 0o640)
    write_text(path, "two")
    assert path.read_text() == "two"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["out.json"]


def test_failure_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "out.json"
    write_text(path, "good")
    with pytest.raises(RuntimeError):
        with output(path) as stream:
            stream.write("half")
            raise RuntimeError("stop")
    assert path.read_text() == "good"
    assert sorted(os.listdir(tmp_path)) == ["out.json"]


def test_symlink_is_written_through(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_text(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"


def test_device_is_written_through_not_replaced(tmp_path):
    before = os.stat("/dev/null")
    write_bytes("/dev/null", b"x" * 10)
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode)
    assert (before.st_ino, before.st_rdev) == (after.st_ino, after.st_rdev)


def test_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    write_bytes(fifo, b"through")
    reader.join(10)
    assert got == [b"through"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_full_device_names_the_path():
    with pytest.raises(OutputError, match="/dev/full"):
        write_text("/dev/full", "x" * 100_000)


def test_missing_directory_names_the_path(tmp_path):
    path = tmp_path / "no" / "such" / "out.json"
    with pytest.raises(OutputError, match=str(path)):
        write_text(path, "x")


def test_directory_is_refused(tmp_path):
    with pytest.raises(OutputError, match="directory"):
        write_text(tmp_path, "x")


def test_temporary_names_are_unpredictable(tmp_path, monkeypatch):
    names = []
    real = os.replace

    def spy(src, dst):
        names.append(os.path.basename(src))
        real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    for _ in range(3):
        write_text(tmp_path / "out", "x")
    assert len(set(names)) == 3
