"""The typed result of :func:`mrp.metrics`: corpus figures, per-pair results, exactness, signature."""

from __future__ import annotations

import copy
import math
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple

from mrp.errors import ScoreError

__all__ = ["Figures", "PairResult", "Result"]

Path = Tuple[str, ...]
#: held while a Result's document is completed
_COMPLETING = threading.Lock()


@dataclass(frozen=True)
class Figures:
    """Counts and their precision, recall and F: ``g`` gold tuples, ``s`` system tuples, ``c`` correct."""

    g: float
    s: float
    c: float
    p: float
    r: float
    f: float

    @classmethod
    def of(cls, node: Any) -> Figures:
        """The figures of a result object holding g, s, c (and p, r, f; computed when absent); of one
        holding p, r, f only (AnCast), with the counts NaN; of a single number (SemBLEU's score), as
        ``f`` with everything else NaN."""
        if not isinstance(node, Mapping):
            return cls(math.nan, math.nan, math.nan, math.nan, math.nan, float(node))
        if "g" not in node and "f" in node:
            return cls(math.nan, math.nan, math.nan, node["p"], node["r"], node["f"])
        g, s, c = node.get("g", 0), node.get("s", 0), node.get("c", 0)
        if "f" in node:
            return cls(g, s, c, node["p"], node["r"], node["f"])
        p = c / s if s else 0.0
        r = c / g if g else 0.0
        return cls(g, s, c, p, r, 2 * p * r / (p + r) if p + r else 0.0)


def _at(node: Any, path: Path) -> Any:
    """The figures object (or number) at ``path``, or None."""
    for step in path:
        if not isinstance(node, Mapping) or step not in node:
            return None
        node = node[step]
    if isinstance(node, Mapping):
        return node if "f" in node or "c" in node else None
    return node if isinstance(node, (int, float)) and not isinstance(node, bool) else None


@dataclass(frozen=True)
class PairResult:
    """One pair's result: its gold graph's id and framework, its primary figures, whether its
    correspondence is proved optimal, and the metric's per-item object (``item``)."""

    id: str
    framework: str
    figures: Optional[Figures]
    exact: bool
    #: upper bound of the primary count c (searching metrics), else None
    bound: Optional[float]
    #: why the search stopped before proving optimality, or None
    cut: Optional[str]
    item: Mapping[str, Any] = field(repr=False)

    @property
    def f(self) -> float:
        """The pair's primary F (SemBLEU: its score; NaN for a metric without one figure, as aspects)."""
        return self.figures.f if self.figures is not None else math.nan


class Result:
    """A metric's result over a corpus, as ``mrp-score`` prints it (:meth:`to_dict`), with typed access.

    The corpus and per-pair figures are there at once; the rest of the document (macro figures,
    intervals, the signature) is completed the first time it is read (``completion``), so a call
    whose caller reads only ``.f`` or ``.pairs`` does not pay for it.
    """

    __slots__ = ("metric", "primary", "trace", "_document", "_completion")

    def __init__(self, metric: str, primary: Optional[Path], document: Dict[str, Any], trace: bool = False,
                 completion: Optional[Callable[[Dict[str, Any]], Any]] = None) -> None:
        self.metric = metric
        #: where the figures the metric ranks by sit (None: it has no single figure, as aspects)
        self.primary = primary
        #: whether per-pair objects ("scores") belong in :meth:`to_dict` (mrp-score --trace)
        self.trace = trace
        self._document = document
        self._completion = completion

    def __getstate__(self) -> Tuple[Any, ...]:  # pickled and copied completed
        return self.metric, self.primary, self.trace, self.document

    def __setstate__(self, state: Tuple[Any, ...]) -> None:
        self.metric, self.primary, self.trace, self._document = state
        self._completion = None

    def __repr__(self) -> str:
        return f"Result(metric={self.metric!r}, primary={self.primary!r}, trace={self.trace!r})"

    @property
    def document(self) -> Dict[str, Any]:
        """The whole result object, completed (macro figures, intervals, signature)."""
        if self._completion is not None:
            with _COMPLETING:  # another thread reading it meanwhile waits for the whole document
                completion = self._completion
                if completion is not None:
                    completion(self._document)
                    self._completion = None
        return self._document

    @property
    def signature(self) -> str:
        """Everything that can change the numbers, in one string."""
        return str(self.document.get("signature", ""))

    @property
    def figures(self) -> Figures:
        """The primary corpus figures (micro-averaged)."""
        if self.primary is None:
            raise ScoreError(f"{self.metric} has no single figure: read its figures from the result "
                             "(to_dict())")
        node = _at(self._document, self.primary)  # completing the document does not change them
        if node is None:
            raise KeyError(f"{self.metric}: no figures at {'/'.join(self.primary) or 'the top'}")
        return Figures.of(node)

    @property
    def p(self) -> float:
        """Primary precision."""
        return self.figures.p

    @property
    def r(self) -> float:
        """Primary recall."""
        return self.figures.r

    @property
    def f(self) -> float:
        """Primary F."""
        return self.figures.f

    @property
    def macro(self) -> Dict[str, Any]:
        """Macro-averaged figures (the result's "macro" object)."""
        return dict(self.document.get("macro", {}))

    @property
    def generated(self) -> Optional[Dict[str, Any]]:
        """For system graphs read as a language model's responses (``read="generated"``): responses,
        well-formed, repaired and unusable ones (scored as empty), ``well_formed_rate``, ``repaired_rate``
        and the ``reasons``; else None."""
        found = self.document.get("generated")
        return dict(found) if isinstance(found, Mapping) else None

    @property
    def exact(self) -> bool:
        """True when every pair's correspondence is proved optimal (or the metric does not search)."""
        return all(pair.exact for pair in self.pairs)

    @property
    def pairs(self) -> List[PairResult]:
        """Per-pair results in gold order."""
        return list(self._pairs())

    def _pairs(self) -> Iterator[PairResult]:
        for framework, items in self._document.get("scores", {}).items():
            if not isinstance(items, Mapping):
                continue
            for gid, item in items.items():
                node = None if self.primary is None else _at(item, self.primary)
                yield PairResult(gid, framework, None if node is None else Figures.of(node),
                                 bool(item.get("exact", True)), item.get("bound"), item.get("cut"), item)

    def __getitem__(self, key: str) -> Any:
        return self.document[key]

    def to_dict(self) -> Dict[str, Any]:
        """The JSON document mrp-score prints for the same inputs and options (per-pair "scores" with
        ``trace``)."""
        out = copy.deepcopy(self.document)
        if not self.trace:
            out.pop("scores", None)
            if isinstance(out.get("documents"), dict):
                out["documents"].pop("scores", None)
        return out
