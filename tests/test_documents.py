"""Documents: coreference-merged documents (bench/documents.py --coref) and the sentence-restricted alignment
(--doc-align sentence)."""

from __future__ import annotations

import sys
from pathlib import Path

from mrp.codecs.amr import read_string
from mrp.graph import Graph
from mrp.metrics.seed import sentences

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import documents  # noqa: E402

SENTENCES = [
    '(w / want-01 :ARG0 (p / person :wiki "Obama" :name (n / name :op1 "Barack" :op2 "Obama")) '
    ':ARG1 (g / go-02 :ARG0 p :ARG4 (c / city :name (n2 / name :op1 "Paris"))))',
    '(s / see-01 :ARG0 (p / person :name (n / name :op1 "Barack" :op2 "Obama") :wiki "X") '
    ':ARG1 (c / city :name (n2 / name :op1 "Paris") :mod (o / old)) :time (d / day :mod p))',
    '(l / leave-11 :ARG0 (p / person :name (n / name :op1 "Barack" :op2 "Obama")) '
    ':ARG1 (c2 / country :name (n3 / name :op1 "Paris")))',
]


def amr(text: str) -> Graph:
    graph = read_string(text)[0]
    assert isinstance(graph, Graph)
    return graph


def test_named_entities_mentioned_again_become_the_first_mentions_node() -> None:
    text = documents.merged(SENTENCES, 1, coref=True)
    # sentence 2: Obama (with a wiki of its own) becomes s1xp, every reference too; the old Paris has more
    # than a name (:mod) and stays; sentence 3: Obama again; a country named Paris is another entity
    assert ":ARG0 s1xp :ARG1 (s2xc / city" in text and ":mod s1xp" in text
    assert ':wiki "X"' not in text and "s2xp" not in text and "s3xp" not in text
    assert "(s3xl / leave-11 :ARG0 s1xp :ARG1 (s3xc2 / country" in text
    graph, plain = amr(text), amr(documents.merged(SENTENCES, 1))
    assert len(graph.nodes) == len(plain.nodes) - 4  # two persons and their names
    labels = [node.label for node in graph.nodes]
    assert labels.count("person") == 1 and labels.count("city") == 2
    blocks = sentences(graph)
    assert blocks is not None
    obama = labels.index("person")
    assert obama in blocks[1] and all(obama not in blocks[k] for k in (2, 3))  # the first mention's sentence


def test_without_coref_the_document_is_as_before() -> None:
    text = documents.merged(SENTENCES, 1)
    assert "s2xp / person" in text and "s3xp / person" in text


def test_a_sentence_keeps_its_own_repeated_names() -> None:
    same = ['(a / and :op1 (p / person :name (n / name :op1 "A"))'
            ' :op2 (p2 / person :name (n2 / name :op1 "A")))',
            '(s / sleep-01 :ARG0 (p / person :name (n / name :op1 "A")))']
    text = documents.merged(same, 1, coref=True)
    assert "s1xp2 / person" in text and ":ARG0 s1xp)" in text


def test_coref_files_are_written_beside_the_plain_ones(tmp_path: Path) -> None:
    from conftest import shared_path

    gold, system = documents.write(4, tmp_path, 3, shared_path(), coref=True)
    assert gold.name == "coli.k4.coref.gold.amr" and system.name == "coli.k4.coref.system.amr"
    plain = documents.write(4, tmp_path, 3, shared_path())
    for merged_file, plain_file in zip((gold, system), plain):
        merged_graphs = [amr(text) for text in documents.graphs(merged_file)]
        plain_graphs = [amr(text) for text in documents.graphs(plain_file)]
        assert len(merged_graphs) == len(plain_graphs) == 3
        assert sum(len(g.nodes) for g in merged_graphs) < sum(len(g.nodes) for g in plain_graphs)
    again = documents.write(4, tmp_path / "again", 3, shared_path(), coref=True)[0]
    assert gold.read_text() == again.read_text()
