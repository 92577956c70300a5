"""The comparator's figures of a comparison, and its layouts: ``--tsv`` rows, the summary, ``--quiet``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Union

from mrp.metrics.umatch.compare import Comparison

Number = Union[int, float]

#: the figures, in the order the comparator prints them
NAMES = ("aligned token sets", "node projections", "ambiguous node projections", "triples in mapped nodes",
         "juːmæʧ")
#: the column names the last field of each --tsv row gives
COLUMNS = {"aligned token sets": "correct total0 total1 p r f",
           "node projections": "mapped0 mapped1 total0 total1 p r f",
           "ambiguous node projections": "nsrc0 nsrc1 ntgt0 ntgt1",
           "triples in mapped nodes": "correct total0 total1 p r f",
           "juːmæʧ": "correct total0 total1 p r f"}


def prf(correct: Number, total0: Number, total1: Number) -> Dict[str, Number]:
    """P, R, F as the comparator computes them (R against the first file; 0 for an empty side)."""
    r: Number = correct / total0 if total0 > 0 else 0
    p: Number = correct / total1 if total1 > 0 else 0
    f: Number = 2 * p * r / (p + r) if p + r > 0 else 0
    return {"p": p, "r": r, "f": f}


@dataclass
class Figure:
    """One figure of one pair of files."""

    name: str
    label0: str
    label1: str
    values: Dict[str, Number]


def figures(result: Comparison) -> List[Figure]:
    """Every figure of every pair of files (first file first), files without nodes left out."""
    out: List[Figure] = []
    labels = result.labels
    for a, label0 in enumerate(labels):
        total0 = result.nodes[label0]
        if total0 == 0:
            continue
        for label1 in labels[a + 1:]:
            total1 = result.nodes[label1]
            if total1 == 0:
                continue
            forward = result.tally(label0, label1)
            backward = result.tally(label1, label0)
            out.append(Figure("aligned token sets", label0, label1, _triple(
                forward["alignment_correct"], forward["alignment_total0"], forward["alignment_total1"])))
            mapped0, mapped1 = result.projected[label0][label1], result.projected[label1][label0]
            p = mapped1 / total1
            r = mapped0 / total0
            values: Dict[str, Number] = {"mapped0": mapped0, "mapped1": mapped1, "total0": total0,
                                         "total1": total1, "p": p, "r": r,
                                         "f": 2 * p * r / (p + r) if p + r > 0 else 0}
            out.append(Figure("node projections", label0, label1, values))
            out.append(Figure("ambiguous node projections", label0, label1, {
                "nsrc0": forward["ambiguous_nodes"], "nsrc1": backward["ambiguous_nodes"],
                "ntgt0": forward["ambiguous_targets"], "ntgt1": backward["ambiguous_targets"]}))
            out.append(Figure("triples in mapped nodes", label0, label1, _triple(
                forward["mapped_correct"], forward["mapped_total0"], forward["mapped_total1"])))
            out.append(Figure("juːmæʧ", label0, label1, _triple(
                forward["correct"], forward["total0"], forward["total1"])))
    return out


def _triple(correct: int, total0: int, total1: int) -> Dict[str, Number]:
    values: Dict[str, Number] = {"correct": correct, "total0": total0, "total1": total1}
    values.update(prf(correct, total0, total1))
    return values


def number(value: Any) -> str:
    """A number as Perl prints it (integers as they are, other numbers with 15 significant digits)."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    return format(value, ".15g")


def tsv_row(figure: Figure) -> str:
    """The --tsv row of a figure."""
    fields = [figure.name, figure.label0, figure.label1]
    fields.extend(number(value) for value in figure.values.values())
    fields.append(COLUMNS[figure.name])
    return "\t".join(fields) + "\n"


def _rounded(value: Number) -> str:
    """A percentage as the comparator prints it (rounded half up to 2 places, then printed)."""
    return "%.2f" % (int(value * 100 * 100 + 0.5) / 100)


def summary(result: Comparison, found: List[Figure]) -> str:
    """The human-readable summary (the comparator without --tsv)."""
    nodes = ", ".join(f"{label}:{result.nodes[label]}" for label in result.labels)
    out = ["-" * 79 + "\n", "SUMMARY:\n", f"Number of tokens: {result.tokens[result.labels[0]]}\n",
           f"Number of nodes per file: {nodes}\n", "File-to-file node mapping:\n"]
    for figure in found:
        v, a, b = figure.values, figure.label0, figure.label1
        if figure.name == "aligned token sets":
            out.append("Aligned token set comparison:\n")
            out.append(f"Out of {v['total0']} aligned token sets in {a}, {v['correct']} found in {b} => "
                       f"recall    {_rounded(v['r'])}%.\n")
            out.append(f"Out of {v['total1']} aligned token sets in {b}, {v['correct']} found in {a} => "
                       f"precision {_rounded(v['p'])}%.\n")
            out.append(f" => F₁({a},{b}) = {_rounded(v['f'])}%.\n")
        elif figure.name == "node projections":
            out.append(f"Out of {v['total0']} total {a} nodes, {v['mapped0']} mapped to {b} => recall    = "
                       f"{_rounded(v['r'])}%.\n")
            out.append(f"Out of {v['total1']} total {b} nodes, {v['mapped1']} mapped to {a} => precision = "
                       f"{_rounded(v['p'])}%.\n")
            out.append(f" => F₁({a},{b}) = {_rounded(v['f'])}%.\n")
        elif figure.name == "ambiguous node projections":
            out.append(f"Before symmetrization, {v['nsrc0']} {a} nodes were projected ambiguously to "
                       f"{v['ntgt0']} {b} nodes.\n")
            out.append(f"Before symmetrization, {v['nsrc1']} {b} nodes were projected ambiguously to "
                       f"{v['ntgt1']} {a} nodes.\n")
        else:
            mapped = figure.name == "triples in mapped nodes"
            scope = "only mapped nodes; unmapped are ignored" if mapped else \
                "for unmapped nodes all counted as incorrect"
            out.append(f"Concept and relation comparison ({scope}):\n")
            out.append(f"Out of {v['total0']} non-empty {a} values, {v['correct']} found in {b} => recall    "
                       f"{_rounded(v['r'])}%.\n")
            out.append(f"Out of {v['total1']} non-empty {b} values, {v['correct']} found in {a} => precision "
                       f"{_rounded(v['p'])}%.\n")
            out.append(f" => F₁ = {_rounded(v['f'])}%.\n" if mapped
                       else f" => juːmæʧ ({a}, {b}) = F₁ = {_rounded(v['f'])}%.\n")
    return "".join(out)


def quiet(found: List[Figure], tsv: bool) -> str:
    """--quiet: the juːmæʧ figures alone."""
    out = []
    for figure in found:
        if figure.name == "juːmæʧ":
            out.append(tsv_row(figure) if tsv else
                       f"juːmæʧ F₁ ({figure.label0}, {figure.label1}) = {figure.values['f']:f}\n")
    return "".join(out)


def tsv(result: Comparison, found: List[Figure], sentences: Dict[str, int]) -> str:
    """The --tsv layout: sentence, token and node counts, then every figure's row."""
    out = [f"number of sentences\t{label}\t\t{sentences[label]}\n" for label in result.labels]
    out.append(f"number of tokens\t\t\t{result.tokens[result.labels[0]]}\n")
    out.extend(f"number of nodes\t{label}\t\t{result.nodes[label]}\n" for label in result.labels)
    out.extend(tsv_row(figure) for figure in found)
    return "".join(out)
