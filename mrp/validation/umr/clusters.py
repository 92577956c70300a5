"""Level 3 after the last sentence: coreference clusters (validate.py's ``coref-wiki-mismatch``).

The ``:same-entity`` and ``:same-event`` relations of every document-level annotation in the file join
nodes into clusters (connected components).  In each cluster, taken in the order of the node ids, the first
node with a ``:wiki`` value sets the cluster's; every later node with another ``:wiki`` value is reported at
the line that defines it.
"""

from __future__ import annotations

from typing import Dict, List

from mrp.validation.umr.blocks import Block
from mrp.validation.umr.state import State

_COREF = (":same-entity", ":same-event")


def _root(parent: Dict[str, str], name: str) -> str:
    while parent[name] != name:
        parent[name] = parent[parent[name]]
        name = parent[name]
    return name


def clusters_of(sentences: List[List[Block]], state: State) -> List[List[str]]:
    """The coreference clusters of the file (each its node ids, sorted), in the order of their first node.

    Args:
        sentences: the sentences that passed level 1, after their level-2 checks.
        state: the file's checks.

    Returns:
        The clusters.
    """
    parent: Dict[str, str] = {}
    for sentence in sentences:
        for relation in sentence[3].get("relations", []):
            if relation["group"] != ":coref" or relation["relation"] not in _COREF:
                continue
            ends = [relation["node0"], relation["node1"]]
            if not all(end in state.nodes for end in ends):
                continue
            for end in ends:
                parent.setdefault(end, end)
            parent[_root(parent, ends[0])] = _root(parent, ends[1])
    clusters: Dict[str, List[str]] = {}
    for name in parent:
        clusters.setdefault(_root(parent, name), []).append(name)
    return sorted((sorted(members) for members in clusters.values()),
                  key=lambda members: state.nodes[members[0]].get("line0", 0))


def check(sentences: List[List[Block]], state: State) -> None:
    """``coref-wiki-mismatch`` over the sentences that passed level 1 (after their level-2 checks)."""
    for members in clusters_of(sentences, state):
        first = None
        for name in members:
            node = state.nodes[name]
            wikis = [r.get("value", "") for r in node.get("relations", []) if r.get("relation") == ":wiki"]
            if not wikis or wikis[0] == "":
                continue
            if first is None:
                first = (name, wikis[0])
            elif wikis[0] != first[1] and state.checks.wiki:
                state.report(3, "Document", "coref-wiki-mismatch",
                             f"node '{name}' has :wiki {wikis[0]}, but it is coreferent with '{first[0]}', "
                             f"whose :wiki is {first[1]}", node["line0"])
