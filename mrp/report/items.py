"""The per-item counts of a traced result (``--trace``: ``"scores": {framework: {id: item}}``): every
count path the result reports, and each item's (g, s, c) there, in a canonical item order: by (framework,
id), whatever the order of the input files, so that sums of floats (macro figures) and resampling (the
bootstrap's draws index the items) give the same numbers, bit for bit, for any order of the graphs."""

from __future__ import annotations

from collections.abc import Mapping  # isinstance checks against it are several times cheaper than typing's
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

__all__ = ["item_counts", "item_keys", "item_rows", "reported_paths"]

Path = Tuple[str, ...]
#: one item's (g, s, c), or None when the item does not report them
Counts = Optional[Tuple[int, int, int]]

#: keys of a result that hold no count triples of its own (per-item counts, what annotate adds, and
#: per-document sums, which are no per-item paths)
_SKIP = frozenset(("scores", "macro", "ci", "bootstrap", "documents"))
_TRIPLE = ("g", "s", "c")
_PLAIN = frozenset((int, float, str, bool, list, type(None)))
_REPORTED = frozenset(("g", "s", "c", "p", "r", "f"))


def _is_count(value: Any) -> bool:
    return type(value) is int or (type(value) is not bool and isinstance(value, (int, np.integer)))


def _is_mapping(node: Any) -> bool:  # the ABC's isinstance costs more than a walk: types first
    return type(node) is dict or (type(node) not in _PLAIN and isinstance(node, Mapping))


def _is_triple(node: Any, keys: frozenset = _REPORTED) -> bool:
    return _is_mapping(node) and keys <= node.keys() and _is_count(node["g"]) and _is_count(node["s"]) \
        and _is_count(node["c"])


def reported_paths(result: Mapping[str, Any]) -> List[Path]:
    """The paths of every reported count triple ({g, s, c, p, r, f}) of a result, in result order."""
    paths: List[Path] = []

    def walk(node: Mapping[str, Any], path: Path) -> None:
        if _is_triple(node):
            paths.append(path)
        for key, value in node.items():
            if (type(value) is dict or type(value) not in _PLAIN and isinstance(value, Mapping)) \
                    and (path or key not in _SKIP):
                walk(value, path + (str(key),))

    walk(result, ())
    return paths


def _lookup(node: Any, path: Path) -> Counts:
    for key in path:
        if not _is_mapping(node) or key not in node:
            return None
        node = node[key]
    if not _is_triple(node, frozenset(_TRIPLE)):
        return None
    return int(node["g"]), int(node["s"]), int(node["c"])


def _items(result: Mapping[str, Any]) -> List[Tuple[str, str, Mapping[str, Any]]]:
    scores = result.get("scores") if isinstance(result, Mapping) else None
    if not isinstance(scores, Mapping):
        raise ValueError("the result carries no per-item \"scores\" (score with --trace)")
    items = []
    for framework, by_id in scores.items():
        if not isinstance(by_id, Mapping):
            raise ValueError(f"\"scores\" of framework '{framework}' is not an object of items")
        for gid, item in by_id.items():
            items.append((str(framework), str(gid), item))
    items.sort(key=lambda entry: (entry[0], entry[1]))  # canonical: (framework, id), not the input's order
    return items


def _rows(items: Sequence[Tuple[str, str, Mapping[str, Any]]], path: Path) -> List[Counts]:
    """The per-item counts at path, or at the longest non-empty tail of it that some item reports.

    Items may leave out leading keys of the path: the "aspects" layout reports
    ``{"aspects": {name: ...}}`` in total but ``{name: {g, s, c}}`` per item.
    """
    rows = [_lookup(item, path) for _, _, item in items]
    for start in range(1, len(path)):
        if any(row is not None for row in rows):
            break
        rows = [_lookup(item, path[start:]) for _, _, item in items]
    return rows


def item_keys(result: Mapping[str, Any]) -> List[Tuple[str, str]]:
    """The (framework, id) of every item of a traced result, in the row order of :func:`item_counts`
    (sorted: the same for any order of the input).

    Raises ValueError when the result carries no ``"scores"``.
    """
    return [(framework, gid) for framework, gid, _ in _items(result)]


def item_counts(result: Mapping[str, Any]) -> Dict[Path, np.ndarray]:
    """Per-item (g, s, c) of every reported count triple of a traced result.

    Returns count path -> int64 array of shape (items, 3), rows in
    :func:`item_keys` order, paths in the order the result reports them.
    Per-item entries may leave out leading keys of the path (the "aspects"
    layout: ``{"aspects": {name: {...}}}`` in total, ``{name: {g, s, c}}`` per
    item).  A path no item reports (EDM ``"all"``) is the per-item sum of its
    sibling paths (same parent) when its reported total equals the sum of
    theirs; a path that can be resolved neither way is left out.  Raises
    ValueError when the result carries no ``"scores"``, or when some items
    report a path and others do not.
    """
    return {path: np.array(rows, dtype=np.int64).reshape(len(rows), 3)
            for path, rows in item_rows(result).items()}


def item_rows(result: Mapping[str, Any]) -> Dict[Path, List[Tuple[int, int, int]]]:
    """:func:`item_counts` as lists of (g, s, c) rows."""
    items = _items(result)
    paths = reported_paths(result)
    out: Dict[Path, List[Tuple[int, int, int]]] = {}
    unresolved: List[Path] = []
    for path in paths:
        rows = _rows(items, path)
        missing = [k for k, row in enumerate(rows) if row is None]
        if not missing:
            out[path] = rows  # type: ignore[assignment]
        elif len(missing) == len(rows) and rows:
            unresolved.append(path)
        else:
            framework, gid, _ = items[missing[0]]
            raise ValueError(f"item {framework}/{gid} has no counts for {'/'.join(path) or 'the total'}"
                             " while other items have them")
    for path in unresolved:
        siblings = [p for p in out if len(p) == len(path) and p[:-1] == path[:-1]]
        total = _lookup(result, path)
        reported = [_lookup(result, p) for p in siblings]
        if siblings and total is not None and None not in reported \
                and tuple(map(sum, zip(*reported))) == total:  # type: ignore[arg-type]
            out[path] = [(sum(row[0] for row in column), sum(row[1] for row in column),
                          sum(row[2] for row in column)) for column in zip(*(out[p] for p in siblings))]
    return {path: out[path] for path in paths if path in out}
