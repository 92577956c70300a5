"""detailed_results.html: self-contained under the --explain report's Content-Security-Policy (every style and
script under the page's nonce, no inline style attribute, nothing loaded), its tables, plots (matplotlib, or
a note without it), each team's worst sentences drawn, and in headless Chromium its script runs without an
error."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict

import pytest

from mrp.task import plots
from mrp.task.board import board
from mrp.task.definition import load
from mrp.task.evaluate import evaluate_submissions
from mrp.task.page import detailed_page

from conftest import ROOT

DEMO = ROOT / "data" / "demo" / "task"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Any]:
    work = tmp_path_factory.mktemp("work")
    evaluation = evaluate_submissions(load("dmr2026-umr"), str(DEMO / "gold"),
                                      [str(DEMO / "team-a"), f"baseline={DEMO / 'team-b'}"], str(work))
    return {"evaluation": evaluation, "board": board(evaluation)}


def _policy_kept(page: str) -> None:
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    assert policy is not None and "default-src &#39;none&#39;" in policy.group(1)
    key = re.search(r"nonce-([A-Za-z0-9_-]+)", policy.group(1))
    assert key is not None
    for tag in re.findall(r"<(?:script|style)\b[^>]*>", page):
        assert f'nonce="{key.group(1)}"' in tag or 'type="application/json"' in tag, tag
    assert not re.search(r"\sstyle=\"", page)  # the policy would block an inline style attribute
    assert not re.search(r"\s(?:src|href)=\"(?:https?:|//)", page)


def test_the_page_is_self_contained_with_tables_and_pictures(demo: Dict[str, Any]) -> None:
    page = detailed_page(demo["evaluation"], demo["board"])
    _policy_kept(page)
    assert page.count('<table class="fig"><caption>umatch: ') == 2  # one table per language
    assert "<caption>umatch_exact: en</caption>" in page
    assert page.count('<article class="pair"') >= 2 and '<svg class="g"' in page  # worst sentences drawn
    assert "Baseline: baseline." in page and "signature umatch" in page


def test_plots_are_inline_svg_with_matplotlib_and_a_note_without(demo: Dict[str, Any],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plots, "available", lambda: False)
    page = detailed_page(demo["evaluation"], demo["board"])
    assert "Plots need matplotlib" in page and "<figure class=\"plot\">" not in page
    monkeypatch.undo()
    pytest.importorskip("matplotlib")
    page = detailed_page(demo["evaluation"], demo["board"])
    _policy_kept(page)
    assert page.count('<figure class="plot"><svg') == 2


def test_the_page_runs_in_chromium(demo: Dict[str, Any], tmp_path: Path) -> None:
    from test_explain_browser import browse, chromium, ran

    chromium()
    path = tmp_path / "detailed_results.html"
    path.write_text(detailed_page(demo["evaluation"], demo["board"]), encoding="utf-8")
    dom = browse(path.resolve().as_uri(), "--dump-dom")
    assert ran(dom)
    assert "team-a" in dom and "<svg" in dom


def _unkeyed(page: str) -> str:
    return re.sub(r"nonce-[A-Za-z0-9_-]+|nonce=\"[A-Za-z0-9_-]+\"", "NONCE", page)


@pytest.mark.parametrize("child", ["computes", "fails"])
def test_the_page_is_the_same_with_its_costly_parts_computed_in_a_child(
        demo: Dict[str, Any], child: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """mrp-evaluate draws the page's tables and worst sentences in a forked child while it ranks the board:
    the same page; a child that fails leaves them to the page, which computes them itself."""
    from mrp.process.forked import can_fork
    from mrp.task import page as pages

    if not can_fork():
        pytest.skip("this platform (or a thread of this process) keeps mrp from forking")
    evaluation, found = demo["evaluation"], demo["board"]
    if child == "fails":
        def failing(evaluation: Any) -> Any:
            raise RuntimeError("the child fails")
        monkeypatch.setattr(pages, "costly_parts", failing)
    with pages.PagesAhead(evaluation, jobs=2) as ahead:
        made = ahead.parts()
        page = detailed_page(evaluation, found, made=made)
    expected = len(evaluation.task.metrics) * len(evaluation.groups) + len(evaluation.scored())
    assert len(made) == (expected if child == "computes" else 0)
    assert _unkeyed(page) == _unkeyed(detailed_page(evaluation, found))
    assert "<svg" in page and "95% CI" in page


def test_the_pages_read_no_unpacked_file_once_the_evaluation_is_done(tmp_path: Path) -> None:
    """mrp-evaluate removes the unpacked files (a thread, while the board ranks and the pages are drawn:
    mrp.task.unpack.cleared_meanwhile): every file is read through the evaluation's memo, so the board,
    the results and the page are the same without them."""
    import tarfile

    from mrp.task.outputs import results
    from mrp.task.unpack import cleared_meanwhile

    teams = []
    for team in ("team-a", "team-b"):
        with tarfile.open(tmp_path / f"{team}.tgz", "w:gz") as archive:
            for path in sorted((DEMO / team).iterdir()):
                archive.add(path, path.name)
        teams.append(f"{team}={tmp_path / f'{team}.tgz'}")
    found = {}
    for work, clear in (("kept", False), ("cleared", True)):
        folder = tmp_path / work
        folder.mkdir()
        evaluation = evaluate_submissions(load("dmr2026-umr"), str(DEMO / "gold"), teams, str(folder))
        assert any(path.is_file() for path in (tmp_path / work).rglob("*"))  # unpacked there
        if clear:
            with cleared_meanwhile(str(tmp_path / work)):
                pass
            assert (tmp_path / work).is_dir() and not any((tmp_path / work).iterdir())
        ranked = board(evaluation)
        found[work] = (_unkeyed(detailed_page(evaluation, ranked)), results(evaluation, ranked))
    assert "<svg" in found["kept"][0]  # the worst sentences drawn
    assert found["cleared"] == found["kept"]


def test_a_costly_part_whose_computation_warns_is_left_to_the_page(demo: Dict[str, Any],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A warning a forked child gives is lost: a part whose computation warned is left out, and the page
    computes it itself, giving the warning where it would have."""
    import warnings

    from mrp.task import page as pages

    real = pages._worst

    def warning(evaluation: Any, entry: Any, participant: bool = False) -> str:
        warnings.warn("drawing said something", UserWarning, stacklevel=1)
        return real(evaluation, entry, participant)

    monkeypatch.setattr(pages, "_worst", warning)
    evaluation = demo["evaluation"]
    made = pages.costly_parts(evaluation)
    assert made and all(part[0] == "table" for part in made)
    with pytest.warns(UserWarning, match="drawing said something"):
        pages.detailed_page(evaluation, demo["board"], made=made)
