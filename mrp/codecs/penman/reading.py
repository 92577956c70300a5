"""Reading Penman AMR files: each frame (:mod:`.framing`) to a graph (:mod:`.amr` says what a graph holds),
and a block of lines met again read from what its first copy gave.

Framing never crosses a blank line, so the frames of a block (lines between blank lines) follow from the
block's lines alone, and not even from what its comment lines say.  Read from a
:class:`~mrp.io.source.Source` with a memo of the texts read (``ReadOptions.memo``,
:mod:`mrp.codecs.repeats`), a block is framed once: the :class:`Shape` of each frame (lines counted from
the block's first, graph text, what the reader repairs) is kept by the block's lines, each comment line's
text left out.  A block met again (its comments may differ: another id, another sentence) is read from its
shapes and the graphs its texts gave; what is each graph's own (id, position-made id, line, sentence,
repairs and their lines, comments written) comes from its own copy.  A block with an unreadable line, a
frame the reader refuses, or a text whose graph is not at hand (forgotten, or unreadable: its error names
its own lines) is read line by line, as every block is without a memo.  A block met for the first time
that is one graph in the plain grammar and nothing else (:func:`.blocks.plain_text`) is read from the
text's :class:`~.fast.Plain` form without framing it: from the compiled scan's reading of it, made for many
blocks in one call, once the scan is ready.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Hashable, Iterable, Iterator, List, Optional, Sequence, Tuple, Union, cast

from mrp.codecs.base import Bad, Item, ReadOptions
from mrp.codecs.penman.amr import _built, map_wsj_id
from mrp.codecs.penman.blocks import SCANNED, block_key, plain_text, scanned_blocks
from mrp.codecs.penman.fast import Plain, built, fast_graph, plain_form, scanned_plain
from mrp.codecs.penman.framing import Frame, frames, metadata
from mrp.codecs.penman.keep import keep_frame
from mrp.codecs.penman.light import light
from mrp.codecs.penman.scan import Scanned, plain_of, scanned_all
from mrp.codecs.penman.spacing import breaks
from mrp.codecs.repeats import KEPT
from mrp.errors import FormatError, excerpt
from mrp.graph import Graph
from mrp.io.limits import within_counts
from mrp.io.source import Block, Line, Source
from mrp.memo import Memo

__all__ = ["Shape", "one_line_graphs", "read", "read_string"]


@dataclass(frozen=True)
class Shape:
    """One frame as its lines tell it, line numbers counted from a given line (a block's first: 0)."""

    #: the frame's comment lines
    comments: Tuple[int, ...]
    #: its first line (its first comment line, else its first graph line)
    first: int
    #: its graph text (None: a frame of comments only) and the parentheses left open at its end
    text: Optional[str]
    opened: int
    #: what the reader repairs to read it, as (message, line)
    repairs: Tuple[Tuple[str, int], ...]
    #: whether its graph text is whole lines with nothing after the graph
    plain: bool


def _repairs(frame: Frame, strict: bool) -> List[Tuple[str, int]]:
    """What the original SMATCH tool repairs silently in a frame, as (message, line); Bad for what
    it refuses (a ``)`` after the end of the graph) and, with ``strict``, for text after the graph
    (a graph left open is then refused by penman itself)."""
    found: List[Tuple[str, int]] = []
    last = frame.chunk.lines[-1].number if frame.chunk.lines else frame.first or 0
    for piece in frame.trailing:
        if ")" in piece.text or strict:
            raise Bad(f"Penman syntax error: unexpected '{excerpt(piece.text)}' after the end of the graph",
                      piece.number)
        found.append((f"ignored text after the end of the graph: '{excerpt(piece.text)}'", piece.number))
    if frame.opened and not strict:
        count = frame.opened
        found.append((f"closed {count} {'parenthesis' if count == 1 else 'parentheses'} left open at the "
                      "end of the graph", last))
    return found


def shape(frame: Frame, start: int, strict: bool) -> Shape:
    """A frame's :class:`Shape`, its lines counted from ``start``; Bad when the reader refuses it (text
    after the graph, see :func:`_repairs`).

    Args:
        frame: a frame without unreadable lines.
        start: the line counted as 0.
        strict: ``ReadOptions.strict``.

    Returns:
        The shape.
    """
    comments = tuple(line.number - start for line in frame.comments)
    first = (frame.first or start) - start
    if not frame.chunk.lines:
        return Shape(comments, first, None, 0, (), True)
    repairs = tuple((message, line - start) for message, line in _repairs(frame, strict))
    return Shape(comments, first, frame.chunk.text(), frame.opened, repairs,
                 not frame.trailing and not any(frame.chunk.starts))


def block_shapes(framed: Sequence[Frame], first: int, strict: bool) -> Tuple[Shape, ...]:
    """The shapes of a block's frames, lines counted from the block's ``first``; none (an empty tuple) when
    a frame has unreadable lines or is refused: such a block is read line by line each time."""
    if any(frame.chunk.bad for frame in framed):
        return ()
    try:
        return tuple(shape(frame, first, strict) for frame in framed)
    except Bad:
        return ()


def content_key(text: str, opened: int, options: ReadOptions) -> Hashable:
    """The memo key of a graph text: the text, the parentheses it closes, and every read option
    :func:`~mrp.codecs.penman.amr._built` reads."""
    return (text, 0 if options.strict else opened, options.strict, options.no_wiki, options.framework)


class _Reading:
    """One read of a file: the graphs numbered so far, the comment blocks since the last graph (an LDC
    header, kept with the next graph read as written), and the shapes of the blocks met."""

    def __init__(self, name: str, options: ReadOptions) -> None:
        self.name, self.options = name, options
        self.framework = options.framework or "amr"
        self.position = 0
        self.before: List[str] = []
        #: the memo of graph texts read (a Repeats) when given
        self.memo: Any = options.memo
        #: a block's key -> the shapes of its frames (none: read line by line each time) and the memo key of
        #: each graph text
        self.shapes: Memo[Tuple[str, ...], Tuple[Tuple[Shape, ...], Tuple[Hashable, ...]]] = Memo(KEPT) \
            if self.memo is None else self.memo.kept(("penman shapes", options.strict, options.no_wiki,
                                                       options.framework))

    def block(self, block: Block, form: Optional[Scanned] = None, key: Optional[Tuple[str, ...]] = None,
              found: Optional[Tuple[Tuple[Shape, ...], Tuple[Hashable, ...]]] = None) -> List[Item]:
        """The items of a block: from its shapes when met before and every graph of its texts is at hand,
        else from its frames (its shapes kept); ``form``: the block's text as the compiled scan read it,
        when it did (:func:`plain_text`); ``key``: its :func:`block_key` when made already, and ``found``
        what :attr:`shapes` held under it then (the shapes of a key are the same whenever made)."""
        if not block.clean:
            return self.frames(block)
        lines: List[str] = block.lines  # type: ignore[assignment]  # a clean block holds texts only
        if key is None:
            key = block_key(lines)
        if found is None:
            found = self.shapes.get(key)
        if found is None:
            text = plain_text(lines, key)
            if text is not None:
                plain = scanned_plain(text, form.codes, self.options.no_wiki) if form is not None else \
                    plain_form(text, self.options.no_wiki)
                if plain is not None:
                    return [self._plain(block.first, key, text, plain)]
            framed = list(frames(block.items()))
            shapes = self.shapes.keep(key, self._shapes(framed, block.first))[0]
            if not shapes:
                return [item for frame in framed for item in self.frame(frame)]
            start = block.first
            return [item for frame, one in zip(framed, shapes) for item in self.frame(frame, one, start)]
        shapes, keys = found
        template = self.memo.template
        if len(shapes) == 1 and len(keys) == 1 and not shapes[0].comments:  # one graph, no comment line
            graph = template(keys[0])
            if graph is None:
                return self.frames(block)
            gid = str(self.position)  # the id of a graph without metadata (_numbered)
            self.position += 1
            return [self._own(self.memo.copy(graph, gid), shapes[0], block.first, {}, False, [])]
        templates: List[Graph] = [template(one) for one in keys]
        if not shapes or any(graph is None for graph in templates):
            return self.frames(block)
        return self._copies(shapes, templates, block.first, lines)

    def _plain(self, first: int, key: Tuple[str, ...], text: str, plain: Plain) -> Graph:
        """The graph of a block met for the first time that is one graph in the plain grammar
        (:func:`plain_text`), read from its Plain form: what its one frame gives, without framing it."""
        one = Shape((), 0, text, 0, (), True)
        options = self.options
        content = content_key(text, 0, options)
        self.shapes.keep(key, ((one,), (content,)))
        gid = self._numbered({})[0]
        template = self.memo.template(content)
        if template is None:
            graph = built(plain, gid, options)
            graph.breaks = breaks(text)
            self.memo.keep(content, graph)
        else:
            graph = self.memo.copy(template, gid)
        return self._own(graph, one, first, {}, False, [])

    def _shapes(self, framed: List[Frame], first: int) -> Tuple[Tuple[Shape, ...], Tuple[Hashable, ...]]:
        """The shapes of a block's frames (:func:`block_shapes`) and the memo key of each graph text."""
        shapes = block_shapes(framed, first, self.options.strict)
        return shapes, tuple(content_key(one.text, one.opened, self.options) for one in shapes
                             if one.text is not None)

    def frames(self, block: Block) -> List[Item]:
        """The items of a block read line by line."""
        return [item for frame in frames(block.items()) for item in self.frame(frame)]

    def _copies(self, shapes: Tuple[Shape, ...], templates: List[Graph], start: int,
                lines: List[str]) -> List[Item]:
        """The graphs of a block met before, from its shapes and the graph first read from each text (lines
        counted from ``start``); a frame of comments is kept for the next graph."""
        items: List[Item] = []
        graphs = iter(templates)
        for one in shapes:
            comments = [lines[k] for k in one.comments] if one.comments else []
            if one.text is None:
                self.before.append("\n".join(comments))
                continue
            meta = metadata(comments) if comments else {}
            gid, written = self._numbered(meta)
            items.append(self._own(self.memo.copy(next(graphs), gid), one, start, meta, written, comments))
        return items

    def frame(self, frame: Frame, one: Optional[Shape] = None, start: int = 0) -> List[Item]:
        """The items of one frame read from its lines: its graph, or its errors; none for comments only.
        ``one``: its shape when known, lines counted from ``start``."""
        meta = frame.metadata()
        if frame.chunk.bad:
            for error in frame.chunk.bad:
                error.graph_id = self._mapped(meta)
                error.framework = self.framework
            if frame.chunk.lines:
                self.position += 1
            self.before = []
            return list(frame.chunk.bad)
        if not frame.chunk.lines:
            self.before.append("\n".join(line.text for line in frame.comments))
            return []  # comments only (an LDC header, a note)
        gid, written = self._numbered(meta)
        try:
            if one is None:
                one, start = shape(frame, 0, self.options.strict), 0
            graph = _content(frame, cast(str, one.text), gid, self.options)
            return [self._own(graph, one, start, meta, written, [line.text for line in frame.comments])]
        except Bad as bad:
            line = bad.line if bad.line is not None else frame.first
            return [FormatError(bad.message, self.name, line, gid, self.framework)]

    def _mapped(self, meta: Dict[str, str]) -> Optional[str]:
        """The id a frame's metadata give (mapped with ``wsj_ids``), or None."""
        gid = meta.get("id")
        if gid is not None and self.options.wsj_ids:
            gid = map_wsj_id(gid)
        return gid

    def _numbered(self, meta: Dict[str, str]) -> Tuple[str, bool]:
        """The id of the next graph (its position when its metadata give none), and whether it is the id
        written."""
        gid = self._mapped(meta)
        written = gid is not None and gid == meta.get("id")
        gid = gid or str(self.position)
        self.position += 1
        return gid, written

    def _own(self, graph: Graph, one: Shape, start: int, meta: Dict[str, str], written: bool,
             comments: List[str], again: Any = None) -> Graph:
        """A graph read with what is its own: sentence, line, repairs, and (read as written) its comments
        and text (``one``'s lines counted from ``start``; ``again``: the reader that gives it again from its
        text, for :func:`.keep.record`)."""
        options = self.options
        text = options.text.get(graph.id) if options.text is not None else None
        # the text table wins; a graph missing from it keeps its own ::snt (the CLI warns)
        graph.input = text if text is not None else meta.get("snt")
        graph.line = start + one.first
        if options.memo is None:
            graph.breaks = breaks(cast(str, one.text))
        if one.repairs:
            graph.repairs = [f"{message} (line {start + line})" for message, line in one.repairs]
        if (one.plain and options.keep and not graph.repairs and not options.no_wiki and options.text is None
                and (written or "id" not in meta)):
            keep_frame(graph, self.before, comments, cast(str, one.text), again)
        self.before = []
        return graph


def _content(frame: Frame, text: str, gid: str, options: ReadOptions) -> Graph:
    """The graph of a frame's text (``text``) with its content fields (:data:`mrp.graph.TEXT_FIELDS`) and
    id, through ``options.memo`` when given: a text met before gives a graph sharing the first one's
    content objects (an unreadable text is read again each time: its error names its lines)."""
    memo = options.memo
    if memo is None:
        return _graph(frame, text, gid, options)
    key = content_key(text, frame.opened, options)
    template = memo.template(key)
    if template is None:
        graph = _graph(frame, text, gid, options)
        graph.breaks = breaks(text)
        memo.keep(key, graph)
        return graph
    return memo.copy(template, gid)


def _graph(frame: Frame, text: str, gid: str, options: ReadOptions) -> Graph:
    """The graph of a frame's text (``text``) with its content fields and id: in one pass
    (:func:`.fast.fast_graph`) where it reads it, else through the tree (:func:`.amr._built`, whose
    errors are the reader's)."""
    closed = text if options.strict or not frame.opened else text + ")" * frame.opened
    graph = fast_graph(closed, gid, options)
    return graph if graph is not None else _built(frame, gid, options)


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """Graphs from a Penman AMR file, framed by balanced parentheses (see :mod:`.framing`);
    a graph that cannot be read yields a FormatError, a repaired one lists its ``repairs``.  A
    :class:`~mrp.io.source.Source` read with ``options.memo`` is read a block at a time (see the module), the
    plain texts of :data:`.blocks.SCANNED` blocks at a time scanned in one call once the scan is ready."""
    reading = _Reading(name, options)
    if options.memo is not None and isinstance(lines, Source):
        ahead: List[Block] = []
        for block in lines.blocks():
            ahead.append(block)
            if len(ahead) == SCANNED:
                for one, (key, found, form) in zip(ahead, scanned_blocks(ahead, reading.shapes,
                                                                         options.no_wiki)):
                    yield from reading.block(one, form, key, found)
                ahead = []
        for one, (key, found, form) in zip(ahead, scanned_blocks(ahead, reading.shapes, options.no_wiki)):
            yield from reading.block(one, form, key, found)
        return
    for frame in frames(lines):
        yield from reading.frame(frame)


def one_line_graphs(texts: Sequence[str], options: ReadOptions) -> Optional[List[Graph]]:
    """The graphs :func:`read` gives for the lines of ``"\\n\\n".join(texts)``, when each text is one line
    holding one graph in the plain grammar (:mod:`.fast`) and nothing else, not even white space at either
    end: the k-th graph's id is ``str(k)`` and its line ``2k + 1``, as read from those lines.  None when a
    text is not such a line (:func:`read` then reads them, with its errors and repairs).  Without
    ``options.keep`` (the scorers'), a graph within the limits of its counts is a
    :class:`~.light.LightGraph`, its content built when first read.

    Args:
        texts: the texts, in order.
        options: the read options (``memo`` is not read: each text is read on its own).

    Returns:
        The graphs, or None.
    """
    reading = _Reading("<texts>", options)
    graphs: List[Graph] = []
    lightly = not options.keep
    for text in texts:
        if not text.startswith("(") or "\n" in text or text[-1].isspace():
            return None  # (a text starting with "(" has no white space before it)
    forms = scanned_all(list(texts), options.no_wiki)  # the compiled scan, once the warm-up made it ready
    for k, text in enumerate(texts):
        form = forms[k]
        if form is not None:
            if lightly and within_counts(form.codes[0], form.codes[2]):
                graph: Graph = light(form, str(k), options)
            else:
                graph = built(plain_of(form), str(k), options)
        else:
            plain = plain_form(text, options.no_wiki)
            if plain is None:
                return None
            if lightly and within_counts(len(plain.labels), plain.edges):
                graph = light(plain, str(k), options)
            else:
                graph = built(plain, str(k), options)
        graphs.append(reading._own(graph, Shape((), 0, text, 0, (), True), 2 * k + 1, {}, False, [], _again))
        if options.memo is not None:
            graph.breaks = breaks(text)
    return graphs


def _again(text: str, gid: str, framework: Optional[str]) -> Optional[Graph]:
    """The graph :func:`one_line_graphs` read from a text, read again (what :mod:`.keep` asks to find the
    digest of a graph as read only when it is asked for)."""
    return fast_graph(text, gid, ReadOptions(framework=framework), whole=True)


def read_string(text: str, options: Optional[ReadOptions] = None) -> List[Union[Graph, FormatError]]:
    """Graphs (or FormatErrors) from Penman text held in a string (for tests and tools)."""
    lines = [Line(k, line) for k, line in enumerate(text.split("\n"), start=1)]
    return list(read(lines, "<string>", options or ReadOptions()))
