"""Big pairs (issue 42, item 1): no n x m array for a pair whose arrays would exceed ``--max-memory``
(memory linear in the pair's size; the pair cut as "limit" with its bound), the pair ends within its
timeout (every phase stops at the pair's deadline, building included), and a cut big pair's map is what a
linear-time start gives: at least 90% of the correspondence the generator planted (bench/synthetic.py).
Memory per node and the 20k/100k figures are measured in ``make bench`` (bench/run.py, "big pairs"), not
here."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

import mrp
from mrp.graph import Edge, Graph, Node
from mrp.normalize import normalize
from mrp.solver import greedy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import synthetic  # noqa: E402

from conftest import cpu_seconds  # noqa: E402


def _planted(directory: Path, nodes: int) -> Tuple[Path, Path, int]:
    gold, system = synthetic.big_pair(directory, nodes=nodes)
    return gold, system, json.loads((directory / "big.planted.json").read_text())["c"]


def _injective(mapping: List[int], m: int) -> bool:
    used = [j for j in mapping if j >= 0]
    return len(used) == len(set(used)) and all(0 <= j < m for j in used)


def test_a_pair_beyond_max_memory_gets_the_linear_map(tmp_path: Path) -> None:
    """A pair whose node-pair arrays would exceed --max-memory: no n x m array, the greedy map alone, cut
    by the memory cap ("limit", deterministic), its bound valid; at least 90% of the planted tuples."""
    nodes = 400
    gold, system, planted = _planted(tmp_path, nodes)
    cap = greedy.need(nodes, nodes) - 1
    result = mrp.score(str(gold), str(system), "mrp", timeout=0, max_memory=cap).to_dict()
    found, bound = result["all"]["c"], result["bound"]["c"]
    assert found >= 0.9 * planted, (found, planted)
    assert found <= bound and bound >= planted
    assert result["exact"] == 0
    assert result["cut"]["n"] == 1 and result["cut"]["limit"] == 1 and result["cut"]["timeout"] == 0
    assert "maxmem:" in result["signature"]
    again = mrp.score(str(gold), str(system), "mrp", timeout=0, max_memory=str(cap)).to_dict()
    assert again["all"] == result["all"], "the memory cap does not depend on the clock"
    assert "maxmem:" in mrp.score(str(gold), str(system), "mrp", timeout=0.1,
                                  max_memory=greedy.need(nodes, nodes)).to_dict()["signature"]


def test_max_memory_on_the_command_line(tmp_path: Path) -> None:
    """mrp-score --max-memory cuts the pair (reported under "cut" as limit, with its bound); a bad value is
    refused with one line (exit 2)."""
    import subprocess

    gold, system, planted = _planted(tmp_path, 200)
    command = [sys.executable, "-m", "mrp.cli.score", "--timeout", "0", "--gold", str(gold), str(system)]
    done = subprocess.run(command + ["--max-memory", "1M"], capture_output=True, text=True, check=True)
    result = json.loads(done.stdout)
    assert result["cut"]["limit"] == 1 and result["exact"] == 0, result["cut"]
    assert result["all"]["c"] >= 0.9 * planted and result["bound"]["c"] >= planted
    assert "maxmem:1M" in result["signature"]
    bad = subprocess.run(command + ["--max-memory", "lots"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--max-memory" in bad.stderr, bad.stderr


def test_a_big_pair_cut_by_its_timeout_keeps_the_better_map(tmp_path: Path) -> None:
    """Below the memory cap, a 3,000-node pair stopped by --timeout 1 ends within its cap (its own reported
    time, with slack for a loaded machine) and keeps at least 90% of the planted tuples (the search alone
    found a third of them on the 5,000-node pair in 5 s)."""
    gold, system, planted = _planted(tmp_path, 3000)
    mrp.score(str(gold), str(gold), "mrp", timeout=1)  # kernels ready (compiled once per installation)
    result = mrp.score(str(gold), str(system), "mrp", timeout=1).to_dict()
    found, bound = result["all"]["c"], result["bound"]["c"]
    assert found >= 0.9 * planted and bound >= max(found, planted)


def test_a_big_pair_beyond_the_cap_ends_within_its_timeout(tmp_path: Path) -> None:
    """A pair beyond --max-memory with a tiny --timeout: the pair's own work (normalizing, coding, the
    linear map and counting, as the driver times a pair) ends within the cap and half a second, plus a
    second of slack, of CPU (which the machine's load does not stretch); the map made by then is valid,
    cut as timeout (the clock stopped it), its bound the trivial one."""
    from mrp.engine.options import Options
    from mrp.engine.pairing import Pair
    from mrp.metrics.registry import metric
    from mrp.solver.watchdog import pair_clock

    gold, system, planted = _planted(tmp_path, 3000)
    graphs = mrp.read(str(gold))[0], mrp.read(str(system))[0]
    measure, options = metric("mrp"), Options(timeout=0.01, max_memory=1)
    measure.prepare(options)
    with pair_clock():  # as the driver times a pair (no clock left behind for the tests after it)
        began = cpu_seconds()
        result = measure.score(Pair(graphs[0], graphs[1], False), options)
        assert cpu_seconds() - began < 0.01 + 0.5 + 1.0
    assert result.cut == "timeout" and not result.exact
    assert result.counts[("all",)][2] <= result.bound and result.bound >= planted


def test_a_big_pair_as_plain_python_ends_within_its_timeout(tmp_path: Path) -> None:
    """MRP_COMPILE=plain (nothing compiled, an empty kernel cache): a 1,200-node pair whose plain-Python
    root takes some 6 s of CPU for its first round, at --timeout 1, ends on time: the whole process
    (starting, reading, building, the abandoned root, counting; 7.5 s before) spends under 4 s of CPU, its
    children included (CPU time, which the machine's load does not stretch as it stretches the wall
    clock); cut as timeout with the linear map (at least 90% of the planted tuples) and a bound no lower
    than what any map matches."""
    import os
    import subprocess

    gold, system, planted = _planted(tmp_path, 1200)
    environment = dict(os.environ, MRP_COMPILE="plain", NUMBA_CACHE_DIR=str(tmp_path / "empty"),
                       TMPDIR=str(tmp_path))
    command = [sys.executable, "-m", "mrp.cli.score", "--timeout", "1", "--gold", str(gold), str(system)]
    before = cpu_seconds()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=environment, timeout=600)
    cpu = cpu_seconds() - before
    assert done.returncode == 0, done.stderr
    assert cpu < 4.0, f"{cpu:.1f} s of CPU at --timeout 1"
    result = json.loads(done.stdout)
    found, bound = result["all"]["c"], result["bound"]["c"]
    assert result["cut"]["timeout"] == 1 and result["exact"] == 0, result["cut"]
    assert found >= 0.9 * planted and bound >= max(found, planted), (found, bound, planted)


def test_every_phase_of_the_linear_map_stops_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake clock that passes the deadline after k readings: for every k the map stops (reports it was
    stopped) with an injective partial map, and no phase reads the clock more than a bounded number of
    loop steps after it passed (at most 1,024 grow steps between readings)."""
    rng = random.Random(5)
    n = 3000
    labels = [rng.choice("abcdefgh") for _ in range(n)]
    edges = [(rng.randrange(k), k, rng.choice(("ARG1", "ARG2"))) for k in range(1, n)]
    gold = normalize(_graph(labels, edges))
    system = normalize(_graph(labels[::-1], [(n - 1 - a, n - 1 - b, label) for a, b, label in edges]))
    full, stopped = greedy.timed(gold, system, None)
    assert not stopped and sum(j >= 0 for j in full) == n
    readings = 0
    while True:
        seen = [0]

        def fake(seen: List[int] = seen, readings: int = readings) -> float:
            seen[0] += 1
            return 1.0 if seen[0] > readings else 0.0

        monkeypatch.setattr(greedy, "clock", fake)
        mapping, stopped = greedy.timed(gold, system, 0.5)
        assert _injective(mapping, n)
        if not stopped:
            assert mapping == full, "a map the clock did not stop is the map without a clock"
            break
        assert seen[0] == readings + 1, "stopped at the first reading past the deadline"
        readings += 1
    assert readings >= 5, "the clock is read in every phase"


def _graph(nodes: List[str], edges: List[Tuple[int, int, str]]) -> Graph:
    return Graph("1", "eds", flavor=1, nodes=[Node(k, label) for k, label in enumerate(nodes)],
                 edges=[Edge(a, b, label) for a, b, label in edges], tops=[0])


def test_a_renumbered_copy_is_recovered_in_full() -> None:
    """A graph against itself renumbered and relisted: every tuple matched."""
    rng = random.Random(3)
    n = 400
    labels = [rng.choice("abcde") for _ in range(n)]
    edges = [(rng.randrange(k), k, rng.choice(("ARG1", "ARG2"))) for k in range(1, n)]
    order = list(range(n))
    rng.shuffle(order)
    where = {old: new for new, old in enumerate(order)}
    copy = _graph([labels[old] for old in order], [(where[a], where[b], label) for a, b, label in edges])
    copy.tops = [where[0]]
    gold, system = normalize(_graph(labels, edges)), normalize(copy)
    from mrp.metrics.mrp.tuples import count

    mapping = greedy.correspondence(gold, system)
    g, s, c = count(gold, system, mapping)["all"]
    assert g == s == c


@pytest.mark.parametrize("seed", range(30))
def test_the_map_is_injective_and_never_above_the_optimum(seed: int) -> None:
    """Small random pairs: an injective partial map, matching no more than the proved optimum."""
    from mrp.metrics.mrp.pair import score_pair
    from mrp.metrics.mrp.tuples import count

    rng = random.Random(seed)

    def random_graph() -> Graph:
        n = rng.randrange(0, 8)
        edges = [(rng.randrange(n), rng.randrange(n), rng.choice("xy")) for _ in range(rng.randrange(12))] \
            if n else []
        return _graph([rng.choice("ab") for _ in range(n)], edges)

    gold_graph, system_graph = random_graph(), random_graph()
    gold, system = normalize(gold_graph), normalize(system_graph)
    mapping = greedy.correspondence(gold, system)
    assert len(mapping) == len(gold) and _injective(mapping, len(system))
    best = score_pair(gold_graph, system_graph)
    assert best.exact and count(gold, system, mapping)["all"][2] <= best.counts["all"][2]


def test_no_node_pair_array_is_built_beyond_the_limit(tmp_path: Path) -> None:
    """Beyond --max-memory, nothing builds the solver's Problem (whose U alone is n x m integers), for
    MRP pairs and for documents aligned within sentences (--doc-align sentence)."""
    from mrp.metrics.mrp import pair as mrp_pair
    gold, system, planted = _planted(tmp_path, 101)
    built: List[Any] = []
    real = mrp_pair.build
    graphs: Dict[str, Any] = {name: mrp.read(str(path))[0] for name, path in (("g", gold), ("s", system))}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mrp_pair, "build", lambda *args: built.append(1) or real(*args))
        normal = normalize(graphs["g"]), normalize(graphs["s"])
        result = mrp_pair.score_normal(*normal, timeout=None, max_memory=greedy.need(101, 101) - 1)
        assert not built and not result.exact and result.cut == "limit"
        assert result.counts["all"][2] >= 0.9 * planted
        mrp_pair.score_normal(*normal, timeout=None, limit=1, max_memory=greedy.need(101, 101))
        assert built, "at the cap the solver's arrays are built"


@pytest.mark.parametrize("value, expected", [
    ("2G", 2_000_000_000), ("500M", 500_000_000), ("1.5GB", 1_500_000_000), ("64k", 64_000), (123, 123),
    ("0", None), (0, None), ("inf", None), (float("inf"), None), (None, None), ("none", None)])
def test_max_memory_values(value: Any, expected: Any) -> None:
    from mrp.engine.options import checked

    assert checked("max_memory", value) == expected


@pytest.mark.parametrize("value", ["lots", "-1", -5, "2X", True, float("nan"), "", 0.5])
def test_max_memory_refused(value: Any) -> None:
    from mrp.engine.options import checked
    from mrp.errors import OptionError

    with pytest.raises(OptionError, match="max_memory"):
        checked("max_memory", value)
    with pytest.raises(OptionError, match="max_memory"):
        mrp.score([], [], "mrp", max_memory=value)


def test_a_big_smatch_pair_beyond_max_memory_gets_the_linear_map(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """SMATCH (triples, mrp.solver.problem.from_triples): beyond --max-memory no n x m array either; the
    linear map of the triples, cut as limit, its bound SMATCH's own (never below what any map matches)."""
    from mrp.metrics.smatch import metric as smatch
    gold, system, planted = _planted(tmp_path, 300)
    monkeypatch.setattr(smatch, "from_triples", lambda *args: pytest.fail("an n x m array was built"))
    result = mrp.score(str(gold), str(system), "smatch", timeout=0, max_memory="1K").to_dict()
    assert result["cut"]["limit"] == 1 and result["exact"] == 0
    assert 0.9 * planted <= result["c"] <= result["bound"]["c"], (result["c"], planted)


@pytest.mark.parametrize("metric", ["smatch", "mrp"])
def test_a_document_aligned_within_sentences_beyond_max_memory(metric: str) -> None:
    """--doc-align sentence beyond --max-memory: the linear map, with every pair across sentences
    unmapped, cut as limit; never above the restricted optimum."""
    from mrp.codecs.penman import read_string
    from mrp.engine.options import Options
    from mrp.engine.pairing import Pair
    from mrp.metrics.mrp import metric as mrp_metric
    from mrp.metrics.smatch import metric as smatch

    gold = read_string("(m / multi-sentence :snt1 (a / see-01 :ARG0 (b / boy :mod (t / tall)) "
                       ":ARG1 (c / cat)) :snt2 (d / run-02 :ARG0 (e / girl :mod (f / small))))")[0]
    system = read_string("(m / multi-sentence :snt1 (a / see-01 :ARG0 (e / girl :mod (f / small)) "
                         ":ARG1 (c / cat)) :snt2 (d / run-02 :ARG0 (b / boy :mod (t / tall))))")[0]
    measure = smatch.METRIC if metric == "smatch" else mrp_metric.METRIC
    key = () if metric == "smatch" else ("all",)
    best = measure.score(Pair(gold, system, False), Options(penman=True, doc_align="sentence"))
    cut = measure.score(Pair(gold, system, False), Options(penman=True, doc_align="sentence", max_memory=1))
    assert best.exact and cut.cut == "limit" and not cut.exact
    assert cut.counts[key][2] <= best.counts[key][2] <= cut.bound


def test_the_counting_reserve_grows_with_the_time_the_pair_took(monkeypatch: pytest.MonkeyPatch) -> None:
    """The linear map's deadline keeps back time for counting: 1.5 microseconds per node and edge, or 0.75
    of what the pair took so far (a loaded machine normalizes slowly, and counts slowly too)."""
    from mrp.metrics.mrp import large
    gold = normalize(_graph(["a"] * 1000, [(k - 1, k, "x") for k in range(1, 1000)]))
    monkeypatch.setattr(large, "clock", lambda: 100.0)
    monkeypatch.setattr(large, "left", lambda timeout: None if timeout is None else 4.0)
    monkeypatch.setattr(large, "spent", lambda: 0.0)
    size = 2 * (1000 + 999)
    assert large.deadline(None, gold, gold) is None
    assert large.deadline(5.0, gold, gold) == pytest.approx(104.0 - large.COUNT_SECONDS * size)
    monkeypatch.setattr(large, "spent", lambda: 2.0)
    assert large.deadline(5.0, gold, gold) == pytest.approx(104.0 - 0.75 * 2.0)


def test_predications_keep_the_memory_cap() -> None:
    """--max-memory holds for the predications metric's alignment too (it aligned every pair under the
    default cap, whatever the caller asked)."""
    gold = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :ARG1 (c / city)))"
    system = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (c / city)))"
    free = mrp.score(gold, system, metric="predications", format="amr")
    capped = mrp.score(gold, system, metric="predications", format="amr", max_memory=1)
    assert free.exact and not capped.exact
    assert capped.f <= free.f


def test_similarity_and_ensemble_keep_the_memory_cap(tmp_path) -> None:
    """--max-memory for mrp-similarity (and mrp-ensemble, which shares its options) and max_memory for
    mrp.similarity: a pair over it is inexact; a value the check refuses ends the command with one line."""
    import subprocess

    graphs = tmp_path / "two.amr"
    graphs.write_text("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))\n\n"
                      "(w / want-01 :ARG0 (g / girl) :ARG1 (g2 / go-02 :ARG0 g))\n", encoding="utf-8")
    free = mrp.similarity(str(graphs))
    capped = mrp.similarity(str(graphs), max_memory=1)
    assert free.exact.all() and not capped.exact[0, 1]
    out = tmp_path / "out.npz"
    done = subprocess.run([sys.executable, "-m", "mrp.cli.similarity", str(graphs), "--output", str(out),
                           "--quiet", "--max-memory", "1"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    import numpy as np

    with np.load(out) as arrays:
        assert not arrays["exact"][0, 1]
    done = subprocess.run([sys.executable, "-m", "mrp.cli.similarity", str(graphs), "--output", str(out),
                           "--quiet", "--max-memory", "-3"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
