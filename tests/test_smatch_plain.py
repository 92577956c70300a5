"""SMATCH from Penman strings without building their graphs (issue 64): a one-line text's graph is a
LightGraph (mrp.codecs.penman.light) that holds the text's Plain form, and SMATCH codes its triples from that
form (Coder.coded_plain).  The codes are the ones of the graph built from the text, number for number, and
every figure is the one the same graphs give read already (mrp.read) or built at once, on every graph of the
shared AMR files put on one line and on hand-made texts, those the one-pass reader declines (comments,
metadata, quoted strings with parentheses, errors) included: they are read the full way, with its errors.
A light graph is the graph the full reader gives, field for field, however it is first touched."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import replace
from typing import Any, Callable, Dict, List

import numpy as np
import pytest
from test_penman_fast import _file_frames, _penman_files, _whole
from test_together import _amr

import mrp
from mrp.codecs.base import ReadOptions
from mrp.codecs.penman import LightGraph, fast_graph, plain_form, unbuilt
from mrp.codecs.penman import reading as penman_reading
from mrp.codecs.penman import scan as penman_scan
from mrp.codecs.penman.fast import built
from mrp.errors import MRPError
from mrp.io import limits
from mrp.metrics.smatch.coded import Coder
from mrp.solver.batch_rows import Interned

#: hand-made texts: inverse roles, reentrancies, a repeated triple, a root with constants, :wiki, a
#: concept-less node, alignments, quoted constants, a multi-sentence root, a TOP-like and an instance-like
#: constant; then texts the one-pass reader declines (a comment, metadata, a quoted string with parentheses
#: and a colon, a slash in a string, a line break, text after the graph, an unclosed graph)
HAND = [
    '(a / alpha :ARG0 (b / beta :ARG1-of a) :mod b :mod b :polarity - :polarity -)',
    '(a / alpha :TOP top :quant 2 :quant "2" :ARG0-of (b / beta :ARG1 a) :consist-of b)',
    '(a :ARG0 (b / Beta_ :name "X Y" :wiki "Q1") :wiki -)',
    '(a / alpha~e.1 :ARG0~e.2 (b / beta~e.3 :op1 "x"~e.4) :instance alpha :domain-of b)',
    '(m / multi-sentence :snt1 (a / alpha :ARG0 (b / beta)) :snt2 (c / gamma :ARG1 b))',
    '(m / MULTI-SENTENCE :snt1 (a / alpha) :snt2 (c / gamma :mod-of a))',
    '(a / "quoted concept" :ARG0 (b / beta))',
    '# ::id x ::snt a comment\n(a / alpha :ARG0 (b / beta))',
    '(a / alpha :name (n / name :op1 "x (y) :z"))',
    '(a / alpha :op1 "a/b" :ARG0 (b / beta))',
    '(a / alpha\n   :ARG0 (b / beta))',
]
#: texts that the reader refuses (each with its error) or repairs
BAD = [
    '(a / alpha :ARG0 (b / beta)',
    '(a / alpha :ARG0 (a / beta))',
    '(a / alpha) (b / beta)',
    '(a / alpha :ARG0 )',
    '(a / alpha :ARG0 (b / beta))) extra',
]


def _one_line(limit: int = 400) -> List[str]:
    """The graphs of every shared Penman file, each put on one line (at most ``limit`` a file)."""
    out = []
    for path in _penman_files():
        out += [" ".join(frame.chunk.text().split("\n")) for frame in list(_file_frames(path))[:limit]]
    return out


def _readable(text: str) -> bool:
    try:
        mrp.read(text)
    except MRPError:
        return False
    return True


def _eager(monkeypatch: pytest.MonkeyPatch) -> None:
    """One-line texts read into graphs built at once (as before light graphs and the compiled scan)."""
    monkeypatch.setattr(penman_reading, "light", built)
    monkeypatch.setattr(penman_scan, "_SCAN", [])


def _figures(rewards: Any) -> Any:
    return list(rewards), list(rewards.exact), list(rewards.bound)


def test_every_shared_graph_codes_from_its_text_as_from_its_graph() -> None:
    texts = _one_line(10_000)
    assert len(texts) > 3000, len(texts)
    interned = Interned()
    coder, again = Coder(interned), Coder(interned)
    answered = 0
    for text in texts:
        for no_wiki in (False, True):
            plain = plain_form(text, no_wiki)
            graph = fast_graph(text, "g", ReadOptions(no_wiki=no_wiki))
            assert (plain is None) == (graph is None), text
            if plain is None:
                continue
            answered += 1
            assert coder.coded_plain(plain) == again.coded(graph), text
    assert answered > 3000, answered


def test_random_graphs_code_from_their_texts_across_generations() -> None:
    rng = random.Random(11)
    interned = Interned()
    coder = Coder(interned)
    for _ in range(3):
        for _ in range(300):
            text = " ".join(_amr(rng, rng.randrange(1, 12)).split())
            plain = plain_form(text)
            if plain is not None:
                assert coder.coded_plain(plain) == coder.coded(built(plain, "g", ReadOptions())), text
        interned.clear()


def test_pairwise_from_strings_is_pairwise_from_graphs_on_the_shared_graphs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [text for text in _one_line() if _readable(text)]
    assert len(texts) > 1000, len(texts)
    gold, system = texts[0::2][:len(texts) // 2], texts[1::2][:len(texts) // 2]
    lightly = mrp.pairwise(gold, system)
    graphs = mrp.pairwise(mrp.read(gold), mrp.read(system))
    _eager(monkeypatch)
    eager = mrp.pairwise(gold, system)
    assert _figures(lightly) == _figures(graphs) == _figures(eager)
    assert lightly.exact.all()


def test_score_from_strings_is_score_from_graphs_pair_by_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = HAND[:7] + [text for text in _one_line(30) if _readable(text)]
    rng = random.Random(3)
    pairs = [(rng.choice(texts), rng.choice(texts)) for _ in range(60)] + [(text, text) for text in HAND]
    for compat in (False, True):
        found: List[Dict[str, Any]] = []
        for gold, system in pairs:
            found.append(mrp.score([gold], [system], "smatch", smatch_compat=compat).to_dict())
        for mode in ("graphs", "eager"):
            if mode == "eager":
                _eager(monkeypatch)
            for (gold, system), light_result in zip(pairs, found):
                given = (mrp.read(gold), mrp.read(system)) if mode == "graphs" else ([gold], [system])
                other = mrp.score(*given, "smatch", smatch_compat=compat).to_dict()
                assert _timeless(other) == _timeless(light_result), (gold, system, mode)


def _timeless(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k not in ("time", "cpu", "signature")}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


def _outcome(call: Callable[[], Any]) -> Any:
    """What a call gives: its figures (a result's without clock readings), or its error."""
    try:
        found = call()
    except MRPError as refused:
        return f"{type(refused).__name__}: {refused}"
    return _figures(found) if isinstance(found, np.ndarray) else _timeless(found.to_dict())


def _outcomes(text: str, other: str) -> List[Any]:
    return [_outcome(call) for call in (
        lambda: mrp.pairwise([text, other], [other, text]), lambda: mrp.pairwise([other], [text]),
        lambda: mrp.score([text], [other], "smatch"), lambda: mrp.score([other], [text], "smatch"),
        lambda: mrp.score([other, text], [other, other], "smatch"),
        lambda: mrp.score([text], [other], "smatch", smatch_compat=True))]


@pytest.mark.parametrize("text", HAND + BAD)
def test_hand_made_texts_score_or_are_refused_the_same_lightly_and_built(
        text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    other = "(a / alpha :ARG0 (b / beta) :polarity -)"
    lightly = _outcomes(text, other)
    _eager(monkeypatch)
    assert _outcomes(text, other) == lightly
    if text in BAD:  # the texts the one-pass reader declines: an error, or a repair
        assert any(isinstance(found, str) for found in lightly) or "repaired" in str(lightly), lightly


def test_the_coli_strings_are_read_lightly() -> None:
    texts = _one_line()[:50]
    graphs = mrp.codecs.read_one_line_penman(texts, "x", ReadOptions())
    assert graphs is not None and all(type(graph) is LightGraph and unbuilt(graph) is not None
                                      for graph in graphs)
    kept = mrp.codecs.read_one_line_penman(texts, "x", ReadOptions(keep=True))  # mrp.read's: built
    assert kept is not None and all(unbuilt(graph) is None for graph in kept)


def _light(text: str) -> LightGraph:
    graphs = mrp.codecs.read_one_line_penman([text], "x", ReadOptions())
    assert graphs is not None and isinstance(graphs[0], LightGraph)
    return graphs[0]


@pytest.mark.parametrize("touch", ["nodes", "edges", "layout", "variables", "eq", "repr", "pickle", "copy",
                                   "replace", "tops", "set nodes", "len"])
def test_a_light_graph_is_the_graph_however_it_is_first_touched(touch: str) -> None:
    text = HAND[0]
    graph = _light(text)
    full = fast_graph(text, "0", ReadOptions())
    assert full is not None
    full.line, full.breaks = graph.line, graph.breaks
    if touch in ("nodes", "edges", "layout", "variables"):
        assert getattr(graph, touch) == getattr(full, touch)
    elif touch == "eq":
        assert graph == full and full == graph and not graph != full
    elif touch == "repr":
        assert repr(graph).split("(", 1)[1] == repr(full).split("(", 1)[1]
    elif touch == "pickle":
        graph = pickle.loads(pickle.dumps(graph))
    elif touch == "copy":
        graph = copy.deepcopy(graph)
    elif touch == "replace":
        graph = replace(graph, input="x")
        full.input = "x"
    elif touch == "tops":  # a change before the content is read: the form is no longer the graph
        graph.tops = [1]
        full.tops = [1]
        assert unbuilt(graph) is None
    elif touch == "set nodes":
        graph.nodes = full.nodes[:1]
        full.nodes = full.nodes[:1]
        assert unbuilt(graph) is None
    elif touch == "len":
        assert len(graph) == len(full) and unbuilt(graph) is not None
        return
    assert _whole(graph) == _whole(full) and graph == full
    assert graph.input == full.input and graph.line == full.line and graph.repairs is None
    assert unbuilt(graph) is None  # read: from now on the graph is scored as any graph


def test_a_changed_light_graph_is_scored_as_changed() -> None:
    text, other = HAND[0], "(a / alpha :ARG0 (b / beta))"
    graph = _light(text)
    graph.nodes[1].label = "gamma"  # built on reading, then changed: scored from the graph
    changed = fast_graph(text, "0", ReadOptions())
    assert changed is not None
    changed.nodes[1].label = "gamma"
    assert _figures(mrp.pairwise([graph], [other])) == _figures(mrp.pairwise([changed], [other]))
    assert not np.isnan(mrp.pairwise([graph], [other])[0])


@pytest.mark.parametrize("limit", ["MAX_NODES", "MAX_EDGES"])
def test_a_text_beyond_a_count_limit_is_refused_as_before(limit: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, limit, 1)
    big, small = HAND[0], "(a / alpha)"
    assert mrp.codecs.read_one_line_penman([small], "x", ReadOptions())[0].__class__ is LightGraph
    lightly = _outcomes(big, small)
    assert "FormatError" in str(lightly) or "ScoreError" in str(lightly), lightly
    _eager(monkeypatch)
    assert _outcomes(big, small) == lightly
