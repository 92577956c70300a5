"""A Penman text met again is a copy of the graph its first reading built (mrp.codecs.repeats), its block's
key and shapes looked up once, packed as a reference to its first graph (mrp.corpora.packed): on Rematch's
efficiency protocol's kind of files (random pairs of the shared AMR graphs, bench/protocol.py), every graph,
id, line and entry is what reading each file line by line without a memo gives, packed or live, with the
memo of block shapes forgotten again and again within a batch of blocks, and with the scan ready or not."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from mrp.codecs import ReadOptions, reader
from mrp.codecs.repeats import Repeats
from mrp.corpora.load import read_corpus
from mrp.corpora.packed import PackedGraphs
from mrp.graph import Graph
from mrp.io.source import read_lines

from conftest import ROOT, shared_path

sys.path.insert(0, str(ROOT / "bench"))
import protocol  # noqa: E402

#: the pairs drawn, of the corpus's first TEXTS texts (the default bench draws 20,000 of 2,852: each text
#: about 7 times a file; these, about 5 times)
PAIRS, TEXTS = 1500, 300


def _fields(graph: Graph) -> Tuple[Any, ...]:
    """Every field of a graph, each compared by value (the content's objects may be shared)."""
    return (graph.nodes, graph.edges, graph.id, graph.framework, graph.flavor, graph.input, graph.language,
            graph.time, graph.source, graph.provenance, graph.targets, graph.version, graph.tops, graph.line,
            graph.variables, graph.document, graph.layout, graph.breaks, graph.repairs, graph.written,
            graph.assigned_id)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> List[Tuple[Path, List[Graph]]]:
    """The protocol's two files, of PAIRS pairs of TEXTS texts, each with its graphs read line by line (each
    block framed, without a memo)."""
    where = tmp_path_factory.mktemp("protocol")
    texts = protocol.corpus(shared_path())[:TEXTS]
    a, b = where / "matchups_1.txt", where / "matchups_2.txt"
    protocol.write_matchups(texts, protocol.matchups(len(texts), PAIRS, 3), a, b)
    out = []
    for path in (a, b):
        items = list(reader("amr")(read_lines(str(path)), path.name, ReadOptions(framework="amr")))
        assert all(isinstance(item, Graph) for item in items)
        out.append((path, items))
    return out


@pytest.mark.parametrize("kept", [4096, 37], ids=["memo", "memo-forgetting"])
@pytest.mark.parametrize("pack_after", [0, 1 << 62], ids=["packed", "live"])
def test_protocol_files_read_together_are_their_graphs_read_line_by_line(
        files: List[Tuple[Path, List[Graph]]], scanning: str, kept: int, pack_after: int) -> None:
    together = ReadOptions(framework="amr", memo=Repeats(kept))  # both files through one memo, as mrp-score
    for path, alone in files:
        corpus = read_corpus(str(path), "amr", together, pack_after=pack_after)
        assert not corpus.errors and not corpus.repaired
        assert len(corpus.graphs) == len(alone) == PAIRS
        assert [_fields(graph) for graph in corpus.graphs] == [_fields(graph) for graph in alone]
        if pack_after == 0:
            store = corpus.graphs
            assert isinstance(store, PackedGraphs)
            entries = [(e.id, e.framework, e.flavor, e.line, e.size, e.document) for e in store.entries()]
            assert entries == [(g.id, g.framework, g.flavor, g.line, len(g.nodes), False) for g in alone]
            if kept > PAIRS:  # a memo that forgets its templates reads a text met again as new
                # a graph's content index names the first graph of the same text (the same content)
                blocks = [block for block in path.read_text(encoding="utf-8").split("\n\n") if block.strip()]
                first: Dict[str, int] = {}
                assert [entry.content for entry in store.entries()] == \
                    [first.setdefault(block, k) for k, block in enumerate(blocks)]
