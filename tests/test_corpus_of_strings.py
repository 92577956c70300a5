"""A list of strings given to the library (a reward function's call) is read by ``corpus_of`` without asking
what else it could be: into the corpus that the same strings give as a tuple (which takes the way of every
other kind of list), field for field and error for error, under each format and read option: the shared
Penman texts one a line and as written, MRP JSON lines, triples, and malformed, empty and mixed lists."""

from __future__ import annotations

import json
import random
from typing import Any, List, Optional, Sequence

from test_penman_fast import _penman_files
from test_penman_one_line import _OPTIONS, _corpus, _one_line

from mrp.codecs.base import ReadOptions
from mrp.errors import MRPError
from mrp.pipeline import inputs

from conftest import shared_path


def _read(graphs: Any, fmt: Optional[str], options: ReadOptions) -> Any:
    try:
        return _corpus(inputs.corpus_of(graphs, fmt, options, "system"))
    except MRPError as error:
        return f"{type(error).__name__}: {error}"


def _same(texts: Sequence[str], fmt: Optional[str], options: ReadOptions) -> None:
    listed = _read(list(texts), fmt, options)
    assert listed == _read(tuple(texts), fmt, options), (texts, fmt)


def _mrp_lines() -> List[str]:
    path = shared_path() / "data/pairs/amr/test1.mrp"
    return [line for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


def _written(path: Any) -> List[str]:
    return [block for block in path.read_text(encoding="utf-8").split("\n\n") if block.strip()]


def test_shared_texts_as_a_list_are_read_as_the_same_tuple() -> None:
    rng = random.Random(6403)
    for path in _penman_files():
        lines, blocks = _one_line(path), _written(path)
        for texts in (lines[:8], blocks[:4], rng.sample(lines, min(len(lines), 4))):
            for options in rng.sample(_OPTIONS, 2):
                _same(texts, rng.choice([None, "amr"]), options)


def test_other_formats_and_odd_lists_are_read_as_the_same_tuple() -> None:
    mrp_lines = _mrp_lines()
    triples = "a\t:instance\tb\nc\t:instance\td\na\t:ARG0\tc"
    cases: List[Sequence[str]] = [
        mrp_lines[:5], [json.dumps(json.loads(mrp_lines[0]), indent=1)], [triples], [triples, triples],
        [""], ["", "(a / b)"], ["  (a / b)  "], ["(a / b)", "not a graph"], ["(a / b"], ["# ::id 7\n(a / b)"],
        ["(a / b) (c / d)"], ["(a / b)", mrp_lines[0]], [mrp_lines[0], "(a / b)"], ["{e3:\n}"],
        ["(a / b :wiki \"X\" :name (n / name :op1 \"X\"))"]]
    for texts in cases:
        for fmt in (None, "amr", "mrp", "triples"):
            for options in (ReadOptions(), ReadOptions(no_wiki=True), ReadOptions(framework="amr"),
                            ReadOptions(strict=True)):
                _same(texts, fmt, options)
