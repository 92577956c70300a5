"""Files an option names (a frame table, a checkpoint manifest, a task file): read with a bounded size and a
bounded nesting depth, refused in one line naming the option and the file, and identified by their content.

A file a stranger hands mrp must neither exhaust memory (the size cap, checked before the file is read
whole) nor the stack of the parser or of whatever walks the value (the depth cap: a parser's own
``RecursionError`` and a value nested beyond :data:`MAX_OPTION_DEPTH` are both refused): a frame table
nested 100,000 deep is refused as a file, not reported as an internal ``RecursionError``.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from typing import Any, Optional

from mrp.errors import InputError
from mrp.io.limits import MAX_DEPTH, nesting

__all__ = ["MAX_OPTION_BYTES", "MAX_OPTION_DEPTH", "bounded", "content_digest", "json_of",
           "read_option_bytes", "read_option_json"]

#: the largest option file read (bytes): far above a real one (Rematch's pb2va.json is about 1 MB)
MAX_OPTION_BYTES = 256 * 10 ** 6
#: how deeply lists and objects may nest in an option file (as a graph's values: :data:`MAX_DEPTH`)
MAX_OPTION_DEPTH = MAX_DEPTH



def _named(option: Optional[str], path: str) -> str:
    return f"{option} {path}" if option else path


def read_option_bytes(path: str, option: Optional[str] = None, limit: int = MAX_OPTION_BYTES) -> bytes:
    """The bytes of a file an option names, at most ``limit`` of them.

    Args:
        path: the file.
        option: the option that names it (``--rematch-frames``), for the message; None: the path alone.
        limit: the most bytes accepted.

    Returns:
        The file's bytes.

    Raises:
        InputError: one line naming the option and the file: it cannot be read, is not a regular file, or
            is larger than ``limit``.
    """
    where = _named(option, path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # before opening: a FIFO would block the open
            raise InputError(f"{where}: not a regular file")
        with open(path, "rb") as stream:
            data = stream.read(limit + 1)
    except OSError as error:
        raise InputError(f"{where}: cannot be read: {error.strerror or error}") from None
    if len(data) > limit:
        raise InputError(f"{where}: larger than {limit:,} bytes; not read")
    return data


def read_option_json(path: str, option: Optional[str] = None, limit: int = MAX_OPTION_BYTES,
                     depth: int = MAX_OPTION_DEPTH) -> Any:
    """A JSON file an option names, read within ``limit`` bytes and ``depth`` levels of nesting.

    Args:
        path: the file.
        option: the option that names it, for the message.
        limit: the most bytes accepted.
        depth: the deepest nesting of lists and objects accepted.

    Returns:
        The JSON value.

    Raises:
        InputError: one line naming the option and the file (unreadable, too large, nested too deeply, not
            JSON).
    """
    return json_of(read_option_bytes(path, option, limit), _named(option, path), depth)


def json_of(data: bytes, where: str, depth: int = MAX_OPTION_DEPTH) -> Any:
    """The JSON value of an option file's bytes, nested at most ``depth`` deep.

    Args:
        data: the file's bytes (:func:`read_option_bytes`).
        where: what messages name (the option and the file).
        depth: the deepest nesting of lists and objects accepted.

    Returns:
        The JSON value.

    Raises:
        InputError: one line: ``where: nested too deeply`` or ``where: not valid JSON: ...``.
    """
    try:
        value = json.loads(data)
    except RecursionError:
        raise InputError(f"{where}: nested too deeply (at most {depth} levels); not read") from None
    except ValueError as error:
        raise InputError(f"{where}: not valid JSON: {' '.join(str(error).split())}") from None
    return bounded(value, where, depth)


def bounded(value: Any, where: str, depth: int = MAX_OPTION_DEPTH) -> Any:
    """``value`` (parsed from an option file) when its lists and objects nest at most ``depth`` deep.

    Raises:
        InputError: ``where: nested too deeply``.
    """
    if nesting(value, depth) > depth:
        raise InputError(f"{where}: nested too deeply (at most {depth} levels); not read")
    return value


def content_digest(path: str, option: Optional[str] = None) -> str:
    """The SHA-256 of a file an option names (what a checkpoint records of it, not its path).

    Raises:
        InputError: as :func:`read_option_bytes`.
    """
    return hashlib.sha256(read_option_bytes(path, option)).hexdigest()
