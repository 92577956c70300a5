"""mrp as a Hugging Face ``evaluate`` metric: SMATCH, the MRP metric and mrp's other metrics, exact.

Load it with ``evaluate.load(mrp.integrations.EVALUATE)`` (this directory), optionally naming the metric as
the configuration (``evaluate.load(mrp.integrations.EVALUATE, "mrp")``; default: smatch).  Predictions and
references are graphs as text, one graph a string (Penman, or MRP JSON lines); ``compute`` scores the
predictions against the references, in order, with :func:`mrp.score` and returns mrp's figures and its
signature.  evaluate gathers every process's predictions before ``compute``, so the numbers are one
``mrp.score`` call's however the batches and processes were cut.
"""

from __future__ import annotations

from typing import Any, Dict, List

import datasets
import evaluate

import mrp

_CITATION = """\
@inproceedings{cai-knight-2013-smatch,
    title = "{S}match: an Evaluation Metric for Semantic Feature Structures",
    author = "Cai, Shu and Knight, Kevin",
    booktitle = "Proceedings of ACL 2013",
    year = "2013",
    pages = "748--752",
}
@inproceedings{oepen-etal-2019-mrp,
    title = "{MRP} 2019: Cross-Framework Meaning Representation Parsing",
    author = "Oepen, Stephan and others",
    booktitle = "Proceedings of the Shared Task on Cross-Framework Meaning Representation Parsing at CoNLL",
    year = "2019",
}
"""

_DESCRIPTION = """\
Scores meaning representation graphs (AMR, UMR, EDS, DM, PSD, UCCA) with mrp: SMATCH (the original tool's
triples, under the proved optimal node mapping), the MRP metric and mrp's other metrics. Every correspondence
comes with an upper bound equal to it ("exact" pairs); a pair stopped by its time limit says so and reports
its bound.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: the system's graphs, one graph a string (Penman, or an MRP JSON line).
    references: the gold graphs, in the same order and format.
    options: any keyword of mrp.score (timeout, smatch_compat, standardize, ...).
Returns:
    f, p, r: the metric's primary F, precision and recall (micro-averaged over the graphs);
    g, s, c: its gold, system and correct counts; n: the number of pairs;
    exact: the pairs whose correspondence is proved optimal (metrics that search), bound_f: the F of the
    bound (equal to f when every pair is exact); signature: everything that can change the numbers.
Examples:
    >>> import evaluate, mrp.integrations
    >>> smatch = evaluate.load(mrp.integrations.EVALUATE)
    >>> smatch.compute(predictions=["(w / want-01 :ARG0 (b / boy))"],
    ...                references=["(w / want-01 :ARG0 (g / girl))"])["f"]
    0.75
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class MrpGraphs(evaluate.Metric):
    """mrp's metrics over graphs as text."""

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": datasets.Value("string"),
                                        "references": datasets.Value("string")}),
            codebase_urls=["https://github.com/snowblink14/smatch"],
            reference_urls=["https://aclanthology.org/P13-2131/", "https://aclanthology.org/K19-2001/"],
        )

    def _compute(self, predictions: List[str], references: List[str], **options: Any) -> Dict[str, Any]:
        metric = "smatch" if self.config_name in (None, "default") else self.config_name
        options.setdefault("positional", True)  # in order, whatever ids the graphs carry
        result = mrp.score(list(references), list(predictions), metric=metric, **options)
        document = result.to_dict()
        figures = result.figures
        out: Dict[str, Any] = {"f": figures.f, "p": figures.p, "r": figures.r, "g": figures.g, "s": figures.s,
                               "c": figures.c, "n": document["n"]}
        if "exact" in document:
            out["exact"] = document["exact"]
            out["bound_f"] = document["bound"]["f"]
        out["signature"] = result.signature
        return out
