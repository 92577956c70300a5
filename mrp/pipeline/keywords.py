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

from mrp.engine import AUTO, AUTO_MAX, DEFAULT_MAX_MEMORY, DEFAULT_TIMEOUT, Parameter
from mrp.engine import checked as checked_value
from mrp.errors import MRPError, OptionError
from mrp.memo import Memo
from mrp.metrics.registry import METRICS, metrics
from mrp.metrics.registry import metric as registered

__all__ = ["CLI_ONLY", "READING", "Flag", "Keyword", "checked", "document", "keywords", "metric_keywords",
           "run_keywords", "sign", "spelled"]


@dataclass(frozen=True)
class Flag:
    """How the command line takes a keyword of every run where it differs from the library, in
    ``argparse``'s terms (each None: as the keyword has it, or argparse's default)."""

    #: the flag's help (None: the keyword's ``help``)
    help: Optional[str] = None
    #: where the value lands (None: the keyword's name)
    dest: Optional[str] = None
    #: ``argparse``'s action, e.g. ``"store_true"`` or ``"append"`` (None: store the argument)
    action: Optional[str] = None
    #: converts the flag's argument (None: the text as given)
    type: Optional[Callable[[str], Any]] = None
    #: the value without the flag (None: none)
    default: Any = None
    #: ``"?"``: the argument may be left out, the value then ``const``
    nargs: Optional[str] = None
    const: Any = None


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
    #: the name of the flag's argument in the command line's help
    metavar: Optional[str] = None
    #: how the command line takes it, where that differs from the library (keywords of every run)
    cli: Optional[Flag] = None

    @property
    def owners(self) -> Tuple[str, ...]:
        """The metrics it belongs to, in the registry's order (() for a keyword of every run)."""
        return tuple(self.metric.split(", ")) if self.metric else ()

    def argument(self) -> Dict[str, Any]:
        """The flag as commands take it: ``add_argument(keyword.flag, **keyword.argument())``.  A metric
        parameter's: a switch without ``kind``, else its type, argument name, default and choices, its value
        under the keyword's name.  A run keyword's: what its :class:`Flag` says (none: a switch for a bool,
        else the library's default), with the keyword's argument name and choices."""
        if self.cli is not None or self.metric is None:
            cli = self.cli or (Flag(action="store_true") if self.annotation is bool
                               else Flag(default=self.default))
            out = {"dest": cli.dest or self.name, "action": cli.action, "type": cli.type,
                   "metavar": self.metavar, "default": cli.default, "choices": self.choices,
                   "nargs": cli.nargs, "const": cli.const}
            return {**{key: value for key, value in out.items() if value is not None or key == "dest"},
                    "help": cli.help or self.help}
        if self.kind is None:
            return {"dest": self.name, "action": "store_true", "help": self.help}
        return {"dest": self.name, "type": self.kind, "metavar": self.metavar, "default": self.default,
                "choices": self.choices, "help": self.help}

    def spelled(self) -> str:
        """How a message names this keyword in use, e.g. ``positional=True``."""
        if self.usage:
            return self.usage
        return f"{self.name}=True" if self.annotation is bool else f"{self.name}=..."


def _jobs(text: str) -> int:
    """``--jobs``: "auto" (the driver's ``AUTO``) or a number of workers (else argparse's one-line error)."""
    try:
        number: object = int(text)
    except ValueError:
        number = text
    try:
        return int(checked_value("jobs", number))
    except OptionError as error:  # argparse names the option: the message without "jobs: "
        raise argparse.ArgumentTypeError(str(error).split(": ", 1)[-1]) from None


#: every run's keywords, in the order the docstrings list them (``cli``: the flag, where it differs)
_SHARED: Tuple[Keyword, ...] = (
    Keyword("timeout", Optional[float], DEFAULT_TIMEOUT, "seconds per pair at most (0 or None: no cap); a "
            "pair stopped by it keeps its best correspondence and an upper bound", "--timeout",
            metavar="SECONDS", cli=Flag(default=DEFAULT_TIMEOUT, help=(
                f"seconds per pair at most (default {DEFAULT_TIMEOUT:g}; 0 or inf: no cap); a pair stopped "
                "by it keeps its best correspondence and an upper bound, counted under \"cut\", e.g. "
                "--timeout 10"))),
    Keyword("limit", Optional[int], None, "search steps per pair at most", "--limit", metavar="N",
            cli=Flag(help="search steps per pair at most (default 5000000); a pair stopped by it is reported "
                          "inexact with an upper bound, e.g. --limit 100000")),
    Keyword("max_memory", Union[int, str, None], DEFAULT_MAX_MEMORY, "bytes a pair's node-pair arrays may "
            "take (a number, or e.g. '500M', '2G'; 0 or None: no cap), estimated before anything is "
            "allocated: a pair beyond it gets a linear-time correspondence, cut as limit, with its bound",
            "--max-memory", "max_memory='4G'", metavar="BYTES", cli=Flag(
                default=str(DEFAULT_MAX_MEMORY), help=(
                "bytes a pair's node-pair arrays may take (default 2G; e.g. 500M, 8G; 0 or inf: no cap), "
                "estimated before anything is allocated (75 bytes per node pair; ancast and umatch at their "
                "own measured costs, compat modes too): a pair beyond it gets a linear-time correspondence, "
                "counted under \"cut\" as limit with its upper bound, e.g. --max-memory 8G"))),
    Keyword("mip", bool, True, "hand pairs the branch and bound leaves open to the mixed-integer program "
            "(False: the search alone)", "--no-mip", "mip=False", cli=Flag(
                dest="no_mip", action="store_true", help="decide every pair by the branch and bound alone "
                "(by default a pair it has not closed after 1000 steps goes to a mixed-integer program "
                "solved by HiGHS)")),
    Keyword("jobs", Union[int, str], 1, "worker processes, or \"auto\"", "--jobs", metavar="N|auto",
            cli=Flag(type=_jobs, default=AUTO, help=(
                f"worker processes; auto (the default): one per CPU, at most {AUTO_MAX}, when there is "
                "enough to score (else none: the pairs are scored in this process); 1: this process alone, "
                "no system file read ahead by a child either; results are identical for any N"))),
    Keyword("triples", Optional[str], None, "smatch on AMR read from Penman: \"penman\" (the original "
            "tool's triples, the default) or \"mrp\" (mtool's)", "--triples", choices=("penman", "mrp"),
            cli=Flag(help="smatch on AMR read from Penman: the original SMATCH tool's triples (penman, the "
                          "default) or mtool's triples of the MRP form (mrp, as mrp-mtool counts)")),
    Keyword("standardize", str, "none", "AMR standardization of both sides (a preset or options joined by "
            "'+')", "--standardize", metavar="PRESET", cli=Flag(default="none", help=(
                "AMR standardization applied to gold and system alike: none (default), smatchpp, reify, "
                "dereify, or options joined by '+' (roles, reify, dereify, attributes, dedupe, no-wiki), "
                "e.g. --standardize roles+dedupe"))),
    Keyword("bootstrap", Optional[int], None, "confidence intervals from this many bootstrap resamples",
            "--bootstrap", metavar="N", cli=Flag(nargs="?", const=1000, help=(
                "add 95%% confidence intervals (\"ci\") from N bootstrap resamples of the items (default N "
                "1000), e.g. --bootstrap or --bootstrap 5000"))),
    Keyword("seed", int, 0, "random seed of the bootstrap", "--seed", metavar="S", cli=Flag(
        default=0, help="random seed of the bootstrap and of significance tests (default 0)")),
    Keyword("trace", bool, False, "per-pair objects under \"scores\" in ``to_dict()`` (``Result.pairs`` has "
            "them always)", "--trace", cli=Flag(
                action="store_true", help="add per-item counts under \"scores\": {framework: {id: {...}}}")),
    Keyword("errors", bool, False, "per pair the correspondence and the missing and surplus tuples, under "
            "\"errors\" (mrp-score writes them to a file)", "--errors", metavar="FILE", cli=Flag(
                help="write per item the correspondence and the missing/surplus tuples, e.g. --errors "
                     "errors.json")),
    Keyword("explain", Optional[str], None, "write an HTML report of every pair to this path",
            "--explain", "explain='report.html'", metavar="FILE", cli=Flag(help=(
                "write an HTML report of every pair (graphs side by side, aligned nodes, matched, missed and "
                "surplus tuples; one self-contained file), e.g. --explain report.html"))),
    Keyword("explain_id", Optional[str], None, "with ``explain``: only the page of the pair of this gold "
            "id", "--explain-id", "explain_id='ID'", metavar="ID", cli=Flag(
                help="with --explain: write only the page of the pair of this gold id")),
    Keyword("positional", bool, False, "pair graphs by position: inputs with ids whatever their ids (the "
            "result's ids_differ counts those that differ), inputs without ids even when they hold different "
            "numbers of graphs", "--positional", cli=Flag(action="store_true", help=(
                "pair graphs by position: files with graph ids whatever their ids (as smatch does; refused "
                "when they hold different numbers of graphs; ids_differ counts the ids that differ), files "
                "without ids even when they hold different numbers of graphs (otherwise refused: every later "
                "pair would be misaligned)"))),
    Keyword("format", Optional[str], None, "format of the system graphs (and of the gold graphs unless "
            "``gold_format`` is given)", "--format", "format='amr'", metavar="FMT", cli=Flag(help=(
                "format of every input, GOLD too unless --gold-format (default: from each file's extension, "
                "else its content), e.g. --format amr"))),
    Keyword("gold_format", Optional[str], None, "format of the gold graphs", "--gold-format",
            "gold_format='mrp'", metavar="FMT", cli=Flag(help=(
                "format of GOLD (default: --format, else from its extension, else its content), e.g. "
                "--gold-format mrp"))),
    Keyword("read", Optional[str], None, "\"generated\": the system graphs are a language model's responses "
            "(a list of strings, or a JSON Lines file): the graph found in each, repaired as Penman is, an "
            "unusable one scored as empty; the result's \"generated\" block gives the well-formed and "
            "repaired rates and the reasons", "--read", "read='generated'", choices=("generated",), cli=Flag(
                help="generated: each SYSTEM file is a language model's responses (JSON Lines), the graph "
                     "found in each (Markdown fences, text around it), repaired as Penman is, an unusable "
                     "one scored as empty; the result gives the well-formed and repaired rates")),
    Keyword("framework", Optional[str], None, "score only graphs of this framework (and give it to graphs "
            "that name none)", "--framework", "framework='eds'", reads=True, metavar="NAME", cli=Flag(
                action="append",
                help="score only graphs of this framework (repeatable), e.g. --framework eds")),
    Keyword("text", Union[str, Mapping[str, str], None], None, "the input strings: a path to id<TAB>sentence "
            "lines, or a mapping from graph id to sentence (read options: inputs given as text or paths)",
            "--text", "text=...", reads=True, metavar="FILE|DIR", cli=Flag(help=(
                "id<TAB>sentence lines giving the input strings, or a directory of ID.txt files (needed to "
                "anchor SDP and EDS; overrides AMR ::snt), e.g. --text wsj.txt"))),
    Keyword("no_wiki", bool, False, "drop :wiki relations", "--no-wiki", reads=True, cli=Flag(
        action="store_true", help="AMR: drop :wiki relations, as the MRP 2019 data do")),
    Keyword("strict", bool, False, "refuse graphs read by a repair (counted as invalid)", "--strict",
            reads=True, cli=Flag(action="store_true", help=(
                "refuse graphs that need a repair (e.g. a Penman graph whose brackets do not close) instead "
                "of repairing them as SMATCH and mtool do; they count as invalid"))),
    Keyword("wsj_ids", bool, False, "AMR: map WSJ ids as the MRP data do (read options: inputs given as "
            "text or paths)", "--wsj-ids", reads=True, cli=Flag(
                action="store_true", help="AMR: map WSJ ids as the MRP data do (wsj_0001.1 -> 20001001)")),
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


def run_keywords(names: Sequence[str]) -> List[Keyword]:
    """These keywords (e.g. ``("timeout", "limit")``), in this order: a command's run flags
    (:meth:`Keyword.argument`) in its order of options; no metric module imported (the shared ones)."""
    shared = {keyword.name: keyword for keyword in _SHARED}
    return [shared[name] for name in names]


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
