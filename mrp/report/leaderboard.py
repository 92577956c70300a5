"""Ranking systems scored against the same gold: a leaderboard with intervals and significance tests.

:func:`leaderboard` takes the traced results (``--trace``) of several systems
with one metric and ranks them by the micro F of the metric's primary count
path (the metric's ``primary``), with bootstrap intervals and a paired significance
test between each system and the next one down.  :func:`table` renders it as
fixed-width text for a terminal or a README.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from mrp.engine import COUNTS, described
from mrp.metrics.registry import metric as registered
from mrp.report.items import reported_paths
from mrp.report.signature import signature_line
from mrp.report.stats import (
    Path,
    bootstrap,
    item_counts,
    item_keys,
    macro,
    micro,
    pair_counts,
    paired_test,
)


def ranked(metric: str) -> bool:
    """Whether a metric has a primary count path (aliases such as ``mces`` resolved)."""
    return registered(metric).primary is not None


def primary(metric: str) -> Path:
    """The count path a metric ranks by (aliases such as ``mces`` resolved); ValueError when it has none."""
    path = registered(metric).primary
    if path is None:
        raise ValueError(f"no primary score for metric '{metric}'; give the path to rank by")
    return path


def leaderboard(metric: str, results: Sequence[Tuple[str, Mapping[str, Any]]], n: int, seed: int,
                method: str = "bootstrap", level: float = 0.95,
                path: Optional[Path] = None) -> Dict[str, Any]:
    """Rank systems by micro F at the metric's primary path (or ``path``), best first.

    ``results`` are (system name, traced result against the same gold) pairs.
    Each system gets its micro P, R, F, percentile bootstrap intervals (``n``
    replicates, ``seed``, ``level``) and macro F over its own items; ties in F
    share a rank (1, 1, 3) and are listed by name.  Each system is compared with the next one down by
    :func:`mrp.report.stats.paired_test` (``method``, ``n``, ``seed``) on the
    items, aligned by (framework, id), that both were scored on; when their
    item sets differ the comparison says so in ``"note"``.  Returns::

        {"metric", "path": [...], "level",
         "systems": [{"rank", "system", "p", "r", "f", "ci": {"p": [lo, hi], "r", "f"},
                      "macro": {"f"}, "n"}],
         "comparisons": [{"better", "worse", "delta", "p", "significant", "items"(, "note")}],
         "test": {"method", "n", "seed"}}

    Raises ValueError for no systems, repeated names, a result without
    per-item ``"scores"`` or without counts at the path, and bad ``n``,
    ``level`` or ``method``.
    """
    ranked_path = primary(metric) if path is None else tuple(path)
    if not results:
        raise ValueError("a leaderboard needs at least one system")
    names = [name for name, _ in results]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"system names must be distinct: {', '.join(repeated)} repeated")
    rows: List[Dict[str, Any]] = []
    for name, result in results:
        counts = item_counts(result)
        if ranked_path not in counts:
            raise ValueError(f"system '{name}': no counts at {'/'.join(ranked_path) or 'the top level'}")
        array = counts[ranked_path]
        p, r, f = micro(array)
        interval = bootstrap({ranked_path: array}, n, seed, level)[ranked_path]["micro"]
        rows.append({"system": name, "p": p, "r": r, "f": f, "ci": interval,
                     "macro": {"f": macro(array)[2]}, "n": int(array.shape[0]), **_pairing(result)})
    rows.sort(key=lambda row: (-row["f"], row["system"]))
    systems: List[Dict[str, Any]] = []
    for place, row in enumerate(rows, start=1):
        # equal F share a rank (competition ranking: 1, 1, 3), listed by name
        tied = systems and systems[-1]["f"] == row["f"]
        systems.append({"rank": systems[-1]["rank"] if tied else place, **row})
    by_name = dict(results)
    comparisons = []
    for better, worse in zip(systems, systems[1:]):
        pair = [by_name[better["system"]], by_name[worse["system"]]]
        shared, (a, b) = pair_counts(pair, ranked_path)
        delta = micro(a)[2] - micro(b)[2]
        p_value = paired_test(a, b, n, seed, method)
        comparison: Dict[str, Any] = {
            "better": better["system"], "worse": worse["system"], "delta": delta, "p": p_value,
            "significant": p_value < 1.0 - level, "items": len(shared),
        }
        sizes = (len(item_keys(pair[0])), len(item_keys(pair[1])))
        if sizes != (len(shared), len(shared)):
            comparison["note"] = (f"compared on the {len(shared)} items both were scored on "
                                  f"({better['system']}: {sizes[0]}, {worse['system']}: {sizes[1]})")
        comparisons.append(comparison)
    return {
        "metric": metric,
        "path": list(ranked_path),
        "level": level,
        "systems": systems,
        "comparisons": comparisons,
        "test": {"method": method, "n": n, "seed": seed},
    }


def _number(value: float) -> str:
    return f"{value:.4f}"


def _level(level: float) -> str:
    return f"{level * 100:g}%"


def table(board: Mapping[str, Any]) -> str:
    """A leaderboard as a fixed-width plain-text table, one system a line, best first.

    Columns: rank, system, P, R, F, the confidence interval of F, the
    difference in F to the next system, the p-value of that difference and
    ``*`` when it is significant.  Numbers have 4 decimals and are
    right-aligned; a legend (and any note on compared items) follows the table.
    """
    level = float(board.get("level", 0.95))
    comparisons = {c["better"]: c for c in board.get("comparisons", [])}
    header = ["rank", "system", "P", "R", "F", f"{_level(level)} CI of F", "delta", "p-value", "sig"]
    lines: List[List[str]] = []
    for entry in board["systems"]:
        lo, hi = entry["ci"]["f"]
        comparison = comparisons.get(entry["system"])
        tail = ["", "", ""]
        if comparison is not None:
            mark = "*" if comparison["significant"] else ""
            if "note" in comparison:
                mark += "+"
            tail = [_number(comparison["delta"]), _number(comparison["p"]), mark]
        lines.append([str(entry["rank"]), str(entry["system"]), _number(entry["p"]), _number(entry["r"]),
                      _number(entry["f"]), f"[{_number(lo)}, {_number(hi)}]", *tail])
    widths = [max(len(row[k]) for row in [header, *lines]) for k in range(len(header))]
    left = {1, 8}

    def render(row: Sequence[str]) -> str:
        cells = [cell.ljust(width) if k in left else cell.rjust(width)
                 for k, (cell, width) in enumerate(zip(row, widths))]
        return "  ".join(cells).rstrip()

    out = [render(header), "  ".join("-" * width for width in widths)]
    out.extend(render(row) for row in lines)
    test = board.get("test", {})
    path = " ".join([str(board.get("metric", "")), *board.get("path", [])]).strip()
    method = "paired bootstrap" if test.get("method") == "bootstrap" else "approximate randomization"
    out.append("")
    out.append(f"ranked by micro F ({path}); delta and p-value: against the next system down")
    out.append(f"* p < {1.0 - level:.4g} ({method}, {test.get('n')} samples, seed {test.get('seed')})")
    for comparison in board.get("comparisons", []):
        if "note" in comparison:
            out.append(f"+ {comparison['better']} vs {comparison['worse']}: {comparison['note']}")
    for entry in board["systems"]:
        told = described(entry.get("pairing", {}), entry.get("n"))
        if told is not None:
            out.append(f"{entry['system']}: {told}")
    out.extend(_signed(board))
    return "\n".join(out) + "\n"


def _signed(board: Mapping[str, Any]) -> List[str]:
    """The signature line of a board or result (none when it carries no signature)."""
    return [signature_line(str(board["signature"]))] if board.get("signature") else []


def _pairing(result: Mapping[str, Any]) -> Dict[str, Any]:
    """A result's pairing counts (:data:`mrp.engine.pairing.COUNTS`), as ``{"pairing": {...}}`` ({} when
    it carries none)."""
    counts = {name: result[name] for name in COUNTS if isinstance(result.get(name), int)}
    return {"pairing": counts} if counts else {}


def _at(node: Any, path: Sequence[str]) -> Any:
    for key in path:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node


def _scored_paths(result: Mapping[str, Any]) -> List[Tuple[str, ...]]:
    """The {p, r, f} objects of a result without count triples (AnCast's scores are not counts)."""
    paths: List[Tuple[str, ...]] = []
    for key, value in result.items():
        if key in ("bound", "with_skipped", "scores", "macro", "ci") or not isinstance(value, Mapping):
            continue
        if {"p", "r", "f"} <= value.keys():
            paths.append((key,))
        else:
            paths.extend((key,) + path for path in _scored_paths(value))
    return paths


def generated_line(reading: Mapping[str, Any]) -> str:
    """The line of a table on a reading of model output: the well-formed, repaired and unusable responses
    (rates with 4 decimals, counts) and the reasons."""
    reasons = ", ".join(f"{reason} {count}" for reason, count in reading.get("reasons", {}).items())
    return (f"generated: well-formed {_number(reading['well_formed_rate'])} ({reading['well_formed']} of "
            f"{reading['responses']}), repaired {_number(reading['repaired_rate'])} ({reading['repaired']}), "
            f"unusable {reading['unusable']} (scored as empty)"
            + (f"; reasons: {reasons}" if reasons else ""))


def summary(metric: str, result: Mapping[str, Any]) -> str:
    """One system's result as a plain-text table: per count path g, s, c, micro P/R/F, macro F, CI of F."""
    header = ["score", "g", "s", "c", "P", "R", "F", "macro F"]
    has_ci = "ci" in result
    if has_ci:
        header.append(f"{_level(float(result.get('bootstrap', {}).get('level', 0.95)))} CI of F")
    lines: List[List[str]] = []
    for path in reported_paths(result) or _scored_paths(result):
        counts = _at(result, path)
        name = " ".join([metric, *(path[1:] if path[:1] == (metric,) else path)])
        row = [name, *(str(counts[key]) if key in counts else "" for key in ("g", "s", "c")),
               _number(counts["p"]), _number(counts["r"]), _number(counts["f"])]
        macro = _at(result.get("macro", {}), path)
        row.append(_number(macro["f"] if isinstance(macro, Mapping) else macro) if macro is not None else "")
        if has_ci:
            lo, hi = _at(result["ci"], path)["micro"]["f"]
            row.append(f"[{_number(lo)}, {_number(hi)}]")
        lines.append(row)
    widths = [max(len(row[k]) for row in [header, *lines]) for k in range(len(header))]
    out = ["  ".join(cell.ljust(w) if k == 0 else cell.rjust(w) for k, (cell, w) in
                     enumerate(zip(row, widths))).rstrip() for row in [header, *lines]]
    out.insert(1, "  ".join("-" * width for width in widths))
    for label, value in headlines(metric, result):
        if not label.endswith(" F"):  # a figure of its own (SemBLEU's corpus score), not a row above
            out.append(f"{label}: {_number(value)}")
    told = described(result, result.get("n") if isinstance(result.get("n"), int) else None)
    if told is not None:
        out.append(f"pairing: {told}")
    if isinstance(result.get("generated"), Mapping):
        out.append(generated_line(result["generated"]))
    out.extend(_signed(result))
    return "\n".join(out) + "\n\n"


def headlines(metric: str, result: Mapping[str, Any]) -> List[Tuple[str, float]]:
    """The figures a metric without a count path is judged by, as (label, value), the first foremost: its
    declared headlines, else the F of every {p, r, f} object of its result."""
    paths = list(registered(metric).headlines) or _scored_paths(result) or reported_paths(result)
    out = []
    for path in paths:
        value = _at(result, path)
        label = " ".join(path[1:] if path[:1] == (metric,) and len(path) > 1 else path)
        if isinstance(value, Mapping) and "f" in value:
            out.append((label + " F", float(value["f"])))
        elif isinstance(value, (int, float)):
            out.append((label, float(value)))
    return out


def unranked(metric: str, results: Sequence[Tuple[str, Mapping[str, Any]]]) -> Dict[str, Any]:
    """Systems of a metric whose figures are not sums of per-pair counts (SemBLEU, AnCast, aspects), sorted
    by its first headline figure (ties by name), each with its headline figures; no intervals or tests
    (they resample per-pair counts)."""
    rows: List[Dict[str, Any]] = [{"system": name, "figures": dict(headlines(metric, result))}
                                  for name, result in results]
    first = next(iter(rows[0]["figures"]), None) if rows else None
    rows.sort(key=lambda row: (-row["figures"].get(first, 0.0), row["system"]))
    for k, row in enumerate(rows):
        tied = k and rows[k - 1]["figures"].get(first) == row["figures"].get(first)
        row["rank"] = rows[k - 1]["rank"] if tied else k + 1
    return {"metric": metric, "by": first, "systems": rows,
            "note": "sorted by the first figure; no intervals or significance tests: these figures are not "
                    "sums of per-pair counts"}


def unranked_table(board: Mapping[str, Any]) -> str:
    """An :func:`unranked` board as a fixed-width plain-text table."""
    labels: List[str] = []
    for row in board["systems"]:
        labels.extend(label for label in row["figures"] if label not in labels)
    header = ["rank", "system", *labels]
    lines = [[str(row["rank"]), row["system"], *(_number(row["figures"][label]) if label in row["figures"]
                                                 else "" for label in labels)] for row in board["systems"]]
    widths = [max(len(line[k]) for line in [header, *lines]) for k in range(len(header))]
    out = ["  ".join(cell.ljust(w) if k == 1 else cell.rjust(w) for k, (cell, w) in
                     enumerate(zip(line, widths))).rstrip() for line in [header, *lines]]
    out.insert(1, "  ".join("-" * width for width in widths))
    out.extend(["", f"{board['metric']}: {board['note']}", *_signed(board)])
    return "\n".join(out) + "\n"

