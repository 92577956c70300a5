"""Documents: the ``--doc-align`` option of the metrics that align nodes (SMATCH, MRP).

``--doc-align sentence`` aligns a document's nodes within their sentences only
(mrp.engine.seed.sentence_groups: a node merged across sentences belongs to
the sentence of its first mention, the root to none), as DocAMR's docSmatch
does, and counts every triple of the document, the cross-sentence ones too.
It is a restriction: the score is the best alignment within sentences, never
above the unrestricted optimum.  The signature records it (``align:sentence``)
and the result says so under ``doc_align``.  Pairs that are not both
multi-sentence graphs are aligned unrestricted (the result counts them).
"""

from __future__ import annotations

from typing import Any, Dict, List

from mrp.engine.base import Parameter, Run
from mrp.engine.options import Options

__all__ = ["DOC_ALIGN", "doc_align_field", "doc_align_report"]

#: the option, shared by the metrics that align nodes
DOC_ALIGN = Parameter("doc_align", "--doc-align",
                      "smatch, mrp: on documents (multi-sentence graphs), 'sentence' aligns nodes only "
                      "within their sentence, as docSmatch does (a restriction: the score can only go down; "
                      "cross-sentence triples still count); 'none' (the default) aligns the whole document",
                      str, "MODE", "none", ("none", "sentence"))

RESTRICTION = ("the alignment is restricted to within sentences (a node merged across sentences belongs to "
               "the sentence of its first mention); the optimum is the best such alignment, which can be "
               "below the unrestricted optimum")


def doc_align_field(options: Options) -> List[str]:
    """The signature field of a restricted alignment (none for the default)."""
    return ["align:sentence"] if options.doc_align == "sentence" else []


def doc_align_report(run: Run) -> Dict[str, Any]:
    """The result's statement of the restriction: the mode, the pairs it restricted, what it means."""
    if run.options.doc_align != "sentence":
        return {}
    from mrp.engine.seed import restricted

    documents = sum(restricted((pair.gold, pair.system)) for pair in run.pairing.pairs)
    return {"doc_align": {"mode": "sentence", "restricted": documents,
                          "unrestricted": len(run.pairing.pairs) - documents, "meaning": RESTRICTION}}
