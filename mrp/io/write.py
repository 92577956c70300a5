"""The one writer: every file mrp writes goes through :func:`output` (or :func:`write_text` /
:func:`write_bytes`).

- A regular file (or a path that does not exist yet) is replaced atomically: the content goes to a temporary
  file with an unpredictable name, created exclusively in the same directory, is flushed to disk, and is then
  renamed over the target. The target keeps its permission bits; a new file gets the usual ones (0666 less the
  umask). On any failure the temporary file is removed and the old file is left as it was.
- A symbolic link is written through: the file it points to is the one replaced, the link stays.
- A target that is not a regular file (a character device such as ``/dev/null`` or ``/dev/stdout``, a FIFO,
  a socket) is written through, never replaced.
- ``"-"`` is standard output.
- Every failure is an :class:`OutputError` naming the path, never a bare ``OSError``.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
import tempfile
from typing import IO, BinaryIO, ContextManager, Iterator, Literal, Optional, TextIO, Union, overload

from mrp.errors import MRPError

__all__ = ["OutputError", "output", "write_bytes", "write_text"]

PathLike = Union[str, "os.PathLike[str]"]


class OutputError(MRPError):
    """A file could not be written; the message names the path and the reason; the old file is kept."""


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _foreign(error: OSError, *ours: str) -> bool:
    """Whether an error raised in a ``with output(...)`` block names another file (reading an input, say):
    it is not this output's failure and passes unchanged."""
    return error.filename is not None and os.fspath(error.filename) not in ours


def _target(path: str) -> str:
    """The path that is written: a symbolic link's final target (so the link stays a link)."""
    if os.path.islink(path):
        return os.path.realpath(path)
    return path


def _special(path: str) -> bool:
    """Whether the path names something that is written through: a device, FIFO or socket."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return False
    except OSError as error:
        raise OutputError(f"{path}: cannot write: {_reason(error)}") from None
    if stat.S_ISDIR(mode):
        raise OutputError(f"{path}: cannot write: it is a directory")
    return not stat.S_ISREG(mode)


@overload
def output(path: PathLike, mode: Literal["w"] = "w", *, encoding: Optional[str] = "utf-8",
           errors: Optional[str] = None, newline: Optional[str] = None,
           durable: bool = True) -> ContextManager[TextIO]: ...


@overload
def output(path: PathLike, mode: Literal["wb"], *, encoding: Optional[str] = "utf-8",
           errors: Optional[str] = None, newline: Optional[str] = None,
           durable: bool = True) -> ContextManager[BinaryIO]: ...


def output(path: PathLike, mode: str = "w", *, encoding: Optional[str] = "utf-8",
           errors: Optional[str] = None, newline: Optional[str] = None, durable: bool = True
           ) -> ContextManager[IO]:
    """A stream to write one file, replaced atomically when the ``with`` block ends without an error.

    Args:
        path: the file to write; ``"-"`` for standard output.
        mode: ``"w"`` for text, ``"wb"`` for bytes.
        encoding: the text encoding (text mode only).
        errors: the encoding's error handler (text mode only).
        newline: as for :func:`open` (text mode only).
        durable: flushed to the disk before it replaces the old file (False: a scratch file, such as a
            submission unpacked into a temporary folder, that no crash needs to find whole).

    Returns:
        A context manager whose value is the stream to write to.

    Raises:
        OutputError: the file could not be written (the message names it); the old file is kept.
    """
    return _output(path, mode, encoding=encoding, errors=errors, newline=newline, durable=durable)


@contextlib.contextmanager
def _output(path: PathLike, mode: str, *, encoding: Optional[str], errors: Optional[str],
            newline: Optional[str], durable: bool = True) -> Iterator[IO]:
    if mode not in ("w", "wb"):
        raise ValueError(f"output mode must be 'w' or 'wb', not {mode!r}")
    binary = mode == "wb"
    name = os.fspath(path)
    if name == "-":
        out: IO = sys.stdout.buffer if binary else sys.stdout
        try:
            yield out
            out.flush()
        except BrokenPipeError:  # the reader went away (`| head`): the command ends quietly
            raise
        except OSError as error:
            if _foreign(error):
                raise
            raise OutputError(f"standard output: cannot write: {_reason(error)}") from None
        return
    target = _target(name)
    if _special(target):
        try:
            direct: IO = (open(target, "wb") if binary
                          else open(target, "w", encoding=encoding, errors=errors, newline=newline))
        except OSError as error:
            raise OutputError(f"{name}: cannot write: {_reason(error)}") from None
        try:
            with direct:
                yield direct
        except OSError as error:
            if _foreign(error, target):
                raise
            raise OutputError(f"{name}: cannot write: {_reason(error)}") from None
        return
    directory = os.path.dirname(target) or "."
    try:
        previous = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        previous = 0o666 & ~_umask()
    except OSError as error:
        raise OutputError(f"{name}: cannot write: {_reason(error)}") from None
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".part",
                                             dir=directory)
    except OSError as error:
        raise OutputError(f"{name}: cannot write: {_reason(error)}") from None
    done = False
    try:
        raw = os.fdopen(handle, "wb")
        stream: IO = raw if binary else io.TextIOWrapper(raw, encoding=encoding, errors=errors,
                                                         newline=newline)
        with stream:
            yield stream
            stream.flush()
            if durable:
                os.fsync(raw.fileno())
        os.chmod(temporary, previous)
        os.replace(temporary, target)
        done = True
    except OSError as error:
        if _foreign(error, target, temporary):
            raise
        raise OutputError(f"{name}: cannot write: {_reason(error)}; the old file, if any, is kept") from None
    finally:
        if not done:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def write_text(path: PathLike, text: str, *, encoding: str = "utf-8", errors: Optional[str] = None,
               newline: Optional[str] = None) -> None:
    """Write a whole text file through :func:`output`.

    Args:
        path: the file (``"-"`` for standard output).
        text: its content.
        encoding: the text encoding.
        errors: the encoding's error handler.
        newline: as for :func:`open`.

    Raises:
        OutputError: the file could not be written; the old file is kept.
    """
    with output(path, "w", encoding=encoding, errors=errors, newline=newline) as stream:
        stream.write(text)


def write_bytes(path: PathLike, data: bytes) -> None:
    """Write a whole binary file through :func:`output`.

    Args:
        path: the file (``"-"`` for standard output).
        data: its content.

    Raises:
        OutputError: the file could not be written; the old file is kept.
    """
    with output(path, "wb") as stream:
        stream.write(data)
