"""What a user must be able to trust on a fresh machine: standard output carries the report only (whatever
a child process or a library writes), and a number never depends on the kernel cache or the order of the
system files."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Dict, List

import pytest

from mrp.engine import driver
from mrp.engine.options import Execution, Options
from mrp.engine.pairing import Pair
from mrp.graph import Graph, Node
from mrp.process.forked import Child

from conftest import ROOT, run_cli, shared_file, timeless

BENCH = ROOT / "bench"


# --- standard output ----------------------------------------------------------------------------------------


def test_a_child_writing_to_standard_output_reaches_standard_error(capfd: pytest.CaptureFixture[str]) -> None:
    def noisy() -> int:
        os.write(1, b"from C, on fd 1\n")
        print("from Python, on sys.stdout")
        return 5

    assert Child(noisy).result() == 5
    out, err = capfd.readouterr()
    assert out == ""
    assert "from C, on fd 1" in err and "from Python, on sys.stdout" in err


class _Noisy(driver.Metric):
    """Scores every pair 1 of 1, writing to standard output on the way (as a chatty library would)."""

    name = "noisy"

    def score(self, pair: Pair, options: Options) -> driver.PairCounts:
        os.write(1, b"worker noise\n")
        print("worker print")
        return driver.PairCounts({(): (1, 1, 1)})

    def report(self, run: driver.Run) -> Dict[str, Any]:
        return {"n": run.n}


def test_worker_processes_never_write_to_standard_output(capfd: pytest.CaptureFixture[str]) -> None:
    graph = Graph("1", "amr", nodes=[Node(0, "a")], tops=[0])
    pairs = [Pair(graph, graph, True) for _ in range(8)]
    found = list(driver.results(_Noisy(), pairs, Options(run=Execution(jobs=2))))
    assert len(found) == 8 and all(result.counts == {(): (1, 1, 1)} for result in found)
    out, err = capfd.readouterr()
    assert out == "" and "worker noise" in err


#: runs mrp-score with every pair the search leaves open handed to HiGHS at once, and says on stderr how
#: many programs HiGHS ran (the banner of highspy >= 1.16 goes to standard output unless kept from it)
_HANDED_OVER = textwrap.dedent("""
    import sys
    import mrp.solver.mip as mip
    import mrp.solver.solve as solver
    solver.MIP_AFTER = 0
    proved = mip.prove
    count = [0]
    def prove(*args, **kwargs):
        count[0] += 1
        return proved(*args, **kwargs)
    mip.prove = prove
    import os, threading
    forked = os.fork
    threaded = [0]
    def fork():
        if threading.active_count() > 1:
            threaded[0] += 1
        return forked()
    os.fork = fork
    from mrp.cli.score import main
    try:
        code = main(sys.argv[1:])
    finally:
        sys.stderr.write(f"programs: {count[0]}\\n")
        sys.stderr.write(f"forks with threads: {threaded[0]}\\n")
    sys.exit(code)
""")


@pytest.mark.parametrize("metric", ["smatch", "mrp"])
def test_a_document_pair_handed_to_highs_prints_parseable_json(metric: str, tmp_path: Path) -> None:
    shared_file("README.md")
    sys.path.insert(0, str(BENCH))
    try:
        import documents
    finally:
        sys.path.remove(str(BENCH))
    k, number = 8, 94  # a merged coli document its root leaves open (152 is closed there since issue 25)
    paths = []
    for source, side in zip(documents.COLI, ("gold", "system")):
        sentences = documents.graphs(shared_file(source))[number * k:(number + 1) * k]
        paths.append(tmp_path / f"{side}.amr")
        paths[-1].write_text(documents.merged(sentences, 1) + "\n", encoding="utf-8")
    gold, system = paths
    run = subprocess.run([sys.executable, "-c", _HANDED_OVER, "--score", metric, "--jobs", "1",
                          "--gold", str(gold), str(system)], capture_output=True, text=True, cwd=ROOT,
                         timeout=600)
    assert run.returncode == 0, run.stderr
    programs = int(run.stderr.rsplit("programs: ", 1)[1].split()[0])
    assert programs > 0, "no pair reached HiGHS: the test proves nothing"
    # no fork while threads run (Python 3.12 warns: a lock held by another thread stays held in the child)
    assert int(run.stderr.rsplit("forks with threads: ", 1)[1].split()[0]) == 0
    assert "Running HiGHS" not in run.stderr  # its banner is silenced, not merely kept off stdout
    document = json.loads(run.stdout)
    assert document["n"] == 1


# --- the leaderboard's memo ---------------------------------------------------------------------------------


def _property_graph(values: List[Any]) -> Dict[str, Any]:
    return {"id": "1", "framework": "eds", "flavor": 1, "tops": [0],
            "nodes": [{"id": 0, "label": "x", "properties": ["a", "b"], "values": values}], "edges": []}


def test_a_leaderboard_scores_each_system_as_alone_whatever_the_order(tmp_path: Path) -> None:
    """``1``, ``"1"``, ``true`` and ``1.0`` are four values, though Python finds them equal."""
    files = {"gold": ["1", "true"], "A": [1, True], "B": [True, 1], "C": ["1", "true"], "D": [1.0, "true"]}
    paths = {}
    for name, values in files.items():
        paths[name] = tmp_path / f"{name}.mrp"
        paths[name].write_text(json.dumps(_property_graph(values)) + "\n", encoding="utf-8")
    systems = [name for name in files if name != "gold"]
    alone = {}
    for name in systems:
        run = run_cli("score", ["--gold", str(paths["gold"]), str(paths[name])])
        assert run.code == 0, run.err
        alone[name] = timeless(json.loads(run.out))["properties"]
    assert alone["A"]["c"] == alone["C"]["c"] == 2 and alone["B"]["c"] == 0  # values are compared as text
    for order in itertools.permutations(systems):
        run = run_cli("score", ["--gold", str(paths["gold"])] + [str(paths[name]) for name in order])
        assert run.code == 0, run.err
        for path, result in json.loads(run.out)["results"].items():
            assert timeless(result)["properties"] == alone[Path(path).stem], (order, path)


# --- the kernel cache ---------------------------------------------------------------------------------------


_SIGNATURES = textwrap.dedent("""
    import json, sys
    from mrp.corpora.load import read_corpus
    from mrp.metrics.smatch import metric as smatch
    from mrp.engine.options import Options
    from mrp.metrics.registry import evaluate
    from mrp.engine.pairing import pair
    from mrp.solver.assemble import candidates, rewards
    from mrp.solver.batch import search_all
    from mrp.solver.kernel import resume, settle, solve
    kernels = (settle, resume, rewards, candidates, search_all)
    options = Options(penman=True, timeout=60)
    smatch.METRIC.prepare(options)
    ready = [len(kernel.signatures) for kernel in kernels]
    gold, system = (read_corpus(path, "amr") for path in sys.argv[1:3])
    for name in ("smatch", "mrp", "ancast"):
        evaluate(name, pair(gold, system), options)
    print(json.dumps([ready, [len(kernel.signatures) for kernel in kernels], len(solve.signatures)]))
""")


def test_the_kernels_are_ready_before_the_first_pair_and_no_pair_compiles() -> None:
    gold = shared_file("data/pairs/amr/coli.gold.amr")
    system = shared_file("data/pairs/amr/coli.system.amr")
    head = [block for block in gold.read_text(encoding="utf-8").split("\n\n") if block.strip()][:40]
    tail = [block for block in system.read_text(encoding="utf-8").split("\n\n") if block.strip()][:40]
    directory = Path(os.environ.get("TMPDIR", "/tmp"))
    files = []
    for name, blocks in (("gold", head), ("system", tail)):
        files.append(directory / f"mrp-trust-{os.getpid()}-{name}.amr")
        files[-1].write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    try:
        run = subprocess.run([sys.executable, "-c", _SIGNATURES] + [str(path) for path in files],
                             capture_output=True, text=True, cwd=ROOT, timeout=900)
    finally:
        for path in files:
            path.unlink()
    assert run.returncode == 0, run.stderr
    # loaded before any pair (the solver, and the kernels that build Problems and solve many); no pair
    # compiled a variant; kernel.solve, which search_all calls within, is never loaded on its own
    # (kernel.solved: settle, then resume)
    ready, after, alone = json.loads(run.stdout)
    assert min(ready) >= 1 and after == ready and alone == 0


_KERNEL = textwrap.dedent("""
    from mrp.compiled import njit

    @njit(cache=True)
    def plus_one(x):
        return x + 1
""")


def test_a_damaged_cached_kernel_is_compiled_afresh(tmp_path: Path) -> None:
    (tmp_path / "tiny_kernel.py").write_text(_KERNEL, encoding="utf-8")
    script = "import tiny_kernel; print(tiny_kernel.plus_one(41))"
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]),
                       NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONWARNINGS="always")

    def run() -> subprocess.CompletedProcess[str]:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path,
                              env=environment, timeout=300)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["42"], done.stderr
        return done

    run()
    data = list((tmp_path / "cache").rglob("*.nbc"))
    assert data, "numba cached nothing: the test proves nothing"
    for path in data:
        path.write_bytes(path.read_bytes()[:20])  # truncated, as a full disk or a killed write leaves it
    damaged = run()
    assert "could not be loaded" in damaged.stderr and "compiled afresh" in damaged.stderr
    assert "could not be loaded" not in run().stderr  # cached again


_CALLER = textwrap.dedent("""
    from fakesolver.helper import times
    from fakesolver.jit import njit

    @njit(cache=True)
    def scaled(x):
        return times(x) + 0
""")


def test_a_cached_kernel_is_not_used_after_a_module_it_calls_changed(tmp_path: Path) -> None:
    """A cached kernel holds the compiled code of the functions it calls from other modules: a change to one
    of those (and only there) compiles the kernel afresh, or a checkout would run the old code."""
    package = tmp_path / "fakesolver"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    jit = (ROOT / "mrp/compiled/jit.py").read_text(encoding="utf-8")
    (package / "jit.py").write_text(jit, encoding="utf-8")
    (package / "kernel.py").write_text(_CALLER, encoding="utf-8")
    helper = "from fakesolver.jit import njit\n\n@njit(cache=True)\ndef times(x):\n    return x * {}\n"
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]),
                       NUMBA_CACHE_DIR=str(tmp_path / "cache"))

    def scaled(factor: int) -> str:
        (package / "helper.py").write_text(helper.format(factor), encoding="utf-8")
        script = "from fakesolver.kernel import scaled; print(scaled(5))"
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path,
                              env=environment, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert scaled(2) == "10"
    assert list((tmp_path / "cache").rglob("*.nbi")), "numba cached nothing: the test proves nothing"
    assert scaled(2) == "10"  # from the cache
    assert scaled(3) == "15"  # numba alone: 10, from the cached kernel.scaled


def _wait_for_compilers(folder: Path) -> None:
    """Wait until the background compilers whose locks lie in ``folder`` (their TMPDIR) have finished."""
    import fcntl

    for lock in folder.glob("mrp-compile-*.lock"):
        with open(lock, "rb") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)


def test_a_cold_run_equals_a_warm_run_pair_for_pair(tmp_path: Path) -> None:
    """With an empty kernel cache (a fresh install), compiling is no pair's time: the default --jobs auto and
    a short --timeout give the warm run's numbers, pair for pair.

    The cold run's numba cache is one it cannot write (a read-only install): the kernels then compile into
    mrp's private cache under the temporary directory, and one line says so; they compile in a background
    process while the run scores with them as plain Python (issue 43), and a second line says that; the
    one compile proves both (each costs a minute or more)."""
    from numba.core import config

    gold = str(shared_file("data/pairs/amr/coli.gold.amr"))
    system = str(shared_file("data/pairs/amr/coli.system.amr"))
    arguments = [sys.executable, "-m", "mrp", "--score", "smatch", "--trace", "--timeout", "20",
                 "--gold", gold, system]
    cold = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "empty"), TMPDIR=str(tmp_path))
    compiled = tmp_path / "empty"
    unwritable = hasattr(config, "CACHE_LOCATOR_CLASSES")  # else numba falls back to __pycache__ by itself
    if unwritable:
        cold.update(NUMBA_CACHE_LOCATOR_CLASSES="UserProvidedCacheLocator", NUMBA_CACHE_DIR="/dev/null/cache",
                    TMPDIR=str(tmp_path))
        compiled = tmp_path / f"mrp-numba-cache-{os.getuid()}"
    runs = []
    for environment in (cold, dict(os.environ)):
        done = subprocess.run(arguments, capture_output=True, text=True, cwd=ROOT, env=environment,
                              timeout=900)
        assert done.returncode == 0, done.stderr
        runs.append(timeless(json.loads(done.stdout)))
        if environment is cold:
            lines = done.stderr.strip().splitlines()
            assert "a background process compiles them" in lines[-1], done.stderr
            if unwritable:
                assert lines == ["mrp-score: numba cannot write its cache; the solver is cached in "
                                 f"{compiled} instead", lines[-1]], done.stderr
            _wait_for_compilers(tmp_path)
    assert list(compiled.rglob("*.nbi")), "the cold run did not compile into its own cache"
    cold_run, warm_run = runs
    assert cold_run["exact"] == warm_run["exact"] == cold_run["n"]
    assert cold_run == warm_run


def test_no_mip_is_an_option_of_the_run_not_a_global() -> None:
    """--no-mip (Options.mip) reaches each pair as an argument: a library call with mip=False leaves the next
    call's hand-over on, and the signature says which."""
    import mrp
    from mrp.solver import mip

    assert not hasattr(mip, "ENABLED")
    pair = (["(a / alpha :ARG0 (b / beta))"], ["(a / alpha :ARG1 (b / beta))"])
    off = mrp.score(*pair, metric="smatch", mip=False)
    on = mrp.score(*pair, metric="smatch")
    assert "nomip" in off.signature and "nomip" not in on.signature and off.f == on.f
