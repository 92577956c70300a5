"""Submissions unpacked safely: a folder, a ``.tgz``/``.tar.gz`` or a ``.zip`` becomes a list of regular
files.

Refused, with a one-line message naming the submission and the member: a name that is absolute or climbs out
(``..``), a symbolic or hard link, a device, FIFO or other special member, an encrypted zip member, more
members than the task allows, more bytes in all, and a member or archive whose unpacked bytes exceed the
compression ratio allowed (a zip bomb).  Sizes are counted as the bytes come out, not as the headers claim.
Hidden files (a name part starting with ``.``) and ``__MACOSX`` folders are skipped.
"""

from __future__ import annotations

import os
import shutil
import stat
import tarfile
import threading
import zipfile
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Dict, Iterator, List, Tuple

from mrp.errors import InputError
from mrp.io.write import output
from mrp.task.definition import Limits

__all__ = ["ARCHIVES", "Unpacked", "UnpackError", "archive_stem", "cleared_meanwhile", "unpack"]

#: the archive kinds a submission may be, by the end of its name
ARCHIVES = (".tar.gz", ".tgz", ".zip")
_CHUNK = 1 << 16
#: the longest name part (folder or file) a member may have, in UTF-8 bytes (what file systems allow)
NAME_BYTES = 255


class UnpackError(InputError):
    """A submission that cannot be unpacked safely (the message names it and the member)."""


@dataclass
class Unpacked:
    """The regular files of a submission: base name -> path on disk, and what was skipped."""

    files: Dict[str, str] = field(default_factory=dict)
    #: base name -> the member's name in the submission
    members: Dict[str, str] = field(default_factory=dict)
    skipped: List[str] = field(default_factory=list)


def archive_stem(path: str) -> str:
    """A submission's name without its archive extension (``team.tar.gz`` -> ``team``)."""
    name = os.path.basename(os.path.normpath(path))
    for ending in ARCHIVES:
        if name.lower().endswith(ending):
            return name[:-len(ending)]
    return name


def _hidden(name: str) -> bool:
    return any(part.startswith(".") or part == "__MACOSX" for part in name.split("/") if part)


def _checked_name(submission: str, name: str) -> str:
    """A member's name if it stays inside the folder it is unpacked to."""
    shown = name.encode("unicode_escape").decode("ascii")[:200]
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise UnpackError(f"{submission}: member '{shown}': a name that is not UTF-8 is refused") from None
    if "\x00" in name or "\\" in name:
        raise UnpackError(f"{submission}: member '{shown}': a name with a NUL or backslash is refused")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise UnpackError(f"{submission}: member '{shown}': an absolute path is refused")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if any(part == ".." for part in parts):
        raise UnpackError(f"{submission}: member '{shown}': a path that climbs out ('..') is refused")
    if any(len(part.encode("utf-8")) > NAME_BYTES for part in parts):
        raise UnpackError(f"{submission}: member '{shown}': a name part longer than {NAME_BYTES} bytes is "
                          "refused")
    return "/".join(parts)


class _Budget:
    """Members and bytes counted against the limits as they come out."""

    def __init__(self, submission: str, limits: Limits, packed: int) -> None:
        self.submission, self.limits, self.packed = submission, limits, max(packed, 1)
        self.members = 0
        self.bytes = 0

    def member(self, name: str) -> None:
        self.members += 1
        if self.members > self.limits.members:
            raise UnpackError(f"{self.submission}: member '{name}': more than {self.limits.members} members "
                              "(the task's limit)")

    def add(self, name: str, count: int, compressed: int) -> None:
        self.bytes += count
        if self.bytes > self.limits.bytes:
            raise UnpackError(f"{self.submission}: member '{name}': more than {self.limits.bytes} bytes "
                              "unpacked in all (the task's limit)")
        if self.bytes > self.limits.ratio * self.packed + (1 << 20):
            raise UnpackError(f"{self.submission}: member '{name}': unpacks to more than "
                              f"{self.limits.ratio:g} times the archive's size (a compression bomb?)")
        if compressed >= 0 and count > self.limits.ratio * max(compressed, 1) + (1 << 20):
            raise UnpackError(f"{self.submission}: member '{name}': more than {self.limits.ratio:g} times "
                              "its compressed size (a compression bomb?)")


def _copy(source: IO[bytes], target: str, name: str, budget: _Budget, compressed: int = -1) -> None:
    count = 0
    with output(target, "wb", durable=False) as sink:  # a scratch copy: no fsync
        while True:
            chunk = source.read(_CHUNK)
            if not chunk:
                break
            count += len(chunk)
            budget.add(name, len(chunk), -1)
            if compressed >= 0 and count > budget.limits.ratio * max(compressed, 1) + (1 << 20):
                raise UnpackError(f"{budget.submission}: member '{name}': more than {budget.limits.ratio:g} "
                                  "times its compressed size (a compression bomb?)")
            sink.write(chunk)


def _place(found: Unpacked, submission: str, name: str, path: str) -> None:
    base = name.rsplit("/", 1)[-1]
    if base in found.files:
        raise UnpackError(f"{submission}: member '{name}': a second file named '{base}' (files pair by name)")
    found.files[base] = path
    found.members[base] = name


def _target(into: str, name: str) -> str:
    path = os.path.join(into, *name.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def _tar(path: str, into: str, limits: Limits, found: Unpacked) -> None:
    budget = _Budget(path, limits, os.path.getsize(path))
    try:
        with tarfile.open(path, "r:*") as archive:
            for member in _members(archive):
                name = _checked_name(path, member.name)
                budget.member(name)
                if member.isdir():
                    continue
                if not name:
                    raise UnpackError(f"{path}: member '{member.name}': a file without a name is refused")
                if member.issym() or member.islnk():
                    raise UnpackError(f"{path}: member '{name}': a link is refused")
                if not member.isreg():
                    raise UnpackError(f"{path}: member '{name}': a device, FIFO or other special file is "
                                      "refused")
                if _hidden(name):
                    found.skipped.append(name)
                    continue
                stream = archive.extractfile(member)
                if stream is None:
                    raise UnpackError(f"{path}: member '{name}': cannot be read")
                target = _target(into, name)
                with stream:
                    _copy(stream, target, name, budget)
                _place(found, path, name, target)
    except (tarfile.TarError, EOFError, OSError, zlib.error) as error:
        raise UnpackError(f"{path}: not a readable tar archive: {_line(error)}") from None


def _line(error: BaseException) -> str:
    """An exception's message cut to its first line (tarfile lists every method it tried)."""
    text = str(error).strip().splitlines()
    return (text[0].rstrip(":") if text else type(error).__name__)[:200]


def _members(archive: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    while True:
        member = archive.next()
        if member is None:
            return
        yield member


def _zip(path: str, into: str, limits: Limits, found: Unpacked) -> None:
    budget = _Budget(path, limits, os.path.getsize(path))
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                name = _checked_name(path, info.filename)
                budget.member(name)
                mode = info.external_attr >> 16
                if not name:
                    raise UnpackError(f"{path}: member '{info.filename}': a file without a name is refused")
                if info.is_dir():
                    continue
                if stat.S_ISLNK(mode):
                    raise UnpackError(f"{path}: member '{name}': a link is refused")
                if stat.S_IFMT(mode) and not stat.S_ISREG(mode):  # no type bits: a plain file
                    raise UnpackError(f"{path}: member '{name}': a device, FIFO or other special file is "
                                      "refused")
                if info.flag_bits & 0x1:
                    raise UnpackError(f"{path}: member '{name}': an encrypted member is refused")
                if _hidden(name):
                    found.skipped.append(name)
                    continue
                budget.add(name, 0, info.compress_size)
                if info.file_size > limits.ratio * max(info.compress_size, 1) + (1 << 20):
                    raise UnpackError(f"{path}: member '{name}': more than {limits.ratio:g} times its "
                                      "compressed size (a compression bomb?)")
                target = _target(into, name)
                with archive.open(info) as stream:
                    _copy(stream, target, name, budget, info.compress_size)
                _place(found, path, name, target)
    except UnicodeDecodeError:
        raise UnpackError(f"{path}: a member's name is flagged UTF-8 but is not UTF-8 (refused)") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, NotImplementedError,
            zlib.error) as error:
        raise UnpackError(f"{path}: not a readable zip archive: {_line(error)}") from None


def _folder(path: str, limits: Limits, found: Unpacked) -> None:
    budget = _Budget(path, Limits(limits.members, limits.bytes, float("inf")), 1)
    for root, folders, files in os.walk(path, followlinks=False):
        for name in sorted(folders + files):
            full = os.path.join(root, name)
            relative = _checked_name(path, os.path.relpath(full, path).replace(os.sep, "/"))
            budget.member(relative)
            mode = os.lstat(full).st_mode
            if stat.S_ISLNK(mode):
                raise UnpackError(f"{path}: member '{relative}': a link is refused")
            if stat.S_ISDIR(mode):
                continue
            if not stat.S_ISREG(mode):
                raise UnpackError(f"{path}: member '{relative}': a device, FIFO or other special file is "
                                  "refused")
            if os.lstat(full).st_nlink > 1:
                raise UnpackError(f"{path}: member '{relative}': a hard link is refused")
            if _hidden(relative):
                found.skipped.append(relative)
                continue
            budget.add(relative, os.lstat(full).st_size, -1)
            _place(found, path, relative, full)


def unpack(path: str, into: str, limits: Limits) -> Unpacked:
    """The files of one submission (a folder, a ``.tgz``/``.tar.gz`` or a ``.zip``), archives unpacked
    into the folder ``into``.

    Args:
        path: the submission.
        into: an empty folder for an archive's files (unused for a folder).
        limits: the task's limits on members, bytes and compression ratio.

    Returns:
        The files by base name (names pair by base name), and the hidden members skipped.

    Raises:
        UnpackError: for anything unsafe or over a limit, naming the member.
    """
    found = Unpacked()
    if os.path.islink(path):
        raise UnpackError(f"{path}: a submission that is a link is refused")
    if os.path.isdir(path):
        _folder(path, limits, found)
        return found
    if not os.path.isfile(path):
        raise UnpackError(f"{path}: no such submission (a folder, .tgz, .tar.gz or .zip)")
    lower = path.lower()
    if lower.endswith(".zip"):
        _zip(path, into, limits, found)
    elif lower.endswith((".tgz", ".tar.gz")):
        _tar(path, into, limits, found)
    else:
        raise UnpackError(f"{path}: a submission is a folder, .tgz, .tar.gz or .zip")
    return found


def listing(found: Unpacked) -> List[Tuple[str, str]]:
    """The files of a submission as (base name, path), sorted by name."""
    return sorted(found.files.items())


_BOM = b"\xef\xbb\xbf"


def as_compared(found: Unpacked, into: str) -> List[str]:
    """Files read as ``compare_umr.pl`` reads them: a leading UTF-8 byte order mark dropped and CRLF line
    ends read as LF (in a copy under ``into``; the submission is never changed).

    Args:
        found: the submission's files (changed: a copied file's path is its copy's).
        into: a folder for the copies.

    Returns:
        The base names of the files copied so.
    """
    changed = []
    for base, path in sorted(found.files.items()):
        with open(path, "rb") as stream:
            data = stream.read()
        if not data.startswith(_BOM) and b"\r\n" not in data:
            continue
        data = data[len(_BOM):] if data.startswith(_BOM) else data
        target = _target(os.path.join(into, ".as-compared"), base)
        with output(target, "wb", durable=False) as sink:
            sink.write(data.replace(b"\r\n", b"\n"))
        found.files[base] = target
        changed.append(base)
    return changed


@contextmanager
def cleared_meanwhile(folder: str) -> Iterator[None]:
    """The submissions' unpacked files removed from ``folder`` by a thread while the block runs (each
    unlink waits on the disk, not the processor: on a virtual disk the night's 588 files took 2 s to remove
    after the pages were written), and waited for on leaving it.  Only once nothing reads them any more:
    an evaluation reads every file through its memo, by the digest it took of each path.

    Args:
        folder: the folder whose contents are removed (the folder itself is kept).
    """
    def clear() -> None:
        for name in os.listdir(folder):
            path = os.path.join(folder, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                try:
                    os.unlink(path)
                except OSError:
                    pass

    worker = threading.Thread(target=clear, name="mrp-clear", daemon=True)
    worker.start()
    try:
        yield
    finally:
        worker.join()
