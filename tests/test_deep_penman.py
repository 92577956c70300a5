"""Penman nested as deep as the node limit allows is read (issue 42 item 10): a chain of 450 and of 5,000
nodes, in AMR and in UMR, where Python's recursion limit used to refuse some 500 levels."""

from __future__ import annotations

from pathlib import Path

import pytest

import mrp
from mrp.codecs.penman.deep import LIMIT, deeply

from conftest import run_cli


def chain(depth: int, prefix: str = "n") -> str:
    """``(n0 / x :ARG0 (n1 / x :ARG0 ( ... (n{depth-1} / x))))``: ``depth`` nodes, each inside the last."""
    return "".join(f"({prefix}{k} / x :ARG0 " for k in range(depth - 1)) + f"({prefix}{depth - 1} / x)" \
        + ")" * (depth - 1)


@pytest.mark.parametrize("depth", [450, 5000])
def test_a_deep_amr_chain_is_read_and_scored(depth: int) -> None:
    graph = chain(depth)
    figures = mrp.score([graph], [graph], metric="smatch").to_dict()
    assert figures["g"] == figures["s"] == figures["c"] == 2 * depth  # instances, edges (one less), TOP
    assert figures["f"] == 1.0 and figures["invalid"] == 0


@pytest.mark.parametrize("depth", [450, 5000])
def test_a_deep_chain_through_the_command(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "deep.amr"
    path.write_text(f"# ::id deep\n{chain(depth)}\n", encoding="utf-8")
    done = run_cli("score", ["--score", "smatch", "--gold", str(path), str(path)])
    assert done.code == 0, done.err
    assert done.err == ""


def test_a_deep_umr_sentence_graph_is_read(tmp_path: Path) -> None:
    depth = 5000
    path = tmp_path / "deep.umr"
    path.write_text("#" * 80 + "\n# meta-info :: sent_id = t-s1\n# :: snt1\nIndex: 1\nWords: x\n\n"
                    f"# sentence level graph:\n{chain(depth, 's1n')}\n\n# alignment:\ns1n0: 1-1\n\n"
                    "# document level annotation:\n(s1s0 / sentence)\n\n", encoding="utf-8")
    graphs = mrp.read(str(path), format="umr")
    assert len(graphs) == 1 and len(graphs[0].nodes) == depth


def test_deeply_hands_back_what_the_reader_raises() -> None:
    def deep(level: int) -> int:
        return 0 if level == 0 else 1 + deep(level - 1)

    assert deeply(lambda: deep(50_000)) == 50_000
    with pytest.raises(RecursionError):
        deeply(lambda: deep(LIMIT + 10))
    with pytest.raises(ValueError, match="bad"):
        deeply(lambda: (_ for _ in ()).throw(ValueError("bad")))
