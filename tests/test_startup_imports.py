"""What a warm ``mrp-score`` imports before it reads a file (issue 64: start-up): a run that names no
metric option imports no metric module to parse its arguments."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT

_PARSED = """
import json, sys
from mrp.cli.score_args import parser
from mrp.pipeline import metric_keywords
args = parser([]).parse_args(["--gold", "gold.mrp", "system.mrp"])
print(json.dumps({"system": args.system, "none": metric_keywords([]),
                  "metrics": sorted(m for m in sys.modules if m.startswith("mrp.metrics."))}))
"""


def test_parsing_a_run_without_metric_options_imports_no_metric_module() -> None:
    code = [sys.executable, "-c", _PARSED]
    run = subprocess.run(code, capture_output=True, cwd=ROOT, check=True, timeout=300)
    out = json.loads(run.stdout)
    assert out["system"] == ["system.mrp"] and out["none"] == []
    assert [m for m in out["metrics"] if m != "mrp.metrics.registry"] == []


def test_the_flags_of_named_metrics_still_come_from_the_whole_table() -> None:
    from mrp.pipeline import metric_keywords
    from mrp.pipeline.keywords import keywords

    table = keywords()
    for names in (["mrp"], ["ancast"], ["smatch", "ancast"], None):
        found = metric_keywords(names)
        assert found and all(table[keyword.name] is keyword for keyword in found)
