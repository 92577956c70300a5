"""mrp-similarity --output writes the format its name says (mrp.io.tables): .npz, .csv, .parquet/.arrow
(pyarrow), and refuses any other extension before scoring."""

from __future__ import annotations

import csv
import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import mrp
from mrp.errors import MRPError
from mrp.io import tables

GRAPHS = "(a / dog :ARG0 (b / cat))\n\n(a / dog :ARG1 (b / cat))\n\n(c / run-01 :polarity -)\n"


def similarity(**options: Any) -> Any:
    return mrp.similarity(GRAPHS, metric="smatch", format="amr", **options)


def cli(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mrp.cli.similarity", *arguments], capture_output=True,
                          text=True)


def test_csv_holds_every_pair(tmp_path: Path) -> None:
    result = similarity()
    out = tmp_path / "sim.csv"
    result.save(str(out))
    with out.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert len(rows) == 9
    assert list(rows[0]) == ["row", "column", "f", "c", "g", "s", "bound", "exact"]
    for row in rows:
        i, j = result.ids.index(row["row"]), result.ids.index(row["column"])
        assert float(row["f"]) == result.f[i, j]  # the shortest exact form: equal, not close
        assert int(float(row["c"])) == result.c[i, j]
        assert row["exact"] == "true"


def test_top_k_csv_lists_the_neighbours_by_rank(tmp_path: Path) -> None:
    result = similarity(top_k=1)
    out = tmp_path / "top.csv"
    result.save(str(out))
    with out.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert [row["rank"] for row in rows] == ["1"] * 3
    assert [row["column"] for row in rows] == [result.ids[j] for j in result.neighbours[:, 0]]


def test_unknown_extension_refused_before_any_work(tmp_path: Path) -> None:
    source = tmp_path / "g.amr"
    source.write_text(GRAPHS, encoding="utf-8")
    done = cli(str(source), "--output", str(tmp_path / "sim.txt"))
    assert done.returncode == 2 and done.stdout == ""
    assert "sim.txt: no output format has the extension '.txt'" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "sim.txt").exists()
    done = cli(str(source), "--output", str(tmp_path / "sim.csv"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "sim.csv").read_text(encoding="utf-8").startswith("row,column,f,")


def test_arrow_formats_need_pyarrow(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(tables.importlib.util, "find_spec",
                        lambda name, *rest: None if name == "pyarrow" else real(name, *rest))
    for name in ("sim.parquet", "sim.arrow"):
        with pytest.raises(MRPError, match="needs pyarrow, which is not installed"):
            tables.table_format(name)
    assert tables.table_format("SIM.CSV") == "csv" and tables.table_format("a.npz") == "npz"


@pytest.mark.parametrize("name", ["sim.parquet", "sim.arrow"])
def test_arrow_formats_hold_the_table(tmp_path: Path, name: str) -> None:
    pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (Parquet/Arrow output is optional)")
    result = similarity()
    out = tmp_path / name
    result.save(str(out))
    if name.endswith(".parquet"):
        import pyarrow.parquet as pq

        table = pq.read_table(str(out))
    else:
        table = pa.ipc.open_file(str(out)).read_all()
    assert table.to_pydict() == result.columns()
