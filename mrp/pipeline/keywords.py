"""The library's keyword arguments of :func:`mrp.score` and :class:`mrp.Scorer`, declared once: the options
every run shares (each naming the ``mrp-score`` flag it corresponds to), then every registered metric's
:class:`mrp.engine.base.Parameter` (its ``field`` is the keyword, its ``flag`` the command line's).  From
this table come the functions' signatures, the "Keyword Args" of their docstrings, the check of what a
caller passes, the spelling of options in the library's error messages, and the commands' metric flags
(:func:`metric_keywords`, :meth:`Keyword.argument`: a metric's new parameter is a keyword and a flag at
once)."""

from __future__ import annotations

import argparse
import difflib
import inspect
import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from mrp.engine import DEFAULT_MAX_MEMORY, DEFAULT_TIMEOUT, Parameter
from mrp.errors import MRPError
from mrp.memo import Memo
from mrp.metrics.registry import METRICS, metrics
from mrp.metrics.registry import metric as registered

__all__ = ["CLI_ONLY", "READING", "Keyword", "checked", "document", "keywords", "metric_keywords", "sign",
           "spelled"]


@dataclass(frozen=True)
class Keyword:
    """One keyword argument of the library, and the ``mrp-score`` flag it corresponds to."""

    #: the keyword
    name: str
    #: its type, as the signature shows it
    annotation: Any
    #: its default
    default: Any
    #: one line for the docstring
    help: str
    #: the mrp-score flag (None: the library's own)
    flag: Optional[str] = None
    #: how a message names the keyword in use (default ``name=...``)
    usage: Optional[str] = None
    #: the metric it belongs to (None: every metric)
    metric: Optional[str] = None
    #: converts a string the way the command line converts the flag's argument (metric parameters)
    kind: Optional[Callable[[str], Any]] = None
    #: the values it may take, when it is one of a few words
    choices: Optional[Tuple[str, ...]] = None
    #: whether it changes how the inputs are read (then it applies to every kind of input, or is refused)
    reads: bool = False
    #: the name of the flag's argument in the command line's help (metric parameters)
    metavar: Optional[str] = None

    @property
    def owners(self) -> Tuple[str, ...]:
        """The metrics it belongs to, in the registry's order (() for a keyword of every run)."""
        return tuple(self.metric.split(", ")) if self.metric else ()

    def argument(self) -> Dict[str, Any]:
        """A metric parameter's flag as the commands take it: ``argparse``'s keyword arguments for
        ``add_argument(keyword.flag, **keyword.argument())`` (a switch without ``kind``; else its type, the
        name of its argument, default and choices), its value landing under the keyword's name."""
        if self.kind is None:
            return {"dest": self.name, "action": "store_true", "help": self.help}
        return {"dest": self.name, "type": self.kind, "metavar": self.metavar, "default": self.default,
                "choices": self.choices, "help": self.help}

    def spelled(self) -> str:
        """How a message names this keyword in use, e.g. ``positional=True``."""
        if self.usage:
            return self.usage
        return f"{self.name}=True" if self.annotation is bool else f"{self.name}=..."


#: every run's keywords, in the order the docstrings list them
_SHARED: Tuple[Keyword, ...] = (
    Keyword("timeout", Optional[float], DEFAULT_TIMEOUT, "seconds per pair at most (0 or None: no cap); a "
            "pair stopped by it keeps its best correspondence and an upper bound", "--timeout"),
    Keyword("limit", Optional[int], None, "search steps per pair at most", "--limit"),
    Keyword("max_memory", Union[int, str, None], DEFAULT_MAX_MEMORY, "bytes a pair's node-pair arrays may "
            "take (a number, or e.g. '500M', '2G'; 0 or None: no cap), estimated before anything is "
            "allocated: a pair beyond it gets a linear-time correspondence, cut as limit, with its bound",
            "--max-memory", "max_memory='4G'"),
    Keyword("mip", bool, True, "hand pairs the branch and bound leaves open to the mixed-integer program "
            "(False: the search alone)", "--no-mip", "mip=False"),
    Keyword("jobs", Union[int, str], 1, "worker processes, or \"auto\"", "--jobs"),
    Keyword("triples", Optional[str], None, "smatch on AMR read from Penman: \"penman\" (the original "
            "tool's triples, the default) or \"mrp\" (mtool's)", "--triples", choices=("penman", "mrp")),
    Keyword("standardize", str, "none", "AMR standardization of both sides (a preset or options joined by "
            "'+')", "--standardize"),
    Keyword("bootstrap", Optional[int], None, "confidence intervals from this many bootstrap resamples",
            "--bootstrap"),
    Keyword("seed", int, 0, "random seed of the bootstrap", "--seed"),
    Keyword("trace", bool, False, "per-pair objects under \"scores\" in ``to_dict()`` (``Result.pairs`` has "
            "them always)", "--trace"),
    Keyword("errors", bool, False, "per pair the correspondence and the missing and surplus tuples, under "
            "\"errors\" (mrp-score writes them to a file)", "--errors"),
    Keyword("explain", Optional[str], None, "write an HTML report of every pair to this path",
            "--explain", "explain='report.html'"),
    Keyword("explain_id", Optional[str], None, "with ``explain``: only the page of the pair of this gold "
            "id", "--explain-id", "explain_id='ID'"),
    Keyword("positional", bool, False, "pair graphs by position: inputs with ids whatever their ids (the "
            "result's ids_differ counts those that differ), inputs without ids even when they hold different "
            "numbers of graphs", "--positional"),
    Keyword("format", Optional[str], None, "format of the system graphs (and of the gold graphs unless "
            "``gold_format`` is given)", "--format", "format='amr'"),
    Keyword("gold_format", Optional[str], None, "format of the gold graphs", "--gold-format",
            "gold_format='mrp'"),
    Keyword("read", Optional[str], None, "\"generated\": the system graphs are a language model's responses "
            "(a list of strings, or a JSON Lines file): the graph found in each, repaired as Penman is, an "
            "unusable one scored as empty; the result's \"generated\" block gives the well-formed and "
            "repaired rates and the reasons", "--read", "read='generated'", choices=("generated",)),
    Keyword("framework", Optional[str], None, "score only graphs of this framework (and give it to graphs "
            "that name none)", "--framework", "framework='eds'", reads=True),
    Keyword("text", Union[str, Mapping[str, str], None], None, "the input strings: a path to id<TAB>sentence "
            "lines, or a mapping from graph id to sentence (read options: inputs given as text or paths)",
            "--text", "text=...", reads=True),
    Keyword("no_wiki", bool, False, "drop :wiki relations", "--no-wiki", reads=True),
    Keyword("strict", bool, False, "refuse graphs read by a repair (counted as invalid)", "--strict",
            reads=True),
    Keyword("wsj_ids", bool, False, "AMR: map WSJ ids as the MRP data do (read options: inputs given as "
            "text or paths)", "--wsj-ids", reads=True),
    Keyword("progress", Any, None, "True: a progress line on stderr; or a :class:`mrp.engine.options."
            "Progress`"),
)

#: the keywords that change how the inputs are read (each applies to every kind of input, or is refused)
READING = tuple(keyword.name for keyword in _SHARED if keyword.reads)

#: mrp-score's options that the library does not take, each with its reason
CLI_ONLY: Dict[str, str] = {
    "--gold": "the library takes the gold graphs as its first argument",
    "--score": "the library's metric argument (one metric per call)",
    "--aspects": "a shorthand of --score aspects: metric='aspects'",
    "--unlabeled": "a shorthand of --score unlabeled: metric='unlabeled'",
    "--table": "a rendering of the report on stdout; the library returns a Result",
    "--score-only": "the primary figure alone on stdout; the library's Result.primary is that figure",
    "--output": "where the command line writes its report; the library returns a Result",
    "--validate": "reports every problem on stderr; the library never prints (see mrp.validation)",
    "--quiet": "silences stderr; the library never prints (warnings are mrp.errors.MRPWarning)",
    "--significance": "tests between several SYSTEM files of a leaderboard; the library scores one system",
    "--id": "selects graphs by id: pass the graphs you want",
    "--i": "selects a graph by position: pass the graphs you want",
    "--n": "selects the first N graphs: pass the graphs you want",
    "--filter": "selects graphs by a file of ids: pass the graphs you want",
    "--version": "prints the version: mrp.__version__",
}


def _annotation(parameter: Parameter) -> Any:
    if parameter.annotation is not None:
        return parameter.annotation
    if parameter.kind is None:
        return bool
    if parameter.kind in (str, int, float):
        return Optional[parameter.kind]
    return Any


def _of(parameter: Parameter, metric: str) -> Keyword:
    default = False if parameter.kind is None else parameter.default
    return Keyword(parameter.field, _annotation(parameter), default, parameter.help, parameter.flag,
                   metric=metric, kind=parameter.kind, choices=parameter.choices, metavar=parameter.metavar)


#: the table of the registry as it is (by its entries: a metric added makes it anew)
_TABLE: Memo[Tuple[Tuple[str, Tuple[str, Tuple[str, ...]]], ...], Dict[str, Keyword]] = Memo(1)


def keywords() -> Dict[str, Keyword]:
    """Every keyword by name: the shared ones, then each metric's parameters (a parameter that several
    metrics declare, e.g. ``doc_align``, once, named for the metrics that take it)."""
    return _TABLE.make(tuple(METRICS.items()), _table)


def _table(registry: object) -> Dict[str, Keyword]:
    """The keywords of the registry as it is (``registry``, its entries, is the memo's key only)."""
    table = {keyword.name: keyword for keyword in _SHARED}
    owners: Dict[str, List[str]] = {}
    for metric in metrics():
        for parameter in metric.parameters:
            owners.setdefault(parameter.field, []).append(metric.name)
            table.setdefault(parameter.field, _of(parameter, metric.name))
    for name, names in owners.items():
        if len(names) > 1:
            found = table[name]
            table[name] = Keyword(**{**found.__dict__, "metric": ", ".join(names)})
    return table


def metric_keywords(names: Optional[Sequence[str]] = None) -> List[Keyword]:
    """The keywords of these metrics' parameters (every registered metric's for None), each once, in the
    order the metrics are given and each declares its parameters: the metric flags of a command
    (:meth:`Keyword.argument`).

    Args:
        names: registry names of metrics, or None.

    Returns:
        Their keywords, a parameter several metrics share once.
    """
    if names is not None and not names:
        return []  # no metric: no metric module imported (the table imports every one)
    table = keywords()
    out: Dict[str, Keyword] = {}
    for name in METRICS if names is None else names:
        for parameter in registered(name).parameters:
            out.setdefault(parameter.flag, table[parameter.field])
    return list(out.values())


def checked(arguments: Mapping[str, Any], function: str) -> Dict[str, Any]:
    """The keyword arguments a caller gave, each value converted as the command line converts it (a string
    for a metric parameter that takes one) and checked against its choices.

    Raises:
        TypeError: for a keyword that is not one (naming the closest).
        ValueError: for a value not among a keyword's choices.
    """
    table = keywords()
    out: Dict[str, Any] = {}
    for name, value in arguments.items():
        keyword = table.get(name)
        if keyword is None:
            close = difflib.get_close_matches(name, list(table), 1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise TypeError(f"{function}() got an unexpected keyword argument '{name}'{hint}")
        if keyword.kind is not None and keyword.kind not in (str, int, float) and isinstance(value, str):
            try:
                value = keyword.kind(value)
            except (ValueError, TypeError, argparse.ArgumentTypeError) as error:
                raise ValueError(f"{name}={value!r}: {error}") from None
        if keyword.choices is not None and value is not None and value not in keyword.choices:
            raise ValueError(f"{name}={value!r}: must be one of {', '.join(map(repr, keyword.choices))}")
        out[name] = value
    return out


def sign(function: Callable[..., Any], leading: List[inspect.Parameter], omitted: Tuple[str, ...] = ()
         ) -> None:
    """Give ``function`` the signature of its leading parameters and every keyword (typed, with defaults)
    but the ``omitted`` ones, and its docstring the list of those keywords."""
    params = list(leading)
    params += [inspect.Parameter(keyword.name, inspect.Parameter.KEYWORD_ONLY, default=keyword.default,
                                 annotation=keyword.annotation)
               for keyword in keywords().values() if keyword.name not in omitted]
    function.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    function.__doc__ = (inspect.cleandoc(function.__doc__ or "") + "\n\n" + document(omitted)).rstrip() + "\n"


def document(omitted: Tuple[str, ...] = ()) -> str:
    """The "Keyword Args" section of a docstring (reST through napoleon): every keyword (but the
    ``omitted`` ones), its type, what it does, and the mrp-score flag it corresponds to."""
    lines = ["Keyword Args:"]
    for keyword in keywords().values():
        if keyword.name in omitted:
            continue
        kind = inspect.formatannotation(keyword.annotation).replace("typing.", "")
        owner = f"({keyword.metric}) " if keyword.metric else ""
        help_text = _OWNER.sub("", keyword.help) if keyword.metric else keyword.help
        flag = f" (mrp-score ``{keyword.flag}``)" if keyword.flag else ""
        default = "" if keyword.default in (None, False) else f" Default: ``{keyword.default!r}``."
        lines.append(f"    {keyword.name} ({kind}): {owner}{_rest(help_text)}{flag}.{default}")
    return "\n".join(lines)


def _rest(text: str) -> str:
    """Help text as valid reST inline text (a starred word would open emphasis)."""
    return text.replace("*", "\\*").rstrip(".")


#: the metric names a parameter's help starts with ("umatch: ...", "smatch, mrp: ...")
_OWNER = re.compile(r"^[\w+-]+(, [\w+-]+)*: ")

_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def spelled(message: str) -> str:
    """A message of the command line's vocabulary in the library's: every mrp-score flag that is a keyword
    of the library named as the keyword in use (``--positional`` -> ``positional=True``)."""
    if "--" not in message:
        return message
    by_flag = {keyword.flag: keyword for keyword in keywords().values() if keyword.flag}
    return _FLAG.sub(lambda found: by_flag[found.group()].spelled() if found.group() in by_flag
                     else found.group(), message)


def respelled(error: MRPError) -> MRPError:
    """The error with its message in the library's vocabulary (the same error when nothing changes)."""
    text = str(error.args[0]) if error.args and isinstance(error.args[0], str) else None
    if text is None or spelled(text) == text:
        return error
    error.args = (spelled(text), *error.args[1:])
    if hasattr(error, "message") and isinstance(error.message, str):
        error.message = spelled(error.message)
    return error
