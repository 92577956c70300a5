"""CoNLL-U (Universal Dependencies, basic and enhanced): reader and writer.

The MRP 2019/2020 companion syntax, read as mtool reads it (formats ``conllu`` and ``ud``: the basic tree
from HEAD and DEPREL; ``eud``: the enhanced graph from DEPS):

- A graph is a block of token lines between blank lines; ``# sent_id = ID`` names it (else its position),
  ``# text = …`` is its input (else the input is rebuilt from the surface forms and ``SpaceAfter=No``).
- Every line of ten tab-separated columns is a node, numbered from 1 in file order: words, multiword
  token ranges (``3-4``) and empty nodes (``8.1``) alike. Its label is FORM; its properties are ``lemma``,
  ``upos`` and ``xpos`` and then each ``Name=Value`` of FEATS, in order.
- A node whose HEAD is ``0`` is a top. An edge runs from the head's node to the word's node, labelled
  DEPREL (``eud``: one edge for each ``head:relation`` of DEPS).
- Surface tokens (ranges and words outside ranges; not empty nodes) are anchored: by ``TokenRange=a:b``
  in MISC where it is given, else by finding the forms in the input in order. Words inside a range and
  empty nodes have no anchors (``ReadOptions.mtool``: read as mtool reads, :mod:`mrp.codecs.conllu_mtool`).

The writer writes what reads back to the same graph (each node's CoNLL-U ID as read, kept in
:attr:`mrp.graph.Graph.variables`, else numbered again from the anchors and the basic tree; anchors as
``TokenRange``), a basic tree followed by its enhanced graph (``ReadOptions.companions``: how MRP carries
both) as one sentence; it refuses (one line naming the graph) a graph that the format cannot hold.
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, TextIO, Tuple, Union

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
from mrp.codecs.conllu_mtool import anchors, rebuilt
from mrp.codecs.framing import blocks
from mrp.errors import FormatError, excerpt
from mrp.graph import Edge, Graph, Node
from mrp.io.source import Line

__all__: Sequence[str] = ["read", "write", "format_graph"]

#: the codec's facts (mrp.codecs reads them): mtool's ``conllu`` and ``ud`` read the basic tree, ``eud`` the
#: enhanced graph (DEPS); CoNLL-U is never told from its content
CODEC = Codec(formats={"conllu": "ud", "ud": "ud", "eud": "eud"},
              extensions={".conllu": "conllu", ".conll": "conllu"})

_COLUMNS = 10
_WORD = re.compile(r"[1-9][0-9]*\Z")
_RANGE = re.compile(r"([1-9][0-9]*)-([1-9][0-9]*)\Z")
_EMPTY = re.compile(r"(?:0|[1-9][0-9]*)\.[1-9][0-9]*\Z")
_TOKEN_RANGE = re.compile(r"(?:^|\|)TokenRange=([0-9]+):([0-9]+)(?:\||$)")
_FIXED = ("lemma", "upos", "xpos")
#: characters no cell may hold (the reader splits at tabs and lines)
_CELL_BREAK = re.compile(r"[\t\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _comment(text: str, key: str) -> Optional[str]:
    match = re.match(rf"#\s*{key}\s*=\s?(.*)\Z", text)
    return match.group(1) if match else None


def _rebuilt(rows: List[List[str]], surface: List[bool]) -> str:
    """The input from the surface forms, a space after each but where MISC says ``SpaceAfter=No``."""
    pieces: List[str] = []
    shown = [cells for cells, on in zip(rows, surface) if on]
    for k, cells in enumerate(shown):
        pieces.append(cells[1])
        if k + 1 < len(shown) and "SpaceAfter=No" not in cells[9].split("|"):
            pieces.append(" ")
    return "".join(pieces)


def _surface(rows: List[List[str]]) -> List[bool]:
    """Whether each row is a surface token: a range, or a word not inside a range (empty nodes never)."""
    inside: Set[int] = set()
    for cells in rows:
        match = _RANGE.match(cells[0])
        if match:
            inside.update(range(int(match.group(1)), int(match.group(2)) + 1))
    return [bool(_RANGE.match(cells[0])) or (bool(_WORD.match(cells[0])) and int(cells[0]) not in inside)
            for cells in rows]


def _properties(cells: List[str], line: int) -> Tuple[List[str], List[str]]:
    names, values = list(_FIXED), [cells[2], cells[3], cells[4]]
    if cells[5] != "_":
        for feature in cells[5].split("|"):
            name, equals, value = feature.partition("=")
            if not equals or not name:
                raise Bad(f"FEATS item '{excerpt(feature)}' is not Name=Value", line)
            names.append(name)
            values.append(value)
    return names, values


def _anchor(nodes: List[Node], rows: List[List[str]], surface: List[bool], numbers: List[int],
            text: str) -> None:
    """Anchor the surface tokens: by MISC's ``TokenRange`` where given, else by finding each run of forms
    in the text after the token before it."""
    cursor = 0
    run: List[int] = []

    def place(run: List[int], cursor: int) -> None:
        try:
            spans = align([rows[k][1] for k in run], text[cursor:])
        except AnchorError as error:
            raise Bad(f"cannot anchor: {error}", numbers[run[error.index]]) from None
        for k, (start, end) in zip(run, spans):
            nodes[k].anchors = [(cursor + start, cursor + end)]

    for k, cells in enumerate(rows):
        if not surface[k]:
            continue
        match = _TOKEN_RANGE.search(cells[9])
        if match is None:
            run.append(k)
            continue
        start, end = int(match.group(1)), int(match.group(2))
        if not 0 <= start <= end <= len(text):
            raise Bad(f"TokenRange={start}:{end} lies outside the sentence ({len(text)} characters)",
                      numbers[k])
        if run:
            place(run, cursor)
            run = []
        nodes[k].anchors = [(start, end)]
        cursor = end
    if run:
        place(run, cursor)


def _parse(block: List[Line], options: ReadOptions, position: int, framework: str) -> Graph:
    gid: Optional[str] = None
    text: Optional[str] = None
    rows: List[List[str]] = []
    numbers: List[int] = []
    for line in block:
        if line.text.startswith("#"):
            if rows:
                raise Bad("a comment line among the token lines", line.number)
            found = _comment(line.text, "sent_id")
            if found is not None:
                gid = found.strip()
            found = _comment(line.text, "text")
            if found is not None:
                text = found
            continue
        cells = line.text.split("\t")
        if len(cells) != _COLUMNS:
            raise Bad(f"token line has {len(cells)} columns; CoNLL-U has {_COLUMNS}", line.number)
        if not (_WORD.match(cells[0]) or _RANGE.match(cells[0]) or _EMPTY.match(cells[0])):
            raise Bad(f"ID '{excerpt(cells[0])}' is not a word, range or empty node ID", line.number)
        rows.append(cells)
        numbers.append(line.number)
    graph_id = gid if gid else str(position)
    if not rows:
        raise Bad("a sentence with no token lines", block[0].number if block else None)
    ids: Dict[str, int] = {}
    for k, cells in enumerate(rows):
        if cells[0] in ids:
            raise Bad(f"ID '{cells[0]}' is given twice", numbers[k])
        ids[cells[0]] = k + 1
    surface = _surface(rows)
    if text is None:
        text = rebuilt(rows, surface) if options.mtool else (options.text or {}).get(graph_id) or _rebuilt(
            rows, surface)
    nodes: List[Node] = []
    tops: List[int] = []
    for k, cells in enumerate(rows):
        names, values = _properties(cells, numbers[k])
        nodes.append(Node(id=k + 1, label=cells[1], properties=names, values=values))
        if cells[6] == "0":
            tops.append(k + 1)
    if options.mtool:
        try:
            for node, spans in zip(nodes, anchors(rows, surface, text)):
                node.anchors = spans
        except AnchorError as error:
            raise Bad(f"cannot anchor: {error}", numbers[error.index]) from None
    else:
        _anchor(nodes, rows, surface, numbers, text)
    edges: List[Edge] = []
    for k, cells in enumerate(rows):
        if framework == "eud":
            if cells[8] == "_":
                continue
            for relation in cells[8].split("|"):
                head, colon, label = relation.partition(":")
                if not colon:
                    raise Bad(f"DEPS item '{excerpt(relation)}' is not head:relation", numbers[k])
                if head in ids:
                    edges.append(Edge(source=ids[head], target=k + 1, label=label))
                elif head != "0":
                    raise Bad(f"DEPS names head '{excerpt(head)}', which is no token of the sentence",
                              numbers[k])
        elif cells[6] in ids:
            edges.append(Edge(source=ids[cells[6]], target=k + 1, label=cells[7]))
        elif cells[6] not in ("0", "_"):
            raise Bad(f"HEAD '{excerpt(cells[6])}' is no token of the sentence", numbers[k])
    graph = Graph(id=graph_id, framework=framework, flavor=0, input=text, tops=tops,
                  nodes=nodes, edges=edges)
    graph.variables = {k + 1: cells[0] for k, cells in enumerate(rows)}
    graph.line = block[0].number
    return graph


def _has_deps(block: List[Line]) -> bool:
    """Whether a sentence's DEPS column holds anything (a token line's ninth cell other than ``_``)."""
    return any(len(cells) == _COLUMNS and cells[8] != "_"
               for cells in (line.text.split("\t") for line in block if not line.text.startswith("#")))


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """Graphs from a CoNLL-U file; a sentence that cannot be read yields a FormatError naming its line.
    With ``options.companions``, a sentence read as its basic tree (``ud``) whose DEPS holds anything
    gives its enhanced graph (``eud``, the same id) right after it."""
    position = 0
    for chunk in blocks(lines):
        block = list(chunk.lines)
        gid = next((found.strip() for line in block if (found := _comment(line.text, "sent_id")) is not None),
                   None) or str(position)
        if chunk.bad:
            for error in chunk.bad:
                error.graph_id = gid
                error.framework = options.framework
                yield error
            position += 1
            continue
        if all(line.text.startswith("#") for line in block):
            continue  # comments alone (a file's header) are no sentence
        framework = options.framework or "ud"
        try:
            yield _parse(block, options, position, framework)
            if options.companions and framework != "eud" and _has_deps(block):
                yield _parse(block, options, position, "eud")
        except Bad as problem:
            line = problem.line if problem.line is not None else block[0].number
            yield FormatError(problem.message, name, line, gid, options.framework)
        position += 1


def _cell(value: object, what: str) -> str:
    text = "_" if value is None or value == "" else str(value)
    if _CELL_BREAK.search(text):
        raise Unwritable(f"{what} {text!r} holds a tab or line break")
    return text


def _token_ids(graph: Graph, basic: Optional[Graph]) -> Dict[int, str]:
    """Each node's CoNLL-U ID: as read, where the graph kept them, else numbered in node order.

    Numbered, an anchored node is a surface token: a word, or a multiword token whose words are the
    unanchored nodes right after it that have a basic head (an edge to them, or a top, in ``basic``, the
    graph's basic tree); any other unanchored node is an empty node after the last word (read back
    unanchored).  Without a basic tree (an ``eud`` graph alone) every unanchored node is an empty node."""
    kept = graph.variables or {}
    nodes = graph.nodes
    if kept and all(node.id in kept for node in nodes):
        out = {node.id: kept[node.id] for node in nodes}
    else:
        headed = set() if basic is None else {edge.target for edge in basic.edges} | set(basic.tops)
        out, word, empty, k = {}, 0, 0, 0
        while k < len(nodes):
            node = nodes[k]
            if node.anchors:
                inside = 0
                while k + 1 + inside < len(nodes) and not nodes[k + 1 + inside].anchors \
                        and nodes[k + 1 + inside].id in headed:
                    inside += 1
                if inside:
                    out[node.id] = f"{word + 1}-{word + inside}"
                    for within in nodes[k + 1:k + 1 + inside]:
                        word += 1
                        out[within.id] = str(word)
                else:
                    word += 1
                    out[node.id] = str(word)
                empty, k = 0, k + 1 + inside
                continue
            empty += 1
            out[node.id] = f"{word}.{empty}"
            k += 1
    for node_id, token in out.items():
        if not (_WORD.match(token) or _RANGE.match(token) or _EMPTY.match(token)):
            raise Unwritable(f"node {node_id} has CoNLL-U ID {token!r}")
    if len(set(out.values())) != len(out):
        raise Unwritable("two nodes have the same CoNLL-U ID")
    return out


def _heads(graph: Graph, tokens: Dict[int, str], enhanced: bool) -> Dict[int, List[Tuple[str, str]]]:
    """Each node's heads (CoNLL-U ID of the head, relation) from the graph's edges."""
    heads: Dict[int, List[Tuple[str, str]]] = {node.id: [] for node in graph.nodes}
    for edge in graph.edges:
        if edge.source not in tokens or edge.target not in tokens:
            raise Unwritable(f"edge {edge.source} -> {edge.target} names no node")
        if edge.attributes:
            raise Unwritable(f"edge {edge.source} -> {edge.target} has attributes")
        label = edge.label or ""
        if not label or (enhanced and "|" in label):
            raise Unwritable(f"edge {edge.source} -> {edge.target} has label {label!r}")
        heads[edge.target].append((tokens[edge.source], label))
    return heads


def _row(node: Node, token: str, basic: Optional[List[Tuple[str, str]]],
         enhanced: Optional[List[Tuple[str, str]]], top: bool) -> List[str]:
    """A token line: HEAD and DEPREL from ``basic`` (the node's heads in the basic tree; None: none written
    but the root's), DEPS from ``enhanced`` (its heads in the enhanced graph; None: ``_``)."""
    values = dict(zip(node.properties, node.values))
    features = []
    for name, value in zip(node.properties, node.values):
        if name in _FIXED:
            continue
        if not name or "=" in name or "|" in name or _CELL_BREAK.search(name) or name != name.strip():
            raise Unwritable(f"node {node.id} has property name {name!r}, which FEATS cannot hold")
        text = str(value)
        if "|" in text:
            raise Unwritable(f"node {node.id} has property {name}={text!r}, which FEATS cannot hold")
        features.append(f"{name}={_cell(text, f'node {node.id} property {name}')}")
    label = node.label if node.label else "_"
    deps = "_"
    if enhanced is not None:
        listed = ([("0", "root")] if top else []) + sorted(enhanced, key=lambda hr: _order(hr[0]))
        deps = "|".join(f"{h}:{_cell(r, 'edge label')}" for h, r in listed) or "_"
    if basic is None:
        head, relation = ("0", "root") if top else ("_", "_")
    else:
        if len(basic) > 1:
            raise Unwritable(f"node {node.id} has {len(basic)} heads; basic UD has one (write as eud)")
        if basic and top:
            raise Unwritable(f"node {node.id} is a top and has a head; basic UD has one head")
        head, relation = basic[0] if basic else (("0", "root") if top else ("_", "_"))
    misc = "_"
    if node.anchors:
        if len(node.anchors) != 1:
            raise Unwritable(f"node {node.id} has {len(node.anchors)} anchors; a token has one")
        start, end = node.anchors[0]
        misc = f"TokenRange={start}:{end}"
    return [token, _cell(label, f"node {node.id} label"), _cell(values.get("lemma"), "lemma"),
            _cell(values.get("upos"), "upos"), _cell(values.get("xpos"), "xpos"), "|".join(features) or "_",
            head, _cell(relation, "edge label"), deps, misc]


def _order(token: str) -> Tuple[float, ...]:
    return tuple(float(part) for part in re.split(r"[-]", token))


def format_graph(graph: Graph, enhanced: Optional[bool] = None, deps: Optional[Graph] = None) -> str:
    """The CoNLL-U block of one graph (comment lines and token lines, no trailing blank line).

    Args:
        graph: the graph.
        enhanced: write the edges as DEPS (enhanced UD) instead of HEAD/DEPREL; by default, for
            framework ``eud``.
        deps: the sentence's enhanced graph (framework ``eud``, the same nodes), written as DEPS beside
            ``graph``'s basic tree (HEAD and DEPREL).

    Returns:
        The block's text.
    """
    if enhanced is None:
        enhanced = graph.framework == "eud"
    try:
        gid = id_line_safe(graph.id)
        tokens = _token_ids(graph, None if enhanced else graph)
        if deps is not None and sorted(node.id for node in deps.nodes) != sorted(tokens):
            raise Unwritable(f"its {deps.framework} graph has other nodes")
        heads = _heads(graph, tokens, enhanced)
        companion = None if deps is None else _heads(deps, tokens, True)
        tops = set(graph.tops)
        lines = [f"# sent_id = {gid}"]
        if graph.input is not None:
            lines.append(f"# text = {_cell(graph.input, 'input')}")
        for node in graph.nodes:
            basic = None if enhanced else heads[node.id]
            deps_heads = heads[node.id] if enhanced else None if companion is None else companion[node.id]
            lines.append("\t".join(_row(node, tokens[node.id], basic, deps_heads, node.id in tops)))
        if not graph.nodes:
            raise Unwritable("a graph with no nodes (a CoNLL-U sentence has tokens)")
    except Unwritable as error:
        raise cannot_write(graph, "CoNLL-U", error) from None
    return "\n".join(lines)


def write(graphs: Iterable[Graph], out: TextIO, options: WriteOptions) -> None:
    """Write graphs as CoNLL-U sentences (enhanced, DEPS, for framework ``eud``), a blank line after each;
    a basic tree followed by its sentence's enhanced graph (``ud`` then ``eud``, the same id: what the
    reader gives with ``companions``) is one sentence: HEAD and DEPREL from one, DEPS from the other."""
    listed = list(graphs)
    deps = {id(graph): after for graph, after in zip(listed, listed[1:])
            if graph.framework != "eud" and after.framework == "eud" and graph.id == after.id}
    joined = {id(after) for after in deps.values()}
    write_blocks([graph for graph in listed if id(graph) not in joined], out, options,
                 lambda graph: format_graph(graph, deps=deps.get(id(graph))))
