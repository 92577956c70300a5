"""Codabench: the scoring program's protocol, and a competition bundle skeleton.

The protocol: the program is run as ``PROGRAM INPUT_DIR OUTPUT_DIR``; ``INPUT_DIR/ref`` holds the reference
data (the gold files), ``INPUT_DIR/res`` the submission (unzipped by Codabench: its files, or an archive
that is unpacked as any submission is); the program writes ``OUTPUT_DIR/scores.json`` (one number per
leaderboard column key) and ``OUTPUT_DIR/detailed_results.html``.  A submission that is refused makes the
program fail with the reason on standard error, so that Codabench marks it failed and shows why.

The bundle (:func:`bundle`): ``competition.yaml`` (written by hand, no YAML library), with one leaderboard
column per key of ``scores.json``; ``scoring_program/`` (``metadata.yaml``, ``score.py``, the task file);
``reference_data/`` (the gold files); ``wheels/`` (the wheel of the mrp that made the bundle,
:mod:`mrp.task.wheel`); ``Dockerfile`` for the scoring image, which installs that wheel and compiles its
kernels when the image is built.
"""

from __future__ import annotations

import io
import json
import os
import warnings
import zipfile
from typing import Dict, List, Mapping, Sequence

from mrp import __version__
from mrp.errors import InputError
from mrp.io.write import write_bytes, write_text
from mrp.task.board import board as leaderboard
from mrp.task.definition import Task
from mrp.task.escape import visible
from mrp.task.evaluate import Evaluation, evaluate_submissions, groups_of
from mrp.task.files import gold_files
from mrp.task.messages import organiser_lines
from mrp.task.outputs import scores_json
from mrp.task.page import detailed_page
from mrp.task.reading import read_gold
from mrp.task.wheel import wheel

__all__ = ["IMAGE", "bundle", "competition_yaml", "score"]

#: the scoring image's name in competition.yaml (built from the bundle's Dockerfile, pushed by the organiser)
IMAGE = "mrp-scoring:latest"

#: the organiser's log in the output folder: what the gold fails and what its reader said (never on
#: standard error, which Codabench shows the team)
ORGANISER_LOG = "organiser.log"

#: the line of the Dockerfile that compiles the solver's kernels at build time (mrp-warm-up compiles every
#: kernel into the installed package's cache, so that no submission pays for it)
WARM_UP = "RUN mrp-warm-up  # WARM-UP"


def score(task: Task, input_dir: str, output_dir: str, workdir: str, jobs: int = 1) -> Evaluation:
    """Score the submission in ``INPUT_DIR/res`` against ``INPUT_DIR/ref`` and write ``scores.json`` and
    ``detailed_results.html`` into ``output_dir``.

    Args:
        task: the task.
        input_dir: Codabench's input folder (``ref`` and ``res`` in it).
        output_dir: the folder written.
        workdir: an empty folder the submission is unpacked into.
        jobs: processes (this one and forked children) that read, validate and score the files, file by
            file (:func:`mrp.task.evaluate.evaluate_submissions`): the same outputs whatever the number.

    Returns:
        The evaluation.

    Raises:
        InputError: when ``ref`` or ``res`` is missing, or the submission is refused (the reason).
    """
    ref, res = os.path.join(input_dir, "ref"), os.path.join(input_dir, "res")
    for folder in (ref, res):
        if not os.path.isdir(folder):
            raise InputError(f"{folder}: missing (Codabench gives the reference data in ref and the "
                             "submission in res)")
    os.makedirs(output_dir, exist_ok=True)
    with warnings.catch_warnings(record=True) as caught:  # about the gold: the organiser's log alone
        warnings.simplefilter("always")
        evaluation = evaluate_submissions(task, ref, [f"submission={res}"], workdir, jobs)
        organiser = organiser_lines(evaluation) + [visible(str(w.message)) for w in caught]
        write_text(os.path.join(output_dir, ORGANISER_LOG), "".join(f"{line}\n" for line in organiser))
        entry = evaluation.entries[0] if len(evaluation.entries) == 1 else next(
            (e for e in evaluation.entries if e.submission.official and not e.submission.status), None)
        if entry is None or entry.refused:
            raise InputError(entry.refused if entry is not None and entry.refused else
                             f"{res}: nothing to score")
        board = leaderboard(evaluation)
        write_text(os.path.join(output_dir, "scores.json"), scores_json(entry.scores))
        write_text(os.path.join(output_dir, "detailed_results.html"),
                   detailed_page(evaluation, board, participant=True))
    return evaluation


def _quoted(value: str) -> str:
    """A YAML double-quoted scalar (JSON's string escapes are valid in it)."""
    return json.dumps(value, ensure_ascii=False)


def competition_yaml(task: Task, groups: List[str], labels: Mapping[str, str]) -> str:
    """``competition.yaml`` of a Codabench bundle: one task, one phase, one leaderboard whose columns are
    the keys of ``scores.json`` (the primary figure first)."""
    keys = task.keys(groups)
    keys.remove(task.primary)
    keys.insert(0, task.primary)
    lines = ["# Codabench competition bundle written by mrp-evaluate " + __version__,
             "version: 2", f"title: {_quoted(task.title)}",
             f"description: {_quoted('Scored by mrp (mrp-graphs), task ' + task.name)}",
             f"docker_image: {_quoted(IMAGE)}", "enable_detailed_results: true",
             "registration_auto_approve: false", "terms: pages/terms.md", "pages:",
             "  - title: Evaluation", "    file: pages/evaluation.md", "tasks:", "  - index: 0",
             f"    name: {_quoted(task.name)}", f"    description: {_quoted(task.title)}",
             "    reference_data: reference_data", "    scoring_program: scoring_program", "phases:",
             "  - index: 0", "    name: Test", f"    description: {_quoted('Test phase of ' + task.title)}",
             "    start: 1-1-2026", "    max_submissions_per_day: 5", "    max_submissions: 100",
             "    execution_time_limit: 3600", "    tasks:", "      - 0", "leaderboards:", "  - index: 0",
             "    title: Results", "    key: Results", "    columns:"]
    for index, key in enumerate(keys):
        metric, _, group = key.partition("_f")
        title = labels.get(metric, metric) + (f" {group.lstrip('_')}" if group else " (overall)")
        lines += [f"      - title: {_quoted(title)}", f"        key: {key}", f"        index: {index}",
                  "        sorting: desc", "        precision: 4"]
    return "\n".join(lines) + "\n"


_SCORE_PY = '''"""Codabench scoring program: mrp-evaluate under the scoring-program protocol."""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
input_dir, output_dir = sys.argv[1:3] if len(sys.argv) > 2 else ("/app/input", "/app/output")
sys.exit(subprocess.call([sys.executable, "-m", "mrp.cli.evaluate", "--task", os.path.join(here, "task.toml"),
                          "--codabench", input_dir, output_dir]))
'''


def dockerfile(wheel_name: str) -> str:
    """The scoring image (built with the unpacked bundle as its context): Python, the bundle's wheel of mrp
    with its plot extra (its dependencies from the package index), and the solver's kernels compiled at
    build time (so that no submission pays for the compilation)."""
    return ("FROM python:3.11-slim\n"
            "# mrp as it made this bundle: the wheel it carries (no index needs to have it)\n"
            f"COPY wheels/{wheel_name} /tmp/wheels/{wheel_name}\n"
            f"RUN pip install --no-cache-dir \"/tmp/wheels/{wheel_name}[plot]\" && rm -rf /tmp/wheels\n"
            "# compile the solver's kernels into the installed package's cache when the image is built\n"
            f"{WARM_UP}\n")


def bundle(task: Task, gold_folder: str, path: str, inputs: Sequence[str] = ()) -> List[str]:
    """Write a Codabench competition bundle (a zip) for a task and its gold folder.

    Args:
        task: the task.
        gold_folder: the gold files.
        path: the bundle (never one of the inputs: a file in the gold folder, or one of ``inputs``).
        inputs: other inputs the bundle must not overwrite (the task file).

    Returns:
        The bundle's members.

    Raises:
        InputError: for a bundle path that is an input, or no installed mrp to put in the bundle.
    """
    gold = gold_files(gold_folder, task)
    target = os.path.realpath(path)
    protected = [os.path.realpath(file) for file in [*gold.values(), *inputs]]
    if target in protected or os.path.dirname(target) == os.path.realpath(gold_folder):
        raise InputError(f"{path}: the bundle would overwrite an input (a gold file, the gold folder's "
                         "content or the task file); write it elsewhere")
    wheel_name, wheel_bytes = wheel()
    groups = groups_of(task, {name: read_gold(name, file, task) for name, file in gold.items()})
    labels = {spec.key: spec.label for spec in task.metrics}
    members: Dict[str, bytes] = {
        "competition.yaml": competition_yaml(task, groups, labels).encode("utf-8"),
        "scoring_program/metadata.yaml": ("command: python3 /app/program/score.py /app/input /app/output\n"
                                          "description: mrp-evaluate (mrp-graphs) for task "
                                          f"{task.name}\n").encode(),
        "scoring_program/score.py": _SCORE_PY.encode("utf-8"),
        "scoring_program/task.toml": task.source.encode("utf-8"),
        "Dockerfile": dockerfile(wheel_name).encode("utf-8"),
        f"wheels/{wheel_name}": wheel_bytes,
        "pages/terms.md": b"# Terms\n\nSet by the organisers.\n",
        "pages/evaluation.md": (f"# Evaluation\n\nScored by mrp-evaluate (mrp-graphs {__version__}), task "
                                f"`{task.name}`; leaderboard keys: {', '.join(task.keys(groups))}.\n"
                                ).encode(),
    }
    for name, file in gold.items():
        with open(file, "rb") as stream:
            members[f"reference_data/{name}"] = stream.read()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, members[name])
    write_bytes(path, buffer.getvalue())
    return sorted(members)
