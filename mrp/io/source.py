"""Opening input files as numbered text lines, with clear errors for unusable files."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import BinaryIO, Iterator, Union

from mrp.errors import FormatError, InputError

_MAGIC = {
    b"\x1f\x8b": "gzip-compressed",
    b"BZh": "bzip2-compressed",
    b"\xfd7zXZ": "xz-compressed",
    b"PK\x03\x04": "a zip archive",
    b"\xff\xfe": "UTF-16- or UTF-32-encoded (it starts with their byte-order mark)",
    b"\xfe\xff": "UTF-16-encoded (it starts with its byte-order mark)",
    b"\x00\x00\xfe\xff": "UTF-32-encoded (it starts with its byte-order mark)",
}


@dataclass(frozen=True)
class Line:
    """One line of text (without its line break) and its 1-based number."""

    number: int
    text: str


def is_unicode(text: str) -> bool:
    """True unless the text holds a lone surrogate (which a JSON escape such as ``\\ud800`` can make)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def display_name(path: str) -> str:
    """The name used for a path in messages (`<stdin>` for `-`)."""
    return "<stdin>" if path == "-" else path


def open_binary(path: str) -> BinaryIO:
    """Open a file (or stdin for `-`) for reading bytes; InputError when it cannot be read."""
    if path == "-":
        return sys.stdin.buffer
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, not a file")
    try:
        return open(path, "rb")
    except OSError as error:
        raise InputError(f"{path}: cannot be read: {error.strerror}") from None


def read_lines(path: str) -> Iterator[Union[Line, FormatError]]:
    """Numbered text lines of a file; a line that is not UTF-8 or holds a NUL byte becomes a FormatError.

    A byte-order mark at the start is dropped and a trailing carriage return is
    removed from every line.  Compressed and UTF-16/32 files are refused with an
    InputError.  No text format has a NUL byte (a UTF-16 file without a
    byte-order mark is full of them), so a line with one is refused.
    """
    name = display_name(path)
    stream = open_binary(path)
    try:
        first = True
        for number, raw in enumerate(stream, start=1):
            if first:
                first = False
                for magic, what in _MAGIC.items():
                    if raw.startswith(magic):
                        fix = "convert it to UTF-8" if "UTF" in what else "decompress it"
                        raise InputError(f"{name}: is {what}; {fix} first")
                if raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            if raw.endswith(b"\r"):
                raw = raw[:-1]
            nul = raw.find(b"\x00")
            if nul >= 0:
                yield FormatError(f"holds a NUL byte (byte {nul + 1} of the line); is the file binary "
                                  "or UTF-16?", name, number)
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                yield FormatError(
                    f"not valid UTF-8 (byte {error.start + 1} of the line)", name, number
                )
                continue
            yield Line(number, text)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()

