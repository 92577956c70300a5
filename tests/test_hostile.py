"""Hostile input: a corpus of nasty files with their documented behaviour, and randomized robustness checks.

Part 1 runs ``mrp-score`` and ``mrp-convert`` on every file of ``tests/nasty`` (listed, with the
behaviour asserted here, in ``tests/nasty/README.md``) and on a few monsters made at test time
(a 50 MB line, 10,000 nested Penman levels, 5,000 nodes).  For each: the exact exit status, one
stderr line per problem naming file, line and graph id, the JSON counts, never a traceback.

Part 2 is property-based (hypothesis): graphs written by every writer and then mutated (bytes
deleted, inserted, replaced, lines cut, doubled, dropped), random MRP JSON objects, Penman, EDS
and SDP token soup.  Reading must raise nothing but a whole-file InputError; every rejected
item is a FormatError with the file and a line of that file; every graph read scores 1.0
against itself and can be written (or refused with a FormatError) by every writer; all metrics
keep p, r and f in [0, 1], score a corpus against itself as 1.0, and swapping gold and system
swaps g with s and p with r.

The CLI runs of part 1 are mostly in-process (``main(argv)`` with stdout and stderr as UTF-8
byte streams, strict and backslashreplace as in a real process) because a subprocess costs about
a second each; the monsters and a few representative cases run as real subprocesses.

The hypothesis budget follows tests/test_oracle.py: deterministic and a few seconds by default;
``MRP_FUZZ=k`` multiplies the examples by 20 k and randomizes (``make fuzz``).
"""

from __future__ import annotations

import io
import json
import re
import resource
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mrp.cli import convert as convert_cli
from mrp.cli import score as score_cli
from mrp.codecs import ReadOptions, WriteOptions, reader, writer
from mrp.codecs.penman import read_string
from mrp.corpora.load import Corpus, read_corpus
from mrp.engine.options import Options
from mrp.engine.pairing import pair
from mrp.errors import FormatError, InputError, MRPError
from mrp.graph import FLAVORS, Edge, Graph, Node, check_references
from mrp.io.source import Line
from mrp.metrics.mrp.pair import score_pair
from mrp.metrics.registry import evaluate as evaluated
from mrp.normalize import normalize_anchors

from conftest import budget, cpu_seconds, run_cli

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_oracle import pairs as oracle_pairs  # noqa: E402

NASTY = Path(__file__).resolve().parent / "nasty"

# --------------------------------------------------------------------------------------------------
# Running the tools


class Run(NamedTuple):
    code: int
    out: str
    err: str

    @property
    def lines(self) -> List[str]:
        return [line for line in self.err.splitlines() if line]

    def json(self) -> Dict[str, Any]:
        return json.loads(self.out)  # type: ignore[no-any-return]


def cli(tool: str, args: Sequence[str]) -> Run:
    """Run a CLI in this process, with stdout/stderr encoded as a real process would (UTF-8)."""
    main = {"score": score_cli.main, "convert": convert_cli.main}[tool]
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True)
    code: Any = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as done:
            code = done.code
    texts = [stream.buffer.getvalue().decode("utf-8") for stream in (out, err)]  # type: ignore[attr-defined]
    return Run(int(code or 0), texts[0], texts[1])


def subprocess_cli(tool: str, args: Sequence[str], stdin: Optional[bytes] = None) -> Run:
    result = run_cli(tool, list(args), stdin)
    return Run(result.code, result.out, result.err)


def sane(run: Run) -> None:
    """What holds for every run on any input: no traceback, no internal error, a known exit status."""
    assert "Traceback" not in run.err, run.err[-3000:]
    assert "internal error" not in run.err, run.err[-3000:]
    assert run.code in (0, 1, 2), run
    for line in run.lines:
        assert len(line) < 1000, f"an error line of {len(line)} characters: {line[:200]}..."


def pattern(template: str, **paths: Path) -> re.Pattern[str]:
    """A stderr line template: ``{gold}``/``{system}``/``{file}`` are paths, ``<*>`` matches anything."""
    parts = template.split("<*>")
    escaped = [re.escape(part) for part in parts]
    text = ".*".join(escaped)
    for name, path in paths.items():
        text = text.replace(re.escape("{" + name + "}"), re.escape(str(path)))
    return re.compile(text)


def assert_lines(run: Run, templates: Sequence[str], **paths: Path) -> None:
    lines = run.lines
    assert len(lines) == len(templates), "\n".join(lines)
    for line, template in zip(lines, templates):
        assert pattern(template, **paths).fullmatch(line), f"{line!r} !~ {template!r}"


TYPES = ("tops", "labels", "properties", "anchors", "edges", "attributes", "all")


def gsc(result: Dict[str, Any]) -> Dict[str, Tuple[int, int, int]]:
    return {key: (result[key]["g"], result[key]["s"], result[key]["c"]) for key in TYPES}


# --------------------------------------------------------------------------------------------------
# Part 1: the nasty corpus


@dataclass
class Case:
    """One mrp-score run on files of tests/nasty and what it must print."""

    gold: str
    system: str
    code: int
    errors: List[str] = field(default_factory=list)
    counts: Optional[Dict[str, int]] = None
    types: Optional[Dict[str, Tuple[int, int, int]]] = None
    args: Tuple[str, ...] = ()


EMPTY = " (scored as an empty graph)"
FATAL = "mrp-score: {gold}: <*> invalid gold graph(s); nothing scored"
NUL = "holds a NUL byte (byte <*> of the line); is the file binary or UTF-16?"
#: Counts of the two sane gold graphs scored against themselves (MRP, AMR, EDS, DM).
PERFECT = {"n": 2, "null": 0, "invalid": 0, "unpaired": 0}
#: A system file whose second graph (g2) could not be read.
SECOND_LOST = {"n": 2, "null": 1, "invalid": 1, "unpaired": 0}
NONE_READ = {"n": 2, "null": 2, "invalid": 1, "unpaired": 0}
TEXT = ("--text", str(NASTY / "text.txt"))


#: the pairing counts' line: a gold graph that no system graph (readable or of unknown id) answers
MISSING = "mrp-score: {system}: paired with {gold}: 1 of 2 gold graph(s) without a system graph <*>"


def _both(name: str, gold: str, system_line: str, gold_line: str, counts: Dict[str, int],
          args: Tuple[str, ...] = ()) -> Dict[str, Case]:
    """A nasty file as the system (one error line, scored) and as the gold (fatal)."""
    told = [MISSING] if counts is NONE_READ else []  # two gold graphs, one unreadable system graph
    return {
        f"{name} as system": Case(gold, name, 0, [*told, "{system}:" + system_line + EMPTY], counts,
                                  args=args),
        f"{name} as gold": Case(name, gold, 2, ["{gold}:" + gold_line, FATAL], args=args),
    }


CASES: Dict[str, Case] = {}
# Truncated files: the cut graph is reported at the line where it is found broken.
CASES.update(_both("truncated.mrp", "gold.mrp", "2: invalid JSON: <*>", "2: invalid JSON: <*>", SECOND_LOST))
# A Penman graph cut before its closing parentheses is closed and read, as the original SMATCH tool
# reads it: a repair, with one warning line, scored (its cut concept "lou" misses "loud").
REPAIRED = "6: graph g2: repaired: closed 2 parentheses left open at the end of the graph (line 10)"
READ = {"n": 2, "null": 0, "invalid": 0, "unpaired": 0}
CASES["truncated.amr as system"] = Case("gold.amr", "truncated.amr", 0, ["{system}:" + REPAIRED], READ,
                                        {"labels": (5, 5, 4)})
CASES["truncated.amr as gold"] = Case("truncated.amr", "gold.amr", 0, ["{gold}:" + REPAIRED], READ,
                                      {"labels": (5, 5, 4)})
CASES.update(_both("truncated.eds", "gold.eds", "9: graph g2: graph has no closing '}'",
                   "9: graph g2: graph has no closing '}'", SECOND_LOST, TEXT))
CASES.update(_both("truncated.dm", "gold.dm", "11: graph g2: token 3 has 6 columns; expected 8 (7 + 1 "
                   "predicates)", "11: graph g2: token 3 <*>", SECOND_LOST, TEXT))
# A lone "{": one invalid item, no graph read.
CASES.update(_both("lone-brace.mrp", "gold.mrp", "1: invalid JSON: Expected object or value",
                   "1: invalid JSON: <*>", NONE_READ))
CASES.update(_both("lone-brace.amr", "gold.amr",
                   "1: graph 0: Penman syntax error (column 1): Expected: LPAREN",
                   "1: graph 0: Penman syntax error <*>", NONE_READ))
CASES.update(_both("lone-brace.eds", "gold.eds", "1: expected '#id' or '{top:', not '{'",
                   "1: expected '#id' or '{top:', not '{'", NONE_READ, TEXT))
CASES.update(_both("lone-brace.dm", "gold.dm",
                   "1: graph 0: token 1 has 1 columns; expected 7 (7 + 0 predicates)",
                   "1: graph 0: token 1 <*>", NONE_READ, TEXT))
# NUL bytes: the line is refused (by mrp.io.source, for every format) and its graph is invalid.
CASES.update(_both("nul.mrp", "gold.mrp", "2: " + NUL, "2: " + NUL, SECOND_LOST))
CASES.update(_both("nul.amr", "gold.amr", "9: graph g2: " + NUL, "9: graph g2: " + NUL, SECOND_LOST))
CASES.update(_both("nul.eds", "gold.eds", "11: graph g2: " + NUL, "11: graph g2: " + NUL, SECOND_LOST, TEXT))
# A byte-order mark inside the file (concatenated files) is not skipped: that line is invalid.
CASES.update(_both("bom-inside.mrp", "gold.mrp", "2: invalid JSON: Expected object or value",
                   "2: invalid JSON: <*>", SECOND_LOST))
# Lone surrogates (JSON escapes of half a UTF-16 pair): invalid graphs, the id shown escaped.
LONE = ("2: graph g2: a string holds the lone surrogate \\ud800, which is not a character",
        "3: graph g3\\udc00: a string holds the lone surrogate \\udc00, which is not a character")
CASES["lone-surrogate.mrp as system"] = Case(
    "gold.mrp", "lone-surrogate.mrp", 0, ["{system}:" + LONE[0] + EMPTY, "{system}:" + LONE[1] + EMPTY],
    {"n": 2, "null": 1, "invalid": 2, "unpaired": 0})
CASES["lone-surrogate.mrp as gold, --trace"] = Case(
    "lone-surrogate.mrp", "gold.mrp", 2, ["{gold}:" + LONE[0], "{gold}:" + LONE[1], FATAL], args=("--trace",))
# Strings IDs in one file, numbers in the other: graph ids compare as text ("1" = 1, "02" != 2);
# node ids must be integers.
CASES["graph ids: strings against numbers"] = Case(
    "ids-strings.mrp", "ids-numbers.mrp", 0,
    [MISSING, "mrp-score: {system}:2: graph 02: no gold graph; not scored"],
    {"n": 2, "null": 1, "invalid": 0, "unpaired": 1, "missing": 1})
CASES["graph ids: numbers against strings"] = Case(
    "ids-numbers.mrp", "ids-strings.mrp", 0,
    [MISSING, "mrp-score: {system}:2: graph 2: no gold graph; not scored"],
    {"n": 2, "null": 1, "invalid": 0, "unpaired": 1, "missing": 1})
STRING_ID = "2: graph 2: node 0: 'id' is \"0\", not an integer"
CASES.update(_both("node-ids-strings.mrp", "ids-strings.mrp", STRING_ID, STRING_ID, SECOND_LOST))
# A 5000-digit anchor in EDS: that graph is invalid (it used to be a ValueError from int()).
CASES["anchors-out-of-range.eds"] = Case(
    "gold.eds", "anchors-out-of-range.eds", 0,
    ["{system}:12: graph g2: node 'e2': anchor has too many digits" + EMPTY], SECOND_LOST,
    {"anchors": (6, 3, 3), "all": (21, 11, 11)}, TEXT)
# Files that read as the sane gold: byte-order mark at the start, CRLF and LF mixed.
SANE_COPIES = ("bom.mrp", "bom.amr", "bom.eds", "bom.dm", "crlf.mrp", "crlf.amr", "crlf.eds", "crlf.dm")
for _name in SANE_COPIES:
    _sane = "gold" + Path(_name).suffix
    CASES[f"{_name} as system"] = Case(_sane, _name, 0, [], PERFECT, args=TEXT)
    CASES[f"{_name} as gold"] = Case(_name, _sane, 0, [], PERFECT, args=TEXT)
CASES["crlf text table"] = Case("gold.eds", "crlf.eds", 0, [], PERFECT,
                                args=("--text", str(NASTY / "crlf.txt")))
# UTF-16: refused as a whole (with a byte-order mark), or line by line (without, as NUL bytes).
for _role in ("gold", "system"):
    _files = ("utf16.mrp", "gold.mrp") if _role == "gold" else ("gold.mrp", "utf16.mrp")
    CASES[f"utf16.mrp as {_role}"] = Case(*_files, 2, [
        "mrp-score: {" + _role + "}: is UTF-16- or UTF-32-encoded (it starts with their byte-order mark); "
        "convert it to UTF-8 first"])
CASES["utf16-nobom.mrp as system"] = Case("gold.mrp", "utf16-nobom.mrp", 0, [
    "{system}:1: " + NUL + EMPTY, "{system}:2: " + NUL + EMPTY, "{system}:3: " + NUL + EMPTY],
    {"n": 2, "null": 2, "invalid": 3, "unpaired": 0})
CASES["utf16-nobom.mrp as gold"] = Case("utf16-nobom.mrp", "gold.mrp", 2, [
    "{gold}:1: " + NUL, "{gold}:2: " + NUL, "{gold}:3: " + NUL, FATAL])
# Penman read as MRP: not one graph is read, and the content shows Penman: refused, naming the fix.
CASES["gold.amr read as MRP"] = Case(
    "gold.mrp", "gold.amr", 2,
    ["mrp-score: {system}: read as mrp, not one graph could be read, and its content looks like amr: name "
     "that format (--format amr; <*>"], args=("--format", "mrp"))
# Scored without complaint, with the counts the MRP metric defines:
CASES["nul-escaped.mrp (a \\u0000 escape is a character)"] = Case(
    "gold.mrp", "nul-escaped.mrp", 0, [], PERFECT, {"labels": (6, 6, 5), "all": (21, 21, 20)})
CASES["astral.mrp against itself"] = Case(
    "astral.mrp", "astral.mrp", 0, [], {"n": 1, "null": 0, "invalid": 0, "unpaired": 0},
    {"labels": (4, 4, 4), "properties": (1, 1, 1), "anchors": (4, 4, 4), "edges": (2, 2, 2),
     "all": (12, 12, 12)})
# Anchors are code points: the same graph anchored in UTF-16 units matches only the first anchor
# (0:2 is the emoji and a space, trimmed to the emoji).
CASES["astral.mrp against UTF-16 offsets"] = Case(
    "astral.mrp", "astral-utf16-offsets.mrp", 0, [], {"n": 1, "null": 0, "invalid": 0, "unpaired": 0},
    {"labels": (4, 4, 4), "anchors": (4, 4, 1), "all": (12, 12, 9)})
# Negative anchors and anchors beyond the input are clamped to the input as the reference trims them;
# a reversed span (10, 5) covers nothing (the node is unanchored); a span beyond the input is
# an empty anchor.  (0, 10**15) used to hang in the anchor union.
CASES["anchors-out-of-range.mrp as system"] = Case(
    "gold.mrp", "anchors-out-of-range.mrp", 0, [], PERFECT, {"anchors": (6, 5, 3), "all": (21, 20, 18)})
CASES["anchors-out-of-range.mrp as gold"] = Case(
    "anchors-out-of-range.mrp", "gold.mrp", 0, [], PERFECT, {"anchors": (5, 6, 3), "all": (20, 21, 18)})
# Graphs without nodes: scored (null, as their system graphs are empty), F = 0 where g = 0.
CASES["zero-nodes.mrp as system"] = Case(
    "gold.mrp", "zero-nodes.mrp", 0, [], {"n": 2, "null": 2, "invalid": 0, "unpaired": 0},
    {"all": (21, 0, 0)})
CASES["zero-nodes.mrp against itself"] = Case(
    "zero-nodes.mrp", "zero-nodes.mrp", 0, [], {"n": 2, "null": 2, "invalid": 0, "unpaired": 0},
    {"all": (0, 0, 0)})
CASES["zero-nodes.mrp as gold"] = Case(
    "zero-nodes.mrp", "gold.mrp", 0, [], PERFECT, {"all": (0, 21, 0)})
# Self-loops and parallel edges: edge tuples are a set after inversion and lowercasing (7 of 10 edges).
CASES["loops.mrp against itself"] = Case(
    "loops.mrp", "loops.mrp", 0, [], {"n": 1, "null": 0, "invalid": 0, "unpaired": 0},
    {"tops": (1, 1, 1), "labels": (0, 0, 0), "anchors": (3, 3, 3), "edges": (7, 7, 7),
     "attributes": (1, 1, 1), "all": (12, 12, 12)})
# Duplicate properties: one tuple per distinct (name, value) after lowercasing (3 of 5).
CASES["duplicate-properties.mrp against itself"] = Case(
    "duplicate-properties.mrp", "duplicate-properties.mrp", 0, [],
    {"n": 1, "null": 0, "invalid": 0, "unpaired": 0}, {"properties": (3, 3, 3), "all": (6, 6, 6)})
# Numbers against strings: compared as lowercased str(): 1 = "1", true = "true", 1.5 = "1.5", 42 = "42",
# but 1.0 != "1" and null ("none") != "null".
CASES["values: strings against numbers"] = Case(
    "values-strings.mrp", "values-numbers.mrp", 0, [], {"n": 1, "null": 0, "invalid": 0, "unpaired": 0},
    {"labels": (1, 1, 1), "properties": (5, 5, 3), "all": (7, 7, 5)})
CASES["values: numbers against strings"] = Case(
    "values-numbers.mrp", "values-strings.mrp", 0, [], {"n": 1, "null": 0, "invalid": 0, "unpaired": 0},
    {"labels": (1, 1, 1), "properties": (5, 5, 3), "all": (7, 7, 5)})


@pytest.mark.parametrize("name", list(CASES))
def test_nasty_file(name: str) -> None:
    case = CASES[name]
    gold, system = NASTY / case.gold, NASTY / case.system
    run = cli("score", [*case.args, "--gold", str(gold), str(system)])
    sane(run)
    assert run.code == case.code, run.err
    assert_lines(run, case.errors, gold=gold, system=system)
    if case.code == 2:
        assert run.out == ""
        return
    result = run.json()
    if case.counts is not None:
        assert {key: result[key] for key in case.counts} == case.counts
    counts = gsc(result)
    for key, expected in (case.types or {}).items():
        assert counts[key] == expected, key
    if case.counts == PERFECT and case.types is None:
        assert result["all"]["f"] == 1.0
    for key in TYPES:
        assert all(0.0 <= result[key][x] <= 1.0 for x in "prf"), key


def test_every_metric_on_out_of_range_anchors() -> None:
    """All five metrics on anchors up to 10**15 and below 0: quick (this used to hang), self = 1.0."""
    path = NASTY / "anchors-out-of-range.mrp"
    start = cpu_seconds()  # CPU time (the machine's load does not stretch it); this used to hang
    run = cli("score", ["--score", "mrp,smatch,edm,sdp,ucca", "--gold", str(path), str(path)])
    sane(run)
    assert run.code == 0 and run.lines == []
    assert cpu_seconds() - start < 30
    result = run.json()
    assert result["mrp"]["all"]["f"] == 1.0 and result["smatch"]["f"] == 1.0
    assert result["edm"]["all"]["f"] == 1.0 and result["sdp"]["labeled"]["f"] == 1.0
    assert normalize_anchors([(0, 10 ** 15)], "abc") == [(0, 3)]
    assert normalize_anchors([(-10 ** 15, 2)], "abc") == [(0, 2)]


#: mrp-convert: (input, extra arguments, exit status, stderr templates).
CONVERT = {
    "truncated.mrp": ("truncated.mrp", ("--to", "mrp"), 1, [
        "{file}:2: invalid JSON: <*> (skipped)", "mrp-convert: 1 graph(s) skipped; 1 converted"]),
    "nul.amr": ("nul.amr", ("--to", "mrp"), 1, [
        "{file}:9: graph g2: " + NUL + " (skipped)", "mrp-convert: 1 graph(s) skipped; 1 converted"]),
    "lone-surrogate.mrp": ("lone-surrogate.mrp", ("--to", "mrp"), 1, [
        "{file}:" + LONE[0] + " (skipped)", "{file}:" + LONE[1] + " (skipped)",
        "mrp-convert: 2 graph(s) skipped; 1 converted"]),
    # A lone-surrogate escape in a quoted Penman constant is kept as written (like any bad escape).
    "lone-surrogate.amr": ("lone-surrogate.amr", ("--to", "mrp"), 0, []),
    "bom.dm": ("bom.dm", ("--to", "eds", *TEXT), 0, []),
    "crlf.eds": ("crlf.eds", ("--to", "amr", *TEXT), 2, [
        "{file}:1: graph g1: cannot be written as Penman: framework eds is not AMR (skipped)",
        "{file}:8: graph g2: cannot be written as Penman: framework eds is not AMR (skipped)",
        "mrp-convert: nothing converted (2 graph(s) skipped)"]),
    "utf16.mrp": ("utf16.mrp", ("--to", "mrp"), 2, [
        "mrp-convert: {file}: is UTF-16- or UTF-32-encoded (it starts with their byte-order mark); "
        "convert it to UTF-8 first"]),
    "zero-nodes.mrp to amr": ("zero-nodes.mrp", ("--to", "amr"), 2, [
        "{file}:1: graph g1: cannot be written as Penman: framework eds is not AMR (skipped)",
        "{file}:2: graph g2: cannot be written as Penman: framework eds is not AMR (skipped)",
        "mrp-convert: nothing converted (2 graph(s) skipped)"]),
    "loops.mrp to dot": ("loops.mrp", ("--to", "dot"), 0, []),
    "astral.mrp to eds": ("astral.mrp", ("--to", "eds"), 0, []),
}


@pytest.mark.parametrize("name", list(CONVERT))
def test_nasty_file_converted(name: str, tmp_path: Path) -> None:
    source, args, code, errors = CONVERT[name]
    path = NASTY / source
    output = tmp_path / "out"
    run = cli("convert", [*args, str(path), str(output)])
    sane(run)
    assert run.code == code, run.err
    assert_lines(run, errors, file=path)
    if name == "lone-surrogate.amr":
        values = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
        assert values[1]["nodes"][2]["values"] == ["x\\ud800y"]


def test_nasty_readme_lists_every_file() -> None:
    """Every file of tests/nasty is documented in its README and used by this module."""
    readme = (NASTY / "README.md").read_text(encoding="utf-8")
    source = Path(__file__).read_text(encoding="utf-8")
    for path in sorted(NASTY.iterdir()):
        if path.name in ("README.md", ".gitattributes"):
            continue
        assert f"`{path.name}`" in readme, f"{path.name} is not described in tests/nasty/README.md"
        assert path.name in source, f"{path.name} is not used by {Path(__file__).name}"


def test_nasty_files_keep_their_bytes() -> None:
    """The corpus relies on exact bytes (CRLF, BOM, NUL); tests/nasty/.gitattributes keeps git off them."""
    assert b"\r\n" in (NASTY / "crlf.mrp").read_bytes()
    assert (NASTY / "bom.mrp").read_bytes().startswith(b"\xef\xbb\xbf")
    assert b"\x00" in (NASTY / "nul.mrp").read_bytes()
    assert "-text" in (NASTY / ".gitattributes").read_text()


def nasty_inputs() -> List[str]:
    """Every graph file of tests/nasty (not the text tables and the README)."""
    return sorted(path.name for path in NASTY.iterdir()
                  if path.suffix in (".mrp", ".amr", ".eds", ".dm"))


@pytest.mark.parametrize("name", nasty_inputs())
def test_every_nasty_file_against_itself(name: str, tmp_path: Path) -> None:
    """Self-comparison with all metrics, --trace and --errors: exit 0 and c = g = s everywhere, or exit 2
    because the file holds an invalid graph (then each stderr line names the file and a line)."""
    path = NASTY / name
    errors = tmp_path / "errors.json"
    run = cli("score", ["--score", "mrp,smatch,edm,sdp,ucca", "--trace", "--errors", str(errors), *TEXT,
                        "--gold", str(path), str(path)])
    sane(run)
    if run.code == 2:
        assert run.out == ""
        for line in run.lines:
            assert line.startswith((f"{path}:", f"mrp-score: {path}: ")), line
        return
    assert run.code == 0 and all(repair_warning(line, path) or unanchored_warning(line)
                                 for line in run.lines), run.err
    json.loads(errors.read_text(encoding="utf-8"))
    for metric, result in run.json().items():
        check_bounds(result)
        for where, item in scores(result):
            if "g" in item:
                assert item["g"] == item["s"] == item["c"], (metric, where, item)


def unanchored_warning(line: str) -> bool:
    """True for EDM's warning that the graphs it scores have unanchored nodes (AMR scored with EDM)."""
    return line.startswith("mrp-score: edm: ") and "have several nodes without anchors" in line


def repair_warning(line: str, path: Path) -> bool:
    """True for the warning of a graph that was read by a repair (the only stderr line with exit 0)."""
    return pattern("{file}:<*>: graph <*>: repaired: <*>", file=path).fullmatch(line) is not None


@pytest.mark.parametrize("name", nasty_inputs())
def test_every_nasty_file_converted_to_every_format(name: str, tmp_path: Path) -> None:
    """Exit 0 (nothing skipped, no stderr but repair warnings), 1 (each problem one '(skipped)' line
    and a summary) or 2."""
    path = NASTY / name
    for target in WRITE_FORMATS:
        run = cli("convert", [*TEXT, "--to", target, str(path), str(tmp_path / f"out.{target}")])
        sane(run)
        problems = [line for line in run.lines if not repair_warning(line, path)]
        if run.code == 0:
            assert problems == [], (target, run.err)
        elif run.code == 1:
            *problems, summary = problems
            assert problems and summary.startswith("mrp-convert: ") and "skipped" in summary, run.err
            for line in problems:
                assert line.startswith(f"{path}:") and line.endswith(" (skipped)"), (target, line)
        elif run.lines[-1].startswith("mrp-convert: nothing converted ("):
            for line in run.lines[:-1]:  # every graph skipped, each with its line
                assert line.startswith(f"{path}:") and line.endswith(" (skipped)"), (target, line)
        else:
            assert len(run.lines) == 1 and run.lines[0].startswith(f"mrp-convert: {path}: "), run.err


# --------------------------------------------------------------------------------------------------
# Part 1b: monsters made at test time


def test_stdin_lone_brace() -> None:
    run = subprocess_cli("convert", ["--from", "mrp", "-"], stdin=b"{\n" + (NASTY / "gold.mrp").read_bytes())
    sane(run)
    assert run.code == 1
    assert_lines(run, ["<stdin>:1: invalid JSON: Expected object or value (skipped)",
                       "mrp-convert: 1 graph(s) skipped; 2 converted"])
    assert [json.loads(line)["id"] for line in run.out.splitlines()] == ["g1", "g2"]


def test_lone_surrogate_in_gold_id_with_trace_in_a_real_process() -> None:
    """Was: 'internal error: UnicodeEncodeError' when the JSON with the id was printed."""
    gold = NASTY / "lone-surrogate.mrp"
    run = subprocess_cli("score", ["--trace", "--gold", str(gold), str(NASTY / "gold.mrp")])
    sane(run)
    assert run.code == 2 and run.out == ""
    assert "graph g3\\udc00: a string holds the lone surrogate \\udc00" in run.err


MB50 = 50 * 1024 * 1024


def test_50mb_line_of_garbage(tmp_path: Path) -> None:
    path = tmp_path / "garbage.mrp"
    path.write_bytes(b"x" * MB50)
    run = subprocess_cli("score", ["--gold", str(path), str(NASTY / "gold.mrp")])
    sane(run)
    assert run.code == 2
    assert_lines(run, ["{gold}:1: invalid JSON: Expected object or value", FATAL], gold=path)


def test_50mb_line_valid_graph(tmp_path: Path) -> None:
    """One 50 MB MRP line (a huge input string) as the system graph g1: read and scored as g1."""
    g1 = json.loads((NASTY / "gold.mrp").read_text(encoding="utf-8").splitlines()[0])
    g1["input"] = g1["input"] + " x" * (MB50 // 2)
    path = tmp_path / "big.mrp"
    path.write_text(json.dumps(g1) + "\n", encoding="utf-8")
    assert path.stat().st_size > MB50
    run = subprocess_cli("score", ["--gold", str(NASTY / "gold.mrp"), str(path)])
    sane(run)
    assert run.code == 0
    assert_lines(run, [MISSING], gold=NASTY / "gold.mrp", system=path)  # g2 has no system graph
    result = run.json()
    assert {key: result[key] for key in PERFECT} == {"n": 2, "null": 1, "invalid": 0, "unpaired": 0}
    assert gsc(result)["anchors"] == (6, 3, 3) and gsc(result)["all"] == (21, 11, 11)


@pytest.mark.parametrize("fmt", ["amr", "mrp", "eds", "dm"])
def test_50mb_token_is_quoted_short(fmt: str, tmp_path: Path) -> None:
    """A huge token or id in a broken graph: the message quotes at most an excerpt of it.

    50 MB for Penman (whose message quoted the whole token); the others take 1 MB, which is as
    telling and keeps the run short."""
    huge = "y" * (MB50 if fmt == "amr" else 2 ** 20)
    path = tmp_path / f"huge.{fmt}"
    text = {
        "amr": f"# ::id g1\n(a / b {huge})\n",
        "mrp": json.dumps({"id": "g1", "nodes": [{"id": huge}]}) + "\n",
        "eds": f"#g1\n{{e:\n e:_a[]\n {huge}:_b[]\n {huge}:_c[]\n}}\n",
        "dm": f"#SDP 2015\n#g1\n{huge}\ta\ta\tN\t+\t+\t_\t_\n",
    }[fmt]
    path.write_text(text, encoding="utf-8")
    corpus = read_corpus(str(path), fmt, ReadOptions(text={"g1": "a"}))
    assert corpus.graphs == [] and len(corpus.errors) == 1
    message = str(corpus.errors[0])
    assert message.startswith(f"{path}:") and "graph g1" in message and len(message) < 400, message[:500]
    del huge, text, corpus


def deep_penman(levels: int) -> str:
    return ("# ::id deep\n# ::snt deep\n" + "".join(f"(v{k} / c{k} :ARG1 " for k in range(levels))
            + "(z / end)" + ")" * levels + "\n")


def test_10000_nested_penman_levels(tmp_path: Path) -> None:
    """Nesting as deep as the node limit allows is read (penman's recursive parser on a thread with a stack
    large enough, mrp.codecs.penman.deep): 10,000 levels score on either side; 200 levels as before."""
    path = tmp_path / "deep.amr"
    path.write_text(deep_penman(10_000), encoding="utf-8")
    gold = tmp_path / "gold.amr"
    gold.write_text("# ::id deep\n(a / b)\n", encoding="utf-8")
    run = cli("score", ["--gold", str(gold), str(path)])
    sane(run)
    assert run.code == 0 and run.json()["invalid"] == 0
    run = cli("score", ["--gold", str(path), str(gold)])
    sane(run)
    assert run.code == 0 and run.json()["invalid"] == 0
    graph = read_string(deep_penman(200))[0]
    assert isinstance(graph, Graph) and len(graph.nodes) == 201
    assert score_pair(graph, graph).counts["all"] == (402, 402, 402)


def test_10000_level_chain_from_mrp(tmp_path: Path) -> None:
    """The same depth as an MRP graph: read fine; as Penman it cannot be written (skipped; nothing
    converted, exit 2)."""
    n = 10_000
    graph = {"id": "deep", "framework": "amr", "tops": [0],
             "nodes": [{"id": k, "label": f"c{k}"} for k in range(n + 1)],
             "edges": [{"source": k, "target": k + 1, "label": "ARG1"} for k in range(n)]}
    path = tmp_path / "deep.mrp"
    path.write_text(json.dumps(graph) + "\n", encoding="utf-8")
    run = cli("convert", ["--to", "amr", str(path), str(tmp_path / "deep.amr")])
    sane(run)
    assert run.code == 2
    assert_lines(run, ["{file}:1: graph deep: cannot be written as Penman: graph is nested too deeply "
                       "(skipped)", "mrp-convert: nothing converted (1 graph(s) skipped)"], file=path)
    run = cli("convert", ["--to", "mrp", str(path), str(tmp_path / "again.mrp")])
    sane(run)
    assert run.code == 0 and run.lines == []


def test_deeply_nested_json(tmp_path: Path) -> None:
    path = tmp_path / "deep.mrp"
    path.write_text(json.dumps({"id": "g1", "nodes": []})[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000
                    + "}\n", encoding="utf-8")
    run = cli("score", ["--gold", str(NASTY / "gold.mrp"), str(path)])
    sane(run)
    assert_lines(run, [MISSING, "{system}:1: invalid JSON: Reached object decoding depth limit" + EMPTY],
                 gold=NASTY / "gold.mrp", system=path)


def test_huge_node_id_to_sdp(tmp_path: Path) -> None:
    """A node id of 10**9 is no token index: refused (it used to write a billion filler rows)."""
    graph = {"id": "g1", "framework": "dm", "input": "a b", "tops": [0],
             "nodes": [{"id": 0, "label": "a"}, {"id": 10 ** 9, "label": "b"}],
             "edges": [{"source": 0, "target": 10 ** 9, "label": "ARG1"}]}
    path = tmp_path / "big.mrp"
    path.write_text(json.dumps(graph) + "\n", encoding="utf-8")
    run = cli("convert", ["--to", "dm", str(path), str(tmp_path / "big.sdp")])
    sane(run)
    assert run.code == 2
    assert_lines(run, ["{file}:1: graph g1: cannot be written as SDP: node id 1000000000 is not a token "
                       "index (at most 100,000 tokens) (skipped)",
                       "mrp-convert: nothing converted (1 graph(s) skipped)"], file=path)


def big_graph(n: int) -> Dict[str, Any]:
    """n anchored nodes with distinct labels, a ring of edges with distinct labels (cheap to self-score)."""
    words = [f"w{k}" for k in range(n)]
    starts = [0]
    for word in words[:-1]:
        starts.append(starts[-1] + len(word) + 1)
    return {"id": "big", "framework": "eds", "input": " ".join(words), "tops": [0],
            "nodes": [{"id": k, "label": f"l{k}", "anchors": [{"from": s, "to": s + len(w)}]}
                      for k, (s, w) in enumerate(zip(starts, words))],
            "edges": [{"source": k, "target": (k + 1) % n, "label": f"e{k}"} for k in range(n)]}


def test_5000_nodes(tmp_path: Path) -> None:
    """5,000 nodes against themselves, with --limit: exact, F = 1.  (About 3 s and 0.75 GB peak RSS,
    mostly the dense 5,000 x 5,000 node-pair arrays; see the report for graphs with repeated labels.)"""
    path = tmp_path / "big.mrp"
    path.write_text(json.dumps(big_graph(5000)) + "\n", encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.time()
    run = subprocess_cli("score", ["--limit", "1000", "--gold", str(path), str(path)])
    elapsed = time.time() - start
    sane(run)
    assert run.code == 0 and run.lines == []
    result = run.json()
    assert result["n"] == 1 and result["exact"] == 1
    assert gsc(result)["all"] == (15001, 15001, 15001)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"5,000 nodes: {elapsed:.1f} s, peak RSS of children {max(peak, before) / 1024:.0f} MB")


# --------------------------------------------------------------------------------------------------
# Output files that cannot be written: one plain line, exit 2.


def test_score_unwritable_output_is_a_plain_error(tmp_path: Path) -> None:
    gold = str(NASTY / "gold.mrp")
    run = cli("score", ["--output", str(tmp_path / "missing" / "out.json"), "--gold", gold, gold])
    assert run.code == 2
    sane(run)


def test_convert_unwritable_output_is_a_plain_error(tmp_path: Path) -> None:
    run = cli("convert", [str(NASTY / "gold.mrp"), str(tmp_path)])
    assert run.code == 2
    sane(run)


# --------------------------------------------------------------------------------------------------
# Part 2: property-based robustness



READ_FORMATS = ("mrp", "amr", "eds", "dm")
WRITE_FORMATS = ("mrp", "amr", "eds", "dm", "psd", "dot")

#: Token forms: plain, astral, quotes and brackets (SDP anchoring variants), Penman and EDS syntax.
FORMS = ["The", "cat", "sat", ".", "\U0001F600", "na\u00efve", "\U0001D11E", "``", "''", "(", "-LRB-", "--",
         "a:b", "x/y", "\"q\"", "[", "{", ",", "\u00a0", "42", "-"]
LABELS = ["_the_q", "cat", "sit-01", "\U0001F600", "a b", "\"q\"", "x:y", "42", "(", "", "#1", "a\\b", None]
PROPERTIES = [("pos", "NN"), ("frame", "n:x"), ("carg", "Pierre"), ("NUM", "pl"), ("op1", 5),
              ("polarity", "-"), ("quant", 1.5), ("mode", "imperative"), ("value", "New York"),
              ("name", "\U0001F600"), ("x", True), ("pos", "VB")]
EDGE_LABELS = ["ARG1", "ARG2", "BV", "mod", "ARG1-of", "A", "op1", "consist-of", "", None, "a b", "x:y"]
GRAPH_IDS = ["g1", "1", "20001001", "\U0001F600", "a b", "#x", "-1"]


#: What most writers accept: edge labels that are symbols, properties SDP can hold.
FRIENDLY_EDGE_LABELS = ["ARG1", "ARG2", "BV", "mod", "ARG1-of", "op1", "consist-of"]
FRIENDLY_PROPERTIES = [("pos", "NN"), ("frame", "n:x"), ("pos", "VB")]


@st.composite
def token_graphs(draw: st.DrawFn, framework: Optional[str] = None) -> Graph:
    """A graph over a tokenized input whose node ids are token indices.

    Two times in three "friendly" (one top, symbol edge labels, pos/frame properties), so that
    the Penman, EDS and SDP writers accept it; else anything goes."""
    friendly = draw(st.sampled_from([True, True, False]))
    names = PROPERTIES
    if friendly:
        names = FRIENDLY_PROPERTIES if framework in ("dm", "psd") else PROPERTIES[:6]
    forms = draw(st.lists(st.sampled_from(FORMS), min_size=1, max_size=6))
    text = " ".join(forms)
    spans, cursor = [], 0
    for form in forms:
        spans.append((cursor, cursor + len(form)))
        cursor += len(form) + 1
    ids = draw(st.lists(st.integers(0, len(forms) - 1), unique=True, max_size=len(forms)))
    nodes = []
    for node_id in sorted(ids):
        properties = draw(st.lists(st.sampled_from(names), max_size=2))
        anchors = draw(st.sampled_from([[spans[node_id]], [spans[node_id]], None, [(-3, 2)], [(1, 10 ** 12)],
                                        [spans[node_id], spans[0]]]))
        nodes.append(Node(node_id, draw(st.sampled_from(LABELS[:-1] if friendly else LABELS)),
                          [name for name, _ in properties], [value for _, value in properties], anchors))
    edges = []
    if nodes:
        for _ in range(draw(st.integers(0, 2 * len(nodes)))):
            source, target = draw(st.sampled_from(nodes)).id, draw(st.sampled_from(nodes)).id
            attributes = draw(st.sampled_from([[], [], [("remote", True)], [("remote", "false")]]))
            if friendly:
                attributes = []
            label = draw(st.sampled_from(FRIENDLY_EDGE_LABELS if friendly else EDGE_LABELS))
            edges.append(Edge(source, target, label, attributes=[name for name, _ in attributes],
                              values=[value for _, value in attributes]))
    tops = [draw(st.sampled_from(nodes)).id for _ in range(draw(st.integers(0, 1 if friendly else 2)))
            if nodes]
    if framework is None:
        framework = draw(st.sampled_from(["amr", "eds", "dm", "psd", "ucca", None]))
    return Graph(id=draw(st.sampled_from(GRAPH_IDS)), framework=framework, input=text, tops=tops, nodes=nodes,
                 edges=edges)


#: Bytes a mutation may insert: syntax of every format, line breaks, NUL, BOM, invalid UTF-8,
#: an encoded surrogate, astral characters, escapes, huge and odd numbers.
NASTY_BYTES = [b"{", b"}", b"(", b")", b"[", b"]", b":", b"/", b'"', b"\\", b",", b"\t", b"\n", b"\r\n",
               b"\r", b"\x00", b"\xef\xbb\xbf", b"\xff", b"\xed\xa0\x80", "\U0001F600".encode(), b"\\ud800",
               b"#", b" ", b"-1", b"99999999999999999999999", b"1e999", b"null", b"true", b"<", b">",
               b"_", b"+", b"~e.1", b":ARG0", b"/ x", b"\n\n", b"#SDP 2015\n", b"{e:\n", b"\n}\n",
               b"# ::id z\n"]
MUTATION = st.tuples(
    st.sampled_from(["delete", "insert", "replace", "truncate", "double line", "drop line", "swap lines"]),
    st.integers(0, 10 ** 6), st.integers(0, len(NASTY_BYTES) - 1))


def mutate(data: bytes, mutations: Sequence[Tuple[str, int, int]]) -> bytes:
    for kind, where, what in mutations:
        at = where % (len(data) + 1)
        if kind == "delete":
            data = data[:at] + data[at + 1 + what % 20:]
        elif kind == "insert":
            data = data[:at] + NASTY_BYTES[what] + data[at:]
        elif kind == "replace":
            data = data[:at] + NASTY_BYTES[what] + data[at + 1:]
        elif kind == "truncate":
            data = data[:at]
        else:
            lines = data.split(b"\n")
            k, j = where % len(lines), what % len(lines)
            if kind == "double line":
                lines.insert(k, lines[k])
            elif kind == "drop line":
                del lines[k]
            else:
                lines[k], lines[j] = lines[j], lines[k]
            data = b"\n".join(lines)
    return data


def write_text(graphs: Sequence[Graph], fmt: str) -> Tuple[str, List[FormatError]]:
    """Graphs written in a format; graphs the format cannot hold are left out (their errors returned)."""
    refused: List[FormatError] = []
    stream = io.StringIO()
    writer(fmt)(graphs, stream, WriteOptions(skipped=refused.append))
    for error in refused:
        assert isinstance(error, FormatError) and error.graph_id is not None, error
    text = stream.getvalue()
    text.encode("utf-8")  # a writer never produces text that cannot be saved
    return text, refused


def check_errors(errors: Sequence[FormatError], name: str, line_count: int) -> None:
    """Every rejected item names the file and one of its lines, in one line of text."""
    for error in errors:
        assert isinstance(error, FormatError), error
        assert error.file == name, (error.file, name)
        assert isinstance(error.line, int) and 1 <= error.line <= line_count, (line_count, str(error))
        assert error.graph_id is None or isinstance(error.graph_id, str)
        message = str(error)
        assert message.startswith(f"{name}:{error.line}: ")
        assert "\n" not in message and len(message) < 1000, message[:300]
        message.encode("utf-8", "backslashreplace")


def check_graph(graph: Graph) -> None:
    """A graph read from anywhere: consistent, scores 1.0 against itself, writable or refused cleanly."""
    assert isinstance(graph, Graph) and isinstance(graph.id, str)
    assert check_references(graph) is None
    if len(graph.nodes) <= 40:
        result = score_pair(graph, graph)
        assert result.exact
        for key, (g, s, c) in result.counts.items():
            assert g == s == c, (key, result.counts[key])
    for fmt in WRITE_FORMATS:
        write_text([graph], fmt)


def read_all(data: bytes, directory: Path, table: Dict[str, str]) -> None:
    """Read bytes with every reader: nothing but a whole-file InputError escapes; check what comes out."""
    path = directory / "input"
    path.write_bytes(data)
    line_count = data.count(b"\n") + 1
    for fmt in READ_FORMATS:
        try:
            corpus = read_corpus(str(path), fmt, ReadOptions(text=table))
        except InputError as error:
            assert str(path) in str(error)
            continue
        check_errors(corpus.errors, str(path), line_count)
        for graph in corpus.graphs:
            assert graph.line is None or 1 <= graph.line <= line_count
            check_graph(graph)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile")


FORMAT_FRAMEWORK = {"mrp": None, "amr": "amr", "eds": "eds", "dm": "dm", "psd": "psd"}


@budget(100)
@given(st.sampled_from(sorted(FORMAT_FRAMEWORK)), st.data(), st.lists(MUTATION, max_size=4))
def test_written_then_mutated_files(scratch: Path, fmt: str, data: st.DataObject,
                                    mutations: List[Tuple[str, int, int]]) -> None:
    graphs = data.draw(st.lists(token_graphs(FORMAT_FRAMEWORK[fmt]), min_size=1, max_size=3))
    for k, graph in enumerate(graphs):
        graph.id = f"{graph.id}-{k}"
    text, _ = write_text(graphs, fmt)
    table = {graph.id: graph.input or "" for graph in graphs}
    read_all(mutate(text.encode("utf-8"), mutations), scratch, table)


@budget(40)
@given(st.lists(st.sampled_from(sorted(FLAVORS)).flatmap(token_graphs), min_size=1, max_size=3))
def test_writers_round_trip_through_mrp(graphs: List[Graph]) -> None:
    """Whatever the writers accept, the MRP reader reads back to the same normalized counts.

    The graphs name a framework: the MRP reader rejects a graph without one.
    """
    text, refused = write_text(graphs, "mrp")
    assert refused == []
    lines = [Line(k, line) for k, line in enumerate(text.split("\n"), start=1)]
    back = list(reader("mrp")(lines, "<string>", ReadOptions()))
    assert len(back) == len(graphs)
    for before, after in zip(graphs, back):
        assert isinstance(after, Graph), str(after)
        assert score_pair(before, after).counts == score_pair(before, before).counts
    for fmt in WRITE_FORMATS:
        write_text(graphs, fmt)


#: JSON values shaped like MRP graphs: the keys of the format, values of every JSON type.
JSON_KEYS = ["id", "framework", "input", "tops", "nodes", "edges", "label", "properties", "values",
             "anchors", "from", "to", "source", "target", "attributes", "normal", "flavor", "time",
             "version", "anchorings", "targets", "language"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 5), st.sampled_from([10 ** 20, -10 ** 15, 1.5]),
                    st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from(["a", "", "0", "\U0001F600", "ARG1", "x y", "\x00", "\ud800", "\udc00x"]))


def json_containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.lists(children, max_size=4),
                     st.dictionaries(st.sampled_from(JSON_KEYS), children, max_size=5))


JSON_VALUES = st.recursive(SCALARS, json_containers, max_leaves=25)


#: Strings for labels, values, ids and inputs (a lone surrogate among them), and sometimes anything.
WORDS = ["a", "b", "ARG1", "The cat sat.", "", "x y", "\U0001F600", "\x00", "New York", "42", "-", "_"]
TEXTS = st.one_of(st.sampled_from(WORDS * 4 + ["\ud800"]), st.integers(-1, 9), SCALARS)


@st.composite
def mrp_objects(draw: st.DrawFn) -> Any:
    """Graphs that are mostly valid (node ids 0..n-1, edges and tops among them, parallel lists of
    equal length), one time in three with a random field replaced, and sometimes any JSON value."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(JSON_VALUES)
    count = draw(st.integers(0, 4))
    ids = st.sampled_from(list(range(count)) * 4 + [-1, count])  # mostly nodes that exist
    nodes: List[Dict[str, Any]] = []
    for k in range(count):
        node: Dict[str, Any] = {"id": k}
        if draw(st.booleans()):
            node["label"] = draw(TEXTS)
        names = draw(st.lists(st.sampled_from(["pos", "NUM", "carg", "x"]), max_size=3))
        if names:
            node["properties"], node["values"] = names, [draw(TEXTS) for _ in names]
        if draw(st.booleans()):
            node["anchors"] = [{"from": draw(st.integers(-3, 14)), "to": draw(st.integers(-3, 14))}
                               for _ in range(draw(st.integers(0, 2)))]
        nodes.append(node)
    edges: List[Dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 2 * count))):
        edge: Dict[str, Any] = {"source": draw(ids), "target": draw(ids), "label": draw(TEXTS)}
        if draw(st.booleans()):
            edge["attributes"], edge["values"] = ["remote"], [draw(st.sampled_from([True, False, "true"]))]
        edges.append(edge)
    obj: Dict[str, Any] = {"id": draw(st.sampled_from(["g1", 7, "7", "g1", 7, "7", "\U0001F600", "", None])),
                           "framework": draw(st.sampled_from(["eds", "amr", "dm", "ucca", None])),
                           "input": draw(TEXTS), "tops": draw(st.lists(ids, max_size=2)) if count else [],
                           "nodes": nodes, "edges": edges}
    if kind <= 2:
        where = draw(st.sampled_from(["graph"] + ["node"] * bool(nodes) + ["edge"] * bool(edges)))
        target = obj if where == "graph" else draw(st.sampled_from(nodes if where == "node" else edges))
        target[draw(st.sampled_from(JSON_KEYS))] = draw(JSON_VALUES)
    elif kind == 3:  # a lone surrogate in an otherwise valid place
        target = draw(st.sampled_from([obj] + nodes))
        target["label" if "nodes" not in target else "input"] = draw(st.sampled_from(["\ud800", "a\udfffb"]))
    return obj


@budget(60)
@given(st.lists(mrp_objects(), min_size=1, max_size=4), st.lists(MUTATION, max_size=2))
def test_random_mrp_lines(scratch: Path, objects: List[Any], mutations: List[Tuple[str, int, int]]) -> None:
    # (a lone surrogate is written as its JSON escape, or, without ensure_ascii, as bytes that are no UTF-8)
    text = "\n".join(json.dumps(obj, ensure_ascii=bool(len(objects) % 2)) for obj in objects)
    data = text.encode("utf-8", "surrogatepass")
    read_all(mutate(data, mutations), scratch, {"g1": "The cat sat."})


PENMAN_TOKENS = ["(", ")", "(", ")", "/", ":ARG0", ":ARG1-of", ":op1", ":mod", ":", "a", "b", "a2", "cat",
                 "-", "+", "5", "1.5", '"New York"', '"x\\"y"', '"\\ud800"', "~e.1", "a~e.2", "\n", " ",
                 "# ::id g1 ::snt x", "# ::snt The cat", "#", "\U0001F600", ":wiki", '"', "//", "::", "\t"]
EDS_TOKENS = ["#g1", "{e:", "{:", "}", "\n", " ", "e:", "x:", "_1:", "_a_q", "_cat_n_1", "<0:3>", "<-1:99>",
              "<5:2>", '("Pierre")', "{x NUM sg}", "{e SF prop, TENSE}", "[]", "[ARG1 x]", "[BV e, ARG2 x]",
              "[ARG1 zz]", "|", ",", '"quoted label"', "<0:99999999999999999999999>"]
SDP_CELLS = ["1", "2", "3", "0", "x", "The", "cat", ".", "_", "+", "-", "NN", "q:i-h-h", "ARG1", "BV", "",
             "\U0001F600"]


@budget(150)
@given(st.lists(st.sampled_from(PENMAN_TOKENS), max_size=30), st.lists(MUTATION, max_size=2))
def test_random_penman(scratch: Path, tokens: List[str], mutations: List[Tuple[str, int, int]]) -> None:
    data = ("# ::id g1\n" + " ".join(tokens) + "\n").encode("utf-8")
    read_all(mutate(data, mutations), scratch, {"g1": "The cat sat."})


@budget(150)
@given(st.lists(st.sampled_from(EDS_TOKENS), max_size=30), st.lists(MUTATION, max_size=2))
def test_random_eds(scratch: Path, tokens: List[str], mutations: List[Tuple[str, int, int]]) -> None:
    data = ("#g1\n{e:\n " + "".join(tokens) + "\n}\n").encode("utf-8")
    read_all(mutate(data, mutations), scratch, {"g1": "The cat sat."})


@budget(150)
@given(st.lists(st.lists(st.sampled_from(SDP_CELLS), min_size=1, max_size=10), max_size=5),
       st.lists(MUTATION, max_size=2))
def test_random_sdp(scratch: Path, rows: List[List[str]], mutations: List[Tuple[str, int, int]]) -> None:
    data = ("#SDP 2015\n#g1\n" + "\n".join("\t".join(row) for row in rows) + "\n").encode("utf-8")
    read_all(mutate(data, mutations), scratch, {"g1": "The cat sat."})


# --------------------------------------------------------------------------------------------------
# Part 2b: metric properties on random graph pairs

METRICS = ("mrp", "smatch", "edm", "sdp", "ucca")


def evaluate(metric: str, golds: Sequence[Graph], systems: Sequence[Graph]) -> Dict[str, Any]:
    pairing = pair(Corpus("gold", "mrp", list(golds)), Corpus("system", "mrp", list(systems)))
    result, _ = evaluated(metric, pairing, Options())
    return result


def scores(result: Any, where: str = "") -> Iterator[Tuple[str, Dict[str, Any]]]:
    """Every dict in a result that holds a p, r or f (with its path), skipping per-item traces."""
    if isinstance(result, dict):
        if any(key in result for key in ("p", "r", "f")):
            yield where, result
        for key, value in result.items():
            if key != "scores":
                yield from scores(value, f"{where}.{key}")


def check_bounds(result: Dict[str, Any]) -> None:
    for where, item in scores(result):
        for key in ("p", "r", "f"):
            values = item.get(key, [])
            for value in values if isinstance(values, list) else [values]:
                assert 0.0 <= value <= 1.0, (where, key, value)
        if "g" in item:
            assert 0 <= item["c"] <= min(item["g"], item["s"]), (where, item)


def numbered(graphs: Sequence[Graph]) -> List[Graph]:
    for k, graph in enumerate(graphs):
        graph.id = str(k)
        graph.framework = "eds"
    return list(graphs)


#: Pairs from the oracle tests (shared input, tricky structure) or two token graphs (odd anchors, labels,
#: values; each with its own input).
GRAPH_PAIRS = st.one_of(oracle_pairs(max_nodes=5), st.tuples(token_graphs("eds"), token_graphs("eds")))


@budget(100)
@given(st.lists(GRAPH_PAIRS, min_size=1, max_size=3))
def test_metrics_bounds_self_and_swap(graph_pairs: List[Tuple[Graph, Graph]]) -> None:
    golds = numbered([gold for gold, _ in graph_pairs])
    systems = numbered([system for _, system in graph_pairs])
    for metric in METRICS:
        forward, backward = evaluate(metric, golds, systems), evaluate(metric, systems, golds)
        check_bounds(forward)
        check_bounds(backward)
        # Swapping gold and system swaps g with s and p with r; c and f stay.
        there, back = dict(scores(forward)), dict(scores(backward))
        assert there.keys() == back.keys(), metric
        # (MRP: only for "all"; the optimal correspondence may split a tie between types differently.)
        for where, item in there.items():
            other = back[where]
            if "g" in item:
                assert (item["g"], item["s"]) == (other["s"], other["g"]), (metric, where)
                if metric == "mrp" and where != ".all":
                    continue
                assert item["c"] == other["c"], (metric, where)
                assert (item["p"], item["r"]) == (other["r"], other["p"]), (metric, where, item, other)
                assert item["f"] == pytest.approx(other["f"], abs=1e-12), (metric, where)
        # A corpus against itself: every c = g = s, so every defined p, r, f is 1.
        for graphs in (golds, systems):
            for where, item in scores(evaluate(metric, graphs, graphs)):
                if "g" in item:
                    assert item["g"] == item["s"] == item["c"], (metric, where, item)
                    if item["g"]:
                        assert item["p"] == item["r"] == item["f"] == 1.0, (metric, where, item)


def test_mrp_error_classes() -> None:
    """What the readers may raise at all: every error of the library is an MRPError."""
    assert issubclass(FormatError, MRPError) and issubclass(InputError, MRPError)
    assert str(FormatError("m", "f", 3, "x" * 10_000)).startswith("f:3: graph " + "x" * 240 + "...: m")


def test_excerpt_is_one_line() -> None:
    from mrp.errors import excerpt

    assert excerpt("abc") == "abc"
    assert excerpt("a" * 100) == "a" * 60 + "..."
    assert "\n" not in excerpt("a\nb\rc")
