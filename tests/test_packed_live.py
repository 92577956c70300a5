"""A packed store keeps the first graph of each text read through a memo of texts live (mrp.corpora.packed):
not packed whole, every access still a new graph equal to the graph read, sharing nothing."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any, Dict, List

import pytest
from test_packed import _fields as every_field
from test_packed import _typed

import mrp.corpora.ahead
import mrp.corpora.load
import mrp.corpora.packed as packed_module
from mrp.codecs import ReadOptions, reader
from mrp.codecs.repeats import Repeats
from mrp.corpora.ahead import Ahead
from mrp.corpora.load import read_corpus, reading_together
from mrp.corpora.packed import PackedGraphs
from mrp.graph import Graph, Node
from mrp.io.source import read_lines

#: small graph texts, each written several times below (one with a quoted constant, one repaired)
TEXTS = [
    '(s / sleep-01 :ARG0 (g / girl))',
    '(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))',
    '(c / city :name (n / name :op1 "New" :op2 "York") :wiki "New_York_City")',
    '(b / bark-01 :ARG0 (d / dog :mod (b2 / big))',
    '(r / rain-01 :time (n / now))',
]


def _file(path: Path, picks: List[int]) -> Path:
    """A Penman file of the texts picked, in order, each with an id and a sentence of its own."""
    path.write_text("\n\n".join(f"# ::id g{k}\n# ::snt sentence {k}\n{TEXTS[pick]}"
                                for k, pick in enumerate(picks)) + "\n", encoding="utf-8")
    return path


def _fields(graph: Graph) -> Any:
    """Every field of a graph, with the type of every value (a Penman Symbol is not a str)."""
    return _typed(every_field(graph))


def _read(path: Path, options: ReadOptions) -> List[Graph]:
    """The graphs of a file as the reader gives them without a memo."""
    items = reader("amr")(read_lines(str(path)), path.name, options)
    return [item for item in items if isinstance(item, Graph)]


def _whole_packs(monkeypatch: pytest.MonkeyPatch) -> List[str]:
    """The ids of the graphs packed whole (not only their own fields), as they are packed."""
    whole: List[str] = []
    real = packed_module.pack

    def counted(graph: Graph, own: bool = False, pickled: bool = False) -> bytes:
        if not own:
            whole.append(graph.id)
        return real(graph, own, pickled)

    monkeypatch.setattr(packed_module, "pack", counted)
    return whole


PICKS = [random.Random(seed).randrange(len(TEXTS)) for seed in range(40)]


def test_the_first_graph_of_each_text_is_not_packed_whole(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Read through a memo, a store packs no graph whole, and gives each graph as read, every field and its
    type; pickled (as a store read ahead is sent), it packs each text's first graph then, and gives the
    same graphs."""
    path = _file(tmp_path / "a.amr", PICKS)
    options = ReadOptions(framework="amr")
    whole = _whole_packs(monkeypatch)
    store = read_corpus(str(path), "amr", options, pack_after=0).graphs
    assert isinstance(store, PackedGraphs)
    assert whole == []
    expected = [_fields(graph) for graph in _read(path, options)]
    assert [_fields(graph) for graph in store] == expected
    sent = pickle.loads(pickle.dumps(store))
    firsts = sorted(set(PICKS), key=PICKS.index)
    assert whole == [f"g{PICKS.index(pick)}" for pick in firsts]
    assert [_fields(graph) for graph in sent] == expected
    assert [_fields(sent[k]) for k in reversed(range(len(sent)))] == expected[::-1]


def test_every_access_is_a_new_graph_sharing_nothing(tmp_path: Path) -> None:
    """Changing a graph the store gave (its content, its own fields) changes neither the store nor another
    graph of the same text; the text's graph kept live is what ``content_of`` gives, unchanged."""
    path = _file(tmp_path / "a.amr", PICKS)
    options = ReadOptions(framework="amr")
    store = read_corpus(str(path), "amr", options, pack_after=0).graphs
    assert isinstance(store, PackedGraphs)
    expected = [_fields(graph) for graph in _read(path, options)]
    for k in range(len(store)):
        graph = store[k]
        graph.nodes[0].label = "changed"
        graph.nodes[0].properties.append("x")
        graph.nodes.append(Node(99))
        graph.edges.clear()
        graph.tops.append(5)
        if graph.layout is not None:
            graph.layout[0].append(("y", 1, False))
        if graph.variables is not None:
            graph.variables[0] = "z"
        graph.repairs = (graph.repairs or []) + ["changed"]
    assert [_fields(graph) for graph in store] == expected
    nodes = [_typed(every_field(graph)["nodes"]) for graph in _read(path, options)]
    for entry in store.entries():
        content = store.content_of(entry.content)
        assert content is store.content_of(entry.content)  # kept live: the store's own graph
        assert _typed(every_field(content)["nodes"]) == nodes[entry.index]


def test_files_read_together_keep_their_first_graphs_live(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Two files of the same texts read with one memo (the second's first graphs share the first's content):
    neither packs a graph whole, and each gives its own graphs."""
    first, second = _file(tmp_path / "a.amr", PICKS), _file(tmp_path / "b.amr", PICKS[::-1])
    options = reading_together(ReadOptions(framework="amr"))
    whole = _whole_packs(monkeypatch)
    stores = [read_corpus(str(path), "amr", options, pack_after=0).graphs for path in (first, second)]
    assert whole == []
    for path, store in zip((first, second), stores):
        assert [_fields(graph) for graph in store] == [_fields(graph) for graph in
                                                       _read(path, ReadOptions(framework="amr"))]


def test_past_the_limit_first_graphs_are_packed_whole(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A store keeps LIVE first graphs live at most; the texts met after them are packed as before."""
    monkeypatch.setattr(packed_module, "LIVE", 2)
    path = _file(tmp_path / "a.amr", PICKS)
    options = ReadOptions(framework="amr")
    whole = _whole_packs(monkeypatch)
    store = read_corpus(str(path), "amr", options, pack_after=0).graphs
    firsts = sorted(set(PICKS), key=PICKS.index)
    assert whole == [f"g{PICKS.index(pick)}" for pick in firsts[2:]]
    assert [_fields(graph) for graph in store] == [_fields(graph) for graph in _read(path, options)]


def test_a_store_sent_by_reference_takes_its_content_from_the_templates(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store whose live graphs hold the content of templates the receiver holds is pickled without packing
    them; unpickled, it refuses to be read until resolved with those templates, then gives its graphs."""
    first, second = _file(tmp_path / "a.amr", PICKS[:20]), _file(tmp_path / "b.amr", PICKS)
    options = reading_together(ReadOptions(framework="amr"))
    read_corpus(str(first), "amr", options, pack_after=0)
    memo = options.memo
    assert isinstance(memo, Repeats)
    templates = memo.templates()
    assert len(templates) == len(set(PICKS[:20]))
    store = read_corpus(str(second), "amr", options, pack_after=0).graphs
    assert isinstance(store, PackedGraphs)
    store.refer(lambda graph: memo.serial(graph) if memo.serial(graph) in templates else None)
    whole = _whole_packs(monkeypatch)
    sent = pickle.loads(pickle.dumps(store))
    new = sorted(set(PICKS) - set(PICKS[:20]), key=PICKS.index)  # texts the templates do not hold
    assert whole == [f"g{PICKS.index(pick)}" for pick in new]
    with pytest.raises(RuntimeError):
        sent[0]
    sent.resolve(templates)
    expected = [_fields(graph) for graph in _read(second, ReadOptions(framework="amr"))]
    assert [_fields(graph) for graph in sent] == expected
    assert [_fields(graph) for graph in store] == expected


def test_a_file_read_ahead_after_another_gives_what_read_corpus_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read ahead by a child forked after the first file was read with the same memo (as mrp-score reads a
    system file after its gold file), a packed corpus comes back with every graph as read."""
    monkeypatch.setattr(mrp.corpora.ahead, "enabled", lambda: True)
    monkeypatch.setattr(mrp.corpora.load, "PACK_AFTER", 0)
    first, second = _file(tmp_path / "a.amr", PICKS[:20]), _file(tmp_path / "b.amr", PICKS)
    options = reading_together(ReadOptions(framework="amr"))
    read_corpus(str(first), "amr", options)
    referred: List[int] = []
    real = PackedGraphs.resolve

    def resolve(store: PackedGraphs, templates: Dict[int, Graph]) -> None:
        referred.append(len(store._refer))
        real(store, templates)

    monkeypatch.setattr(PackedGraphs, "resolve", resolve)
    ahead = Ahead(str(second), "amr", options)
    assert ahead.ahead
    corpus = ahead.corpus()
    assert isinstance(corpus.graphs, PackedGraphs)
    assert referred == [len(set(PICKS[:20]))]  # the texts of the first file came without their content
    expected = [_fields(graph) for graph in _read(second, ReadOptions(framework="amr"))]
    assert [_fields(graph) for graph in corpus.graphs] == expected


def test_a_store_that_cannot_be_resolved_is_read_here(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the parent not hold a template the child referred to, the file is read in this process."""
    monkeypatch.setattr(mrp.corpora.ahead, "enabled", lambda: True)
    monkeypatch.setattr(mrp.corpora.load, "PACK_AFTER", 0)
    first, second = _file(tmp_path / "a.amr", PICKS[:20]), _file(tmp_path / "b.amr", PICKS)
    options = reading_together(ReadOptions(framework="amr"))
    read_corpus(str(first), "amr", options)
    ahead = Ahead(str(second), "amr", options)
    ahead._templates = {}  # what the child was forked with is not here any more
    corpus = ahead.corpus()
    expected = [_fields(graph) for graph in _read(second, ReadOptions(framework="amr"))]
    assert [_fields(graph) for graph in corpus.graphs] == expected
