"""The --explain report of juːmæʧ: each node's concept and relations and each document-level relation shown
matched, missed or surplus by the rules that count them, so the lists add up to the pair's g, s and c
(exact map and compare_umr.pl's greedy one), on a hand-made document and on the shared Czech files."""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from mrp.corpora.load import read_corpus
from mrp.engine import driver
from mrp.engine.options import Options
from mrp.engine.pairing import pair
from mrp.metrics.registry import metric

from conftest import ROOT, run_cli, shared_file

DATA = ROOT / "tests" / "data" / "umatch"


def _lists(page: str) -> List[Tuple[str, str]]:
    """(class, text) of every item of the pages' tuple lists."""
    out: List[Tuple[str, str]] = []
    for block in re.findall(r'<div class="lists">(.*?)</div>', page, re.S):
        found = re.findall(r'<li class="(\w+)">(.*?)</li>', block)
        out += [(cls, html.unescape(text)) for cls, text in found]
    return out


@pytest.mark.parametrize("mode", [[], ["--umatch-compat"]])
def test_the_lists_add_up_to_the_counts(tmp_path: Path, mode: List[str]) -> None:
    report = tmp_path / "report.html"
    done = run_cli("score", ["--quiet", "--trace", "--score", "umatch", *mode, "--explain", str(report),
                             "--gold", str(DATA / "gold.umr"), str(DATA / "system.umr")])
    assert done.code == 0, done.err
    result = json.loads(done.out)
    g, s, c = (result["umatch"][k] for k in ("g", "s", "c"))
    items = _lists(report.read_text(encoding="utf-8"))
    found = Counter(cls for cls, _ in items)
    assert (found["matched"], found["missed"], found["surplus"]) == (c, g - c, s - c) == (15, 7, 4)
    said: Dict[str, str] = {text[2:]: cls for cls, text in items}
    assert said["s1s: aspect performance"] == "missed"  # an attribute of mapped nodes that differs
    assert said["s1x: aspect state"] == "surplus"
    assert said["s1s \u2014ARG1\u2192 s1m"] == "missed"  # a relation, drawn as an arrow
    assert said["s1p \u2014name\u2192 s1n"] == "matched"
    assert said["author :full-affirmative s1s"] == "missed"  # document level
    assert said["author :partial-affirmative s1x"] == "surplus"
    assert said["s2p :same-entity s1m"] == "matched"  # an end in an earlier sentence, mapped there
    # the UMR annotation beside the pictures says the same of the document-level relations
    page = report.read_text(encoding="utf-8")
    assert 'class="missed">\u2212 modal: (author :full-affirmative s1s)' in html.unescape(page)


@pytest.mark.parametrize("compat", [False, True])
@pytest.mark.parametrize("name", ["pdt", "pcedt"])
def test_every_shared_pair_adds_up(name: str, compat: bool) -> None:
    gold = read_corpus(str(shared_file("data/umr/czech-pdtc", f"{name}-gold.umr")), "umr")
    system = read_corpus(str(shared_file("data/umr/czech-pdtc", f"{name}-conv.umr")), "umr")
    pairing = pair(gold, system, None)
    run, _ = driver.run(metric("umatch"), pairing, Options(explain=True, umatch_compat=compat, timeout=60))
    kinds: Counter = Counter()  # type: ignore[type-arg]
    for result in run.results:
        g, s, c = result.counts[("umatch",)]
        status = Counter(fact.status for fact in result.detail.facts)
        assert (status["matched"], status["matched"] + status["missed"],
                status["matched"] + status["surplus"]) == (c, g, s)
        assert len({gold for gold, _ in result.detail.correspondence}) == len(result.detail.correspondence)
        kinds.update(fact.kind for fact in result.detail.facts)
    assert set(kinds) == {"concept", "relation", "attribute", "document"}


def test_plain_scoring_draws_nothing() -> None:
    gold = read_corpus(str(DATA / "gold.umr"), "umr")
    system = read_corpus(str(DATA / "system.umr"), "umr")
    run, _ = driver.run(metric("umatch"), pair(gold, system, None), Options(timeout=60))
    assert all(result.detail is None for result in run.results)
