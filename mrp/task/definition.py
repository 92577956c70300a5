"""A shared task's definition: what is scored, how files pair and group, how the figures are averaged and
ranked, read from a TOML file (``tomllib``; on Python 3.10 the ``tomli`` package when installed, else a
one-line refusal).  Two tasks ship inside the package: ``dmr2026-umr`` and ``mrp2019``."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Dict, List, Mapping, Optional, Tuple

from mrp.errors import InputError
from mrp.io.option_files import bounded, read_option_bytes

__all__ = ["Limits", "MetricSpec", "Task", "load", "shipped"]

_CHOICES = {"case": ("insensitive", "exact"), "missing": ("empty", "refuse"), "extra": ("ignore", "refuse"),
            "policy": ("empty", "refuse", "score"), "overall": ("macro", "micro"),
            "group": ("name", "framework")}
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Limits:
    """What one submission may unpack to: members, bytes in all, and the ratio of unpacked to packed bytes."""

    members: int = 10_000
    bytes: int = 2 << 30
    ratio: float = 200.0


@dataclass(frozen=True)
class MetricSpec:
    """One figure of the task: its key in ``scores.json`` (``KEY_f``, ``KEY_f_GROUP``), the mrp metric and
    its options."""

    key: str
    metric: str
    compat: bool = False
    label: str = ""
    #: the metric's count path the figure sums (``aligned_tokens``: compare_umr.pl's alignment figure);
    #: empty: the metric's primary path
    path: str = ""
    #: the metric's parameters by field name (``umatch_no_document_level = true``: the sentence graphs alone)
    options: Tuple[Tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Task:
    """A shared task, as its definition file says."""

    name: str
    title: str
    format: str
    pattern: str
    group: str = "name"
    case: str = "insensitive"
    missing: str = "empty"
    extra: str = "ignore"
    secondary: str = "secondary"
    level: int = 2
    policy: str = "empty"
    metrics: Tuple[MetricSpec, ...] = ()
    overall: str = "macro"
    primary: str = ""
    bootstrap: int = 1000
    seed: int = 0
    confidence: float = 0.95
    baseline: Optional[str] = None
    limits: Limits = field(default_factory=Limits)
    source: str = ""
    #: the groups (languages) without training data, marked wherever groups are shown
    unseen: Tuple[str, ...] = ()

    def matches(self, name: str) -> Optional[re.Match]:
        """The match of a file name against the task's pattern (case-blind under ``case = "insensitive"``)."""
        flags = re.IGNORECASE if self.case == "insensitive" else 0
        return re.match(self.pattern, name, flags)

    def group_of(self, name: str) -> str:
        """The group (language) a file name gives, by the pattern's group named ``group``; the whole
        name's stem when the pattern names none."""
        found = self.matches(name)
        if found is not None and "group" in found.re.groupindex and found.group("group"):
            return found.group("group").lower() if self.case == "insensitive" else found.group("group")
        return os.path.splitext(name)[0]

    def keys(self, groups: List[str]) -> List[str]:
        """The leaderboard keys of ``scores.json``, in column order: per metric the overall F, then its F per
        group."""
        out: List[str] = []
        for spec in self.metrics:
            out.append(f"{spec.key}_f")
            out.extend(f"{spec.key}_f_{group}" for group in groups)
        return out


def _toml(text: str, where: str) -> Dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib as parser
    else:  # pragma: no cover - Python 3.10 only
        try:
            import tomli as parser
        except ImportError:
            raise InputError(f"{where}: reading a task file on Python 3.10 needs the 'tomli' package "
                             "(pip install tomli), or Python 3.11 or later") from None
    try:
        return bounded(parser.loads(text), where)  # type: ignore[no-any-return]
    except RecursionError:  # the parser recurses on nested arrays and tables
        raise InputError(f"{where}: not a valid TOML task file: nested too deeply") from None
    except parser.TOMLDecodeError as error:
        raise InputError(f"{where}: not a valid TOML task file: {error}") from None


def _get(table: Mapping[str, Any], name: str, kind: type, default: Any, where: str) -> Any:
    value = table.get(name, default)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if value is not None and not (isinstance(value, kind) and not (kind is int and isinstance(value, bool))):
        raise InputError(f"{where}: '{name}' must be {kind.__name__}, not {type(value).__name__}")
    if name in _CHOICES and value not in _CHOICES[name]:
        raise InputError(f"{where}: '{name}' is '{value}' (known: {', '.join(_CHOICES[name])})")
    return value


def _metrics(items: Any, where: str) -> Tuple[MetricSpec, ...]:
    from mrp.metrics import canonical
    from mrp.task.figures import SUMMED, summable

    if not isinstance(items, list) or not items:
        raise InputError(f"{where}: a task needs at least one [[metrics]] table")
    out = []
    for item in items:
        if not isinstance(item, dict):
            raise InputError(f"{where}: each [[metrics]] entry must be a table")
        key = _get(item, "key", str, None, where)
        name = _get(item, "metric", str, None, where)
        if key is None or not _KEY.match(key) or name is None:
            raise InputError(f"{where}: each [[metrics]] needs 'metric' and a 'key' of lower-case letters, "
                             "digits and '_'")
        try:
            name = canonical(name)
        except Exception as error:  # noqa: BLE001 - the registry's own message names the metric
            raise InputError(f"{where}: metric '{name}': {error}") from None
        if not summable(name):
            raise InputError(f"{where}: metric '{name}' has no per-sentence counts to sum into a task's "
                             f"figures (its figures are averages, not sums of counts; of such metrics a task "
                             f"adds up {', '.join(sorted(SUMMED))})")
        options = _get(item, "options", dict, {}, where)
        from mrp.metrics import metric as registered

        known = {parameter.field for parameter in registered(name).parameters}
        unknown = ", ".join(sorted(set(options) - known))
        if unknown:
            raise InputError(f"{where}: metric '{name}' has no option(s) {unknown} (known: "
                             f"{', '.join(sorted(known)) or 'none'})")
        path = _get(item, "path", str, "", where)
        out.append(MetricSpec(key, name, bool(_get(item, "compat", bool, False, where)),
                              _get(item, "label", str, "", where) or key, path,
                              tuple(sorted(options.items()))))
    keys = [spec.key for spec in out]
    if len(set(keys)) != len(keys):
        raise InputError(f"{where}: metric keys must be distinct: {', '.join(keys)}")
    return tuple(out)


def parse(text: str, where: str) -> Task:
    """A task from the text of its definition file (``where`` names it in messages)."""
    data = _toml(text, where)
    files = data.get("files", {})
    validation = data.get("validation", {})
    ranking = data.get("ranking", {})
    limits = data.get("limits", {})
    name = _get(data, "name", str, None, where)
    fmt = _get(data, "format", str, None, where)
    pattern = _get(files, "pattern", str, None, where)
    if not name or fmt not in ("umr", "mrp") or not pattern:
        raise InputError(f"{where}: a task needs 'name', 'format' (umr or mrp) and [files] 'pattern'")
    try:
        re.compile(pattern)
    except re.error as error:
        raise InputError(f"{where}: [files] pattern is not a regular expression: {error}") from None
    metrics = _metrics(data.get("metrics"), where)
    primary = _get(ranking, "primary", str, f"{metrics[0].key}_f", where)
    if primary not in {f"{spec.key}_f" for spec in metrics}:
        raise InputError(f"{where}: [ranking] primary '{primary}' is none of the overall keys "
                         f"({', '.join(spec.key + '_f' for spec in metrics)})")
    from mrp.task.figures import ranks

    if not ranks(next(spec.metric for spec in metrics if f"{spec.key}_f" == primary)):
        raise InputError(f"{where}: [ranking] primary '{primary}' is not a sum of counts (no intervals or "
                         "paired tests): rank by a figure of counts and show it beside")
    level = _get(validation, "level", int, 2, where)
    if not 0 <= level <= 3:
        raise InputError(f"{where}: [validation] level must be 0 to 3, not {level}")
    confidence = _get(ranking, "level", float, 0.95, where)
    bootstrap = _get(ranking, "bootstrap", int, 1000, where)
    if not 0.0 < confidence < 1.0 or bootstrap < 1:
        raise InputError(f"{where}: [ranking] level must lie in (0, 1) and bootstrap be at least 1")
    return Task(
        name=name, title=_get(data, "title", str, name, where), format=fmt, pattern=pattern,
        group=_get(files, "group", str, "name", where), case=_get(files, "case", str, "insensitive", where),
        missing=_get(files, "missing", str, "empty", where), extra=_get(files, "extra", str, "ignore", where),
        secondary=_get(files, "secondary", str, "secondary", where), level=level,
        policy=_get(validation, "policy", str, "empty", where), metrics=metrics,
        overall=_get(data.get("averaging", {}), "overall", str, "macro", where), primary=primary,
        bootstrap=bootstrap, seed=_get(ranking, "seed", int, 0, where), confidence=confidence,
        baseline=_get(data.get("baseline", {}), "team", str, None, where),
        limits=Limits(_get(limits, "members", int, Limits.members, where),
                      _get(limits, "bytes", int, Limits.bytes, where),
                      _get(limits, "ratio", float, Limits.ratio, where)),
        source=text, unseen=tuple(str(group) for group in _get(data.get("groups", {}), "unseen", list, [],
                                                               where)))


def shipped() -> List[str]:
    """The names of the tasks that ship with mrp."""
    folder = resources.files("mrp.task").joinpath("tasks")
    return sorted(item.name[:-5] for item in folder.iterdir() if item.name.endswith(".toml"))


def load(name_or_path: str) -> Task:
    """A shipped task by name (``dmr2026-umr``, ``mrp2019``) or a task file by path.

    Raises:
        InputError: for an unknown name, an unreadable file or a definition that does not hold.
    """
    if name_or_path in shipped():
        text = resources.files("mrp.task").joinpath("tasks", name_or_path + ".toml").read_text("utf-8")
        return parse(text, name_or_path)
    if not os.path.isfile(name_or_path):
        raise InputError(f"--task {name_or_path}: neither a shipped task ({', '.join(shipped())}) nor a "
                         "task file")
    data = read_option_bytes(name_or_path, "--task")  # bounded size
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{name_or_path}: cannot read the task file: {error}") from None
    return parse(text, name_or_path)
