"""Every text the kit writes, escaped for the medium it lands in: one function per medium, used by every
writer of :mod:`mrp.task`.

Team names, member names, sentence ids and refusal reasons come from participants (and from archives that
may hold any bytes): each is placed through the function of its medium, never raw.

- :func:`shown`: any text made storable (a lone surrogate, which is how Python holds a name's bytes that are
  not UTF-8, becomes ``\\xNN``); for JSON and every medium below.
- :func:`visible`: one line with nothing a reader cannot see (control characters, line breaks, bidirectional
  and other format controls as ``\\xNN`` / ``\\uNNNN``); the terminal's form (no ESC sequence reaches it).
- :func:`tex`: LaTeX text (its specials as commands, so that neither ``^^`` notation nor a line break can
  make a command).
- :func:`csv_cell`: a CSV cell a spreadsheet never takes for a formula (``= + - @``, tab or CR first: a
  leading ``'``).
- :func:`markdown`: Markdown text (HTML's ``& < >`` as entities, Markdown's punctuation with a backslash).
- :func:`html`: HTML text content (:func:`mrp.explain.escape.text` of the visible form).
- :func:`mathtext`: a matplotlib label (``$`` escaped: no mathtext is parsed).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from mrp.explain.escape import text as _html_text

__all__ = ["csv_cell", "html", "markdown", "mathtext", "shown", "tex", "visible"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def shown(value: Any) -> str:
    """A text that can be encoded as UTF-8: a lone surrogate escaped (``\\xNN`` for a byte that was not
    UTF-8, ``\\udNNN`` otherwise).

    Args:
        value: any value (``str()`` of it).

    Returns:
        The text, unchanged when it holds no lone surrogate.
    """
    text = str(value)
    if not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(lambda m: (f"\\x{ord(m.group()) - 0xDC00:02x}" if 0xDC80 <= ord(m.group()) <= 0xDCFF
                                     else f"\\u{ord(m.group()):04x}"), text)


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(value: Any) -> str:
    """A text on one line with every character a reader sees: control characters (C0, DEL, C1, line and
    paragraph separators) and format controls (bidirectional overrides, zero-width characters) escaped.

    Args:
        value: any value.

    Returns:
        The text, unchanged when it holds none of them.
    """
    text = shown(value)
    if text.isprintable():
        return text
    return "".join(_escaped(char) if char != " " and unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")
                   else char for char in text)


_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
          "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "–": "--",
          "†": r"\dag{}", "|": r"\textbar{}", "<": r"\textless{}", ">": r"\textgreater{}"}


def tex(value: Any) -> str:
    """Text for LaTeX: its ten specials (and ``| < >``) as commands, on one line.

    Args:
        value: any value.

    Returns:
        The escaped text.
    """
    return "".join(_LATEX.get(char, char) for char in visible(value))


#: what a spreadsheet takes as the start of a formula
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> str:
    """A CSV cell that no spreadsheet evaluates: a leading ``'`` before ``= + - @`` (and tab or CR).

    Args:
        value: any value.

    Returns:
        The cell's text (the CSV writer quotes it as needed).
    """
    text = visible(value)
    return "'" + text if text.startswith(_FORMULA) else text


_MARKDOWN = {"&": "&amp;", "<": "&lt;", ">": "&gt;", **{char: "\\" + char for char in "\\`*_{}[]#!|~$"}}


def markdown(value: Any) -> str:
    """Text for Markdown (a paragraph or a table cell): HTML's ``& < >`` as entities and Markdown's
    punctuation (``\\ ` * _ { } [ ] # ! | ~ $``: with the brackets escaped no link can start) after a
    backslash, on one line.

    Args:
        value: any value.

    Returns:
        The escaped text.
    """
    return "".join(_MARKDOWN.get(char, char) for char in visible(value))


def html(value: Any) -> str:
    """HTML text content of the visible form (:func:`visible`).

    Args:
        value: any value.

    Returns:
        The escaped text.
    """
    return _html_text(visible(value))


def mathtext(value: Any) -> str:
    """A matplotlib label that is drawn as it reads (``$`` escaped, so no mathtext is parsed).

    Args:
        value: any value.

    Returns:
        The escaped label.
    """
    return visible(value).replace("$", r"\$")
