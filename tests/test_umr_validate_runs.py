"""Level 1 of the UMR checks read whole (mrp.validation.umr.blocks.pieces: runs of plain graph and alignment
lines handed over at once) finds what reading the same file a line at a time finds: the same problems (line,
sentence, level, class, test, message), the same last line, and the same sentences of blocks passed on to
the higher levels.  A stream that cannot be read again from its start (a pipe) is read a line at a time, so
it is the oracle here; the files are the shared UMR files, the hand-made ones, and files mutated around
every rule of a plain run (leading and trailing white space of every kind, each line kind's first
characters, non-NFC text, CR and CRLF line ends, a missing last line end, undecodable bytes)."""

from __future__ import annotations

import dataclasses
import io
import random
from pathlib import Path
from typing import Any, List, Tuple

import pytest

from mrp.validation.umr import Checks, check_levels
from mrp.validation.umr.state import State

from conftest import ROOT, shared_path

HAND_MADE = sorted((ROOT / "tests" / "data").rglob("*.umr"))

#: lines meant to sit at the edges of a plain run: some are plain, most only look it
EDGES = ["(", ":", ":1", ":a", "s1x:", "s1x: 1-1 ", "s1x: 1-1\t", "s1x\u00e9: 1-1", "s1x2y: 1-1", "s1:",
         "s: 1-1", "\t(s1 / a)", "\u3000(s1 / a)", "(x)\u00a0", "(x)\x0b", "(x)\x1c", "(x)\x0c", "  ", "\t",
         "", "", "# :: snt3", "# comment", "e\u0301", "Words: a b", "Index: 1 2", "junk line",
         ":ARG0 (s1x / y)", '    :op1 "a#b"', "(a / b) # c", "s2z: 0-0", "S1x: 1-1", "s1X: 1-1",
         "s\u00e91: 1", "x\u2028y", " :ARG1 s1y", "s12ab3: 2-3", "sx: 1-1", "(s1x / cafe\u0301)",
         ':mod "cafe\u0301"']


class Pipe(io.TextIOBase):
    """A text stream read only forward, a line at a time (as a pipe is)."""

    def __init__(self, path: Path) -> None:
        self._inner = open(path, encoding="utf-8")

    def seekable(self) -> bool:
        return False

    def __iter__(self) -> Any:
        return iter(self._inner)

    @property
    def newlines(self) -> Any:
        return self._inner.newlines

    def close(self) -> None:
        self._inner.close()


def _mutated(sources: List[Path], folder: Path, count: int) -> List[Path]:
    bases = [path.read_text(encoding="utf-8").split("\n") for path in sources]
    draw = random.Random(64)
    made = []
    for k in range(count):
        lines = list(draw.choice(bases))[:draw.randint(20, 400)]
        for _ in range(draw.randint(1, 30)):
            at = draw.randrange(len(lines) + 1)
            roll = draw.random()
            if roll < 0.5:
                lines.insert(at, draw.choice(EDGES))
            elif roll < 0.8 and at < len(lines):
                lines[at] += draw.choice([" ", "\t", "\u00a0", "x", ")", " )"])
            elif at < len(lines):
                del lines[at]
        text = "\n".join(lines) + ("\n" if k % 3 else "")
        data = text.replace("\n", ["\n", "\r\n", "\r"][k % 3] if k % 4 == 0 else "\n").encode("utf-8")
        if k % 13 == 5:
            data = data[:len(data) // 2] + b"\xff\xfe" + data[len(data) // 2:]
        path = folder / f"mutated-{k:02d}.umr"
        path.write_bytes(data)
        made.append(path)
    return made


def _checked(source: Any, name: str, level: int, checks: Checks) -> Tuple[Any, ...]:
    state = State(name, level)
    try:
        problems = check_levels(source, level, name, checks, set(), state)
    except UnicodeDecodeError as error:
        return ("cannot be decoded", str(error), state.line)
    finally:
        if not isinstance(source, str):
            source.close()
    blocks = [[(block["line0"], block["comments"], block["lines"]) for block in sentence]
              for sentence in state.sentences]
    return [dataclasses.astuple(problem) for problem in problems], state.line, blocks


def _files(tmp_path: Path) -> List[Path]:
    shared = sorted((shared_path() / "data" / "umr").rglob("*.umr"))
    return [*shared, *HAND_MADE, *_mutated([*shared[:4], *HAND_MADE[:2]], tmp_path, 40)]


@pytest.mark.parametrize("level", [1, 3])
def test_a_file_read_whole_is_checked_as_read_line_by_line(tmp_path: Path, level: int) -> None:
    files = _files(tmp_path)
    with_problems = 0
    for path in files:
        for checks in (Checks(), Checks(inline_comments=True, trailing_whitespace=False)):
            whole = _checked(str(path), str(path), level, checks)
            assert whole == _checked(Pipe(path), str(path), level, checks), (path, checks)
            with_problems += isinstance(whole[0], list) and bool(whole[0])
    assert with_problems > len(files) // 2  # most files have problems to compare


def test_the_mutations_meet_every_kind_of_line_end_and_undecodable_bytes(tmp_path: Path) -> None:
    made = _mutated(HAND_MADE[:2], tmp_path, 40)
    data = [path.read_bytes() for path in made]
    assert any(b"\r\n" in item for item in data) and any(b"\r" in item.replace(b"\r\n", b"") for item in data)
    assert any(not item.endswith(b"\n") for item in data)
    undecodable = [path for path in made if b"\xff\xfe" in path.read_bytes()]
    assert undecodable and all(_checked(str(path), "x", 1, Checks())[0] == "cannot be decoded"
                               for path in undecodable)


def test_a_file_given_open_past_its_start_is_checked_from_there(tmp_path: Path) -> None:
    """A stream handed over after some of its lines were read is checked from where it is, whether it
    decodes or not (a file that cannot be decoded is read again line by line from that point, not from its
    start)."""
    text = HAND_MADE[0].read_text(encoding="utf-8")
    text *= 1 + 65536 // len(text)  # the bytes that cannot be decoded beyond what reading three lines decodes
    files = []
    for k, tail in enumerate([b"", b"\xff\xfe\n(s1 / a)\n"]):
        files.append(tmp_path / f"long-{k}.umr")
        files[-1].write_bytes(text.encode("utf-8") + tail)
    for path in files:
        stream = open(path, encoding="utf-8")
        for _ in range(3):
            stream.readline()
        pipe = Pipe(path)  # the oracle: the same file read a line at a time from the same point
        pipe._inner.seek(stream.tell())
        assert _checked(stream, "x", 1, Checks()) == _checked(pipe, "x", 1, Checks()), path
