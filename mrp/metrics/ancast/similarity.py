"""AnCast's intrinsic similarity of two concepts (no structure involved).

* string similarity: ``len(shorter) / len(longer)`` when one string contains
  the other (case-insensitive), else 0;
* name similarity: the string similarity times ``1 - SENSE_COEFFICIENT`` when
  the senses differ;
* initial similarity of two nodes: the name similarity of name+ops, averaged
  with the share of agreeing values among the other attributes both nodes
  have (when there are any).

Concept scores add the initial similarity of aligned nodes; relation scores
use the name similarity of the plain names (without ops) of their ends.

:class:`Similarity` holds them as n x m matrices (the alignments need every
cell); :class:`Pointwise` computes a cell when it is read, for counting a map
of a pair beyond ``--max-memory`` (the same values, nothing n x m).
"""

from __future__ import annotations

from typing import Callable, Dict, List

import numpy as np

from mrp.metrics.ancast.reading import View

#: How much a sense difference costs (AnCast's default).
SENSE_COEFFICIENT = 0.1


def string_similarity(one: str, two: str) -> float:
    """``len(shorter) / len(longer)`` if one contains the other (lowercased), else 0 (two empty: 1)."""
    one, two = one.lower(), two.lower()
    if one in two:
        return len(one) / len(two) if two else 1.0
    if two in one:
        return len(two) / len(one)
    return 0.0


def name_similarity(one: str, two: str, same_sense: bool,
                    sense: float = SENSE_COEFFICIENT) -> float:
    """String similarity, lowered by the sense coefficient ``sense`` when the senses differ."""
    return string_similarity(one, two) * (1 + sense * (int(same_sense) - 1))


def _strings(one: List[str], two: List[str]) -> np.ndarray:
    """float64[len(one), len(two)]: :func:`string_similarity` of every pair (of lowercase strings)."""
    if not one or not two:
        return np.zeros((len(one), len(two)))
    rows, columns = np.array(one, dtype=str), np.array(two, dtype=str)
    long_rows = np.strings.str_len(rows).astype(np.float64)[:, np.newaxis]
    long_columns = np.strings.str_len(columns).astype(np.float64)[np.newaxis, :]
    row_in_column = np.strings.find(columns[np.newaxis, :], rows[:, np.newaxis]) >= 0
    column_in_row = np.strings.find(rows[:, np.newaxis], columns[np.newaxis, :]) >= 0
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(row_in_column, long_rows / long_columns,
                       np.where(column_in_row, long_columns / long_rows, 0.0))
    out[row_in_column & (long_columns == 0)] = 1.0  # two empty strings
    return out


class Similar:
    """What counting a map reads of a pair's similarities, cell by cell (test node ``i``, gold node ``j``)."""

    #: the sense coefficient (AnCast's -sc): a name similarity's loss when the senses differ
    sense: float = SENSE_COEFFICIENT

    def initial_at(self, i: int, j: int) -> float:
        """The intrinsic similarity of two nodes (concept scores)."""
        raise NotImplementedError

    def identical_at(self, i: int, j: int) -> bool:
        """Whether name+ops and sense are identical (the mock-Smatch concept triples)."""
        raise NotImplementedError

    def name_at(self, i: int, j: int) -> float:
        """The name similarity of the plain names (relation scores)."""
        raise NotImplementedError

    def name_lookup(self) -> Callable[[int, int], float]:
        """:meth:`name_at` as the fastest function this holder has (counting calls it per relation)."""
        return self.name_at


class Similarity(Similar):
    """The similarity matrices of a pair (test rows, gold columns)."""

    def __init__(self, test: View, gold: View, sense: float = SENSE_COEFFICIENT) -> None:
        n, m = len(test), len(gold)
        self.sense = sense
        same = np.equal.outer(np.array(test.senses, np.int64), np.array(gold.senses, np.int64))
        factor = np.where(same, 1.0, 1 + sense * (0 - 1))
        full = _strings([name + ops for name, ops in zip(test.names, test.ops)],
                        [name + ops for name, ops in zip(gold.names, gold.ops)]) * factor
        #: the intrinsic similarity of two nodes (concept scores, alignment)
        self.initial = full.copy()
        #: where name+ops and sense are identical (the mock-Smatch concept triple matches)
        self.identical = (full == 1) & same
        #: name similarity of the plain names (relation scores)
        self.names = _strings(test.names, gold.names) * factor
        with_t = [i for i in range(n) if test.attributes[i]]
        with_g = [j for j in range(m) if gold.attributes[j]]
        for i in with_t:
            attrs_t = test.attributes[i]
            for j in with_g:
                attrs_g = gold.attributes[j]
                shared = agree = 0
                for role, value in attrs_t.items():
                    if role in attrs_g:
                        shared += 1
                        agree += value == attrs_g[role]
                if shared:
                    self.initial[i, j] = (full[i, j] + agree / shared) / 2

    def initial_at(self, i: int, j: int) -> float:
        return float(self.initial[i, j])

    def identical_at(self, i: int, j: int) -> bool:
        return bool(self.identical[i, j])

    def name_at(self, i: int, j: int) -> float:
        return float(self.names[i, j])

    def name_lookup(self) -> Callable[[int, int], float]:
        rows: List[List[float]] = self.names.tolist()
        return lambda i, j: rows[i][j]


class Pointwise(Similar):
    """The similarities of a pair computed when read: nothing n x m is built (:class:`Similarity`'s
    values, cell by cell)."""

    def __init__(self, test: View, gold: View, sense: float = SENSE_COEFFICIENT) -> None:
        self.test, self.gold = test, gold
        self.sense = sense

    def _factor(self, i: int, j: int) -> float:
        return 1.0 if self.test.senses[i] == self.gold.senses[j] else 1 + self.sense * (0 - 1)

    def _full(self, i: int, j: int) -> float:
        test, gold = self.test, self.gold
        similar = string_similarity(test.names[i] + test.ops[i], gold.names[j] + gold.ops[j])
        return similar * self._factor(i, j)

    def initial_at(self, i: int, j: int) -> float:
        full = self._full(i, j)
        mine, theirs = self.test.attributes[i], self.gold.attributes[j]
        shared = agree = 0
        for role, value in mine.items():
            if role in theirs:
                shared += 1
                agree += value == theirs[role]
        return (full + agree / shared) / 2 if shared else full

    def identical_at(self, i: int, j: int) -> bool:
        return self._full(i, j) == 1 and self.test.senses[i] == self.gold.senses[j]

    def name_at(self, i: int, j: int) -> float:
        return string_similarity(self.test.names[i], self.gold.names[j]) * self._factor(i, j)


def ends_similarity(sim: Similar, test: View, gold: View, t_end: object, g_end: object) -> float:
    """The name similarity of two relation ends (nodes by name and sense, constants by text)."""
    if isinstance(t_end, int) and isinstance(g_end, int):
        return sim.name_at(t_end, g_end)
    t_text = test.names[t_end] if isinstance(t_end, int) else str(t_end)
    g_text = gold.names[g_end] if isinstance(g_end, int) else str(g_end)
    t_sense = test.senses[t_end] if isinstance(t_end, int) else 0
    g_sense = gold.senses[g_end] if isinstance(g_end, int) else 0
    return name_similarity(t_text, g_text, t_sense == g_sense, sim.sense)


def unique_names(view: View) -> List[bool]:
    """Per node, whether its name occurs once in the graph."""
    counts: Dict[str, int] = {}
    for name in view.names:
        counts[name] = counts.get(name, 0) + 1
    return [counts[name] == 1 for name in view.names]
