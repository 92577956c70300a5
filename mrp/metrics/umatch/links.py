"""The comparator's node correspondence (``compare_umr.pl``): nodes sharing an aligned token are linked,
unaligned nodes with equal (extended) concepts are linked, and ambiguous links are removed greedily
until every node has at most one counterpart.

The greedy order, strongest first: the same extended concept; more matching (name, value) pairs under
the current projection; more shared relation names; longer aligned texts; the same variable; the
variables' concatenation in code-point order; then the order the links were found.  After each
decision every link is looked at again.

With a deadline (a pair's --timeout) the greedy stops when it passes, keeping the links it has made 1:1
by then: each a link the whole greedy keeps too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from mrp.metrics.umatch.model import Node, Sentence
from mrp.metrics.umatch.triples import Selection, compare, matches, profile, projected, weak, weak_matches
from mrp.solver import clock

#: the greedy reads the clock before weighing the links of every this many nodes
EVERY = 16


@dataclass
class Link:
    """A candidate link from a node to a node of another file, with the greedy's criteria."""

    source: Node
    target: Node
    source_label: str
    target_label: str
    key: Tuple[bool, int, int, int, bool, str]
    strong: int
    weak: int
    #: the matched pairs and names, as --verbose shows them (only when asked for)
    shown: str = ""


def candidates(sentences: Sequence[Sentence], labels: Sequence[str], deadline: Optional[float] = None
               ) -> bool:
    """Link nodes of the same sentence in different files: by shared aligned tokens (within the first
    file's tokens), and unaligned nodes by equal extended concepts.

    Args:
        sentences: the sentence of each file.
        labels: the files' labels.
        deadline: a :func:`mrp.solver.watchdog.clock` time at which to stop (None: none).

    Returns:
        Whether the deadline stopped it: then no node has a link (the greedy has nothing decided).
    """
    width = len(sentences[0].tokens)
    by_token: List[List[List[Node]]] = []
    unaligned: List[List[Node]] = []
    for sentence in sentences:
        tokens: List[List[Node]] = [[] for _ in range(width)]
        loose: List[Node] = []
        for variable in sorted(sentence.nodes):
            node = sentence.nodes[variable]
            if node.alignment is None:
                loose.append(node)
                continue
            for position in node.alignment:
                if position < width:
                    tokens[position].append(node)
        by_token.append(tokens)
        unaligned.append(loose)
    for position in range(width):
        if _late(deadline, position, sentences, labels):
            return True
        for a in range(len(labels)):
            for node in by_token[a][position]:
                for b, label_b in enumerate(labels):
                    if b == a:
                        continue
                    links = node.cross.setdefault(label_b, {})
                    for other in by_token[b][position]:
                        links[other.variable] = links.get(other.variable, 0) + 1
    for a, label_a in enumerate(labels):
        for b in range(a + 1, len(labels)):
            label_b = labels[b]
            by_concept: Dict[str, List[Node]] = {}  # in order: the links as a loop over all pairs makes them
            for other in unaligned[b]:
                by_concept.setdefault(other.econcept or "", []).append(other)
            for k, node in enumerate(unaligned[a]):
                if _late(deadline, k, sentences, labels):
                    return True
                for other in by_concept.get(node.econcept or "", ()):
                    links = node.cross.setdefault(label_b, {})
                    links[other.variable] = links.get(other.variable, 0) + 1
                    back = other.cross.setdefault(label_a, {})
                    back[node.variable] = back.get(node.variable, 0) + 1
    return False


def _late(deadline: Optional[float], k: int, sentences: Sequence[Sentence], labels: Sequence[str]) -> bool:
    """Whether the deadline has passed, read every :data:`EVERY` steps; when it has, every link of the
    sentences' nodes is dropped."""
    if deadline is None or k % EVERY or clock() < deadline:
        return False
    for sentence, label in zip(sentences, labels):
        for node in sentence.nodes.values():
            for other in labels:
                if other != label:
                    node.cross[other] = {}
    return True


def _ambiguous(sentence0: Sentence, variable: str, sentence1: Sentence, label0: str, label1: str,
               selection: Selection, verbose: bool) -> List[Link]:
    """The links of one node when it has several (after dropping those not returned)."""
    node = sentence0.nodes[variable]
    links = node.cross.get(label1)
    if not links:
        return []
    nodes0, nodes1 = sentence0.nodes, sentence1.nodes
    kept = []
    for other in sorted(links) if len(links) > 1 else list(links):
        back = nodes1[other].cross.get(label0)
        if back is None or variable not in back:
            del links[other]
        else:
            kept.append(other)
    if len(kept) < 2:
        return []
    node.ambiguous_to(label1, list(kept))
    out = []
    length = len(node.aligned_text)
    econcept = node.econcept or ""
    mine = profile(node, nodes0, selection)
    values = projected(node, nodes0, label1, selection)[0]
    for other in kept:
        target = nodes1[other]
        theirs = profile(target, nodes1, selection)
        strong = matches(values, theirs.own)
        names = weak(mine, theirs)
        key = (econcept != (target.econcept or ""), -strong, -names, -(length + len(target.aligned_text)),
               variable != other, variable + other)
        shown = ""
        if verbose:
            found = compare(node, nodes0, target, nodes1, label1, selection, True)
            matched = ",".join(f"{n}={v}" for n, v, _ in found.matches)
            shown = f"match={strong} ({matched}), weak match={names} ({','.join(weak_matches(node, target))})"
        out.append(Link(node, target, label0, label1, key, strong, names, shown))
    return out


def symmetrize(sentence0: Sentence, sentence1: Sentence, label0: str, label1: str,
               selection: Selection, verbose: bool = False, deadline: Optional[float] = None) -> bool:
    """Remove ambiguous links greedily until the projection between the two sentences is 1:1.

    Args:
        sentence0: the first file's sentence.
        sentence1: the other file's.
        label0: the first file's label.
        label1: the other file's.
        selection: the relations counted.
        verbose: keep what each winning link matched (--verbose).
        deadline: a :func:`mrp.solver.watchdog.clock` time at which to stop (None: none); the clock is
            read between nodes, every :data:`EVERY` nodes weighed.

    Returns:
        Whether the deadline stopped it: then only the links that were 1:1 by then are kept (see
        :func:`keep_decided`).
    """
    sides = [(first, [(variable, first.nodes[variable]) for variable in sorted(first.nodes)], second,
              second.nodes, mine, theirs)
             for first, second, mine, theirs in ((sentence0, sentence1, label0, label1),
                                                 (sentence1, sentence0, label1, label0))]
    while True:
        pending: List[Link] = []
        weighed = 0
        for first, ordered, second, others, mine, theirs in sides:
            for variable, node in ordered:
                if deadline is not None and weighed % EVERY == 0 and clock() >= deadline:
                    keep_decided(sentence0, sentence1, label0, label1)
                    return True
                weighed += 1
                links = node.cross.get(theirs)
                if not links:
                    continue
                if len(links) == 1:  # as _ambiguous does it: a link not returned dropped, none weighed
                    for other in links:
                        back = others[other].cross.get(mine)
                        if back is None or variable not in back:
                            del links[other]
                        break
                    continue
                pending.extend(_ambiguous(first, variable, second, mine, theirs, selection, verbose))
        if not pending:
            return False
        winner = min(pending, key=lambda link: link.key)
        if verbose:
            winner.source.won(winner.target_label, describe(winner))
        winner.source.cross[winner.target_label] = {winner.target.variable: 1}
        winner.target.cross[winner.source_label] = {winner.source.variable: 1}


def remember(sentence0: Sentence, sentence1: Sentence, label0: str, label1: str, selection: Selection
             ) -> None:
    """Keep on ``sentence0`` what :func:`symmetrize`, run to its end on the two sentences' candidate links
    (:func:`candidates`), decided: each node's link and the nodes found ambiguous, on both sides. The greedy
    depends on nothing else, so a later run on the same sentences and selection (the exact map's start)
    takes it from there (:func:`recall`). The arguments are :func:`symmetrize`'s, once it has run to its end.
    """
    links = {variable: next(iter(node.cross[label1])) for variable, node in sentence0.nodes.items()
             if node.cross.get(label1)}
    ambiguous = [{variable: list(node.ambiguous[theirs]) for variable, node in sentence.nodes.items()
                  if theirs in node.ambiguous}
                 for sentence, theirs in ((sentence0, label1), (sentence1, label0))]
    sentence0.greedy[(label0, label1, selection)] = (sentence1, links, ambiguous)


def recall(sentence0: Sentence, sentence1: Sentence, label0: str, label1: str, selection: Selection
           ) -> Optional[Dict[str, str]]:
    """The links :func:`remember` kept for the two sentences (variable -> variable), the nodes it found
    ambiguous marked again as :func:`symmetrize` marks them; None when none were kept."""
    found = sentence0.greedy.get((label0, label1, selection))
    if found is None or found[0] is not sentence1:
        return None
    for sentence, theirs, marked in zip((sentence0, sentence1), (label1, label0), found[2]):
        for variable, kept in marked.items():
            sentence.nodes[variable].ambiguous_to(theirs, list(kept))
    return dict(found[1])


def keep_decided(sentence0: Sentence, sentence1: Sentence, label0: str, label1: str) -> None:
    """Keep, of the links between two sentences, those already 1:1 (a node linked to a single node that
    is linked back to it alone): no later decision of the greedy removes one.

    Args:
        sentence0: the first file's sentence.
        sentence1: the other file's.
        label0: the first file's label.
        label1: the other file's.
    """
    def returned(node: Node, label: str, back: Sentence, label_back: str) -> List[str]:
        return [other for other in node.cross.get(label) or {}
                if node.variable in (back.nodes[other].cross.get(label_back) or {})]

    kept = {}
    for node in sentence0.nodes.values():
        found = returned(node, label1, sentence1, label0)
        if len(found) == 1 and \
                returned(sentence1.nodes[found[0]], label0, sentence0, label1) == [node.variable]:
            kept[node.variable] = found[0]
    for node in sentence0.nodes.values():
        node.cross[label1] = {kept[node.variable]: 1} if node.variable in kept else {}
    back = {other: variable for variable, other in kept.items()}
    for node in sentence1.nodes.values():
        node.cross[label0] = {back[node.variable]: 1} if node.variable in back else {}


def text(node: Node) -> str:
    """What names a node in the comparator's messages: its aligned words, else its extended concept (a
    text of "0" counts as none, as in Perl)."""
    shown = node.aligned_text
    return shown if shown and shown != "0" else (node.econcept or "")


def describe(link: Link) -> str:
    """A winning link as the comparator's --verbose names it (its matches when the link was weighed)."""
    source, target = link.source, link.target
    return (f"{link.source_label} node {source.variable} ({text(source)}) <--> {link.target_label} node "
            f"{target.variable} ({text(target)}): econcepts={source.econcept or ''}/{target.econcept or ''}, "
            f"{link.shown}")
