"""The exact juːmæʧ map of a sentence pair whose allowed node pairs are disjoint (no node allowed two) is
the greedy map pairing them all, proved without building the objective (``Proof.forced``, issue 64 goal 2):
a brute force over every map on random pairs, and an oracle against the search it replaces (the objective
built, the greedy map checked against its bound) on every shared UMR file pair: the same maps, counts,
proofs (exact, steps, cut, gap) and sentences forced."""

from __future__ import annotations

import itertools
import random
from typing import Any, List, Tuple

import pytest

from mrp.corpora.load import read_corpus
from mrp.metrics.umatch import compare, exact, graphs
from mrp.metrics.umatch.exact import ExactMapper, allowed_pairs, build, forced, weight
from mrp.metrics.umatch.model import Node, Sentence, UmrFile
from mrp.metrics.umatch.triples import ALL
from mrp.solver import sparse_value

from conftest import ROOT, shared_file

CZECH = "data/umr/czech-pdtc"


def _sentence(rng: random.Random, prefix: str, tokens: List[int], concepts: List[str]) -> Sentence:
    """Nodes aligned to the given tokens, one each, or unaligned with the given concepts (disjoint allowed
    pairs where both sides draw distinct ones), with random relations and document-level relations."""
    sentence = Sentence(1, 1, 1, tokens=[f"w{k}" for k in range(6)])
    names = [f"{prefix}{k}" for k in range(len(tokens) + len(concepts))]
    for k, name in enumerate(names):
        aligned = k < len(tokens)
        node = Node(name, rng.choice(["a", "b"]) if aligned else concepts[k - len(tokens)])
        node.alignment = (tokens[k],) if aligned else None
        for _ in range(rng.randint(0, 3)):
            role = rng.choice([":ARG0", ":ARG1", ":mod"])
            node.relations.append((role, rng.choice(names) if rng.random() < 0.6 else rng.choice(["x", "y"])))
        node.econcept = node.concept
        sentence.nodes[name] = node
    for _ in range(rng.randint(0, 2) if names else 0):
        a, b = rng.choice(names + ["author"]), rng.choice(names)
        sentence.docrels[f"{a} :{rng.choice(['before', 'after'])} {b}"] = 1
    sentence.scope = dict(sentence.nodes)
    return sentence


def _pair(seed: int) -> Tuple[Sentence, Sentence]:
    rng = random.Random(seed)
    sides = []
    for prefix in "gs":
        tokens = rng.sample(range(6), rng.randint(0, 4))
        concepts = rng.sample(["c", "d", "e"], rng.randint(0, 2))
        sides.append(_sentence(rng, prefix, tokens, concepts))
    if rng.random() < 0.2:  # a node allowed two: not forced
        node = next(iter(sides[1].nodes.values()), None)
        if node is not None and node.alignment is not None:
            node.alignment = tuple(sorted({node.alignment[0], (node.alignment[0] + 1) % 6}))
    return sides[0], sides[1]


def _objective(gold: Sentence, system: Sentence, mapping: List[int]) -> int:
    """The exact search's objective of a map (correct pairs scaled, plus one per pair mapped)."""
    gold_nodes = [gold.nodes[v] for v in sorted(gold.nodes)]
    system_nodes = [system.nodes[v] for v in sorted(system.nodes)]
    allowed = allowed_pairs(gold_nodes, system_nodes, len(gold.tokens))
    terms = build(gold, system, gold_nodes, system_nodes, allowed, "S", ALL)
    return sparse_value(terms.sparse(), mapping)


@pytest.mark.parametrize("seed", range(150))
def test_a_forced_map_is_the_one_optimum(seed: int) -> None:
    gold, system = _pair(seed)
    files = [UmrFile("G", "g", [gold]), UmrFile("S", "s", [system])]
    mapper = ExactMapper()
    compare.run(files, compare.Settings(), mapper)
    (proof,) = mapper.proofs.values()
    gold_nodes = [gold.nodes[v] for v in sorted(gold.nodes)]
    system_nodes = [system.nodes[v] for v in sorted(system.nodes)]
    position = {node.variable: j for j, node in enumerate(system_nodes)}
    found = [position[next(iter(node.cross["S"]))] if node.cross.get("S") else -1 for node in gold_nodes]
    allowed = allowed_pairs(gold_nodes, system_nodes, len(gold.tokens))
    partners = [[j for j, ok in enumerate(row) if ok] for row in allowed]
    assert proof.exact and proof.forced == (forced(partners, found) and bool(gold_nodes and system_nodes))
    if not gold_nodes or not system_nodes:
        return
    for node in gold_nodes + system_nodes:  # the objective reads no correspondence but the map's
        node.cross.clear()
    values = {}
    for combination in itertools.product(*[[-1] + row for row in partners]):
        used = [j for j in combination if j >= 0]
        if len(used) == len(set(used)):
            values[combination] = _objective(gold, system, list(combination))
    best = max(values.values())
    optima = [list(mapping) for mapping, value in values.items() if value == best]
    assert _objective(gold, system, found) == best
    if proof.forced:
        assert optima == [found]
        assert best // weight(len(gold_nodes), len(system_nodes)) >= proof.value == proof.bound == 0


def test_random_pairs_are_forced_and_not() -> None:
    kinds = set()
    for seed in range(150):
        gold, system = _pair(seed)
        mapper = ExactMapper()
        compare.run([UmrFile("G", "g", [gold]), UmrFile("S", "s", [system])], compare.Settings(), mapper)
        kinds.update(proof.forced for proof in mapper.proofs.values())
    assert kinds == {True, False}


def _pairs() -> List[Tuple[str, str]]:
    czech = [(str(shared_file(CZECH, f"{n}-gold.umr")), str(shared_file(CZECH, f"{n}-conv.umr")))
             for n in ("pdt", "pdtsc", "pcedt", "dtest")]
    english = sorted(shared_file("data", "umr", "english").glob("*.umr"))
    data = ROOT / "tests" / "data" / "umatch"
    return czech + [(czech[0][1], czech[0][0]), (str(data / "gold.umr"), str(data / "system.umr")),
                    (str(english[0]), str(english[-1])), (str(english[1]), str(english[1]))]


def _exact_run(gold: str, system: str) -> Tuple[Any, ...]:
    first, second = read_corpus(gold, "umr").graphs, read_corpus(system, "umr").graphs
    files = graphs.files(list(zip(first, second)))[:2]
    mapper = ExactMapper()
    result = compare.run(list(files), compare.Settings(), mapper, check_tokens=False, one_way=True)
    links = [sorted((node.variable, sorted(node.cross.get("SYSTEM", {}))) for node in item.nodes.values())
             for item in files[0].sentences]
    proofs = {key: (proof.exact, proof.steps, proof.cut, proof.note, proof.trivial, proof.bound - proof.value)
              for key, proof in mapper.proofs.items()}
    return result.sentences.get(("GOLD", "SYSTEM")), result.documents.get(("GOLD", "SYSTEM")), links, \
        proofs, {key for key, proof in mapper.proofs.items() if proof.forced}, \
        {key for key, proof in mapper.proofs.items() if proof.value == proof.bound and proof.steps == 0}


@pytest.mark.parametrize("k", range(8))
def test_forced_maps_are_the_maps_the_search_finds(k: int, monkeypatch: pytest.MonkeyPatch) -> None:
    gold, system = _pairs()[k]
    new = _exact_run(gold, system)
    monkeypatch.setattr(exact, "forced", lambda partners, mapping: False)
    old = _exact_run(gold, system)
    assert new[:4] == old[:4]
    assert old[4] == set() and new[4] <= old[5]  # each forced one: the greedy map met the built bound
    if k < 4:
        assert 0 < len(new[4]) < len(new[3])
