"""A graph text met again is read through fast paths (limits checked once per text, ...): each copy keeps
what is its own (id, line, ::snt, repairs, errors naming file and line), exactly as read without them."""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Iterable, Iterator, List, Union

import pytest

import mrp.io.limits
from mrp.codecs import ReadOptions, _limited, reader
from mrp.codecs.base import Item
from mrp.codecs.repeats import Repeats, shared
from mrp.corpora.load import read_corpus
from mrp.corpora.packed import IDENTITY, PackedGraphs
from mrp.errors import FormatError
from mrp.graph import Edge, Graph, Node, fingerprint
from mrp.io.limits import content_limits, limit_problems
from mrp.io.source import Line, read_lines


def _anchored(n: int, seed: int) -> Graph:
    """A graph of ``n`` anchored nodes and edges, some values nested deeply."""
    rng = random.Random(seed)
    nodes = [Node(k, "x", ["p"], [[[["v"]]]] if rng.random() < 0.3 else ["v"],
                  anchors=[(rng.randrange(50), rng.randrange(60)) for _ in range(rng.randrange(3))])
             for k in range(n)]
    edges = [Edge(k, k + 1, "e", anchors=[(0, rng.randrange(40))] if rng.random() < 0.5 else None,
                  attributes=["a"], values=[[["w"]]] if rng.random() < 0.3 else ["w"]) for k in range(n - 1)]
    return Graph(id="t", nodes=nodes, edges=edges, input="x" * rng.randrange(0, 60))


def test_limits_from_the_contents_facts_are_those_found_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mrp.io.limits, "MAX_DEPTH", 2)
    monkeypatch.setattr(mrp.io.limits, "MAX_ANCHORED", 30)
    monkeypatch.setattr(mrp.io.limits, "MAX_NODES", 5)
    monkeypatch.setattr(mrp.io.limits, "MAX_EDGES", 4)
    for seed in range(200):
        template = _anchored(random.Random(seed).randrange(1, 9), seed)
        facts = content_limits(template)
        for inputs in (None, "", "abc", "y" * 45):
            copy = shared(template, id="c", input=inputs, targets=[[["t"]]] if seed % 3 == 0 else None)
            assert list(limit_problems(copy, facts)) == list(limit_problems(copy)), seed


def _fake_reader(graphs: List[Graph]):  # type: ignore[no-untyped-def]
    def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
        yield from graphs

    return read


def test_a_copy_whose_input_passes_the_anchor_limit_is_refused_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mrp.io.limits, "MAX_ANCHORED", 10)
    memo = Repeats()
    template = Graph(id="a", nodes=[Node(0, "x", anchors=[(0, 40)])], input="short", line=1)
    memo.keep("text", template)
    copies = [shared(template, id=gid, input=text, line=line)
              for gid, text, line in (("b", "y" * 40, 5), ("c", "tiny", 9), ("d", "z" * 11, 13))]
    items = list(_limited(_fake_reader([template] + copies))([], "f.amr", ReadOptions(memo=memo)))
    assert [type(item).__name__ for item in items] == ["Graph", "FormatError", "Graph", "FormatError"]
    refused = [(item.graph_id, item.line) for item in items if isinstance(item, FormatError)]
    assert refused == [("b", 5), ("d", 13)]


def _write(path: Path, blocks: List[str]) -> str:
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return str(path)


def _plain(path: str, options: ReadOptions) -> List[Item]:
    return list(reader("amr")(read_lines(path), path, options))


def test_every_copy_of_a_text_beyond_a_limit_is_an_error_of_its_own(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mrp.io.limits, "MAX_NODES", 2)
    big, small = "(a / b :c (d / e :f (g / h)))", "(a / b)"
    path = _write(tmp_path / "a.amr",
                  [f"# ::id g{k}\n# ::snt s{k}\n{big if k % 2 else small}" for k in range(7)])
    for pack_after in (0, 1 << 62):
        corpus = read_corpus(path, "amr", pack_after=pack_after)
        assert [(e.graph_id, e.line) for e in corpus.errors] == [("g1", 5), ("g3", 13), ("g5", 21)]
        assert [(g.id, g.line, g.input) for g in corpus.graphs] == [(f"g{k}", 4 * k + 1, f"s{k}")
                                                                    for k in (0, 2, 4, 6)]


def test_a_pickled_store_gives_the_same_graphs_and_entries(tmp_path: Path) -> None:
    texts = ['(a / b :c (d / "e"))', "(a / b)", '(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))']
    path = _write(tmp_path / "a.amr", [f"# ::id g{k}\n# ::snt s{k}\n{texts[k % 3]}" for k in range(80)])
    corpus = read_corpus(path, "amr", pack_after=0)
    store = corpus.graphs
    assert isinstance(store, PackedGraphs)
    list(store)  # the caches filled: they are not sent
    back = pickle.loads(pickle.dumps(store, protocol=pickle.HIGHEST_PROTOCOL))
    assert [fingerprint(g) for g in back] == [fingerprint(g) for g in store]
    own = [(g.id, g.line, g.input, g.written) for g in store]
    assert [(g.id, g.line, g.input, g.written) for g in back] == own
    assert [[getattr(e, name) for name in IDENTITY] for e in back.entries()] == \
        [[getattr(e, name) for name in IDENTITY] for e in store.entries()]
    assert [e.content for e in back.entries()][:4] == [0, 1, 2, 0]
    assert all(e.store is back and e.index == k for k, e in enumerate(back.entries()))
    assert type(back[3].nodes[1].label).__name__ == "Quoted"


@pytest.mark.parametrize("pack_after", [0, 1 << 62], ids=["packed", "live"])
def test_a_text_again_after_an_unreadable_copy_keeps_its_own_facts(tmp_path: Path, pack_after: int) -> None:
    text = "(w / want-01\n   :ARG0 (b / boy))"
    broken = "(w / want-01\n   :ARG0 \xff(b / boy))"
    blocks = [f"# ::id g0\n# ::snt one\n{text}", f"# ::id g1\n# ::snt two\n{broken}",
              f"# ::id g2\n# ::snt three\n{text} junk", f"# ::id g3\n# ::snt four\n{text}"]
    path = tmp_path / "a.amr"
    path.write_bytes("\n\n".join(blocks).replace("\xff", "\udcff").encode("utf-8", "surrogateescape") + b"\n")
    corpus = read_corpus(str(path), "amr", pack_after=pack_after)
    assert [(e.graph_id, e.line) for e in corpus.errors] == [("g1", 9)]
    ignored = ["ignored text after the end of the graph: 'junk' (line 14)"]
    assert [(g.id, g.line, g.input, g.repairs) for g in corpus.graphs] == [
        ("g0", 1, "one", None), ("g2", 11, "three", ignored), ("g3", 16, "four", None)]
    assert [r.line for r in corpus.repaired] == [11]
    graphs = list(corpus.graphs)
    assert graphs[0].nodes == graphs[1].nodes == graphs[2].nodes and graphs[0].nodes is not graphs[2].nodes
