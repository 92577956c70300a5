"""Every message of a command is one line on stderr: mrp's warnings, a library's (numba's about its cache),
and messages whose text holds a line break."""

from __future__ import annotations

import warnings

import pytest

from mrp.cli import common
from mrp.compiled import CacheWarning


def test_warnings_are_one_line_each(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warnings, "showwarning", warnings.showwarning)  # restored afterwards
    common._one_line_warnings("mrp-score")
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.warn("numba's cached copy of solve could not be loaded (EOFError: Ran out\nof input); "
                      "compiled afresh", CacheWarning, stacklevel=1)
        warnings.warn("Cannot cache compiled function\n\"solve\" as it uses dynamic globals", UserWarning,
                      stacklevel=1)
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["mrp-score: numba's cached copy of solve could not be loaded (EOFError: Ran out of "
                     "input); compiled afresh",
                     "mrp-score: UserWarning: Cannot cache compiled function \"solve\" as it uses dynamic "
                     "globals"]


def test_a_message_with_a_line_break_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    common.warn("mrp-score", "first\nsecond\u2028third")
    assert capsys.readouterr().err == "mrp-score: first second third\n"
