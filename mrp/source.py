"""Opening input files as numbered text lines, with clear errors for unusable files."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import BinaryIO, Iterator, Union

from .errors import FormatError, InputError

_MAGIC = {
    b"\x1f\x8b": "gzip-compressed",
    b"BZh": "bzip2-compressed",
    b"\xfd7zXZ": "xz-compressed",
    b"PK\x03\x04": "a zip archive",
}


@dataclass(frozen=True)
class Line:
    """One line of text (without its line break) and its 1-based number."""

    number: int
    text: str


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
    """Numbered text lines of a file; a line that is not UTF-8 becomes a FormatError.

    A byte-order mark at the start is dropped and a trailing carriage return is
    removed from every line.  Compressed files are refused with an InputError.
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
                        raise InputError(f"{name}: is {what}; decompress it first")
                if raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            if raw.endswith(b"\r"):
                raw = raw[:-1]
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

