"""The reproducibility signature of a result: everything that can change its numbers, in one string.

As SacreBLEU does, every result names its metric, the frameworks scored, the
normalization, the AMR standardization, the solver's limits, the statistics
options and the tool version, e.g.
``mrp:amr|norm:case+anchors+edges|std:none|exact|v0.1.0``.  Identical
options give identical signatures; two numbers with different signatures are
not comparable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Optional, Tuple

from mrp import __version__

#: what the metrics' normalization does (fixed; named so that a change shows in the signature)
NORMALIZATION = {
    "mrp": "case+anchors+edges",
    "edm": "case+anchors+edges",
    "sdp": "case+anchors+edges",
    "ucca": "case+anchors+edges",
    "smatch": "case",
    "aspects": "case",
    "unlabeled": "case+anchors+edges+unlabeled",
    "unlabeled-edges": "case+anchors+edges+unlabeled-edges",
    "predications": "case+anchors+edges",
    "sembleu": "case",
}


@dataclass(frozen=True)
class Settings:
    """The options of a run that a signature records."""

    standardization: str = "none"
    limit: Optional[int] = None
    timeout: Optional[float] = None
    smatch_compat: bool = False
    penman: bool = False
    no_wiki: bool = False
    #: graphs that need a repair were refused (--strict)
    strict: bool = False
    bootstrap: Optional[int] = None
    seed: int = 0
    test: Optional[str] = None
    aspect_depth: Optional[int] = 2
    #: SemBLEU weights (None: the original's default) and compatibility mode
    sembleu_weights: Optional[Tuple[float, ...]] = None
    sembleu_compat: bool = False
    ancast_compat: bool = False
    #: pairs the search leaves open go to the mixed-integer program (False: --no-mip)
    mip: bool = True


def _solver(settings: Settings) -> str:
    parts: List[str] = []
    if settings.limit is not None:
        parts.append(f"limit:{settings.limit}")
    if settings.timeout is not None:
        parts.append(f"timeout:{settings.timeout:g}s")
    if not settings.mip:
        parts.append("nomip")
    return "+".join(parts) if parts else "exact"


def _sembleu(settings: Settings) -> str:
    from mrp.metrics.sembleu import DEFAULT_WEIGHTS

    weights = settings.sembleu_weights or DEFAULT_WEIGHTS
    if len(weights) > 1 and weights == (1.0 / len(weights),) * len(weights):
        shown = f"uniform{len(weights)}"
    else:
        shown = "+".join(repr(w) for w in weights)
    return "weights:" + shown + ("|compat" if settings.sembleu_compat else "")


def signature(metric: str, frameworks: Iterable[str], settings: Settings) -> str:
    """The signature of one metric's result over graphs of these frameworks."""
    names = sorted({name or "none" for name in frameworks}) or ["none"]
    fields = [f"{metric}:{'+'.join(names)}", f"norm:{NORMALIZATION.get(metric, 'none')}"]
    if metric in ("smatch", "aspects"):
        fields.append("triples:" + ("penman" if settings.penman else "mrp")
                      + ("+compat" if settings.smatch_compat else ""))
    if metric == "ancast":
        fields.append("align:" + ("ancast-0.1.1" if settings.ancast_compat else "lrm-optimal"))
    if metric == "aspects":
        fields.append(f"depth:{'full' if settings.aspect_depth is None else settings.aspect_depth}")
    if metric == "sembleu":
        fields.append(_sembleu(settings))
    if settings.no_wiki:
        fields.append("wiki:no")
    if settings.strict:
        fields.append("read:strict")
    fields.append(f"std:{settings.standardization}")
    fields.append(_solver(settings))
    if settings.bootstrap is not None:
        fields.append(f"boot:{settings.bootstrap}+seed:{settings.seed}")
    if settings.test is not None:
        fields.append(f"test:{settings.test}+seed:{settings.seed}")
    fields.append(f"v{__version__}")
    return "|".join(fields)
