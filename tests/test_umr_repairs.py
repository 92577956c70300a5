"""The UMR reader reads what the shared task's tools read through, repairs it and says so (a concept such
as #Forn or home/house, an inline # comment, missing final closing brackets of a graph or of a
document-level annotation); ReadOptions.strict refuses instead."""

from __future__ import annotations

from pathlib import Path
from typing import List

from mrp.codecs.base import ReadOptions
from mrp.codecs.umr import read_documents

from conftest import ROOT

DATA = ROOT / "tests" / "data" / "umatch"


def _variant(tmp_path: Path, old: str, new: str) -> str:
    text = (DATA / "gold.umr").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "case.umr"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(path)


def _read(path: str, strict: bool = False) -> List:  # type: ignore[type-arg]
    return read_documents(path, ReadOptions("umr", strict=strict))


def test_hash_concept_and_inline_comment_are_read(tmp_path: Path) -> None:
    documents = _read(str(DATA / "hash.umr"))
    assert not documents[0].errors
    graph = documents[0].graphs[0]
    labels = {graph.variables[node.id]: node.label for node in graph.nodes}
    assert labels["s1m"] == "#person"
    assert graph.repairs and any("comment" in repair for repair in graph.repairs)
    strict = _read(str(DATA / "hash.umr"), strict=True)
    assert strict[0].errors and strict[0].errors[0].line in (11, 13)


def test_concept_with_a_slash(tmp_path: Path) -> None:
    path = _variant(tmp_path, "(s2p / person", "(s2p / home/house")
    documents = _read(path)
    assert not documents[0].errors
    graph = documents[0].graphs[1]
    assert "home/house" in [node.label for node in graph.nodes]
    assert any("concept" in repair for repair in graph.repairs or [])


def test_missing_final_brackets_are_added(tmp_path: Path) -> None:
    path = _variant(tmp_path, "    :aspect state)", "    :aspect state")
    documents = _read(path)
    assert not documents[0].errors
    graph = documents[0].graphs[1]
    assert len(graph.nodes) == 2 and any("closing bracket" in repair for repair in graph.repairs or [])
    assert _read(path, strict=True)[0].errors


def test_document_level_block_missing_its_bracket_keeps_its_relations(tmp_path: Path) -> None:
    documents = _read(str(DATA / "quirks.umr"))
    graph = documents[0].graphs[0]
    assert graph.document is not None and len(graph.document.relations) == 3
    assert any("closing bracket" in problem.message for problem in documents[0].problems)
    strict = _read(str(DATA / "quirks.umr"), strict=True)
    assert strict[0].graphs[0].document.relations == []


def test_every_shared_umr_file_reads_with_no_sentence_left_out() -> None:
    from conftest import shared_path

    files = sorted((shared_path() / "data" / "umr").glob("*/*.umr"))
    assert len(files) >= 11
    for path in files:
        documents = read_documents(str(path))
        assert documents and not any(document.errors for document in documents), path
