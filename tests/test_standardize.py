"""AMR standardization: each option on hand-made graphs, when dereification is possible,
the presets on the shared WSJ AMR corpus, determinism and non-mutation of the input."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

import penman
import pytest
from penman import transform
from penman.models.amr import model as amr_model

from mrp.codecs.mrp import encode
from mrp.codecs.penman import Quoted, Symbol, read_string
from mrp.corpora.load import Corpus, read_corpus
from mrp.engine.options import Options
from mrp.engine.pairing import pair
from mrp.errors import MRPError
from mrp.graph import Edge, Graph, Node
from mrp.metrics.registry import evaluate
from mrp.normalize import normal_edge
from mrp.standardize.graph import PRESETS, Standardization, parse, standardize

from conftest import shared_file

Triple = Tuple[str, str, str]

REIFY_ALL = Standardization(roles=True, reify=True)
DEREIFY_ALL = Standardization(roles=True, dereify=True)


def amr(text: str) -> Graph:
    """The one graph of a Penman string."""
    (graph,) = read_string(text)
    assert isinstance(graph, Graph)
    return graph


def triples(graph: Graph) -> List[Triple]:
    """(source label, role, target label or value) per property and edge, sorted (duplicates kept)."""
    labels = {node.id: str(node.label) for node in graph.nodes}
    result = [(labels[node.id], str(name), str(value))
              for node in graph.nodes for name, value in zip(node.properties, node.values)]
    result += [(labels[edge.source], str(edge.label), labels[edge.target]) for edge in graph.edges]
    return sorted(result)


def std(text: str, spec: str) -> List[Triple]:
    """The triples of a Penman string standardized as ``spec``."""
    return triples(standardize(amr(text), parse(spec)))


def concepts(graph: Graph) -> List[str]:
    return sorted(str(node.label) for node in graph.nodes)


# --------------------------------------------------------------------------- roles


def test_roles_canonical_direction_and_names() -> None:
    text = """(a / alpha :ARG0-of (b / beta) :domain-of (c / gamma) :mod-of (d / delta)
                :ARG1-of-of (e / eps) :consist-of (f / phi) :prep-on-behalf-of (g / g2)
                :prep-out-of-of (i / iota) :domain (h / eta))"""
    assert std(text, "roles") == sorted([
        ("beta", "ARG0", "alpha"),
        ("alpha", "mod", "gamma"),  # :domain-of is :mod
        ("delta", "mod", "alpha"),  # :mod-of is :domain, i.e. an inverted :mod
        ("alpha", "ARG1", "eps"),  # multiple inversions collapse
        ("alpha", "consist-of", "phi"),  # canonical roles ending in -of stay as they are
        ("alpha", "prep-on-behalf-of", "g2"),
        ("iota", "prep-out-of", "alpha"),
        ("eta", "mod", "alpha"),  # :domain is written as the inverted :mod
    ])


@pytest.mark.parametrize("forms", [
    ["(a / alpha :ARG0-of (b / beta))", "(b / beta :ARG0 (a / alpha))",
     "(a / alpha :ARG0-of-of-of (b / beta))"],
    ["(x / xx :domain-of (y / yy))", "(x / xx :mod (y / yy))", "(y / yy :domain (x / xx))",
     "(y / yy :mod-of (x / xx))"],
    ["(x / xx :consist-of-of (y / yy))", "(y / yy :consist-of (x / xx))"],
])
def test_roles_make_inverse_forms_identical(forms: List[str]) -> None:
    results = [std(form, "roles") for form in forms]
    assert all(result == results[0] for result in results)
    assert std(forms[0], "none") != std(forms[1], "none")


def test_roles_on_constants_keep_their_direction() -> None:
    text = '(a / alpha :domain-of "c" :mod-of "d" :ARG0-of-of 5 :polarity-of -)'
    assert std(text, "roles") == sorted([
        ("alpha", "mod", "c"), ("alpha", "domain", "d"), ("alpha", "ARG0", "5"),
        ("alpha", "polarity-of", "-"),
    ])


def test_edges_keep_their_meaning_for_the_scorers() -> None:
    # normal marks an inverted edge (the scorers swap it back): after roles every
    # edge is in normal direction, and only mod keeps normal "domain" (as read from Penman)
    graph = amr("(a / alpha :ARG0-of (b / beta) :domain-of (c / gamma) :consist-of (d / delta) :ARG1 b)")
    result = standardize(graph, parse("roles"))
    assert [(edge.label, edge.normal) for edge in result.edges] == [
        ("ARG0", None), ("mod", "domain"), ("consist-of", "consist"), ("ARG1", None)]

    def scorer_view(g: Graph) -> List[Tuple[Any, ...]]:
        labels = {node.id: node.label for node in g.nodes}
        return sorted((labels[s], label, labels[t]) for s, t, label, _ in map(normal_edge, g.edges))

    assert scorer_view(result) == scorer_view(graph)


# --------------------------------------------------------------------------- reify, dereify


def test_reify_every_relation_of_the_table() -> None:
    text = "(c / chapter :mod 7 :location (p / place) :polarity - :ARG0 (x / xx))"
    assert std(text, "reify") == sorted([
        ("have-mod-91", "ARG1", "chapter"), ("have-mod-91", "ARG2", "7"),
        ("be-located-at-91", "ARG1", "chapter"), ("be-located-at-91", "ARG2", "place"),
        ("have-polarity-91", "ARG1", "chapter"), ("have-polarity-91", "ARG2", "-"),
        ("chapter", "ARG0", "xx"),
    ])


def test_reify_inverted_relations_after_roles() -> None:
    assert std("(p / place :location-of (c / chapter))", "roles+reify") == sorted([
        ("be-located-at-91", "ARG1", "chapter"), ("be-located-at-91", "ARG2", "place")])


def test_dereify_nodes_of_the_table() -> None:
    text = """(t / thing :ARG1-of (b / be-located-at-91 :ARG2 (c / city))
                :ARG1-of (h / have-polarity-91 :ARG2 -))"""
    assert std(text, "dereify") == sorted([("thing", "location", "city"), ("thing", "polarity", "-")])


def test_reify_then_dereify_gives_the_graph_back() -> None:
    text = "(c / chapter :mod 7 :location (p / place) :polarity - :time (d / date-entity :year 2000))"
    reified = standardize(amr(text), parse("reify"))
    assert sum(label.endswith("-91") for label in concepts(reified)) == 4
    assert triples(standardize(reified, parse("dereify"))) == std(text, "none")


def test_each_relation_has_one_reified_and_one_dereified_form() -> None:
    # have-03 and own-01 both dereify to :poss, which reifies to own-01
    have = "(b / boy :ARG0-of (h / have-03 :ARG1 (d / dog)))"
    poss = "(b / boy :ARG0-of (o / own-01 :ARG1 (d / dog)))"
    assert std(have, "reify") == std(poss, "reify")
    assert std(have, "reify") == sorted([("own-01", "ARG0", "boy"), ("own-01", "ARG1", "dog")])
    # :superset y is include-91, which dereifies to :subset the other way round
    superset = "(x / xx :superset (y / yy))"
    subset = "(y / yy :subset (x / xx))"
    assert std(superset, "dereify") == std(subset, "dereify") == [("yy", "subset", "xx")]


@pytest.mark.parametrize("text", [
    # a further relation of the reified node
    "(t / thing :ARG1-of (b / be-located-at-91 :ARG2 (c / city) :time (n / now)))",
    # a constant on it
    "(t / thing :ARG1-of (b / be-located-at-91 :ARG2 (c / city) :polarity -))",
    # a second incoming relation
    "(t / thing :ARG1-of (b / be-located-at-91 :ARG2 (c / city)) :ARG0-of (s / say-01 :ARG1 b))",
    # the top
    "(b / be-located-at-91 :ARG1 (t / thing) :ARG2 (c / city))",
    # roles that are not the table's
    "(t / thing :ARG1-of (b / be-located-at-91 :ARG3 (c / city)))",
    # a relation that would start at a constant (penman misses this one)
    '(t / thing :ARG2-of (b / be-located-at-91 :ARG1 "Paris"))',
])
def test_dereify_only_where_possible(text: str) -> None:
    for spec in ("dereify", "roles+dereify", "roles+reify"):
        assert "be-located-at-91" in concepts(standardize(amr(text), parse(spec)))


def test_penman_alone_dereifies_into_a_constant_source() -> None:
    # the condition added in mrp.standardize.graph: penman's dereify_edges makes the constant a source
    graph = penman.decode('(t / thing :ARG2-of (b / be-located-at-91 :ARG1 "Paris"))', model=amr_model)
    assert ('"Paris"', ":location", "t") in transform.dereify_edges(graph, amr_model).triples


def test_dereify_keeps_every_top() -> None:
    nodes = [Node(0, "thing"), Node(1, "be-located-at-91"), Node(2, "city")]
    graph = Graph("g", "amr", tops=[0, 1], nodes=nodes, edges=[Edge(1, 0, "ARG1"), Edge(1, 2, "ARG2")])
    result = standardize(graph, parse("dereify"))
    assert concepts(result) == ["be-located-at-91", "city", "thing"]
    assert [result.nodes[top].label for top in result.tops] == ["thing", "be-located-at-91"]
    graph.tops = [0]
    assert triples(standardize(graph, parse("dereify"))) == [("thing", "location", "city")]


# --------------------------------------------------------------------------- attributes, dedupe, wiki


def test_attributes_become_nodes() -> None:
    result = standardize(amr('(c / chapter :mod 7 :polarity-of - :op1 "Seven")'), parse("attributes+roles"))
    assert triples(result) == sorted([("chapter", "mod", "7"), ("-", "polarity", "chapter"),
                                      ("chapter", "op1", "Seven")])
    assert all(not node.properties for node in result.nodes)
    labels = {str(node.label): node.label for node in result.nodes}
    assert isinstance(labels["7"], Symbol) and isinstance(labels["Seven"], Quoted)


def test_dedupe_keeps_each_triple_once() -> None:
    text = "(a / a1 :ARG0 (b / b1) :ARG0 b :ARG1-of (c / c1 :ARG1 a) :polarity - :polarity - :mod a :mod a)"
    assert std(text, "none").count(("a1", "ARG0", "b1")) == 2
    assert std(text, "dedupe") == sorted([
        ("a1", "ARG0", "b1"), ("c1", "ARG1", "a1"), ("a1", "polarity", "-"), ("a1", "mod", "a1")])


def test_dedupe_before_reification() -> None:
    # a duplicate relation gives one reified node, not two
    result = standardize(amr("(c / chapter :location (p / place) :location p)"), parse("reify+dedupe"))
    assert concepts(result) == ["be-located-at-91", "chapter", "place"]


def test_no_wiki() -> None:
    text = '(p / person :wiki "Pierre_Vinken" :name (n / name :op1 "Pierre") :wiki -)'
    assert std(text, "no-wiki") == sorted([("person", "name", "name"), ("name", "op1", "Pierre")])


def test_values_keep_their_quoting() -> None:
    graph = amr('(d / date-entity :year 2000 :era "AD" :mod (n / name :op1 "61"))')
    for preset in PRESETS.values():
        values = {str(v): v for node in standardize(graph, preset).nodes for v in node.values}
        assert isinstance(values["2000"], Symbol) and isinstance(values["AD"], Quoted)
        assert isinstance(values["61"], Quoted)


# --------------------------------------------------------------------------- the graph around


def test_new_ids_with_the_tops_first() -> None:
    graph = Graph("g7", "amr", input="x", tops=[7],
                  nodes=[Node(3, "beta"), Node(7, "alpha", anchors=[(0, 1)])], edges=[Edge(7, 3, "ARG0")])
    result = standardize(graph, parse("roles"))
    assert [node.id for node in result.nodes] == [0, 1] and result.tops == [0]
    assert result.nodes[0].label == "alpha" and result.nodes[0].anchors == [(0, 1)]
    assert (result.id, result.input, result.framework, result.flavor) == ("g7", "x", "amr", 2)
    assert [(edge.source, edge.target, edge.label) for edge in result.edges] == [(0, 1, "ARG0")]


@pytest.mark.parametrize("graph", [
    Graph("empty", "amr"),
    Graph("loop", "amr", tops=[0], nodes=[Node(0, "a")], edges=[Edge(0, 0, "ARG0-of"), Edge(0, 0, "mod")]),
    Graph("cycle", "amr", tops=[0], nodes=[Node(0, "a"), Node(1, "b")],
          edges=[Edge(0, 1, "ARG0"), Edge(1, 0, "ARG1"), Edge(0, 1, "location"), Edge(0, 1, "location")]),
    Graph("odd", None, tops=[], nodes=[Node(0), Node(1, "b", ["polarity-of", "wiki"], ["-", "x"])],
          edges=[Edge(0, 1, None), Edge(0, 1, "instance"), Edge(1, 0, "instance-of"), Edge(0, 1, "")]),
    Graph("reified-loop", "amr", tops=[0], nodes=[Node(0, "t"), Node(1, "be-located-at-91")],
          edges=[Edge(1, 0, "ARG1"), Edge(1, 0, "ARG2")]),
])
def test_awkward_graphs(graph: Graph) -> None:
    before = encode(graph)
    for spec in ["roles+dereify+attributes+dedupe+no-wiki", "roles+reify+attributes+dedupe", "dedupe",
                 "dereify"]:
        result = standardize(graph, parse(spec))
        ids = list(range(len(result.nodes)))
        assert [node.id for node in result.nodes] == ids
        assert all(edge.source in ids and edge.target in ids for edge in result.edges)
        assert standardize(graph, parse(spec)) == result
    assert encode(graph) == before


def test_odd_labels_survive() -> None:
    graph = Graph("odd", "amr", tops=[0], nodes=[Node(0, "a"), Node(1, "b")],
                  edges=[Edge(0, 1, None), Edge(0, 1, "instance"), Edge(1, 0, "instance-of")])
    result = standardize(graph, parse("roles"))
    assert triples(result) == sorted([("a", "None", "b"), ("a", "instance", "b"), ("a", "instance", "b")])
    assert concepts(result) == ["a", "b"]


def test_self_loop_dereifies() -> None:
    graph = amr("(t / thing :ARG1-of (b / be-located-at-91 :ARG2 t))")
    assert triples(standardize(graph, parse("dereify"))) == [("thing", "location", "thing")]


def test_broken_references_raise() -> None:
    graph = Graph("bad", "amr", tops=[0], nodes=[Node(0, "a")], edges=[Edge(0, 5, "ARG0")])
    with pytest.raises(MRPError, match="names no node"):
        standardize(graph, parse("roles"))


def test_other_frameworks_and_none_are_unchanged_copies() -> None:
    dm = Graph("d", "dm", tops=[1], nodes=[Node(1, "x", anchors=[(0, 1)]), Node(2, "y")],
               edges=[Edge(1, 2, "ARG1-of")])
    graph = amr("(a / alpha :ARG0-of (b / beta) :polarity -)")
    for original in (dm, graph):
        for preset in ("none", "reify"):
            result = standardize(original, PRESETS[preset])
            if original is graph and preset == "reify":
                continue
            assert result is not original and encode(result) == encode(original)


# --------------------------------------------------------------------------- parse and name


def test_parse_and_name() -> None:
    assert parse("none") == Standardization() and Standardization().name() == "none"
    assert parse(" SmatchPP ") is PRESETS["smatchpp"]
    assert parse("dedupe+roles").name() == "roles+dedupe"
    assert parse("no_wiki+roles") == parse("roles+no-wiki")
    everything = "roles+dereify+attributes+dedupe+no-wiki"
    assert parse("no-wiki+attributes+dereify+roles+dedupe").name() == everything
    assert PRESETS["reify"].name() == "roles+reify+dedupe"
    assert PRESETS["dereify"].name() == PRESETS["smatchpp"].name() == "roles+dereify+dedupe"
    for preset in PRESETS.values():
        assert parse(preset.name()) == preset
    assert parse("reify") == PRESETS["reify"] != Standardization(reify=True)


@pytest.mark.parametrize("spec, message", [
    ("frobnicate", "unknown standardization 'frobnicate'"),
    ("roles+frob", "unknown standardization 'frob'"),
    ("roles++dedupe", "empty standardization name in 'roles\\+\\+dedupe'"),
    ("", "empty standardization name"),
    ("reify+dereify", "cannot both reify and dereify"),
])
def test_parse_errors(spec: str, message: str) -> None:
    with pytest.raises(MRPError, match=message):
        parse(spec)


def test_reify_with_dereify_is_refused() -> None:
    with pytest.raises(MRPError):
        Standardization(reify=True, dereify=True)


# --------------------------------------------------------------------------- the WSJ corpus

#: where each metric keeps the counts that its F is computed from
LAYOUT = {
    "mrp": ("all",),
    "smatch": (),
    "edm": ("all",),
    "sdp": ("labeled",),
    "ucca": ("labeled", "primary"),
}


@pytest.fixture(scope="module")
def wsj() -> Corpus:
    return read_corpus(str(shared_file("data", "wsj", "amr", "wsj.mrp")), "mrp")


def apply(corpus: Corpus, standardization: Standardization) -> Corpus:
    graphs = [standardize(graph, standardization) for graph in corpus.graphs]
    return Corpus(corpus.name, corpus.format, graphs)


def counts(gold: Corpus, system: Corpus, metric: str) -> Dict[str, Any]:
    result, _ = evaluate(metric, pair(gold, system), Options())
    for key in LAYOUT[metric]:
        result = result[key]
    return result


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_scores_one_against_itself(wsj: Corpus, preset: str) -> None:
    gold, system = apply(wsj, PRESETS[preset]), apply(wsj, PRESETS[preset])
    for metric in LAYOUT:
        result = counts(gold, system, metric)
        if result["g"] > 0:
            assert result["f"] == 1.0, (preset, metric, result)
        else:
            assert result["g"] == result["s"] == result["c"], (preset, metric, result)


def test_reified_and_dereified_corpora_agree_after_a_preset(wsj: Corpus) -> None:
    reified, dereified = apply(wsj, REIFY_ALL), apply(wsj, DEREIFY_ALL)

    def count_91(corpus: Corpus) -> int:
        return sum(str(node.label).endswith("-91") for graph in corpus.graphs for node in graph.nodes)

    assert count_91(reified) > count_91(wsj) + 300 > count_91(dereified) + 300
    assert counts(reified, dereified, "mrp")["f"] < 0.8
    for preset in ("reify", "dereify", "smatchpp"):
        both = apply(reified, PRESETS[preset]), apply(dereified, PRESETS[preset])
        assert counts(*both, "mrp")["f"] == 1.0, preset


def test_roles_do_not_change_the_mrp_score(wsj: Corpus) -> None:
    # the scorers read inverted edges back anyway: canonical roles change nothing on these graphs
    result = counts(wsj, apply(wsj, parse("roles")), "mrp")
    assert result["f"] == 1.0 and result["g"] == result["s"]


def test_deterministic_and_input_untouched(wsj: Corpus) -> None:
    before = [encode(graph) for graph in wsj.graphs]
    for preset in [*PRESETS.values(), parse("roles+reify+attributes+dedupe+no-wiki")]:
        first = [encode(standardize(graph, preset)) for graph in wsj.graphs]
        assert first == [encode(standardize(graph, preset)) for graph in wsj.graphs]
    assert [encode(graph) for graph in wsj.graphs] == before
