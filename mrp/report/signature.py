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


def signature(metric: str, frameworks: Iterable[str], settings: Settings) -> str:
    """The signature of one metric's result over graphs of these frameworks."""
    from mrp.metrics.registry import metric as registered

    measure = registered(metric)
    names = sorted({name or "none" for name in frameworks}) or ["none"]
    fields = [f"{measure.name}:{'+'.join(names)}", f"norm:{measure.normalization}"]
    fields.extend(measure.signature_fields(settings))
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
