"""Escaping for every place a graph's strings go in a report: HTML text, attribute values (always quoted),
SVG text (the same rules in inline SVG), and JSON inside a ``<script type="application/json">`` block.

Labels, values, ids and sentences come from untrusted files (participants' submissions): nothing from them
is ever placed unescaped, and none goes into a URL, an event handler, a style or a script's code.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTRIBUTE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})
#: inside <script>, "</script", "<!--" and "<script" must not appear; JSON escapes keep the value the same
_SCRIPT = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
                         "\u2029": "\\u2029"})


def _clean(value: Any) -> str:
    """A value as text without characters HTML cannot hold (NUL and other C0 controls but tab and line
    breaks, lone surrogates), each shown as U+FFFD."""
    text = str(value)
    if text.isprintable():
        return text
    return "".join("\ufffd" if (ord(ch) < 32 and ch not in "\t\n\r") or 0xD800 <= ord(ch) <= 0xDFFF
                   or ord(ch) == 0x7F else ch for ch in text)


def text(value: Any) -> str:
    """A value as HTML (or SVG) text content."""
    return _clean(value).translate(_TEXT)


def attribute(value: Any) -> str:
    """A value for a quoted attribute (``"`` and ``'`` escaped too)."""
    return _clean(value).translate(_ATTRIBUTE)


def script_json(value: Any) -> str:
    """A value as JSON that can stand inside a ``<script type="application/json">`` element: ``<``, ``>``,
    ``&`` and the JavaScript line separators escaped (``</script>`` cannot end the block)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str).translate(_SCRIPT)


def nonce() -> str:
    """A fresh nonce for the page's Content-Security-Policy (its one style and its one script)."""
    return secrets.token_urlsafe(18)


def shorten(value: str, most: int) -> str:
    """At most ``most`` characters, an ellipsis marking a cut."""
    return value if len(value) <= most else value[:most - 1] + "\u2026"
