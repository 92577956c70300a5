"""The sentence graph of a UMR block: its Penman section read in one pass where the plain grammar reads it
(:func:`mrp.codecs.penman.fast_graph`, the same graph), else through penman's public API (whose errors and
warnings are the reader's)."""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

import penman

from mrp.codecs.base import ReadOptions
from mrp.codecs.framing import scan
from mrp.codecs.penman import breaks, deeply, fast_graph, mask, penman_warnings, tree_graph, unmask
from mrp.codecs.umr.frame import Block
from mrp.errors import FormatError, excerpt
from mrp.graph import Graph

#: a line of a graph: its file line number and its text
Numbered = Tuple[int, str]


def _extent(lines: List[Numbered]) -> Tuple[Optional[int], Optional[Tuple[int, str]]]:
    """How many lines the first bracketed graph spans (None: it never closes), and the
    first text outside it (file line, text), parentheses in double-quoted strings not counted."""
    depth, end = 0, None
    for k, (number, text) in enumerate(lines):
        position = 0
        if end is None:
            if depth == 0:
                position = len(text) - len(text.lstrip())
                if position < len(text) and text[position] != "(":
                    return None, (number, text[position:].strip())
            stop, depth = scan(text, position, depth, "(", ")")
            if stop < 0:
                continue
            end, position = k + 1, stop
        rest = text[position:].strip()
        if rest:
            return end, (number, rest)
    return end, None


def _check_variables(tree: penman.Tree, lines: List[Numbered], gid: str) -> None:
    """FormatError at the line of a variable's second definition."""
    seen = set()
    for var, _ in tree.nodes():
        if var in seen:
            pattern = re.compile(r"\(\s*" + re.escape(var) + r"\s*/")
            where = [number for number, text in lines for _ in pattern.finditer(text)]
            number = where[1] if len(where) > 1 else lines[0][0]
            raise FormatError(f"variable '{excerpt(var)}' is defined twice", None, number, gid, "umr")
        seen.add(var)


_CONCEPT = re.compile(r'(\(\s*[^\s()/:"~]+\s*/\s*)([^\s()"]+)')
#: what every concept :func:`_quote_concept` quotes matches (and a few more): a line without it has none
_ODD_CONCEPT = re.compile(r'\(\s*[^\s()/:"~]+\s*/\s*[^\s()"]*[#/]')


def _comment_at(text: str) -> int:
    """Where an inline comment starts (``#`` at the start or after a space, then a space or the end,
    outside double quotes), or -1."""
    quoted = False
    for k, ch in enumerate(text):
        if ch == '"' and (k == 0 or text[k - 1] != "\\"):
            quoted = not quoted
        elif ch == "#" and not quoted and (k == 0 or text[k - 1].isspace()) and \
                (k + 1 == len(text) or text[k + 1].isspace()):
            return k
    return -1


def _quote_concept(match: re.Match[str]) -> str:
    concept = match.group(2)
    if concept.startswith("#") or "/" in concept:
        return f'{match.group(1)}"{concept}"'
    return match.group(0)


def repaired(lines: List[Numbered]) -> Tuple[List[Numbered], List[Tuple[str, int]]]:
    """The lines with what the shared task's tools read through repaired: inline ``# comments`` removed,
    concepts such as ``#Forn`` or ``home/house`` quoted, missing final closing brackets added; and each
    repair (message, file line)."""
    out: List[Numbered] = []
    repairs: List[Tuple[str, int]] = []
    depth = 0
    for number, written in lines:
        text = written
        if "#" in text:
            cut = _comment_at(text)
            if cut >= 0:
                text = text[:cut].rstrip()
                repairs.append(("an inline comment (removed)", number))
        if _ODD_CONCEPT.search(text) is not None:
            quoted = _CONCEPT.sub(_quote_concept, text)
            if quoted != text:
                repairs.append(("a concept Penman cannot read unquoted (read as written)", number))
                text = quoted
        depth = max(0, scan(text, 0, depth, "(", ")")[1]) if text else depth
        if text.strip():
            out.append((number, text))
    if depth > 0 and out:
        number, text = out[-1]
        out[-1] = (number, text + ")" * depth)
        repairs.append((f"{depth} closing bracket(s) missing at the end (added)", number))
    return out, repairs


def sentence_graph(block: Block, gid: str, options: ReadOptions) -> Graph:
    """The graph of a block's ``# sentence level graph:`` section, with its variables and input;
    FormatError (line and graph id set, file not) when it cannot be read."""
    if "graph" not in block.sections:
        raise FormatError("the sentence has no '# sentence level graph:' section",
                          None, block.line, gid, "umr")
    header = block.sections["graph"][0]
    lines = [(number, text) for number, text in block.numbered("graph") if text and not text.isspace()]
    repairs: List[Tuple[str, int]] = []
    joined = "\n".join([text for _, text in lines])
    graph = _plain(joined, gid, options) if lines else None
    if graph is None:
        if not options.strict:
            lines, repairs = repaired(lines)
        if not lines:
            raise FormatError("the sentence level graph is empty", None, header, gid, "umr")
        end, extra = _extent(lines)
        if extra is not None:
            raise FormatError(f"Penman syntax error: unexpected '{excerpt(extra[1], 20)}' "
                              + ("after the end of the graph" if end is not None else "before the graph"),
                              None, extra[0], gid, "umr")
        used = lines[:end] if end is not None else lines
        joined = "\n".join([text for _, text in used])
        # in one pass where the plain grammar reads it (the same graph), else through penman's tree
        graph = fast_graph(joined, gid, options)
        if graph is None:
            graph = _tree_graph(joined, used, header, gid, options)
    graph.framework, graph.flavor = "umr", 2
    graph.breaks = breaks(joined)
    if repairs:
        graph.repairs = (graph.repairs or []) + [f"{message} (line {number})" for message, number in repairs]
    tokens = block.tokens()
    graph.input = " ".join(tokens) if tokens else None
    graph.line = block.line
    return graph


def _plain(joined: str, gid: str, options: ReadOptions) -> Optional[Graph]:
    """The graph of a section's text read in one pass where nothing in it is repaired or cut (no ``#``, no
    concept to quote) and the plain grammar reads it whole (one graph, closed, nothing after it: its
    brackets balance, so no bracket is added and every line is the graph's); None for any other text.  The
    same graph as :func:`repaired`, :func:`_extent` and :func:`fast_graph` give it, without their passes."""
    if "#" in joined or _ODD_CONCEPT.search(joined) is not None:
        return None
    return fast_graph(joined, gid, options)


def _tree_graph(joined: str, used: List[Numbered], header: int, gid: str, options: ReadOptions) -> Graph:
    """The graph of a sentence's Penman text (``joined``, its lines ``used``) read through penman's tree, with
    its variables; FormatError (line and graph id set, file not) when it cannot be read."""
    def parsed() -> Graph:
        text, masked = mask(joined)
        tree = penman.parse(text)
        if masked:
            tree = penman.Tree(unmask(tree.node, masked), metadata=tree.metadata)
        if messages:
            message, _, text = messages[0].partition(": ")
            number = next((where for where, line in used if line == text), used[0][0])
            raise FormatError(f"Penman syntax error: {message.lower()}", None, number, gid, "umr")
        _check_variables(tree, used, gid)
        graph, variables = tree_graph(tree, gid, options)
        graph.variables = dict(enumerate(variables))
        return graph

    with penman_warnings() as messages:
        try:
            try:
                return parsed()
            except RecursionError:  # read again with room for nesting as deep as the node limit
                return deeply(parsed)
        except penman.DecodeError as error:
            number = used[min(error.lineno, len(used)) - 1][0] if error.lineno else used[-1][0]
            where = f" (column {error.offset + 1})" if error.offset is not None else ""
            raise FormatError(f"Penman syntax error{where}: {error.message}", None, number, gid,
                              "umr") from None
        except ValueError as error:
            raise FormatError(str(error), None, header, gid, "umr") from None
        except RecursionError:
            raise FormatError("graph is nested too deeply to be read", None, header, gid, "umr") from None
