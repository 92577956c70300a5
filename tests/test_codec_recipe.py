"""A new codec is its module and one registry line: the README's recipe ("Adding a codec"), registered exactly
as it says, reads, writes and scores through every command that takes a format and through the library; and
the registry gathers every codec module's facts (formats, extensions, content, frameworks) without a
second table anywhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import List

import pytest

import mrp
import mrp.codecs as codecs
from mrp.codecs.base import Codec
from mrp.errors import InputError

from conftest import ROOT

GOLD = "arrows 1: want-01 ARG0 boy, want-01 ARG1 go-02, go-02 ARG0 boy\narrows 2: dog ARG0-of bark-01\n"
SYSTEM = "arrows 1: want-01 ARG0 girl, want-01 ARG1 go-02\narrows 2: dog ARG0-of bark-01\n"


def _recipe() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Adding a codec"):]
    start = section.index("```python\n") + len("```python\n")
    return section[start:section.index("\n```", start)]


@pytest.fixture
def arrows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The README's codec module, with its one line in the registry (as the README says); returns a folder
    holding gold.arrows and system.arrows."""
    (tmp_path / "arrows_recipe.py").write_text(_recipe(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(codecs, "CODECS", [*codecs.CODECS, "arrows_recipe"])
    (tmp_path / "gold.arrows").write_text(GOLD, encoding="utf-8")
    (tmp_path / "system.arrows").write_text(SYSTEM, encoding="utf-8")
    return tmp_path


def test_the_registry_is_one_line_per_codec_module_that_declares_its_facts() -> None:
    import importlib

    for name in codecs.CODECS:
        module = importlib.import_module(name)
        assert isinstance(module.CODEC, Codec) and module.CODEC.formats, name
        assert hasattr(module, "read") or hasattr(module, "write"), name
    assert list(codecs.formats()) == ["mrp", "amr", "umr", "eds", "dm", "psd", "sdp", "dot", "ucca", "conllu",
                                      "ud", "eud", "triples", "generated"]
    assert codecs.implied_framework("psd") == "psd" and codecs.implied_framework("sdp") is None
    assert codecs.implied_framework("nonesuch") is None
    assert "dot" not in codecs.readable() and "eud" in codecs.readable()
    assert codecs.reads_texts_once("amr") and not codecs.reads_texts_once("mrp")
    assert [fmt for fmt in codecs.formats() if codecs.reads_penman(fmt)] == ["amr", "triples", "generated"]
    with pytest.raises(InputError, match="unknown format 'nonesuch'"):
        codecs.reader("nonesuch")


def test_format_inference_is_unchanged_for_the_formats_there_were() -> None:
    """The extension and content rules of every format as they were when the registry held them itself."""
    named = {".mrp": "mrp", ".amr": "amr", ".penman": "amr", ".umr": "umr", ".eds": "eds", ".sdp": "sdp",
             ".dm": "dm", ".psd": "psd", ".dot": "dot", ".gv": "dot", ".xml": "ucca", ".conllu": "conllu",
             ".conll": "conllu", ".XML": "ucca"}
    for extension, fmt in named.items():
        assert codecs.infer_format(f"corpus/file{extension}") == fmt
    assert codecs.infer_format("file.txt", "mrp") == "mrp"
    shown = {"# ::snt1 x\n(a / b)": "umr", "#SDP 2015\n#2001\n1\tx": "sdp", "#20001\n\n1\tPierre": "sdp",
             "#20001\n\nx": None, '{"id": "1"}': "mrp", "{}": "mrp", "{e3:\n": "eds", "{ x": None,
             "# c\n# d\n  (a / b)": "amr", "#" * 20: "umr", "# sentence level graph:\n": "umr", "hello": None,
             "# sent_id = 1\n1\tThe\tthe\tDET": None, "": None}
    for text, fmt in shown.items():
        assert codecs.sniff(text) == fmt, text


def test_a_registered_codec_reads_writes_and_scores_in_the_library(arrows: Path) -> None:
    graphs = mrp.read(arrows / "gold.arrows")
    assert [(g.id, g.framework, len(g.nodes), len(g.edges)) for g in graphs] == [("1", "arrows", 3, 3),
                                                                                 ("2", "arrows", 2, 1)]
    assert codecs.resolve_format(str(arrows / "gold.arrows")) == "arrows"
    unnamed = arrows / "gold.txt"  # no extension: told from the content by the codec's sniff
    unnamed.write_text(GOLD, encoding="utf-8")
    assert codecs.resolve_format(str(unnamed)) == "arrows"
    mrp.write(graphs, str(arrows / "again.arrows"))
    assert (arrows / "again.arrows").read_text(encoding="utf-8") == GOLD
    result = mrp.score(arrows / "gold.arrows", arrows / "system.arrows", metric="smatch")
    # pair 1: instances 3/3 with 2 matching (boy is not girl), top 1/1, relations 3/2 with both matching
    # (a relation's triple names no label); pair 2 whole: 2 instances, a top and a relation
    assert (result.to_dict()["g"], result.to_dict()["s"], result.to_dict()["c"]) == (7 + 4, 6 + 4, 5 + 4)
    assert mrp.score(GOLD, SYSTEM, metric="smatch", format="arrows").f == result.f
    scorer = mrp.Scorer("smatch")
    scorer.update(arrows / "gold.arrows", arrows / "system.arrows")
    assert scorer.compute().f == result.f


def _run(main_body, argv: List[str], capsys: pytest.CaptureFixture[str]) -> str:  # type: ignore[no-untyped-def]
    """What a command's body prints (its stdout, then its stderr) when it succeeds."""
    assert main_body(argv) == 0, capsys.readouterr().err
    printed = capsys.readouterr()
    return printed.out + printed.err


def test_a_registered_codec_goes_through_every_command(arrows: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from mrp.cli import convert, mtool, score, validate

    gold, system = str(arrows / "gold.arrows"), str(arrows / "system.arrows")
    expected = mrp.score(gold, system, metric="smatch").f
    # mrp-score: by the extension, by --format, with --framework naming the codec's framework
    for flags in ([], ["--format", "arrows"], ["--framework", "arrows"]):
        printed = json.loads(_run(score.main_body, ["--score", "smatch", "--quiet", *flags, "--gold", gold,
                                                    system], capsys))
        assert printed["f"] == expected
    # mrp-convert: to MRP and back, by option and by extension
    _run(convert.main_body, ["--from", "arrows", "--to", "mrp", gold, str(arrows / "gold.mrp")], capsys)
    assert [json.loads(line)["framework"] for line in (arrows / "gold.mrp").read_text().splitlines()] == \
        ["arrows", "arrows"]
    _run(convert.main_body, [str(arrows / "gold.mrp"), str(arrows / "back.arrows")], capsys)
    assert (arrows / "back.arrows").read_text(encoding="utf-8") == GOLD
    # mrp-validate
    for flags in ([], ["--format", "arrows"]):
        assert _run(validate.main_body, [*flags, gold], capsys) == f"{gold}: 2 graphs, no problems\n"
    # mrp-mtool: --read names the codec's format
    printed = json.loads(_run(mtool.main_body, ["--read", "arrows", "--score", "smatch", "--gold", gold,
                                                system], capsys))
    assert printed["f"] == expected
