"""A document-level annotation of symbols alone is read by regular expressions at once
(mrp.codecs.umr.annotation._read_whole): the same sentence variable, relations and lines as the reading token
by token, on the shared UMR files, on the demo, and on perturbed and random texts; any annotation it
declines is read token by token (its errors as they were)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, List, Optional

import pytest

from mrp.codecs.umr import annotation
from mrp.codecs.umr.frame import blocks
from mrp.io.source import Line, Source

from conftest import ROOT, shared_path


def _by_tokens(lines: List[Line], monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as patched:
        patched.setattr(annotation, "_read_whole", lambda lines: None)
        try:
            return annotation.parse_document(lines)
        except annotation.DocumentError as error:
            return ("error", error.message, error.line)


def _same(lines: List[Line], monkeypatch: pytest.MonkeyPatch) -> Optional[bool]:
    """Whether the reading at once, when it reads the annotation, reads it as the tokens do (None: it
    declines it)."""
    whole = annotation._read_whole(lines)
    expected = _by_tokens(lines, monkeypatch)
    if whole is None:
        return None
    assert whole == expected, [line.text for line in lines]
    assert annotation.parse_document(lines) == expected
    return True


def _annotations(paths: List[Path]) -> List[List[Line]]:
    found = []
    for path in paths:
        for block in blocks(Source(str(path))):
            lines = block.lines("document")
            if lines:
                found.append([line for line in lines if line.text.strip()])
    return found


def test_the_shared_and_demo_annotations_are_read_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = sorted(shared_path().rglob("*.umr")) + sorted((ROOT / "data" / "demo").rglob("*.umr"))
    read = [_same(lines, monkeypatch) for lines in _annotations(paths)]
    assert read.count(True) > 1000 and read.count(True) > 0.9 * len(read)


_PIECES = ["(", ")", " ", "\n", ":", "/", '"', "s1s0", "sentence", ":coref", ":temporal", "(a :b c)", "x:y",
           ":", "\t", "#", "é", "()", ")(", "s2"]


def test_perturbed_and_random_annotations_are_read_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    demo = _annotations(sorted((ROOT / "data" / "demo").rglob("*.umr")))
    texts = ["\n".join(line.text for line in lines) for lines in demo if len(lines) > 1]
    assert texts
    rng = random.Random(7)
    read = 0
    for k in range(3000):
        if k % 3:
            text = list(rng.choice(texts))
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(text) + 1)
                if rng.random() < 0.5 and at < len(text):
                    del text[at]
                else:
                    text.insert(at, rng.choice(_PIECES))
            joined = "".join(text)
        else:
            joined = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 30)))
        lines = [Line(10 + n, text) for n, text in enumerate(joined.split("\n")) if text.strip()]
        read += bool(_same(lines, monkeypatch))
    assert read > 300
