"""Lines end at "\\n" only: a quoted Penman constant holding U+2028, U+2029, U+0085, a form feed, a vertical
tab or a lone carriage return is one constant (as the original SMATCH tool reads it), in AMR and in UMR; the
Penman writer writes such values so that they read back; a ``::snt`` keeps them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import mrp
from mrp.codecs.penman.parse import mask, parse, unmask

SEPARATORS = ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\r", "\x1c", "\x1e"]


@pytest.mark.parametrize("separator", SEPARATORS)
def test_a_quoted_constant_with_a_separator_is_one_value(separator: str) -> None:
    text = f'# ::id 1\n(a / name :op1 "Ann{separator}Lee" :op2 (b / dog :mod "x{separator}{separator}y"))\n'
    [graph] = mrp.read(text, format="amr")
    values = sorted(value for node in graph.nodes for value in (node.values or []))
    assert values == [f"Ann{separator}Lee", f"x{separator}{separator}y"]
    assert [node.label for node in graph.nodes] == ["name", "dog"]


@pytest.mark.parametrize("separator", SEPARATORS)
def test_the_written_penman_reads_back_as_itself(separator: str) -> None:
    [graph] = mrp.read(f'(a / name :op1 "Ann{separator}Lee" :op2 "{separator}")', format="amr")
    graph.input = f"one{separator}two\tthree"
    text = mrp.write([graph], format="amr")
    assert text is not None
    [back] = mrp.read(text, format="amr")
    assert back.input == (graph.input if separator != "\r" else "one two\tthree")  # "\r" ends a line
    assert [(n.label, n.properties, n.values) for n in back.nodes] == \
        [(n.label, n.properties, n.values) for n in graph.nodes]


def test_a_line_break_in_the_sentence_becomes_a_space() -> None:
    [graph] = mrp.read("(a / dog)", format="amr")
    graph.input = "  one\r\ntwo \n three  "
    [back] = mrp.read(mrp.write([graph], format="amr") or "", format="amr")
    assert back.input == "one two three"


def test_a_symbol_with_a_separator_is_quoted_when_written() -> None:
    [graph] = mrp.read('(a / name :op1 "x")', format="amr")
    graph.nodes[0].values = [mrp.codecs.penman.Symbol("p\u2028q")]
    [back] = mrp.read(mrp.write([graph], format="amr") or "", format="amr")
    assert back.nodes[0].values == ["p\u2028q"]


def test_separators_outside_strings_stay_white_space() -> None:
    [graph] = mrp.read('(a / dog\u2028:mod\x0c(b / big))', format="amr")
    assert [node.label for node in graph.nodes] == ["dog", "big"]


def test_mask_keeps_columns_and_unmask_restores_every_text() -> None:
    text = '(a / name :op1 "A\u2028B" :op2 (b / p :op3 "C\x85D\x0c") :op4 e)'
    masked, table = mask(text)
    assert len(masked) == len(text) and "\u2028" not in masked and "\x85" not in masked
    node = parse(masked)
    assert node is not None
    assert unmask(node, table) == ("a", [("/", "name"), (":op1", '"A\u2028B"'),
                                         (":op2", ("b", [("/", "p"), (":op3", '"C\x85D\x0c"')])),
                                         (":op4", "e")])
    assert mask("(a / b)") == ("(a / b)", {})


def test_mask_takes_stand_ins_the_text_does_not_hold() -> None:
    text = '(a / name :op1 "\U000f0000\u2028")'
    masked, table = mask(text)
    assert "\U000f0000" not in table and unmask(parse(masked), table)[1][1] == (":op1", '"\U000f0000\u2028"')


def test_mrp_score_takes_the_graph_as_gold(tmp_path: Path) -> None:
    path = tmp_path / "sep.amr"
    path.write_text('# ::id 1\n# ::snt a\u2028b\n'
                    '(a / name :op1 "Ann\u2028Lee" :op2 "x\x0cy" :op3 "p\x85q")\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mrp.cli.score", "--score", "smatch", "--gold", str(path),
                           str(path)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["f"] == 1.0 and result["g"] == 5 and result["invalid"] == 0
    converted = subprocess.run([sys.executable, "-m", "mrp.cli.convert", "--to", "amr", str(path)],
                               capture_output=True, text=True, timeout=600)
    assert converted.returncode == 0, converted.stderr
    [back] = mrp.read(converted.stdout, format="amr")
    assert back.input == "a\u2028b" and back.nodes[0].values == ["Ann\u2028Lee", "x\x0cy", "p\x85q"]


UMR = """# meta-info :: sent_id = u_tree-cs-s1-root
# :: snt1
Index: 1 2
Words: Ann Lee

# sentence level graph:
(s1p / person
    :name (s1n / name :op1 "Ann{0}Lee"))

# alignment:
s1p: 1-2

# document level annotation:
(s1s0 / sentence)

"""


@pytest.mark.parametrize("separator", ["\u2028", "\x85", "\x0c"])
def test_a_umr_constant_with_a_separator_is_one_value(separator: str) -> None:
    [graph] = mrp.read(UMR.format(separator), format="umr")
    assert [node.values for node in graph.nodes] == [None, [f"Ann{separator}Lee"]] or \
        [node.values for node in graph.nodes] == [[], [f"Ann{separator}Lee"]]


def test_a_raw_control_character_does_not_stop_escapes_being_decoded() -> None:
    [graph] = mrp.read('(a / name :op1 "x\x0c\\"y" :op2 "x\\"y")', format="amr")
    assert graph.nodes[0].values == ['x\x0c"y', 'x"y']
