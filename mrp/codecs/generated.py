"""Model output as it comes: a language model's responses, each holding an AMR graph in Penman somewhere
(the registry's ``generated`` format; ``mrp-score --read generated``, ``read="generated"``).

A file holds one response per line as JSON Lines: a JSON string, or an object whose ``response``,
``output``, ``text``, ``generated_text``, ``prediction`` or ``completion`` holds the text (its ``id``, if
any, names the graph; else responses are numbered by position from 0 and pair by position).  In a
response, the graph is found as a reader of model output would find it:

- Markdown fences (three backquotes, with or without a language) are searched first, then the whole
  response; text before and after the graph is read past;
- each ``(`` outside a quoted string starts a candidate, and the first candidate that reads as a Penman
  graph is the graph (``(see below)`` in the chatter is not one); a candidate that fails is skipped whole;
- what the Penman reader repairs is repaired: a graph cut off at the end (``truncated``: the model's token
  limit) or left open before the response goes on (``unbalanced``) gets its parentheses closed, and
  ``)`` left over after a complete graph is dropped (``unbalanced``).

A response without a usable graph is a FormatError naming its line and the reason (``no graph``,
``truncated``, ``unbalanced``, ``invalid role``, ``unreadable``): the pairing scores it as an empty graph
in its place, never dropping it.  :func:`reading_counts` gives the figures papers report with SMATCH: the
well-formed rate (read as written), the repaired rate, and the reasons.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Any, Dict, Iterable, Iterator, Optional, Sequence, Tuple, Union

import ujson

from mrp.codecs.base import Codec, Item, ReadOptions
from mrp.errors import FormatError
from mrp.graph import Graph
from mrp.io.source import Line

__all__ = ["CODEC", "REASONS", "read", "reading_counts", "extract"]

#: the codec's facts (mrp.codecs reads them): model output is named (--read generated), never inferred
CODEC = Codec(formats={"generated": "amr"}, penman=True)

#: why a response's graph is repaired or unusable, in the order reports list them
REASONS = ("truncated", "unbalanced", "invalid role", "no graph", "unreadable", "other repair")
#: the keys of a JSON object that may hold the response's text, in order of preference
TEXT_KEYS = ("response", "output", "text", "generated_text", "prediction", "completion")
_FENCE = re.compile(r"```[^\n`]*\n(.*?)(?:```|\Z)", re.DOTALL)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
#: the prefix of an unusable response's message (what :func:`reading_counts` reads back)
_UNUSABLE = "unusable model output"


def _candidates(region: str) -> Iterator[Tuple[int, int, bool]]:
    """(start, end, closed) of each ``(`` at depth 0 outside quoted strings: closed when its parenthesis
    closes (end: after it), else the rest of the region up to a blank line (and no candidate after)."""
    k, n = 0, len(region)
    while k < n:
        start = region.find("(", k)
        if start < 0:
            return
        depth, j, quoted = 0, start, False
        while j < n:
            char = region[j]
            if quoted:
                if char == "\\":
                    j += 1
                elif char == '"':
                    quoted = False
            elif char == '"':
                quoted = True
            elif char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j < n:
            yield start, j + 1, True
            k = j + 1
        else:
            blank = _BLANK_LINE.search(region, start)
            yield start, blank.start() if blank else n, False
            return


def _reason(message: str, closed: bool) -> str:
    if "Expected: ROLE" in message or "role" in message.lower():
        return "invalid role"
    return "unreadable" if closed else "truncated"


def extract(text: str, read_one: Any) -> Tuple[Optional[Item], Optional[str]]:
    """The graph of one response and the reason it was repaired or is unusable (None: read as written).

    Args:
        text: the response.
        read_one: reads one Penman text: returns a Graph (its ``repairs`` set when repaired) or a
            FormatError.

    Returns:
        (the graph, or the first candidate's FormatError, or None when there is no candidate; the reason).
    """
    regions = [(match.start(1), match.group(1)) for match in _FENCE.finditer(text)] + [(0, text)]
    first: Optional[Tuple[FormatError, str]] = None
    for offset, region in regions:
        for start, end, closed in _candidates(region):
            item = read_one(region[start:end])
            if isinstance(item, Graph):
                if not closed:  # cut off where the response ends, or left open before it goes on
                    return item, "truncated" if not text[offset + end:].strip() else "unbalanced"
                rest = region[end:].lstrip()
                if rest.startswith(")"):
                    extra = len(rest) - len(rest.lstrip(")"))
                    item.repairs = [*(item.repairs or []), f"dropped {extra} ')' left over after the graph"]
                    return item, "unbalanced"
                if item.repairs:
                    return item, "unbalanced" if "parenthes" in " ".join(item.repairs) else "other repair"
                return item, None
            if first is None:
                first = (item, _reason(item.message, closed))
    if first is None:
        return None, "no graph"
    return first


def _responses(lines: Iterable[Union[Line, FormatError]], name: str
               ) -> Iterator[Union[Tuple[int, Optional[str], str], FormatError]]:
    """(line, id or None, text) of each response of a JSON Lines file; a FormatError for a line that
    holds none."""
    for line in lines:
        if isinstance(line, FormatError):
            yield line
            continue
        if not line.text.strip():
            continue
        try:
            value = ujson.loads(line.text)
        except ValueError:
            yield FormatError(f"{_UNUSABLE} (unreadable): not a JSON line", name, line.number)
            continue
        gid = None
        if isinstance(value, dict):
            gid = value.get("id")
            value = next((value[key] for key in TEXT_KEYS if isinstance(value.get(key), str)), None)
        if not isinstance(value, str):
            named = None if gid is None else str(gid)
            yield FormatError(f"{_UNUSABLE} (unreadable): a JSON line without a response "
                              f"({', '.join(TEXT_KEYS)})", name, line.number, named)
            continue
        yield line.number, None if gid is None else str(gid), value


def _read_one(candidate: str, name: str, number: int, gid: str, options: ReadOptions) -> Item:
    """A candidate read as a Penman file holding it alone, named ``gid``, every line numbered ``number``."""
    from mrp.codecs.penman import read as read_penman

    rows = [f"# ::id {gid}", *candidate.split("\n")]
    items = list(read_penman([Line(number, row) for row in rows], name, options))
    return items[0] if len(items) == 1 else FormatError("more than one graph", name, number, gid)


def read(lines: Iterable[Union[Line, FormatError]], name: str, options: ReadOptions) -> Iterator[Item]:
    """The graph of each response of a JSON Lines file of model output; a FormatError for a response
    without a usable graph (``unusable model output (REASON)``), which scoring counts as an empty graph."""
    for position, found in enumerate(_responses(lines, name)):
        if isinstance(found, FormatError):
            found.graph_id = found.graph_id or str(position)
            found.framework = options.framework
            yield found
            continue
        number, given, text = found
        gid = given if given is not None else str(position)

        item, reason = extract(text, functools.partial(_read_one, name=name, number=number, gid=gid,
                                                       options=options))
        if isinstance(item, Graph):
            if reason is not None:
                item.repairs = [f"{reason}: {'; '.join(item.repairs or [])}".rstrip(": ")]
            item.line = number
            yield item
        else:
            detail = "" if item is None else f": {item.message}"
            yield FormatError(f"{_UNUSABLE} ({reason}){detail}", name, number, gid, options.framework)


def reading_counts(graphs: int, repaired: Sequence[Sequence[str]], errors: Sequence[FormatError]
                   ) -> Dict[str, Any]:
    """The figures of a reading of model output: responses, well-formed (read as written), repaired and
    unusable ones (scored as empty), their rates, and the reasons.

    Args:
        graphs: the graphs read (well-formed and repaired).
        repaired: the repairs of each repaired graph (``Graph.repairs``).
        errors: the responses without a usable graph.

    Returns:
        ``{"responses", "well_formed", "repaired", "unusable", "well_formed_rate", "repaired_rate",
        "reasons": {reason: count}}``.
    """
    reasons: Counter[str] = Counter()
    for repairs in repaired:
        head = repairs[0].split(":", 1)[0] if repairs else ""
        reasons[head if head in REASONS else "unbalanced"] += 1
    for error in errors:
        found = re.match(re.escape(_UNUSABLE) + r" \(([^)]*)\)", error.message)
        reasons[found.group(1) if found else "unreadable"] += 1
    total = graphs + len(errors)
    fixed = len(repaired)
    return {"responses": total, "well_formed": graphs - fixed, "repaired": fixed, "unusable": len(errors),
            "well_formed_rate": (graphs - fixed) / total if total else 0.0,
            "repaired_rate": fixed / total if total else 0.0,
            "reasons": {reason: reasons[reason] for reason in REASONS if reasons[reason]}}


def merged(a: Optional[Dict[str, Any]], b: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """Two readings' figures as one (batches of one run)."""
    if a is None or b is None:
        return a or b
    total = a["responses"] + b["responses"]
    out = {key: a[key] + b[key] for key in ("responses", "well_formed", "repaired", "unusable")}
    out["well_formed_rate"] = out["well_formed"] / total if total else 0.0
    out["repaired_rate"] = out["repaired"] / total if total else 0.0
    reasons = Counter(a["reasons"]) + Counter(b["reasons"])
    out["reasons"] = {reason: reasons[reason] for reason in REASONS if reasons[reason]}
    return out
