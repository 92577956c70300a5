"""mrp.ensemble and mrp-ensemble (MBSE): the selection equals a brute-force one built from mrp.score of
every candidate pair; ties go to the lowest system index; the report and the selected file are whole."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import List

import pytest
from test_similarity import random_graphs

import mrp
from mrp.errors import InputError


def perturbed(graphs: List[mrp.Graph], seed: int) -> List[mrp.Graph]:
    """Copies with some concepts and some roles changed (deterministic)."""
    rng = random.Random(seed)
    text = mrp.write(graphs, format="amr") or ""
    out = mrp.read(text, format="amr")
    for graph in out:
        for node in graph.nodes:
            if rng.random() < 0.3:
                node.label = rng.choice(["dog", "cat", "see-01", "thing"])
        for edge in graph.edges:
            if rng.random() < 0.3:
                edge.label = rng.choice(["ARG0", "ARG1", "mod"])
    return out


def brute_force(systems: List[List[mrp.Graph]]) -> List[int]:
    chosen = []
    for sentence in range(len(systems[0])):
        means = []
        for a in range(len(systems)):
            total = 0.0
            for b in range(len(systems)):
                if b != a:
                    gold, system = copy.copy(systems[b][sentence]), copy.copy(systems[a][sentence])
                    gold.id = system.id = "x"
                    total += mrp.score([gold], [system], metric="smatch").pairs[0].f
            means.append(total / (len(systems) - 1))
        chosen.append(means.index(max(means)))
    return chosen


def test_selection_equals_brute_force() -> None:
    base = random_graphs(21, 10)
    systems = [base, perturbed(base, 1), perturbed(base, 2), perturbed(base, 3)]
    result = mrp.ensemble(systems, metric="smatch")
    assert result.chosen == brute_force(systems)
    assert len(result.graphs) == 10 and result.selection.pairs == 10 * 6
    report = result.report()
    assert [item["chosen"] for item in report["sentences"]] == result.chosen
    assert sum(report["chosen"]) == 10 and report["exact"] is True
    four = report["sentences"][0]["f"]
    assert len(four) == 4 and all(four[a][b] == four[b][a] for a in range(4) for b in range(4))


def test_ties_go_to_the_first_system_and_ids_pair_the_sentences() -> None:
    a = "# ::id s1\n(a / dog)\n\n# ::id s2\n(a / cat)\n"
    b = "# ::id s2\n(a / cat)\n\n# ::id s1\n(a / dog)\n"
    result = mrp.ensemble([a, b, a], metric="smatch", format="amr")
    assert result.chosen == [0, 0] and result.ids == ["s1", "s2"]
    with pytest.raises(InputError, match="cannot be paired"):
        mrp.ensemble(["(a / dog)\n\n(b / cat)", "(a / dog)"], format="amr")


def test_the_command_writes_the_selection_the_report_and_scores_gold(tmp_path: Path) -> None:
    base = random_graphs(31, 6)
    paths = []
    for k, graphs in enumerate([base, perturbed(base, 5), perturbed(base, 6)]):
        path = tmp_path / f"s{k}.amr"
        path.write_text(mrp.write(graphs, format="amr") or "", encoding="utf-8")
        paths.append(str(path))
    out, report = tmp_path / "selected.amr", tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "mrp.cli.ensemble", "--output", str(out), "--report",
                           str(report), "--gold", paths[0], *paths], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    data = json.loads(report.read_text(encoding="utf-8"))
    assert summary["n"] == data["n"] == 6 and len(data["sentences"]) == 6
    selected = mrp.read(str(out), format="amr")
    expected = mrp.ensemble(paths, format="amr")
    assert [graph.id for graph in selected] == expected.ids
    assert data["gold"]["selection"] == mrp.score(paths[0], str(out), metric="smatch", format="amr").f
    assert data["gold"]["systems"][0] == 1.0
    done = subprocess.run([sys.executable, "-m", "mrp.cli.ensemble", "--output", str(tmp_path / "x.amr"),
                           "--report", str(tmp_path / "x.json"), paths[0]], capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
