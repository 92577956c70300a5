"""Level 3: UMR content checks that need no language-specific tables: known relations and their values,
repeated and skipped relations, names and wiki ids, events (``:aspect``, a temporal relation, no
sentence-level ``:modal-strength``), coreference of entities with events, document-level relation labels;
and validate.py's ``--print-relations`` report of each sentence.  (The document-wide checks of coreference
clusters and of the temporal graph follow the last sentence: :mod:`.clusters`, :mod:`.temporal`.)"""

from __future__ import annotations

import re
from typing import Any, Dict, List

from mrp.validation.umr.blocks import Block
from mrp.validation.umr.inventory import DISCOURSE, DOCUMENT, NON_EVENTS, RELATIONS, VALUES
from mrp.validation.umr.state import State, whole

_OP = re.compile(r":op([1-9][0-9]*)$")
_INVERSE = re.compile(r"-of$")
_EVENT_OUT = re.compile(r":(ARG[0-6]|aspect|modstr)$")
_EVENT_IN = re.compile(r":ARG[0-6]-of$")
_WIKI = re.compile(r"Q[1-9][0-9]*$")


def check(sentence: List[Block], state: State) -> None:
    """The level-3 checks of one sentence that passed levels 1 and 2."""
    nodes = sorted((state.nodes[name] for name in sentence[1]["nodes"]), key=lambda node: node["line0"])
    _relations(nodes, state)
    _names(nodes, state)
    if state.checks.wiki:
        _wiki(nodes, state)
    _events(sentence, state)
    if state.checks.aspect_modstr:
        _event_attributes(sentence, nodes, state)
    _document(sentence, state)


def _known(name: str) -> bool:
    return name in RELATIONS or bool(_OP.match(name))


def _kind(name: str) -> Any:
    return RELATIONS.get(name) or (RELATIONS[":op1"] if _OP.match(name) else None)


def _relations(nodes: List[Dict[str, Any]], state: State) -> None:
    for node in nodes:
        relations = node.get("relations", [])
        for relation in sorted((r for r in relations if r["dir"] == "out"), key=lambda r: r["line0"]):
            name = _INVERSE.sub("", relation["relation"])
            kind = _kind(name)
            if kind is None:
                state.report(3, "Sentence", "unknown-relation", f"unknown relation '{relation['relation']}'",
                             relation["line0"])
                continue
            role, values = kind[0], VALUES.get(name, frozenset())
            if relation["relation"] == ":ARG2" and node["concept"] == "have-polarity-91":
                role, values = "attribute", frozenset({"+", "-"})
            if relation["relation"] == ":ARG1" and node["concept"] == "rate-entity-91":
                role = "attribute"
            if role != "attribute":
                if relation.get("type") != "node":
                    state.report(3, "Sentence", "unexpected-value", f"'{relation['relation']}' takes a node, "
                                 f"not the {relation.get('type')} '{relation['value']}'", relation["line0"])
            elif values and relation["value"] not in values:
                state.report(3, "Sentence", "unexpected-value", f"'{relation['value']}' is no value of "
                             f"'{relation['relation']}'", relation["line0"])
        counts: Dict[str, int] = {}
        first: Dict[str, int] = {}
        last: Dict[str, int] = {}
        for relation in sorted(relations, key=lambda r: r["line0"]):
            name = _INVERSE.sub("", relation["relation"])
            inverted = name != relation["relation"]
            if (relation["dir"] == "out" and not inverted) or (relation["dir"] == "in" and inverted):
                counts[name] = counts.get(name, 0) + 1
                first.setdefault(name, relation["line0"])
                last[name] = relation["line0"]
        for name in sorted(counts, key=lambda n: last[n]):
            kind = _kind(name)
            if counts[name] > 1 and kind is not None and not kind[1] and (state.checks.duplicate_roles
                                                                          or kind[0] == "attribute"):
                state.report(3, "Sentence", "repeated-relation",
                             f"node '{node['variable']}' has {counts[name]} "
                             f"'{name}' relations (first on line {first[name]})", last[name])
        ops = sorted(((whole(found.group(1)), r) for r in relations if r["dir"] == "out"
                      for found in [_OP.match(r["relation"])] if found), key=lambda pair: pair[0])
        for k, (number, relation) in enumerate(ops):
            if number > k + 1:
                state.report(3, "Sentence", "skipped-op-relation", f":op{number} without :op{number - 1}",
                             relation["line0"])
                break


def _names(nodes: List[Dict[str, Any]], state: State) -> None:
    for node in nodes:
        if node["concept"] != "name":
            continue
        incoming = first_op = False
        for relation in sorted(node["relations"], key=lambda r: r["line0"]):
            if relation["dir"] == "in":
                if relation["relation"] in (":name", ":ARG2"):
                    incoming = True
                else:
                    state.report(3, "Warning", "wrong-incoming-name", f"a name reached by "
                                 f"'{relation['relation']}'", relation["line0"])
            elif _OP.match(relation["relation"]):
                first_op = first_op or relation["relation"] == ":op1"
                if relation.get("type") != "string":
                    state.report(3, "Sentence", "unexpected-value",
                                 f"'{relation['relation']}' of a name takes "
                                 f"a string, not {relation.get('type')}", relation["line0"])
            else:
                state.report(3, "Warning", "wrong-outgoing-name", f"a name with '{relation['relation']}'",
                             relation["line0"])
        if not incoming:
            state.report(3, "Warning", "missing-incoming-name",
                         f"name {node['variable']} without an incoming "
                         "':name'", node["line0"])
        if not first_op:
            state.report(3, "Warning", "missing-outgoing-name", f"name {node['variable']} without ':op1'",
                         node["line0"])


def _wiki(nodes: List[Dict[str, Any]], state: State) -> None:
    for node in nodes:
        for relation in sorted(node["relations"], key=lambda r: r["line0"]):
            if relation["relation"] != ":wiki":
                continue
            if relation.get("type") != "string":
                state.report(3, "Sentence", "unexpected-value", f":wiki takes a string, not "
                             f"{relation.get('type')}", relation["line0"])
            elif not _WIKI.match(relation["value"]):
                state.report(3, "Sentence", "unexpected-value",
                             f":wiki takes a Wikidata id (Q and a number), "
                             f"not '{relation['value']}'", relation["line0"])


def _events(sentence: List[Block], state: State) -> None:
    """Which nodes are events (kept as ``event_reason``), and coreference that mixes entities and events."""
    nodes = state.nodes
    for name in sorted(sentence[1]["nodes"]):
        node = nodes[name]
        if node["concept"] in DISCOURSE or node["concept"] in NON_EVENTS:
            continue
        if "event_reason" not in node and re.match(r".+-91$", node["concept"]):
            _event(node, f"its concept is {node['concept']}",
                   f"its concept is {node['concept']} on line {node['line0']}")
        for relation in node["relations"]:
            if "event_reason" in node:
                break
            if relation["dir"] == "out" and _EVENT_OUT.match(relation["relation"]):
                _event(node, f"it has {relation['relation']} (line {relation['line0']})",
                       f"it has outgoing relation {relation['relation']} on line {relation['line0']} "
                       "(and it is not a known exception)")
            elif relation["dir"] == "in" and _EVENT_IN.match(relation["relation"]):
                _event(node, f"it is reached by {relation['relation']} (line {relation['line0']})",
                       f"it has incoming relation {relation['relation']} on line {relation['line0']} "
                       "(and it is not a known exception)")
    if state.relations is not None:
        state.relations.extend(relations_report(sentence, state))
    if not state.checks.coref_entity_event_mismatch:
        return  # validate.py then learns nothing from coreference either
    for relation in sentence[3]["relations"]:
        if relation["group"] != ":coref" or relation["relation"] not in (":same-event", ":same-entity"):
            continue
        event = relation["relation"] == ":same-event"
        mine, other = ("event_reason", "entity_reason") if event else ("entity_reason", "event_reason")
        for end in ("node0", "node1"):
            if relation[end] not in nodes:
                continue
            node = nodes[relation[end]]
            if other in node:
                state.report(3, "Document", "coref-entity-event-mismatch", f"'{relation[end]}' in "
                             f"{relation['relation']}, but {node[other]}", relation["line0"])
            if mine not in node and event:
                _event(node, f"it is in {relation['relation']} (line {relation['line0']})",
                       f"it participates in a :same-event relation on line {relation['line0']}")
            node.setdefault(mine, f"it is in {relation['relation']} (line {relation['line0']})")


def _event(node: Dict[str, Any], reason: str, said: str) -> None:
    """Take a node for an event: why, in mrp's words and in validate.py's (its reports show these)."""
    node["event_reason"] = reason
    node["event_said"] = said


def relations_report(sentence: List[Block], state: State) -> List[str]:
    """validate.py's ``--print-relations`` lines of a sentence, as its nodes are when its events are found:
    each node with its concept, line and aligned tokens; unless a discourse or non-event concept, its
    relations, why it is an event and an empty line."""
    out = []
    for name in sorted(sentence[1]["nodes"]):
        node = state.nodes[name]
        alignment = node.get("alignment", {})
        out.append(f"Node {name}, concept={node['concept']}, line={node['line0']}, "
                   f"tokens={alignment.get('tokids', [])} {alignment.get('tokstr', '')}")
        if node["concept"] in DISCOURSE or node["concept"] in NON_EVENTS:
            continue
        out.extend(f"  Relation {r['dir']} {r['relation']}, type={r.get('type')}, value={r.get('value')}, "
                   f"line={r['line0']}" for r in node["relations"])
        if "event_said" in node:
            out.append(f"  This node is an event because {node['event_said']}.")
        out.append("")
    return out


def _event_attributes(sentence: List[Block], nodes: List[Dict[str, Any]], state: State) -> None:
    for node in nodes:
        name = node["variable"]
        out = sorted((r for r in node["relations"] if r["dir"] == "out"), key=lambda r: r["line0"])
        aspect = [r for r in out if r["relation"] == ":aspect"]
        modal = [r for r in out if r["relation"] in (":modal-strength", ":modal-predicate")]
        if "event_reason" in node:
            if node["concept"] == "event":
                continue
            if not aspect:
                state.report(3, "Sentence", "missing-attribute", f"event {name} without :aspect "
                             f"({node['event_reason']})", node["line0"])
            if state.checks.document_level and modal and modal[0]["relation"] == ":modal-strength":
                state.report(3, "Warning", "sentence-level-modal-strength", ":modal-strength in the sentence "
                             "graph (deprecated: modality goes to the document level)", modal[0]["line0"])
                if modal[0].get("type") != "atom":
                    state.report(3, "Sentence", "invalid-attribute", f":modal-strength takes an atom, not "
                                 f"{modal[0].get('type')}", modal[0]["line0"])
            timed = any(r["group"] == ":temporal" and name in (r["node0"], r["node1"])
                        for r in sentence[3]["relations"])
            if state.checks.document_level and not timed:
                state.report(3, "Document", "missing-temporal", f"event {name} / {node['concept']} without a "
                             "temporal relation", sentence[3]["line0"])
        elif node["concept"] in NON_EVENTS or node["concept"] in DISCOURSE:
            for found in (aspect, modal):
                if found:
                    state.report(3, "Sentence", "unexpected-attribute", f"{found[0]['relation']} on "
                                 f"{node['concept']}, which is no event", found[0]["line0"])


def _document(sentence: List[Block], state: State) -> None:
    for relation in sentence[3]["relations"]:
        known = DOCUMENT.get(relation["group"])
        if known is None:
            state.report(3, "Document", "unknown-document-relation-group", f"unknown document-level list "
                         f"'{relation['group']}'", relation["line0"])
        elif relation["relation"] not in known:
            state.report(3, "Document", "unknown-document-relation", f"unknown {relation['group']} relation "
                         f"'{relation['relation']}'", relation["line0"])
