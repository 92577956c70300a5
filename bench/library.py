"""The library, in process and warm (issue 26's figures): ``python bench/run.py --only library``.

1. SMATCH (exact) on the 1,368 coli pairs already read (``mrp.read``), and from ``penman.Graph`` objects;
2. from Penman strings, against the ``penman`` library's own decoding of the same strings;
3. one small pair through ``mrp.score``, median of 100 calls (no recompilation: the signatures of the
   kernels that build and solve a Problem are counted before and after);
4. the MRP metric on the 89 EDS pairs already read, and on one EDS pair (median of 100 calls; a result's
   macro figures and signature are completed when first read: the pair with ``to_dict()`` too is shown);
5. issue 64's reward function: the first coli pair from strings through ``mrp.score`` (median of 100 calls,
   goal 0.2 ms) and the 1,368 coli pairs from strings through ``mrp.pairwise`` (goal 0.15 s), each with its
   ratio to the goal, and the floor of each: reading its strings alone (``mrp.read``), and below that
   tokenizing them alone (one ``re.findall`` a string: no Python per token, no graph) and the compiled
   scan alone (``mrp.codecs.penman.scanner``: what SMATCH codes a string from, in one compiled call).
Medians of REPEAT runs after one untimed warm-up run, in CPU seconds of this process, of the children
it waited for and of the process it keeps for HiGHS (:mod:`mrp.process.worker`, as it reports them;
other processes on the machine do not count); each figure is printed with its target and PASS or MISS
(judged on the median), and with the spread of its runs (the fastest and slowest of REPEAT runs; the
quartiles of 100 calls): how far the machine's own speed moved the figure meanwhile.  Each coli figure is
also shown as a ratio to penman's own decoding of the coli strings measured in the same run (a peer's
work on the same data, for the reader: the targets are the issue's seconds).
"""

from __future__ import annotations

import logging
import re
import statistics
from pathlib import Path
from typing import Any, Callable, List, NamedTuple, Optional, Tuple

REPEAT = 5
#: issue 64's rows (a reward function), each printed with its ratio to the goal
REWARD_ONE = "reward: one coli pair, mrp.score, strings (100 calls)"
REWARD_ALL = "reward: mrp.pairwise, coli 1,368 pairs, strings"
#: the reading alone of each reward row's strings (its floor in-process)
READ_ONE = "  of which reading its strings (mrp.read, 100 calls)"
READ_ALL = "  of which reading its 2,736 strings (mrp.read)"
#: the physical floor of each reward row in Python: one regular expression's tokens a string, nothing built
TOKENS_ONE = "  floor: tokenizing its 2 strings alone (re.findall)"
TOKENS_ALL = "  floor: tokenizing its 2,736 strings alone (re.findall)"
#: the compiled scan alone (one call for a call's strings: what SMATCH then codes them from)
SCAN_ONE = "  floor: scanning its 2 strings alone (compiled scan)"
SCAN_ALL = "  floor: scanning its 2,736 strings alone (compiled scan)"
#: Penman's tokens, coarsely (strings, parentheses and slash, anything else between white space)
_TOKENS = re.compile(r'"[^"]*"|[()/]|[^\s"()/]+')
#: the reward rows' calls on graphs read already (mrp.read): the call alone
GRAPHS_ONE = "reward: one coli pair, mrp.score, graphs (100 calls)"
GRAPHS_ALL = "reward: mrp.pairwise, coli 1,368 pairs, graphs"
SMALL = (["(a / alpha :ARG0 (b / beta) :ARG1 (c / gamma))"],
         ["(a / alpha :ARG0 (b / beta) :ARG1 (c / delta))"])


def _cpu() -> float:
    """CPU seconds of this process, of its children that ended, and of the process mrp keeps for HiGHS."""
    from mrp.process.worker import cpu_seconds

    return cpu_seconds()


class Measured(NamedTuple):
    """The median of a figure's runs and their spread (lowest and highest, or quartiles of many)."""

    median: float
    low: float
    high: float


def _measured(work: Callable[[], Any], repeat: int = REPEAT) -> Measured:
    work()
    times = []
    for _ in range(repeat):
        started = _cpu()
        work()
        times.append(_cpu() - started)
    if repeat >= 8:
        low, _, high = statistics.quantiles(times, n=4)
        return Measured(statistics.median(times), low, high)
    return Measured(statistics.median(times), min(times), max(times))


def _median(work: Callable[[], Any], repeat: int = REPEAT) -> float:
    return _measured(work, repeat).median


def _blocks(path: Path) -> List[str]:
    return [block.strip() for block in path.read_text(encoding="utf-8").split("\n\n") if block.strip()]


def _shown(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms" if seconds < 0.1 else f"{seconds:8.3f} s "


def _spread(figure: Measured) -> str:
    scale, unit = (1000, "ms") if figure.median < 0.1 else (1, "s")
    return f"({figure.low * scale:.2f}-{figure.high * scale:.2f} {unit})"


def run(shared: Path) -> None:
    """Measure and print the library's figures with their targets."""
    import penman

    import mrp
    from mrp.solver.assemble import candidates, rewards
    from mrp.solver.batch import search_all
    from mrp.solver.kernel import solve

    gold_path = shared / "data/pairs/amr/coli.gold.amr"
    system_path = shared / "data/pairs/amr/coli.system.amr"
    gold, system = mrp.read(gold_path), mrp.read(system_path)
    gold_text, system_text = _blocks(gold_path), _blocks(system_path)
    logging.getLogger("penman").setLevel(logging.ERROR)  # its warnings on penman's own decoding: not ours
    decode = _median(lambda: ([penman.decode(t) for t in gold_text], [penman.decode(t) for t in system_text]))
    gold_penman = [penman.decode(text) for text in gold_text]
    system_penman = [penman.decode(text) for text in system_text]

    def coli(gold_graphs: Any, system_graphs: Any) -> Callable[[], Any]:
        return lambda: mrp.score(gold_graphs, system_graphs, "smatch")

    # (name, the figure, target in seconds or None, how the target reads)
    rows: List[Tuple[str, Measured, Optional[float], str]] = [
        ("SMATCH, coli 1,368 pairs, mrp.Graph objects", _measured(coli(gold, system)), 0.5, "<= 0.5 s"),
        ("SMATCH, coli, penman.Graph objects", _measured(coli(gold_penman, system_penman)), 0.5, "<= 0.5 s"),
        ("SMATCH, coli, Penman strings", _measured(coli(gold_text, system_text)), decode + 0.5,
         f"<= penman's decoding {decode:.2f} s + 0.5 s"),
    ]
    eds_gold = mrp.read(shared / "data/wsj/eds/wsj.mrp")
    eds_system = mrp.read(shared / "data/pairs/eds/wsj.pet.mrp")
    rows.append(("MRP, EDS 89 pairs, mrp.Graph objects", _measured(lambda: mrp.score(eds_gold, eds_system)),
                 None, ""))
    kernels = (solve, rewards, candidates, search_all)
    signatures = sum(len(kernel.signatures) for kernel in kernels)
    small = _measured(lambda: mrp.score(*SMALL, metric="smatch"), 100)
    rows.append(("one small pair, SMATCH (median of 100 calls)", small, 0.0005, "<= 0.5 ms"))
    eds_small = (eds_gold[:1], eds_system[:1])
    rows.append(("one EDS pair, MRP (median of 100 calls)", _measured(lambda: mrp.score(*eds_small), 100),
                 0.0005, "<= 0.5 ms"))
    # issue 64's reward function: one small coli pair from strings through mrp.score, and the 1,368 coli pairs
    # from strings through mrp.pairwise (one F per pair), each beside its goal
    one_coli = ([gold_text[0]], [system_text[0]])
    rows.append((REWARD_ONE, _measured(lambda: mrp.score(*one_coli, metric="smatch"), 100), 0.0002,
                 "<= 0.2 ms (issue 64)"))
    rows.append((REWARD_ALL, _measured(lambda: mrp.pairwise(gold_text, system_text, metric="smatch")), 0.15,
                 "<= 0.15 s (issue 64)"))
    # the floor of each reward row: reading its strings alone (the rest is the call itself: pairing,
    # triples, the search, the result)
    rows.append((READ_ONE, _measured(lambda: (mrp.read(one_coli[0]), mrp.read(one_coli[1])), 100), None, ""))
    rows.append((READ_ALL, _measured(lambda: (mrp.read(gold_text), mrp.read(system_text))), None, ""))
    tokens = _TOKENS.findall
    pair = (gold_text[0], system_text[0])
    rows.append((TOKENS_ONE, _measured(lambda: [tokens(text) for text in pair], 100), None, ""))
    rows.append((TOKENS_ALL, _measured(lambda: ([tokens(text) for text in gold_text],
                                                [tokens(text) for text in system_text])), None, ""))
    from mrp.codecs.penman.scanner import scanned_batch

    rows.append((SCAN_ONE, _measured(lambda: scanned_batch(list(pair)), 100), None, ""))
    every = gold_text + system_text
    rows.append((SCAN_ALL, _measured(lambda: scanned_batch(every)), None, ""))
    # the same two calls on graphs read already: the call itself, without the reading
    one_read = (gold[:1], system[:1])
    rows.append((GRAPHS_ONE, _measured(lambda: mrp.score(*one_read, metric="smatch"), 100), None, ""))
    rows.append((GRAPHS_ALL, _measured(lambda: mrp.pairwise(gold, system, metric="smatch")), None, ""))
    whole = _median(lambda: mrp.score(*eds_small).to_dict(), 100)  # the document completed too
    compiled = sum(len(kernel.signatures) for kernel in kernels) - signatures
    medians = {name: figure.median for name, figure, _, _ in rows}
    floors = {READ_ONE: medians[REWARD_ONE], READ_ALL: medians[REWARD_ALL], TOKENS_ONE: medians[REWARD_ONE],
              TOKENS_ALL: medians[REWARD_ALL], SCAN_ONE: medians[REWARD_ONE], SCAN_ALL: medians[REWARD_ALL]}
    print("\nThe library, in process, warm (medians of CPU time, HiGHS's processes included)\n")
    for name, figure, limit, target in rows:
        verdict = "" if limit is None else ("PASS" if figure.median <= limit else "MISS")
        shown = f"{_shown(figure.median)} {_spread(figure):>17}"
        ratio = f"{figure.median / decode:5.2f} x decoding" if name.startswith("SMATCH, coli") else ""
        if name in (REWARD_ONE, REWARD_ALL) and limit:
            ratio = f"{figure.median / limit:5.2f} x goal"
        if name in floors:
            ratio = f"{figure.median / floors[name]:5.2f} of the call"
        wanted = f"target {target}" if target else ""
        print(f"  {name:54} {shown}   {verdict:4}  {wanted:46} {ratio}".rstrip())
    print(f"  penman's own decoding of the coli strings: {decode:.3f} s; kernel signatures compiled during "
          f"the small-pair calls: {compiled} ({'PASS' if compiled == 0 else 'MISS'}, target 0)")
    print(f"  the EDS pair with its whole document completed as well (macro figures, signature: "
          f"result.to_dict()): {whole * 1000:.2f} ms")
