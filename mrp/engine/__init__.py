"""The engine every metric runs on: what a metric is (:class:`Metric`, its :class:`Parameter` s, the
:class:`PairCounts` of one pair and the :class:`Run` of a corpus), the options of a run, pairing gold and
system graphs (and files), the one corpus driver with each pair's limits (its clock and memory cap), the
envelope every result has, counting, the explanation's details, and what searching metrics share (scoring
sentence pairs together, documents' sentence maps, values memoized by a packed graph's content).

The metrics themselves are plug-ins in :mod:`mrp.metrics`, above this package: each owns its facts and
scores one pair; the registry names them.  Importing this package imports none of its modules (no numpy,
no numba).  Everything outside the package imports only the names of :data:`__all__` (``from mrp.engine
import Metric, PairCounts``); each is loaded from its module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, List, Tuple

from mrp.lazy import forwarded

if TYPE_CHECKING:
    from mrp.engine.base import LabelCounts, Metric, PairCounts, Parameter, Run, parameter_values
    from mrp.engine.content_memo import KEPT as CONTENT_KEPT
    from mrp.engine.content_memo import ContentMemo
    from mrp.engine.counting import Path as CountPath
    from mrp.engine.counting import prf
    from mrp.engine.detail import MATCHED, MISSED, SURPLUS, Detail, Fact, normal_detail, triple_detail
    from mrp.engine.documents import DOC_ALIGN, doc_align_field, doc_align_report
    from mrp.engine.driver import AUTO, AUTO_MAX, evaluate_metric
    from mrp.engine.driver import combined as combined_runs
    from mrp.engine.driver import joined as joined_pairings
    from mrp.engine.driver import results as pair_results
    from mrp.engine.driver import run as run_metric
    from mrp.engine.driver import summary as run_summary
    from mrp.engine.envelope import ACCOUNTING, EXACT, FIGURES, SCORES, SCORES_FIRST, SEARCH, TIME, N
    from mrp.engine.files import FilePairing, pair_files
    from mrp.engine.limits import Cost, Sizes
    from mrp.engine.limits import check as check_limits
    from mrp.engine.options import (
        DEFAULT_MAX_MEMORY,
        DEFAULT_TIMEOUT,
        MAX_JOBS,
        Execution,
        Options,
        Progress,
        bytes_text,
        checked,
    )
    from mrp.engine.pairing import (
        COUNTS,
        Pair,
        Pairing,
        PairingWarning,
        described,
        duplicate_errors,
        key,
        pair,
        positional,
    )
    from mrp.engine.seed import document_root, sentence_groups, sentence_seed
    from mrp.engine.seed import groups as node_sentences
    from mrp.engine.together import Steps, score_together

#: each name the package offers: (its module inside the package, its name there).  A name that would read
#: two ways at this level is renamed (``driver.run`` -> ``run_metric``, ``limits.check`` ->
#: ``check_limits``, ``counting.Path`` -> ``CountPath``), and none is a submodule's name.
_HOMES: Dict[str, Tuple[str, str]] = {
    # what a metric is
    **{name: ("base", name) for name in ("Metric", "Parameter", "PairCounts", "LabelCounts", "Run",
                                           "parameter_values")},
    # a run's options
    **{name: ("options", name) for name in ("Options", "Execution", "Progress", "DEFAULT_TIMEOUT",
                                              "DEFAULT_MAX_MEMORY", "MAX_JOBS", "checked", "bytes_text")},
    # pairing graphs and files
    **{name: ("pairing", name) for name in ("Pair", "Pairing", "PairingWarning", "COUNTS", "pair", "key",
                                              "described", "duplicate_errors", "positional")},
    **{name: ("files", name) for name in ("FilePairing", "pair_files")},
    # the one corpus driver
    **{name: ("driver", name) for name in ("AUTO", "AUTO_MAX", "evaluate_metric")},
    "run_metric": ("driver", "run"), "run_summary": ("driver", "summary"),
    "pair_results": ("driver", "results"), "joined_pairings": ("driver", "joined"),
    "combined_runs": ("driver", "combined"),
    # a pair's limits
    "Cost": ("limits", "Cost"), "Sizes": ("limits", "Sizes"), "check_limits": ("limits", "check"),
    # the envelope every result has: its sections, for a metric's layout
    **{name: ("envelope", name) for name in ("N", "TIME", "EXACT", "SEARCH", "ACCOUNTING", "SCORES",
                                               "SCORES_FIRST", "FIGURES")},
    # counting
    "CountPath": ("counting", "Path"), "prf": ("counting", "prf"),
    # the explanation's details
    **{name: ("detail", name) for name in ("Detail", "Fact", "MATCHED", "MISSED", "SURPLUS", "normal_detail",
                                             "triple_detail")},
    # what searching metrics share: sentence pairs scored together, documents, content memos
    **{name: ("together", name) for name in ("Steps", "score_together")},
    **{name: ("documents", name) for name in ("DOC_ALIGN", "doc_align_field", "doc_align_report")},
    "node_sentences": ("seed", "groups"), "sentence_groups": ("seed", "sentence_groups"),
    "sentence_seed": ("seed", "sentence_seed"), "document_root": ("seed", "document_root"),
    "ContentMemo": ("content_memo", "ContentMemo"), "CONTENT_KEPT": ("content_memo", "KEPT"),
}

__all__ = [
    "Metric", "Parameter", "PairCounts", "LabelCounts", "Run", "parameter_values",
    "Options", "Execution", "Progress", "DEFAULT_TIMEOUT", "DEFAULT_MAX_MEMORY", "MAX_JOBS", "checked",
    "bytes_text",
    "Pair", "Pairing", "PairingWarning", "COUNTS", "pair", "key", "described", "duplicate_errors",
    "positional", "FilePairing", "pair_files",
    "AUTO", "AUTO_MAX", "evaluate_metric", "run_metric", "run_summary", "pair_results", "joined_pairings",
    "combined_runs",
    "Cost", "Sizes", "check_limits",
    "N", "TIME", "EXACT", "SEARCH", "ACCOUNTING", "SCORES", "SCORES_FIRST", "FIGURES",
    "CountPath", "prf",
    "Detail", "Fact", "MATCHED", "MISSED", "SURPLUS", "normal_detail", "triple_detail",
    "Steps", "score_together", "DOC_ALIGN", "doc_align_field", "doc_align_report", "node_sentences",
    "sentence_groups", "sentence_seed", "document_root", "ContentMemo", "CONTENT_KEPT",
]


#: a name of :data:`__all__` from its module, imported on first use and looked up there on every use
__getattr__ = forwarded(__name__, _HOMES)


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
