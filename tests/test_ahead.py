"""Reading ahead (mrp.corpora.ahead, mrp.process.forked): a file read by a forked child gives the corpus
read_corpus gives, messages in the same place, the same errors, and a fallback whenever the child fails."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, List

import pytest

import mrp.corpora.ahead
import mrp.corpora.load
from mrp.corpora.ahead import Ahead
from mrp.corpora.load import read_corpus
from mrp.corpora.packed import PackedGraphs
from mrp.errors import InputError
from mrp.process.forked import Child, can_fork

from conftest import ROOT, timeless

NASTY = ROOT / "tests" / "nasty"
DEMO = ROOT / "data" / "demo"
FILES = [DEMO / "gold.mrp", DEMO / "system.mrp", NASTY / "gold.amr", NASTY / "lone-brace.amr",
         NASTY / "crlf.amr", NASTY / "nul.mrp", NASTY / "lone-brace.eds", NASTY / "bom.dm",
         ROOT / "tests" / "data" / "ptg.mrp"]

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="reading ahead needs fork")


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read ahead even though the test process runs threads (the solver's thread from other tests)."""
    monkeypatch.setattr(mrp.corpora.ahead, "enabled", lambda: True)


def _same(a: Any, b: Any) -> None:
    assert [(g, g.layout, g.repairs, g.line, g.variables) for g in a.graphs] == \
           [(g, g.layout, g.repairs, g.line, g.variables) for g in b.graphs]
    assert [str(e) for e in a.errors] == [str(e) for e in b.errors]
    assert a.repaired == b.repaired and (a.name, a.format) == (b.name, b.format)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_read_ahead_gives_what_read_corpus_gives(path: Path, forking: None) -> None:
    ahead = Ahead(str(path))
    assert ahead.ahead
    _same(ahead.corpus(), read_corpus(str(path)))


def test_repaired_graphs_come_back_with_their_repairs(forking: None, tmp_path: Path) -> None:
    path = tmp_path / "open.amr"
    path.write_text("# ::id r1\n(a / bark-01 :ARG0 (d / dog)\n\n# ::id r2\n(s / sleep-01)\n")
    corpus = Ahead(str(path)).corpus()
    assert [r.graph_id for r in corpus.repaired] == ["r1"] and corpus.graphs[0].repairs
    _same(corpus, read_corpus(str(path)))


def test_a_large_corpus_comes_back_packed(forking: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mrp.corpora.load, "PACK_AFTER", 2)
    corpus = Ahead(str(DEMO / "gold.mrp")).corpus()
    assert isinstance(corpus.graphs, PackedGraphs)
    _same(corpus, read_corpus(str(DEMO / "gold.mrp")))


def test_what_the_reader_writes_appears_when_the_corpus_is_taken(
        forking: None, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def noisy(path: str, *args: Any, **kwargs: Any) -> Any:
        print(f"reading {Path(path).name}", file=sys.stderr)
        return read_corpus(path, *args, **kwargs)

    monkeypatch.setattr(mrp.corpora.ahead, "read_corpus", noisy)
    ahead = Ahead(str(DEMO / "gold.mrp"))
    child = ahead._child
    assert child is not None
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # the child has written and ended (not reaped)
    # and yet its line comes when the corpus is taken
    print("before", file=sys.stderr)
    corpus = ahead.corpus()
    assert len(corpus.graphs) == len(read_corpus(str(DEMO / "gold.mrp")).graphs)
    assert capfd.readouterr().err == "before\nreading gold.mrp\n"


def test_a_file_that_cannot_be_used_raises_as_read_corpus_does(forking: None, tmp_path: Path) -> None:
    empty = tmp_path / "empty.mrp"
    empty.write_text("\n\n")
    with pytest.raises(InputError) as here:
        read_corpus(str(empty))
    ahead = Ahead(str(empty))
    assert ahead.ahead
    with pytest.raises(InputError) as there:
        ahead.corpus()
    assert str(there.value) == str(here.value)


def test_a_child_that_fails_or_dies_leaves_reading_to_this_process(forking: None,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    parent = os.getpid()

    def failing(*args: Any, **kwargs: Any) -> Any:
        if os.getpid() != parent:
            raise RuntimeError("the child breaks")
        return read_corpus(*args, **kwargs)

    monkeypatch.setattr(mrp.corpora.ahead, "read_corpus", failing)
    ahead = Ahead(str(DEMO / "gold.mrp"))
    assert ahead.ahead
    _same(ahead.corpus(), read_corpus(str(DEMO / "gold.mrp")))
    monkeypatch.undo()

    monkeypatch.setattr(mrp.corpora.ahead, "enabled", lambda: True)
    ahead = Ahead(str(DEMO / "gold.mrp"))
    assert ahead._child is not None
    os.kill(ahead._child.pid, signal.SIGKILL)
    _same(ahead.corpus(), read_corpus(str(DEMO / "gold.mrp")))
    ahead = Ahead(str(DEMO / "gold.mrp"))
    ahead.cancel()
    assert not ahead.ahead
    _same(ahead.corpus(), read_corpus(str(DEMO / "gold.mrp")))


def test_when_not_to_read_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mrp.corpora.ahead, "can_fork", lambda: True)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setenv("MRP_READ_AHEAD", "0")
    assert not mrp.corpora.ahead.enabled()
    monkeypatch.setenv("MRP_READ_AHEAD", "1")
    assert mrp.corpora.ahead.enabled()
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert not mrp.corpora.ahead.enabled()
    monkeypatch.setattr(mrp.corpora.ahead, "enabled", lambda: True)
    assert not Ahead("-").ahead  # standard input is read here, and so is a pipe
    read, write = os.pipe()
    try:
        assert not Ahead(f"/dev/fd/{read}").ahead
    finally:
        os.close(read)
        os.close(write)


def test_no_fork_while_another_thread_runs() -> None:
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert not can_fork()
    finally:
        release.set()
        thread.join()


def test_child_results_deadlines_and_stops() -> None:
    assert Child(lambda: {"a": [1, 2]}).result() == {"a": [1, 2]}
    assert Child(lambda: 1 / 0).result() is None
    # children that would sleep 10 minutes, killed at once (the bound only stops a hung test: it holds on a
    # loaded machine, and still fails where either child is waited for)
    started = time.monotonic()
    assert Child(lambda: time.sleep(600)).result(deadline=time.monotonic() + 0.2) is None
    assert Child(lambda: time.sleep(600)).result(stopped=lambda: True) is None
    assert time.monotonic() - started < 300


def _run(args: List[str], ahead: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, MRP_READ_AHEAD=ahead)
    return subprocess.run([sys.executable, "-m", "mrp.cli.score", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)


@pytest.mark.parametrize("args", [
    ["--gold", str(NASTY / "gold.amr"), str(NASTY / "lone-brace.amr"), "--score", "smatch"],
    ["--gold", str(DEMO / "gold.mrp"), str(DEMO / "system.mrp"), str(NASTY / "nul.mrp"),
     str(DEMO / "gold.mrp")],
    ["--gold", str(NASTY / "lone-brace.amr"), str(NASTY / "gold.amr")],
], ids=["smatch", "leaderboard", "bad-gold"])
def test_the_command_prints_the_same_with_and_without_reading_ahead(args: List[str]) -> None:
    here, ahead = _run(args, "0"), _run(args, "1")
    assert ahead.returncode == here.returncode
    assert ahead.stderr == here.stderr
    assert timeless(json.loads(ahead.stdout or "null")) == timeless(json.loads(here.stdout or "null"))



def test_a_child_forked_from_another_thread_reports_too() -> None:
    """The HiGHS hand-over forks from the solver's thread."""
    found: List[Any] = []
    thread = threading.Thread(target=lambda: found.append(Child(lambda: [42]).result()))
    thread.start()
    thread.join()
    assert found == [[42]]


def test_a_file_after_mostly_repeated_texts_is_read_here(tmp_path: Path) -> None:
    """After graphs that held fewer than DISTINCT distinct texts per graph, reading ahead does not pay."""
    from test_read_memo import _file

    from mrp.codecs import ReadOptions
    from mrp.corpora.ahead import DISTINCT, pays_after
    from mrp.corpora.load import reading_together

    assert DISTINCT == 0.5
    for picks, expected in (([0, 1, 2, 3, 4, 5, 6], True), ([0, 1, 2, 3, 0, 1, 2], True),
                            ([0, 1, 0, 1, 0, 1, 0, 1], False), ([3] * 9, False)):
        options = reading_together(ReadOptions(framework="amr"))
        corpus = read_corpus(str(_file(tmp_path / "a.amr", picks, ids=True)), "amr", options)
        assert len(corpus.graphs) == len(picks)
        assert options.memo.built == len(set(picks))  # type: ignore[union-attr]
        assert pays_after(options, len(picks)) is expected, picks
    assert pays_after(options, 0)  # nothing read before
    assert pays_after(ReadOptions(framework="amr"), 9)  # no memo of texts
    assert pays_after(None, 9)


@pytest.mark.parametrize("picks, child", [([0, 1, 2, 3, 4, 5], True), ([0, 1, 0, 1, 0, 1], False)],
                         ids=["distinct", "repeated"])
def test_mrp_score_reads_the_system_file_here_after_a_gold_file_of_repeated_texts(
        tmp_path: Path, picks: List[int], child: bool, forking: None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from test_read_memo import _file

    import mrp.cli.score
    from mrp.cli.score import main_body

    made: List[bool] = []

    class Seen(Ahead):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self.ahead)  # a child reads the file

    monkeypatch.setattr(mrp.cli.score, "Ahead", Seen)
    gold = _file(tmp_path / "gold.amr", picks, ids=False)
    system = _file(tmp_path / "system.amr", picks[1:] + picks[:1], ids=False)
    assert main_body(["--gold", str(gold), str(system), "--score", "smatch", "--jobs", "2"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["n"] == len(picks) and result["exact"] == len(picks)
    assert made == [child]
