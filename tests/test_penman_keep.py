"""AMR written as its file wrote it (mrp.codecs.penman.keep): the file's variables, metadata and layout while
a graph is unchanged, and penman's layout options (mrp-convert --indent, --compact, --triples)."""

from __future__ import annotations

from pathlib import Path

import pytest

import mrp

from conftest import run_cli, shared_file

FILES = [("pairs", "amr", "test1.amr"), ("pairs", "amr", "test2.amr"), ("pairs", "amr", "coli.gold.amr"),
         ("pairs", "amr", "coli.system.amr"), ("wsj", "amr", "wsj.amr")]

TEXT = """# a header block with no graph

# ::id a1 ::date 2012-05-14 ::annotator me
# ::snt Dogs bark.
(f / bark-01
   :ARG0 (u_2 / dog))

(p2 / person :name (n / name :op1 "Ann"))

"""


@pytest.mark.parametrize("parts", FILES, ids=[parts[-1] for parts in FILES])
def test_shared_files_are_written_back_unchanged(parts: tuple) -> None:
    path = shared_file("data", *parts)
    original = path.read_text(encoding="utf-8")
    assert mrp.write(mrp.read(str(path), format="amr"), format="amr") == original


def test_the_command_changes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "in.amr"
    source.write_text(TEXT, encoding="utf-8")
    done = run_cli("convert", ["--from", "amr", "--to", "amr", str(source)])
    assert done.code == 0, done.err
    assert done.out == TEXT  # the header, ::date, the variables f and u_2, the layout; no "# ::id 1" added


def test_a_changed_graph_is_written_anew() -> None:
    graphs = mrp.read(TEXT, format="amr")
    graphs[0].nodes[1].label = "cat"
    text = mrp.write(graphs, format="amr") or ""
    blocks = text.split("\n\n")
    assert blocks[0] == "# a header block with no graph"
    assert blocks[1] == "# ::id a1 ::date 2012-05-14 ::annotator me\n# ::snt Dogs bark.\n" \
                        "(f / bark-01\n      :ARG0 (u_2 / cat))"  # its metadata and variables, laid out anew
    graphs[0].id = "a2"
    assert (mrp.write(graphs, format="amr") or "").startswith("# ::id a2\n# ::snt Dogs bark.\n(f / bark-01")
    assert blocks[2] == '(p2 / person :name (n / name :op1 "Ann"))'  # the unchanged one as written


def test_wiki_dropped_on_reading_is_no_longer_the_text() -> None:
    text = '(p / person :wiki "Ann" :name (n / name :op1 "Ann"))\n\n'
    graphs = mrp.read(text, format="amr", no_wiki=True)
    assert ":wiki" not in (mrp.write(graphs, format="amr") or "")


def test_penman_layout_options(tmp_path: Path) -> None:
    source = tmp_path / "in.amr"
    source.write_text(TEXT, encoding="utf-8")

    def convert(*options: str) -> str:
        done = run_cli("convert", ["--to", "amr", *options, str(source)])
        assert done.code == 0, done.err
        return done.out

    one_line = convert("--indent", "no").split("\n\n")
    assert one_line[1] == "# ::id a1 ::date 2012-05-14 ::annotator me\n# ::snt Dogs bark.\n" \
                          "(f / bark-01 :ARG0 (u_2 / dog))"
    assert convert("--indent", "2").split("\n\n")[2] == \
        '(p2 / person\n  :name (n / name\n    :op1 "Ann"))'
    assert convert("--indent", "2", "--compact").split("\n\n")[2] == \
        '(p2 / person\n  :name (n / name :op1 "Ann"))'
    assert convert("--triples").split("\n\n")[1].endswith(
        "instance(f, bark-01) ^\nARG0(f, u_2) ^\ninstance(u_2, dog)")
    refused = run_cli("convert", ["--to", "mrp", "--compact", str(source)])
    assert refused.code == 2 and "lay out AMR" in refused.err
    bad = run_cli("convert", ["--to", "amr", "--indent", "-3", str(source)])
    assert bad.code == 2 and "at least -1" in bad.err


def test_a_standardized_graph_keeps_the_variables_of_the_nodes_that_stay() -> None:
    from mrp.standardize.graph import standardize
    from mrp.standardize.options import parse

    graph = mrp.read("(x / go-02 :ARG1-of (l / be-located-at-91 :ARG2 (y / city)))\n\n", format="amr")[0]
    done = standardize(graph, parse("dereify"))
    assert sorted(done.variables.values()) == ["x", "y"]
    assert (mrp.write([done], format="amr") or "").endswith("(x / go-02\n      :location (y / city))\n\n")
