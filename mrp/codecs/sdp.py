"""SDP 2015 tab-separated bilexical graphs (DM, PSD): reader and writer.

Columns: ID, FORM, LEMMA, POS, TOP (+/-), PRED (+/-), FRAME, then one argument
column per predicate (the rows with PRED ``+``, in order).  Reading follows the
MRP 2019 conversion: node id = 0-based token index, label = LEMMA (FORM when
LEMMA is ``_``), properties ``pos`` and (when not ``_``) ``frame``, edges from
the k-th predicate to every row whose k-th argument cell is a label, and
singleton nodes (no edge, not top) dropped, so node ids may have gaps.

Anchors are character spans in the sentence from ``options.text`` (an
``id -> sentence`` table); reading without a text table is refused per graph,
because the MRP graphs of DM and PSD are anchored (``options.mtool``: read
unanchored and without input, as mtool reads it).
"""

from __future__ import annotations

import re
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, TextIO, Tuple, Union

from mrp.codecs.anchoring import AnchorError, align
from mrp.codecs.base import (
    Bad,
    Codec,
    Item,
    ReadOptions,
    Unwritable,
    WriteOptions,
    cannot_write,
    id_line_safe,
    write_blocks,
)
from mrp.codecs.framing import Chunk, blocks
from mrp.errors import FormatError, excerpt
from mrp.graph import Edge, Graph, Node
from mrp.io.source import Line


def _sniff(line: str, after: Iterable[str]) -> Optional[str]:
    """``#SDP 2015``, or an id line ``#NUMBER`` followed by a tab-separated token line, is SDP."""
    if line.startswith("#SDP"):
        return "sdp"
    if re.fullmatch(r"#\d+", line):
        following = next((rest for rest in after if rest.strip()), "")
        if re.match(r"\d+\t", following):
            return "sdp"
    return None


#: the codec's facts (mrp.codecs reads them): ``sdp`` names no framework (the header or --framework does)
CODEC = Codec(formats={"dm": "dm", "psd": "psd", "sdp": None},
              extensions={".sdp": "sdp", ".dm": "dm", ".psd": "psd"}, sniff=_sniff)

_HEADER = "#SDP 2015"
_FIXED = 7
_HEADER_LINE = re.compile(r"#SDP(?:\s|$)")
#: Node ids are token indices and every token up to the last is written as a row, so a graph
#: with a node id this large is refused (no sentence has so many tokens; node id 10**9 would
#: otherwise write a billion filler rows).
MAX_TOKENS = 100_000
#: At most this many cells (rows x columns) in the table of one graph (a sentence of 200 tokens
#: with 100 predicates has 21,400).
MAX_CELLS = 2_000_000




def _parse_block(
    block: List[Line], name: str, options: ReadOptions, position: int
) -> Graph:
    gid: Optional[str] = None
    rows: List[Tuple[Line, List[str]]] = []
    for line in block:
        if line.text.startswith("#"):
            if gid is None and not rows:
                gid = line.text[1:].strip() or None
            continue
        rows.append((line, line.text.split("\t")))
    graph_id = gid if gid is not None else str(position)
    predicates = [k for k, (_, cells) in enumerate(rows) if len(cells) > 5 and cells[5] == "+"]
    width = _FIXED + len(predicates)
    nodes: List[Node] = []
    forms: List[str] = []
    tops: List[int] = []
    edges: List[Edge] = []
    repairs: List[str] = []
    for k, (line, cells) in enumerate(rows):
        if len(cells) != width:
            problem = (f"token {k + 1} has {len(cells)} columns; expected {width} "
                       f"(7 + {len(predicates)} predicates)")
            if not _FIXED <= len(cells) < width or options.strict:
                raise Bad(problem, line.number)
            missing = width - len(cells)
            repairs.append(f"token {k + 1}: {missing} missing argument {'cell' if missing == 1 else 'cells'} "
                           f"read as '_' (line {line.number})")
            cells = cells + ["_"] * missing
        if cells[0] != str(k + 1):
            problem = f"token {k + 1} has ID '{excerpt(cells[0])}'; expected {k + 1}"
            if options.strict or not (cells[0].isascii() and cells[0].isdigit()):  # mtool ignores the ID
                raise Bad(problem, line.number)
            repairs.append(f"{problem}: read by its position (line {line.number})")
        for column, what in ((4, "TOP"), (5, "PRED")):
            if cells[column] not in ("+", "-"):
                raise Bad(f"token {k + 1}: {what} is '{excerpt(cells[column])}', not + or -", line.number)
        form, lemma, pos, frame = cells[1], cells[2], cells[3], cells[6]
        properties, values = ["pos"], [pos]
        if frame != "_":
            properties.append("frame")
            values.append(frame)
        nodes.append(Node(id=k, label=form if lemma == "_" else lemma,
                          properties=properties, values=values))
        forms.append(form)
        if cells[4] == "+":
            tops.append(k)
        for column, label in enumerate(cells[_FIXED:]):
            if label != "_":
                edges.append(Edge(source=predicates[column], target=k, label=label))
    graph = Graph(id=graph_id, framework=options.framework, flavor=0, tops=tops, edges=edges)
    if options.text is not None or not options.mtool:  # mtool reads SDP without sentences unanchored
        _anchor(graph, nodes, forms, rows, options)
    graph.line = block[0].number
    connected = set(tops)
    for edge in edges:
        connected.add(edge.source)
        connected.add(edge.target)
    graph.nodes = [node for node in nodes if node.id in connected]
    graph.repairs = repairs or None
    return graph


def _anchor(graph: Graph, nodes: List[Node], forms: List[str], rows: List[Tuple[Line, List[str]]],
            options: ReadOptions) -> None:
    """Anchor the tokens in the graph's sentence from the text table (which becomes its input)."""
    if options.text is None:
        raise Bad("anchoring SDP tokens needs the sentences: give a text table (--text)", None)
    text = options.text.get(graph.id)
    if text is None:
        raise Bad(f"no sentence for graph '{graph.id}' in the text table (--text)", None)
    try:
        spans = align(forms, text)
    except AnchorError as error:
        raise Bad(f"cannot anchor: {error}", rows[error.index][0].number) from None
    for node, span in zip(nodes, spans):
        node.anchors = [span]
    graph.input = text


def _new_graph(line: Line, block: Chunk) -> bool:
    """A ``#`` line after token rows (or unreadable lines) starts the next graph, even without a
    blank line."""
    return line.text.startswith("#") and (bool(block.bad) or any(not row.text.startswith("#")
                                                                  for row in block.lines))


def _chunks(lines: Iterable[Union[Line, FormatError]]) -> Iterator[Tuple[List[Line], List[FormatError]]]:
    """The lines of each graph, framed by blank lines and ``#id`` lines, with its unreadable lines.

    ``#SDP 2015`` header lines are dropped wherever they start a block (files concatenated
    from several SDP files repeat them).
    """
    for chunk in blocks(lines, _new_graph):
        block = list(chunk.lines)
        while block and _HEADER_LINE.match(block[0].text):
            block.pop(0)
        if block or chunk.bad:
            yield block, chunk.bad


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """Graphs from an SDP 2015 file; a block that cannot be read yields a FormatError."""
    position = 0
    for block, bad in _chunks(lines):
        if bad:
            gid = block[0].text[1:].strip() if block and block[0].text.startswith("#") else None
            for error in bad:
                error.graph_id = gid
                error.framework = options.framework
                yield error
            position += 1
            continue
        if all(line.text.startswith("#") for line in block):
            continue
        try:
            yield _parse_block(block, name, options, position)
        except Bad as problem:
            gid = block[0].text[1:].strip() if block[0].text.startswith("#") else str(position)
            line = problem.line if problem.line is not None else block[0].number
            yield FormatError(problem.message, name, line, gid, options.framework)
        position += 1




def _split(text: str, count: int) -> List[str]:
    """``count`` token forms for a stretch of text between two written tokens."""
    if count <= 0:
        return []
    pieces = text.split()
    if len(pieces) > count:
        pieces = pieces[: count - 1] + [" ".join(pieces[count - 1:])]
    while len(pieces) < count:
        longest = max(range(len(pieces)), key=lambda i: len(pieces[i]), default=-1)
        if longest < 0 or len(pieces[longest]) < 2:
            pieces.extend(["_"] * (count - len(pieces)))
            break
        piece = pieces[longest]
        pieces[longest: longest + 1] = [piece[0], piece[1:]]
    return pieces


def _form(node: Node, text: Optional[str]) -> Optional[str]:
    if text is None or not node.anchors:
        return None
    start = min(s for s, _ in node.anchors)
    end = max(e for _, e in node.anchors)
    return text[start:end]


def _clean(cell: Any) -> str:
    value = "_" if cell is None or cell == "" else str(cell)
    return re.sub(r"[\t\n\r]", " ", value)


def _cell(node: Node, what: str, value: Any) -> str:
    """A node's lemma, pos or frame as its column; Unwritable for a value that would not read back as
    itself: holding a tab or a line break, empty, or ``_`` (read as no value)."""
    if value is None:
        return "_"
    text = str(value)
    if text in ("", "_") or re.search(r"[\t\n\r]", text):
        raise Unwritable(f"node {node.id} has {what} {excerpt(text)!r}, which SDP cannot hold")
    return text


def _check_size(graph: Graph, nodes: List[Node], text: Optional[str], predicates: int) -> None:
    """Unwritable unless every row would be a real token: a node, or a token of the input between
    nodes (tokens are non-empty spans, so the input has at most one per non-space character)."""
    rows = nodes[-1].id + 1 if nodes else 0
    limit = max(len(nodes), sum(1 for c in text if not c.isspace()) if text else 0)
    if rows > limit:
        held = f"an input of {limit:,} non-space characters" if text else "no input"
        raise Unwritable(f"node ids up to {rows - 1:,} need {rows:,} token rows, but {len(nodes):,} "
                         f"nodes and {held} hold at most {limit:,} tokens")
    if rows * (_FIXED + predicates) > MAX_CELLS:
        raise Unwritable(f"the SDP table would have {rows:,} rows x {_FIXED + predicates:,} columns "
                         f"(at most {MAX_CELLS:,} cells)")


def _rows(graph: Graph) -> List[List[str]]:
    nodes = sorted(graph.nodes, key=lambda node: node.id)
    for node in nodes:
        if not isinstance(node.id, int) or node.id < 0:
            raise Unwritable(f"node id {node.id!r} is not a token index")
        if node.id >= MAX_TOKENS:
            raise Unwritable(f"node id {node.id} is not a token index (at most {MAX_TOKENS:,} tokens)")
        for name in node.properties:
            if name not in ("pos", "frame"):
                raise Unwritable(f"node {node.id} has property '{name}' (only pos and frame fit)")
    by_id = {node.id: node for node in nodes}
    cells: Dict[Tuple[int, int], str] = {}
    for edge in graph.edges:
        if edge.attributes:
            raise Unwritable(f"edge {edge.source} -> {edge.target} has attributes")
        if edge.source not in by_id or edge.target not in by_id:
            raise Unwritable(f"edge {edge.source} -> {edge.target} names no node")
        if edge.label is None or edge.label in ("", "_") or re.search(r"\s", edge.label):
            raise Unwritable(f"edge {edge.source} -> {edge.target} has label {edge.label!r}")
        if (edge.source, edge.target) in cells:
            raise Unwritable(f"two edges {edge.source} -> {edge.target} (SDP has one cell per pair)")
        cells[(edge.source, edge.target)] = edge.label
    text = graph.input
    _check_size(graph, nodes, text, len({source for source, _ in cells}))
    forms: Dict[int, str] = {}
    previous_end = 0
    previous_id = -1
    count = nodes[-1].id + 1 if nodes else 0
    for node in nodes:
        form = _form(node, text)
        if text is not None and form is not None and node.anchors:
            start = min(s for s, _ in node.anchors)
            gap = _split(text[previous_end:start], node.id - previous_id - 1)
            for k, piece in enumerate(gap):
                forms[previous_id + 1 + k] = piece
            previous_end = max(e for _, e in node.anchors)
        forms[node.id] = form if form else (node.label or "_")
        previous_id = node.id
    if text is not None and nodes and nodes[-1].anchors:
        for piece in text[previous_end:].split():
            forms[count] = piece
            count += 1
    elif text is not None and not nodes:
        for piece in text.split():
            forms[count] = piece
            count += 1
    predicates = sorted({source for source, _ in cells})
    tops = set(graph.tops)
    rows: List[List[str]] = []
    for k in range(count):
        token = by_id.get(k)
        values = dict(zip(token.properties, token.values)) if token is not None else {}
        row = [
            str(k + 1),
            _clean(forms.get(k, "_")),
            _cell(token, "label", token.label) if token is not None else "_",
            _cell(token, "pos", values.get("pos")) if token is not None else "_",
            "+" if k in tops else "-",
            "+" if k in predicates else "-",
            _cell(token, "frame", values.get("frame")) if token is not None else "_",
        ]
        row.extend(cells.get((p, k), "_") for p in predicates)
        rows.append(row)
    return rows


def format_graph(graph: Graph) -> str:
    """The SDP 2015 block of one graph (``#id`` line and token rows, no trailing blank line)."""
    try:
        rows = _rows(graph)
        gid = id_line_safe(graph.id)
        if _HEADER_LINE.match("#" + gid):
            raise Unwritable(f"graph id {gid!r} would be read as the '#SDP' header")
    except Unwritable as error:
        raise cannot_write(graph, "SDP", error) from None
    return "\n".join([f"#{gid}"] + ["\t".join(row) for row in rows])


def write(graphs: Iterable[Graph], out: TextIO, options: WriteOptions) -> None:
    """Write graphs as SDP 2015 blocks after a ``#SDP 2015`` header line."""
    write_blocks(graphs, out, options, format_graph, header=_HEADER)


__all__: Sequence[str] = ["read", "write", "format_graph"]
