"""Each normalization rule of the MRP metric, on hand-made graphs."""

from __future__ import annotations

from mrp.graph import Edge, Graph, Node
from mrp.metrics.mrp.pair import score_pair
from mrp.normalize import explode, normal_label, normalize, normalize_anchors, trim_span, union_anchors


def test_union_merges_touching_spans_only() -> None:
    text = "Hello world"
    assert union_anchors([(0, 5), (6, 11)], text) == [(0, 5), (6, 11)]
    assert union_anchors([(0, 3), (3, 5)], text) == [(0, 5)]
    assert union_anchors([(0, 4), (2, 5)], text) == [(0, 5)]
    # the reference's test looks at text[last:p], which starts at a covered position
    assert union_anchors([(0, 6), (7, 9)], "Hello  wo") == [(0, 9)]
    # no text: only adjacent positions merge (the reference crashes here)
    assert union_anchors([(0, 2), (5, 7)], None) == [(0, 2), (5, 7)]


def test_trim_removes_the_22_characters_and_keeps_empty_spans() -> None:
    text = '("Hello," -x- \u201cworld\u201d)'
    assert text[slice(*trim_span((0, 9), text))] == "Hello"
    assert text[slice(*trim_span((10, 13), text))] == "-x-"  # dashes are not trimmed
    assert text[slice(*trim_span((14, 21), text))] == "world"
    assert trim_span((0, 1), "(") == (1, 1)  # all punctuation: an empty span that stays
    assert normalize_anchors([(0, 1)], "(") == [(1, 1)]
    assert normalize_anchors([], "abc") is None
    assert normalize_anchors([(3, 3)], "abc") is None


def test_explode_ignores_whitespace_and_span_splits() -> None:
    text = "Hello world"
    assert explode([(0, 11)], text) == explode([(0, 5), (6, 11)], text) == frozenset(range(11)) - {5}
    assert explode([(0, 5)], None) == ((0, 5),)
    assert explode([(0, 5)], "") != explode([(0, 5)], "Hello")


def test_case_and_strings() -> None:
    graph = Graph("g", "eds", nodes=[Node(0, "X", ["Pers", "num", "flag"], ["3", 1.0, True])])
    normal = normalize(graph)
    assert normal.labels == ["x"]
    assert normal.properties[0] == frozenset({("pers", "3"), ("num", "1.0"), ("flag", "true")})


def test_number_equals_string_value() -> None:
    gold = Graph("g", "amr", nodes=[Node(0, "a", ["quant"], [42])])
    system = Graph("g", "amr", nodes=[Node(0, "A", ["QUANT"], ["42"])])
    assert score_pair(gold, system).counts["properties"] == (1, 1, 1)


def test_inverse_roles() -> None:
    assert normal_label("ARG0-of") == "ARG0"
    assert normal_label("mod") == "domain"
    assert normal_label("ARG1-of-of") == "ARG1-of"
    assert normal_label("prep-on-behalf-of") is None
    assert normal_label("consist-of") is None and normal_label("subset-of") is None
    assert normal_label("ARG0") is None and normal_label("MOD") is None


def test_edges_are_restored_and_deduplicated() -> None:
    graph = Graph("g", "amr", nodes=[Node(0, "a"), Node(1, "b")], edges=[
        Edge(0, 1, "ARG0"), Edge(1, 0, "ARG0-of"), Edge(1, 0, "X", normal="Y"), Edge(0, 1, "")])
    edges = normalize(graph).edges
    assert set(edges) == {(0, 1, "arg0"), (0, 1, "y"), (0, 1, None)}


def test_default_attributes_are_dropped() -> None:
    graph = Graph("g", "ucca", nodes=[Node(0), Node(1)], edges=[
        Edge(0, 1, "A", attributes=["remote"], values=[False]),
        Edge(1, 0, "B", attributes=["remote", "member"], values=["TRUE", "false"])])
    edges = normalize(graph).edges
    assert edges[(0, 1, "a")] == set()
    assert edges[(1, 0, "b")] == {("remote", "true")}


def test_empty_label_counts_but_missing_label_does_not() -> None:
    gold = Graph("g", "eds", nodes=[Node(0, ""), Node(1)])
    result = score_pair(gold, gold)
    assert result.counts["labels"] == (1, 1, 1)


def test_anchor_identity_across_graphs() -> None:
    gold = Graph("g", "eds", input="Hello, world", nodes=[Node(0, "a", anchors=[(0, 6)])])
    system = Graph("g", "eds", input="Hello, world", nodes=[Node(0, "a", anchors=[(0, 5)])])
    assert score_pair(gold, system).counts["anchors"] == (1, 1, 1)
    no_input = Graph("g", "eds", nodes=[Node(0, "a", anchors=[(0, 5)])])
    assert score_pair(gold, no_input).counts["anchors"] == (1, 1, 0)


def test_graph_without_input_and_split_anchors_scores() -> None:
    graph = Graph("g", "eds", nodes=[Node(0, "a", anchors=[(0, 3), (5, 7)])])
    assert score_pair(graph, graph).counts["anchors"] == (1, 1, 1)


def test_duplicate_edges_merge_their_attributes() -> None:
    graph = Graph("g", "ucca", nodes=[Node(0), Node(1)], edges=[
        Edge(0, 1, "A", attributes=["remote"], values=[True]), Edge(0, 1, "A")])
    assert normalize(graph).edges == {(0, 1, "a"): {("remote", "true")}}


def test_one_span_is_the_general_rule_for_one_span() -> None:
    """The fast path of a node with one span equals union, trim and explode (the general rule)."""
    import random

    from mrp.normalize import _one_span, explode, normalize_anchors

    rng = random.Random(7)
    alphabet = "ab .,\t\n\f\"()'x"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        start = rng.randint(-3, 14)
        span = (start, rng.randint(start + 1, 16))
        spans = normalize_anchors([span], text)
        general = explode(spans, text) if spans is not None else None
        assert _one_span(span, text) == (general if general is not None else frozenset()), (text, span)


def test_a_span_remembered_for_one_sentence_is_not_taken_for_another() -> None:
    """normalize remembers each (span, sentence)'s positions: the same span of another sentence, or of the
    same sentence again, gets its own sentence's positions."""
    def anchored(text: str) -> Graph:
        return Graph("g", "eds", flavor=1, input=text, nodes=[Node(0, "x", anchors=[(0, 5)])])

    assert normalize(anchored("ab cd ef")).anchors == [frozenset({0, 1, 3, 4})]
    assert normalize(anchored("abcdefgh")).anchors == [frozenset({0, 1, 2, 3, 4})]
    assert normalize(anchored("ab cd ef")).anchors == [frozenset({0, 1, 3, 4})]
    assert normalize(anchored(". b c d")).anchors == [frozenset({2, 4})]
