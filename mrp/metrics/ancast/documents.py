"""UMR document scores (AnCast++): modal, temporal, coreference and the comprehensive score.

A document's relations ``(source, label, target)`` of each kind are compared
under the sentence alignments: an end that is a variable of a sentence is
carried over to the other side by that sentence's alignment; any other end
(``author``, ``root``, ``document-creation-time``, ...) matches by name.
Modal relations count as an exact set match; temporal and coreference
relations are compared over their closures (:mod:`.closure`).  The
comprehensive score adds the labeled relation sums (LRM) of the sentences to
the three kinds' sums, per side.

With ``compat`` the ends are identified as AnCast++ 0.1.1 does (quirk 17 of
docs/guide/metrics.md): names get integer ids in the order they are met, sentence by
sentence, test before gold; only variables of the *current* sentence go
through its alignment, and a variable of an earlier sentence not met before is
matched by its name.  Otherwise every variable is resolved to its sentence and
carried over by that sentence's alignment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from mrp.metrics.ancast.closure import coref_steps, overlap, temporal_steps
from mrp.metrics.ancast.scores import Sums, f_score

KINDS = ("modal", "temporal", "coref")
#: (kind, source, label, target)
DocRelation = Tuple[str, str, str, str]


@dataclass
class SentencePair:
    """What the document scores need of one aligned sentence pair."""

    test: List[DocRelation]
    gold: List[DocRelation]
    #: variable -> aligned variable of the other side (None: unaligned), for this sentence's variables
    t2g: Dict[str, Optional[str]]
    g2t: Dict[str, Optional[str]]
    precision: Sums
    recall: Sums


@dataclass
class DocSums:
    """Per kind (score, count) of one side, plus the sentence sums."""

    kinds: Dict[str, List[float]] = field(default_factory=lambda: {kind: [0.0, 0.0] for kind in KINDS})
    sentences: Sums = field(default_factory=Sums)

    def value(self, kind: str) -> float:
        """The side's value of a kind, of ``sent`` (LRM) or of ``comp``."""
        if kind == "sent":
            return self.sentences.value("lrm")
        if kind == "comp":
            score = self.sentences.lr + sum(pair[0] for pair in self.kinds.values())
            count = self.sentences.lr_count + sum(pair[1] for pair in self.kinds.values())
            return score / count if count else 0.0
        score, count = self.kinds[kind]
        return score / count if count else 0.0


def report(precision: DocSums, recall: DocSums) -> Dict[str, Dict[str, float]]:
    """P, R and F of sent, modal, temporal, coref and comp."""
    out = {}
    for kind in ("sent",) + KINDS + ("comp",):
        p, r = precision.value(kind), recall.value(kind)
        out[kind] = {"p": p, "r": r, "f": f_score(p, r)}
    return out


class _Ids:
    """AnCast++'s shared integer ids of names, per side (compat)."""

    def __init__(self) -> None:
        self.sides: Tuple[Dict[str, int], Dict[str, int]] = ({}, {})
        self.next = 0

    def add(self, name: str, side: int, mapping: Dict[str, Optional[str]]) -> None:
        mine, other = self.sides[side], self.sides[1 - side]
        if name in mine:
            return
        if name in mapping:
            mine[name] = self.next
            counterpart = mapping[name]
            other[counterpart if counterpart is not None else "NULL" + name] = self.next
        else:
            mine[name] = self.next
            other[name] = self.next
        self.next += 1


def _compat_tables(pairs: List[SentencePair]) -> Tuple[Dict[str, Dict[Tuple[int, int], str]], ...]:
    ids = _Ids()
    tables: Tuple[Dict[str, Dict[Tuple[int, int], str]], ...] = (
        {kind: {} for kind in KINDS}, {kind: {} for kind in KINDS})
    for pair in pairs:
        for kind in KINDS:
            for side, relations, mapping in ((0, pair.test, pair.t2g), (1, pair.gold, pair.g2t)):
                for found, source, label, target in relations:
                    if found != kind:
                        continue
                    ids.add(source, side, mapping)
                    ids.add(target, side, mapping)
                    mine = ids.sides[side]
                    tables[side][kind][(mine[source], mine[target])] = label
    return tables


def _resolved_tables(pairs: List[SentencePair]) -> Tuple[Dict[str, Dict[Tuple[int, int], str]], ...]:
    """Every variable carried over by the alignment of its own sentence (the default)."""
    names: Dict[Tuple[str, str], int] = {}
    carried: Dict[str, Optional[str]] = {}
    for pair in pairs:
        carried.update(pair.t2g)
    tables: Tuple[Dict[str, Dict[Tuple[int, int], str]], ...] = (
        {kind: {} for kind in KINDS}, {kind: {} for kind in KINDS})

    def ident(name: str, side: int) -> int:
        """Gold names stand for themselves; a test variable for its aligned gold variable (if any)."""
        key = ("gold", name)
        if side == 0 and name in carried:
            target = carried[name]
            key = ("gold", target) if target is not None else ("test", name)
        return names.setdefault(key, len(names))

    for pair in pairs:
        for side, relations in ((0, pair.test), (1, pair.gold)):
            for kind, source, label, target in relations:
                if kind in KINDS:
                    tables[side][kind][(ident(source, side), ident(target, side))] = label
    return tables


def score_document(pairs: List[SentencePair], compat: bool) -> Tuple[DocSums, DocSums]:
    """The precision and recall sums of one document of aligned sentence pairs."""
    precision, recall = DocSums(), DocSums()
    for pair in pairs:
        precision.sentences.add(pair.precision)
        recall.sentences.add(pair.recall)
    test, gold = (_compat_tables if compat else _resolved_tables)(pairs)
    modal_t = set((h, t, label) for (h, t), label in test["modal"].items())
    modal_g = set((h, t, label) for (h, t), label in gold["modal"].items())
    shared = len(modal_t & modal_g)
    precision.kinds["modal"] = [shared, len(modal_t)]
    recall.kinds["modal"] = [shared, len(modal_g)]
    for kind, steps in (("temporal", temporal_steps), ("coref", coref_steps)):
        score_t, count_t, score_g, count_g = overlap(steps(test[kind]), steps(gold[kind]))
        precision.kinds[kind] = [score_t, count_t]
        recall.kinds[kind] = [score_g, count_g]
    return precision, recall
