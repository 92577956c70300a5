"""Seeded mutation of real files, and commands run in this process as a user runs them
(tests/test_fuzz_doors.py, tests/test_umr_validate_levels.py).

A mutation is one small edit a broken file shows: a line dropped, doubled or swapped with the next, a
character dropped or inserted (brackets, colons, slashes, quotes, digits, braces), a token replaced by
another of the file, the file cut short, a bracket nest made very deep, a number made huge or negative.
Every mutation is a function of the text and a ``random.Random``: the same seed gives the same file.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import random
import re
import sys
import warnings
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence

#: ``MRP_FUZZ=k`` (``make fuzz``): the long run, k times 60 mutated files per door; else the suite's short run
FUZZ = int(os.environ.get("MRP_FUZZ") or 0)
#: mutated files per door (the UMR validator's sweep takes three times as many: it is fast)
FUZZ_COUNT = 60 * FUZZ if FUZZ else 8
#: files tried and failures per door in this process, printed at the end of the run (conftest.py)
FIGURES: Dict[str, List[int]] = {}
#: how deep a deep nest goes: the short run stays small (its CPU is the suite's)
DEPTHS = (200, 5000, 50_000) if FUZZ else (200, 2000)
#: characters an insertion picks from: the syntax of every format, and a few that are not
SYNTAX = '()[]{}:/"\\,.#\t\n -+0123456789^~<>|&*eaxZ\u00e9\u200b\x00\ufeff'
TOKEN = re.compile(r"[^\s()\[\]{}:,\"]+")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
HOSTILE_NUMBERS = ("-1", "0", "99999999999999999999999", "1e999", "-1e-999", "NaN", "1.5", "-0", "2147483648")


def _lines(text: str) -> List[str]:
    return text.split("\n")


def drop_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def double_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    k = rng.randrange(len(lines))
    lines.insert(k, lines[k])
    return "\n".join(lines)


def swap_lines(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    if len(lines) > 1:
        k = rng.randrange(len(lines) - 1)
        lines[k], lines[k + 1] = lines[k + 1], lines[k]
    return "\n".join(lines)


def drop_char(text: str, rng: random.Random) -> str:
    if not text:
        return text
    k = rng.randrange(len(text))
    return text[:k] + text[k + 1:]


def drop_syntax(text: str, rng: random.Random) -> str:
    """A character of the syntax (a bracket, colon, slash, quote) dropped."""
    places = [k for k, char in enumerate(text) if char in '()[]{}:/"']
    if not places:
        return drop_char(text, rng)
    k = rng.choice(places)
    return text[:k] + text[k + 1:]


def insert_char(text: str, rng: random.Random) -> str:
    k = rng.randrange(len(text) + 1)
    return text[:k] + rng.choice(SYNTAX) + text[k:]


def replace_token(text: str, rng: random.Random) -> str:
    tokens = list(TOKEN.finditer(text))
    if len(tokens) < 2:
        return insert_char(text, rng)
    target, source = rng.choice(tokens), rng.choice(tokens)
    return text[:target.start()] + source.group(0) + text[target.end():]


def hostile_number(text: str, rng: random.Random) -> str:
    numbers = list(NUMBER.finditer(text))
    if not numbers:
        return insert_char(text, rng)
    target = rng.choice(numbers)
    return text[:target.start()] + rng.choice(HOSTILE_NUMBERS) + text[target.end():]


def renumber(text: str, rng: random.Random) -> str:
    """A number (a token index, a span, a count) replaced by another small one."""
    numbers = list(NUMBER.finditer(text))
    if not numbers:
        return insert_char(text, rng)
    target = rng.choice(numbers)
    return text[:target.start()] + str(rng.randrange(-1, 30)) + text[target.end():]


def drop_token(text: str, rng: random.Random) -> str:
    """A word (a role, a concept, a variable, an index) dropped."""
    tokens = list(TOKEN.finditer(text))
    if not tokens:
        return drop_char(text, rng)
    target = rng.choice(tokens)
    return text[:target.start()] + text[target.end():]


def cut_short(text: str, rng: random.Random) -> str:
    return text[:rng.randrange(len(text) + 1)]


def deep_nest(text: str, rng: random.Random) -> str:
    """A bracket (of the kind found near a random place) nested thousands of levels deep there."""
    k = rng.randrange(len(text) + 1)
    opening = next((char for char in text[k:] + text if char in "([{"), "(")
    closing = {"(": ")", "[": "]", "{": "}"}[opening]
    depth = rng.choice(DEPTHS)
    middle = {"(": "(a / b :c ", "[": "[", "{": '{"a": '}[opening]
    inner = {"(": "(z / y)", "[": "1", "{": "1"}[opening]
    return text[:k] + middle * depth + inner + closing * depth + text[k:]


def long_line(text: str, rng: random.Random) -> str:
    k = rng.randrange(len(text) + 1)
    return text[:k] + rng.choice("a:(\"0 ") * rng.choice((1000, 20 * DEPTHS[-1])) + text[k:]


MUTATIONS: Sequence[Callable[[str, random.Random], str]] = (
    drop_line, double_line, swap_lines, drop_char, drop_syntax, insert_char, insert_char, replace_token,
    replace_token, hostile_number, renumber, renumber, drop_token, drop_token, cut_short, deep_nest,
    long_line)


def mutated(text: str, rng: random.Random, edits: Optional[int] = None) -> str:
    """``text`` after 1 to 3 seeded mutations (``edits`` of them when given); a deep nest at most once (a
    file is then hostile enough)."""
    for _ in range(edits if edits is not None else rng.choice((1, 1, 2, 3))):
        text = rng.choice(MUTATIONS)(text, rng)
    return text


def window(text: str, rng: random.Random, lines: int = 60) -> str:
    """A run of about ``lines`` whole lines of a large file, from a random blank line (a graph's start)."""
    all_lines = _lines(text)
    if len(all_lines) <= lines:
        return text
    starts = [k for k, line in enumerate(all_lines) if not line.strip()] or [0]
    k = rng.choice(starts)
    return "\n".join(all_lines[k:k + lines]) + "\n"


@dataclass
class Done:
    """How a command run in this process ended."""

    code: int
    out: str
    err: str


def run_here(tool: str, argv: List[str], stdin: str = "") -> Done:
    """``mrp-TOOL ARGV`` run in this process through the command's own ``main`` (its error handling
    included), its output captured; warnings filters and handlers are restored afterwards."""
    module = importlib.import_module(f"mrp.cli.{tool}")
    out, err = _stream(), _stream()
    code = 0
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            shown = warnings.showwarning
            try:
                module.main(argv)
            except SystemExit as ending:
                code = ending.code if isinstance(ending.code, int) else (0 if ending.code is None else 2)
            finally:
                warnings.showwarning = shown
    finally:
        sys.stdin = saved
    return Done(code, _text(out), _text(err))


def _stream() -> io.TextIOWrapper:
    """A text stream with a ``buffer``, as ``sys.stdout`` (the commands write bytes to it too)."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace", write_through=True)


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8", "replace")  # type: ignore[attr-defined]


def trouble(done: Done, names: Sequence[str]) -> Optional[str]:
    """What is wrong with how a command ended on hostile input, or None: an internal error or traceback, an
    exit code other than 0, 1, 2, or a refusal (exit 2) whose message names none of ``names`` (the inputs
    and options given)."""
    if "Traceback" in done.err or "internal error" in done.err or "please report" in done.err:
        return "internal error: " + done.err.strip().splitlines()[-1][:300]
    if done.code not in (0, 1, 2):
        return f"exit {done.code}: {done.err.strip()[-300:]}"
    if done.code == 2:
        lines = [line for line in done.err.splitlines() if line.strip()]
        if not lines:
            return "exit 2 without a message"
        if not any(name in line for line in lines for name in names):
            return "a refusal that names no input: " + lines[-1][:300]
    return None
