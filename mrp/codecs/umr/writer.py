"""Writing UMR: sentence graphs as blocks in the release layout (a rule line, the sentence information,
``# :: sntN``, ``Index:`` and ``Words:``, the sentence-level graph, the alignment and the document-level
annotation).  A graph is written only when it reads back as itself: a sentence-information line or a
document-level relation that would not (a line break, a line the reader takes for structure, a label or end
that is no single token) is refused with the graph's id, never copied verbatim."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Dict, Iterable, List, TextIO, Tuple

from mrp.codecs.base import WriteOptions, cannot_write, write_blocks
from mrp.codecs.penman import Quoted, Symbol, penman_text
from mrp.codecs.umr import annotation
from mrp.codecs.umr.frame import structural
from mrp.errors import FormatError, excerpt
from mrp.graph import Graph, Placement

__all__ = ["format_graph", "token_spans", "write"]

_VARIABLE = re.compile(r'[^\s()/:"~]+')
#: roles whose values UMR writes unquoted (closed-class attributes)
_SYMBOL_ROLES = frozenset({
    "aspect", "modal-strength", "refer-number", "refer-person", "refer-definiteness", "polarity",
    "mode", "polite", "degree", "quant", "value", "modal-predicate",
})


def _info(lines: List[str]) -> List[str]:
    """Sentence-information lines as written (without trailing white space, which the reader drops);
    ValueError for a line that would not read back as one information line: empty, holding a line break,
    or one the frame reads as structure (a rule, ``# :: sntN``, a section header, ``Index:``, ``Words:``)."""
    written = []
    for line in lines:
        text = str(line).rstrip()
        if not text.strip():
            raise ValueError("a sentence-information line is empty")
        if "\n" in text or "\r" in text:
            raise ValueError(f"sentence-information line {excerpt(text)!r} holds a line break")
        if structural(text):
            raise ValueError(f"sentence-information line {excerpt(text)!r} would be read as the block's "
                             "structure")
        written.append(text)
    return written


def _variables(graph: Graph, number: int) -> Dict[int, str]:
    """The graph's own variables when every node has a distinct one, else fresh ``sN<letter>[k]`` ones."""
    given = graph.variables or {}
    names = [given.get(node.id) for node in graph.nodes]
    if len(set(names)) == len(names) and all(name and _VARIABLE.fullmatch(name) and not name.startswith("#")
                                             for name in names):
        return {node.id: given[node.id] for node in graph.nodes}
    fresh: Dict[int, str] = {}
    counts: Dict[str, int] = {}
    for node in graph.nodes:
        letters = [c for c in str(node.label or "x").lower() if "a" <= c <= "z"]
        prefix = f"s{number}{letters[0] if letters else 'x'}"
        counts[prefix] = counts.get(prefix, 0) + 1
        fresh[node.id] = prefix if counts[prefix] == 1 else f"{prefix}{counts[prefix]}"
    return fresh


def _symbols(graph: Graph) -> Graph:
    """A copy whose closed-class attribute values (``:aspect state``) are written unquoted."""
    nodes = []
    for node in graph.nodes:
        values = [Symbol(value) if (isinstance(value, str) and not isinstance(value, (Quoted, Symbol))
                                    and name in _SYMBOL_ROLES and _VARIABLE.fullmatch(value)) else value
                  for name, value in zip(node.properties, node.values)]
        nodes.append(replace(node, values=values))
    return replace(graph, nodes=nodes)


def token_spans(graph: Graph) -> Dict[int, List[Tuple[int, int]]]:
    """Node id -> the token spans (from 1) its anchors cover in the whitespace tokens of the input."""
    tokens = [(m.start(), m.end()) for m in re.finditer(r"\S+", graph.input or "")]
    spans: Dict[int, List[Tuple[int, int]]] = {}
    for node in graph.nodes:
        for start, end in node.anchors or []:
            covered = [k for k, (a, b) in enumerate(tokens, start=1) if a < end and start < b]
            if covered:
                spans.setdefault(node.id, []).append((covered[0], covered[-1]))
    return spans


def format_graph(graph: Graph, number: int = 1) -> str:
    """One sentence block in the release layout; ``number``: the sentence number when the graph has no
    placement.  FormatError when the graph cannot be written as UMR."""
    if graph.framework not in (None, "umr", "amr"):
        raise FormatError(f"cannot be written as UMR: framework {graph.framework} is not UMR",
                          graph_id=graph.id, framework=graph.framework)
    place = graph.document or Placement("d1", number, f"s{number}s0")
    number = place.sentence
    variable = place.variable
    if variable is None and place.relations:
        variable = f"s{number}s0"
    try:
        info = _info(place.info)
        document = annotation.format_document(variable, place.relations)
    except ValueError as error:
        raise cannot_write(graph, "UMR", error) from None
    names = _variables(graph, number)
    body = penman_text(_symbols(graph), names, indent=4)
    words = (graph.input or "").split()
    widths = [max(len(str(k)), len(word)) for k, word in enumerate(words, start=1)]
    lines = ["#" * 80]
    lines.extend(line for line in info if line.lstrip().startswith("#"))
    lines.append(f"# :: snt{number}")
    lines.append("Index: " + " ".join(str(k).ljust(w) for k, w in enumerate(widths, start=1)).rstrip())
    lines.append("Words: " + " ".join(word.ljust(w) for word, w in zip(words, widths)).rstrip())
    lines.extend(line for line in info if not line.lstrip().startswith("#"))
    lines += ["", "# sentence level graph:", body, "", "# alignment:"]
    spans = token_spans(graph)
    lines.extend(f"{names[node.id]}: {annotation.format_spans(spans.get(node.id, []))}"
                 for node in graph.nodes)
    lines += ["", "# document level annotation:", document]
    return "\n".join(lines).rstrip("\n") + "\n"


def write(graphs: Iterable[Graph], out: TextIO, options: WriteOptions) -> None:
    """Write sentence graphs as UMR blocks in the release layout."""
    count = 0

    def one(graph: Graph) -> str:
        nonlocal count
        count += 1
        return format_graph(graph, count)

    write_blocks(graphs, out, options, one, separator="\n\n")
