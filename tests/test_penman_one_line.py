"""Penman texts given to the library one graph a line (a list of strings, a language model's outputs) are read
without joining them (mrp.codecs.read_one_line_penman) into the corpus that reading them joined gives (each
graph's every field: id, line, layout, spacing, what mrp.read keeps to write it again, ...; each error), on
every graph of the shared Penman files put on one line, on seeded perturbations of them and on random texts,
under each read option; and it answers for the common case (every coli graph)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, List, Sequence

import pytest
from test_penman_fast import _file_frames, _mutated, _penman_files, _whole
from test_penman_parse import _PIECES, _random_tree

import mrp.codecs
from mrp.codecs.base import ReadOptions
from mrp.codecs.penman.keep import Kept
from mrp.corpora import Corpus
from mrp.errors import MRPError
from mrp.graph import Graph
from mrp.pipeline import inputs

from conftest import shared_path

_OPTIONS = [ReadOptions(), ReadOptions(no_wiki=True), ReadOptions(strict=True), ReadOptions(framework="umr"),
            ReadOptions(wsj_ids=True),
            ReadOptions(keep=True), ReadOptions(text={"0": "the zeroth", "2": "the second"}, keep=True)]


def _kept(written: Any) -> Any:
    return (written.comments, written.text, written.digest, written.id, written.input) \
        if isinstance(written, Kept) else written


def _everything(graph: Graph) -> Any:
    """Every field of a graph read, the ones ``==`` leaves out included."""
    return (_whole(graph), graph.line, graph.input, graph.breaks, graph.repairs, _kept(graph.written),
            graph.assigned_id, graph.language, graph.time, graph.source, graph.provenance, graph.targets,
            graph.version, graph.document)


def _corpus(corpus: Corpus) -> Any:
    return (corpus.name, corpus.format, [_everything(graph) for graph in corpus.graphs],
            [str(error) for error in corpus.errors], corpus.repaired)


def _read(texts: Sequence[str], options: ReadOptions) -> Any:
    try:
        return _corpus(inputs.corpus_of(list(texts), None, options, "system"))
    except MRPError as error:
        return str(error)


def _agree(texts: Sequence[str], options: ReadOptions, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Whether the one-line way answers ``texts`` (asserting the corpus is the joined way's)."""
    stripped = [text.strip() for text in texts]
    answered = mrp.codecs.read_one_line_penman(stripped, "system", options) is not None
    fast = _read(texts, options)
    with monkeypatch.context() as patched:
        patched.setattr(inputs, "read_one_line_penman", lambda *_: None)
        full = _read(texts, options)
    assert fast == full, texts
    return answered


def _one_line(path: Path) -> List[str]:
    return [" ".join(frame.chunk.text().split("\n")) for frame in _file_frames(path)]


def test_every_shared_penman_graph_on_one_line_is_read_as_joined(monkeypatch: pytest.MonkeyPatch) -> None:
    answered = 0
    for path in _penman_files():
        texts = _one_line(path)
        for start in range(0, len(texts), 50):
            for options in _OPTIONS:
                answered += _agree(texts[start:start + 50], options, monkeypatch)
    assert answered > 200, answered


def test_the_coli_graphs_are_read_the_one_line_way() -> None:
    for name in ("coli.gold.amr", "coli.system.amr"):
        texts = [block.strip() for block in (shared_path() / "data/pairs/amr" / name).read_text(
            encoding="utf-8").split("\n\n") if block.strip()]
        read = mrp.codecs.read_one_line_penman(texts, name, ReadOptions())
        assert read is not None and len(read) == len(texts) == 1368
        assert all(isinstance(graph, Graph) for graph in read)


def test_perturbed_and_random_lines_are_read_as_joined(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(6401)
    shared = [text for path in _penman_files() for text in _one_line(path)]
    extra = ["(a / b) (c / d)", "(a / b) x", "(a / b))", "(a / b", "# ::id 1\n(a / b)", "(a / b)\n\n(c / d)",
             "  (a / b)\t", "(a / b)\u00a0", "(a / b\n:ARG0 c)", "", "(a / b :ARG0 (c / d :ARG1 a))",
             "(a / b :wiki \"X\" :name (n / name :op1 \"X\"))", "(a / b :op1 \"(\")", "(a\\( / b)"]
    answered = declined = 0

    def text() -> str:
        if rng.random() < 0.1:
            return rng.choice(extra)
        if rng.random() < 0.3:
            return _mutated(rng, rng.choice(shared))
        if rng.random() < 0.4:
            return rng.choice(shared)
        made = "(" + "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 14))) if rng.random() < 0.2 \
            else _random_tree(rng)
        return " ".join(made.split("\n")) if rng.random() < 0.7 else made

    for _ in range(400):
        texts = [text() for _ in range(1 if rng.random() < 0.5 else rng.randint(2, 3))]
        if _agree(texts, rng.choice(_OPTIONS), monkeypatch):
            answered += 1
        else:
            declined += 1
    assert answered > 60 and declined > 60, (answered, declined)  # both ways are exercised


def test_a_string_of_one_line_is_read_as_its_text_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """A string given alone (``mrp.read(text)``) that is one line holding one plain graph is read the
    one-line way into the corpus its text gives read as a file; the others as a file."""
    rng = random.Random(6402)
    shared = [text for path in _penman_files()[:4] for text in _one_line(path)]
    texts = rng.sample(shared, 60) + [_mutated(rng, text) for text in rng.sample(shared, 60)] + [
        "(a / b) (c / d)", "(a / b) x", "(a / b))", "(a / b", "(a / b)\t ", "(a / b)\r", "(a / b)\u2028",
        "(a / b)\u00a0", " (a / b)", "(a / b :ARG0 (c / d :ARG1 a))", "(a / b :x c)\n", "(a / b # c"]
    answered = 0

    def read(text: str, options: ReadOptions) -> Any:
        try:
            return _corpus(inputs.corpus_of(text, None, options, "<string>"))
        except MRPError as error:
            return str(error)

    for text in texts:
        if inputs.is_path(text):
            continue
        for options in _OPTIONS:
            answered += mrp.codecs.read_one_line_penman([text.rstrip()], "<string>", options) is not None
            fast = read(text, options)
            with monkeypatch.context() as patched:
                patched.setattr(inputs, "read_one_line_penman", lambda *_: None)
                full = read(text, options)
            assert fast == full, (text, options)
    assert answered > 300, answered


def test_a_digest_kept_to_be_found_when_asked_is_the_one_recorded() -> None:
    """A graph read the one-line way with ``keep`` (``mrp.read``) records its digest only when asked for it:
    then the digest of the graph as read, as a digest recorded when reading gives it; a graph changed since
    reads as changed, and a digest asked for in a process hashing otherwise is -1 (reads as changed)."""
    import dataclasses
    import pickle

    from mrp.codecs.penman.keep import digest, kept
    from mrp.codecs.penman.writer import Symbol

    texts = [block.strip() for block in (shared_path() / "data/pairs/amr/coli.gold.amr").read_text(
        encoding="utf-8").split("\n\n") if block.strip()][:40]
    for k, text in enumerate(texts):
        graph = mrp.read(text)[0]
        found = graph.written
        assert isinstance(found, Kept) and found.known is None and found.found is None
        recorded = inputs.corpus_of(text + "\n", None, ReadOptions(keep=True), "<string>").graphs[0]
        assert isinstance(recorded.written, Kept) and recorded.written.known is not None  # read as a file
        assert found.digest == digest(graph) == recorded.written.known
        assert kept(graph) is found
        again = pickle.loads(pickle.dumps(graph))
        assert kept(again) is not None and again.written.digest == found.digest
        assert dataclasses.replace(again.written, found=None, hashing=found.hashing + 1).digest == -1
        graph.nodes[k % len(graph.nodes)].label = Symbol("changed-01")
        assert kept(graph) is None
