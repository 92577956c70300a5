"""Level 2, the third block: each node's alignment to tokens."""

from __future__ import annotations

import re
from typing import List

from mrp.validation.umr.blocks import Block, stripped
from mrp.validation.umr.state import State, punctuation, variable, whole

#: spans of one line: 0-0 alone, or ranges from 1 separated by commas (-1--1 is an error)
SPANS = re.compile(r"^(?:0-0|([1-9][0-9]*)-([1-9][0-9]*)(,\s*[1-9][0-9]*-[1-9][0-9]*)*)$")
SPAN = re.compile(r"^0-0|([1-9][0-9]*)-([1-9][0-9]*)$")
#: the same with UMR 1.0's -1--1 for unaligned (``--allow--1``)
SPANS_OR_MINUS_ONE = re.compile(r"^(?:-1--1|0-0|([1-9][0-9]*)-([1-9][0-9]*)(,\s*[1-9][0-9]*-[1-9][0-9]*)*)$")
SPAN_OR_MINUS_ONE = re.compile(r"^-1--1|0-0|([1-9][0-9]*)-([1-9][0-9]*)$")
COMMA = re.compile(r",\s*")


def check(sentence: List[Block], state: State) -> None:
    """The alignment lines of ``sentence[2]`` against the graph's nodes and the tokens."""
    block = sentence[2]
    nodes = state.nodes
    mine = sentence[1]["nodes"]
    tokens = sentence[0].get("tokens", [])
    if state.checks.block_headers and "# alignment:" not in block["comments"]:
        state.report(2, "Alignment", "missing-heading-alignment", "no '# alignment:' heading", block["line0"])
    line = block["line0"] + len(block["comments"]) - 1
    for text in block["lines"]:
        line += 1
        name = variable(text)
        if name is None:
            state.report(2, "Alignment", "missing-variable", f"no node id: '{text[:40]}'", line)
            continue
        if name not in mine:
            state.report(2, "Alignment", "unknown-node-id", f"'{name}' is no node of this sentence", line)
        rest = stripped(text[len(name):])
        if not rest.startswith(":"):
            state.report(2, "Alignment", "invalid-alignment", f"no ':' after the node id: '{rest[:40]}'",
                         line)
            continue
        rest = stripped(rest[1:])
        spans = (SPANS if state.checks.nonnegative_alignment else SPANS_OR_MINUS_ONE).match(rest)
        if not spans:
            state.report(2, "Alignment", "invalid-token-range", f"expected token ranges from 1 (or 0-0): "
                         f"'{rest[:40]}'", line)
            continue
        _spans(rest if not spans.group(3) else COMMA.split(rest), name, line, mine, tokens, state)
    covered = [False] * len(tokens)
    for name in sorted(mine):
        node = nodes[name]
        if "alignment" not in node:
            if state.checks.complete_alignment:
                state.report(2, "Alignment", "missing-alignment",
                             f"no alignment for node '{name}' (0-0 for none)",
                             line + 1)
            node["alignment"] = {"tokids": [0], "tokstr": "", "line0": 0}
        elif node["alignment"]["tokids"] != [0]:
            for tokid in node["alignment"]["tokids"]:
                if not 1 <= tokid <= len(covered):  # beyond the Index line: reported as such already
                    continue
                if covered[tokid - 1] and state.checks.overlapping_alignment:
                    state.report(2, "Warning", "overlapping-alignment", f"token {tokid} is aligned to more "
                                 "than one node", line + 1)
                covered[tokid - 1] = True
    if not state.checks.unaligned_token:
        return
    for k, token in enumerate(tokens):
        if not covered[k] and not punctuation(token):
            state.report(2, "Warning", "unaligned-token", f"token {k + 1} ('{token}') is aligned to no node",
                         line + 1)


def _spans(spans: object, name: str, line: int, mine: object, tokens: List[str], state: State) -> None:
    nodes = state.nodes
    last = -1
    for span in [spans] if isinstance(spans, str) else spans:  # type: ignore[attr-defined]
        found = (SPAN if state.checks.nonnegative_alignment else SPAN_OR_MINUS_ONE).match(span)
        assert found is not None
        if found.group(0) in ("0-0", "-1--1"):
            start = end = last = 0
        else:
            previous = last
            start, end = whole(found.group(1)), whole(found.group(2))
            last = end
            if start <= previous + 1:
                state.report(2, "Alignment", "invalid-token-range", f"span '{span}' must start after token "
                             f"{previous + 1}", line)
            if end < start:
                state.report(2, "Alignment", "invalid-token-range", f"span '{span}' ends before it starts",
                             line)
                end = last = start
            if start > len(tokens):
                state.report(2, "Alignment", "invalid-token-index", f"token {start} is past the sentence's "
                             f"{len(tokens)} tokens", line)
                start = len(tokens)
            if end > len(tokens):
                state.report(2, "Alignment", "invalid-token-index", f"token {end} is past the sentence's "
                             f"{len(tokens)} tokens", line)
                end = last = len(tokens)
        if name not in nodes:
            continue
        node = nodes[name]
        if name not in mine:  # type: ignore[operator]
            state.report(2, "Alignment", "cross-sentence-alignment",
                         f"'{name}' is a node of another sentence "
                         f"(line {node['line0']})", line)
        elif "alignment" in node:
            if node["alignment"]["line0"] != line:
                state.report(2, "Alignment", "duplicate-alignment", f"node '{name}' aligned before (line "
                             f"{node['alignment']['line0']})", line)
            else:
                node["alignment"]["tokids"].extend(range(start, end + 1))
                node["alignment"]["tokstr"] = _words(node["alignment"]["tokids"], tokens)
        else:
            tokids = list(range(start, end + 1))
            node["alignment"] = {"tokids": tokids, "tokstr": _words(tokids, tokens), "line0": line}


def _words(tokids: List[int], tokens: List[str]) -> str:
    """The aligned words, as validate.py's reports show them: none for 0-0 alone, else the token of each
    index counted as Python counts a list's (0 the last token, -1 the one before); one out of range is left
    out (validate.py stops with an internal error)."""
    if tokids == [0]:
        return ""
    return " ".join(tokens[k - 1] for k in tokids if -len(tokens) <= k - 1 < len(tokens))
