"""validate.py's reports (``--print-relations``, ``--print-clusters``, ``--print-temporal``) and ``--quiet``
on the shared UMR files and tests/data/umr_reports: what the references keep and how they were made.

validate.py lists a node's incoming relations in the order of a Python set of variables, which changes from
run to run (PYTHONHASHSEED); mrp lists them in the order their sources are defined.  The references keep the
reports with each run of ``  Relation in`` lines sorted (:func:`canonical`), as digests for the shared files.
Made with ufal/umrtools 4377bc4 and Python 3.11 (its ``regex`` package installed, ``requests`` not, so that
no Wikidata label is fetched):
``python tests/umr_reports.py UMRTOOLS_DIR PYTHON ../shared > tests/data/umr_reports/reference.json``."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

HERE = Path(__file__).parent / "data" / "umr_reports"
#: the shared files (under data/umr) and the hand-made ones (tests/data/umr_reports)
SHARED = ["czech-pdtc/dtest-conv.umr", "czech-pdtc/dtest-gold.umr", "czech-pdtc/pcedt-conv.umr",
          "czech-pdtc/pcedt-gold.umr", "czech-pdtc/pdt-conv.umr", "czech-pdtc/pdt-gold.umr",
          "czech-pdtc/pdtsc-conv.umr", "czech-pdtc/pdtsc-gold.umr", "english/english_umr-0001.umr",
          "ancast-samples/umr_gold.txt", "ancast-samples/umr_test.txt"]
HAND_MADE = ["timeline.umr"]
REPORTS = ["--level", "3", "--print-relations", "--print-clusters", "--print-temporal"]
#: the runs whose stderr is kept whole with --quiet (validate.py still says which classes it suppresses)
QUIET = [["--quiet"], ["--quiet", "--level", "3", "--max-err", "3"]]


def canonical(text: str) -> str:
    """A report with each run of consecutive ``  Relation in`` lines sorted."""
    out: List[str] = []
    run: List[str] = []
    for line in text.split("\n"):
        if line.startswith("  Relation in "):
            run.append(line)
            continue
        out += sorted(run) + [line]
        run = []
    return "\n".join(out + sorted(run))


def digest(text: str) -> str:
    """What the reference keeps of a report."""
    return hashlib.sha256(canonical(text).encode("utf-8")).hexdigest()


def _run(command: List[str], options: List[str], path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*command, *options, str(path)], capture_output=True, text=True)


def reference(command: List[str], shared: Path) -> Dict[str, Dict[str, object]]:
    """validate.py's reports (digests) and its --quiet stderr, file by file."""
    found: Dict[str, Dict[str, object]] = {}
    paths = {name: shared / "data" / "umr" / name for name in SHARED}
    paths.update({name: HERE / name for name in HAND_MADE})
    for name, path in paths.items():
        found[name] = {"reports": digest(_run(command, REPORTS, path).stdout),
                       "quiet": [_run(command, options, path).stderr for options in QUIET]}
    return found


if __name__ == "__main__":
    tools, python, shared_dir = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    print(json.dumps({"umrtools": "4377bc4",
                      "files": reference([python, str(tools / "validate.py")], shared_dir)}, indent=1))
