"""The UMR reader's fast paths read what its full paths read, field by field (the fields ``==`` leaves out
included: layout, breaks, repairs, alignment lines, outline), with the same errors and problems: a file
decoded a chunk at a time and cut into blocks by line indexes (a :class:`~mrp.io.source.Source`) against the
same file given line by line (:func:`~mrp.io.source.read_lines`), and a sentence's graph built in one pass
(:func:`mrp.codecs.penman.fast_graph`) against penman's tree; on every shared UMR file, on seeded
perturbations of them, and the line-level shortcuts (concepts to quote, annotation tokens) on random lines."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from typing import Any, List, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mrp.codecs.base import ReadOptions
from mrp.codecs.umr import annotation, parse_documents, read_documents, sentence
from mrp.io.source import Line, Source, read_lines

from conftest import shared_path

#: the two ways the validator and the scorer read (repairs allowed, refused)
_OPTIONS = [ReadOptions("umr"), ReadOptions("umr", strict=True)]


def _plain(value: Any) -> Any:
    """Every field of a value, at every depth, with types (dataclasses' fields that ``==`` skips included,
    an error as its type, text and attributes)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple((one.name, _plain(getattr(value, one.name)))
                                               for one in dataclasses.fields(value))
    if isinstance(value, BaseException):
        fields = sorted((key, _plain(one)) for key, one in vars(value).items())
        return (type(value).__name__, str(value), fields)
    if isinstance(value, dict):
        return ("dict",) + tuple((_plain(key), _plain(one)) for key, one in value.items())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__,) + tuple(_plain(one) for one in value)
    return (type(value).__name__, value)


def _full(monkeypatch: pytest.MonkeyPatch, path: str, options: ReadOptions) -> Any:
    """A file's documents read the full way: line by line, every graph through penman's tree."""
    with monkeypatch.context() as patch:
        patch.setattr(sentence, "fast_graph", lambda *args: None)
        return _plain(list(parse_documents(read_lines(path), path, options)))


def _fast(path: str, options: ReadOptions) -> Any:
    return _plain(read_documents(path, options))


def _shared() -> List[Path]:
    found = sorted(path for path in (shared_path() / "data" / "umr").rglob("*")
                   if path.suffix == ".umr" or path.suffix == ".txt" and path.name.startswith("umr_"))
    assert len(found) >= 10, found
    return found


@pytest.mark.parametrize("options", _OPTIONS, ids=["repairing", "strict"])
def test_every_shared_umr_file_reads_the_same_fast_and_full(monkeypatch: pytest.MonkeyPatch,
                                                            options: ReadOptions) -> None:
    read = 0
    for path in _shared():
        fast = _fast(str(path), options)
        assert fast == _full(monkeypatch, str(path), options), path
        read += len(fast)
    assert read > 10


def _perturbed(text: str, seed: int) -> bytes:
    """A UMR text with some lines changed as broken files change them: a line cut short, a bracket or a
    quote dropped or added, an inline comment, a concept with a slash, a line that is not UTF-8, a CRLF."""
    rng = random.Random(seed)
    lines = text.split("\n")
    out: List[bytes] = []
    for line in lines:
        roll = rng.random()
        if roll < 0.01 and line:
            line = line[:rng.randrange(len(line))]
        elif roll < 0.02:
            line = line.replace(")", "", 1)
        elif roll < 0.03:
            line += rng.choice([")", "(", '"', " # note", "\t", " :ARG0", " ~"])
        elif roll < 0.04:
            line = re.sub(r"/ ([^\s()]+)", r"/ \1/x", line, count=1)
        elif roll < 0.045:
            line = line.replace(":", " :", 1)
        raw = line.encode("utf-8")
        if roll > 0.997:
            raw += b"\xff"
        elif roll > 0.994:
            raw += b"\r"
        out.append(raw)
    return b"\n".join(out)


@pytest.mark.parametrize("seed", range(6))
def test_perturbed_umr_files_read_the_same_fast_and_full(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                         seed: int) -> None:
    sources = _shared()
    source = sources[seed % len(sources)]
    path = tmp_path / "perturbed.umr"
    path.write_bytes(_perturbed(source.read_text(encoding="utf-8"), seed))
    for options in _OPTIONS:
        fast = _fast(str(path), options)
        assert fast == _full(monkeypatch, str(path), options)
    problems = [one for document in read_documents(str(path), _OPTIONS[1]) for one in document.errors]
    assert problems, "the perturbations make some graph unreadable"


def test_a_source_gives_the_lines_read_lines_gives(tmp_path: Path) -> None:
    cases = [b"", b"\xef\xbb\xbf", b"\xef\xbb\xbf\n", b"a\r\nb\n\nc", b"a\n\xff\nb\r", b"x\x00y\nz\n",
             b"\n\n"]
    for k, data in enumerate(cases):
        path = tmp_path / f"case{k}.txt"
        path.write_bytes(data)
        given_lines = [item if isinstance(item, Line) else (item.line, str(item))
                       for item in read_lines(str(path))]
        texts = Source(str(path)).texts()
        assert [Line(n, text) if isinstance(text, str) else (text.line, str(text))
                for n, text in enumerate(texts, start=1)] == given_lines, data


_LINE = st.text(alphabet=st.sampled_from(list('()/:"#\\ ~-sx1/éa\t')), max_size=40)


@given(_LINE)
def test_a_line_without_an_odd_concept_has_no_concept_to_quote(text: str) -> None:
    if sentence._ODD_CONCEPT.search(text) is None:
        assert sentence._CONCEPT.sub(sentence._quote_concept, text) == text


def _tokens_one_by_one(text: str) -> Optional[List[Any]]:
    """The tokens of a line as the annotation's reader took them one at a time (None: it refuses the line)."""
    items, position = [], 0
    while position < len(text):
        match = annotation._TOKEN.match(text, position)
        if match is None or match.end() == position:
            if text[position:].strip():
                return None
            break
        kind = match.group(1) or ("role" if match.group(2) else "symbol")
        items.append((kind, match.group(1) or match.group(2) or match.group(3) or match.group(4), 7))
        position = match.end()
    return items


@given(_LINE)
def test_annotation_tokens_found_at_once_are_those_found_one_by_one(text: str) -> None:
    expected = _tokens_one_by_one(text)
    try:
        found: Optional[List[Any]] = annotation._Tokens([Line(7, text)]).items
    except annotation.DocumentError:
        found = None
    assert found == expected
