"""The exception hierarchy of mrp: library code raises, only the CLI prints and exits."""

from __future__ import annotations

from typing import Any, Optional

import ujson

#: At most this many characters of input are quoted in a message.
EXCERPT = 60
#: Control characters (line breaks included: C0, DEL, C1 such as U+0085, and U+2028/U+2029, which
#: ``str.splitlines`` and many terminals take for line breaks) are shown escaped when quoted.
_CONTROL = {code: f"\\x{code:02x}" for code in [*range(0x20), *range(0x7F, 0xA0)]}
_CONTROL.update({code: f"\\u{code:04x}" for code in (0x2028, 0x2029)})


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """A text cut to ``limit`` characters (marked with "...") for quoting in a one-line message.

    Input may hold a 50 MB token or id, or a carriage return; a message must stay one readable line.
    """
    return (text if len(text) <= limit else text[:limit] + "...").translate(_CONTROL)


def excerpt_json(value: Any, limit: int = EXCERPT) -> str:
    """A decoded JSON value written back as JSON and cut like :func:`excerpt`, for a message."""
    try:
        text = ujson.dumps(value)
    except (TypeError, ValueError, OverflowError, RecursionError):
        text = repr(value)
    return excerpt(text, limit)


class MRPError(Exception):
    """Base class of every error that mrp raises on purpose."""


class MRPWarning(UserWarning):
    """Base class of the warnings mrp gives (the CLI prints each as one line)."""


class ReadWarning(MRPWarning):
    """A graph was repaired while read, or (with ``errors="skip"``) could not be read and was left out, or a
    part of it could not be read and was left out (a UMR alignment or document-level annotation)."""


class FormatError(MRPError):
    """Input that cannot be read: names the file, the line and (when known) the graph id."""

    def __init__(
        self,
        message: str,
        file: Optional[str] = None,
        line: Optional[int] = None,
        graph_id: Optional[str] = None,
        framework: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.graph_id = graph_id
        self.framework = framework

    def __str__(self) -> str:
        where = []
        if self.file is not None:
            where.append(self.file if self.line is None else f"{self.file}:{self.line}")
        if self.graph_id is not None:
            where.append(f"graph {excerpt(str(self.graph_id), 4 * EXCERPT)}")
        return ": ".join(where + [self.message])


class InputError(MRPError):
    """A file that cannot be used at all (missing, a directory, compressed, empty)."""


class ScoreError(MRPError):
    """A scoring run that cannot go on (for example an invalid gold file)."""


class OptionError(MRPError, ValueError):
    """An option's value that cannot be used (a negative or NaN timeout, a limit that is not a whole
    number): the library raises it before anything is read, and the CLI prints it as one line."""
