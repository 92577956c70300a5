"""Opening input files as numbered text lines, with clear errors for unusable files."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import BinaryIO, Iterator, List, Optional, Union

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
                raw = _opening(raw, name)
            line = _decoded(raw, number, name)
            yield line if isinstance(line, FormatError) else Line(number, line)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _opening(raw: bytes, name: str) -> bytes:
    """The first bytes of a file without its byte-order mark; InputError for a compressed or UTF-16/32
    file (``raw``: its first line, or more)."""
    for magic, what in _MAGIC.items():
        if raw.startswith(magic):
            fix = "convert it to UTF-8" if "UTF" in what else "decompress it"
            raise InputError(f"{name}: is {what}; {fix} first")
    return raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw


def _decoded(raw: bytes, number: int, name: str) -> Union[str, FormatError]:
    """One line's text without its line break and a carriage return before it, or the FormatError it is
    (not UTF-8, or a NUL byte)."""
    if raw.endswith(b"\n"):
        raw = raw[:-1]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    nul = raw.find(b"\x00")
    if nul >= 0:
        return FormatError(f"holds a NUL byte (byte {nul + 1} of the line); is the file binary "
                           "or UTF-16?", name, number)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return FormatError(f"not valid UTF-8 (byte {error.start + 1} of the line)", name, number)


#: bytes :meth:`Source.blocks` decodes at once (then up to the end of the line it stops in)
CHUNK = 1 << 20


@dataclass
class Block:
    """Lines between blank lines (a line of white space only is blank): the number of the first, and each
    line's text, or the FormatError it is (:func:`read_lines`'s)."""

    first: int
    lines: List[Union[str, FormatError]]
    #: whether every line is text (no FormatError among them)
    clean: bool = True

    def items(self) -> List[Union[Line, FormatError]]:
        """The lines as :func:`read_lines` gives them."""
        return [Line(self.first + k, text) if isinstance(text, str) else text
                for k, text in enumerate(self.lines)]


class Source:
    """A file to read: its lines as :func:`read_lines` gives them (iterating), or its blocks of lines
    between blank lines (:meth:`blocks`: the same lines, decoded a large chunk at a time, for a reader
    that frames graphs within blocks and meets the same block again)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __iter__(self) -> Iterator[Union[Line, FormatError]]:
        return read_lines(self.path)

    def texts(self) -> List[Union[str, FormatError]]:
        """Every line of the file in order, as :func:`read_lines` gives it but without its number (line k is
        item k - 1): its text, or the FormatError it is; decoded a large chunk at a time.  InputError as
        :func:`read_lines` raises it.

        Returns:
            The lines.
        """
        name = display_name(self.path)
        stream = open_binary(self.path)
        out: List[Union[str, FormatError]] = []
        try:
            for k, chunk in enumerate(_chunks(stream)):
                out.extend(_texts(_opening(chunk, name) if k == 0 else chunk, len(out) + 1, name))
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
        return out

    def blocks(self) -> Iterator[Block]:
        """The blocks of the file in order (blank lines left out), with :func:`read_lines`'s texts and
        errors; InputError as :func:`read_lines` raises it."""
        name = display_name(self.path)
        stream = open_binary(self.path)
        try:
            number, block = 1, None
            for k, chunk in enumerate(_chunks(stream)):
                for text in _texts(_opening(chunk, name) if k == 0 else chunk, number, name):
                    if isinstance(text, str) and not text.strip():
                        if block is not None:
                            yield block
                        block = None
                    elif block is None:
                        block = Block(number, [text], isinstance(text, str))
                    else:
                        block.lines.append(text)
                        block.clean = block.clean and isinstance(text, str)
                    number += 1
            if block is not None:
                yield block
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()


def _chunks(stream: BinaryIO) -> Iterator[bytes]:
    """The bytes of a stream in chunks of whole lines (about :data:`CHUNK` bytes each)."""
    while True:
        chunk = stream.read(CHUNK)
        if not chunk:
            return
        if not chunk.endswith(b"\n"):
            chunk += stream.readline()
        yield chunk


def _texts(chunk: bytes, number: int, name: str) -> List[Union[str, FormatError]]:
    """Each line of a chunk of whole lines as :func:`_decoded` gives it (``number``: the first line's)."""
    text: Optional[str] = None
    if b"\x00" not in chunk:
        try:
            text = chunk.decode("utf-8")
        except UnicodeDecodeError:
            pass
    if text is None:  # a line is an error: each line alone
        raws = chunk.split(b"\n")
        if chunk.endswith(b"\n"):
            raws.pop()
        return [_decoded(raw, number + k, name) for k, raw in enumerate(raws)]
    lines: List[Union[str, FormatError]] = list(text.split("\n"))
    if text.endswith("\n"):
        lines.pop()
    if "\r" in text:
        lines = [line[:-1] if isinstance(line, str) and line.endswith("\r") else line for line in lines]
    return lines
