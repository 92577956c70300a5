"""A graph text met again is read through fast paths (limits checked once per text, ...): each copy keeps
what is its own (id, line, ::snt, repairs, errors naming file and line), exactly as read without them."""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path
from typing import Iterable, Iterator, List, Union

import pytest

import mrp.io.limits
import mrp.io.source
from mrp.codecs import ReadOptions, _limited, reader
from mrp.codecs.base import Item
from mrp.codecs.penman import read_string
from mrp.codecs.repeats import Repeats, shared
from mrp.corpora.load import read_corpus
from mrp.corpora.packed import IDENTITY, PackedGraphs
from mrp.errors import FormatError, InputError
from mrp.graph import Edge, Graph, Node, fingerprint
from mrp.io.limits import content_limits, limit_problems
from mrp.io.source import Line, Source, read_lines


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


# --------------------------------------------------------------------------- a block met again

#: blocks of a file that repeats its graph texts: ids and sentences of their own, position-made ids, two
#: graphs on one block (one left open: a repair naming its own line), an LDC-like comment block, a broken copy
_BLOCKS = [
    "# LDC header\n# more header",
    "# ::id a1 ::date x\n# ::snt one\n(w / want-01\n   :ARG0 (b / boy)\n   :ARG1 (g / go-02 :ARG0 b))",
    '(c / city :name (n / name :op1 "New" :op2 "York") :wiki "New_York_City")',
    "# ::id a2\n# ::snt two\n(w / want-01\n   :ARG0 (b / boy)\n   :ARG1 (g / go-02 :ARG0 b))",
    '(c / city :name (n / name :op1 "New" :op2 "York") :wiki "New_York_City")',
    "(r / rain-01) (s / sleep-01 :ARG0 (g / girl)\n# ::id mid\n(b / bark-01 :ARG0 (d / dog)",
    "# ::id a3\n(w / want-01\n   :ARG0 (b / boy)\n   :ARG1 (g / go-02 :ARG0 b)) junk",
    "# ::id bad1\n(w / want-01\n   :ARG0 (b / boy)\n   :ARG1 (g / go-02 :ARG0 b)))",
    "# ::id bad2\n(w / want-01\n   :ARG0 (b / boy)\n   :ARG1 (g / go-02 :ARG0 \xff b))",
    "# LDC header\n# more header",
    "(r / rain-01) (s / sleep-01 :ARG0 (g / girl)\n# ::id mid2\n(b / bark-01 :ARG0 (d / dog)",
    "# ::id a4\n# ::snt two\n(w / want-01\n   :ARG0 (b / boy)\n   :ARG1 (g / go-02 :ARG0 b))",
    '(c / city :name (n / name :op1 "New" :op2 "York") :wiki "New_York_City")',
    "# ::id bad3\n(w / want-01 :ARG0 (b / boy) :ARG0 (b / boy))",
    "# ::id bad4\n(w / want-01 :ARG0 (b / boy) :ARG0 (b / boy))",
]


def _repeats_file(path: Path, crlf: bool = False) -> str:
    """The blocks as a file (the byte 0xff of a broken copy left as it is: not UTF-8)."""
    text = "\n\n\n".join(_BLOCKS) + "\n"
    raw = text.replace("\xff", "\udcff").encode("utf-8", "surrogateescape")
    path.write_bytes(raw.replace(b"\n", b"\r\n") if crlf else raw)
    return str(path)


def _own(graph: Graph) -> tuple:  # type: ignore[type-arg]
    """Everything a graph holds, its content and its own fields (line, repairs, what was written)."""
    return (fingerprint(graph), graph.id, graph.line, graph.input, graph.repairs, graph.written,
            graph.layout, graph.breaks, graph.variables, graph.flavor, graph.framework)


OPTIONS = [ReadOptions(framework="amr"), ReadOptions(framework="amr", keep=True),
           ReadOptions(framework="amr", no_wiki=True, keep=True), ReadOptions(framework="amr", strict=True),
           ReadOptions(framework="amr", text={"a2": "from the table", "1": "first"})]


@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
@pytest.mark.parametrize("options", OPTIONS, ids=["plain", "keep", "no-wiki", "strict", "table"])
@pytest.mark.parametrize("pack_after", [0, 1 << 62], ids=["packed", "live"])
def test_a_file_of_repeated_blocks_reads_as_each_line_read_alone(tmp_path: Path, options: ReadOptions,
                                                                 pack_after: int, crlf: bool) -> None:
    path = _repeats_file(tmp_path / "r.amr", crlf)
    plain = list(reader("amr")(read_lines(path), path, options))  # line by line, no memo: as before
    corpus = read_corpus(path, "amr", options, pack_after=pack_after)
    assert [_own(graph) for graph in corpus.graphs] == [_own(g) for g in plain if isinstance(g, Graph)]
    errors = [(e.message, e.file, e.line, e.graph_id, e.framework) for e in corpus.errors]
    assert errors == [(e.message, e.file, e.line, e.graph_id, e.framework) for e in plain
                      if isinstance(e, FormatError)]
    assert [(r.line, r.graph_id, r.repairs) for r in corpus.repaired] == \
        [(g.line, g.id, tuple(g.repairs)) for g in plain if isinstance(g, Graph) and g.repairs]


def test_each_copy_is_the_graph_of_its_text_read_alone(tmp_path: Path) -> None:
    path = _repeats_file(tmp_path / "r.amr")
    corpus = read_corpus(path, "amr", pack_after=0)
    starts = {}  # a graph block's first line -> its text
    line = 1
    for block in _BLOCKS:
        starts[line] = block
        line += block.count("\n") + 3
    for graph in corpus.graphs:
        if graph.line not in starts or "(r / rain-01)" in starts[graph.line]:
            continue  # a graph that shares its block with others
        alone = read_string(starts[graph.line])
        assert len(alone) == 1 and isinstance(alone[0], Graph)
        expected, shift = alone[0], graph.line - 1
        if expected.id == "0":  # a position-made id: its position in the file
            expected.id = graph.id
        if expected.repairs:  # its own lines in the file
            moved = lambda m, by=shift: f"(line {int(m[1]) + by})"  # noqa: E731
            expected.repairs = [re.sub(r"\(line (\d+)\)", moved, repair) for repair in expected.repairs]
        assert fingerprint(graph) == fingerprint(expected)
        assert (graph.input, graph.layout, graph.breaks, graph.variables, graph.repairs) == \
            (expected.input, expected.layout, expected.breaks, expected.variables, expected.repairs)


def test_the_error_of_a_bad_copy_names_its_file_line_and_id(tmp_path: Path) -> None:
    path = _repeats_file(tmp_path / "r.amr")
    corpus = read_corpus(path, "amr", pack_after=0)
    found = {e.graph_id: (e.file, e.line, e.message) for e in corpus.errors}
    lines = path_lines(path)
    assert found["bad1"][:2] == (path, lines.index("   :ARG1 (g / go-02 :ARG0 b)))") + 1)
    assert "unexpected ')'" in found["bad1"][2]
    assert found["bad2"][:2] == (path, next(k for k, text in enumerate(lines, 1) if "\udcff" in text))
    assert "UTF-8" in found["bad2"][2]
    numbers = [k for k, text in enumerate(lines, 1) if text.startswith("# ::id bad3") or
               text.startswith("# ::id bad4")]
    assert (found["bad3"][1], found["bad4"][1]) == tuple(numbers)
    assert found["bad3"][2] == found["bad4"][2] and "defined twice" in found["bad4"][2]
    assert [g.id for g in corpus.graphs if g.id.startswith("bad")] == []


def path_lines(path: str) -> List[str]:
    """The lines of a file as text (an undecodable byte as a surrogate)."""
    return Path(path).read_bytes().decode("utf-8", "surrogateescape").split("\n")


def test_a_copy_packs_as_a_reference_only_when_its_own_fields_are_its_contents(tmp_path: Path) -> None:
    text = "(w / want-01 :ARG0 (b / boy))"
    other = "(r / rain-01 :time (n / now))"
    blocks = [f"# ::id g{k}\n# ::snt {'same' if k < 3 else k}\n{text}" for k in range(5)]
    blocks += [text, other, other]
    path = _write(tmp_path / "a.amr", blocks)
    store = read_corpus(path, "amr", pack_after=0).graphs
    assert isinstance(store, PackedGraphs)
    sizes = [len(store._bytes(k, 0)) for k in range(len(store))]  # noqa: SLF001 (what the store holds)
    assert sizes[0] > 0 and sizes[1] == sizes[2] == 0 and min(sizes[3:7]) > 0 and sizes[7] == 0
    plain = [g for g in reader("amr")(read_lines(path), path, ReadOptions(framework="amr"))]
    assert [_own(g) for g in store] == [_own(g) for g in plain]
    back = pickle.loads(pickle.dumps(store))
    assert [_own(g) for g in back] == [_own(g) for g in plain]


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 20])
def test_a_sources_blocks_hold_its_lines_as_read_lines_gives_them(tmp_path: Path, chunk: int,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mrp.io.source, "CHUNK", chunk)
    raw = ("\ufeffa\r\n \t\n\x0c\nb\r\r\nc\x00d\n\n\u2028\nx \u00e9\xff\n\n\n  # c\ny").encode(
        "utf-8", "surrogateescape").replace("\xff".encode("utf-8", "surrogateescape"), b"\xff")
    for data in (raw, raw + b"\n", b"", b"\n\n", b"one"):
        path = tmp_path / "s.txt"
        path.write_bytes(data)
        lines = [item for item in read_lines(str(path))
                 if isinstance(item, FormatError) or item.text.strip()]
        blocks = list(Source(str(path)).blocks())
        got = [item for block in blocks for item in block.items()]
        assert [(type(x).__name__, getattr(x, "number", None) or x.line, getattr(x, "text", None) or str(x))
                for x in got] == \
            [(type(x).__name__, getattr(x, "number", None) or x.line, getattr(x, "text", None) or str(x))
             for x in lines]
        assert all(block.clean == all(isinstance(x, str) for x in block.lines) for block in blocks)
    path.write_bytes(b"\x1f\x8b\x08junk")
    with pytest.raises(InputError, match="gzip"):
        list(Source(str(path)).blocks())


def test_a_copys_serial_known_at_once_is_the_one_found_by_its_content() -> None:
    memo = Repeats()
    template = read_string("(w / want-01 :ARG0 (b / boy))")[0]
    assert isinstance(template, Graph)
    memo.keep("key", template)
    copy = memo.copy(template, "7")
    assert (copy.id, copy.nodes, copy.framework) == ("7", template.nodes, template.framework)
    known = memo.serial(copy)
    memo._asked = (None, None)  # noqa: SLF001 (forget the answer: found again from the content objects)
    assert known == memo.serial(copy) == memo.serial(template) is not None
    stranger = read_string("(w / want-01 :ARG0 (b / boy))")[0]  # not a template: no serial, copy or not
    assert isinstance(stranger, Graph)
    assert memo.serial(memo.copy(stranger, "8")) is None


def test_own_fields_equal_but_of_other_types_are_packed(tmp_path: Path) -> None:
    path = _write(tmp_path / "a.amr", ["(w / want-01 :ARG0 (b / boy))"] * 3)
    graphs = list(read_corpus(path, "amr").graphs)
    graphs[1].flavor = True  # equal to the flavor 1 of its content's graph, not the same value
    graphs[0].flavor = 1
    graphs[2].flavor = 1
    memo = Repeats()
    template = graphs[0]
    memo.keep("key", template)
    store = PackedGraphs()
    store.append(template, None, None)
    for graph in graphs[1:]:
        copy = memo.copy(template, graph.id)
        copy.flavor, copy.line = graph.flavor, graph.line
        store.append(copy, 0, None)
    sizes = [len(store._bytes(k, 0)) for k in range(3)]  # noqa: SLF001 (what the store holds)
    assert sizes[1] > 0 and sizes[2] == 0
    assert [type(g.flavor) for g in store] == [int, bool, int]
    assert [fingerprint(g) for g in store] == [fingerprint(g) for g in graphs]
