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
from typing import Iterable, List, Optional

from . import __version__

#: what the metrics' normalization does (fixed; named so that a change shows in the signature)
NORMALIZATION = {
    "mrp": "case+anchors+edges",
    "edm": "case+anchors+edges",
    "sdp": "case+anchors+edges",
    "ucca": "case+anchors+edges",
    "smatch": "case",
    "aspects": "case",
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
    bootstrap: Optional[int] = None
    seed: int = 0
    test: Optional[str] = None
    aspect_depth: Optional[int] = 2
    ancast_compat: bool = False


def _solver(settings: Settings) -> str:
    parts: List[str] = []
    if settings.limit is not None:
        parts.append(f"limit:{settings.limit}")
    if settings.timeout is not None:
        parts.append(f"timeout:{settings.timeout:g}s")
    return "+".join(parts) if parts else "exact"


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
    if settings.no_wiki:
        fields.append("wiki:no")
    fields.append(f"std:{settings.standardization}")
    fields.append(_solver(settings))
    if settings.bootstrap is not None:
        fields.append(f"boot:{settings.bootstrap}+seed:{settings.seed}")
    if settings.test is not None:
        fields.append(f"test:{settings.test}+seed:{settings.seed}")
    fields.append(f"v{__version__}")
    return "|".join(fields)
