"""Triples: graphs as lists of ``(source, role, target)`` triples, the form of penman's ``Graph.triples``
(and of smatch's triples), one tab-separated triple per line and a blank line between graphs.

- A concept is an ``:instance`` triple (``a<TAB>:instance<TAB>want-01``); a relation names two variables
  (``a<TAB>:ARG0<TAB>b``); a target that is no variable (no triple has it as source) is a constant, written
  as Penman writes it (``"Obama"``, ``-``, ``5``).  A role may be written without its colon (``ARG0``).
- The graph's top is the source of its first triple (as ``penman.Graph`` takes it).
- Lines starting with ``#`` are comments, read as a Penman file's: ``# ::id X`` names the graph, ``# ::snt``
  gives its sentence; a graph without an id is numbered by its position in the file (from 0), as Penman's.

A graph is read as the Penman text ``penman.encode`` makes of its triples would be read, so its numbers are
those of the same graph written as Penman.  A line that is not three fields, a role that is no Penman role,
and triples that do not make one connected graph are FormatErrors naming their line.  Written, a graph is the
triples of its Penman text (``penman.decode``), its id on a ``# ::id`` line.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Iterator, List, Optional, Sequence, TextIO, Tuple, Union

from mrp.codecs.base import Bad, Codec, Item, ReadOptions, WriteOptions, write_blocks
from mrp.codecs.framing import blocks
from mrp.errors import FormatError
from mrp.graph import Graph
from mrp.io.source import Line

__all__ = ["CODEC", "read", "write", "format_graph", "penman_graph", "triples_text"]

Triple = Tuple[str, str, str]

#: a role as Penman writes it (after the colon): no space, parenthesis, quote, colon, slash or tilde
_ROLE = re.compile(r"[^\s()\":/~]+")
_NAME = re.compile(r"[^\s()\"~]+")
_BREAK = re.compile(r"[\t\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


def _sniff(line: str, after: Iterable[str]) -> Optional[str]:
    """Three tab-separated fields with a role in the middle (``a<TAB>:instance<TAB>want-01``)."""
    fields = line.split("\t")
    return "triples" if len(fields) == 3 and fields[1].strip().startswith(":") and all(fields) else None


#: the codec's facts (mrp.codecs reads them)
CODEC = Codec(formats={"triples": "amr"}, extensions={".triples": "triples"}, sniff=_sniff, penman=True)


def triple_of(fields: Sequence[Any]) -> Triple:
    """A triple as the reader takes it (the role with its colon); Bad for one that is not
    ``(source, role, target)`` of Penman tokens."""
    if len(fields) != 3 or not all(isinstance(field, str) for field in fields):
        raise Bad(f"not a triple of three strings (source, role, target): {fields!r}"[:200])
    if any(_BREAK.search(field) for field in fields):
        raise Bad(f"a tab or line break inside a triple: {fields!r}"[:200])
    source, role, target = (field.strip() for field in fields)
    role = role if role.startswith(":") else f":{role}"
    if not _ROLE.fullmatch(role[1:]):
        raise Bad(f"invalid role {role!r}")
    if not _NAME.fullmatch(source) or source.startswith("#"):  # a line starting with # is a comment
        raise Bad(f"invalid source {source!r}")
    if not target or "\n" in target:
        raise Bad(f"invalid target {target!r}")
    return source, role, target


def penman_graph(triples: Sequence[Sequence[Any]], metadata: Optional[dict] = None) -> Any:  # type: ignore[type-arg]
    """The ``penman.Graph`` of a list of triples (its top: the first triple's source); Bad for a triple that
    is not one, or no triple.

    Args:
        triples: ``(source, role, target)`` triples (penman's ``Graph.triples``).
        metadata: the graph's metadata (``{"id": ...}``), or None.

    Returns:
        The penman graph.
    """
    import penman

    checked = [triple_of(triple) for triple in triples]
    if not checked:
        raise Bad("a graph with no triple")
    return penman.Graph(checked, top=checked[0][0], metadata=dict(metadata or {}))


def triples_text(triples: Sequence[Sequence[Any]]) -> str:
    """The block of a file of triples holding a list of triples (no id line); Bad for a triple that is not
    one, or no triple."""
    checked = [triple_of(triple) for triple in triples]
    if not checked:
        raise Bad("a graph with no triple")
    return "\n".join("\t".join(triple) for triple in checked)


def penman_text(graph: Any) -> str:
    """The Penman text of a penman graph; Bad when its triples are not one connected graph."""
    import penman

    from mrp.codecs.penman import quiet_layout

    try:
        with quiet_layout():
            return str(penman.encode(graph))
    except penman.exceptions.PenmanError as error:
        raise Bad(f"the triples do not make one connected graph ({error})") from None


def _block(lines: List[Line], position: int) -> Tuple[List[Line], str]:
    """The Penman text of a block of triple lines (comments kept, an id line added where there is none),
    each line numbered with the block's first line; and the graph's id."""
    comments = [line.text for line in lines if line.text.lstrip().startswith("#")]
    triples = []
    for line in lines:
        if line.text.lstrip().startswith("#"):
            continue
        fields = line.text.split("\t")
        if len(fields) != 3:
            raise Bad(f"a line of {len(fields)} tab-separated field(s); a triple is source, role, target",
                      line.number)
        try:
            triples.append(triple_of(fields))
        except Bad as bad:
            raise Bad(bad.message, line.number) from None
    gid = next((match.group(1) for text in comments
                if (match := re.match(r"\s*#.*::id\s+(\S+)", text))), None)
    if gid is None:
        gid = str(position)
        comments.append(f"# ::id {gid}")
    text = penman_text(penman_graph(triples))
    first = lines[0].number
    return [Line(first, row) for row in [*comments, *text.split("\n")]], gid


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """Graphs from a file of triples (one block of tab-separated lines per graph); a block that cannot be
    read yields a FormatError naming its line."""
    from mrp.codecs.penman import read as read_penman

    position = 0
    for chunk in blocks(lines):
        block = list(chunk.lines)
        if chunk.bad:
            for error in chunk.bad:
                error.graph_id, error.framework = str(position), options.framework
                yield error
            position += 1
            continue
        if all(line.text.lstrip().startswith("#") for line in block):
            continue  # comments alone (a file's header) are no graph
        try:
            penman_lines, gid = _block(block, position)
        except Bad as bad:
            line = bad.line or block[0].number
            yield FormatError(bad.message, name, line, str(position), options.framework)
        else:
            for item in read_penman(penman_lines, name, options):
                if isinstance(item, FormatError):
                    item.graph_id = item.graph_id or gid
                yield item
        position += 1


def triples_of(graph: Graph) -> List[Triple]:
    """A graph's triples, as ``penman.decode`` gives them from its Penman text (the top's first)."""
    import penman

    from mrp.codecs.penman import format_graph as penman_format

    return [tuple(triple) for triple in penman.decode(penman_format(graph)).triples]  # type: ignore[misc]


def format_graph(graph: Graph) -> str:
    """A graph's block: its ``# ::id`` line, then a line for each triple."""
    lines = [f"# ::id {graph.id}"] if graph.id else []
    lines += ["\t".join(triple) for triple in triples_of(graph)]
    return "\n".join(lines)


def write(graphs: Iterable[Graph], out: TextIO, options: WriteOptions) -> None:
    """Write graphs as blocks of triples, a blank line after each."""
    write_blocks(graphs, out, options, format_graph)
