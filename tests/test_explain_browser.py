"""The --explain report in a real browser: headless Chromium opens the report of the shared EDS pairs and of
coli AMR pairs, its script runs without an error (it marks ``<body data-ready="1">``; an error would set
``data-error``, and a script blocked by the page's own policy would leave no mark), the pair table sorts,
a pair opens from the address, and screenshots are taken.

Skipped with a reason where Chromium is absent (``apt-get install chromium``); under ``CI=true`` its
absence is a failure (CI installs it beside Graphviz).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import List

import pytest

from conftest import run_cli, shared_file

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars"]


def chromium() -> str:
    """The Chromium program, or skip (fail under CI=true)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is missing, and CI=true requires it for the browser test")
        pytest.skip("chromium is absent (Debian: apt-get install chromium): no browser test")
    return found


def browse(url: str, *switches: str) -> str:
    """Run Chromium once on a page in a new empty profile; its standard output."""
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *switches, url],
                              capture_output=True, timeout=180)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-2000:]
    return done.stdout.decode("utf-8", "replace")


def ran(dom: str) -> bool:
    """Whether the page's script ran to its end without an error (the marks it leaves on <body>)."""
    body = re.search(r"<body[^>]*>", dom)
    return body is not None and 'data-ready="1"' in body.group(0) and "data-error" not in body.group(0)


def row_ids(dom: str) -> List[str]:
    """The ids of the pair table's rows, in the order the page shows them."""
    body = dom[dom.index('id="pairs"'):]
    body = body[:body.index("</table>")]
    return re.findall(r'<tr data-k="\d+" data-id="([^"]*)"', body)


def report_of(tmp_path: Path, name: str, args: List[str]) -> Path:
    report = tmp_path / f"{name}.html"
    done = run_cli("score", ["--quiet", "--explain", str(report), *args])
    assert done.code == 0, done.err
    return report


@pytest.mark.parametrize("name", ["eds", "amr", "umr"])
def test_the_report_runs_sorts_and_opens_a_pair_in_chromium(tmp_path: Path, name: str) -> None:
    chromium()
    if name == "eds":
        args = ["--gold", str(shared_file("data", "wsj", "eds", "wsj.mrp")),
                str(shared_file("data", "pairs", "eds", "wsj.pet.mrp"))]
    elif name == "umr":  # juːmæʧ on a Czech UMR document: token alignments, document-level relations
        folder = shared_file("data", "umr", "czech-pdtc")
        args = ["--score", "umatch", "--n", "8", "--gold", str(folder / "pdt-gold.umr"),
                str(folder / "pdt-conv.umr")]
    else:
        folder = shared_file("data", "pairs", "amr")
        args = ["--score", "smatch", "--n", "12", "--gold", str(folder / "coli.gold.amr"),
                str(folder / "coli.system.amr")]
    report = report_of(tmp_path, name, args)
    url = report.resolve().as_uri()
    plain = browse(url, "--dump-dom")
    assert ran(plain)
    shown = row_ids(plain)
    assert len(shown) > 1
    # sorted by id, descending, from the address (the same code as a click on the heading)
    target = shown[-1]
    dom = browse(f"{url}#sort=-id&id={target}", "--dump-dom")
    assert ran(dom)
    assert row_ids(dom) == sorted(shown, key=str.lower, reverse=True)
    assert f'data-shown="{target}"' in dom and '<svg class="g"' in dom.split('id="view"', 1)[1]
    # the worst pair first by default, and the column sorts back ascending by F
    dom = browse(f"{url}#sort=f", "--dump-dom")
    assert row_ids(dom) == shown
    screenshot = tmp_path / f"{name}.png"
    browse(f"{url}#id={target}", f"--screenshot={screenshot}", "--window-size=1400,1000")
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and screenshot.stat().st_size > 10_000
