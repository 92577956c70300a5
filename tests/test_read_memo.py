"""Each distinct Penman text read once (mrp.codecs.repeats), its content packed once (mrp.corpora.packed) and
its SMATCH triples built once (mrp.engine.content_memo): none of it can change a graph or a result."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import mrp.corpora.load
from mrp.cli.score import main_body
from mrp.codecs import ReadOptions, reader, reads_texts_once
from mrp.codecs.repeats import Repeats
from mrp.corpora.load import read_corpus, reading_together
from mrp.corpora.packed import PackedGraphs
from mrp.graph import TEXT_FIELDS, Graph, fingerprint
from mrp.io.source import read_lines
from mrp.metrics.smatch import metric as smatch_metric
from mrp.metrics.smatch.metric import matched, penman_triples

from conftest import ROOT

#: a few small graph texts (one repaired: a parenthesis left open), each written several times below
TEXTS = [
    '(s / sleep-01 :ARG0 (g / girl))',
    '(s / sleep-01 :ARG0 (b / boy) :wiki "Boy")',
    '(r / rain-01 :time (n / now))',
    '(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))',
    '(b / bark-01 :ARG0 (d / dog :mod (b2 / big))',
    '(m / multi-sentence :snt1 (r / rain-01) :snt2 (s / sleep-01 :ARG0 (g / girl)))',
    '(c / city :name (n / name :op1 "New" :op2 "York") :wiki "New_York_City")',
]


def _file(path: Path, picks: List[int], ids: bool) -> Path:
    """A Penman file of the texts picked, in order (with ids and sentences of their own when ``ids``)."""
    blocks = []
    for k, pick in enumerate(picks):
        header = f"# ::id g{k} ::date x\n# ::snt sentence {k}\n" if ids else ""
        blocks.append(header + TEXTS[pick])
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return path


def _plain(path: Path, options: ReadOptions) -> List[Any]:
    """The graphs (and errors) of a file as the reader gives them without a memo."""
    return list(reader("amr")(read_lines(str(path)), path.name, options))


OPTIONS = [ReadOptions(framework="amr"), ReadOptions(framework="amr", no_wiki=True),
           ReadOptions(framework="amr", keep=True), ReadOptions(framework="amr", strict=True)]


@pytest.mark.parametrize("options", OPTIONS, ids=["plain", "no-wiki", "keep", "strict"])
@pytest.mark.parametrize("pack_after", [0, 3, 1 << 62], ids=["packed", "packed-later", "live"])
def test_a_corpus_read_through_the_memo_is_the_corpus_read_without(tmp_path: Path, options: ReadOptions,
                                                                   pack_after: int) -> None:
    picks = [random.Random(seed).randrange(len(TEXTS)) for seed in range(60)]
    path = _file(tmp_path / "a.amr", picks, ids=True)
    plain = _plain(path, options)
    corpus = read_corpus(str(path), "amr", options, pack_after=pack_after)
    graphs = [item for item in plain if isinstance(item, Graph)]
    errors = [item for item in plain if not isinstance(item, Graph)]
    assert isinstance(corpus.graphs, PackedGraphs) == (pack_after < len(graphs))
    assert [fingerprint(graph) for graph in corpus.graphs] == [fingerprint(graph) for graph in graphs]
    assert [(graph.id, graph.line, graph.input, graph.repairs) for graph in corpus.graphs] == \
        [(graph.id, graph.line, graph.input, graph.repairs) for graph in graphs]
    assert [(e.message, e.line, e.graph_id) for e in corpus.errors] == \
        [(e.message, e.line, e.graph_id) for e in errors]
    if options.strict:  # the repaired text is refused each time, its error at its own line
        assert len(corpus.errors) == picks.count(4) > 1


def test_ids_and_options_are_each_graphs_own(tmp_path: Path) -> None:
    path = _file(tmp_path / "a.amr", [1, 1, 6, 6], ids=True)
    plain = read_corpus(str(path), "amr", ReadOptions(framework="amr"), pack_after=0)
    no_wiki = read_corpus(str(path), "amr", ReadOptions(framework="amr", no_wiki=True), pack_after=0)
    assert [graph.id for graph in plain.graphs] == ["g0", "g1", "g2", "g3"]
    assert [graph.input for graph in plain.graphs] == [f"sentence {k}" for k in range(4)]
    assert all("wiki" in graph.nodes[0].properties for graph in plain.graphs)
    assert not any("wiki" in node.properties for graph in no_wiki.graphs for node in graph.nodes)
    entries = plain.graphs.entries()  # type: ignore[union-attr]
    assert [entry.content for entry in entries] == [0, 0, 2, 2]


@pytest.mark.parametrize("pack_after", [0, 1 << 62], ids=["packed", "live"])
def test_no_two_graphs_given_share_an_object(tmp_path: Path, pack_after: int) -> None:
    path = _file(tmp_path / "a.amr", [3, 3, 3, 0, 3], ids=False)
    corpus = read_corpus(str(path), "amr", ReadOptions(framework="amr"), pack_after=pack_after)
    graphs = list(corpus.graphs)
    if isinstance(corpus.graphs, PackedGraphs):
        graphs += list(corpus.graphs)  # each access unpacks a new graph
    seen: Dict[int, int] = {}
    for k, graph in enumerate(graphs):
        for value in [getattr(graph, name) for name in TEXT_FIELDS] + list(graph.nodes) + list(graph.edges):
            if value is not None:
                assert seen.setdefault(id(value), k) == k
    first = graphs[0]
    first.nodes[0].label = "changed"
    first.edges.clear()
    others = list(corpus.graphs)[1:]  # a change to one graph changes no other
    assert [graph.nodes[0].label for graph in others] == ["want-01", "want-01", "sleep-01", "want-01"]
    assert all(graph.edges for graph in others)


def test_a_memo_shares_only_what_its_template_holds() -> None:
    memo = Repeats(kept=2)
    graphs = [Graph(id=str(k), nodes=[]) for k in range(3)]
    for k, graph in enumerate(graphs):
        memo.keep(k, graph)
    assert memo.template(0) is None  # forgotten when full: read again, never confused
    assert memo.serial(graphs[2]) == 2
    assert memo.serial(Graph(id="x", nodes=graphs[2].nodes)) is None  # not all of its content is shared


def _optimum(gold: Graph, system: Graph) -> int:
    """SMATCH's matched triples under the best map, by trying every map (small graphs only)."""
    (local_g, rel_g, _), (local_s, rel_s, _) = penman_triples(gold, False), penman_triples(system, False)
    n, m = len(local_g), len(local_s)
    best = 0
    for targets in itertools.product(range(-1, m), repeat=n):
        used = [j for j in targets if j >= 0]
        if len(used) == len(set(used)):
            best = max(best, matched(list(targets), local_g, local_s, rel_g, rel_s))
    return best


def _score(args: List[str], capsys: pytest.CaptureFixture[str]) -> Dict[str, Any]:
    assert main_body(args) == 0
    result: Dict[str, Any] = json.loads(capsys.readouterr().out)
    return {k: v for k, v in result.items() if k not in ("time", "cpu")}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_smatch_of_a_testbed_with_repeats_is_exact_packed_or_live(tmp_path: Path, jobs: str,
                                                                  capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    pairs = [tuple(rng.sample(range(len(TEXTS)), 2)) for _ in range(40)] + [(2, 2), (5, 5)]
    gold = _file(tmp_path / "a.amr", [a for a, _ in pairs], ids=False)
    system = _file(tmp_path / "b.amr", [b for _, b in pairs], ids=False)
    args = ["--score", "smatch", "--format", "amr", "--trace", "--jobs", jobs, "--gold", str(gold),
            str(system)]
    live = _score(args, capsys)
    monkeypatch.setattr(mrp.corpora.load, "PACK_AFTER", 0)
    packed = _score(args, capsys)
    assert packed == live
    assert live["exact"] == len(pairs)
    graphs = [_plain(_file(tmp_path / f"{k}.amr", [k], ids=False), ReadOptions(framework="amr"))[0]
              for k in range(len(TEXTS))]
    optimum: Dict[Tuple[int, int], int] = {}
    for k, (a, b) in enumerate(pairs):
        if (a, b) not in optimum:
            optimum[a, b] = _optimum(graphs[a], graphs[b])
        assert live["scores"]["amr"][str(k)]["c"] == optimum[a, b], (a, b)


def test_framing_scan_answers_a_line_met_before_as_it_followed_it() -> None:
    from mrp.codecs.framing import _scan, scan

    rng = random.Random(3)
    for _ in range(300):
        text = "".join(rng.choice('(()) "\\ab') for _ in range(rng.randrange(12)))
        start, depth = rng.randrange(len(text) + 1), rng.randrange(3)
        for _ in range(2):
            assert scan(text, start, depth, "(", ")") == _scan(text, start, depth, "(", ")")


def _held_counts(stores: List[PackedGraphs], monkeypatch: pytest.MonkeyPatch) -> Tuple[int, List[Any]]:
    """How many times SMATCH's scoring together derives a content's triples for the entries of the stores
    (in order), and the Held it gives each entry."""
    from mrp.engine.options import Options
    from mrp.metrics.smatch import metric as smatch
    from mrp.metrics.smatch.coded import Coder

    made = []
    real, coded = smatch.triples, Coder.coded

    def counted(graph: Graph, options: Options) -> Any:
        made.append(graph.id)
        return real(graph, options)

    def counted_coded(self: Any, graph: Graph) -> Any:  # Penman triples (sets) are coded in one pass
        made.append(graph.id)
        return coded(self, graph)

    monkeypatch.setattr(smatch, "triples", counted)
    monkeypatch.setattr(Coder, "coded", counted_coded)
    metric = smatch.SMATCH()
    metric._contents.clear()
    options = Options(penman=True)
    held = [metric.held_triples(entry, options) for store in stores for entry in store.entries()]
    return len(made), held


@pytest.mark.parametrize("ahead", [False, True], ids=["read", "pickled"])
def test_a_text_read_into_two_stores_has_its_triples_made_once(tmp_path: Path, ahead: bool,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Two files of the same texts (other ids, sentences and order): one triple set per distinct text, and
    each entry's the one its graph gives alone; the digest survives the store's pickling (read ahead)."""
    import pickle

    picks = [random.Random(seed).randrange(len(TEXTS)) for seed in range(30)]
    first = read_corpus(str(_file(tmp_path / "a.amr", picks, ids=True)), "amr", pack_after=0)
    second = read_corpus(str(_file(tmp_path / "b.amr", picks[::-1], ids=False)), "amr", pack_after=0)
    stores = [first.graphs, second.graphs]
    assert all(isinstance(store, PackedGraphs) for store in stores)
    if ahead:
        stores = [pickle.loads(pickle.dumps(store)) for store in stores]
    count, held = _held_counts(stores, monkeypatch)  # type: ignore[arg-type]
    assert count == len(set(picks))
    graphs = [graph for store in stores for graph in store]
    interned = smatch_metric.SMATCH.interned  # the ids the Held are coded with
    alone = [penman_triples(graph, False) for graph in graphs]
    assert [(h.coded, h.total) for h in held] == [(interned.coded(*made[:2]), made[2]) for made in alone]


def test_a_text_read_with_other_options_has_triples_of_its_own(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest holds the read options that shape a graph's content: the same text read with --no-wiki
    (its :wiki dropped) is another content, with other triples; a standardized store has no digests."""
    from mrp.corpora.packed import mapped

    picks = [1, 6, 1, 6]
    path = _file(tmp_path / "a.amr", picks, ids=True)
    plain = read_corpus(str(path), "amr", ReadOptions(framework="amr"), pack_after=0).graphs
    no_wiki = read_corpus(str(path), "amr", ReadOptions(framework="amr", no_wiki=True), pack_after=0).graphs
    count, held = _held_counts([plain, no_wiki], monkeypatch)  # type: ignore[list-item]
    assert count == 4
    assert held[0].coded != held[4].coded and held[0].total == held[4].total + 1
    changed = mapped(plain, lambda graph: graph)
    assert isinstance(changed, PackedGraphs) and changed.digest(0) is None


def _built_counter(monkeypatch: pytest.MonkeyPatch) -> List[str]:
    """The ids of the graphs the Penman reader builds from their text (not from a memo), as it builds them:
    from a frame (``_graph``), or from the Plain form of a block read without framing (``built``)."""
    from mrp.codecs.penman import reading

    built: List[str] = []
    real, real_built = reading._graph, reading.built

    def counted(frame: Any, text: str, gid: str, options: ReadOptions) -> Graph:
        built.append(gid)
        return real(frame, text, gid, options)

    def counted_plain(plain: Any, gid: str, options: ReadOptions) -> Graph:
        built.append(gid)
        return real_built(plain, gid, options)

    monkeypatch.setattr(reading, "_graph", counted)
    monkeypatch.setattr(reading, "built", counted_plain)
    return built


@pytest.mark.parametrize("pack_after", [0, 1 << 62], ids=["packed", "live"])
def test_files_read_together_parse_each_text_once(tmp_path: Path, pack_after: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Two files read with one memo (reading_together): a text met in the first is not parsed in the second,
    and each corpus is the one read alone."""
    first_picks = [random.Random(seed).randrange(len(TEXTS)) for seed in range(40)]
    second_picks = [random.Random(seed + 100).randrange(len(TEXTS)) for seed in range(40)]
    paths = [_file(tmp_path / "a.amr", first_picks, ids=True),
             _file(tmp_path / "b.amr", second_picks, ids=False)]
    alone = [read_corpus(str(path), "amr", ReadOptions(framework="amr"), pack_after=pack_after)
             for path in paths]
    built = _built_counter(monkeypatch)
    options = reading_together(ReadOptions(framework="amr"))
    together = [read_corpus(str(path), "amr", options, pack_after=pack_after) for path in paths]
    assert len(built) == len(set(first_picks) | set(second_picks))
    for one, other in zip(together, alone):
        assert [(fingerprint(g), g.id, g.line, g.input, g.repairs, g.flavor, g.layout, g.variables, g.breaks)
                for g in one.graphs] == \
            [(fingerprint(g), g.id, g.line, g.input, g.repairs, g.flavor, g.layout, g.variables, g.breaks)
             for g in other.graphs]


def test_graphs_read_together_share_no_object_across_corpora(tmp_path: Path) -> None:
    """Live corpora read with one memo: no graph holds an object of another (of either corpus), and a change
    to the first corpus's graphs, made before the second is read, is not read into the second."""
    options = reading_together(ReadOptions(framework="amr"))
    first = read_corpus(str(_file(tmp_path / "a.amr", [3, 3, 0], ids=False)), "amr", options,
                        pack_after=1 << 62)
    for graph in first.graphs:
        graph.nodes[0].label = "changed"
        graph.edges.clear()
    second = read_corpus(str(_file(tmp_path / "b.amr", [3, 0, 3], ids=False)), "amr", options,
                         pack_after=1 << 62)
    assert [graph.nodes[0].label for graph in second.graphs] == ["want-01", "sleep-01", "want-01"]
    assert all(graph.edges for graph in second.graphs)
    seen: Dict[int, int] = {}
    for k, graph in enumerate(list(first.graphs) + list(second.graphs)):
        for value in [getattr(graph, name) for name in TEXT_FIELDS] + list(graph.nodes) + list(graph.edges):
            if value is not None and not isinstance(value, (str, int)):
                assert seen.setdefault(id(value), k) == k


def test_a_memo_is_sent_empty() -> None:
    """Read options sent to another process do not carry the graphs a memo holds."""
    import pickle

    memo = Repeats(kept=7)
    memo.keep("text", Graph(id="0", nodes=[]))
    again = pickle.loads(pickle.dumps(memo))
    assert again.template("text") is None and memo.template("text") is not None
    assert again._kept == 7


def test_one_job_reads_the_system_file_in_this_process(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs 1 is one process: the system file is read here, after the gold file, its texts met there not
    parsed again; with more jobs a child reads it ahead (the gold file's texts mostly distinct: see
    mrp.corpora.ahead.pays_after).  The results are the same."""
    import mrp.corpora.ahead

    monkeypatch.setattr(mrp.corpora.ahead, "enabled", lambda: True)
    children: List[str] = []
    real = mrp.corpora.ahead.Child

    def child(work: Any) -> Any:
        children.append("child")
        return real(work)

    monkeypatch.setattr(mrp.corpora.ahead, "Child", child)
    picks = list(range(len(TEXTS))) + [random.Random(seed).randrange(len(TEXTS)) for seed in range(5)]
    gold = _file(tmp_path / "a.amr", picks, ids=False)
    system = _file(tmp_path / "b.amr", picks[::-1], ids=False)
    built = _built_counter(monkeypatch)
    results = []
    for jobs in ("1", "2"):
        built.clear()
        children.clear()
        results.append(_score(["--score", "smatch", "--format", "amr", "--trace", "--jobs", jobs, "--gold",
                               str(gold), str(system)], capsys))
        assert children == ([] if jobs == "1" else ["child"])
        if jobs == "1":
            assert len(built) == len(set(picks))
    assert results[0] == results[1] and results[0]["exact"] == len(picks)


def test_a_child_reading_the_system_file_ahead_parses_only_texts_the_gold_file_did_not_hold(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """With --jobs 2 the system file of two Penman files is read ahead by a child forked once the gold file
    is read: the texts both files hold are parsed once in all (counted across processes), not once in each
    process; an MRP system file (read without the memo of texts) is still read while the gold file is."""
    import mrp.cli.score
    import mrp.corpora.ahead
    from mrp.codecs.penman import reading

    monkeypatch.setattr(mrp.corpora.ahead, "enabled", lambda: True)
    log = tmp_path / "built.log"
    real, real_built = reading._graph, reading.built

    def logged(gid: str) -> None:
        with open(log, "a", encoding="utf-8") as out:  # written by whichever process parses
            out.write(gid + "\n")

    def counted(frame: Any, text: str, gid: str, options: ReadOptions) -> Graph:
        logged(gid)
        return real(frame, text, gid, options)

    def counted_plain(plain: Any, gid: str, options: ReadOptions) -> Graph:  # a block read without framing
        logged(gid)
        return real_built(plain, gid, options)

    monkeypatch.setattr(reading, "_graph", counted)
    monkeypatch.setattr(reading, "built", counted_plain)
    order: List[str] = []
    real_ahead, real_gold = mrp.cli.score.Ahead, mrp.cli.score._read_gold
    monkeypatch.setattr(mrp.cli.score, "Ahead", lambda *a, **k: order.append("ahead") or real_ahead(*a, **k))
    monkeypatch.setattr(mrp.cli.score, "_read_gold",
                        lambda *a, **k: order.append("gold") or real_gold(*a, **k))  # type: ignore[func-returns-value]
    first = [0, 2, 3, 6, 0, 3]
    second = [3, 6, 2, 1, 1, 0]  # one text (1) the gold file does not hold
    gold, system = _file(tmp_path / "a.amr", first, ids=False), _file(tmp_path / "b.amr", second, ids=False)
    result = _score(["--score", "smatch", "--jobs", "2", "--gold", str(gold), str(system)], capsys)
    assert order == ["gold", "ahead"]
    assert len(log.read_text(encoding="utf-8").split()) == len(set(first) | set(second))
    assert result["n"] == len(first) and result["exact"] == len(first)
    order.clear()
    _score(["--score", "mrp", "--jobs", "2", "--gold", str(ROOT / "data" / "demo" / "gold.mrp"),
            str(ROOT / "data" / "demo" / "system.mrp")], capsys)
    assert order == ["ahead", "gold"]
    assert reads_texts_once("amr") and not any(reads_texts_once(fmt) for fmt in ("mrp", "umr", "eds", "dm"))


@pytest.mark.parametrize("first,second", [(0, 1), (0, 3), (1, 2), (3, 0)],
                         ids=["plain-nowiki", "plain-strict", "nowiki-keep", "strict-plain"])
def test_files_read_together_with_other_options_read_as_alone(tmp_path: Path, first: int,
                                                               second: int) -> None:
    """One memo shared by reads with other options (what a block's frames give, its texts' limits and
    digests kept beside the texts): each corpus is the one read alone with its options, errors included."""
    picks = [random.Random(seed).randrange(len(TEXTS)) for seed in range(40)]
    path = _file(tmp_path / "a.amr", picks, ids=True)
    memo = Repeats()
    for one in (OPTIONS[first], OPTIONS[second], OPTIONS[first]):
        alone = read_corpus(str(path), "amr", one, pack_after=0)
        together = read_corpus(str(path), "amr", replace(one, memo=memo), pack_after=0)
        assert [(fingerprint(g), g.id, g.line, g.repairs, g.layout) for g in together.graphs] == \
            [(fingerprint(g), g.id, g.line, g.repairs, g.layout) for g in alone.graphs]
        assert [(e.message, e.line, e.graph_id) for e in together.errors] == \
            [(e.message, e.line, e.graph_id) for e in alone.errors]
        assert [together.graphs.digest(k) for k in range(len(picks) - len(together.errors))] == \
            [alone.graphs.digest(k) for k in range(len(picks) - len(alone.errors))]  # type: ignore[union-attr]
