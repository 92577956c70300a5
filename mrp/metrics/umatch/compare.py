"""Comparing two or more UMR files sentence by sentence as ``compare_umr.pl`` does: the node
correspondence of :mod:`mrp.metrics.umatch.links` (or an exact one), and its counts: aligned token sets,
node projections, triples in mapped nodes and juːmæʧ (concepts and relations of every node, unmapped
nodes counting as wrong, plus document-level relations)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Set, Tuple

from mrp.errors import MRPError
from mrp.metrics.umatch import capped
from mrp.metrics.umatch.links import candidates, remember, symmetrize
from mrp.metrics.umatch.model import Node, Sentence, UmrFile
from mrp.metrics.umatch.triples import UNMAPPED, Selection, compare, matches, profiles, projection
from mrp.metrics.umatch.triples import Comparison as Compared  # a node pair's (this module's: a run's)
from mrp.solver import clock

#: maps one sentence pair's nodes 1:1 (the exact search), instead of the greedy
Mapper = Callable[[Sentence, Sentence, str, str, "Settings"], None]


@dataclass(frozen=True)
class Settings:
    """What the comparator's options change: ``--top``, ``--no-document-level``, ``--only``/``--except``."""

    selection: Selection = Selection()
    document_level: bool = True
    top: bool = False


class Comparison:
    """The counts of a comparison of files, per file and per other file (and per sentence pair)."""

    def __init__(self, files: Sequence[UmrFile], settings: Settings) -> None:
        self.files = list(files)
        self.labels = [umr.label for umr in files]
        if len(set(self.labels)) != len(self.labels):
            raise MRPError("file labels must be distinct")
        self.settings = settings
        self.nodes = Counter()  # type: Counter[str]
        self.tokens = Counter()  # type: Counter[str]
        self.projected: Dict[str, Counter] = {label: Counter() for label in self.labels}  # type: ignore[type-arg]
        self.counts: Dict[Tuple[str, str], Counter] = {}  # type: ignore[type-arg]
        #: (first label, second label) -> per sentence number: its counts (--trace, --errors)
        self.sentences: Dict[Tuple[str, str], List[Dict[str, int]]] = {}
        self.compared = 0
        self.warnings: List[str] = []
        #: the sentences (numbered from 1) whose links would have exceeded the memory cap: mapped in linear
        #: time instead of by the comparator's greedy (:mod:`.capped`)
        self.capped: Set[int] = set()
        #: the sentences whose greedy the clock stopped (``timeout``): mapped by the part it made by then
        self.stopped: Set[int] = set()
        #: (first label, second label) -> per sentence number: its document-level relations' (correct,
        #: total0, total1), as the greedy's run counted them (:func:`attributes`; none when it did not)
        self.documents: Dict[Tuple[str, str], List[Tuple[int, int, int]]] = {}

    def tally(self, label0: str, label1: str) -> Counter:  # type: ignore[type-arg]
        """The counts of file ``label0`` against file ``label1``."""
        return self.counts.setdefault((label0, label1), Counter())


def run(files: Sequence[UmrFile], settings: Settings, mapper: Optional[Mapper] = None,
        verbose: Optional[Callable[[int, Sequence[Sentence], Comparison], None]] = None,
        check_tokens: bool = True, max_memory: Optional[int] = None,
        timeout: Optional[float] = None, one_way: bool = False) -> Comparison:
    """Compare the files sentence by sentence, in order (as many sentences as the shortest has); sentences
    whose words differ are an error (``check_tokens``, as for the comparator).  Without a ``mapper`` (the
    comparator's greedy), a sentence whose candidate links would take more than ``max_memory`` bytes (None:
    no cap; a ``mapper`` keeps its own) is mapped in linear time instead and listed in
    :attr:`Comparison.capped`; one whose greedy takes longer than ``timeout`` seconds (None: no cap; a
    ``mapper`` keeps its own) keeps what it made by then and is listed in :attr:`Comparison.stopped`.
    ``one_way``: each file counted against the later ones only (their counts against it left out of
    :attr:`Comparison.counts`: what a metric of a gold and a system file reads); the correspondence, the
    counts per sentence pair and every other count are the same."""
    result = Comparison(files, settings)
    sizes = [len(umr.sentences) for umr in files]
    n = min(sizes)
    if n == 0:
        raise MRPError("at least one of the files has no sentences")
    if len(set(sizes)) > 1:
        result.warnings.append(f"the files have varying numbers of sentences; only the first {n} of each "
                               "are compared")
    for number in range(n):
        sentences = [umr.sentences[number] for umr in files]
        text = " ".join(sentences[0].tokens)
        for umr, sentence in zip(files[1:], sentences[1:]):
            if check_tokens and " ".join(sentence.tokens) != text:
                raise MRPError(f"{umr.path}:{sentence.line0}: the tokens of sentence {number + 1} differ "
                               f"from those of {files[0].path}")
        beyond, stopped = _sentences(result, sentences, mapper, verbose is not None, max_memory, timeout,
                                     one_way)
        if beyond:
            result.capped.add(number + 1)
        if stopped:
            result.stopped.add(number + 1)
        if verbose is not None:
            verbose(number + 1, sentences, result)
    result.compared = n
    if mapper is not None and settings.document_level:
        _deferred(result, n, one_way)
    return result


def _deferred(result: Comparison, n: int, one_way: bool = False) -> None:
    """Document-level relations once every sentence is mapped (the exact map: ends in any sentence of the
    document have their counterparts by now); ``one_way``: as :func:`run`."""
    labels, files = result.labels, result.files
    for number in range(n):
        for a in range(len(files)):
            for b in range(a + 1, len(files)):
                label0, label1 = labels[a], labels[b]
                sentence0, sentence1 = files[a].sentences[number], files[b].sentences[number]
                directions = [(result.tally(label0, label1), sentence0, sentence1, label0, label1, True)]
                if not one_way:
                    directions.append((result.tally(label1, label0), sentence1, sentence0, label1, label0,
                                       False))
                for tally, first, second, x, y, record in directions:
                    correct, total0, total1 = docrels(first, second, first.scope or {}, second.scope or {},
                                                      x, y, result.settings.selection)
                    tally["correct"] += correct
                    tally["total0"] += total0
                    tally["total1"] += total1
                    if record:
                        item = result.sentences[(label0, label1)][number]
                        for key, value in (("correct", correct), ("total0", total0), ("total1", total1)):
                            item[key] = item.get(key, 0) + value


def _sentences(result: Comparison, sentences: List[Sentence], mapper: Optional[Mapper],
               verbose: bool = False, max_memory: Optional[int] = None, timeout: Optional[float] = None,
               one_way: bool = False) -> Tuple[bool, bool]:
    """Map and count one sentence of every file; whether it was beyond the memory cap, and whether the
    clock stopped the greedy (``one_way``: as :func:`run`)."""
    deadline = None if timeout is None else clock() + timeout
    labels = result.labels
    width = len(sentences[0].tokens)
    for label, sentence in zip(labels, sentences):
        result.nodes[label] += len(sentence.nodes)
        result.tokens[label] += width
    stopped = False
    beyond = mapper is None and max_memory is not None and capped.BYTES_PER_LINK * sum(
        capped.links(sentences[a], sentences[b], width)
        for a in range(len(sentences)) for b in range(a + 1, len(sentences))) > max_memory
    if beyond:
        for a in range(len(sentences)):
            for b in range(a + 1, len(sentences)):
                first = [sentences[a].nodes[v] for v in sorted(sentences[a].nodes)]
                second = [sentences[b].nodes[v] for v in sorted(sentences[b].nodes)]
                capped.attach(capped.linear_map(first, second, width), first, second, labels[a], labels[b])
    elif mapper is None:
        stopped = candidates(sentences, labels, deadline)
        for a in range(len(sentences)):
            for b in range(a + 1, len(sentences)):
                cut = symmetrize(sentences[a], sentences[b], labels[a], labels[b], result.settings.selection,
                                 verbose, deadline)
                if not (cut or stopped):  # the whole greedy: the exact map of a later run starts from it
                    remember(sentences[a], sentences[b], labels[a], labels[b], result.settings.selection)
                stopped = cut or stopped
    else:
        for a in range(len(sentences)):
            for b in range(a + 1, len(sentences)):
                mapper(sentences[a], sentences[b], labels[a], labels[b], result.settings)
    for label, sentence in zip(labels, sentences):  # the nodes projected to each file (counted by key)
        values = sentence.nodes.values()
        for other in labels:
            found = sum(1 for node in values if node.cross.get(other))
            if found:
                result.projected[label][other] += found
    for a in range(len(sentences)):
        for b in range(a + 1, len(sentences)):
            _pair(result, a, b, sentences[a], sentences[b], mapper is None, one_way)
    return beyond, stopped


def _pair(result: Comparison, a: int, b: int, sentence0: Sentence, sentence1: Sentence,
          document_level: bool, one_way: bool = False) -> None:
    label0, label1 = result.labels[a], result.labels[b]
    file0, file1 = result.files[a], result.files[b]
    forward = result.tally(label0, label1)
    backward = Counter() if one_way else result.tally(label1, label0)  # type: Counter[str]
    before = dict(forward)  # a plain copy: read with .get only
    # the distinct token sets (:func:`token_sets`), as tuples: the same sets without making their texts
    sets0 = {node.alignment for node in sentence0.nodes.values() if node.alignment}
    sets1 = {node.alignment for node in sentence1.nodes.values() if node.alignment}
    forward["alignment_correct"] += len(sets0 & sets1)
    forward["alignment_total0"] += len(sets0)
    forward["alignment_total1"] += len(sets1)
    for tally, sentence, other in ((forward, sentence0, label1), (backward, sentence1, label0)):
        ambiguous = [len(node.ambiguous[other]) for node in sentence.nodes.values()
                     if other in node.ambiguous]
        tally["ambiguous_nodes"] += len(ambiguous)
        tally["ambiguous_targets"] += sum(ambiguous)
    settings = result.settings
    found = attributes(forward, sentence0, sentence1, file0, file1, label0, label1, settings, document_level)
    if found is not None:
        result.documents.setdefault((label0, label1), []).append(found)
    if not one_way:
        attributes(backward, sentence1, sentence0, file1, file0, label1, label0, settings, document_level)
    delta = {key: value - before.get(key, 0) for key, value in forward.items()}
    delta["mapped0"] = sum(1 for node in sentence0.nodes.values() if node.cross.get(label1))
    delta["mapped1"] = sum(1 for node in sentence1.nodes.values() if node.cross.get(label0))
    delta["nodes0"], delta["nodes1"] = len(sentence0.nodes), len(sentence1.nodes)
    result.sentences.setdefault((label0, label1), []).append(delta)


def token_sets(sentence: Sentence) -> set:  # type: ignore[type-arg]
    """The distinct token sets nodes are aligned to."""
    return {",".join(str(k + 1) for k in node.alignment) for node in sentence.nodes.values()
            if node.alignment}


def attributes(tally: Counter, sentence0: Sentence, sentence1: Sentence,  # type: ignore[type-arg]
               file0: UmrFile, file1: UmrFile, label0: str, label1: str, settings: Settings,
               document_level: bool = True) -> Optional[Tuple[int, int, int]]:
    """Concepts and relations of sentence 0's nodes against their counterparts, sentence 1's nodes without
    a counterpart, and the document-level relations; the latter's (correct, total0, total1), None when they
    are not counted."""
    selection = settings.selection
    nodes0, nodes1 = sentence0.nodes, sentence1.nodes
    table0, table1 = profiles(nodes0, selection), profiles(nodes1, selection)
    total0 = total1 = mapped0 = mapped1 = mapped = 0
    linked = alone = False
    for variable, node in nodes0.items():  # sums: the order does not matter
        others = node.cross.get(label1)
        mine = table0[variable]
        if not others:
            total0 += mine.own_total
            continue
        values, size = projection(mine, label1) if mine.edges else (mine.fixed, mine.fixed_total)
        best_total = best = -1
        for other in sorted(others) if len(others) > 1 else others:  # the first with the most correct
            theirs = table1[other]
            found = matches(values, theirs.own)
            if found > best:
                best_total, best = theirs.own_total, found
        linked = True
        mapped0 += size
        mapped1 += best_total
        mapped += best
    for variable, node in nodes1.items():
        if not node.cross.get(label0):
            alone = True
            total1 += table1[variable].own_total
    if nodes0:  # the counts' keys in the order the comparator's loops first touch them
        tally["total0"] += total0 + mapped0
    if linked:
        tally["total1"] += mapped1
        tally["correct"] += mapped
        tally["mapped_total0"] += mapped0
        tally["mapped_total1"] += mapped1
        tally["mapped_correct"] += mapped
    if alone:
        tally["total1"] += total1
    if settings.document_level and document_level:
        correct, total0, total1 = docrels(sentence0, sentence1, sentence0.source or file0.nodes,
                                          sentence1.source or file1.nodes, label0, label1, selection)
        tally["correct"] += correct
        tally["total0"] += total0
        tally["total1"] += total1
        return correct, total0, total1
    return None


def counterpart(node: Node, nodes0: Dict[str, Node], nodes1: Dict[str, Node], label1: str,
                selection: Selection) -> Optional[Tuple[Node, Compared]]:
    """The node of file ``label1`` a node is compared with (of those it is linked to, the first with the
    most correct pairs) and that comparison; None when it is linked to none."""
    best: Optional[Tuple[Node, Compared]] = None
    for other in node.mapped(label1):
        result = compare(node, nodes0, nodes1[other], nodes1, label1, selection)
        if best is None or result.correct > best[1].correct:
            best = nodes1[other], result
    return best


def single(name: str, label: str, nodes: Mapping[str, Node]) -> str:
    """The counterpart in file ``label`` of a document-level relation's end (itself when it names no node;
    UNMAPPED when the node has none)."""
    node = nodes.get(name)
    if node is None:
        return name
    found = node.cross.get(label)
    if not found:
        return UNMAPPED
    if len(found) > 1:
        raise MRPError(f"node {name} is projected to {len(found)} nodes of {label}")
    return next(iter(found))


def docrel_statuses(sentence0: Sentence, sentence1: Sentence, nodes0: Mapping[str, Node],
                    nodes1: Mapping[str, Node], label0: str, label1: str, selection: Selection
                    ) -> Iterator[Tuple[int, str, bool]]:
    """(side, triple, matched) of each document-level relation of the two sentences that counts: every one
    of sentence 0 (side 0), matched where its ends projected through the file-wide variables (the last
    definition of a variable in a file wins) give one of sentence 1's; then each of sentence 1's (side 1)
    that no relation of sentence 0 gives so."""
    mine, theirs = sentence0.docrels, sentence1.docrels
    every = selection.only is None and not selection.excluded
    for triple in sorted(mine):
        a, relation, b = triple.split(" ")
        if every or not selection.ignored(relation):
            yield 0, triple, f"{single(a, label1, nodes0)} {relation} {single(b, label1, nodes0)}" in theirs
    for triple in sorted(theirs):
        a, relation, b = triple.split(" ")
        if (every or not selection.ignored(relation)) and \
                f"{single(a, label0, nodes1)} {relation} {single(b, label0, nodes1)}" not in mine:
            yield 1, triple, False


def docrels(sentence0: Sentence, sentence1: Sentence, nodes0: Dict[str, Node], nodes1: Dict[str, Node],
            label0: str, label1: str, selection: Selection) -> Tuple[int, int, int]:
    """(correct, total0, total1) of the document-level relations of the two sentences (a matched relation
    counts on both sides): :func:`docrel_statuses` counted (none at once when neither sentence has any)."""
    if not sentence0.docrels and not sentence1.docrels:
        return 0, 0, 0
    correct = total0 = total1 = 0
    for side, _, hit in docrel_statuses(sentence0, sentence1, nodes0, nodes1, label0, label1, selection):
        correct += hit
        total0 += side == 0
        total1 += side == 1 or hit
    return correct, total0, total1
