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


def _repairing_route(monkeypatch: pytest.MonkeyPatch, path: str, options: ReadOptions) -> Any:
    """A file's documents read as main (f1433d2) read every graph section: repaired, cut to its extent, then
    read (the one-pass route of a section with nothing to repair, :func:`sentence._plain`, left out)."""
    with monkeypatch.context() as patch:
        patch.setattr(sentence, "_plain", lambda *args: None)
        return _plain(read_documents(path, options))


#: graph sections around the one-pass route's edges: text before or after the graph, brackets missing or
#: extra, a comment, a concept to quote, parentheses and a hash in strings, a second graph
_SECTIONS = ["(s1x / a)", "(s1x / a", "(s1x / a))", "x (s1x / a)", "(s1x / a) x", "(s1x / a) (s1y / b)",
             "(s1x / a :op1 \"(\")", "(s1x / a :op1 \"#\")", "(s1x / a :op1 \")\" ", "(s1x / a # c\n)",
             "(s1x / #a)", "(s1x / a/b)", "(s1x / a\n  :ARG0 (s1y / b)", "(s1x / a\n  :ARG0 (s1y / b)))",
             "(s1x / a)\n", "  (s1x / a\n\n  :ARG0 s1x)", "(s1x / a :ARG0 (s1x / b))", "(s1x)", "(s1x /)",
             "(s1x / a :op1 \"x\\\"(\")", "(s1x / a ~1)", "(s1x / a :ARG0 ~e.1 (s1y / b))", ")(s1x / a)",
             "(s1x / a) )", "(s1x / a\n)\n)", "\"(\" (s1x / a)", "(s1x / a :op1 \"un(closed)"]


def test_a_section_read_in_one_pass_reads_as_repaired_and_cut(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    """The one-pass route (no ``#``, no concept to quote, one closed graph) gives what repairing, cutting to
    the graph's extent and reading gave: on every shared file, perturbed ones, and the sections above."""
    texts = [path.read_text(encoding="utf-8") for path in _shared()]
    path = tmp_path / "case.umr"
    cases = [text.encode("utf-8") for text in texts]
    cases.extend(_perturbed(texts[seed % len(texts)], 100 + seed) for seed in range(12))
    cases.extend(f"# :: snt1 a b\n\n# sentence level graph:\n{section}\n\n# alignment:\ns1x: 1-1\n\n"
                 f"# document level annotation:\n(s1s0 / sentence)\n".encode() for section in _SECTIONS)
    routed = calls = 0
    for data in cases:
        path.write_bytes(data)
        for options in _OPTIONS:
            assert _fast(str(path), options) == _repairing_route(monkeypatch, str(path), options), data[:200]
    with monkeypatch.context() as patch:
        real = sentence._plain

        def counted(*args: Any) -> Any:
            nonlocal routed, calls
            found = real(*args)
            routed += found is not None
            calls += 1
            return found

        patch.setattr(sentence, "_plain", counted)
        for text in texts:
            path.write_text(text, encoding="utf-8")
            read_documents(str(path), _OPTIONS[0])
    assert routed > calls * 0.9 > 400, (routed, calls)  # most sections take the one-pass route


def _one_by_one(texts: List[str]) -> List[Any]:
    """main's (f1433d2) route for a section's alignment lines: :func:`annotation.parse_alignment` of each
    line in turn, its ValueError kept in the line's place."""
    found: List[Any] = []
    for text in texts:
        try:
            found.append(annotation.parse_alignment(text))
        except ValueError as error:
            found.append(error)
    return found


def _alignment_lines(rng: random.Random) -> List[str]:
    """Alignment lines of every kind: one span, several, unaligned, malformed, odd white space."""
    parts = ["s1x", "s1y2", " s1x", "s1é", "x", "", ":", "s1x ", "\u00a0s1x", "s1x\u2028"]
    spans = ["1-1", " 2-3", "0-0", "-1--1", "3-2", "1-99", "1 - 2", "1-1,2-2", "1-1, 0-0", "a-b", "1",
             "\u0663-\u0663", "1-1 ", "1-1\t", "", "1-1,", "-0-0"]
    return [rng.choice(parts) + rng.choice([":", ": ", " : ", "", "::"]) + rng.choice(spans)
            for _ in range(rng.randint(0, 6))]


def test_alignment_lines_read_at_once_as_one_by_one() -> None:
    rng = random.Random(64)
    for _ in range(4000):
        texts = _alignment_lines(rng)
        expected: List[Any] = []
        for text in texts:
            try:
                expected.append(annotation.parse_alignment(text))
            except ValueError as error:
                expected.append(("error", str(error)))
        found = [("error", str(one)) if isinstance(one, ValueError) else one
                 for one in annotation.parse_alignments(texts)]
        assert found == expected, texts


def test_alignments_read_as_main_read_them(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every graph's anchors and every alignment problem as main's line-by-line reading gave them: on every
    shared file, perturbed ones, and sections of random alignment lines."""
    texts = [path.read_text(encoding="utf-8") for path in _shared()]
    cases = [text.encode("utf-8") for text in texts]
    cases.extend(_perturbed(texts[seed % len(texts)], 200 + seed) for seed in range(12))
    rng = random.Random(5)
    for _ in range(60):
        aligned = "\n".join(_alignment_lines(rng) + _alignment_lines(rng))
        cases.append(f"# :: snt1 a b c\n\n# sentence level graph:\n(s1x / a :ARG0 (s1y2 / b))\n\n"
                     f"# alignment:\n{aligned}\n\n# document level annotation:\n(s1s0 / sentence)\n".encode())
    path = tmp_path / "case.umr"
    for data in cases:
        path.write_bytes(data)
        for options in _OPTIONS:
            mine = _fast(str(path), options)
            with monkeypatch.context() as patch:
                patch.setattr(annotation, "parse_alignments", _one_by_one)
                assert mine == _fast(str(path), options), data[:300]


def test_an_alignment_anchors_its_tokens_characters(tmp_path: Path) -> None:
    """A span of tokens i-j anchors from token i's first character to token j's last (tokens of different
    lengths, one space between): the running token starts give main's offsets."""
    path = tmp_path / "anchors.umr"
    path.write_text("# :: snt1\tAlpha bb c dddd\n\n# sentence level graph:\n"
                    "(s1x / alpha :ARG0 (s1y / bee) :ARG1 (s1z / dee) :ARG2 (s1w / all))\n\n"
                    "# alignment:\ns1x: 1-1\ns1y: 2-3\ns1z: 4-4\ns1w: 1-2, 4-4\n\n"
                    "# document level annotation:\n(s1s0 / sentence)\n", encoding="utf-8")
    graph = read_documents(str(path), _OPTIONS[0])[0].graphs[0]
    text = graph.input
    assert text == "Alpha bb c dddd"
    assert {node.label: node.anchors for node in graph.nodes} == {
        "alpha": [(0, 5)], "bee": [(6, 10)], "dee": [(11, 15)], "all": [(0, 8), (11, 15)]}
    assert [text[start:end] for start, end in graph.nodes[1].anchors or []] == ["bb c"]
