"""mrp-evaluate: a shared task's whole evaluation in one command, locally or as Codabench's scoring program.

``mrp-evaluate --task TASK --gold GOLD_DIR --output OUT_DIR SUBMISSION...`` unpacks each submission safely,
validates its files at the task's level, pairs them with the gold files by name, scores them with the
task's metrics, averages and ranks them, and writes scores, results and leaderboards into OUT_DIR (the
leaderboard in Markdown on stdout); ``--codabench INPUT_DIR OUTPUT_DIR`` is the scoring-program protocol;
``--bundle BUNDLE.zip`` writes a Codabench competition bundle skeleton.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import List, Optional

from mrp.cli.common import FATAL, OK, PROBLEMS, new_parser, run, warn
from mrp.process.forked import available_cpus
from mrp.task.escape import visible

PROGRAM = "mrp-evaluate"

EPILOG = """\
examples:
  mrp-evaluate --task dmr2026-umr --gold gold/ --output results/ ufal.tgz cuni.zip baseline/
      every submission scored; results/ holds TEAM/scores.json, results.json, leaderboard.{md,tex,csv,html}
      and detailed_results.html; the leaderboard is printed
  mrp-evaluate --task dmr2026-umr --codabench /app/input /app/output
      Codabench's scoring program: input/ref (gold) and input/res (the submission) to
      output/scores.json and output/detailed_results.html
  mrp-evaluate --task dmr2026-umr --check team.tgz --input test-input/
      a participant's check before uploading: file names and count, every file valid at the task's level,
      every sentence's tokens as the test input's; no gold needed (exit 0: ready to upload)
  mrp-evaluate --task dmr2026-umr --bundle bundle.zip --gold gold/
      a Codabench competition bundle: competition.yaml, scoring_program/, reference_data/, Dockerfile

TASK is a shipped task (dmr2026-umr, mrp2019) or a task file (TOML; see docs/guide/shared-task.md).
A submission is a folder, .tgz, .tar.gz or .zip; TEAM=PATH names its team (else its name does); a folder
of archives is one team's submissions (the latest whose name does not start with 'secondary' counts).
exit status: 0 every submission scored; 1 a submission refused (the others scored); 2 nothing scored
(bad arguments, a gold file that cannot be read).
"""


def parser() -> argparse.ArgumentParser:
    """The argument parser of mrp-evaluate."""
    p = new_parser(PROGRAM, "Evaluate shared-task submissions: unpack, validate, pair, score, average, rank; "
                   "locally or as a Codabench scoring program.", EPILOG)
    p.add_argument("submissions", metavar="SUBMISSION", nargs="*", help="a folder, .tgz, .tar.gz or .zip")
    p.add_argument("--task", metavar="TASK", help="a shipped task's name or a task file (TOML)")
    p.add_argument("--gold", metavar="GOLD_DIR", help="the folder of gold files")
    p.add_argument("--output", metavar="OUT_DIR", help="where the scores, results and leaderboards go")
    p.add_argument("--codabench", nargs=2, metavar=("INPUT_DIR", "OUTPUT_DIR"),
                   help="run as Codabench's scoring program (INPUT_DIR/ref, INPUT_DIR/res)")
    p.add_argument("--bundle", metavar="BUNDLE.zip",
                   help="write a Codabench competition bundle (needs --gold)")
    p.add_argument("--check", metavar="SUBMISSION",
                   help="check a submission before uploading it (names, count, validation at the task's "
                        "level, tokens as the test input's with --input); no gold needed")
    p.add_argument("--input", metavar="TEST_INPUT_DIR", help="with --check: the test input folder")
    p.add_argument("--jobs", metavar="N", default="auto",
                   help="processes that read, validate and score the files (default auto: one per CPU), "
                        "with --output or --codabench; the numbers and outputs do not change")
    p.add_argument("--list-tasks", action="store_true", help="print the names of the shipped tasks")
    return p


def main(argv: Optional[List[str]] = None) -> None:
    """Entry point of mrp-evaluate."""
    run(PROGRAM, _main, argv)


def _main(argv: List[str]) -> int:
    args = parser().parse_args(argv)
    from mrp.task.definition import load, shipped

    if args.list_tasks:
        sys.stdout.write("".join(f"{name}\n" for name in shipped()))
        return OK
    if not args.task:
        warn(PROGRAM, "--task TASK is needed (a shipped task: " + ", ".join(shipped()) + "; or a task file)")
        return FATAL
    task = load(args.task)
    modes = sum(bool(mode) for mode in (args.codabench, args.bundle, args.output, args.check))
    if modes != 1:
        warn(PROGRAM, "give one of --output OUT_DIR (with --gold and submissions), --codabench INPUT_DIR "
                      "OUTPUT_DIR, --bundle BUNDLE.zip (with --gold), or --check SUBMISSION")
        return FATAL
    if args.check:
        return _check(task, args.check, args.input)
    try:
        jobs = available_cpus() if args.jobs == "auto" else int(args.jobs)
    except ValueError:
        jobs = 0
    if jobs < 1:
        warn(PROGRAM, f"--jobs {args.jobs}: a positive number of processes, or auto")
        return FATAL
    if args.codabench:
        return _codabench(task, args.codabench[0], args.codabench[1], jobs)
    if not args.gold:
        warn(PROGRAM, "--gold GOLD_DIR is needed")
        return FATAL
    if args.bundle:
        from mrp.task.codabench import bundle

        members = bundle(task, args.gold, args.bundle, [args.task] if os.path.isfile(args.task) else [])
        sys.stdout.write("".join(f"{name}\n" for name in members))
        warn(PROGRAM, f"wrote the bundle {args.bundle} ({len(members)} files)")
        return OK
    if not args.submissions:
        warn(PROGRAM, "no submission given")
        return FATAL
    return _local(task, args.gold, args.output, args.submissions, jobs)


def _local(task: object, gold: str, output: str, submissions: List[str], jobs: int) -> int:
    from mrp.task.board import board
    from mrp.task.evaluate import evaluate_submissions
    from mrp.task.messages import organiser_lines, submission_lines
    from mrp.task.outputs import write_all
    from mrp.task.page import PagesAhead
    from mrp.task.tables import markdown_table
    from mrp.task.unpack import cleared_meanwhile

    with tempfile.TemporaryDirectory(prefix="mrp-evaluate-") as workdir:
        evaluation = evaluate_submissions(task, gold, submissions, workdir, jobs)  # type: ignore[arg-type]
        # the page's tables and drawings in a child while the board ranks; the unpacked files removed then
        with PagesAhead(evaluation, jobs) as ahead, cleared_meanwhile(workdir):
            found = board(evaluation)
            organiser = organiser_lines(evaluation)
            for line in organiser:
                warn(PROGRAM, line)
            for entry in evaluation.entries:
                for line in submission_lines(evaluation, entry):
                    warn(PROGRAM, line)
            written = write_all(evaluation, found, output, organiser, ahead)
    sys.stdout.write(markdown_table(found))
    warn(PROGRAM, visible(f"wrote {len(written)} files into {output}"))
    if not evaluation.scored():
        return FATAL
    return PROBLEMS if any(entry.refused for entry in evaluation.entries) else OK


def _check(task: object, submission: str, input_dir: Optional[str]) -> int:
    from mrp.task.check import check

    with tempfile.TemporaryDirectory(prefix="mrp-evaluate-") as workdir:
        report = check(task, submission, workdir, input_dir)  # type: ignore[arg-type]
    sys.stdout.write("".join(f"{line}\n" for line in report.lines))
    return PROBLEMS if report.problems else OK


def _codabench(task: object, input_dir: str, output_dir: str, jobs: int) -> int:
    from mrp.errors import InputError
    from mrp.task.codabench import score
    from mrp.task.messages import submission_lines

    with tempfile.TemporaryDirectory(prefix="mrp-evaluate-") as workdir:
        try:
            evaluation = score(task, input_dir, output_dir, workdir, jobs)  # type: ignore[arg-type]
        except InputError as error:
            warn(PROGRAM, visible(f"submission refused: {error}"))
            return PROBLEMS
        for entry in evaluation.entries:  # what the team sees: nothing of the gold
            for line in submission_lines(evaluation, entry):
                warn(PROGRAM, line)
    entry = evaluation.scored()[0]
    sys.stdout.write("".join(f"{key}: {value!r}\n" for key, value in entry.scores.items()))
    return OK


if __name__ == "__main__":
    main()
