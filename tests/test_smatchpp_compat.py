"""--smatchpp-compat: Smatch++ 1.8.0's triples, so its F, per pair (mrp.metrics.smatch.smatchpp)."""

from __future__ import annotations

import json
from typing import Any, List, Tuple

import pytest

import mrp
from mrp.engine.options import Options
from mrp.errors import MRPError
from mrp.metrics.smatch.smatchpp import check_compat

from conftest import run_cli, shared_file


def f_of(gold: str, system: str, **options: Any) -> float:
    return mrp.score(gold, system, "smatch", format="amr", gold_format="amr", **options).f


# ----------------------------------------------------------------------------- one hand-made case per rule

#: (gold, system, generic F, amr F, mrp's default F)
CASES: List[Tuple[str, str, float, float, float]] = [
    # every -of role inverted, consist-of too (SMATCH keeps consist-of); the roots differ
    ("(a / a :consist-of (b / b))", "(b / b :consist (a / a))", 0.75, 0.75, 0.5),
    # a constant equal to a variable's name once lowercased and unquoted is that variable
    ('(s / say-01 :ARG0 (i / i) :ARG1 "I")', "(s / say-01 :ARG0 (i / i) :ARG1 i)", 1.0, 1.0, 0.8),
    # the root: generic's (ROOT, :root, x) matches any two roots, amr's is valued with the concept
    ("(c / cat)", "(d / dog)", 0.5, 0.0, 0.5),
    # amr: :domain is :mod inverted (as in mrp, unlike generic)
    ("(b / big :domain (h / house))", "(h / house :mod (b / big))", 0.5, 0.75, 0.75),
    # amr: dereification of be-located-at-91 (no incoming triple, exactly :ARG1 and :ARG2)
    ("(g / go-02 :ARG0 (b / boy) :location (c / city))",
     "(g / go-02 :ARG0 (b / boy) :ARG1-of (l / be-located-at-91 :ARG2 (c / city)))", 10 / 14, 1.0, 10 / 14),
    # generic keeps a duplicate triple (matched as often as the fewer copies); amr removes it
    ("(a / a :mod (b / b) :mod b)", "(a / a :mod (b / b))", 8 / 9, 1.0, 1.0),
    # white space in a string: each run is one space
    ('(n / name :op1 "New  York")', '(n / name :op1 "New York")', 1.0, 1.0, 2 / 3),
    # every quote character removed
    ('(n / name :op1 "O\'Brien")', '(n / name :op1 "OBrien")', 1.0, 1.0, 2 / 3),
]


@pytest.mark.parametrize("gold, system, generic, amr, default", CASES)
def test_rule(gold: str, system: str, generic: float, amr: float, default: float) -> None:
    assert f_of(gold, system, smatchpp_compat="generic") == pytest.approx(generic, abs=1e-12)
    assert f_of(gold, system, smatchpp_compat="amr") == pytest.approx(amr, abs=1e-12)
    assert f_of(gold, system) == pytest.approx(default, abs=1e-12)


def test_no_graph_type_standardizes_nothing() -> None:
    """Smatch++'s default (no -graph_type): case, quotes and inverted roles as read."""
    assert f_of('(n / name :op1 "Obama")', '(n / name :op1 "obama")', smatchpp_compat="none") == \
        pytest.approx(2 / 3, abs=1e-12)
    assert f_of('(n / name :op1 "Obama")', '(n / name :op1 "obama")', smatchpp_compat="generic") == 1.0
    assert f_of(*CASES[0][:2], smatchpp_compat="none") == 0.5


def test_refused_combinations() -> None:
    with pytest.raises(ValueError, match="smatchpp_compat='AMR': must be one of"):
        f_of("(a / a)", "(a / a)", smatchpp_compat="AMR")
    with pytest.raises(MRPError, match="smatch_compat=True"):  # the library speaks in keywords
        f_of("(a / a)", "(a / a)", smatchpp_compat="amr", smatch_compat=True)
    with pytest.raises(MRPError, match="--doc-align"):
        check_compat(Options(smatchpp_compat="amr", doc_align="sentence"))
    with pytest.raises(MRPError, match="standardize="):
        f_of("(a / a)", "(a / a)", smatchpp_compat="amr", standardize="smatchpp")


def test_signature_and_status(tmp_path: Any) -> None:
    result = mrp.score("(a / a :ARG0 (b / b))", "(a / a :ARG1 (b / b))", "smatch", format="amr",
                       gold_format="amr", smatchpp_compat="amr")
    assert "triples:smatchpp-1.8.0-amr" in result.signature
    assert result.document["smatchpp"] == {"graph_type": "amr", "status": [3, 3], "not_optimal": 0}


def test_command_line(tmp_path: Any) -> None:
    gold, system = tmp_path / "g.amr", tmp_path / "s.amr"
    gold.write_text("(c / cat)\n")
    system.write_text("(d / dog)\n")
    done = run_cli("score", ["--score", "smatch", "--smatchpp-compat", "generic", "--gold", str(gold),
                             str(system)])
    assert done.code == 0, done.err
    assert json.loads(done.out)["f"] == 0.5


# ----------------------------------------------------------------------------- Smatch++'s own output

@pytest.mark.parametrize("graph_type", ["generic", "amr"])
def test_coli_every_pair(graph_type: str) -> None:
    """Smatch++ 1.8.0 (-solver ilp) on coli: every pair's F as it prints it (percent, two decimals), and
    the micro F."""
    reference = json.loads(shared_file("reference", "smatchpp", f"coli.{graph_type}.json").read_text())
    gold = shared_file("data", "pairs", "amr", "coli.gold.amr")
    system = shared_file("data", "pairs", "amr", "coli.system.amr")
    result = mrp.score(str(gold), str(system), "smatch", smatchpp_compat=graph_type, timeout=0)
    pairs = result.pairs
    assert len(pairs) == len(reference["pairs"]) == 1368
    assert all(pair.exact for pair in pairs)
    printed = [round(100 * pair.figures.f, 2) for pair in pairs]
    different = [(k, mine, theirs) for k, (mine, theirs) in enumerate(zip(printed, reference["pairs"]))
                 if abs(mine - theirs) > 1e-9]
    assert different == []
    assert round(100 * result.f, 2) == reference["f"]


# ----------------------------------------------------------------------------- Smatch++ itself (development)

def smatchpp_counts(system: List[str], gold: List[str], graph_type: str) -> List[Tuple[float, ...]]:
    """Smatch++'s own (matched, candidate triples, reference triples) per pair (-solver ilp)."""
    pytest.importorskip("smatchpp", reason="Smatch++ is not installed (pip install smatchpp==1.8.0)")
    from smatchpp import Smatchpp, solvers
    from smatchpp.formalism.amr import tools as amr_tools
    from smatchpp.formalism.generic import tools as generic_tools

    standardizer = {"generic": generic_tools.GenericStandardizer, "amr": amr_tools.AMRStandardizer,
                    "none": generic_tools.DoNothingStandardizer}[graph_type]()
    measure = Smatchpp(alignmentsolver=solvers.get_solver("ilp"), graph_standardizer=standardizer)
    out = []
    for a, b in zip(system, gold):
        match = measure.process_pair(a, b)[0]["main"]
        out.append((float(match[0]), float(match[2]), float(match[3])))
    return out


@pytest.mark.parametrize("graph_type", ["generic", "amr", "none"])
def test_against_smatchpp_itself(graph_type: str) -> None:
    """Unrounded: the counts of Smatch++ 1.8.0 run here, on the hand-made cases and every 9th coli pair."""
    pytest.importorskip("smatchpp", reason="Smatch++ is not installed (pip install smatchpp==1.8.0)")
    from smatchpp import data_helpers

    gold = [case[0] for case in CASES]
    system = [case[1] for case in CASES]
    folder = shared_file("data", "pairs", "amr")
    gold += data_helpers.read_graphstrings_from_file(str(folder / "coli.gold.amr"))[::9]
    system += data_helpers.read_graphstrings_from_file(str(folder / "coli.system.amr"))[::9]
    theirs = smatchpp_counts(system, gold, graph_type)
    result = mrp.score("\n\n".join(gold), "\n\n".join(system), "smatch", format="amr", gold_format="amr",
                       smatchpp_compat=graph_type, timeout=0)
    mine = [(pair.figures.c, pair.figures.s, pair.figures.g) for pair in result.pairs]
    assert mine == theirs


def test_coli_without_graph_type() -> None:
    """Smatch++ 1.8.0 with no -graph_type prints micro F 73.88 on coli (../shared/README.md; its
    per-pair output is not kept, the development test above compares pairs where Smatch++ is installed)."""
    readme = shared_file("README.md").read_text(encoding="utf-8")
    assert "With no graph type it gives 73.88" in readme
    gold = shared_file("data", "pairs", "amr", "coli.gold.amr")
    system = shared_file("data", "pairs", "amr", "coli.system.amr")
    result = mrp.score(str(gold), str(system), "smatch", smatchpp_compat="none", timeout=0)
    assert round(100 * result.f, 2) == 73.88
