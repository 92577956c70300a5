"""Submissions unpacked safely (mrp.task.unpack): every hostile archive refused with a one-line message that
names the member, and nothing written outside the folder it is unpacked into."""

from __future__ import annotations

import io
import os
import stat
import tarfile
import zipfile
from pathlib import Path
from typing import Callable

import pytest

from mrp.task.definition import Limits
from mrp.task.unpack import UnpackError, archive_stem, unpack

SMALL = Limits(members=20, bytes=1 << 22, ratio=50.0)


def _tar(path: Path, add: Callable[[tarfile.TarFile], None]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        add(archive)
    return path


def _file(archive: tarfile.TarFile, name: str, data: bytes = b"x\n") -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    archive.addfile(info, io.BytesIO(data))


def _special(archive: tarfile.TarFile, name: str, kind: bytes, target: str = "") -> None:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    archive.addfile(info)


def _refused(path: Path, into: Path, member: str, why: str) -> None:
    with pytest.raises(UnpackError) as found:
        unpack(str(path), str(into), SMALL)
    message = str(found.value)
    assert "\n" not in message and member in message and why in message, message
    assert str(path) in message


def test_a_plain_tgz_and_zip_unpack_to_their_files(tmp_path: Path) -> None:
    tgz = _tar(tmp_path / "team.tgz", lambda a: (_file(a, "./cs-0001.umr", b"one"),
                                                  _file(a, "sub/cs-0002.umr", b"two"),
                                                  _file(a, "sub/.hidden", b"h")))
    found = unpack(str(tgz), str(tmp_path / "a"), SMALL)
    assert sorted(found.files) == ["cs-0001.umr", "cs-0002.umr"] and found.skipped == ["sub/.hidden"]
    assert Path(found.files["cs-0002.umr"]).read_bytes() == b"two"
    assert str(tmp_path / "a") in found.files["cs-0001.umr"]
    with zipfile.ZipFile(tmp_path / "team.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("cs-0001.umr", "one")
        archive.writestr("__MACOSX/._cs-0001.umr", "junk")
    found = unpack(str(tmp_path / "team.zip"), str(tmp_path / "b"), SMALL)
    assert list(found.files) == ["cs-0001.umr"]
    assert archive_stem("x/team-submission.tar.gz") == "team-submission"


@pytest.mark.parametrize("name", ["../evil.umr", "a/../../evil.umr", "/tmp/evil.umr"])
def test_traversal_and_absolute_paths_are_refused(tmp_path: Path, name: str) -> None:
    tgz = _tar(tmp_path / "t.tgz", lambda a: _file(a, name))
    _refused(tgz, tmp_path / "in", name, "refused")
    with zipfile.ZipFile(tmp_path / "t.zip", "w") as archive:
        archive.writestr(zipfile.ZipInfo(name), "x")
    _refused(tmp_path / "t.zip", tmp_path / "in2", name, "refused")
    assert not (tmp_path / "evil.umr").exists() and not Path("/tmp/evil.umr").exists()


@pytest.mark.parametrize("kind,why", [(tarfile.SYMTYPE, "link"), (tarfile.LNKTYPE, "link"),
                                      (tarfile.CHRTYPE, "special"), (tarfile.BLKTYPE, "special"),
                                      (tarfile.FIFOTYPE, "special")])
def test_links_and_devices_in_a_tar_are_refused(tmp_path: Path, kind: bytes, why: str) -> None:
    tgz = _tar(tmp_path / "t.tgz",
               lambda a: (_file(a, "ok.umr"), _special(a, "bad.umr", kind, "/etc/passwd")))
    _refused(tgz, tmp_path / "in", "bad.umr", why)


def test_a_symbolic_link_in_a_zip_is_refused(tmp_path: Path) -> None:
    info = zipfile.ZipInfo("bad.umr")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    with zipfile.ZipFile(tmp_path / "t.zip", "w") as archive:
        archive.writestr(info, "/etc/passwd")
    _refused(tmp_path / "t.zip", tmp_path / "in", "bad.umr", "link")


def test_links_in_a_submission_folder_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "team"
    folder.mkdir()
    (folder / "ok.umr").write_text("x")
    os.symlink("/etc/passwd", folder / "bad.umr")
    _refused(folder, tmp_path / "in", "bad.umr", "link")
    (folder / "bad.umr").unlink()
    os.link(folder / "ok.umr", folder / "hard.umr")
    _refused(folder, tmp_path / "in", "hard.umr", "hard link")


def test_a_zip_bomb_by_ratio_is_refused(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.umr", b"\0" * (3 << 20))
    _refused(tmp_path / "bomb.zip", tmp_path / "in", "bomb.umr", "compression bomb")


def test_a_tar_bomb_by_ratio_is_refused(tmp_path: Path) -> None:
    tgz = _tar(tmp_path / "bomb.tgz", lambda a: _file(a, "bomb.umr", b"\0" * (3 << 20)))
    _refused(tgz, tmp_path / "in", "bomb.umr", "compression bomb")


def test_too_many_bytes_and_members_are_refused(tmp_path: Path) -> None:
    data = os.urandom(1 << 21)  # incompressible: no ratio, only the total
    tgz = _tar(tmp_path / "big.tgz", lambda a: (_file(a, "a.umr", data), _file(a, "b.umr", data),
                                                 _file(a, "c.umr", data)))
    _refused(tgz, tmp_path / "in", "c.umr", "bytes")
    many = _tar(tmp_path / "many.tgz", lambda a: [_file(a, f"f{k}.umr") for k in range(25)])
    _refused(many, tmp_path / "in2", "f20.umr", "members")


def test_a_zip_whose_header_lies_about_its_size_is_refused(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.umr", b"\0" * (3 << 20))
    data = bytearray(buffer.getvalue())
    # the central directory's uncompressed size says 10 bytes: the bytes that come out are counted
    central = data.rfind(b"PK\x01\x02")
    data[central + 24:central + 28] = (10).to_bytes(4, "little")
    local = data.find(b"PK\x03\x04")
    data[local + 22:local + 26] = (10).to_bytes(4, "little")
    (tmp_path / "liar.zip").write_bytes(bytes(data))
    with pytest.raises(UnpackError) as found:
        unpack(str(tmp_path / "liar.zip"), str(tmp_path / "in"), SMALL)
    assert "bomb.umr" in str(found.value) or "liar.zip" in str(found.value)


def test_two_files_of_one_name_and_other_kinds_are_refused(tmp_path: Path) -> None:
    tgz = _tar(tmp_path / "t.tgz", lambda a: (_file(a, "a/x.umr"), _file(a, "b/x.umr")))
    _refused(tgz, tmp_path / "in", "b/x.umr", "second file")
    (tmp_path / "t.rar").write_bytes(b"Rar!")
    with pytest.raises(UnpackError):
        unpack(str(tmp_path / "t.rar"), str(tmp_path / "in2"), SMALL)
    (tmp_path / "broken.tgz").write_bytes(b"not a tar")
    with pytest.raises(UnpackError, match="broken.tgz"):
        unpack(str(tmp_path / "broken.tgz"), str(tmp_path / "in3"), SMALL)
