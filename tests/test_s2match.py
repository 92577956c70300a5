"""S2match: the similarity's rules by hand, exactness by brute force, and the original's outputs."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np
import pytest

import mrp
from mrp.engine.options import Options
from mrp.errors import MRPError
from mrp.metrics.s2match.metric import SCALE, score_soft
from mrp.metrics.s2match.similarity import Similarity, load
from mrp.metrics.s2match.triples import Soft, compat_triples

from conftest import ROOT, run_cli, shared_file

DATA = ROOT / "tests" / "data" / "s2match"
VECTORS = str(DATA / "vectors.txt")
#: the original's result of one pair is at most this far from mrp's count of the same alignment: half a
#: unit of 1 / SCALE per graded triple (instance and TOP triples, at most 2 per node pair)
ROUNDING = 100 / SCALE


def _similarity(vectors: Dict[str, List[float]], cutoff: float = 0.5, diffsense: float = 0.5) -> Similarity:
    return Similarity({w: np.array(v, float) for w, v in vectors.items()}, cutoff, diffsense)


def test_similarity_follows_the_original_rules() -> None:
    sim = _similarity({"hit": [1, 0], "punch": [1, 0.2], "jump": [0, 1], "hits": [0, 0], "ice": [2, 1],
                       "cream": [1, 1], "dog": [1, 0.3]})
    assert sim("boy", "boy") == 1.0
    assert sim("hit-01", "hit-02") == 0.5  # another sense
    assert sim("hit-01", "hit") == sim("hit", "hit-01") == 0.5  # a frame and its lemma
    cosine = 1 / np.sqrt(1.04)
    assert sim("punch", "hit") == pytest.approx(cosine)
    assert sim("hit-01", "punch-01") == pytest.approx(0.5 * cosine)  # a frame: times diffsense
    assert sim("hit", "jump") == 0.0  # cosine 0, at or below the cut-off
    assert sim("hit", "unknown") == 0.0  # no vector
    # a hyphenated concept not in the file: its parts summed (ice + cream = (3, 2))
    assert sim("ice-cream", "dog") == pytest.approx(np.dot([3, 2], [1, 0.3]) / np.sqrt(13 * 1.09))
    # a frame's lemma + "s" adds its vector ("hits" is (0, 0) here: nothing changes)
    assert sim("hit-01", "dog") == pytest.approx(0.5 * np.dot([1, 0], [1, 0.3]) / np.sqrt(1.09))
    assert _similarity({"hit": [1, 0], "punch": [1, 0.2]}, cutoff=0.99)("hit", "punch") == 0.0
    assert _similarity({}, diffsense=0.8)("say-01", "say-02") == 0.8


def test_vectors_file_glove_word2vec_and_errors(tmp_path: Path) -> None:
    glove = tmp_path / "glove.txt"
    glove.write_text("boy 1 0\ngirl 0.5 0.5\nboy 0 1\n")
    vectors, digest = load(str(glove))
    assert sorted(vectors) == ["boy", "girl"] and list(vectors["boy"]) == [0, 1]  # the last one kept
    assert len(digest) == 12
    word2vec = tmp_path / "w2v.txt"
    word2vec.write_text("2 2\nboy 1 0\ngirl 0.5 0.5\n")
    assert sorted(load(str(word2vec))[0]) == ["boy", "girl"]
    bad = tmp_path / "bad.txt"
    bad.write_text("boy 1 0\ngirl 1 x\n")
    with pytest.raises(MRPError, match=r"bad.txt:2:"):
        load(str(bad))
    ragged = tmp_path / "ragged.txt"
    ragged.write_text("boy 1 0\ngirl 1 0 1\n")
    with pytest.raises(MRPError, match=r"ragged.txt:2: .*3 numbers"):
        load(str(ragged))


def _random_soft(rng: random.Random, size: int, words: List[str]) -> Soft:
    concepts: List[Optional[str]] = [rng.choice(words) for _ in range(size)]
    tops = [0] * size
    tops[0] = 1
    local = [{("polarity", "-"): 1} if rng.random() < 0.3 else {} for _ in range(size)]
    relations = {}
    for _ in range(rng.randint(0, 2 * size)):
        a, b = rng.randrange(size), rng.randrange(size)
        relations[(a, b, rng.choice(("arg0", "arg1")))] = 1
    total = size + 1 + sum(map(len, local)) + len(relations)
    return Soft(concepts, tops, local, relations, total)


def _brute_force(gold: Soft, system: Soft, sim: Similarity) -> int:
    """The best graded total over every one-to-one partial map, in units of 1 / SCALE, counted from the
    triples' definition."""
    n, m = len(gold.concepts), len(system.concepts)
    best = 0
    for targets in itertools.product(range(-1, m), repeat=n):
        used = [j for j in targets if j >= 0]
        if len(used) != len(set(used)):
            continue
        total = 0
        for i, j in enumerate(targets):
            if j < 0:
                continue
            credit = int(np.rint(sim(gold.concepts[i], system.concepts[j]) * SCALE))
            total += credit * (1 + gold.tops[i] * system.tops[j])
            total += SCALE * len(set(gold.local[i]) & set(system.local[j]))
        for (a, b, label) in gold.relations:
            if targets[a] >= 0 and targets[b] >= 0 and (targets[a], targets[b], label) in system.relations:
                total += SCALE
        best = max(best, total)
    return best


def test_exact_against_brute_force_on_random_small_pairs() -> None:
    rng = random.Random(65)
    words = ["hit-01", "hit-02", "punch-01", "dog", "cat", "ice-cream", "boy", "girl"]
    vectors = {"hit": [1, 0.1, 0], "punch": [1, 0.3, 0.1], "dog": [0, 1, 0.2], "cat": [0.1, 1, 0.4],
               "ice": [0, 0, 1], "boy": [0.5, 0.5, 1], "girl": [0.6, 0.4, 1]}
    sim = _similarity(vectors, cutoff=0.3, diffsense=0.7)
    options = Options(timeout=None)
    improved = 0
    for _ in range(60):
        gold = _random_soft(rng, rng.randint(1, 5), words)
        system = _random_soft(rng, rng.randint(1, 5), words)
        result = score_soft(gold, system, sim, options)
        best = _brute_force(gold, system, sim)
        assert result.exact and result.counts[()][2] == pytest.approx(best / SCALE, abs=1e-9)
        assert result.bound == pytest.approx(best / SCALE, abs=1e-9)
        improved += best % SCALE != 0
    assert improved >= 10  # graded credit took part


def _pairs(name: str) -> List[Tuple[mrp.Graph, mrp.Graph]]:
    if name == "hand":  # one rule of the original's reader each (tests/data/s2match/hand.*.amr)
        return list(zip(mrp.read(str(DATA / "hand.gold.amr")), mrp.read(str(DATA / "hand.system.amr"))))
    amr = shared_file("data", "pairs", "amr")
    if name == "test":
        return list(zip(mrp.read(str(amr / "test1.amr")), mrp.read(str(amr / "test2.amr"))))
    if name == "partial":
        return list(zip(mrp.read(str(amr / "partial.gold.mrp")), mrp.read(str(amr / "partial.system.mrp"))))
    gold, system = mrp.read(str(amr / "coli.gold.amr")), mrp.read(str(amr / "coli.system.amr"))
    return list(zip(gold, system))[:60]


REFERENCE = (("hand", 0.5, 0.5), ("test", 0.5, 0.5), ("partial", 0.5, 0.5), ("coli60", 0.5, 0.5),
             ("coli60-loose", 0.0, 0.95))


def _original(name: str) -> List[Dict]:
    return [json.loads(line) for line in (DATA / "reference" / f"{name}.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("name, cutoff, diffsense", REFERENCE)
def test_compat_never_below_the_original_and_equal_where_it_is_optimal(name: str, cutoff: float,
                                                                       diffsense: float) -> None:
    pairs = _pairs(name.split("-")[0])
    original = _original(name)
    assert len(pairs) == len(original)
    sim = Similarity(load(VECTORS)[0], cutoff, diffsense)
    optimal = 0
    for (gold, system), theirs in zip(pairs, original):
        ours = score_soft(compat_triples(gold), compat_triples(system), sim, Options(timeout=None))
        g, s, c = ours.counts[()]
        assert (g, s) == (theirs["gold"], theirs["test"]), gold.id  # the original's reading, each triple
        assert ours.exact
        assert c >= theirs["match"] - ROUNDING, gold.id
        if ours.bound <= theirs["match"] + ROUNDING:  # mrp's bound proves the original's result optimal
            assert c == pytest.approx(theirs["match"], abs=ROUNDING)
            optimal += 1
    assert optimal >= len(pairs) // 2


@pytest.mark.parametrize("name, cutoff, diffsense", REFERENCE[1:])
def test_compat_f_from_the_command_line_at_least_the_originals(name: str, cutoff: float,
                                                               diffsense: float) -> None:
    """The original's own command line (another run of its random restarts) prints F to four decimals."""
    pairs = _pairs(name.split("-")[0])
    printed = (DATA / "reference" / f"{name}.cli.txt").read_text().split()
    theirs = float(printed[-1])
    result = mrp.score([gold for gold, _ in pairs], [system for _, system in pairs], metric="s2match",
                       s2match_compat=True,
                       s2match_vectors=VECTORS, s2match_cutoff=cutoff, s2match_diffsense=diffsense)
    assert round(result.f, 4) >= theirs
    # and the sum of the original's per-pair results, run pair by pair, gives its F exactly
    original = _original(name)
    match = sum(item["match"] for item in original)
    p, r = match / sum(item["test"] for item in original), match / sum(item["gold"] for item in original)
    assert result.f == pytest.approx(2 * p * r / (p + r), abs=1e-5)


def test_command_line_parameters_and_signature(tmp_path: Path) -> None:
    amr = shared_file("data", "pairs", "amr")
    done = run_cli("score", ["--score", "s2match", "--s2match-vectors", VECTORS, "--s2match-cutoff", "0.4",
                   "--s2match-diffsense", "0.6", "--gold", str(amr / "test1.amr"), str(amr / "test2.amr")])
    assert done.code == 0, done.err
    report = json.loads(done.out)
    digest = load(VECTORS)[1]
    assert f"vectors:{digest}|cutoff:0.4|diffsense:0.6|similarity:cosine|scale:1e6|triples:penman" \
        in report["signature"]
    assert report["exact"] == 3 and report["bound"]["c"] == report["c"]
    bad = run_cli("score", ["--score", "s2match", "--s2match-diffsense", "2", "--gold",
                            str(amr / "test1.amr"), str(amr / "test2.amr")])
    assert bad.code != 0 and "Traceback" not in bad.err
    missing = run_cli("score", ["--score", "s2match", "--s2match-vectors", str(tmp_path / "none.txt"),
                                "--gold", str(amr / "test1.amr"), str(amr / "test2.amr")])
    assert missing.code != 0 and "none.txt" in missing.err and "Traceback" not in missing.err


def test_graded_credit_beats_smatch_on_a_near_synonym(tmp_path: Path) -> None:
    vectors = tmp_path / "v.txt"
    vectors.write_text("cat 1 0.1\nkitten 1 0.2\n")
    gold, system = "(s / sleep-01 :ARG0 (c / cat))", "(s / sleep-01 :ARG0 (k / kitten))"
    plain = mrp.score(gold, system, metric="smatch", format="amr")
    soft = mrp.score(gold, system, metric="s2match", format="amr", s2match_vectors=str(vectors))
    cosine = float(np.dot([1, 0.1], [1, 0.2]) / np.sqrt(1.01 * 1.04))
    assert plain.pairs[0].item["c"] == 3
    assert soft.pairs[0].item["c"] == pytest.approx(3 + round(cosine * SCALE) / SCALE, abs=1e-12)


ORIGINAL = os.environ.get("S2MATCH_DIR")  # the original's py3-Smatch-and-S2match/smatch directory
PYTHON = os.environ.get("S2MATCH_PYTHON", sys.executable)  # a Python with numpy and scipy


def test_the_original_itself_gives_the_stored_counts(tmp_path: Path) -> None:
    if not ORIGINAL or not Path(ORIGINAL, "s2match.py").exists():
        pytest.skip("S2MATCH_DIR does not name the original S2match (amr-metric-suite's "
                    "py3-Smatch-and-S2match/smatch; S2MATCH_PYTHON: a Python with numpy and scipy)")
    amr = shared_file("data", "pairs", "amr")
    done = subprocess.run([PYTHON, str(DATA / "run_reference.py"), ORIGINAL, VECTORS, str(amr / "test2.amr"),
                           str(amr / "test1.amr")], capture_output=True, text=True, timeout=300, check=True)
    fresh = [json.loads(line) for line in done.stdout.splitlines()]
    stored = _original("test")
    counts = [(item["test"], item["gold"]) for item in stored]
    assert [(item["test"], item["gold"]) for item in fresh] == counts
    assert [item["match"] for item in fresh] == pytest.approx([item["match"] for item in stored])


def test_default_and_compat_readings_of_quotes_and_inverted_roles() -> None:
    """mrp's default reads as SMATCH does (``"61"`` = ``61``, ``:mod`` = ``:domain-of``); the original's
    reader marks a quoted value (unless told not to) and keeps ``mod`` as written."""
    def c(gold: str, system: str, **options: bool) -> float:
        return mrp.score(gold, system, metric="s2match", format="amr", **options).pairs[0].item["c"]

    quoted, plain = '(c / country :quant "61")', "(c / country :quant 61)"
    assert c(quoted, plain) == 3.0
    assert c(quoted, plain, s2match_compat=True) == 2.0
    assert c(quoted, plain, s2match_compat=True, s2match_do_not_mark_quotes=True) == 3.0
    mod, domain = "(d / dog :mod (b / big))", "(b / big :domain (d / dog))"
    assert c(mod, domain) == 3.0  # 2 instances and the relation (the tops dog and big are not a pair)
    assert c(mod, domain, s2match_compat=True) == 2.0  # mod is not domain-of there
