"""Reader throughput on the shared sample files: graphs read per second, per reader and file.

Run as ``python bench/readers.py [path/to/shared]`` (default: ``../shared`` beside the
repository) to print a table; ``run(shared)`` returns the rows.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

from mrp.codecs import ReadOptions
from mrp.corpora.load import read_corpus, read_text

#: (reader, file under shared/data, needs the wsj.txt table)
CASES: List[Tuple[str, str, bool]] = [
    ("amr", "wsj/amr/wsj.amr", True),
    ("amr", "pairs/amr/coli.gold.amr", False),
    ("eds", "wsj/eds/wsj.eds", True),
    ("dm", "wsj/dm/wsj.sdp", True),
    ("psd", "wsj/psd/wsj.sdp", True),
    ("mrp", "wsj/amr/wsj.mrp", False),
    ("mrp", "wsj/dm/wsj.mrp", False),
    ("mrp", "wsj/psd/wsj.mrp", False),
    ("mrp", "wsj/eds/wsj.mrp", False),
    ("mrp", "wsj/ucca/wsj.mrp", False),
    ("umr", "umr/czech-pdtc/pdt-gold.umr", False),
    ("umr", "umr/english/english_umr-0004.umr", False),
]


def run(shared: Path, repeat: int = 3) -> List[Dict[str, Union[str, int, float]]]:
    """One row per (reader, file): graphs read, best wall-clock seconds of ``repeat`` runs, graphs/s.

    Files that are missing are left out.
    """
    data = Path(shared) / "data"
    text_path = data / "wsj" / "wsj.txt"
    text: Optional[Dict[str, str]] = read_text(str(text_path)) if text_path.exists() else None
    rows: List[Dict[str, Union[str, int, float]]] = []
    for name, relative, needs_text in CASES:
        path = data / relative
        if not path.exists() or (needs_text and text is None):
            continue
        options = ReadOptions(text=text if needs_text else None, no_wiki=name == "amr",
                              wsj_ids=name == "amr")
        best = float("inf")
        graphs = 0
        for _ in range(max(1, repeat)):
            with warnings.catch_warnings():  # what a reader says of a file (a UMR file's problems) is no row
                warnings.simplefilter("ignore")
                started = time.perf_counter()
                corpus = read_corpus(str(path), name, options)
                best = min(best, time.perf_counter() - started)
            graphs = len(corpus.graphs)
        rows.append({
            "reader": name,
            "file": relative,
            "graphs": graphs,
            "seconds": round(best, 4),
            "graphs_per_s": round(graphs / best, 1) if best > 0 else float("inf"),
        })
    return rows


def table(rows: List[Dict[str, Union[str, int, float]]]) -> str:
    """The rows as a fixed-width text table."""
    header = f"{'reader':<7} {'file':<26} {'graphs':>7} {'seconds':>9} {'graphs/s':>10}"
    body = [
        f"{row['reader']:<7} {row['file']:<26} {row['graphs']:>7} {row['seconds']:>9.4f} "
        f"{row['graphs_per_s']:>10.1f}"
        for row in rows
    ]
    return "\n".join([header] + body)


if __name__ == "__main__":
    default = Path(__file__).resolve().parents[1].parent / "shared"
    print(table(run(Path(sys.argv[1]) if len(sys.argv) > 1 else default)))
