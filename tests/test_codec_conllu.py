"""CoNLL-U (basic and enhanced UD), read as mtool reads the MRP 2020 companion syntax, and written so that
it reads back to the same graph."""

import os
import subprocess
import sys
from dataclasses import replace

import pytest

import mrp
from mrp.codecs.conllu import format_graph
from mrp.errors import FormatError
from mrp.graph import fingerprint

SENTENCE = "\n".join([
    "# sent_id = s1",
    "# text = Don't go.",
    "1-2\tDon't\t_\t_\t_\t_\t_\t_\t_\tTokenRange=0:5",
    "1\tDo\tdo\tAUX\tVBP\tMood=Ind|VerbForm=Fin\t3\taux\t3:aux\t_",
    "2\tn't\tnot\tPART\tRB\t_\t3\tadvmod\t3:advmod\t_",
    "3\tgo\tgo\tVERB\tVB\tVerbForm=Inf\t0\troot\t0:root|3.1:conj\tSpaceAfter=No",
    "3.1\tgo\tgo\tVERB\tVB\t_\t_\t_\t3:conj\t_",
    "4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t3:punct\t_",
    "",
])


def _read(text, fmt="conllu"):
    return mrp.read(text, format=fmt)


def test_basic_tree_as_mtool_reads_it():
    (graph,) = _read(SENTENCE)
    assert graph.id == "s1" and graph.framework == "ud" and graph.flavor == 0
    assert graph.input == "Don't go."
    assert [node.label for node in graph.nodes] == ["Don't", "Do", "n't", "go", "go", "."]
    assert [node.id for node in graph.nodes] == [1, 2, 3, 4, 5, 6]
    assert graph.tops == [4]
    first = graph.nodes[1]
    assert first.properties == ["lemma", "upos", "xpos", "Mood", "VerbForm"]
    assert first.values == ["do", "AUX", "VBP", "Ind", "Fin"]
    # the range token is anchored by TokenRange; words inside it and the empty node are not anchored
    assert graph.nodes[0].anchors == [(0, 5)]
    assert graph.nodes[1].anchors is None and graph.nodes[4].anchors is None
    # the other surface tokens are found in the text
    assert graph.nodes[3].anchors == [(6, 8)] and graph.nodes[5].anchors == [(8, 9)]
    assert sorted((e.source, e.target, e.label) for e in graph.edges) == [
        (4, 2, "aux"), (4, 3, "advmod"), (4, 6, "punct")]


def test_enhanced_graph_from_deps():
    (graph,) = _read(SENTENCE, "eud")
    assert graph.framework == "eud"
    assert sorted((e.source, e.target, e.label) for e in graph.edges) == [
        (4, 2, "aux"), (4, 3, "advmod"), (4, 5, "conj"), (4, 6, "punct"), (5, 4, "conj")]


def test_input_rebuilt_without_text_comment():
    text = "\n".join(line for line in SENTENCE.splitlines() if not line.startswith("# text")) + "\n"
    (graph,) = _read(text)
    assert graph.input == "Don't go."


@pytest.mark.parametrize("line, message", [
    ("1\tDo\tdo\tAUX", "has 4 columns"),
    ("x\tDo\tdo\tAUX\tVBP\t_\t0\troot\t_\t_", "ID 'x'"),
    ("1\tDo\tdo\tAUX\tVBP\tMood\t0\troot\t_\t_", "FEATS item 'Mood'"),
    ("1\tDo\tdo\tAUX\tVBP\t_\t7\tnsubj\t_\t_", "HEAD '7'"),
])
def test_malformed_lines_are_reported_by_line(line, message):
    good = "1\tGo\tgo\tVERB\tVB\t_\t0\troot\t_\t_"
    text = f"# sent_id = bad\n# text = Do\n{line}\n\n# sent_id = good\n# text = Go\n{good}\n"
    with pytest.raises(FormatError) as caught:
        _read(text)
    assert message in str(caught.value)
    assert caught.value.line == 3 and caught.value.graph_id == "bad"


@pytest.mark.parametrize("fmt", ["conllu", "eud"])
def test_round_trip(fmt):
    (graph,) = _read(SENTENCE, fmt)
    text = format_graph(graph) + "\n\n"
    (again,) = _read(text, fmt)
    assert fingerprint(again) == fingerprint(graph)
    assert again.variables == graph.variables


def test_writing_a_graph_read_elsewhere_numbers_its_tokens():
    (graph,) = _read(SENTENCE)
    graph.variables = None
    (again,) = _read(format_graph(graph) + "\n")
    # the same graph; the IDs it is written with are new (read back as its variables)
    assert fingerprint(replace(again, variables=None)) == fingerprint(graph)


@pytest.mark.parametrize("label", ["a\tb", "a\nb", "a\u2028b", "a\x85b"])
def test_writer_refuses_what_would_not_read_back(label):
    (graph,) = _read(SENTENCE)
    graph.nodes[3].label = label
    with pytest.raises(FormatError, match="s1"):
        format_graph(graph)


def test_basic_writer_refuses_two_heads():
    (graph,) = _read(SENTENCE, "eud")
    graph.framework = "ud"
    with pytest.raises(FormatError, match="head"):
        format_graph(graph)


def test_scoring_ud_against_itself():
    result = mrp.score(SENTENCE, SENTENCE, metric="mrp", format="conllu")
    assert result.f == 1.0


MTOOL = os.environ.get("MRP_MTOOL_DIR")


@pytest.mark.skipif(not MTOOL, reason="development test: set MRP_MTOOL_DIR to a checkout of cfmrp/mtool")
@pytest.mark.parametrize("fmt", ["conllu", "eud"])
def test_same_graphs_as_mtool(tmp_path, fmt):
    """mtool's own reading of the sentence, run here, against ours (mtool names the framework by the
    format, conllu; mrp by the framework, ud)."""
    path = tmp_path / "s.conllu"
    path.write_text(SENTENCE + "\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "main.py", "--read", fmt, "--write", "mrp", str(path)], cwd=MTOOL,
                         capture_output=True, text=True, check=True)
    (theirs,) = mrp.read(run.stdout, format="mrp")
    (ours,) = _read(SENTENCE, fmt)
    theirs.framework = ours.framework
    assert fingerprint(theirs) == fingerprint(ours)


# ------------------------------- CoNLL-U through MRP: only MRP's keys, and DEPS comes back (drift 5)

#: the keys of an MRP 2019/2020 graph object
MRP_KEYS = {"id", "flavor", "framework", "version", "time", "language", "source", "provenance", "targets",
            "input", "tops", "nodes", "edges"}


def _convert(*args):
    from conftest import run_cli

    run = run_cli("convert", [*map(str, args)])
    assert run.code == 0, run.err
    return run


def _columns(text):
    """The ID ... DEPS columns of each token line (MISC: TokenRange or the SpaceAfter it stands for)."""
    return [line.split("\t")[:9] for line in text.splitlines() if line and not line.startswith("#")]


def test_conllu_to_mrp_writes_only_mrp_keys(tmp_path):
    import json

    (tmp_path / "s.conllu").write_text(SENTENCE, encoding="utf-8")
    for fmt in ("conllu", "ud", "eud"):
        _convert("--from", fmt, "--to", "mrp", tmp_path / "s.conllu", tmp_path / f"{fmt}.mrp")
        objects = [json.loads(line) for line in (tmp_path / f"{fmt}.mrp").read_text().splitlines()]
        assert objects and all(set(obj) <= MRP_KEYS for obj in objects), [sorted(obj) for obj in objects]
        nodes = objects[0]["nodes"]
        assert all(set(node) <= {"id", "label", "properties", "values", "anchors"} for node in nodes)


def test_conllu_round_trips_through_mrp_with_its_deps(tmp_path):
    """The enhanced graph goes into MRP as MRP carries a sentence's graphs of two frameworks: a graph of
    framework eud with the sentence's id after its ud graph; the CoNLL-U writer joins them again."""
    import json

    source = tmp_path / "s.conllu"
    source.write_text(SENTENCE, encoding="utf-8")
    _convert("--from", "conllu", "--to", "mrp", source, tmp_path / "s.mrp")
    objects = [json.loads(line) for line in (tmp_path / "s.mrp").read_text().splitlines()]
    assert [(obj["id"], obj["framework"]) for obj in objects] == [("s1", "ud"), ("s1", "eud")]
    _convert("--from", "mrp", "--to", "conllu", tmp_path / "s.mrp", tmp_path / "back.conllu")
    back = (tmp_path / "back.conllu").read_text(encoding="utf-8")
    assert _columns(back) == _columns(SENTENCE)
    for fmt in ("conllu", "eud"):
        assert [fingerprint(g) for g in _read(back, fmt)] == [fingerprint(g) for g in _read(SENTENCE, fmt)]
    # straight from CoNLL-U to CoNLL-U, DEPS is kept too
    _convert("--from", "conllu", "--to", "conllu", source, tmp_path / "again.conllu")
    assert _columns((tmp_path / "again.conllu").read_text(encoding="utf-8")) == _columns(SENTENCE)


def test_a_sentence_without_deps_gives_one_graph(tmp_path):
    import json

    basic = "\n".join("\t".join(line.split("\t")[:8] + ["_", line.split("\t")[9]]) if "\t" in line else line
                      for line in SENTENCE.splitlines()) + "\n"
    (tmp_path / "b.conllu").write_text(basic, encoding="utf-8")
    _convert("--from", "conllu", "--to", "mrp", tmp_path / "b.conllu", tmp_path / "b.mrp")
    objects = [json.loads(line) for line in (tmp_path / "b.mrp").read_text().splitlines()]
    assert [obj["framework"] for obj in objects] == ["ud"]
    _convert("--from", "mrp", "--to", "conllu", tmp_path / "b.mrp", tmp_path / "back.conllu")
    assert _columns((tmp_path / "back.conllu").read_text(encoding="utf-8")) == _columns(basic)
