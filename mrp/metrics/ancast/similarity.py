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
"""

from __future__ import annotations

from typing import Dict, List

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


def name_similarity(one: str, two: str, same_sense: bool) -> float:
    """String similarity, lowered by the sense coefficient when the senses differ."""
    return string_similarity(one, two) * (1 + SENSE_COEFFICIENT * (int(same_sense) - 1))


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


class Similarity:
    """The similarity matrices of a pair (test rows, gold columns)."""

    def __init__(self, test: View, gold: View) -> None:
        n, m = len(test), len(gold)
        same = np.equal.outer(np.array(test.senses, np.int64), np.array(gold.senses, np.int64))
        factor = np.where(same, 1.0, 1 + SENSE_COEFFICIENT * (0 - 1))
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


def ends_similarity(sim: Similarity, test: View, gold: View, t_end: object, g_end: object) -> float:
    """The name similarity of two relation ends (nodes by name and sense, constants by text)."""
    if isinstance(t_end, int) and isinstance(g_end, int):
        return float(sim.names[t_end, g_end])
    t_text = test.names[t_end] if isinstance(t_end, int) else str(t_end)
    g_text = gold.names[g_end] if isinstance(g_end, int) else str(g_end)
    t_sense = test.senses[t_end] if isinstance(t_end, int) else 0
    g_sense = gold.senses[g_end] if isinstance(g_end, int) else 0
    return name_similarity(t_text, g_text, t_sense == g_sense)


def unique_names(view: View) -> List[bool]:
    """Per node, whether its name occurs once in the graph."""
    counts: Dict[str, int] = {}
    for name in view.names:
        counts[name] = counts.get(name, 0) + 1
    return [counts[name] == 1 for name in view.names]
