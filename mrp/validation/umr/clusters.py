"""Level 3 after the last sentence: coreference clusters (validate.py's ``coref-wiki-mismatch``), as
validate.py builds them, for its check and its ``--print-clusters`` report.

The ``:same-entity`` and ``:same-event`` relations of every document-level annotation in the file, in file
order, join nodes into clusters.  A cluster is named by one of its nodes: of the two ends of a relation (each
taken as the name of its cluster when it has one), the one defined on the earlier line, the lesser name on the
same line.  An end in a cluster of another name moves with that whole cluster into the relation's; the
cluster it leaves stays, empty (validate.py lists it so).  In each cluster, in the order the clusters were
named and the members in the order of their names, the first node with a ``:wiki`` value sets the cluster's;
every later node with another ``:wiki`` value is reported at the line that defines it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Set

from mrp.validation.umr.blocks import Block
from mrp.validation.umr.state import State

_COREF = (":same-entity", ":same-event")


@dataclass
class Clusters:
    """The coreference clusters of a file: name -> members, in the order they were named (empty ones
    too); each clustered node's cluster and the line of its first coreference relation."""

    members: Dict[str, Set[str]] = field(default_factory=dict)
    cluster: Dict[str, str] = field(default_factory=dict)
    line: Dict[str, int] = field(default_factory=dict)


def _named(a: str, b: str, found: Clusters, state: State) -> str:
    a, b = found.cluster.get(a, a), found.cluster.get(b, b)
    line_a, line_b = state.nodes[a]["line0"], state.nodes[b]["line0"]
    if line_a != line_b:
        return a if line_a < line_b else b
    return min(a, b)


def clusters_of(sentences: List[List[Block]], state: State) -> Clusters:
    """The coreference clusters of the file.

    Args:
        sentences: the sentences that passed level 1, after their level-2 checks.
        state: the file's checks.

    Returns:
        The clusters.
    """
    found = Clusters()
    for sentence in sentences:
        for relation in sentence[3].get("relations", []):
            if relation["group"] != ":coref" or relation["relation"] not in _COREF:
                continue
            ends = [relation["node0"], relation["node1"]]
            if not all(end in state.nodes for end in ends):
                continue
            name = _named(ends[0], ends[1], found, state)
            into = found.members.setdefault(name, set())
            for end in ends:
                old = found.cluster.get(end)
                if old is None:
                    found.cluster[end] = name
                    into.add(end)
                elif old != name:
                    for member in sorted(found.members[old]):
                        found.members[old].discard(member)
                        into.add(member)
                        found.cluster[member] = name
                found.line.setdefault(end, relation["line0"])
    return found


def wiki(name: str, state: State) -> str:
    """A node's first ``:wiki`` value ('' without one)."""
    values = [r.get("value", "") for r in state.nodes[name].get("relations", [])
              if r.get("relation") == ":wiki"]
    return values[0] if values else ""


def check(sentences: List[List[Block]], state: State) -> Clusters:
    """``coref-wiki-mismatch`` over the sentences that passed level 1 (after their level-2 checks); returns
    the clusters."""
    found = clusters_of(sentences, state)
    for members in found.members.values():
        first = None
        for name in sorted(members):
            value = wiki(name, state)
            if value == "":
                continue
            if first is None:
                first = (name, value)
            elif value != first[1] and state.checks.wiki:
                state.report(3, "Document", "coref-wiki-mismatch",
                             f"node '{name}' has :wiki {value}, but it is coreferent with '{first[0]}', "
                             f"whose :wiki is {first[1]}", state.nodes[name]["line0"])
    return found


def lines(found: Clusters, state: State) -> List[str]:
    """validate.py's ``--print-clusters`` report (without Wikidata's labels: mrp does not go online)."""
    out = []
    for name, members in found.members.items():
        out.append(f"Coreference cluster '{name}': ")
        for member in sorted(members):
            node = state.nodes[member]
            words = node.get("alignment", {}).get("tokstr", "")
            out.append(f"  {member} ({words} / {node.get('concept', '')}) wiki '{wiki(member, state)}' "
                       f"line {node.get('line0', 0)}")
    return out
