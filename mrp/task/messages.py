"""What an evaluation tells its readers, each line once, in file order, naming the team and each file as
it was submitted (never a temporary path): :func:`submission_lines` for one submission (standard error,
which Codabench shows the team), :func:`organiser_lines` for the organiser alone (what the gold fails and
what its reader said, which quotes the hidden test set)."""

from __future__ import annotations

from typing import Dict, List

from mrp.task.escape import visible
from mrp.task.evaluate import Entry, Evaluation

__all__ = ["file_changes", "organiser_lines", "submission_lines"]


def file_changes(evaluation: Evaluation, entry: Entry) -> Dict[str, List[str]]:
    """Per gold file (in gold order), everything that changed its score: missing, read with other line
    ends, failing validation (the first problems and what the policy did), repaired, sentences missing or
    surplus, and what reading and scoring said about it.

    Args:
        evaluation: the evaluation.
        entry: one scored (or refused) submission.

    Returns:
        Gold file name -> its lines (files with nothing to say left out).
    """
    task = evaluation.task
    out: Dict[str, List[str]] = {}
    said = list(dict.fromkeys([*entry.messages,
                               *(note for found in entry.scored.values() for note in found.notes)]))
    used = set()
    for gold_name, _, path in entry.plan.pairs:
        member = entry.members.get(gold_name, gold_name)
        lines: List[str] = []
        if path is None:
            lines.append(f"{gold_name}: missing (scored as empty: every gold triple missed)")
        if member.rsplit("/", 1)[-1] in entry.newlines:
            lines.append(f"{member}: a byte order mark or CRLF line ends, read as compare_umr.pl reads them")
        problems = entry.invalid.get(gold_name)
        if problems:
            what = "scored as empty" if gold_name in entry.emptied else \
                "refused" if task.policy == "refuse" else "scored as read"
            lines.append(f"{member}: fails validation at level {task.level} (policy {task.policy}: {what})")
            lines.extend(f"  {problem}" for problem in problems)
        lines.extend(entry.repaired.get(gold_name, []))
        counts = next((found.pairing.get(gold_name) for found in entry.scored.values()), None)
        if counts and path is not None and gold_name not in entry.emptied:
            if counts.get("missing"):
                lines.append(f"{member}: {counts['missing']} of {counts['sentences']} gold sentences have no "
                             "system sentence (scored as empty)")
            if counts.get("unpaired"):
                lines.append(f"{member}: {counts['unpaired']} system sentence(s) pair with no gold sentence "
                             "(not scored)")
        for message in said:
            if message not in used and (member in message or gold_name in message):
                used.add(message)
                lines.append(message)
        if lines:
            out[gold_name] = list(dict.fromkeys(lines))
    rest = [message for message in said if message not in used]
    if entry.plan.extra:
        rest.insert(0, f"not in the gold (not scored): {', '.join(entry.plan.extra)}")
    if rest:
        out[""] = rest
    return out


def submission_lines(evaluation: Evaluation, entry: Entry) -> List[str]:
    """Every message about one submission, each once, in file order, each line starting with the name it
    is shown under (one line each, :func:`mrp.task.escape.visible`).

    Args:
        evaluation: the evaluation.
        entry: one submission.

    Returns:
        The lines.
    """
    if entry.submission.status:
        return [visible(f"{entry.submission.team}: {entry.submission.id} superseded by a later submission "
                        "(not scored)")]
    out = []
    if entry.refused:
        out.append(f"{entry.name}: refused: {entry.refused}")
    for lines in file_changes(evaluation, entry).values():
        out.extend(f"{entry.name}: {line.strip()}" for line in lines)
    return [visible(line) for line in dict.fromkeys(out)]


def organiser_lines(evaluation: Evaluation) -> List[str]:
    """What the organiser alone is told: what the gold fails at the task's level (and which tests no
    submission is then held to) and what the gold's reader said.

    Args:
        evaluation: the evaluation.

    Returns:
        The lines (one line each).
    """
    return [visible(line) for line in evaluation.gold_check.lines(evaluation.task.level)]
