"""Level 2, the first block: the sentence id and the interlinear glosses (the tokens among them)."""

from __future__ import annotations

import re
from typing import Any, Dict, List

from mrp.validation.umr.blocks import ILG, ILG_OLD, Block
from mrp.validation.umr.state import SENTENCE_ID, State

_ID_AND_TOKENS = re.compile(r"#\s*::\s*(snt[0-9]+)\s+(.+)$")
_SPACE = re.compile(r"\s+")
_ONLY_SPACE = re.compile(r"^\s+$")
_COUNTED = re.compile(r"(Index|Word Gloss \([a-z]{2,3}\))$")
_MORPHEME_GLOSS = re.compile(r"Morpheme Gloss \([a-z]{2,3}\)$")


def check(sentence: List[Block], state: State) -> None:
    """The sentence id and the tokens of the first block (kept as ``sentence[0]["tokens"]``)."""
    first = sentence[0]
    line = first["line0"]
    found: List[Any] = []
    tokens_inline = False
    for comment in first["comments"]:
        if SENTENCE_ID.match(comment):
            both = _ID_AND_TOKENS.match(comment)
            if both:
                found.append(both)
                tokens_inline = True
                state.report(2, "Warning", "tokens-in-sent-id-comment",
                             "the sentence id line also holds the tokens (deprecated)", -1)
            else:
                found.append(SENTENCE_ID.match(comment))
    line += len(first["comments"])
    if not found:
        state.report(2, "Metadata", "missing-sent-id", "no sentence id (# :: sntN)", -1)
    elif len(found) > 1:
        state.report(2, "Metadata", "multiple-sent-id", "more than one sentence id", -1)
    else:
        sid = found[0].group(1)
        if sid in state.known_ids:
            state.report(2, "Metadata", "non-unique-sent-id", f"sentence id '{sid}' used before", -1)
        state.known_ids.add(sid)
        if tokens_inline:
            text = found[0].group(2)
            tokens = text.split(" ") if state.checks.wide_space else re.split(r"\s+", text)
            if state.checks.wide_space and any(token == "" or _ONLY_SPACE.match(token) for token in tokens):
                state.report(2, "Metadata", "empty-token",
                             f"an empty token (two spaces in a row) in '{text}'",
                             -1)
            first["tokens"] = tokens
            if first["lines"]:
                state.report(2, "Metadata", "tokens-vs-ilg", "interlinear glosses after tokens given on the "
                             "sentence id line", first["line0"] + len(first["comments"]))
    if not tokens_inline:
        _glosses(first, line, state)


def _glosses(first: Block, line: int, state: State) -> None:
    lines = first["lines"]
    glosses: Dict[str, Dict[str, Any]] = {}
    for text in lines:
        new, old = ILG.match(text), ILG_OLD.match(text)
        if new:
            header = new.group(1)
            items = _SPACE.split(new.group(2))
            if header in glosses:
                state.report(2, "Warning", "duplicate-ilg", f"a second '{header}' line (first on line "
                             f"{glosses[header]['line0']})", line)
            glosses[header] = {"items": items, "line0": line}
            if header == "Words":
                first["tokens"] = items
        elif old:
            header = old.group(1)
            state.report(2, "Warning", "obsolete-ilg", f"obsolete interlinear gloss header '{header}'", line)
            if header in ("Words", "tx"):
                first["tokens"] = _SPACE.split(old.group(2))
        else:
            state.report(2, "Metadata", "invalid-ilg", "an interlinear gloss line with an unknown header",
                         line)
        line += 1
    if "Words" not in glosses:
        state.report(2, "Metadata", "missing-words", "no Words line in the first block", line)
        first["tokens"] = []
        return
    if not state.checks.ilg:
        return
    words = len(glosses["Words"]["items"])
    for header, gloss in glosses.items():
        n = len(gloss["items"])
        if _COUNTED.match(header):
            if n != words:
                state.report(2, "Metadata", "word-gloss-mismatch", f"{words} words but {n} items in {header}",
                             gloss["line0"])
            elif header == "Index" and gloss["items"] != [str(k) for k in range(1, n + 1)]:
                state.report(2, "Metadata", "spurious-index", "the Index line does not count 1, 2, 3, ...",
                             gloss["line0"])
        elif header == "Morphemes":
            if n < words:
                state.report(2, "Metadata", "morpheme-word-mismatch", f"{words} words but only {n} morphemes",
                             gloss["line0"])
        elif _MORPHEME_GLOSS.match(header):
            if "Morphemes" in glosses:
                if n != len(glosses["Morphemes"]["items"]):
                    state.report(2, "Metadata", "morpheme-gloss-mismatch",
                                 f"{len(glosses['Morphemes']['items'])} morphemes but {n} items in {header}",
                                 gloss["line0"])
            else:
                state.report(2, "Metadata", "missing-morphemes", "morpheme glosses without a Morphemes line",
                             gloss["line0"])
        elif header == "Sentence" and n > words:
            state.report(2, "Metadata", "sentence-word-mismatch", f"only {words} words but the Sentence line "
                         f"has {n} items", gloss["line0"])
