"""What a new user hit on the command line (issue 14): each trap now fails loudly or does the right thing."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import List

from mrp.graph import Graph, Node
from mrp.report.progress import Line

from conftest import ROOT, run_cli, shared_file

DEMO_GOLD = str(ROOT / "data/demo/gold.mrp")
DEMO_SYSTEM = str(ROOT / "data/demo/system.mrp")


def _wsj(*parts: str) -> str:
    return str(shared_file("data/wsj", *parts))


def test_sdp_without_framework_is_refused_up_front() -> None:
    run = run_cli("score", ["--text", _wsj("wsj.txt"), "--gold", _wsj("dm/wsj.mrp"), _wsj("dm/wsj.sdp")])
    assert run.code == 2 and run.out == ""
    assert "does not name its framework: give --framework dm or --framework psd" in run.err
    ok = run_cli("score", ["--framework", "dm", "--text", _wsj("wsj.txt"), "--gold", _wsj("dm/wsj.mrp"),
                           _wsj("dm/wsj.sdp")])
    assert ok.code == 0, ok.err
    assert json.loads(ok.out)["all"]["f"] == 1.0  # the same graphs, now paired


def test_a_run_where_no_system_graph_pairs_exits_2() -> None:
    run = run_cli("score", ["--gold", _wsj("dm/wsj.mrp"), _wsj("psd/wsj.mrp")])
    assert run.code == 2 and run.out == ""
    assert "no system graph pairs with a gold graph" in run.err
    assert "framework dm" in run.err and "framework psd" in run.err


def test_format_applies_to_every_input_unless_overridden(tmp_path: Path) -> None:
    system = tmp_path / "system.txt"
    system.write_text(Path(shared_file("data/pairs/amr/test2.amr")).read_text())
    gold = str(shared_file("data/pairs/amr/test1.mrp"))
    run = run_cli("score", ["--gold", gold, str(system)])
    assert run.code == 0, run.err  # the gold from its extension, the system from its content
    forced = run_cli("score", ["--format", "amr", "--gold", gold, str(system)])
    assert forced.code == 2 and "--gold-format mrp" in forced.err  # --format names the gold's format too
    kept = run_cli("score", ["--format", "amr", "--gold-format", "mrp", "--gold", gold, str(system)])
    assert kept.code == 0, kept.err
    assert json.loads(kept.out)["all"] == json.loads(run.out)["all"]


def test_unknown_and_absent_frameworks_are_named() -> None:
    unknown = run_cli("score", ["--framework", "dmm", "--gold", DEMO_GOLD, DEMO_SYSTEM])
    assert unknown.code == 2 and "--framework dmm: unknown framework (known: amr, dm" in unknown.err
    absent = run_cli("score", ["--framework", "psd", "--gold", _wsj("dm/wsj.mrp"), _wsj("dm/wsj.mrp")])
    assert absent.code == 2 and "holds no graph of this framework (it holds: dm (89))" in absent.err
    assert "holds no graphs" not in absent.err
    for tool in ("convert", "validate"):
        run = run_cli(tool, ["--framework", "dmm", DEMO_GOLD])
        assert run.code == 2 and "--framework dmm: unknown framework" in run.err, tool


def test_python_dash_m_mrp_runs_mrp_score() -> None:
    proc = subprocess.run([sys.executable, "-m", "mrp", "--gold", DEMO_GOLD, DEMO_SYSTEM],
                          capture_output=True, cwd=ROOT, timeout=600, text=True)
    direct = run_cli("score", ["--gold", DEMO_GOLD, DEMO_SYSTEM])
    assert proc.returncode == direct.code == 0
    ours, theirs = json.loads(proc.stdout), json.loads(direct.out)
    for document in (ours, theirs):
        document.pop("time"), document.pop("cpu")
    assert ours == theirs


def _closed_pipe(args: List[str]) -> subprocess.CompletedProcess:
    """Run a command whose stdout reader reads one line and goes away."""
    script = ("import subprocess, sys\n"
              f"p = subprocess.Popen({args!r}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
              "p.stdout.readline(); p.stdout.close()\n"
              "err = p.stderr.read(); p.wait()\n"
              "sys.stderr.buffer.write(err); sys.exit(p.returncode)\n")
    return subprocess.run([sys.executable, "-c", script], capture_output=True, cwd=ROOT, timeout=600,
                          text=True)


def test_a_closed_pipe_ends_quietly_everywhere() -> None:
    eds = str(shared_file("data/wsj/eds/wsj.mrp"))
    for tool, args in (("score", ["--trace", "--gold", eds, eds]),
                       ("convert", ["--to", "dot", eds]),
                       ("mtool", ["--read", "mrp", "--write", "mrp", eds]),
                       ("validate", [str(ROOT / "tests/nasty/anchors-out-of-range.mrp")] * 400)):
        run = _closed_pipe([sys.executable, "-m", f"mrp.cli.{tool}", *args])
        assert "Traceback" not in run.stderr and "BrokenPipe" not in run.stderr, (tool, run.stderr)
        assert run.returncode in (0, 1, 141), (tool, run.returncode)


def test_convert_exit_status_and_messages(tmp_path: Path) -> None:
    empty = run_cli("convert", ["--framework", "psd", _wsj("dm/wsj.mrp")])
    assert empty.code == 2 and "nothing converted" in empty.err
    no_text = run_cli("convert", ["--from", "dm", _wsj("dm/wsj.sdp")])
    assert no_text.code == 2 and len(no_text.err.splitlines()) == 1 and "--text" in no_text.err
    unknown = tmp_path / "graphs.txt"
    unknown.write_text("x\n")
    named = run_cli("convert", [str(unknown)])
    assert named.code == 2 and "pass --from FMT" in named.err and "--format" not in named.err
    directory = run_cli("convert", [str(tmp_path)])
    assert directory.code == 2 and "is a directory" in directory.err
    packed = tmp_path / "graphs.mrp.gz"
    packed.write_bytes(b"\x1f\x8b\x08\x00")
    assert "compressed" in run_cli("convert", [str(packed)]).err
    bad = tmp_path / "errors.json"
    bad.write_text("{")
    broken = run_cli("convert", ["--to", "dot", "--errors", str(bad), DEMO_GOLD])
    assert broken.code == 2 and "internal error" not in broken.err and "not an --errors file" in broken.err


def test_options_between_file_names_in_all_tools(tmp_path: Path) -> None:
    out = tmp_path / "gold.dot"
    assert run_cli("convert", [DEMO_GOLD, "--to", "dot", str(out)]).code == 0
    assert out.read_text().startswith("digraph")
    assert run_cli("score", [DEMO_SYSTEM, "--quiet", "--gold", DEMO_GOLD]).code == 0
    run = run_cli("validate", [DEMO_GOLD, "--quiet", DEMO_SYSTEM])
    assert run.code in (0, 1) and run.err.count("graphs") == 2


def test_outputs_never_overwrite_inputs(tmp_path: Path) -> None:
    gold = tmp_path / "gold.mrp"
    gold.write_text(Path(DEMO_GOLD).read_text())
    before = gold.read_text()
    for tool, args in (("score", ["--output", str(gold), "--gold", str(gold), DEMO_SYSTEM]),
                       ("score", ["--errors", str(gold), "--gold", str(gold), DEMO_SYSTEM]),
                       ("convert", [str(gold), str(gold)]),
                       ("mtool", ["--read", "mrp", "--score", "mrp", "--errors", str(gold), "--gold",
                                  str(gold), DEMO_SYSTEM])):
        run = run_cli(tool, args)
        assert run.code == 2 and "is an input file; refusing to overwrite it" in run.err, (tool, run.err)
        assert gold.read_text() == before


def test_selection_options_in_score_and_convert() -> None:
    eds = str(shared_file("data/wsj/eds/wsj.mrp"))
    system = str(shared_file("data/pairs/eds/wsj.pet.mrp"))
    first = json.loads(run_cli("score", ["--trace", "--n", "3", "--gold", eds, system]).out)
    assert first["n"] == 3 and list(first["scores"]["eds"]) == ["20001001", "20001002", "20003001"]
    one = json.loads(run_cli("score", ["--trace", "--id", "20003001", "--gold", eds, system]).out)
    assert one["n"] == 1 and one["scores"]["eds"]["20003001"] == first["scores"]["eds"]["20003001"]
    assert json.loads(run_cli("score", ["--i", "2", "--gold", eds, system]).out)["all"] == one["all"]
    converted = run_cli("convert", ["--id", "20001002", eds])
    assert converted.code == 0 and [json.loads(x)["id"] for x in converted.out.splitlines()] == ["20001002"]


def test_smatch_errors_hold_the_differences(tmp_path: Path) -> None:
    errors = tmp_path / "errors.json"
    gold, system = shared_file("data/pairs/amr/test1.amr"), shared_file("data/pairs/amr/test2.amr")
    run = run_cli("score", ["--score", "smatch", "--trace", "--errors", str(errors), "--gold", str(gold),
                            str(system)])
    assert run.code == 0, run.err
    items = json.loads(run.out)["scores"]["amr"]
    found = json.loads(errors.read_text())["amr"]
    assert set(found) == set(items)
    for gid, item in items.items():
        assert len(found[gid]["triples"]["missing"]) == item["g"] - item["c"]
        assert len(found[gid]["triples"]["surplus"]) == item["s"] - item["c"]
    dot = run_cli("convert", ["--to", "dot", "--errors", str(errors), str(gold)])
    assert dot.code == 2 and "SMATCH differences" in dot.err


def test_dot_with_errors_refuses_the_system_file(tmp_path: Path) -> None:
    errors = tmp_path / "errors.json"
    gold, system = str(shared_file("data/wsj/eds/wsj.mrp")), str(shared_file("data/pairs/eds/wsj.pet.mrp"))
    assert run_cli("score", ["--quiet", "--errors", str(errors), "--gold", gold, system]).code == 0
    table = json.loads(errors.read_text())["eds"]
    present = {json.loads(line)["id"] for line in Path(system).read_text().splitlines()}
    differing = {gid for gid, entry in table.items() if set(entry) != {"correspondences"} and gid in present}
    right = run_cli("convert", ["--to", "dot", "--errors", str(errors), gold])
    assert right.code == 0 and right.out.count("digraph") == 89
    wrong = run_cli("convert", ["--to", "dot", "--errors", str(errors), system])
    refused = {line.split(": graph ")[1].split(":")[0]
               for line in wrong.err.splitlines() if ": graph " in line}
    assert refused == differing  # every system graph with a difference is refused, with its id
    assert wrong.out.count("digraph") == 87 - len(differing)


def test_amr_only_options_warn_and_the_signature_does_not_claim_them() -> None:
    eds = str(shared_file("data/wsj/eds/wsj.mrp"))
    run = run_cli("score", ["--standardize", "reify", "--aspects", "--gold", eds, eds])
    assert run.code == 0, run.err
    assert "--standardize applies to AMR graphs only" in run.err
    assert "aspects scores AMR graphs only" in run.err
    document = json.loads(run.out)
    assert "std:none" in document["signature"] and "aspects" not in run.out


def test_text_table_missing_an_amr_graph_keeps_its_snt(tmp_path: Path) -> None:
    table = tmp_path / "text.tsv"
    table.write_text("isi_0001.1\tThe boy wants the girl to believe him (table).\n")
    amr = str(shared_file("data/pairs/amr/test1.amr"))
    run = run_cli("convert", ["--text", str(table), "--from", "amr", amr])
    assert run.code == 0, run.err
    inputs = [json.loads(line)["input"] for line in run.out.splitlines()]
    assert inputs[0].endswith("(table).") and all(inputs)
    assert "not in the --text table; keeps its own ::snt" in run_cli(
        "score", ["--text", str(table), "--gold", amr, amr]).err


def test_progress_line_compiling_eta_and_a_long_pair() -> None:
    stream = io.StringIO()
    line = Line("mrp-score", "gold.mrp", show=True, stream=stream)
    line.compiling()
    assert "compiling the solver's kernels, once" in stream.getvalue()
    line.start(100)
    assert "ETA" not in line.text(time.monotonic())
    for _ in range(5):
        line.advance(False)
    assert "ETA" in line.text(time.monotonic())
    line.last -= 10  # the sixth pair has run for ten seconds
    assert "pair 6 running for 10s" in line.text(time.monotonic())
    line.finish()


def test_default_time_cap_is_in_the_signature() -> None:
    run = run_cli("score", ["--gold", DEMO_GOLD, DEMO_SYSTEM])
    document = json.loads(run.out)
    assert "|timeout:60s|" in document["signature"] and "timeout" in document["cut"]


def test_dot_draws_remote_edges_dashed() -> None:
    from mrp.codecs.dot import format_graph
    from mrp.graph import Edge

    graph = Graph("1", "ucca", nodes=[Node(0), Node(1), Node(2)], tops=[0],
                  edges=[Edge(0, 1, "A", attributes=["remote"], values=[True]), Edge(0, 2, "P")])
    lines = [x for x in format_graph(graph).splitlines() if "->" in x and "top" not in x]
    assert 'style="dashed"' in lines[0] and 'style="dashed"' not in lines[1]


def test_mtool_names_what_it_cannot_honour() -> None:
    run = run_cli("mtool", ["--read", "pmb", "x.pmb"])  # mtool's PMB codec (CoNLL-U is read: codecs/conllu)
    assert run.code == 2 and "--read pmb: mrp-mtool reads" in run.err
    reify = run_cli("mtool", ["--read", "amr", "--reify", "x.amr"])
    assert reify.code == 2 and "--reify is not honoured by mrp: for AMR use mrp-score --standardize reify" \
        in reify.err
    limited = run_cli("mtool", ["--read", "mrp", "--limit", "50", "--score", "mrp", "--gold", DEMO_GOLD,
                                DEMO_SYSTEM])
    assert limited.code == 0 and "--limit 50: not needed" in limited.err


def test_the_heartbeat_shows_a_long_pair_running() -> None:
    stream = io.StringIO()
    line = Line("mrp-score", "gold.mrp", show=True, stream=stream)
    line.start(10)
    deadline = time.monotonic() + 120
    while "pair 1 running for 2s" not in stream.getvalue():  # no pair finishes: the line must still move
        assert time.monotonic() < deadline, stream.getvalue()
        time.sleep(0.05)
    line.finish()
    assert "pair 1 running for 2s" in stream.getvalue()
    assert "compiling" not in stream.getvalue()


