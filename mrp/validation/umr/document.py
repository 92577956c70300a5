"""Level 2, the fourth block: the document-level annotation's syntax, and the nodes its relations name."""

from __future__ import annotations

import re
from typing import List

from mrp.validation.umr.blocks import Block, stripped
from mrp.validation.umr.graph import RELATION
from mrp.validation.umr.state import State

SENTENCE_NODE = re.compile(r"s[0-9]+s0")
END = re.compile(r"([a-z]+(?:-[a-z91]+)*|s[0-9]+[a-z]+[0-9]*)(\s|\)|$)")
#: the nodes a document-level relation may name besides variables
CONSTANTS = frozenset({"root", "author", "null-conceiver", "have-condition-91", "document-creation-time",
                       "past-reference", "present-reference", "future-reference"})


def check(sentence: List[Block], state: State) -> None:
    """The annotation of ``sentence[3]`` (its relations kept as ``sentence[3]["relations"]``)."""
    block = sentence[3]
    if state.checks.block_headers and "# document level annotation:" not in block["comments"]:
        state.report(2, "Document", "missing-heading-alignment", "no '# document level annotation:' heading",
                     block["line0"])
    expecting = "initial opening bracket"
    line = block["line0"] + len(block["comments"]) - 1
    group = relation = first = ""
    first_line = line
    relations: List[dict] = []  # type: ignore[type-arg]
    block["relations"] = relations

    def unexpected(text: str) -> None:
        state.report(2, "Document", "invalid-document-level", f"expected {expecting}, found '{text[:40]}'",
                     line)

    for text in block["lines"]:
        line += 1
        rest = text
        while rest:
            rest = stripped(rest)
            if rest.startswith("("):
                following = {"initial opening bracket": "sentence variable id",
                             "group opening bracket": "relation opening bracket",
                             "relation opening bracket": "the first node of a relation",
                             "relation opening bracket or group closing bracket":
                                 "the first node of a relation"}
                if expecting in following:
                    expecting = following[expecting]
                else:
                    unexpected(rest)
                rest = stripped(rest[1:])
            elif SENTENCE_NODE.match(rest):
                name = SENTENCE_NODE.match(rest).group(0)  # type: ignore[union-attr]
                if expecting != "sentence variable id":
                    unexpected(rest)
                    break
                rest = stripped(rest[len(name):])
                if name in state.nodes:
                    state.report(2, "Document", "non-unique-node-id", f"node id '{name}' used before (line "
                                 f"{state.nodes[name]['line0']})", line)
                else:
                    state.nodes[name] = {"line0": line}
                if rest.startswith("/ sentence"):
                    rest = stripped(rest[10:])
                else:
                    state.report(2, "Document", "missing-sentence-concept", f"expected '/ sentence', found "
                                 f"'{rest[:40]}'", line)
                expecting = "relation group or final closing bracket"
            elif END.match(rest):
                found = END.match(rest)
                assert found is not None
                if expecting == "the first node of a relation":
                    first, first_line, expecting = found.group(1), line, "relation"
                elif expecting == "the second node of the relation":
                    relations.append({"group": group, "relation": relation, "node0": first,
                                      "node1": found.group(1), "line0": first_line})
                    expecting = "relation closing bracket"
                else:
                    unexpected(rest)
                    break
                rest = stripped(found.group(2) + rest[found.end():])
            elif RELATION.match(rest):
                found = RELATION.match(rest)
                assert found is not None
                if expecting in ("relation group", "relation group or final closing bracket"):
                    group, expecting = found.group(0), "group opening bracket"
                elif expecting == "relation":
                    relation, expecting = found.group(0), "the second node of the relation"
                else:
                    unexpected(rest)
                rest = stripped(rest[found.end():])
            elif rest.startswith(")"):
                following = {"relation closing bracket": "relation opening bracket or group closing bracket",
                             "relation opening bracket or group closing bracket":
                                 "relation group or final closing bracket",
                             "relation group or final closing bracket": "end of document level annotation"}
                if expecting in following:
                    expecting = following[expecting]
                else:
                    unexpected(rest)
                rest = stripped(rest[1:])
            else:
                state.report(2, "Document", "invalid-document-level", f"unexpected '{rest[:40]}'", line)
                rest = ""
    if expecting not in ("initial opening bracket", "end of document level annotation"):
        state.report(2, "Document", "missing-closing-bracket", f"the annotation ends early, expecting "
                     f"{expecting}", line)


def check_nodes(sentence: List[Block], state: State) -> None:
    """Each relation's ends are known nodes (or constants), and one of them is of this sentence."""
    nodes = state.nodes
    start = sentence[0]["line0"]
    for relation in sentence[3]["relations"]:
        for end in ("node0", "node1"):
            name = relation[end]
            if name not in nodes and name not in CONSTANTS:
                state.report(2, "Document", "unknown-node-id", f"node id '{name}' is not defined (yet)",
                             relation["line0"])
                nodes[name] = {"concept": "UNKNOWN", "relations": [], "alignment": {"tokids": [],
                                                                                    "tokstr": ""},
                               "line0": relation["line0"]}
        a, b = relation["node0"], relation["node1"]
        line_a = nodes[a]["line0"] if a in nodes else -1
        line_b = nodes[b]["line0"] if b in nodes else -1
        if line_a < start and line_b < start and (a, b) not in (("root", "author"), ("author",
                                                                                     "have-condition-91")):
            state.report(2, "Document", "misplaced-document-relation",
                         f"neither '{a}' nor '{b}' is a node of this "
                         "sentence", relation["line0"])
