"""mrp-convert's Penman layout equals penman's CLI (penman 1.3.1): each node and triple placed where the
file placed it (a reentrant node defined at the mention the file defined it at, duplicate triples as penman
places them, alignments kept), for each of penman's layout options; with ``--penman``, the whole output byte
for byte (metadata as penman writes it).  The references (tests/data/penman/cli.json) are digests of
penman's output on the shared wsj.amr and on the perturbed and merged files made from it
(tests/penman_perturb.py, which also made the references: see its docstring)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest
from penman_perturb import OPTIONS, digest, files

import mrp
from mrp.codecs import WriteOptions, writer
from mrp.codecs.penman import Style

from conftest import run_cli, shared_file

REFERENCE = Path(__file__).parent / "data" / "penman" / "cli.json"


def _convert(path: Path, *options: str) -> str:
    done = run_cli("convert", ["--from", "amr", "--to", "amr", *options, str(path)])
    assert done.code == 0, done.err
    assert done.err == ""
    return done.out


def _bodies(text: str) -> List[str]:
    return ["\n".join(line for line in block.split("\n") if not line.startswith("#"))
            for block in text.strip("\n").split("\n\n") if "(" in block]


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Path]:
    """The shared wsj.amr and its perturbed and merged files, written to a directory."""
    directory = tmp_path_factory.mktemp("penman")
    texts = files(shared_file("data", "wsj", "amr", "wsj.amr"))
    paths = {}
    for name, text in texts.items():
        paths[name] = directory / name
        paths[name].write_text(text, encoding="utf-8")
    return paths


@pytest.mark.parametrize("name", ["wsj.amr", "perturbed.amr", "merged.amr"])
def test_penman_option_gives_penmans_output_byte_for_byte(written: Dict[str, Path], name: str) -> None:
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))["files"][name]
    text = written[name].read_text(encoding="utf-8")
    assert digest(text) == reference["input"], "the perturbed files are no longer those the reference read"
    for options in OPTIONS:
        assert digest(_convert(written[name], "--penman", *options.split())) == reference[options], options


@pytest.mark.parametrize("name", ["perturbed.amr", "merged.amr"])
def test_layout_options_give_penmans_bodies_with_mrps_comments(written: Dict[str, Path], name: str) -> None:
    """Without --penman the bodies are penman's (the comments are the file's, the default indent 6)."""
    for options in (["--indent", "6"], ["--indent", "no", "--compact"]):
        plain = _convert(written[name], *options)
        assert _bodies(plain) == _bodies(_convert(written[name], "--penman", *options))
        assert plain.split("\n")[0] == written[name].read_text(encoding="utf-8").split("\n")[0]
    assert _bodies(_convert(written[name], "--make-variables", "{prefix}{i}")) == \
        _bodies(_convert(written[name], "--penman", "--indent", "6", "--make-variables", "{prefix}{i}"))


REENTRANT = """# ::id r1 ::date 2020 ::snt A reference before the definition.
(b / bring-01 :ARG1 (a / attend-02 :ARG1 p :ARG1-of (n / new-02 :ARG2 p)) :ARG2 (p / problem))
"""


def test_a_reentrant_node_stays_defined_where_the_file_defined_it(tmp_path: Path) -> None:
    source = tmp_path / "in.amr"
    source.write_text(REENTRANT, encoding="utf-8")
    assert _convert(source, "--indent", "no") == (
        "# ::id r1 ::date 2020 ::snt A reference before the definition.\n"
        "(b / bring-01 :ARG1 (a / attend-02 :ARG1 p :ARG1-of (n / new-02 :ARG2 p)) :ARG2 (p / problem))\n\n")


def test_duplicate_triples_and_alignments_as_penman_places_them(tmp_path: Path) -> None:
    source = tmp_path / "in.amr"
    source.write_text("(a / want-01~e.1 :ARG0 (b / boy) :ARG0 b :polarity - :polarity -\n"
                      "   :ARG1~e.3 (g / go-02 :ARG0-of a :ARG0 b))\n", encoding="utf-8")
    assert _convert(source, "--indent", "no") == (
        "(a / want-01~e.1 :ARG0 (b / boy) :ARG0 b :polarity - :polarity - "
        ":ARG1~e.3 (g / go-02 :ARG0-of a :ARG0 b))\n\n")


def test_metadata_as_penman_writes_it(tmp_path: Path) -> None:
    source = tmp_path / "in.amr"
    source.write_text("# a header\n\n" + REENTRANT + "\n(x / x)\n", encoding="utf-8")
    assert _convert(source, "--penman", "--indent", "no") == (
        "# ::snt A reference before the definition.\n# ::date 2020\n# ::id r1\n"  # read from the line's end
        "(b / bring-01 :ARG1 (a / attend-02 :ARG1 p :ARG1-of (n / new-02 :ARG2 p)) :ARG2 (p / problem))\n"
        "\n(x / x)\n")  # no blank line after the last graph; the header comment left out


def test_a_changed_graph_takes_the_options_too() -> None:
    """A graph changed since it was read has no text of the file to lay out: mrp lays it out (a node defined
    at its first mention in node order), with the options and the file's metadata."""
    graphs = mrp.read(REENTRANT, format="amr")
    graphs[0].nodes[-1].label = "issue"
    out = io.StringIO()
    writer("amr")(graphs, out, WriteOptions(penman=Style(indent=None, variables="v{i}", metadata=True)))
    assert out.getvalue() == ("# ::snt A reference before the definition.\n# ::date 2020\n# ::id r1\n"
                              "(v0 / bring-01 :ARG1 (v1 / attend-02 :ARG1 v3 :ARG1-of (v2 / new-02 "
                              ":ARG2 (v3 / issue))) :ARG2 v3)\n")


@pytest.mark.parametrize("form", ["x", "{prefix}{k}", "{"])
def test_make_variables_refuses_a_format_that_cannot_number(tmp_path: Path, form: str) -> None:
    source = tmp_path / "in.amr"
    source.write_text(REENTRANT, encoding="utf-8")
    done = run_cli("convert", ["--to", "amr", "--make-variables", form, str(source)])
    assert done.code == 2 and "--make-variables" in done.err and "Traceback" not in done.err


CASES = [REENTRANT,
         "(a / want-01~e.1 :ARG0 (b / boy) :ARG0 b :polarity - :polarity -\n"
         " :ARG1~e.3 (g / go-02 :ARG0-of a))\n",
         "# ::id a ::x\n(a :ARG0 (b / \"q r\") :mod-of \"s\" :consist-of (c / c :ARG1 a))\n",
         "(m / multi-sentence :snt2 (b / b :ARG0 (a / a)) :snt1 (c / c :ARG0 a :ARG1 (d / d :ARG2 b)))\n"]


@pytest.mark.parametrize("options", OPTIONS)
def test_hand_made_cases_against_penman_itself(tmp_path: Path, options: str) -> None:
    """penman is mrp's dependency: its CLI runs here as ``python -m penman``."""
    source = tmp_path / "in.amr"
    source.write_text("\n".join(CASES), encoding="utf-8")
    expected = subprocess.run([sys.executable, "-m", "penman", *options.split(), str(source)],
                              capture_output=True, text=True, check=True).stdout
    assert _convert(source, "--penman", *options.split()) == expected
