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

from mrp import __version__
from mrp.engine import DEFAULT_MAX_MEMORY, Options, bytes_text


@dataclass(frozen=True)
class Statistics:
    """The statistics options a signature records (they change intervals and tests, not counts)."""

    bootstrap: Optional[int] = None
    seed: int = 0
    #: the leaderboard's paired test
    test: Optional[str] = None


def _solver(options: Options) -> str:
    parts: List[str] = []
    if options.limit is not None:
        parts.append(f"limit:{options.limit}")
    if options.timeout is not None:
        parts.append(f"timeout:{options.timeout:g}s")
    if options.max_memory != DEFAULT_MAX_MEMORY:
        parts.append(f"maxmem:{bytes_text(options.max_memory)}")
    if not options.mip:
        parts.append("nomip")
    return "+".join(parts) if parts else "exact"


#: no bootstrap, no test
NO_STATISTICS = Statistics()


def signature(metric: str, frameworks: Iterable[str], options: Options,
              statistics: Statistics = NO_STATISTICS) -> str:
    """The signature of one metric's result over graphs of these frameworks, scored with ``options``."""
    from mrp.metrics.registry import metric as registered

    measure = registered(metric)
    names = sorted({name or "none" for name in frameworks}) or ["none"]
    fields = [f"{measure.name}:{'+'.join(names)}", f"norm:{measure.normalization}"]
    fields.extend(measure.signature_fields(options))
    if options.no_wiki:
        fields.append("wiki:no")
    if options.strict:
        fields.append("read:strict")
    fields.append(f"std:{options.standardization}")
    fields.append(_solver(options))
    if statistics.bootstrap is not None:
        fields.append(f"boot:{statistics.bootstrap}+seed:{statistics.seed}")
    if statistics.test is not None:
        fields.append(f"test:{statistics.test}+seed:{statistics.seed}")
    fields.append(f"v{__version__}")
    return "|".join(fields)


def signature_line(signature: str, key: str = "") -> str:
    """How every table and leaderboard shows a signature: one line, ``signature: SIG`` (or
    ``signature KEY: SIG`` where a board carries several figures).

    Args:
        signature: the signature (:func:`signature`).
        key: the figure it belongs to, when a board has several.

    Returns:
        The line, without its end.
    """
    return f"signature {key}: {signature}" if key else f"signature: {signature}"
