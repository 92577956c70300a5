"""Documents: coreference-merged documents (bench/documents.py --coref) and the sentence-restricted alignment
(--doc-align sentence)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Iterator, List, Set, Tuple

import numpy as np
import pytest

from mrp.codecs.penman import read_string
from mrp.engine.seed import sentences
from mrp.graph import Graph

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


# --doc-align sentence -------------------------------------------------------------------------------------

SWAPPED = ("(m / multi-sentence :snt1 (a / see-01 :ARG0 (b / boy :mod (t / tall)) :ARG1 (c / cat))"
           " :snt2 (d / run-02 :ARG0 (e / girl :mod (f / small))))",
           "(m / multi-sentence :snt1 (a / see-01 :ARG0 (e / girl :mod (f / small)) :ARG1 (c / cat))"
           " :snt2 (d / run-02 :ARG0 (b / boy :mod (t / tall))))")


def _score(gold: Graph, system: Graph, metric: str, doc_align: str) -> Tuple[int, int, int, bool, int]:
    """(g, s, c, exact, bound) of a pair under a metric with --doc-align."""
    from mrp.engine.options import Options
    from mrp.engine.pairing import Pair
    from mrp.metrics.mrp import metric as mrp_metric
    from mrp.metrics.smatch import metric as smatch

    options = Options(penman=True, doc_align=doc_align)
    measure = smatch.METRIC if metric == "smatch" else mrp_metric.METRIC
    result = measure.score(Pair(gold, system, False), options)
    g, s, c = result.counts[() if metric == "smatch" else ("all",)]
    return g, s, c, result.exact, result.bound


@pytest.mark.parametrize("metric", ["smatch", "mrp"])
def test_a_document_whose_best_alignment_crosses_sentences(metric: str) -> None:
    gold, system = amr(SWAPPED[0]), amr(SWAPPED[1])
    g, s, c, exact, bound = _score(gold, system, metric, "none")
    assert exact and bound == c
    g2, s2, within, exact, bound = _score(gold, system, metric, "sentence")
    assert exact and bound == within and (g2, s2) == (g, s)
    # the boy and the girl (3 nodes, 2 edges each side) match only across the sentences
    assert within < c


def test_the_restriction_is_stated_in_the_signature_and_the_result(tmp_path: Path) -> None:
    from mrp.cli.score import main_body

    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text(SWAPPED[0] + "\n\n(x / cat)\n")
    system.write_text(SWAPPED[1] + "\n\n(x / dog)\n")
    out = tmp_path / "out.json"
    for metric in ("smatch", "mrp"):
        assert main_body(["--score", metric, "--format", "amr", "--doc-align", "sentence", "--gold",
                          str(gold), str(system), "--output", str(out)]) == 0
        result = json.loads(out.read_text())
        assert "|align:sentence|" in result["signature"]
        assert result["doc_align"]["mode"] == "sentence" and result["doc_align"]["restricted"] == 1
        assert result["doc_align"]["unrestricted"] == 1 and "restricted" in result["doc_align"]["meaning"]
        assert main_body(["--score", metric, "--format", "amr", "--gold", str(gold), str(system), "--output",
                          str(out)]) == 0
        plain = json.loads(out.read_text())
        assert "align:" not in plain["signature"] and "doc_align" not in plain


def tiny_document(rng: random.Random) -> str:
    """A random document of two or three sentences of one to three nodes, with a cross-sentence
    reference now and then (concepts from a few, so that alignments across sentences tempt)."""
    concepts = ["a", "b", "c"]
    sentences = []
    for k in range(1, rng.randint(2, 3) + 1):
        text = f"(s{k} / {rng.choice(concepts)}"
        for child in range(rng.randint(0, 2)):
            role = rng.choice([":r", ":q"])
            if k > 1 and rng.random() < 0.3:
                text += f" {role} s{rng.randint(1, k - 1)}"
            else:
                text += f" {role} (s{k}c{child} / {rng.choice(concepts)})"
        sentences.append(f":snt{k} {text})")
    return "(m / multi-sentence " + " ".join(sentences) + ")"


def within_maps(gold: np.ndarray, system: np.ndarray) -> Iterator[np.ndarray]:
    """Every injective partial map of gold positions onto system positions of the same group."""
    n, m = gold.shape[0], system.shape[0]

    def extend(prefix: List[int], used: Set[int]) -> Iterator[np.ndarray]:
        i = len(prefix)
        if i == n:
            yield np.array(prefix, np.int64)
            return
        yield from extend(prefix + [-1], used)
        for j in range(m):
            if j not in used and gold[i] == system[j]:
                yield from extend(prefix + [j], used | {j})

    return extend([], set())


@pytest.mark.parametrize("seed", range(30))
def test_the_restricted_optimum_is_the_best_map_within_sentences(seed: int) -> None:
    from mrp.engine.options import Options
    from mrp.metrics.mrp.pair import seeding, sentence_groups
    from mrp.metrics.smatch import metric as smatch
    from mrp.normalize import normalize
    from mrp.solver.mip import value_of
    from mrp.solver.problem import build, from_triples
    from mrp.solver.solve import solve_problem, solve_within

    rng = random.Random(seed)
    gold, system = amr(tiny_document(rng)), amr(tiny_document(rng))
    options = Options(penman=True)
    (lg, rg, _), (ls, rs, _) = smatch.triples(gold, options), smatch.triples(system, options)
    for problem in (from_triples(lg, ls, rg, rs), build(normalize(gold), normalize(system))):
        groups = sentence_groups((gold, system), *problem.U.shape)
        assert groups is not None
        best = max(value_of(problem, pi) for pi in within_maps(*groups))
        solution = solve_within(lambda stop, problem=problem: problem, groups, True, None, None,
                                seeding((gold, system)), True)
        assert solution.exact and solution.value == solution.bound == best
        mapping = np.array(solution.mapping, np.int64)
        assert value_of(problem, mapping) == best
        assert all(groups[0][i] == groups[1][j] for i, j in enumerate(solution.mapping) if j >= 0)
        assert solve_problem(problem).value >= best  # a restriction: never above the whole optimum


@pytest.mark.parametrize("metric", ["smatch", "mrp"])
def test_restricted_f_is_never_above_the_unrestricted_f_on_coli_documents(metric: str) -> None:
    from conftest import shared_path

    sides = [documents.documents(shared_path() / source, 3, 12, coref=True) for source in documents.COLI]
    for gold_text, system_text in zip(*sides):
        gold, system = amr(gold_text), amr(system_text)
        g, s, c, exact, bound = _score(gold, system, metric, "none")
        _, _, within, exact_within, bound_within = _score(gold, system, metric, "sentence")
        assert within <= bound_within and c <= bound and within <= bound
        if exact:  # the whole document's optimum
            assert within <= c


# where a document's gap sits -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_node_values_add_up_to_the_map_and_group_bounds_bound_every_map(seed: int) -> None:
    from mrp.engine.options import Options
    from mrp.metrics.smatch import metric as smatch
    from mrp.solver.attribution import group_bounds, node_values
    from mrp.solver.mip import value_of
    from mrp.solver.potential import SCALE
    from mrp.solver.problem import from_triples

    rng = random.Random(seed)
    gold, system = amr(tiny_document(rng)), amr(tiny_document(rng))
    options = Options(penman=True)
    (lg, rg, _), (ls, rs, _) = smatch.triples(gold, options), smatch.triples(system, options)
    problem = from_triples(lg, ls, rg, rs)
    n, m = problem.U.shape
    groups = np.array([rng.randint(0, 2) for _ in range(n)], np.int64)
    share = np.array([rng.randint(0, int(w) * SCALE) for w in problem.cw], np.int64)
    bounds = group_bounds(problem, groups, 3, share)
    for _ in range(300):
        targets = list(range(m)) + [-1] * n
        rng.shuffle(targets)
        pi = np.array(targets[:n], np.int64)
        values = node_values(problem, pi, share)
        assert values.sum() == SCALE * value_of(problem, pi)
        for g in range(3):
            assert values[groups == g].sum() <= bounds[g]


def test_a_document_not_proved_reports_where_its_gap_sits() -> None:
    from mrp.engine.options import Options
    from mrp.engine.pairing import Pair
    from mrp.metrics.smatch import metric as smatch

    from conftest import shared_path

    sides = [documents.documents(shared_path() / source, 16, 1) for source in documents.COLI]
    gold, system = amr(sides[0][0]), amr(sides[1][0])
    result = smatch.METRIC.score(Pair(gold, system, False), Options(penman=True, limit=1, mip=False))
    assert not result.exact
    item = smatch.METRIC.item(Pair(gold, system, False), result)
    gap = item["gap"]
    g, s, c = result.counts[()]
    assert gap["f"] == pytest.approx([2 * c / (g + s), 2 * result.bound / (g + s)])
    assert gap["bound"] >= result.bound  # the sum of the sentence bounds: a bound too, never below the proof
    assert gap["open"] and gap["settled"] + len(gap["open"]) == 17  # 16 sentences and the root
    rooms = [entry["bound"] - entry["found"] for entry in gap["open"]]
    assert all(room > 0 for room in rooms) and rooms == sorted(rooms, reverse=True)
    found = sum(entry["found"] for entry in gap["open"])
    assert found <= c
    proved = smatch.METRIC.score(Pair(gold, system, False), Options(penman=True))
    assert proved.exact and "gap" not in proved.extra
