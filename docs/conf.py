"""Sphinx configuration of mrp's API reference (``make docs``; warnings are errors)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mrp import __version__  # noqa: E402

project = "mrp"
author = "the mrp authors"
release = version = __version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
exclude_patterns = ["_build", "design.md", "umr-validation.md", "*.png"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}
nitpicky = False
html_theme = "alabaster"
suppress_warnings = ["ref.python"]


def _plain_attribute(app: object, what: str, name: str, obj: object, options: object, lines: list) -> None:
    """An attribute's or property's docstring is prose: napoleon would read "who: what" in its first line
    as "type: description" (garbling e.g. ``Result.primary``); a leading empty comment keeps it prose."""
    if what in ("attribute", "property", "data") and lines and ":" in lines[0]:
        lines[:0] = ["..", ""]


def setup(app: object) -> None:
    """Register the hook before napoleon's (priority 500)."""
    app.connect("autodoc-process-docstring", _plain_attribute, priority=400)  # type: ignore[attr-defined]
