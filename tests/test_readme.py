"""The commands of the README and its guides (docs/guide/), run: each output shown is what the command prints
today.

A block of output in the README follows a marker ``<!-- output of: COMMAND -->``
(an HTML comment, invisible on the rendered page); the command runs from the
repository root and its stdout must equal the block, except the run-dependent
``"time"`` and ``"cpu"`` values.  Every other ``mrp-…`` command in a ``sh`` block
whose files all exist (bundled data, or ``../shared``) must run without a
traceback and with exit status 0 or 1.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from typing import List, Tuple

import pytest

from conftest import ROOT

#: the README and the guides it links (docs/guide/*.md): their commands and outputs alike
README = "\n".join(path.read_text(encoding="utf-8")
                   for path in [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))])
MARKER = re.compile(r"<!-- output of: (.+?) -->\n+```[a-z]*\n(.*?)```", re.S)
RUNNING = re.compile(r'("(?:time|cpu)": )[0-9.e+-]+')
TOOLS = {"mrp-score": "score", "mrp-convert": "convert", "mrp-validate": "validate", "mrp-mtool": "mtool",
         "mrp-umr-compare": "umr_compare", "mrp-evaluate": "evaluate", "mrp-smatch": "smatch"}


def _outputs() -> List[Tuple[str, str]]:
    return MARKER.findall(README)


def _commands() -> List[str]:
    found = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        for line in block.splitlines():
            command = line.split("#")[0].strip()
            if command.split(" ", 1)[0] in TOOLS:
                found.append(command)
    return found


def _run(command: str) -> subprocess.CompletedProcess:
    words = shlex.split(command)
    args = [sys.executable, "-m", f"mrp.cli.{TOOLS[words[0]]}", *words[1:]]
    return subprocess.run(args, capture_output=True, cwd=ROOT, timeout=600, text=True)


def _files_exist(command: str) -> bool:
    paths = [w for w in shlex.split(command)[1:] if not w.startswith("-") and "." in w]
    return bool(paths) and all((ROOT / p).exists() for p in paths)


def test_the_readme_shows_outputs() -> None:
    assert len(_outputs()) >= 3


@pytest.mark.parametrize("command, shown", _outputs(), ids=[c for c, _ in _outputs()])
def test_readme_output_is_true(command: str, shown: str) -> None:
    if "../shared" in command and not (ROOT.parent / "shared").exists():
        pytest.skip("../shared is absent")
    run = _run(command)
    assert run.returncode in (0, 1), run.stderr
    assert RUNNING.sub(r"\1_", run.stdout) == RUNNING.sub(r"\1_", shown)


@pytest.mark.parametrize("command", [c for c in _commands() if _files_exist(c)])
def test_readme_command_runs(command: str) -> None:
    run = _run(command)
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stderr
