"""A participant's check before uploading (``mrp-evaluate --task TASK --check SUBMISSION [--input DIR]``):
what the task's rules require of a submission, in one report, with no gold.

- the submission unpacks safely (the evaluation's own rules, :mod:`mrp.task.unpack`);
- every file is named as the task requires (its pattern), and with the test input folder given, the files
  are exactly the input's (none missing, none extra);
- every file passes validation at the task's level (for DMR 2026 level 1: every sentence with its four
  blocks), read as the evaluation reads it (a byte order mark or CRLF line ends as ``compare_umr.pl``
  reads them);
- for a UMR task with the test input given, each file has the input's sentences, in order, each with the
  input's tokens (its ``Words:`` line), token for token.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from mrp.errors import InputError
from mrp.task.definition import Task
from mrp.task.escape import visible
from mrp.task.unpack import as_compared, unpack
from mrp.validation import validate_file

__all__ = ["Check", "check", "sentence_tokens"]

#: problems quoted per file
FIRST = 5


@dataclass
class Check:
    """A check's report: its lines, and whether the submission is ready to upload."""

    lines: List[str] = field(default_factory=list)
    problems: int = 0

    def bad(self, line: str) -> None:
        """A problem's line."""
        self.problems += 1
        self.lines.append(visible(f"  problem: {line}"))


def sentence_tokens(path: str) -> List[List[str]]:
    """Each sentence's tokens (its ``Words:`` line), in file order: a sentence starts at its ``# :: snt``
    line (a UMR file; a sentence without a ``Words:`` line has no tokens).

    Args:
        path: the file.

    Returns:
        The sentences' tokens.
    """
    out: List[List[str]] = []
    with open(path, encoding="utf-8-sig", errors="replace") as stream:
        for line in stream:
            text = line.rstrip("\r\n")
            if text.startswith("# :: snt"):
                out.append([])
            elif text.startswith("Words:") and out and not out[-1]:
                out[-1] = text[len("Words:"):].split()
    return out


def _tokens(report: Check, name: str, path: str, expected: str) -> None:
    found, wanted = sentence_tokens(path), sentence_tokens(expected)
    if len(found) != len(wanted):
        report.bad(f"{name}: {len(found)} sentences, the input has {len(wanted)}")
    for number, (mine, theirs) in enumerate(zip(found, wanted), 1):
        if mine != theirs:
            at = next((k for k, (a, b) in enumerate(zip(mine, theirs)) if a != b),
                      min(len(mine), len(theirs)))
            ours, wanted_here = " ".join(mine[at:at + 3]) or "none", " ".join(theirs[at:at + 3]) or "none"
            report.bad(f"{name}: sentence {number}: tokens differ from the input's at token {at + 1} "
                       f"({ours!r} for {wanted_here!r})")
            return


def check(task: Task, submission: str, workdir: str, input_dir: Optional[str] = None) -> Check:
    """Check a submission against the task's rules, with no gold.

    Args:
        task: the task.
        submission: a folder, ``.tgz``/``.tar.gz`` or ``.zip``.
        workdir: an empty folder the archive is unpacked into.
        input_dir: the test input folder (its files' names and sentences), or None.

    Returns:
        The report.
    """
    report = Check([visible(f"check of {submission} for task {task.name} ({task.title}), validation level "
                            f"{task.level}, no gold needed")])
    try:
        found = unpack(submission, workdir, task.limits)
    except InputError as error:
        report.bad(str(error))
        return report
    as_compared(found, workdir)
    inputs: Dict[str, str] = {}
    if input_dir is not None:
        if not os.path.isdir(input_dir):
            report.bad(f"{input_dir}: the test input folder does not exist")
            return report
        inputs = {name: os.path.join(input_dir, name) for name in sorted(os.listdir(input_dir))
                  if task.matches(name) and os.path.isfile(os.path.join(input_dir, name))}
    fold = (lambda name: name.lower()) if task.case == "insensitive" else (lambda name: name)
    by_key = {fold(name): name for name in inputs}
    report.lines.append(f"files: {len(found.files)}" + (f" (the input has {len(inputs)})" if inputs else ""))
    for base, path in sorted(found.files.items()):
        member = found.members.get(base, base)
        if not task.matches(base):
            report.bad(f"{member}: not named as the task requires (pattern {task.pattern})")
            continue
        if inputs and fold(base) not in by_key:
            report.bad(f"{member}: the test input has no file of this name")
        before, place = report.problems, len(report.lines)
        report.lines.append("")  # the file's line, before its problems
        result = validate_file(path, task.format, umr_level=task.level)
        problems = [result.fatal] if result.fatal else [str(problem) for problem in result.problems]
        for line in problems[:FIRST]:
            report.bad(line.replace(path, member))
        if len(problems) > FIRST:
            report.lines.append(f"  ... {len(problems) - FIRST} more problem(s) in {member}")
        if task.format == "umr" and fold(base) in by_key:
            _tokens(report, member, path, inputs[by_key[fold(base)]])
        sentences = len(sentence_tokens(path)) if task.format == "umr" else None
        report.lines[place] = visible(f"{'ok  ' if report.problems == before else 'FAIL'} {member}"
                                      + (f": {sentences} sentences" if sentences is not None else ""))
    names = {fold(base) for base in found.files}
    for key, name in by_key.items():
        if key not in names:
            report.bad(f"{name}: in the test input, missing from the submission (it would score 0)")
    report.lines.append("ready to upload" if not report.problems else
                        f"{report.problems} problem(s): not ready to upload")
    return report
