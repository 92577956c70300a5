"""Across all readers: N good graphs in any legal layout, with broken graphs inserted at random
between them, read as exactly the N good graphs with their ids, plus one problem per broken graph."""

from __future__ import annotations

import json
from typing import Callable, Dict, List, Tuple, Union

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mrp.codecs import ReadOptions, reader
from mrp.errors import FormatError
from mrp.graph import Graph
from mrp.io.source import Line

from conftest import budget

Part = List[Union[str, FormatError]]
#: format -> good graph (id, layout) -> its lines
GOOD: Dict[str, Callable[[str, int], Part]] = {
    "amr": lambda gid, layout: [
        [f"# ::id {gid}", "# ::snt A b.", "(a / alpha", "   :ARG0 (b / beta :op1 \"x (y\"))"],
        [f"# ::id {gid}", "(a / alpha :ARG0 (b / beta))"],
        [f"# ::id {gid} ::date today", "(a / alpha :ARG0 (b / beta)"],  # left open: a repair
    ][layout % 3],
    "eds": lambda gid, layout: [
        [f"#{gid}", "{e1:", " e1:_a_v<0:1>[ARG1 x2]", ' x2:named<2:3>("B}"){x NUM sg}[]', "}"],
        [f"#{gid} {{e1: e1:_a_v<0:1>[ARG1 x2], x2:_b_n<2:3>[]}}"],
        [f"#{gid}", "{e1: e1:_a_v<0:1>[]}"],
    ][layout % 3],
    "dm": lambda gid, layout: [
        [f"#{gid}", "1\tA\ta\tDT\t+\t+\t_\t_", "2\tb\tb\tNN\t-\t-\t_\tARG1"],
        [f"#{gid}", "1\tA\ta\tDT\t+\t+\t_\t_", "2\tb\tb\tNN\t-\t-\t_"],  # a short row: a repair
    ][layout % 2],
    "mrp": lambda gid, layout: [json.dumps({"id": gid, "framework": "amr", "tops": [0],
                                            "nodes": [{"id": 0, "label": "a"}][: 1 + layout % 2]})],
}
#: format -> broken graph kinds (id, kind) -> its lines; each is one problem
BROKEN: Dict[str, List[Callable[[str], Part]]] = {
    "amr": [
        lambda gid: [f"# ::id {gid}", "(x / y / z)"],
        lambda gid: [f"# ::id {gid}", "(x / y :ARG0)"],
        lambda gid: [f"# ::id {gid}", "(x / y))"],
        lambda gid: [f"# ::id {gid}", "(x / y", FormatError("not valid UTF-8"), "  :ARG0 (z / w))"],
        lambda gid: [f"# ::id {gid}", "(x / y :ARG0 (z / w) :ARG1 z :ARG2 (x / v))"],
    ],
    "eds": [
        lambda gid: [f"#{gid}", "{e1:", " e1:_a_v<0:1>[]"],
        lambda gid: [f"#{gid}", "{e1:", " e1:_a_v<0:1 broken", "}"],
        lambda gid: [f"#{gid} {{e1: e1:_a_v<0:1>[ARG1 x9]}}"],
        lambda gid: [f"#{gid}", "{e1:", FormatError("not valid UTF-8"), "}"],
        lambda gid: ["{ not a graph }"],
    ],
    "dm": [
        lambda gid: [f"#{gid}", "1\tA\ta\tDT\t+\t+"],
        lambda gid: [f"#{gid}", "1\tA\ta\tDT\t?\t-\t_"],
        lambda gid: [f"#{gid}", "1\tB\tb\tDT\t+\t-\t_"],  # "B" is not in its sentence "A b"
        lambda gid: [f"#{gid}", FormatError("not valid UTF-8")],
    ],
    "mrp": [
        lambda gid: [json.dumps({"id": gid, "nodes": []})[:-2]],
        lambda gid: [json.dumps({"id": gid, "nodes": [{"id": "0"}]})],
        lambda gid: [json.dumps({"id": gid, "nodes": [{"id": 0, "properties": ["p"], "values": [None]}]})
                     .replace("null", "NaN")],
        lambda gid: [FormatError("not valid UTF-8")],
    ],
}
#: formats whose graphs may follow each other without a blank line
NO_BLANK_NEEDED = {"amr", "eds", "dm", "mrp"}

Item = Tuple[bool, int, bool]  # (good, layout or broken kind, blank line after)
items = st.lists(st.tuples(st.booleans(), st.integers(0, 99), st.booleans()), max_size=12)


def corpus(fmt: str, plan: List[Item]) -> Tuple[List[Union[Line, FormatError]], List[str], int]:
    """The numbered lines of a file made to the plan, the good ids in order, and the broken count."""
    parts: Part = []
    good: List[str] = []
    broken = 0
    for k, (is_good, choice, blank) in enumerate(plan):
        if is_good:
            gid = f"g{k}"
            parts.extend(GOOD[fmt](gid, choice))
            good.append(gid)
        else:
            kinds = BROKEN[fmt]
            parts.extend(kinds[choice % len(kinds)](f"b{k}"))
            broken += 1
        if blank or fmt not in NO_BLANK_NEEDED:
            parts.append("")
    lines: List[Union[Line, FormatError]] = []
    for number, part in enumerate(parts, start=1):
        if isinstance(part, FormatError):
            lines.append(FormatError(part.message, "<f>", number))
        else:
            lines.append(Line(number, part))
    return lines, good, broken


def check(fmt: str, plan: List[Item]) -> None:
    lines, good, broken = corpus(fmt, plan)
    table = {f"g{k}": "A b" for k in range(len(plan))}
    found = list(reader(fmt)(lines, "<f>", ReadOptions(text=table if fmt in ("dm", "eds") else None)))
    graphs = [item for item in found if isinstance(item, Graph)]
    problems = [item for item in found if isinstance(item, FormatError)]
    assert [graph.id for graph in graphs] == good, [str(p) for p in problems]
    assert len(problems) == broken, [str(p) for p in problems]
    for problem in problems:
        assert problem.line is not None and (problem.graph_id is None or problem.graph_id.startswith("b"))


@pytest.mark.parametrize("fmt", ["amr", "eds", "dm", "mrp"])
@budget(60)
@given(plan=items)
def test_every_reader(fmt: str, plan: List[Item]) -> None:
    check(fmt, plan)
