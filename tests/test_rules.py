"""The rule table (mrp.rules): each rule, each variant with its source, and each place that asks it,
on one hand-made graph per row."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

from mrp import rules
from mrp.codecs.penman import read_string
from mrp.graph import Edge, Graph, Node
from mrp.metrics.aspects import role
from mrp.metrics.smatch.metric import penman_triples
from mrp.normalize import normalize
from mrp.standardize.graph import Standardization, standardize

#: label -> expected normal role under (mtool, mrp, smatch, ancast); None: not inverted.
INVERSIONS: Dict[str, Tuple[Optional[str], ...]] = {
    "ARG0-of": ("ARG0", "ARG0", "ARG0", "ARG0"),
    "ARG1-of-of": ("ARG1-of", "ARG1-of", "ARG1-of", "ARG1-of"),
    "mod": ("domain", "domain", "domain", "domain"),
    "domain": (None, None, None, None),
    "MOD": (None, None, None, None),
    "consist-of": ("consist", None, None, "consist"),
    "subset-of": ("subset", None, "subset", "subset"),
    "prep-on-behalf-of": (None, None, None, "prep-on-behalf"),
    "prep-out-of": (None, None, None, "prep-out"),
    "prep-in-of": (None, None, "prep-in", "prep-in"),
    "prep-out-of-of": ("prep-out-of", "prep-out-of", "prep-out-of", "prep-out-of"),
    "ARG0": (None, None, None, None),
    "-of": (None, None, None, None),
}
VARIANTS = (rules.MTOOL, rules.MRP, rules.SMATCH, rules.ANCAST)


@pytest.mark.parametrize("label", list(INVERSIONS))
def test_inverted_roles_by_variant(label: str) -> None:
    assert tuple(rules.normal_role(label, rule) for rule in VARIANTS) == INVERSIONS[label]


def test_every_variant_is_named_with_its_source() -> None:
    assert set(rules.ROLE_RULES) == {"mtool", "mrp", "smatch", "ancast"}
    assert all(rule.source for rule in rules.ROLE_RULES.values())
    assert rules.inverse_role("ARG0") == "ARG0-of" and rules.inverse_role("ARG0-of") == "ARG0"


def two(label: str, **edge: Any) -> Graph:
    """Nodes a (0) and b (1) and one edge a -label-> b."""
    return Graph("g", "amr", tops=[0], nodes=[Node(0, "A"), Node(1, "B")], edges=[Edge(0, 1, label, **edge)])


def mrp_edges(graph: Graph) -> List[Any]:
    return sorted(normalize(graph).edges.items(), key=repr)


def smatch_relations(graph: Graph) -> List[Any]:
    return sorted(penman_triples(graph, compat=False)[1])


def codec_normal(text: str) -> List[Optional[str]]:
    [graph] = read_string(text)
    assert isinstance(graph, Graph)
    return [edge.normal for edge in graph.edges]


def standardized_normal(graph: Graph) -> List[Optional[str]]:
    return [edge.normal for edge in standardize(graph, Standardization(roles=True)).edges]


#: (rule, variant, where it is asked, a hand-made input, what that place makes of it)
TABLE: List[Tuple[str, str, Callable[[Any], Any], Any, Any]] = [
    ("inverted role", "mtool", codec_normal, "(a / A :consist-of (b / B) :ARG0-of (c / C))",
     ["consist", "ARG0"]),
    ("inverted role", "mtool", standardized_normal, two("consist-of"), ["consist"]),
    ("inverted role", "mrp", mrp_edges, two("consist-of"), [((0, 1, "consist-of"), set())]),
    ("inverted role", "mrp", mrp_edges, two("ARG0-of"), [((1, 0, "arg0"), set())]),
    ("inverted role", "mrp", mrp_edges, two("consist-of", normal="consist"), [((1, 0, "consist"), set())]),
    ("inverted role", "mrp", role, "prep-on-behalf-of", ("prep-on-behalf-of", False)),
    ("inverted role", "smatch", smatch_relations, two("subset-of"), [(1, 0, "subset")]),
    ("inverted role", "smatch", smatch_relations, two("consist-of"), [(0, 1, "consist-of")]),
    ("mod/domain", "all", mrp_edges, two("mod"), [((1, 0, "domain"), set())]),
    ("mod/domain", "all", smatch_relations, two("mod"), [(1, 0, "domain")]),
    ("mod/domain", "aspects", role, "mod", ("mod", False)),
    ("default edge attributes", "mtool", mrp_edges,
     two("A", attributes=["remote", "effective", "member"], values=[False, "false", "TRUE"]),
     [((0, 1, "a"), {("member", "true")})]),
    ("case", "mtool", lambda g: (normalize(g).labels, normalize(g).properties),
     Graph("g", "eds", nodes=[Node(0, "Dog", ["NUM"], [True])]), (["dog"], [frozenset({("num", "true")})])),
    ("anchors", "mtool", lambda g: normalize(g).anchors,
     Graph("g", "eds", input="(Dogs!) bark", nodes=[Node(0, "x", anchors=[(0, 7)])]),
     [frozenset({1, 2, 3, 4})]),
]


@pytest.mark.parametrize("rule,variant,where,graph,expected", TABLE,
                         ids=[f"{row[0]}-{row[1]}-{getattr(row[2], '__name__', 'lambda')}" for row in TABLE])
def test_rule_table(rule: str, variant: str, where: Callable[[Any], Any], graph: Any, expected: Any) -> None:
    assert where(graph) == expected


def test_default_attributes_and_case_are_one_rule() -> None:
    assert rules.is_default_attribute("remote", "false") and not rules.is_default_attribute("remote", "true")
    assert rules.lower(True) == "true" and rules.lower(1.0) == "1.0" and rules.lower("AbC") == "abc"
    assert len(rules.PUNCTUATION) == 22
