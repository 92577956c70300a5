"""Level 2, the second block: the sentence-level graph's syntax, its node ids and references."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Set

from mrp.validation.umr.blocks import Block, stripped
from mrp.validation.umr.state import State, variable

CONCEPT = re.compile(r"[^\s():#]+")
RELATION = re.compile(r":[-A-Za-z0-9]+")
STRING = re.compile(r'"([^"]+)"')
NUMBER = re.compile(r"([0-9]+(?:[.:][0-9]+)?)(\s|\)|$)")
ATOM = re.compile(r"([-+a-z0-9]+)(\s|\)|$)")
UPPER_ATOM = re.compile(r"([-+a-z0-9A-Z_]+)(\s|\)|$)")
#: relations that may close a cycle
CYCLE_FREE = (":quote", ":modal-predicate")


def _strip(text: str) -> str:
    return stripped(text)


def dominates(top: str, target: str, nodes: Dict[str, Dict[str, Any]], seen: Set[str]) -> bool:
    """Whether a path of outgoing node relations (but :quote and :modal-predicate) leads from ``top`` to
    ``target``."""
    todo = [top]  # depth first, without recursion (a chain may be thousands of nodes long)
    seen.add(top)
    while todo:
        children = [r.get("value") for r in nodes.get(todo.pop(), {}).get("relations", [])
                    if r.get("type") == "node" and r["dir"] == "out" and r.get("value") in nodes
                    and r["relation"] not in CYCLE_FREE]
        if target in children:
            return True
        for child in children:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return False


def check(sentence: List[Block], state: State) -> None:
    """The graph of ``sentence[1]``: its nodes go to ``state.nodes`` and ``sentence[1]["nodes"]``."""
    block = sentence[1]
    nodes = state.nodes
    if state.checks.block_headers and "# sentence level graph:" not in block["comments"]:
        state.report(2, "Sentence", "missing-heading-sentence-level", "no '# sentence level graph:' heading",
                     block["line0"])
    mine: Set[str] = set()
    block["nodes"] = mine
    stack: List[str] = []
    expecting = True  # a node definition: at the start, and after a relation without a value
    ended = False
    ended_reported = False
    line = block["line0"] + len(block["comments"]) - 1
    for text in block["lines"]:
        line += 1
        rest = text
        while rest:
            if ended:
                state.report(2, "Sentence", "premature-closing-bracket",
                             f"content after the graph's last closing bracket: '{rest[:40]}'", line)
                ended_reported = True
                break
            rest = _strip(rest)
            if rest.startswith("("):
                if not expecting:
                    state.report(2, "Sentence", "extra-opening-bracket", f"a node where none is expected: "
                                 f"'{rest[:40]}'", line)
                rest = _strip(rest[1:])
                name = variable(rest)
                if name is not None:
                    if stack:  # the value of the parent's last relation, as validate.py takes it (a node
                        relations = nodes[stack[-1]].get("relations")  # opened without a role before any
                        if relations:  # relation has none: validate.py fails there; reported above)
                            relations[-1]["value"] = name
                    rest = _strip(rest[len(name):])
                    if name in nodes:
                        state.report(2, "Sentence", "non-unique-node-id",
                                     f"node id '{name}' used before (line "
                                     f"{nodes[name]['line0']})", line)
                    else:
                        nodes[name] = {"variable": name, "line0": line}
                        mine.add(name)
                        stack.append(name)
                    if rest.startswith("/"):
                        rest = _strip(rest[1:])
                        concept = CONCEPT.match(rest)
                        if concept:
                            nodes[name]["concept"] = concept.group(0)
                            rest = _strip(rest[concept.end():])
                        else:
                            state.report(2, "Sentence", "missing-concept-string",
                                         f"no concept: '{rest[:40]}'",
                                         line)
                    else:
                        state.report(2, "Sentence", "missing-slash", f"no '/' and concept: '{rest[:40]}'",
                                     line)
                else:
                    state.report(2, "Sentence", "missing-variable", f"no node id: '{rest[:40]}'", line)
                expecting = False
            elif RELATION.match(rest):
                rest = _relation(rest, line, expecting, stack, mine, state)
                expecting = rest.startswith("\0")
                rest = rest.lstrip("\0")
            elif rest.startswith(")"):
                if expecting:
                    state.report(2, "Sentence", "missing-node-definition", f"a relation without a value: "
                                 f"'{rest[:40]}'", line)
                if not stack:
                    state.report(2, "Sentence", "extra-closing-bracket", f"a closing bracket too many: "
                                 f"'{rest[:40]}'", line)
                else:
                    stack.pop()
                    ended = not stack
                rest = _strip(rest[1:])
                expecting = False
            else:
                if expecting:
                    state.report(2, "Sentence", "missing-node-definition", f"expected a node: '{rest[:40]}'",
                                 line)
                else:
                    state.report(2, "Sentence", "invalid-sentence-level", f"expected a relation or a closing "
                                 f"bracket: '{rest[:40]}'", line)
                rest = ""
        if ended_reported:
            break
    if stack:
        state.report(2, "Sentence", "missing-closing-bracket", f"{len(stack)} nodes not closed: {stack}",
                     line)
    if not state.checks.forward_references:  # references checked once the whole graph is read
        for name, at in state.references:
            if name in mine:
                continue
            if name in nodes:
                state.report(2, "Sentence", "cross-sentence-reference", f"'{name}' is a node of another "
                             f"sentence (line {nodes[name]['line0']})", at)
            else:
                state.report(2, "Sentence", "unknown-node-id", f"node id '{name}' is not defined in this "
                             "sentence", at)
    state.references = []
    for name in mine:
        node = nodes[name]
        node.setdefault("concept", "")
        node.setdefault("relations", [])
        for relation in node["relations"]:
            relation.setdefault("value", "")
    for name in sorted(mine, key=lambda n: (nodes[n]["line0"], n)):  # validate.py: its set's order, by run
        for relation in [r for r in nodes[name]["relations"]
                         if r["dir"] == "out" and r.get("type") == "node"]:
            if relation["value"] in nodes:
                nodes[relation["value"]].setdefault("relations", []).append(
                    {"dir": "in", "type": "node", "value": name, "relation": relation["relation"],
                     "line0": relation["line0"]})


def _relation(rest: str, line: int, expecting: bool, stack: List[str], mine: Set[str], state: State) -> str:
    """A relation and its value; the rest of the line, prefixed with NUL when a node definition follows."""
    nodes = state.nodes
    if expecting:
        state.report(2, "Sentence", "missing-node-definition", f"a relation where a node is expected: "
                     f"'{rest[:40]}'", line)
    found = RELATION.match(rest)
    assert found is not None
    parent: Dict[str, Any] = {"relations": []}
    if stack:
        parent = nodes[stack[-1]]
        parent.setdefault("relations", [])
    relation: Dict[str, Any] = {"relation": found.group(0), "dir": "out", "line0": line}
    parent["relations"].append(relation)
    rest = _strip(rest[found.end():])
    string = STRING.match(rest)
    name = variable(rest)
    if string:
        relation.update(type="string", value=string.group(1))
        return _strip(rest[string.end():])
    if name is not None:
        state.references.append((name, line))
        if name not in mine and state.checks.forward_references:
            if name in nodes:
                state.report(2, "Sentence", "cross-sentence-reference", f"'{name}' is a node of another "
                             f"sentence (line {nodes[name]['line0']})", line)
            else:
                state.report(2, "Sentence", "unknown-node-id", f"node id '{name}' is not defined (yet)", line)
        relation.update(type="node", value=name)
        if state.checks.cycles and dominates(name, name, nodes, set()):
            state.report(2, "Sentence", "cycle",
                         f"node '{name}' (line {nodes[name]['line0']}) dominates itself",
                         line)
        return _strip(rest[len(name):])
    for pattern in (ATOM, NUMBER, UPPER_ATOM):
        atom = pattern.match(rest)
        if atom:
            relation.update(type="atom", value=atom.group(1))
            if pattern is UPPER_ATOM:
                state.report(2, "Sentence", "value-wrong-chars", f"an atomic value with uppercase letters or "
                             f"underscores: '{atom.group(1)}'", line)
            return _strip(atom.group(2) + rest[atom.end():])
    relation["type"] = "node"
    return "\0" + rest
