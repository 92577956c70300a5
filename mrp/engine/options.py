"""What a metric run is given: its options, and where its progress goes."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

from mrp.errors import OptionError
from mrp.graph import Graph
from mrp.solver import DEFAULT_MAX_MEMORY

__all__ = ["DEFAULT_MAX_MEMORY", "DEFAULT_TIMEOUT", "MAX_JOBS", "Execution", "Options", "Progress",
           "bytes_text", "checked"]

#: seconds per pair at most unless told otherwise (mrp-score's and the library's default; in the signature)
DEFAULT_TIMEOUT = 60.0


class Progress:
    """Receives a run's progress; this base class ignores it (the CLI shows it on a terminal)."""

    def start(self, total: int) -> None:
        """A run of ``total`` pairs begins."""

    def advance(self, cut: bool) -> None:
        """One more pair is done (``cut``: stopped before proving optimality)."""

    def problem(self, graph: Graph, message: str) -> None:
        """A pair (named by its gold graph) could not be scored normally."""

    def compiling(self) -> None:
        """The solver's kernels are being compiled (before any pair; it takes a while, once)."""

    def finish(self) -> None:
        """The run is over."""


@dataclass
class Execution:
    """How a run executes; nothing here changes a number: worker processes, progress, reused results."""

    #: worker processes; AUTO (0): as many as pay off (:func:`mrp.engine.driver.workers`)
    jobs: int = 1
    #: where progress and per-pair failures go
    progress: Optional[Progress] = None
    #: pair scores already computed, reused for an identical system graph against the same gold
    memo: Optional[Dict[Any, Any]] = None
    #: the process ends soon after the run (a command, not the library): what the run made is moved out of
    #: the collector's way when it ends (mrp.process.collector; its results and memos hold no cycles, and
    #: collecting them again for the report took 0.25 s of CPU on 20,000 pairs); the library leaves them to
    #: the collector (a loop of runs would otherwise keep any cyclic garbage for good)
    ending: bool = False


@dataclass
class Options:
    """What changes the numbers (each recorded in the signature), what a result reports (``trace``,
    ``errors``), and how the run executes (``run``)."""

    limit: Optional[int] = None
    #: seconds per pair at most (each search stops with its best map and a bound)
    timeout: Optional[float] = None
    #: bytes a pair's node-pair arrays may take (``--max-memory``; mrp.solver.greedy.need estimates them
    #: before anything is allocated): a pair beyond it gets the linear-time map, cut; None: no cap
    max_memory: Optional[int] = DEFAULT_MAX_MEMORY
    #: pairs the search leaves open go to the mixed-integer program (False: ``--no-mip``)
    mip: bool = True
    smatch_compat: bool = False
    #: SMATCH: count Smatch++ 1.8.0's triples of this -graph_type ("generic", "amr";
    #: mrp.metrics.smatch.smatchpp)
    smatchpp_compat: Optional[str] = None
    #: SMATCH and MRP on documents: "sentence" restricts the alignment to within sentences (docSmatch's
    #: restriction; mrp.engine.seed), "none" aligns the whole document
    doc_align: str = "none"
    #: AnCast: reproduce AnCast 0.1.1 (its reading, alignment and scoring) instead of the optimum
    ancast_compat: bool = False
    #: AnCast on UMR documents: "snt" scores sentence by sentence as ``ancast -s snt`` (no document figures;
    #: with ``ancast_compat`` the anchors come from each sentence's own line), "doc" (and None, the default)
    #: as AnCast++'s ``-s doc`` where the graphs carry documents
    ancast_scope: Optional[str] = None
    #: AnCast's other options (mrp.metrics.ancast.knobs): -c (its broadcast; compat), --separate-1-and-2
    #: (compat), -sc (both modes), --use-alignment (compat), --use-smatch-top false, --weighted snts|toks,
    #: --allow-reify (accepted; no effect, as in AnCast 0.1.1)
    ancast_cneighbor: int = 1
    ancast_separate_1_and_2: bool = False
    ancast_sense_coefficient: float = 0.1
    ancast_use_alignment: bool = False
    ancast_no_smatch_top: bool = False
    ancast_weighted: Optional[str] = None
    ancast_allow_reify: bool = False
    #: juːmæʧ: the comparator's greedy correspondence (compare_umr.pl) instead of the exact one
    umatch_compat: bool = False
    #: juːmæʧ: a TOP attribute on each sentence's first node (compare_umr.pl --top)
    umatch_top: bool = False
    #: juːmæʧ: leave document-level relations out (compare_umr.pl --no-document-level)
    umatch_no_document_level: bool = False
    #: juːmæʧ: the relations counted, comma-separated (``concept`` names the concept); None: all
    umatch_only: Optional[str] = None
    #: juːmæʧ: the relations not counted, comma-separated
    umatch_except: Optional[str] = None
    #: the graphs were read from Penman (SMATCH uses the original tool's AMR triples)
    penman: bool = False
    #: aspects: relation levels kept below a trigger (2, as Smatch++ extracts; None: everything reachable)
    aspect_depth: Optional[int] = 2
    #: SemBLEU: weights of orders 1, 2, ... (None: the original's (0.34, 0.33, 0.34))
    sembleu_weights: Optional[Tuple[float, ...]] = None
    #: SemBLEU: reproduce the original's reachability and string handling
    sembleu_compat: bool = False
    #: Rematch: the PropBank-to-VerbAtlas table (JSON, as Rematch's pb2va.json); None: concepts as written
    rematch_frames: Optional[str] = None
    #: WLK: Weisfeiler-Leman iterations (the reference's -k)
    wlk_iterations: int = 2
    #: WLK: which neighbours a node hears: "both", "fromout" (its targets), "fromin" (its sources)
    wlk_direction: str = "both"
    #: WLK: the reference's relabelling (nodes sharing a label take the last one's neighbourhood)
    wlk_compat: bool = False
    #: how the graphs were prepared: the AMR standardization's name, ``:wiki`` dropped, repairs refused
    standardization: str = "none"
    no_wiki: bool = False
    strict: bool = False
    #: per-item objects under "scores"
    trace: bool = False
    #: --errors data (the correspondence and the missing and surplus tuples of each item)
    errors: bool = False
    #: per pair, the correspondence and every tuple as matched, missed or surplus (``--explain``)
    explain: bool = False
    #: the values of metric parameters that have no field here (a new metric's), by the parameter's field
    parameters: Dict[str, Any] = field(default_factory=dict)
    run: Execution = field(default_factory=Execution)


#: the most worker processes a run may ask for (more is no machine's, and the process calls overflow)
MAX_JOBS = 4096

#: what each numeric option holds, for messages; "count": a whole number of at least 1
_KINDS = {"timeout": "seconds", "max_memory": "bytes", "limit": "steps", "jobs": "jobs", "top_k": "count",
          "block_size": "count", "bootstrap": "count", "seed": "seed"}


def checked(name: str, value: Any, flag: bool = False) -> Any:
    """The one check of a numeric option's value, for every command and the library.

    ``max_memory`` (bytes a pair's node-pair arrays may take): a whole number of bytes of at least 1, or a
    string of a number and a unit (``500M``, ``2G``, ``1.5GB``; K, M, G, T are powers of 1000); 0, ``inf``
    and None (and "0", "inf", "none") mean no cap.
    ``timeout`` (seconds per pair): a number of at least 0; 0, ``inf`` and None mean no cap (returned as
    None); NaN and negative values are refused.  ``limit`` (search steps): None, ``inf`` (None) or a whole
    number of at least 0.  ``jobs``: "auto" (returned as 0, the driver's ``AUTO``) or a whole number of at
    least 1 and at most :data:`MAX_JOBS`.  ``top_k``, ``block_size``, ``bootstrap``: None or a whole
    number of at least 1.  ``seed``: a whole number of at least 0.  A bool is not a number here.  Whole
    numbers are at most 2**63 - 1 (what the kernels count in).  A value that is not 0 but underflows to 0
    (``1e-999``, where 0 means "no cap") is refused, as is one too large for a float that is not ``inf``
    itself (``1e999`` given as text, ``10**400``): neither may silently turn into "no cap".  With ``flag``
    (the command line), a value given as text is read exactly (``"1e-999"`` is not 0).

    Args:
        name: the option's name as the library spells it (``top_k``).
        value: the value given.
        flag: name it as the command line does (``--top-k``) in the message.

    Returns:
        The value to use (None for "no cap").

    Raises:
        OptionError: a one-line message naming the option and the value.
    """
    kind = _KINDS[name]
    label = "--" + name.replace("_", "-") if flag else name
    if kind == "bytes":
        return _bytes(label, value)
    if flag and isinstance(value, str) and not (kind == "jobs" and value.strip().lower() == "auto"):
        value = _exact(label, value, value, kind)
    _representable(label, value, kind)
    number = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if kind == "seconds":
        if value is None:
            return None
        if not number or math.isnan(value) or value < 0:
            raise OptionError(f"{label}: expected a number of seconds of at least 0 (0 or inf: no cap), "
                              f"not {value!r}")
        return None if value == 0 or math.isinf(value) else float(value)
    if kind == "jobs":
        if isinstance(value, str) and value.strip().lower() == "auto":
            return 0
        whole = isinstance(value, numbers.Integral) and not isinstance(value, bool)
        if not whole or not 1 <= int(value) <= MAX_JOBS:
            raise OptionError(f"{label}: expected a number of worker processes from 1 to {MAX_JOBS}, or "
                              f"auto, not {_shown(value)}")
        return int(value)
    if value is None and kind != "seed" or kind == "steps" and number and math.isinf(value) and value > 0:
        return None
    least = 1 if kind == "count" else 0
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < least:
        what = " of search steps" if kind == "steps" else ""
        raise OptionError(f"{label}: expected a whole number{what} of at least {least}, not {value!r}")
    return int(value)


#: the largest whole number an option may hold (the kernels count in 64 bits)
_WHOLE_MAX = 2 ** 63 - 1
#: the options whose 0 and inf mean "no cap"
_CAPS = ("seconds", "bytes")
_LARGEST = {False: f" (at most {_WHOLE_MAX})", True: " (inf: no cap)"}
_TINY = {False: "", True: ", which means no cap; give a larger value (or 0 for no cap)"}
_INFINITE = ("INF", "+INF", "INFINITY", "+INFINITY")


def _exact(label: str, text: str, given: Any, kind: str) -> Any:
    """A number written as text, read exactly: an int when it is whole, else a float; NaN and inf as
    floats; a text that underflows to 0 or overflows to inf is refused (see :func:`checked`)."""
    from decimal import Decimal, InvalidOperation

    word = text.strip().upper().replace("_", "")
    if word in _INFINITE or word in ("-INF", "-INFINITY", "NAN", "+NAN", "-NAN"):
        return float(word.replace("INITY", ""))
    try:
        exact = Decimal(word)
    except (InvalidOperation, ValueError):
        return given  # not a number: refused by the check of its kind, which names it
    if exact.is_nan() or not word:
        return given
    if exact == 0:
        return 0
    approximate = float(exact)
    if math.isinf(approximate):
        raise OptionError(f"{label}: {_shown(text.strip())} is too large{_LARGEST[kind in _CAPS]}")
    if approximate == 0:
        raise OptionError(f"{label}: {_shown(text.strip())} underflows to 0{_TINY[kind in _CAPS]}")
    if exact == exact.to_integral_value():
        return int(exact)
    return float(exact)


def _representable(label: str, value: Any, kind: str) -> None:
    """Refuse a library value that is not 0 but is 0 as a float, one too large for a float (that is not
    inf itself), and a whole number beyond 64 bits."""
    if not isinstance(value, numbers.Real) or isinstance(value, (bool, float)):
        return
    try:
        approximate = float(value)
    except OverflowError:
        approximate = math.inf
    if value != 0 and approximate == 0:
        raise OptionError(f"{label}: {_shown(value)} underflows to 0{_TINY[kind in _CAPS]}")
    if kind in _CAPS:
        too_large = math.isinf(approximate)
    else:  # exactly, for a whole number (2**63 - 1 is no float)
        too_large = abs(int(value) if isinstance(value, numbers.Integral) else approximate) > _WHOLE_MAX
    if too_large:
        raise OptionError(f"{label}: {_shown(value)} is too large{_LARGEST[kind in _CAPS]}")


def _shown(value: Any) -> str:
    """A value as a message quotes it, at most 40 characters."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_UNITS = {"": 1, "B": 1, "K": 10 ** 3, "KB": 10 ** 3, "M": 10 ** 6, "MB": 10 ** 6, "G": 10 ** 9,
          "GB": 10 ** 9, "T": 10 ** 12, "TB": 10 ** 12}


def _bytes(label: str, value: Any) -> Optional[int]:
    """``max_memory``'s check (see :func:`checked`)."""
    given = value
    if isinstance(value, str):
        text = value.strip().upper()
        if text in ("INF", "NONE", "0"):
            return None
        number = text.rstrip("BKMGT")
        unit = text[len(number):]
        value = None
        if number.strip() and unit in _UNITS:
            value = _exact(label, given.strip()[:len(number)], given, "bytes")
            value = value * _UNITS[unit] if isinstance(value, (int, float)) else None
    if value is None and given is None:
        return None
    _representable(label, value, "bytes")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise OptionError(f"{label}: expected a number of bytes (e.g. 2000000000, 500M or 2G; 0 or inf: "
                          f"no cap), not {given!r}")
    amount = float(value)
    if math.isnan(amount) or amount < 0 or 0 < amount < 1 or not math.isinf(amount) and amount > _WHOLE_MAX:
        raise OptionError(f"{label}: expected a number of bytes (e.g. 2000000000, 500M or 2G; 0 or inf: "
                          f"no cap; at most {_WHOLE_MAX}), not {given!r}")
    return None if amount == 0 or math.isinf(amount) else int(value if isinstance(value, int) else amount)


def bytes_text(value: Optional[int]) -> str:
    """A number of bytes as the signature and messages write it (``2G``, ``500M``, ``1500000``)."""
    if value is None:
        return "none"
    for unit, size in (("T", 10 ** 12), ("G", 10 ** 9), ("M", 10 ** 6), ("K", 10 ** 3)):
        if value % size == 0:
            return f"{value // size}{unit}"
    return str(value)
