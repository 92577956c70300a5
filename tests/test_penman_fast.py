"""The one-pass reader of plain Penman text (mrp.codecs.penman.fast) builds the graph the full reader builds
(the tree, then its conversion: mrp.codecs.penman.amr._built), field by field and type by type, wherever it
answers, and declines every text the full reader refuses (whose errors thus stay the full reader's): on
every graph of the shared Penman files, on seeded perturbations of them, and on random trees; the AMR
reader's graphs are the same with it and without it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator, List, Optional

import penman
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_penman_parse import _PIECES, _random_tree, mutate

from mrp.codecs.base import Bad, ReadOptions
from mrp.codecs.penman import read_string
from mrp.codecs.penman import reading as penman_reading
from mrp.codecs.penman.amr import _built, _convert
from mrp.codecs.penman.fast import fast_graph
from mrp.codecs.penman.framing import Frame, frames
from mrp.codecs.penman.parse import _TOKEN, parse
from mrp.graph import Graph
from mrp.io.source import Line

from conftest import shared_path

_OPTIONS = [ReadOptions(), ReadOptions(no_wiki=True), ReadOptions(strict=True), ReadOptions(framework="umr")]


def _typed(value: Any) -> Any:
    """A value with the type of every string in it (Quoted and Symbol are equal to their text)."""
    if isinstance(value, (list, tuple)):
        return [_typed(one) for one in value]
    if isinstance(value, dict):
        return {key: _typed(one) for key, one in value.items()}
    return (type(value).__name__, value)


def _whole(graph: Graph) -> Any:
    """Every field of a graph the reader fills, with types (the layout and the variables included)."""
    nodes = [(node.id, _typed(node.label), node.properties, _typed(node.values), node.anchors)
             for node in graph.nodes]
    edges = [(edge.source, edge.target, edge.label, edge.normal, edge.attributes, edge.id)
             for edge in graph.edges]
    return (graph.id, graph.framework, graph.flavor, graph.tops, nodes, edges, _typed(graph.layout),
            graph.variables, graph == graph)


def _frame(text: str) -> Optional[Frame]:
    framed = [frame for frame in frames([Line(k, line) for k, line in enumerate(text.split("\n"), start=1)])
              if frame.chunk.lines and not frame.chunk.bad]
    return framed[0] if framed else None


def _closed(frame: Frame, options: ReadOptions) -> str:
    text = frame.chunk.text()
    return text if options.strict else text + ")" * frame.opened


def _taken(text: str, options: ReadOptions) -> bool:
    """Whether a token-by-token reading takes a text: the plain grammar's (:func:`.parse.parse`, which
    lexes it into ``penman``'s tokens), with no token after the graph, and a tree that
    :func:`.amr._convert` does not refuse."""
    node = parse(text)
    if node is None:
        return False
    tokens = _TOKEN.findall(text)
    depth = 0
    for k, token in enumerate(tokens):
        depth += (token == "(") - (token == ")")
        if depth == 0:
            if k != len(tokens) - 1:
                return False
            break
    try:
        _convert(penman.Tree(node), "g", options)
    except Bad:
        return False
    return True


def _agree(frame: Frame, options: ReadOptions) -> bool:
    """Whether the fast reader answers a frame (asserting its graph is the full reader's), else that it
    declines one the full reader refuses or reads; either way, that it answers exactly the texts a
    token-by-token reading takes (:func:`_taken`)."""
    fast = fast_graph(_closed(frame, options), "g", options)
    assert (fast is not None) == _taken(_closed(frame, options), options), frame.chunk.text()
    try:
        full: Optional[Graph] = _built(frame, "g", options)
    except Bad:
        full = None
    if fast is None:
        return False
    assert full is not None, frame.chunk.text()
    assert _whole(fast) == _whole(full), frame.chunk.text()
    return True


def _penman_files() -> List[Path]:
    root = shared_path() / "data"
    return sorted(path for path in root.rglob("*") if path.suffix in (".amr", ".txt", ".penman")
                  and "(" in path.read_text(encoding="utf-8", errors="replace"))


def _file_frames(path: Path) -> Iterator[Frame]:
    lines = path.read_text(encoding="utf-8").split("\n")
    for frame in frames([Line(k, line) for k, line in enumerate(lines, start=1)]):
        if frame.chunk.lines and not frame.chunk.bad:
            yield frame


def test_every_graph_of_the_shared_penman_files_is_read_the_same_both_ways() -> None:
    files = _penman_files()
    assert len(files) >= 9, files  # the AMR pairs, wsj.amr, the SMATCH and UMR samples, the Czech UMR file
    answered = 0
    for path in files:
        for frame in _file_frames(path):
            for options in _OPTIONS:
                answered += _agree(frame, options)
    assert answered > 4 * 3000


def test_the_reader_gives_the_same_graphs_with_the_fast_way_and_without(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for path in _penman_files()[:4] + [shared_path() / "data/wsj/amr/wsj.amr"]:
        text = path.read_text(encoding="utf-8")
        for options in _OPTIONS[:3]:
            fast = read_string(text, options)
            with monkeypatch.context() as patched:
                patched.setattr(penman_reading, "fast_graph", lambda *_, **__: None)
                full = read_string(text, options)
            assert [_whole(g) if isinstance(g, Graph) else str(g) for g in fast] == \
                   [_whole(g) if isinstance(g, Graph) else str(g) for g in full]


def _mutated(rng: random.Random, text: str) -> str:
    tokens = text.replace("(", " ( ").replace(")", " ) ").split(" ")
    for _ in range(rng.randint(1, 3)):
        mutate(rng, tokens, 4)  # a repeated token: a variable defined twice, a role repeated
        if not tokens:
            tokens = ["("]
    return " ".join(tokens)


def test_perturbed_shared_graphs_are_read_the_same_or_declined() -> None:
    rng = random.Random(64)
    texts = [frame.chunk.text() for path in _penman_files() for frame in _file_frames(path)]
    answered = declined = 0
    for text in rng.sample(texts, 1500):
        mutated = _mutated(rng, text)
        frame = _frame(mutated)
        if frame is None:
            continue
        for options in _OPTIONS[:3]:
            if _agree(frame, options):
                answered += 1
            else:
                declined += 1
    assert answered > 300 and declined > 300, (answered, declined)  # both ways are exercised


def test_random_texts_are_read_the_same_or_declined() -> None:
    rng = random.Random(65)
    answered = 0
    for _ in range(4000):
        text = "(" + "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 14))) \
            if rng.random() < 0.3 else _random_tree(rng)
        frame = _frame(text)
        if frame is not None:
            answered += _agree(frame, ReadOptions())
    assert answered > 1500


_NAMES = st.sampled_from(["a", "b", "c", "x1", "é", "wiki"])
_CONSTANTS = st.sampled_from(["a", "b", "-", "12", '"s t"', '"a\\"b"', '"-"', "x1~e.3", '"q"~2,3', "Ab_"])
_ROLES = st.sampled_from([":ARG0", ":ARG0-of", ":mod", ":domain", ":wiki", ":op1~e.2", ":", ":consist-of",
                          ":polarity", ":TOP"])


@st.composite
def _trees(draw: Any, depth: int = 0) -> str:
    """A random Penman node: variables may repeat (a reentrancy, or one defined twice), constants may be
    variables, concepts and alignments optional."""
    parts = ["(", draw(_NAMES)]
    if draw(st.booleans()) or depth == 0:
        parts += [" / ", draw(st.sampled_from(["want-01", "c", '"q r"', "b", "x~e.1"]))]
    for _ in range(draw(st.integers(0, 3))):
        parts += [" ", draw(_ROLES), draw(st.sampled_from([" ", "\n  ", "\t"]))]
        if depth < 3 and draw(st.booleans()):
            parts.append(draw(_trees(depth + 1)))
        else:
            parts.append(draw(st.one_of(_CONSTANTS, _NAMES)))
    parts.append(draw(st.sampled_from([")", ")", ""])))  # a node left open: closed, or refused with strict
    return "".join(parts)


@settings(max_examples=400, deadline=None)
@given(_trees(), st.sampled_from(range(len(_OPTIONS))))
def test_random_trees_round_trip_both_ways(text: str, option: int) -> None:
    frame = _frame(text)
    assert frame is not None
    _agree(frame, _OPTIONS[option])


@pytest.mark.parametrize("text", [
    "(a / b :ARG0~12 )",  # a role's alignment cut short would leave "2" as its target
    "(a / b :ARG0 :ARG1 c)",  # a role cut short would leave "0" as its target
    "(a / b :ARG0~e.12 c)", "(a / b :ARG0 ~e.1 c ~2,3)", "(a / b~e.12)", "(a / b ~1,2,3 :x c)",
    "(a / b :x c~1,)", "(a / b :x c~1,x)", "(a / b :x c~)", "(a / b :x~ c)", "(a/b:x(c/d))", "(a/b:x\"s\")",
    '(a / b :x "s t"~1 :y "u\\"v")', "(a / b :x c) ", "(a / b :x c))", "(a / b) (c / d)", "(a / b) x",
    "(a / b :x (c / d) e)", "(a / b # note\n :x c)", "(a #b / c)", "(a / #b)", "(a / b :x #c)", "(a :x)",
    "(a / b :wiki c :wiki (c))", "(a / b :x a)", "(a / b :x (a))", "((a / b))", "(a / \"b\")", "(\"a\" / b)",
    "(a / b :x c\r)", "(a / b :x c\u2028)", "(a / b :x \"c\u2028\")", "(a / b :x c\x1c)", "(a / b :x (c",
    "(a / b\n:x\tc\n)", "(a / b :: c)", "(a / b : c)", "(a / b :x/y c)", "(a / b/c)", "(a / b:c)",
])
def test_texts_the_units_could_cut_otherwise_are_read_token_by_token(text: str) -> None:
    frame = _frame(text)
    assert frame is not None
    for options in _OPTIONS:
        _agree(frame, options)


def test_a_role_followed_by_any_white_space_but_a_space_is_a_break() -> None:
    """``breaks`` answers None at once for a printable text: every white space character but the space is
    unprintable, so a text that holds one is scanned (each such character after a role is its break)."""
    from mrp.codecs.penman.spacing import breaks

    spaces = [chr(code) for code in range(0x110000) if chr(code).isspace() and chr(code) != " "]
    assert len(spaces) > 20 and not any(space.isprintable() for space in spaces)
    for space in spaces:
        assert breaks(f"(a / b :ARG0{space}(c / d) :x e)") == {0: space}, hex(ord(space))
        assert breaks(f"(a / b :ARG0 (c / d) :x{space}{space}e)") == {1: space * 2}, hex(ord(space))
    assert breaks("(a / b :ARG0 (c / d) :x \"e\tf\")") is None
    assert breaks("(a / b :ARG0 (c / d))") is None
