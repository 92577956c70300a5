"""What went wrong in a sentence pair under its correspondence: the node pairs, the nodes left without a
counterpart, and each mismatched (name, value) pair (``--errors``, ``--verbose``)."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from mrp.metrics.umatch.model import Sentence
from mrp.metrics.umatch.triples import Selection, compare


def differences(sentence0: Sentence, sentence1: Sentence, label0: str, label1: str,
                selection: Selection, names: Tuple[str, str] = ("gold", "system")) -> Dict[str, Any]:
    """The correspondence and the mismatches of a mapped sentence pair (files ``label0``, ``label1``), as
    JSON data naming the sides ``names``."""
    nodes0, nodes1 = sentence0.nodes, sentence1.nodes
    pairs: List[List[str]] = []
    mismatches: List[Dict[str, str]] = []
    for variable in sorted(nodes0):
        node = nodes0[variable]
        linked = node.mapped(label1)
        other = nodes1.get(linked[0]) if linked else None
        if other is not None:
            pairs.append([variable, other.variable])
        found = compare(node, nodes0, other, nodes1, label1 if other is not None else None, selection, True)
        for name, mine, theirs in found.mismatches:
            mismatches.append({"node": variable, "concept": node.concept, "relation": name, names[0]: mine,
                               names[1]: theirs})
    for variable in sorted(nodes1):
        node = nodes1[variable]
        if node.mapped(label0):
            continue
        found = compare(node, nodes1, None, nodes0, None, selection, True)
        for name, mine, _ in found.mismatches:
            mismatches.append({"node": variable, "concept": node.concept, "relation": name, names[0]: "",
                               names[1]: mine})
    return {"correspondences": pairs,
            "unmapped": {names[0]: sorted(v for v in nodes0 if not nodes0[v].mapped(label1)),
                         names[1]: sorted(v for v in nodes1 if not nodes1[v].mapped(label0))},
            "alignments": {names[0]: _alignments(sentence0), names[1]: _alignments(sentence1)},
            "mismatches": mismatches}


def _alignments(sentence: Sentence) -> Dict[str, List[int]]:
    return {variable: [k + 1 for k in node.alignment] for variable, node in sorted(sentence.nodes.items())
            if node.alignment}
