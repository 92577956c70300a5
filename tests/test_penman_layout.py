"""penman.Graph objects laid out by mrp itself (mrp.codecs.penman.direct; penman_two_pass, its oracle) give
exactly what penman's layout (``penman.configure``) and the AMR reader's conversion of its tree give:
graph by graph, every field, the lines of the text, the same graphs and errors for a list, and nothing
on stderr.  Checked on every AMR file of the shared data and on random graphs (reentrancies, inverted
roles, constants, strings, alignments, duplicate triples, missing concepts, odd epidata, metadata)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Iterator, List, Optional, Tuple

import penman
import pytest
from penman.layout import POP, Push
from penman.surface import Alignment, RoleAlignment
from test_penman_objects import _both, _same

import mrp
from mrp.codecs.penman.amr import Bad, _convert, penman_warnings
from mrp.codecs.penman.direct import fast_graph
from mrp.codecs.penman.framing import Frame
from mrp.codecs.penman.objects import _comments, _lines, _metadata, graphs_of
from mrp.pipeline.inputs import corpus_of, read_options

from conftest import shared_path, timeless
from penman_two_pass import direct_graph


def _decoded(text: str) -> Iterator[penman.Graph]:
    for block in text.split("\n\n"):
        if "(" not in block:
            continue
        with penman_warnings():
            try:
                yield penman.decode(block)
            except penman.DecodeError:
                continue


def _reference(graph: penman.Graph, options: Any) -> Any:
    """What penman's layout and the reader's conversion give: (graph, lines), None (read as text) or the
    conversion's error."""
    with penman_warnings():
        try:
            tree = penman.configure(graph)
        except penman.exceptions.LayoutError as error:
            return ("LayoutError", str(error))
    count = _lines(tree.node)
    if count is None:
        return None
    try:
        return _convert(tree, "", options), count
    except Bad as bad:
        return ("Bad", bad.message)


def _fields(found: Optional[Tuple[Any, int]]) -> Any:
    if found is None or isinstance(found[0], str):
        return found
    graph, count = found
    return (graph, graph.layout, graph.variables, graph.line, graph.input, graph.breaks, graph.repairs,
            [type(value) for node in graph.nodes for value in [node.label, *node.values]], count)


def _check(graph: penman.Graph, options: Any) -> Tuple[bool, bool]:
    """Both of mrp's layouts agree with penman's where they give a graph, and give none where penman's
    tree is refused or would be read as text; (whether each gave one)."""
    expected = _fields(_reference(graph, options))
    given = []
    for layout in (direct_graph, fast_graph):
        try:
            found = layout(graph, options)
        except TypeError:
            found = None
        if found is not None:
            assert _fields(found) == expected, (layout.__name__, graph)
        given.append(found is not None)
    return given[0], given[1]


OPTIONS = [read_options(framework="amr"), read_options(framework="amr", no_wiki=True)]


def _amr_files() -> List[Path]:
    shared = shared_path()
    files = sorted(shared.glob("data/**/*.amr")) + sorted(shared.glob("data/pairs/smatch/*.txt"))
    return files


def test_every_shared_amr_graph_is_laid_out_as_penman_lays_it_out() -> None:
    files = _amr_files()
    assert len(files) >= 7, files
    total = direct = 0
    for path in files:
        graphs = list(_decoded(path.read_text(encoding="utf-8")))
        for options in OPTIONS:
            for graph in graphs if options is OPTIONS[0] else graphs[::4]:  # no_wiki: a sample
                two, one = _check(graph, options)
                assert two == one, graph
                total += 1
                direct += one
        assert graphs_of(graphs, "x", OPTIONS[0]) == graphs_of(graphs, "x", OPTIONS[0], direct=False), path
    assert direct >= 0.99 * total  # the decoded graphs of real data all go the direct way


# --------------------------------------------------------------------------- random graphs

ROLES = [":ARG0", ":ARG1", ":ARG0-of", ":ARG1-of", ":mod", ":domain", ":consist-of", ":op1", ":wiki", ":name",
         ":polarity", ":quant", ":instance-of", ":mode"]
CONSTANTS = ['"John"', '"a b"', "-", "5", "x", '"~1"', '"q\\"uote"', "imperative", '"two\nlines"', "a~b"]
CONCEPTS = ["dog", "want-01", '"q"', "and", "person"]


def _text(rng: random.Random) -> str:
    """Random Penman text: nesting, reentrancies (also ahead of the definition), inverted roles, constants,
    strings, alignments, missing concepts."""
    names = [f"v{k}" for k in range(rng.randint(1, 9))]
    fresh = iter(names)

    def node(var: str, depth: int) -> str:
        parts = [var]
        if rng.random() < 0.9:
            aligned = f"~e.{rng.randint(0, 9)}" if rng.random() < 0.1 else ""
            parts.append("/ " + rng.choice(CONCEPTS) + aligned)
        for _ in range(rng.randint(0, 3)):
            role = rng.choice(ROLES) + (f"~e.{rng.randint(0, 9)}" if rng.random() < 0.1 else "")
            pick = rng.random()
            nested = next(fresh, None) if pick < 0.4 and depth < 4 else None
            if nested is not None:
                parts.append(f"{role} {node(nested, depth + 1)}")
            elif pick < 0.7:
                parts.append(f"{role} {rng.choice(names)}")
            else:
                aligned = f"~{rng.randint(0, 9)}" if rng.random() < 0.2 else ""
                parts.append(f"{role} {rng.choice(CONSTANTS)}{aligned}")
        return "(" + " ".join(parts) + ")"

    return node(next(fresh), 0)


def _mutated(graph: penman.Graph, rng: random.Random) -> penman.Graph:
    """A graph changed as a program might change one: triples duplicated, dropped, moved, added; epidata
    dropped, added or odd; another top; metadata."""
    triples = list(graph.triples)
    epidata = {triple: list(epis) for triple, epis in graph.epidata.items()}
    top = graph.top
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        pick = rng.random()
        k = rng.randrange(len(triples))
        if pick < 0.2:
            triples.insert(rng.randrange(len(triples) + 1), triples[k])  # a duplicate
        elif pick < 0.3 and len(triples) > 1:
            del triples[k]
        elif pick < 0.4:
            triples.insert(rng.randrange(len(triples) + 1), triples.pop(k))
        elif pick < 0.5:
            source = rng.choice(triples)[0]
            triples.insert(rng.randrange(len(triples) + 1),
                           (source, rng.choice(ROLES), rng.choice([*CONSTANTS, triples[0][0], None])))
        elif pick < 0.6:
            epidata = {}
        elif pick < 0.7:
            epidata.setdefault(triples[k], []).append(rng.choice(
                [POP, Push(triples[k][0]), Push(triples[k][2]), Push("zz"), Alignment((1,), prefix="e."),
                 RoleAlignment((2, 3)), penman.epigraph.Epidatum()]))
        elif pick < 0.8:
            epidata.pop(triples[k], None)
        elif pick < 0.9:
            top = rng.choice(triples)[0]
        else:
            triples = [(s, r, t) for s, r, t in triples if r != ":instance" or rng.random() < 0.7] or triples
    if top not in {source for source, _, _ in triples}:
        top = None
    metadata = rng.choice([{}, {"id": "g1"}, {"id": "g2", "snt": "The dog ."}, {"snt": "two\nlines"},
                           {"id": "nw.wsj_0001.1", "date": ""}])
    return penman.Graph(triples, top=top, epidata=epidata, metadata=metadata)


def _random_graphs(seed: int, count: int) -> List[penman.Graph]:
    rng = random.Random(seed)
    graphs = []
    while len(graphs) < count:
        decoded = list(_decoded(_text(rng)))
        if decoded:
            graph = _mutated(decoded[0], rng) if rng.random() < 0.6 else decoded[0]
            with penman_warnings():
                try:
                    penman.encode(graph)
                except penman.exceptions.PenmanError:
                    continue  # penman cannot lay it out: neither can its text be had
            graphs.append(graph)
    return graphs


@pytest.mark.parametrize("seed", range(4))
def test_random_graphs_are_laid_out_as_penman_lays_them_out(seed: int) -> None:
    graphs = _random_graphs(seed, 500)
    given = [0, 0]
    for options in OPTIONS:
        for graph in graphs:
            two, one = _check(graph, options)
            given[0] += two
            given[1] += one
    assert given[0] > 300 and given[1] > 300  # most go the direct way; the rest are penman's to lay out
    for start in range(0, len(graphs), 50):
        part = graphs[start:start + 50]
        for options in OPTIONS:
            with penman_warnings():
                assert graphs_of(part, "x", options) == graphs_of(part, "x", options, direct=False)
        for options in ({}, {"no_wiki": True}):
            _same(*_both(part, **options))  # and read as their text is


def test_lists_of_random_graphs_read_and_score_as_their_text(capfd: pytest.CaptureFixture[str]) -> None:
    graphs = _random_graphs(7, 120)
    gold, system = graphs[:60], graphs[60:]
    for options in ({}, {"no_wiki": True}):
        reading = read_options(**options)
        for side in (gold, system):
            direct = corpus_of(side, None, reading, "gold")
            with penman_warnings():
                slow = graphs_of(side, "gold", read_options(framework="amr", **options), direct=False)
            if slow is not None:
                assert direct.graphs + direct.errors == [g for g in slow if isinstance(g, mrp.Graph)] + [
                    e for e in slow if not isinstance(e, mrp.Graph)]
    readable = [g for g in graphs if not corpus_of([g], None, read_options(), "gold").errors]
    half = len(readable) // 2
    gold, system = ([penman.Graph(g.triples, top=g.top, epidata=g.epidata, metadata={"id": f"p{k}"})
                     for k, g in enumerate(part)] for part in (readable[:half], readable[half:2 * half]))
    with penman_warnings():
        texts = ([str(penman.encode(g)) for g in gold], [str(penman.encode(g)) for g in system])
    capfd.readouterr()
    for metric in ("smatch", "mrp"):
        expected = timeless(mrp.score(*texts, metric=metric).to_dict())
        assert timeless(mrp.score(gold, system, metric=metric).to_dict()) == expected
    assert capfd.readouterr() == ("", "")


def test_penman_warnings_never_reach_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    twice = penman.decode("(a / alpha :ARG0 (b / beta) :ARG0 b)")
    twice.triples.append(twice.triples[-1])  # a duplicate triple: penman warns laying it out
    # a context for a variable not in its triple
    odd = penman.Graph([("a", ":instance", "alpha"), ("a", ":ARG0", "b")],
                       epidata={("a", ":ARG0", "b"): [Push("c")]})
    assert fast_graph(twice, OPTIONS[0]) is None and fast_graph(odd, OPTIONS[0]) is None
    text = str(penman.encode(odd))
    capfd.readouterr()  # penman's own warnings (decoding the duplicate triple, encoding)
    mrp.score([twice, odd], [odd, twice], "smatch")
    mrp.score([twice], [text], "smatch")
    assert capfd.readouterr() == ("", "")


def test_metadata_read_directly_as_its_comment_lines_read() -> None:
    rng = random.Random(3)
    pieces = ["id", "snt", "tok", "date", "a b", "x:y", "", "::", "k\t", "#", " ", "v ::w", "::z", "\u2028",
              "\x1c", " lead", "trail ", "\tTab", "two words", "a::b", "é", "\x85", "-", "::snt x"]
    for _ in range(3000):
        size = rng.randint(0, 4)
        metadata = {rng.choice(pieces) + rng.choice(["", "", rng.choice(pieces)]):
                    rng.choice(pieces) + rng.choice(["", rng.choice(pieces)]) for _ in range(size)}
        comments = _comments(metadata)
        expected = None if comments is None else (Frame(comments=comments).metadata(), len(comments))
        assert _metadata(metadata) == expected, metadata


def test_malformed_graphs_meet_penman_as_before() -> None:
    odd: List[Any] = [("a", ":ARG0", ["b"]), ("a", 5, "b"), ("a", ":ARG0"), ["a", ":ARG0", "b"]]
    for triple in odd:
        graph = penman.Graph([("a", ":instance", "x")])
        graph.triples.append(triple)
        for options in OPTIONS:
            try:
                expected: Any = graphs_of([graph], "x", options, direct=False)
            except Exception as error:  # noqa: BLE001 - whatever penman raises, raised alike
                expected = type(error)
            try:
                found: Any = graphs_of([graph], "x", options)
            except Exception as error:  # noqa: BLE001
                found = type(error)
            assert found == expected
