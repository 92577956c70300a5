"""penman.Graph objects are read without a round trip through text (mrp.codecs.penman.objects), and give
exactly what reading their text gives: the same graphs (every field, their lines and layout), the same
errors, the same scores; a graph whose text might read otherwise is read through its text."""

from __future__ import annotations

from pathlib import Path
from typing import Any, List, Tuple

import penman
import pytest

import mrp
from mrp.codecs.penman import graphs_of
from mrp.pipeline.inputs import _from_text, _joined, _penman_text, corpus_of, read_options

from conftest import shared_file, timeless


def _blocks(path: Path) -> List[str]:
    text = path.read_text(encoding="utf-8")
    return [block.strip() for block in text.split("\n\n") if block.strip()]


def _both(items: List[Any], **options: Any) -> Tuple[Any, Any]:
    """The corpus of the objects (direct where possible), and the corpus of their text."""
    reading = read_options(**options)
    direct = corpus_of(items, None, reading, "gold")
    text = _from_text(_joined([_penman_text(item) for item in items], "amr"), "amr", reading, "gold")
    return direct, text


def _fields(graph: Any) -> Tuple[Any, ...]:
    return (graph, graph.line, graph.layout, graph.breaks, graph.variables, graph.input, graph.repairs,
            [type(value) for node in graph.nodes for value in [node.label, *node.values]])


def _same(direct: Any, text: Any) -> None:
    assert [_fields(graph) for graph in direct.graphs] == [_fields(graph) for graph in text.graphs]
    assert [str(error) for error in direct.errors] == [str(error) for error in text.errors]
    assert direct.format == text.format and direct.repaired == text.repaired


@pytest.mark.parametrize("side", ["gold", "system"])
def test_coli_graphs_read_directly_equal_their_text_read(side: str) -> None:
    items = [penman.decode(block) for block in _blocks(shared_file(f"data/pairs/amr/coli.{side}.amr"))]
    assert graphs_of(items, side, read_options(framework="amr")) is not None  # no graph needs the text
    for options in ({}, {"no_wiki": True}, {"wsj_ids": True}):
        _same(*_both(items, **options))


EDGE_CASES = [
    '# ::id a1\n# ::snt The dog barks .\n(b / bark-01~e.2 :ARG0~e.1 (d / dog~e.1) :time "now"~e.3)',
    '(x / have-org-role-91 :ARG0-of (y / person :name (n / name :op1 "John" :op2 "Smith")) :mod x)',
    '# ::id wsj_0001.1 ::date 2020\n(a / and :op1 (b / b2 :polarity -) :op2 b :consist-of (c / c3))',
    '(a / alpha :wiki "Q1" :quant 5 :ARG1 (c / "quoted concept") :value "a \\" quote")',
    '# ::id empty\n# ::snt\n(a)',
]


def test_edge_cases_read_directly_equal_their_text_read() -> None:
    items = [penman.decode(text) for text in EDGE_CASES]
    assert graphs_of(items, "gold", read_options(framework="amr")) is not None
    for options in ({}, {"no_wiki": True}, {"wsj_ids": True}, {"text": {"a1": "given"}}):
        _same(*_both(items, **options))


def test_a_graph_whose_text_might_read_otherwise_is_read_as_text() -> None:
    odd = penman.Graph([("a", ":instance", "alpha"), ("a", ":value", '"two\nlines"')])
    items = [penman.decode(EDGE_CASES[0]), odd]
    assert graphs_of(items, "gold", read_options(framework="amr")) is None
    _same(*_both(items))
    deep = penman.decode("(a0 / x" + "".join(f" :ARG0 (a{k} / x" for k in range(1, 150)) + ")" * 150)
    assert graphs_of([deep], "gold", read_options(framework="amr")) is None


def test_penman_graphs_and_their_text_score_alike() -> None:
    gold = _blocks(shared_file("data/pairs/amr/coli.gold.amr"))[:200]
    system = _blocks(shared_file("data/pairs/amr/coli.system.amr"))[:200]
    objects = ([penman.decode(text) for text in gold], [penman.decode(text) for text in system])
    for metric in ("smatch", "mrp", "ancast", "sembleu"):
        expected = timeless(mrp.score(gold, system, metric=metric).to_dict())
        assert timeless(mrp.score(*objects, metric=metric).to_dict()) == expected, metric
