"""Micro-averaging ``--tsv`` outputs of several documents as the shared task's ``micro_average.pl`` does:
counts summed per figure, P/R/F from the sums (the first two labels seen name the columns)."""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence

from mrp.errors import MRPError
from mrp.report.umatch.figures import number, prf

#: the figures summed, in the order they are printed
METRICS = ("number of sentences", "number of tokens", "number of nodes", "aligned token sets",
           "node projections", "triples in mapped nodes", "juːmæʧ")
_COUNTS = re.compile(r"number of (sentences|nodes)$")


def micro_average(paths: Sequence[str]) -> str:
    """The sums of the --tsv files at ``paths``."""
    texts = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as stream:
                texts.append(stream.read())
        except OSError as error:
            raise MRPError(f"{path}: {error.strerror or error}") from None
    return micro_rows(texts)


def micro_rows(texts: Sequence[str]) -> str:
    """The sums of --tsv outputs, as micro_average.pl prints them."""
    sums: Dict[str, Dict[str, int]] = {metric: {} for metric in METRICS}
    label0: Optional[str] = None
    label1: Optional[str] = None

    def add(metric: str, key: str, value: str) -> None:
        sums[metric][key] = sums[metric].get(key, 0) + _int(value)

    for text in texts:
        for line in text.split("\n"):
            fields = line.rstrip("\r").split("\t")
            metric = fields[0]
            if _COUNTS.match(metric) and len(fields) > 3:
                if label0 is None:
                    label0 = fields[1]
                elif label1 is None:
                    label1 = fields[1]
                if fields[1] == label0:
                    add(metric, "total0", fields[3])
                elif fields[1] == label1:
                    add(metric, "total1", fields[3])
            elif metric == "number of tokens" and len(fields) > 3:
                add(metric, "total0", fields[3])
                add(metric, "total1", fields[3])
            elif metric == "node projections" and len(fields) > 6:
                for key, value in zip(("mapped0", "mapped1", "total0", "total1"), fields[3:7]):
                    add(metric, key, value)
            elif metric in METRICS and len(fields) > 5:
                label0 = fields[1] if label0 is None else label0
                label1 = fields[2] if label1 is None else label1
                for key, value in zip(("correct", "total0", "total1"), fields[3:6]):
                    add(metric, key, value)
    out: List[str] = []
    a, b = label0 or "", label1 or ""
    for metric in METRICS:
        got = sums[metric]

        def show(key: str, got: Dict[str, int] = got) -> str:
            return str(got[key]) if key in got else ""

        if metric.startswith("number of"):
            out.append(f"{metric}\t{a}\t{b}\t{show('total0')}\t{show('total1')}\ttotal0 total1\n")
            continue
        if metric == "node projections":
            figures = prf(got.get("mapped0", 0), got.get("total0", 0), 0)
            r = figures["r"]
            p = got.get("mapped1", 0) / got["total1"] if got.get("total1", 0) > 0 else 0
            f = 2 * p * r / (p + r) if p + r > 0 else 0
            values = [show("mapped0"), show("mapped1"), show("total0"), show("total1")]
            out.append("\t".join([metric, a, b, *values, number(p), number(r), number(f),
                                  "mapped0 mapped1 total0 total1 p r f"]) + "\n")
            continue
        figures = prf(got.get("correct", 0), got.get("total0", 0), got.get("total1", 0))
        values = [show("correct"), show("total0"), show("total1")]
        out.append("\t".join([metric, a, b, *values, number(figures["p"]), number(figures["r"]),
                              number(figures["f"]), "correct total0 total1 p r f"]) + "\n")
    return "".join(out)


def _int(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        found = re.match(r"\s*[-+]?[0-9]+", value)  # Perl reads the leading number of a string
        return int(found.group(0)) if found else 0
