"""MRP JSON lines: round trips on the shared WSJ sample, and the writer's field order."""

from __future__ import annotations

import json

import pytest

from mrp.codecs import ReadOptions
from mrp.codecs.mrp import decode, dumps, encode
from mrp.corpora.load import read_corpus

from conftest import run_cli, shared_path

FRAMEWORKS = ["amr", "dm", "eds", "psd", "ucca"]


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_round_trip_objects(framework: str) -> None:
    path = shared_path() / "data" / "wsj" / framework / "wsj.mrp"
    original = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    corpus = read_corpus(str(path))
    assert not corpus.errors
    assert len(corpus.graphs) == len(original) > 80
    for graph, obj in zip(corpus.graphs, original):
        assert json.loads(dumps(graph)) == obj, graph.id


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_convert_mrp_to_mrp_is_identity(framework: str, tmp_path) -> None:
    path = shared_path() / "data" / "wsj" / framework / "wsj.mrp"
    out = tmp_path / "out.mrp"
    result = run_cli("convert", ["--from", "mrp", "--to", "mrp", str(path), str(out)])
    assert result.code == 0, result.err
    original = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    converted = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert converted == original


def test_field_order_and_optional_time() -> None:
    graph = decode({"nodes": [{"id": 3, "label": "x"}], "input": "x", "id": "g1", "framework": "eds",
                    "tops": [3], "edges": []})
    assert graph.time is None and graph.flavor == 1
    assert list(encode(graph)) == ["id", "flavor", "framework", "input", "tops", "nodes", "edges"]
    full = decode({"id": "g", "flavor": 2, "framework": "amr", "version": 1.1, "time": "2020-01-01",
                   "language": "eng", "source": "s", "provenance": "p", "targets": ["amr"], "input": "i"})
    assert list(encode(full))[:10] == ["id", "flavor", "framework", "version", "time", "language",
                                       "source", "provenance", "targets", "input"]


def test_flavor_defaults() -> None:
    for framework, flavor in [("dm", 0), ("psd", 0), ("eds", 1), ("ucca", 1), ("amr", 2)]:
        assert decode({"id": "g", "framework": framework}).flavor == flavor


def test_node_ids_need_not_be_dense_and_values_keep_their_type() -> None:
    graph = decode({"id": 7, "framework": "amr", "tops": [10],
                    "nodes": [{"id": 10, "label": "a", "properties": ["quant"], "values": [42]},
                              {"id": -4}],
                    "edges": [{"source": 10, "target": -4, "label": "ARG1-of", "normal": "ARG1"}]})
    assert graph.id == "7" and graph.node_ids() == [10, -4]
    assert graph.nodes[0].values == [42]
    assert graph.edges[0].normal == "ARG1"
    assert json.loads(dumps(graph))["nodes"][0]["values"] == [42]


def test_framework_filter_while_reading(tmp_path) -> None:
    path = tmp_path / "x.mrp"
    path.write_text('{"id": "1", "framework": "dm"}\n{"id": "2", "framework": "eds"}\n')
    corpus = read_corpus(str(path), options=ReadOptions(framework="eds"))
    assert [g.id for g in corpus.graphs] == ["2"]


def test_crlf_and_bom_are_read(tmp_path) -> None:
    path = tmp_path / "x.mrp"
    path.write_bytes(b'\xef\xbb\xbf{"id": "1", "framework": "dm"}\r\n{"id": "2", "framework": "dm"}\r\n')
    corpus = read_corpus(str(path))
    assert [g.id for g in corpus.graphs] == ["1", "2"] and not corpus.errors
