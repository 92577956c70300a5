"""What the library accepts as graphs, made into corpora: paths, text, mrp Graphs, penman Graphs, MRP JSON."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Iterable, List, Optional, Sequence, Union

from mrp.codecs import ReadOptions, read_one_line_penman, reader, sniff
from mrp.codecs.base import without_wiki
from mrp.corpora import Corpus, Repaired, read_corpus, read_items
from mrp.errors import FormatError, InputError
from mrp.graph import Graph
from mrp.io.source import Line
from mrp.process.collector import collector_paused

__all__ = ["Graphs", "corpus_of", "is_path", "read_options"]

#: what :func:`mrp.metrics` and :func:`mrp.read` take as graphs
Graphs = Union[str, "os.PathLike[str]", Graph, Sequence[Any]]


def read_options(framework: Optional[str] = None, text: Optional[Any] = None, no_wiki: bool = False,
                 strict: bool = False, wsj_ids: bool = False) -> ReadOptions:
    """The reading options the library takes as keyword arguments (``text``: a mapping from graph id to
    sentence, or the path of a file of id<TAB>sentence lines, as mrp-score's ``--text``)."""
    if isinstance(text, (str, os.PathLike)):
        from mrp.corpora import read_text

        text = read_text(os.fspath(text))
    return ReadOptions(framework=framework, text=text, no_wiki=no_wiki, strict=strict, wsj_ids=wsj_ids)


def is_path(value: Any) -> bool:
    """Whether :func:`corpus_of` reads ``value`` as a path (an existing file wins, whatever its name starts
    with), not as text or graphs."""
    if isinstance(value, os.PathLike):
        return True
    if not isinstance(value, str) or "\n" in value or len(value) >= 4096:
        return False
    return not value.lstrip().startswith(("(", "{", "#")) or os.path.exists(value)


def _guess(text: str) -> str:
    """The format of text held in a string, by the content rule every input follows
    (:func:`mrp.codecs.sniff`), else Penman."""
    return sniff(text) or "amr"


def _from_text(text: str, fmt: Optional[str], options: ReadOptions, name: str) -> Corpus:
    fmt = fmt or _guess(text)
    lines = [Line(number, line) for number, line in enumerate(text.split("\n"), start=1)]
    read = reader(fmt)
    # the one reading loop (:func:`mrp.corpora.load.read_items`), its graphs kept live as a list's
    corpus = read_items(name, fmt, lambda given: read(lines, name, given), options, pack_after=1 << 62)
    if not corpus.graphs and not corpus.errors:
        raise InputError(f"{name}: holds no graphs")
    return corpus


def _from_penman(items: Sequence[Any], options: ReadOptions, name: str) -> Optional[Corpus]:
    """The corpus of ``penman.Graph`` objects, read as their text would be but without it (see
    :mod:`mrp.codecs.penman.objects`); None when only the text gives that for sure."""
    from mrp.codecs.penman import graphs_of

    if options.framework is None:
        options = replace(options, framework="amr")
    read = graphs_of(items, name, options)
    if read is None:
        return None
    corpus = Corpus(name, "amr")
    corpus.graphs = [item for item in read if isinstance(item, Graph)]
    corpus.errors = [item for item in read if isinstance(item, FormatError)]
    return corpus


def _penman_text(graph: Any) -> str:
    import penman

    from mrp.codecs.penman import quiet_layout

    with quiet_layout():
        return str(penman.encode(graph))


def _item_text(item: Any) -> Optional[str]:
    """One item of a list as text in a format (None for an mrp Graph)."""
    if isinstance(item, Graph):
        return None
    if isinstance(item, str):
        return item
    if isinstance(item, (bytes, bytearray, memoryview)):
        return _decoded(item, "a list item")
    if isinstance(item, dict):
        import ujson

        return str(ujson.dumps(item, ensure_ascii=False))
    if type(item).__module__.startswith("penman"):
        return _penman_text(item)
    raise InputError(f"cannot score a {type(item).__name__}: give paths, Penman or MRP JSON strings (or "
                     "their UTF-8 bytes), MRP dicts, penman.Graph or mrp.Graph objects, or lists of "
                     "(source, role, target) triples")


def _joined(texts: Iterable[str], fmt: str) -> str:
    """Graphs as one file holds them: MRP JSON one per line, Penman separated by blank lines (graphs
    without ids are then numbered by position, as in a file)."""
    if fmt == "mrp":
        return "\n".join(" ".join(text.split("\n")) for text in texts)
    if fmt == "generated":  # a language model's responses: one JSON string a line (mrp.codecs.generated)
        import ujson

        return "\n".join(str(ujson.dumps(text, ensure_ascii=False)) for text in texts)
    return "\n\n".join(text.strip() for text in texts)


def _decoded(data: Any, name: str) -> str:
    """Bytes as the UTF-8 text they hold (a byte-order mark dropped); InputError when they are not."""
    try:
        return bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"{name}: bytes that are not UTF-8 text (byte {error.start + 1}); decode them, or "
                         "give the path of the file") from None


def corpus_of(graphs: Graphs, fmt: Optional[str], options: ReadOptions, name: str) -> Corpus:
    """A corpus of what the caller gave: a path, text (a string, or bytes of UTF-8 text), or a list of
    graphs of one kind."""
    if isinstance(graphs, (str, os.PathLike)) and is_path(graphs):
        return read_corpus(os.fspath(graphs), fmt, options)  # the format: mrp.codecs.resolve_format
    # graphs given as text or objects are read without a memo of texts (:func:`mrp.corpora.load.read_corpus`
    # alone unshares what a memo shares)
    options = replace(options, memo=None) if options.memo is not None else options
    if type(graphs) is list and graphs:
        # a list of strings, or of mrp.Graph objects read already (a reward function's call): read as below,
        # without asking what else its items could be
        if all(type(item) is str for item in graphs):
            return _texts(graphs, fmt, options, name)
        if all(type(item) is Graph for item in graphs):
            return _from_graphs(graphs, fmt, options, name)
    if isinstance(graphs, Graph):
        graphs = [graphs]
    if isinstance(graphs, (bytes, bytearray, memoryview)):
        return _from_text(_decoded(graphs, name), fmt, options, name)
    if isinstance(graphs, (str, os.PathLike)):
        text = str(graphs)
        # one line holding one plain graph (a language model's output): read as the one text of a list
        if text[:1] == "(" and "\n" not in text and (fmt or _guess(text)) == "amr":
            corpus = _one_line([text], options, name)
            if corpus is not None:
                return corpus
        return _from_text(text, fmt, options, name)
    if isinstance(graphs, dict):
        graphs = [graphs]
    if not hasattr(graphs, "__iter__"):
        raise InputError(f"{name}: cannot score a {type(graphs).__name__}: give a path, text (str or UTF-8 "
                         "bytes) or a list of graphs")
    items = list(graphs)
    if not items:
        raise InputError(f"{name}: holds no graphs")
    if fmt in (None, "amr", "triples") and _triples(items):  # read as a file of triples would be
        blocks = _triples_texts(items if isinstance(items[0][0], (list, tuple)) else [items], name)
        return _from_text(_joined(blocks, "triples"), "triples", options, name)
    if fmt in (None, "amr") and type(items[0]).__module__.startswith("penman"):
        corpus = _from_penman(items, options, name)
        if corpus is not None:
            return corpus
    texts = [_item_text(item) for item in items]
    if all(text is None for text in texts):
        return _from_graphs([graph for graph in items if isinstance(graph, Graph)], fmt, options, name)
    if any(text is None for text in texts):
        raise InputError(f"{name}: mixes mrp.Graph objects with other kinds of graphs")
    return _texts(texts, fmt or ("mrp" if isinstance(items[0], dict) else None), options, name)


def _texts(texts: Sequence[Optional[str]], fmt: Optional[str], options: ReadOptions, name: str) -> Corpus:
    """The corpus of a list's items as texts of a format (None: the first text's, :func:`_guess`), read as
    the text of a file holding them one after the other (:func:`_joined`)."""
    fmt = fmt or _guess(texts[0] or "")
    if fmt == "amr":
        corpus = _one_line(list(texts), options, name)
        if corpus is not None:
            return corpus
    return _from_text(_joined([text or "" for text in texts], fmt), fmt, options, name)


def _one_line(texts: List[Optional[str]], options: ReadOptions, name: str) -> Optional[Corpus]:
    """The corpus of Penman texts as :func:`_from_text` reads them joined (:func:`_joined`), read without
    joining them when each is one line holding one plain graph (a language model's output, most often:
    :func:`mrp.codecs.read_one_line_penman`); None when one is not."""
    with collector_paused():  # as in the one reading loop: many objects made, none of them garbage
        read = read_one_line_penman([(text or "").strip() for text in texts], name, options)
    if read is None:
        return None
    corpus = Corpus(name, "amr")  # as the one reading loop gathers them: no graph of these is repaired
    corpus.graphs = [item for item in read if isinstance(item, Graph)]
    corpus.errors = [item for item in read if isinstance(item, FormatError)]
    return corpus


def _triples(items: List[Any]) -> bool:
    """Whether a list is one graph's ``(source, role, target)`` triples, or a list of such lists."""
    first = items[0]
    if isinstance(first, (list, tuple)) and first and isinstance(first[0], (list, tuple)):
        first = first[0]
    return isinstance(first, (list, tuple)) and len(first) == 3 and all(isinstance(x, str) for x in first)


def _triples_texts(graphs: List[Any], name: str) -> List[str]:
    """The block of a file of triples of each list of triples (:func:`mrp.codecs.triples.triples_text`)."""
    from mrp.codecs.base import Bad
    from mrp.codecs.triples import triples_text

    out = []
    for position, triples in enumerate(graphs):
        try:
            out.append(triples_text(triples))
        except Bad as bad:
            raise InputError(f"{name}: graph {position} (its triples): {bad.message}") from None
    return out


def _from_graphs(graphs: List[Graph], fmt: Optional[str], options: ReadOptions, name: str) -> Corpus:
    """The corpus of mrp.Graph objects under the read options, as reading their text would give it: the
    framework given to graphs that name none (and only its graphs kept), ``:wiki`` dropped, a graph read
    by a repair refused (``strict``) or counted as repaired, and graphs whose ids were assigned by
    position (:func:`mrp.api.reading.read` marks them) numbered by their position in this list.  ``text``
    and ``wsj_ids`` change how text is read, and are refused for graphs read already."""
    for option in ("text", "wsj_ids"):
        if getattr(options, option):
            raise InputError(f"{name}: {option}= applies when graphs are read from text or a path; these "
                             f"are mrp.Graph objects read already (give {option}= to mrp.read)")
    corpus = Corpus(name, fmt or "mrp")
    kept: List[Graph] = []
    for position, graph in enumerate(graphs):
        if options.framework is not None:
            if graph.framework is None:
                graph = replace(graph, framework=options.framework)
            elif graph.framework != options.framework:
                continue
        if options.no_wiki:
            graph = without_wiki(graph)
        if graph.assigned_id is not None and graph.id == graph.assigned_id:
            number = str(position)
            if graph.id != number:  # a graph at the position it was read at keeps its id: no copy made
                graph = replace(graph, id=number, assigned_id=number)
        if graph.repairs:
            if options.strict:
                corpus.errors.append(FormatError(f"read by a repair ({'; '.join(graph.repairs)}), refused "
                                                 "under strict=True", name, graph.line, graph.id,
                                                 graph.framework))
                continue
            corpus.repaired.append(Repaired(name, graph.line, graph.id, tuple(graph.repairs)))
        kept.append(graph)
    corpus.graphs = kept
    return corpus
