"""juːmæʧ: compat equals compare_umr.pl (ufal/umrtools 4377bc4) on every shared reference run and on
hand-made files of its quirks; the exact correspondence is proved, symmetric, 1.0 on a file against
itself, never below compat, and equal to a brute-force optimum on small random pairs."""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from mrp.cli.umr_compare import compare_files, parser
from mrp.metrics.umatch import compare, reading
from mrp.metrics.umatch.exact import ExactMapper, allowed_pairs
from mrp.metrics.umatch.model import Node, Sentence, UmrFile
from mrp.report.umatch import figures
from mrp.report.umatch.micro import micro_average

from conftest import ROOT, shared_file, shared_path

DATA = ROOT / "tests" / "data" / "umatch"
CZECH = "data/umr/czech-pdtc"
REFERENCE = "reference/umrtools/compare"


def _run(*argv: str) -> str:
    args = parser().parse_args(list(argv))
    items = args.items
    return compare_files(args, items[0::2], items[1::2])


def _czech(name: str) -> str:
    return str(shared_file(CZECH, name))


def _reference(name: str) -> str:
    return shared_file(REFERENCE, name).read_text(encoding="utf-8")


# ---------------------------------------------------------------- compat: the reference runs, byte for byte

@pytest.mark.parametrize("name", ["dtest", "pdt", "pdtsc", "pcedt"])
def test_tsv_equals_compare_umr(name: str) -> None:
    assert _run("--tsv", "GOLD", _czech(f"{name}-gold.umr"), "SYSTEM", _czech(f"{name}-conv.umr")) == \
        _reference(f"{name}.tsv")


@pytest.mark.parametrize("options,reference", [
    (["--top"], "dtest.top.tsv"), (["--no-document-level"], "dtest.nodoc.tsv"),
    (["--only", "ARG0,ARG1,ARG2"], "dtest.only-args.tsv"),
    (["--except", "concept"], "dtest.except-concept.tsv"),
    ([], "dtest.txt"), (["--quiet"], "dtest.quiet.txt")])
def test_options_and_layouts_equal_compare_umr(options: List[str], reference: str) -> None:
    tsv = [] if reference.endswith(".txt") else ["--tsv"]
    out = _run(*tsv, *options, "GOLD", _czech("dtest-gold.umr"), "SYSTEM", _czech("dtest-conv.umr"))
    assert out == _reference(reference)


def test_three_files_every_pair() -> None:
    out = _run("--tsv", "GOLD", _czech("dtest-gold.umr"), "CONV", _czech("dtest-conv.umr"), "GOLD2",
               _czech("dtest-gold.umr"))
    assert out == _reference("dtest.three-way.tsv")


@pytest.mark.parametrize("name", ["english_umr-0001", "english_umr-0003", "english_umr-0004", "dtest-gold"])
def test_self_comparisons_equal_compare_umr(name: str) -> None:
    folder = "english" if name.startswith("english") else "czech-pdtc"
    path = str(shared_file("data/umr", folder, f"{name}.umr"))
    assert _run("--tsv", "A", path, "B", path) == _reference(f"self-{name}.tsv")


def test_micro_average_equals_micro_average_pl() -> None:
    folder = shared_path() / REFERENCE
    assert micro_average([str(folder / f"{n}.tsv") for n in ("pdt", "pdtsc", "pcedt")]) == \
        _reference("micro-pdt-pdtsc-pcedt.tsv")


def test_directories_are_documents_micro_averaged(tmp_path: Path) -> None:
    for side, kind in (("gold", "gold"), ("system", "conv")):
        (tmp_path / side).mkdir()
        for name in ("pdt", "pdtsc", "pcedt"):
            (tmp_path / side / f"{name}.umr").write_bytes(Path(_czech(f"{name}-{kind}.umr")).read_bytes())
    done = subprocess.run([sys.executable, "-m", "mrp.cli.umr_compare", "--tsv", "GOLD",
                           str(tmp_path / "gold"), "SYSTEM", str(tmp_path / "system")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == _reference("micro-pdt-pdtsc-pcedt.tsv")


# ---------------------------------------------------------- compat: quirks, as compare_umr.pl printed them

#: compare_umr.pl 4377bc4 --tsv, GOLD tests/data/umatch/gold.umr against each file: its juːmæʧ row and
#: node counts.  hash: '#person' cut by the comment rule, the sentence's graph read up to it; badalign:
#: an alignment naming an unknown variable stops that sentence's reading, the alignments before it stay;
#: quirks: a line left as "0" ends, so ':quant' has no value, and the unclosed document block is kept.
QUIRKS = {"gold": (7, 7, 22, 22, 22), "hash": (7, 5, 5, 22, 11), "badalign": (7, 7, 16, 22, 20),
          "quirks": (7, 7, 15, 22, 19)}


@pytest.mark.parametrize("name", sorted(QUIRKS))
def test_quirks_as_compare_umr(name: str) -> None:
    files = [reading.read(str(DATA / "gold.umr"), "GOLD"), reading.read(str(DATA / f"{name}.umr"), "SYSTEM")]
    result = compare.run(files, compare.Settings())
    umatch = [f for f in figures.figures(result) if f.name == "juːmæʧ"][0].values
    assert (result.nodes["GOLD"], result.nodes["SYSTEM"], umatch["correct"], umatch["total0"],
            umatch["total1"]) == QUIRKS[name]
    assert files[1].failed == (0 if name == "gold" else 1)


def test_careful_reading_repairs_what_compat_cuts() -> None:
    hashed = reading.read(str(DATA / "hash.umr"), "S", careful=True)
    assert hashed.failed == 0
    assert hashed.sentences[0].nodes["s1m"].concept == "#person"
    bad = reading.read(str(DATA / "badalign.umr"), "S", careful=True)
    assert bad.failed == 0 and any("s2q" in repair for repair in bad.sentences[1].repairs)
    quirks = reading.read(str(DATA / "quirks.umr"), "S", careful=True)
    assert (":quant", "0") in quirks.sentences[1].nodes["s2p"].relations
    assert "author :full-affirmative s1s" in quirks.sentences[0].docrels


# ---------------------------------------------------------------- exact

def _exact(gold: str, system: str, careful: bool = True) -> Tuple[compare.Comparison, ExactMapper]:
    files = [reading.read(gold, "GOLD", careful=careful), reading.read(system, "SYSTEM", careful=careful)]
    mapper = ExactMapper()
    return compare.run(files, compare.Settings(), mapper), mapper


def _umatch(result: compare.Comparison) -> Dict[str, float]:
    return [f for f in figures.figures(result) if f.name == "juːmæʧ"][0].values


@pytest.mark.parametrize("name", ["dtest", "pcedt"])
def test_exact_is_proved_symmetric_and_never_below_compat(name: str) -> None:
    gold, system = _czech(f"{name}-gold.umr"), _czech(f"{name}-conv.umr")
    forward, mapper = _exact(gold, system)
    assert all(proof.exact for proof in mapper.proofs.values())
    backward, _ = _exact(system, gold)
    a, b = _umatch(forward), _umatch(backward)
    assert (a["correct"], a["total0"], a["total1"]) == (b["correct"], b["total1"], b["total0"])
    assert a["p"] == b["r"] and a["r"] == b["p"]
    greedy = compare.run([reading.read(gold, "GOLD", careful=True),
                          reading.read(system, "SYSTEM", careful=True)], compare.Settings())
    for mine, theirs in zip(forward.sentences[("GOLD", "SYSTEM")], greedy.sentences[("GOLD", "SYSTEM")]):
        assert mine.get("correct", 0) >= theirs.get("correct", 0)
    assert a["correct"] > _umatch(greedy)["correct"]


@pytest.mark.parametrize("path", ["data/umr/english/english_umr-0001.umr",
                                  "data/umr/english/english_umr-0003.umr",
                                  "data/umr/english/english_umr-0004.umr", f"{CZECH}/dtest-gold.umr",
                                  f"{CZECH}/dtest-conv.umr"])
def test_exact_file_against_itself_is_one(path: str) -> None:
    full = str(shared_file(path))
    result, mapper = _exact(full, full)
    values = _umatch(result)
    assert values["correct"] == values["total0"] == values["total1"] and values["f"] == 1
    assert all(proof.exact for proof in mapper.proofs.values())


# ---------------------------------------------------------------- exact against brute force

def _random_sentence(rng: random.Random, prefix: str, width: int) -> Sentence:
    sentence = Sentence(1, 1, 1, tokens=[f"w{k}" for k in range(width)])
    n = rng.randint(1, 5)
    names = [f"{prefix}{k}" for k in range(n)]
    for name in names:
        node = Node(name, rng.choice(["a", "b", "name"]))
        if rng.random() < 0.7:
            start = rng.randrange(width)
            node.alignment = tuple(range(start, min(width, start + rng.randint(1, 2))))
        for _ in range(rng.randint(0, 3)):
            role = rng.choice([":ARG0", ":ARG1", ":mod"])
            node.relations.append((role, rng.choice(names) if rng.random() < 0.6 else rng.choice(["x", "y"])))
        node.econcept = node.concept
        sentence.nodes[name] = node
    for _ in range(rng.randint(0, 2)):
        a, b = rng.choice(names + ["author"]), rng.choice(names)
        sentence.docrels[f"{a} :{rng.choice(['before', 'after'])} {b}"] = 1
    sentence.scope = dict(sentence.nodes)
    return sentence


def _count_under(mapping: Dict[str, Optional[str]], gold: Sentence, system: Sentence) -> int:
    for node in gold.nodes.values():
        node.cross = {"S": {mapping[node.variable]: 1} if mapping.get(node.variable) else {}}
    back = {v: k for k, v in mapping.items() if v}
    for node in system.nodes.values():
        node.cross = {"G": {back[node.variable]: 1} if node.variable in back else {}}
    counter: Counter = Counter()  # type: ignore[type-arg]
    compare.attributes(counter, gold, system, UmrFile("G", "g"), UmrFile("S", "s"), "G", "S",
                       compare.Settings(), document_level=False)
    correct, _, _ = compare.docrels(gold, system, gold.scope or {}, system.scope or {}, "G", "S",
                                    compare.Settings().selection)
    return int(counter["correct"]) + correct


@pytest.mark.parametrize("seed", range(60))
def test_exact_equals_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    width = rng.randint(1, 4)
    gold, system = _random_sentence(rng, "g", width), _random_sentence(rng, "s", width)
    gold_nodes = [gold.nodes[v] for v in sorted(gold.nodes)]
    system_nodes = [system.nodes[v] for v in sorted(system.nodes)]
    allowed = allowed_pairs(gold_nodes, system_nodes, width)
    best = 0
    choices = [[None] + [system_nodes[j].variable for j in range(len(system_nodes)) if allowed[i][j]]
               for i in range(len(gold_nodes))]
    for combination in itertools.product(*choices):
        used = [c for c in combination if c is not None]
        if len(used) != len(set(used)):
            continue
        mapping = {node.variable: choice for node, choice in zip(gold_nodes, combination)}
        best = max(best, _count_under(mapping, gold, system))
    files = [UmrFile("G", "g", [gold]), UmrFile("S", "s", [system])]
    mapper = ExactMapper()
    result = compare.run(files, compare.Settings(), mapper)
    assert result.tally("G", "S")["correct"] == best
    assert all(proof.exact for proof in mapper.proofs.values())


# ---------------------------------------------------------------- mrp-score and the drop-in's command line

def _score(*argv: str) -> Dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "mrp.cli.score", *argv], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", ["dtest", "pcedt"])
def test_mrp_score_compat_equals_compare_umr(name: str) -> None:
    result = _score("--score", "umatch", "--umatch-compat", "--gold", _czech(f"{name}-gold.umr"),
                    _czech(f"{name}-conv.umr"))
    rows = {line.split("\t")[0]: line.split("\t")[3:6] for line in _reference(f"{name}.tsv").splitlines()}
    umatch = result["umatch"]
    assert [str(umatch[k]) for k in "csg"] == [rows["juːmæʧ"][0], rows["juːmæʧ"][2], rows["juːmæʧ"][1]]
    tokens = result["aligned_tokens"]
    assert [str(tokens[k]) for k in "cgs"] == rows["aligned token sets"]
    mapped = result["mapped_triples"]
    assert [str(mapped[k]) for k in "cgs"] == rows["triples in mapped nodes"]


def test_mrp_score_exact_default_signature_and_alias() -> None:
    result = _score("--score", "jumatch", "--gold", _czech("pcedt-gold.umr"), _czech("pcedt-conv.umr"))
    assert "align:exact" in str(result["signature"]) and result["exact"] == result["n"]
    compat = _score("--score", "umatch", "--umatch-compat", "--gold", _czech("pcedt-gold.umr"),
                    _czech("pcedt-conv.umr"))
    assert result["umatch"]["c"] >= compat["umatch"]["c"]  # type: ignore[index]


def test_drop_in_refuses_bad_arguments() -> None:
    for argv in (["GOLD", "a.umr"], ["A", str(DATA / "gold.umr"), "A", str(DATA / "gold.umr")]):
        done = subprocess.run([sys.executable, "-m", "mrp.cli.umr_compare", *argv], capture_output=True,
                              text=True, check=False)
        assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr


def test_drop_in_words_that_differ_is_an_error(tmp_path: Path) -> None:
    other = tmp_path / "other.umr"
    other.write_text((DATA / "gold.umr").read_text(encoding="utf-8").replace("Words: She", "Words: He"),
                     encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mrp.cli.umr_compare", "--tsv", "GOLD",
                           str(DATA / "gold.umr"), "SYSTEM", str(other)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert "tokens of sentence 2 differ" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_arguments_parse_like_compare_umr() -> None:
    args = parser().parse_args(["GOLD", "a", "--tsv", "SYSTEM", "b", "--only", "ARG0"])
    assert isinstance(args, argparse.Namespace) and args.items == ["GOLD", "a", "SYSTEM", "b"]
    assert args.tsv and args.only == "ARG0"


def test_verbose_equals_compare_umr() -> None:
    out = _run("--verbose", "GOLD", _czech("pcedt-gold.umr"), "SYSTEM", _czech("pcedt-conv.umr"))
    assert out == _reference("pcedt.verbose.txt")


@pytest.mark.skipif(not os.environ.get("MRP_UMRTOOLS"),
                    reason="set MRP_UMRTOOLS to a folder with ufal/umrtools' compare_umr.pl (and have perl)")
@pytest.mark.parametrize("seed", range(20))
def test_perturbed_files_equal_compare_umr(seed: int, tmp_path: Path) -> None:
    """Against the comparator itself, on shared files with random damage (a development check)."""
    script = Path(os.environ["MRP_UMRTOOLS"]) / "compare_umr.pl"
    rng = random.Random(seed)
    lines = Path(_czech(rng.choice(["pdt-gold.umr", "pcedt-conv.umr", "pdtsc-gold.umr"]))).read_text(
        encoding="utf-8").split("\n")
    damaged = list(lines)
    for _ in range(rng.randint(1, 6)):
        k = rng.randrange(len(damaged))
        damaged[k] = rng.choice([damaged[k].replace("/ ", "/ #", 1), damaged[k] + " # note",
                                 damaged[k].replace(")", "", 1), damaged[k] + ")", damaged[k] + " :mod 0", "",
                                 damaged[k].replace(":ARG1", ":ARG0", 1)])
    a, b = tmp_path / "a.umr", tmp_path / "b.umr"
    a.write_text("\n".join(lines), encoding="utf-8")
    b.write_text("\n".join(damaged), encoding="utf-8")
    for mode in (["--tsv"], ["--verbose"]):
        reference = subprocess.run(["perl", str(script), *mode, "A", str(a), "B", str(b)],
                                   capture_output=True, text=True, check=False)
        if reference.returncode == 0:
            assert _run(*mode, "A", str(a), "B", str(b)) == reference.stdout


def test_mrp_score_directories_micro_average_documents(tmp_path: Path) -> None:
    for side, kind in (("gold", "gold"), ("system", "conv")):
        (tmp_path / side).mkdir()
        for name in ("pdt", "pdtsc", "pcedt"):
            (tmp_path / side / f"{name}.umr").write_bytes(Path(_czech(f"{name}-{kind}.umr")).read_bytes())
    result = _score("--score", "umatch", "--umatch-compat", "--gold", str(tmp_path / "gold"),
                    str(tmp_path / "system"))
    rows = {line.split("\t")[0]: line.split("\t")[3:6]
            for line in _reference("micro-pdt-pdtsc-pcedt.tsv").splitlines()}
    umatch = result["umatch"]
    assert [str(umatch[k]) for k in "cgs"] == rows["juːmæʧ"]  # type: ignore[index]
    files = {name.split("/")[0] for name in result["documents"]}  # type: ignore[union-attr]
    assert files == {"pdt.umr", "pdtsc.umr", "pcedt.umr"}


def test_branch_and_bound_path_equals_the_plain_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain-Python search settles small pairs; the branch and bound (with its kernels) gives the same
    optimum where it takes over."""
    from mrp.metrics.umatch import exact
    from mrp.solver import solve as mrp_pair

    gold, system = _czech("pcedt-gold.umr"), _czech("pcedt-conv.umr")
    plain, _ = _exact(gold, system)
    calls = []
    solve = mrp_pair.solve_problem

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return solve(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(exact, "SMALL_NODES", -1)
    monkeypatch.setattr(exact, "sparse_upper_bound", lambda problem: 1 << 60)
    monkeypatch.setattr(exact, "forced", lambda partners, mapping: False)  # every pair searched
    monkeypatch.setattr(mrp_pair, "solve_problem", counted)
    searched, mapper = _exact(gold, system)
    assert all(proof.exact for proof in mapper.proofs.values())
    assert len(calls) == len(mapper.proofs)
    for mine, theirs in zip(plain.sentences[("GOLD", "SYSTEM")], searched.sentences[("GOLD", "SYSTEM")]):
        assert mine.get("correct", 0) == theirs.get("correct", 0)
        assert mine["mapped0"] == theirs["mapped0"]
