"""The one place a run's :class:`~mrp.engine.options.Options` are made, for every door: the library's
keywords (:func:`mrp.score`, :class:`mrp.Scorer`), the commands' arguments (``mrp-score``, ``mrp-mtool``:
the same keyword table, :mod:`mrp.pipeline.keywords`) and a task's metrics (``mrp-evaluate``)."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional

from mrp.engine import DEFAULT_MAX_MEMORY, Execution, Options, parameter_values
from mrp.metrics.registry import metric as registered

__all__ = ["compat_values", "run_options", "with_penman"]

#: the keywords of every run that set an Options field of the same name
_SHARED = ("limit", "timeout", "max_memory", "mip", "errors", "no_wiki", "strict", "trace", "explain")


def run_options(values: Mapping[str, Any], parameters: Optional[Mapping[str, Any]] = None,
            standardization: str = "none", penman: bool = False, run: Optional[Execution] = None) -> Options:
    """A run's options.

    Args:
        values: the run's keyword values, checked already, under the library's names (``timeout``,
            ``limit``, ``max_memory``, ``mip``, ``errors``, ``no_wiki``, ``strict``, ``trace``,
            ``explain``); a keyword that is not given takes Options' default (``max_memory``:
            :data:`~mrp.engine.options.DEFAULT_MAX_MEMORY`).
        parameters: the values of the metrics' parameters, by field.
        standardization: the AMR standardization's name (as the signature records it).
        penman: whether SMATCH counts the original tool's triples (:func:`mrp.pipeline.steps.penman_triples`).
        run: how the run executes (workers, progress, reused results).

    Returns:
        The options.
    """
    shared: Dict[str, Any] = {name: values[name] for name in _SHARED if name in values}
    shared.setdefault("max_memory", DEFAULT_MAX_MEMORY)
    shared["errors"] = bool(shared.get("errors"))
    return Options(**shared, penman=penman, standardization=standardization,
                   run=run if run is not None else Execution(), **parameter_values(parameters or {}))


def compat_values(metric: str, compat: bool) -> Dict[str, Any]:
    """The parameter values that switch a metric to its reference tool's behaviour (its ``<metric>_compat``
    parameter, when it has one; a task's ``compat = true``).

    Args:
        metric: the metric's name.
        compat: whether the reference tool's behaviour is asked for.

    Returns:
        ``{"<metric>_compat": True}``, or nothing.
    """
    switch = f"{metric}_compat"
    has = any(parameter.field == switch for parameter in registered(metric).parameters)
    return {switch: True} if compat and has else {}


def with_penman(options: Options, penman: bool) -> Options:
    """The options with ``penman`` set (a copy made as cheaply as can be: :func:`dataclasses.replace` or
    :func:`copy.copy` cost more than the scoring of a small pair).

    Args:
        options: the options.
        penman: whether SMATCH counts the original tool's triples.

    Returns:
        A new Options.
    """
    made = object.__new__(Options)
    made.__dict__.update(options.__dict__, penman=penman)
    return made
