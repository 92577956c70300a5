"""A block of a Penman file met for the first time that is one graph in the plain grammar is read without
framing it (:func:`mrp.codecs.penman.reading.plain_text`), its text scanned with the other blocks' in one
call once the compiled scan is ready: every graph, id, line, repair and error is what reading the file line
by line gives (each block framed, no memo), on the shared data, on hand-made blocks at the edges of the
rule, and on random and mutated texts; with the scan ready and not."""

from __future__ import annotations

import random
from pathlib import Path
from typing import List, Tuple

import pytest
from test_penman_parse import _PIECES, _random_tree, mutate

from mrp.codecs import ReadOptions, reader
from mrp.codecs.penman.blocks import plain_text
from mrp.codecs.penman.fast import plain_form, scanned_plain
from mrp.codecs.penman.scanner import scanned_codes, warm_scan
from mrp.corpora.load import read_corpus
from mrp.errors import FormatError
from mrp.graph import Graph, fingerprint
from mrp.io.source import read_lines

from conftest import shared_file

FILES = ["pairs/amr/coli.gold.amr", "pairs/amr/coli.system.amr", "pairs/amr/test1.amr", "pairs/amr/test2.amr",
         "wsj/amr/wsj.amr", "umr/ancast-samples/amr_gold.txt", "umr/ancast-samples/amr_test.txt"]

#: the largest shared files (read under the default options only)
LARGEST = ("pairs/amr/coli.system.amr", "wsj/amr/wsj.amr")

#: blocks at the edges of the rule: spaces and tabs after the graph, white space before it, a graph left open,
#: one closed too often, text after it, two graphs in a block, comments, escapes and parentheses in strings,
#: a unit separator (white space to framing, a symbol's character to the grammar), alignments, ``:wiki``
HAND = [
    "(a / alpha :ARG0 (b / beta))", "(a / alpha :ARG0 (b / beta)) \t ", " (a / alpha)", "\t(a / alpha)",
    "(a / alpha :ARG0 (b / beta)", "(a / alpha))", "(a / alpha) junk", "(a / alpha) (b / beta)",
    "(a / alpha)\n(b / beta)", "(a / alpha\n   :ARG0 (b / beta))  ", "(a / alpha\n# a comment\n :mod b)",
    "# only a comment\n(a / alpha)", "(a / alpha :name \"x (y\")", "(a / alpha :name \"x \\\" y\")",
    "(a / alpha :mod b\\(c / d))", "(a / alpha :mod\\(c / d))", "(a / alpha)\x1f", "(a / alpha :mod\n\x1f#x)",
    "(a / alpha :mod x\x1f)", "(a / alpha~e.1 :ARG0~e.2 (b / beta~3))", "(a / alpha :wiki \"Q1\" :wiki -)",
    "(a / alpha :ARG0 (a / beta))", "(a / é :mod \"ü\")", "(a / alpha :mod \"x\ny\")", "(a / alpha\r :mod b)",
    "(a)", "(a / alpha :ARG0 b :ARG1 (b / beta :mod a))", "()", "(a / alpha :)", "(a / alpha :mod)",
]


def _own(graph: Graph) -> Tuple[object, ...]:
    """Everything a graph holds: its content and its own fields."""
    return (fingerprint(graph), graph.id, graph.line, graph.input, graph.repairs, graph.written, graph.layout,
            graph.breaks, graph.variables, graph.flavor, graph.framework, graph.tops)


def _error(error: FormatError) -> Tuple[object, ...]:
    return (error.message, error.file, error.line, error.graph_id, error.framework)


def _same_as_line_by_line(path: str, options: ReadOptions) -> int:
    """Read a file both ways and compare; returns the graphs read."""
    alone = list(reader("amr")(read_lines(path), path, options))  # each block framed, no memo
    corpus = read_corpus(path, "amr", options, pack_after=1 << 62)
    graphs = [item for item in alone if isinstance(item, Graph)]
    assert [_own(graph) for graph in corpus.graphs] == [_own(graph) for graph in graphs]
    assert [_error(error) for error in corpus.errors] == \
        [_error(item) for item in alone if isinstance(item, FormatError)]
    assert [(r.line, r.graph_id, r.repairs) for r in corpus.repaired] == \
        [(g.line, g.id, tuple(g.repairs)) for g in graphs if g.repairs]
    return len(graphs)


def _texts(path: Path) -> List[str]:
    """A Penman file's blocks, each without its comment lines."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    return [text for text in ("\n".join(line for line in block.split("\n") if not line.startswith("#"))
                              for block in blocks) if text.strip()]


OPTIONS = [ReadOptions(framework="amr"), ReadOptions(framework="amr", no_wiki=True),
           ReadOptions(framework="amr", strict=True), ReadOptions(framework="amr", keep=True)]


@pytest.mark.parametrize("options", OPTIONS, ids=["plain", "no-wiki", "strict", "keep"])
def test_shared_files_and_their_texts_read_as_line_by_line(tmp_path: Path, scanning: str,
                                                           options: ReadOptions) -> None:
    # every shared file under the default options; under the others (each the same rule with one option
    # more), the files but the two largest, for the suite's time
    every = options == OPTIONS[0]
    names = FILES if every else [name for name in FILES if name not in LARGEST]
    texts: List[str] = []
    for name in names:
        path = shared_file("data", *name.split("/"))
        assert _same_as_line_by_line(str(path), options)
        texts += _texts(path)
    rng = random.Random(4)
    count = 3000 if every else 1000
    drawn = [rng.choice(texts) for _ in range(count)]  # texts without comments, met again (the protocol's)
    path = tmp_path / "drawn.amr"
    path.write_text("\n\n".join(drawn) + "\n", encoding="utf-8")
    assert _same_as_line_by_line(str(path), options) >= count


@pytest.mark.parametrize("options", OPTIONS, ids=["plain", "no-wiki", "strict", "keep"])
def test_blocks_at_the_edges_random_and_mutated_read_as_line_by_line(tmp_path: Path, scanning: str,
                                                                     options: ReadOptions) -> None:
    rng = random.Random(11)
    blocks = list(HAND)
    for _ in range(600):
        text = _random_tree(rng)
        if rng.random() < 0.5:
            tokens = list(text)
            for _ in range(rng.randint(1, 3)):
                mutate(rng, tokens, 4)
            text = "".join(tokens)
        if rng.random() < 0.2:
            text += rng.choice([" ", "\t", " \t", "\x1f", ")", " x", "\n#c", "\n)"])
        blocks.append(text)
    blocks += [rng.choice(blocks) for _ in range(len(blocks))]  # each met again, some more than once
    path = tmp_path / "edges.amr"
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    _same_as_line_by_line(str(path), options)


def test_the_plain_form_of_a_scan_is_the_texts_plain_form() -> None:
    """:func:`scanned_plain` gives :func:`plain_form`'s form wherever the scan reads a text."""
    warm_scan()
    rng = random.Random(5)
    texts = [text for name in FILES for text in _texts(shared_file("data", *name.split("/")))]
    texts += [*HAND, *(_random_tree(rng) for _ in range(2000))]
    texts += ["".join(rng.choice(_PIECES) for _ in range(12)) for _ in range(500)]
    read = 0
    for text in texts:
        codes = scanned_codes(text)
        if codes is None:
            continue
        read += 1
        for no_wiki in (False, True):
            assert scanned_plain(text, codes, no_wiki) == plain_form(text, no_wiki), text
    assert read > 2500


def test_plain_text_is_the_block_joined_when_it_may_be_one_graph() -> None:
    assert plain_text(["(a / b", "  :mod c)  \t"], ("(a / b", "  :mod c)  \t")) == "(a / b\n  :mod c)"
    assert plain_text(["(a / b) x"], ("(a / b) x",)) is None
    assert plain_text([" (a / b)"], (" (a / b)",)) is None
    assert plain_text(["(a / b", "# c", ")"], ("(a / b", "#", ")")) is None
