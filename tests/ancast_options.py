"""AnCast 0.1.1's figures under its other options, for tests/test_ancast_options.py: per pair (sentence
scope) with ``-c``, ``-sc``, ``--separate-1-and-2``, ``--use-alignment`` and ``--use-smatch-top false``, per
pair and document (document scope) with ``--use-alignment`` and ``--allow-reify`` (``--allow-reify`` per pair
at sentence scope too: AnCast's figures with it are those without it, see mrp.metrics.ancast.knobs), and
AnCast++'s mean
over documents with ``--weighted snts|toks``.  Made with ancast 0.1.1 (PyPI), Python 3.11, from ../shared:
``python tests/ancast_options.py ANCAST_PYTHON ../shared > tests/data/ancast/options.json``.  The pairs come
from the shared reference driver (reference/ancast/tools/ancast_ref.py, AnCast's own CLI code run with hooks
that observe); the weighted means from AnCast's ``evaluate_doc(weighted=...)``, since its 0.1.1 command line
passes ``--weighted`` under a name that function does not take (the CLI's mean is unweighted whatever is
asked)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List

SAMPLES = "data/umr/ancast-samples/"
PDT = "data/umr/czech-pdtc/"
#: run name -> (data format, test file, gold file, AnCast options, the same as mrp's parameters)
RUNS: Dict[str, Any] = {
    "amr.c2": ("amr", SAMPLES + "amr_test.txt", SAMPLES + "amr_gold.txt", ["-c", "2"],
               {"ancast_cneighbor": 2}),
    "amr.notop": ("amr", SAMPLES + "amr_test.txt", SAMPLES + "amr_gold.txt", ["--use-smatch-top", "false"],
                  {"ancast_no_smatch_top": True}),
    "umr.c0": ("umr", SAMPLES + "umr_test.txt", SAMPLES + "umr_gold.txt", ["-c", "0"],
               {"ancast_cneighbor": 0}),
    "umr.notop": ("umr", SAMPLES + "umr_test.txt", SAMPLES + "umr_gold.txt", ["--use-smatch-top", "false"],
                  {"ancast_no_smatch_top": True}),
    "pdt.c2": ("umr", PDT + "pdt-conv.umr", PDT + "pdt-gold.umr", ["-c", "2"], {"ancast_cneighbor": 2}),
    "pdt.c0": ("umr", PDT + "pdt-conv.umr", PDT + "pdt-gold.umr", ["-c", "0"], {"ancast_cneighbor": 0}),
    "pdt.sep": ("umr", PDT + "pdt-conv.umr", PDT + "pdt-gold.umr", ["--separate-1-and-2"],
                {"ancast_separate_1_and_2": True}),
    "pcedt.sep": ("umr", PDT + "pcedt-conv.umr", PDT + "pcedt-gold.umr", ["--separate-1-and-2"],
                  {"ancast_separate_1_and_2": True}),
    "amr.sc5": ("amr", SAMPLES + "amr_test.txt", SAMPLES + "amr_gold.txt", ["-sc", "0.5"],
                {"ancast_sense_coefficient": 0.5}),
    "pdt.sc5": ("umr", PDT + "pdt-conv.umr", PDT + "pdt-gold.umr", ["-sc", "0.5"],
                {"ancast_sense_coefficient": 0.5}),
    "pdt.sc0": ("umr", PDT + "pdt-conv.umr", PDT + "pdt-gold.umr", ["-sc", "0"],
                {"ancast_sense_coefficient": 0.0}),
    "pdt.al": ("umr", PDT + "pdt-conv.umr", PDT + "pdt-gold.umr", ["--use-alignment"],
               {"ancast_use_alignment": True}),
    "amr.reify": ("amr", SAMPLES + "amr_test.txt", SAMPLES + "amr_gold.txt", ["--allow-reify"],
                  {"ancast_allow_reify": True}),
    "umr.reify": ("umr", SAMPLES + "umr_test.txt", SAMPLES + "umr_gold.txt", ["--allow-reify"],
                  {"ancast_allow_reify": True}),
    "pdt.reify": ("umr", PDT + "pdt-conv.umr", PDT + "pdt-gold.umr", ["--allow-reify"],
                  {"ancast_allow_reify": True}),
}
#: document-scope runs: name -> (test, gold, AnCast options, mrp's parameters); the Czech ones on the shared
#: reference's documents (one file each, the multi-span alignments cut to their first span, as AnCast++ needs)
DOC_RUNS: Dict[str, Any] = {
    "samples.al": (SAMPLES + "umr_test.txt", SAMPLES + "umr_gold.txt", ["--use-alignment"],
                   {"ancast_use_alignment": True}),
    "pdt.al": ("reference/ancast/czech-pdtc/docs/pdt/conv", "reference/ancast/czech-pdtc/docs/pdt/gold",
               ["--use-alignment"], {"ancast_use_alignment": True}),
    "samples.reify": (SAMPLES + "umr_test.txt", SAMPLES + "umr_gold.txt", ["--allow-reify"],
                      {"ancast_allow_reify": True}),
    "pdt.reify": ("reference/ancast/czech-pdtc/docs/pdt/conv", "reference/ancast/czech-pdtc/docs/pdt/gold",
                  ["--allow-reify"], {"ancast_allow_reify": True}),
}
#: mrp's parameters that change no figure (AnCast's --allow-reify: AnCast 0.1.1 never applies its tables)
NO_EFFECT = {"ancast_allow_reify"}
FIELDS = [key + suffix for key in ("concept", "lrm", "ulrm", "wlrm", "smatch") for suffix in ("_p", "_r", "")]
DOCS = "reference/ancast/czech-pdtc/docs/"
#: the document runs (directories of the shared reference, one file per document)
WEIGHTED = {"pdt": ["pdt"], "dtest": ["pdt", "pdtsc", "pcedt"]}


def _pairs(python: str, shared: Path) -> Dict[str, List[Dict[str, Any]]]:
    found = {}
    driver = shared / "reference" / "ancast" / "tools" / "ancast_ref.py"
    with tempfile.TemporaryDirectory() as directory:
        for name, (form, test, gold, options, _) in RUNS.items():
            out = Path(directory) / name
            subprocess.run([python, str(driver), str(out), "--", "-p", test, "-g", gold, "-s", "snt", "-df",
                            form, *options, "-o", str(out) + ".csv"], cwd=shared, check=True,
                           capture_output=True, env=dict(os.environ, PYTHONHASHSEED="0"))
            records = [json.loads(line) for line in open(str(out) + ".pairs.jsonl", encoding="utf-8")]
            found[name] = [{"pair": r["pair"], **{k: r[k] for k in FIELDS}} for r in records
                           if "skipped" not in r]
    return found


def _documents(python: str, shared: Path) -> Dict[str, Any]:
    found: Dict[str, Any] = {}
    driver = shared / "reference" / "ancast" / "tools" / "ancast_ref.py"
    with tempfile.TemporaryDirectory() as directory:
        for name, (test, gold, options, _) in DOC_RUNS.items():
            out = Path(directory) / name
            subprocess.run([python, str(driver), str(out), "--", "-p", test, "-g", gold, "-s", "doc", "-df",
                            "umr", *options, "-o", str(out) + ".csv"], cwd=shared, check=True,
                           capture_output=True, env=dict(os.environ, PYTHONHASHSEED="0"))
            records = [json.loads(line) for line in open(str(out) + ".pairs.jsonl", encoding="utf-8")]
            documents = [json.loads(line) for line in open(str(out) + ".docs.jsonl", encoding="utf-8")]
            found[name] = {"pairs": [{"pair": r["pair"], **{k: r[k] for k in FIELDS}} for r in records],
                           "documents": [{key: d[key]["f"] for key in ("sent", "modal", "temporal", "coref",
                                                                       "comp")} for d in documents]}
    return found


def _weighted(python: str, shared: Path) -> Dict[str, Dict[str, Any]]:
    code = ("import sys, json, logging; logging.disable(logging.CRITICAL); import ancast.evaluate; "
            "ev = sys.modules['ancast.evaluate']; "
            "r = ev.evaluate_doc(pred_inputs=sys.argv[1].split(), gold_inputs=sys.argv[2].split(), "
            "weighted=sys.argv[3]); print(json.dumps({k: float(v) for k, v in r.items()}))")
    found = {}
    for run, corpora in WEIGHTED.items():
        for by in ("snts", "toks"):
            test = " ".join(DOCS + corpus + "/conv" for corpus in corpora)
            gold = " ".join(DOCS + corpus + "/gold" for corpus in corpora)
            done = subprocess.run([python, "-c", code, test, gold, by], cwd=shared, check=True,
                                  capture_output=True, text=True, env=dict(os.environ, PYTHONHASHSEED="0"))
            found[f"{run}.{by}"] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


if __name__ == "__main__":
    ancast_python, shared_dir = sys.argv[1], Path(sys.argv[2])
    print(json.dumps({"ancast": "0.1.1", "pairs": _pairs(ancast_python, shared_dir),
                      "documents": _documents(ancast_python, shared_dir),
                      "weighted": _weighted(ancast_python, shared_dir)}, indent=1))
