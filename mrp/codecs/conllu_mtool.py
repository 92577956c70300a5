"""mtool's reading of a CoNLL-U sentence's input and anchors (``ReadOptions.mtool``: ``mrp-mtool``).

mrp's own reading (:mod:`mrp.codecs.conllu`) anchors the surface tokens as one left-to-right alignment of
the forms with the text (a token must start where the one before it ended, spaces skipped) and moves on
after a ``TokenRange``.  mtool (its ``codec/conllu.py``) reads otherwise, and the drop-in reads as it does:

* the rebuilt input (no ``# text``) has a space after every surface token whose MISC does not contain
  ``SpaceAfter=No``, but the sentence's last line: a sentence that ends in a multiword token's words or an
  empty node ends in a space; ``--text`` is never used;
* a token whose MISC holds ``TokenRange=a:b`` (the last one, where several) is anchored there, and the
  search for the next form goes on from where the last form found ended (mtool's cursor does not move);
* a form is searched from the cursor on (any text before it skipped), else each of mtool's respellings
  (quotes, dashes, ellipses; one kind at a time) and the earliest found taken (the longer one where two
  are found at one place: mtool takes one in the order of a Python set, which changes from run to run);
* the words of a multiword token and the empty nodes get an empty anchor list, which mtool's statistics
  count as anchored.
"""

from __future__ import annotations

import re
from typing import List, Sequence, Tuple

from mrp.codecs.anchoring import AnchorError
from mrp.errors import excerpt
from mrp.graph import Anchor

__all__ = ["rebuilt", "anchors"]

#: mtool's ANCHOR: the last ``TokenRange=a:b`` in MISC (a greedy ``.*`` before it)
_TOKEN_RANGE = re.compile(r".*TokenRange=([0-9]+):([0-9]+)")
#: mtool's respellings of a form not found as it is: (in the form, in the text)
_RESPELLINGS = (("‘", "`"), ("‘", "'"), ("’", "'"), ("`", "'"), ("“", '"'), ("”", '"'), ("–", "--"),
                ("–", "---"), ("—", "---"), ("…", "..."), ("…", ". . ."))


def rebuilt(rows: Sequence[List[str]], surface: Sequence[bool]) -> str:
    """The input mtool rebuilds from the surface forms of a sentence without ``# text``.

    Args:
        rows: the sentence's token lines, split into their ten cells.
        surface: whether each row is a surface token.

    Returns:
        The forms, each followed by a space but where MISC holds ``SpaceAfter=No`` or it is the last row.
    """
    pieces: List[str] = []
    for k, (cells, on) in enumerate(zip(rows, surface)):
        if on:
            pieces.append(cells[1])
            if "SpaceAfter=No" not in cells[9] and k + 1 < len(rows):
                pieces.append(" ")
    return "".join(pieces)


def _find(form: str, text: str, cursor: int) -> Tuple[int, int]:
    """Where mtool finds a form from the cursor on: (start, length); length 0 when nowhere."""
    start = text.find(form, cursor)
    if start >= 0:
        return start, len(form)
    best, length = len(text), 0
    for old, new in _RESPELLINGS:
        spelled = form.replace(old, new)
        start = text.find(spelled, cursor)
        if start >= 0 and (start < best or (start == best and len(spelled) > length)):
            best, length = start, len(spelled)
    return (best, length) if best < len(text) else (cursor, 0)


def anchors(rows: Sequence[List[str]], surface: Sequence[bool], text: str) -> List[List[Anchor]]:
    """Each row's anchors as mtool reads them.

    Args:
        rows: the sentence's token lines, split into their ten cells.
        surface: whether each row is a surface token.
        text: the sentence's input.

    Returns:
        Per row, its anchor list (empty for a word of a multiword token and an empty node).

    Raises:
        AnchorError: a form found nowhere after the cursor (mtool stops the run there), naming its row.
    """
    cursor = 0
    found: List[List[Anchor]] = []
    for k, (cells, on) in enumerate(zip(rows, surface)):
        if not on:
            found.append([])
            continue
        given = _TOKEN_RANGE.match(cells[9])
        if given is not None:
            found.append([(int(given.group(1)), int(given.group(2)))])
            continue
        start, length = _find(cells[1], text, cursor)
        if not length:
            raise AnchorError(f"form '{excerpt(cells[1])}' is not in the text after character {cursor} "
                              f"({text[cursor: cursor + 20]!r})", k)
        found.append([(start, start + length)])
        cursor = start + length
    return found
