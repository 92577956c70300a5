"""mrp-score --explain and mrp-convert --to html: the report parsed back (html.parser), its tuples and numbers
against the JSON result, hostile labels, a single pair's page, large graphs as text, and refusals."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

from mrp.engine.options import Options
from mrp.explain.model import NodeView, PairView, SideView, figures
from mrp.explain.page import pair_html
from mrp.explain.svg import TEXT_VIEW

from conftest import run_cli

HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(2)>', "javascript:alert(3)",
           "</script><script>alert(4)</script>", "<!--", "' onmouseover='alert(5)", "\u2028x\u2029"]


class Page(HTMLParser):
    """Every element as (tag, attributes, text inside it), and the raw script blocks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: List[Tuple[str, Dict[str, Optional[str]], List[str]]] = []
        self.open: List[int] = []
        self.scripts: List[Tuple[Dict[str, Optional[str]], str]] = []
        self.in_script: Optional[Dict[str, Optional[str]]] = None

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        self.elements.append((tag, dict(attrs), []))
        if tag == "script":
            self.in_script = dict(attrs)
            self.scripts.append((self.in_script, ""))
        if tag not in ("meta", "input", "path", "rect", "br"):
            self.open.append(len(self.elements) - 1)

    def handle_startendtag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        self.elements.append((tag, dict(attrs), []))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.in_script = None
        for k in range(len(self.open) - 1, -1, -1):
            if self.elements[self.open[k]][0] == tag:
                del self.open[k:]
                break

    def handle_data(self, data: str) -> None:
        if self.in_script is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)
        for k in self.open:
            self.elements[k][2].append(data)

    def with_class(self, name: str, tag: Optional[str] = None, pairs: bool = True) -> List[str]:
        """The text of every element of a class (and tag); ``pairs``: in the pairs' pages only (not in the
        legend)."""
        first = next((k for k, (t, _, _) in enumerate(self.elements) if t == "article"), 0) if pairs else 0
        return ["".join(text) for t, attrs, text in self.elements[first:]
                if name in (attrs.get("class") or "").split() and (tag is None or t == tag)]


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def _embedded(page: Page) -> str:
    """The text of the page's JSON block."""
    return [text for attrs, text in page.scripts if attrs.get("type") == "application/json"][0]


def _graph(gid: str, labels: List[str], edges: List[Tuple[int, int, str]], text: str = "a b c",
           properties: Optional[Dict[int, Dict[str, str]]] = None) -> str:
    nodes = []
    for k, label in enumerate(labels):
        node: Dict[str, Any] = {"id": k, "label": label}
        if properties and k in properties:
            node["properties"] = list(properties[k])
            node["values"] = list(properties[k].values())
        nodes.append(node)
    return json.dumps({"id": gid, "framework": "amr", "flavor": 2, "version": 1.1, "time": "2024-01-01",
                       "input": text, "tops": [0], "nodes": nodes,
                       "edges": [{"source": a, "target": b, "label": lab} for a, b, lab in edges]})


@pytest.fixture
def pair_files(tmp_path: Path) -> Tuple[Path, Path]:
    gold = tmp_path / "gold.mrp"
    system = tmp_path / "system.mrp"
    second = _graph("p2", ["dog", "bark-01"], [(1, 0, "ARG0")], "Dogs bark.") + "\n"
    gold.write_text(_graph("p1", ["want-01", "boy", "go-02"],
                           [(0, 1, "ARG0"), (0, 2, "ARG1"), (2, 1, "ARG0")],
                           "The boy wants to go.", {2: {"polarity": "-"}}) + "\n" + second, encoding="utf-8")
    system.write_text(_graph("p1", ["want-01", "boy", "leave-11", "girl"],
                             [(0, 1, "ARG0"), (0, 2, "ARG1"), (2, 3, "ARG0")], "The boy wants to go.") + "\n"
                      + second, encoding="utf-8")
    return gold, system


@pytest.mark.parametrize("metric", ["mrp", "smatch", "unlabeled", "ancast"])
def test_every_tuple_appears_with_its_class_and_the_numbers_equal_the_json(
        pair_files: Tuple[Path, Path], tmp_path: Path, metric: str) -> None:
    gold, system = pair_files
    report = tmp_path / "report.html"
    done = run_cli("score", ["--quiet", "--trace", "--score", metric, "--explain", str(report),
                             "--explain-id", "p1", "--gold", str(gold), str(system)])
    assert done.code == 0, done.err
    result = json.loads(done.out)
    item = result["scores"]["amr"]["p1"]
    page = parse(report)
    lists = {status: page.with_class(status, "li") for status in ("matched", "missed", "surplus")}
    if metric == "ancast":
        assert lists["missed"] and lists["surplus"] and lists["matched"]
        shown = page.with_class("pf", "p")[0]
        assert f"F {item['lrm']['f']:.4f}" in shown
        return
    counts = item["all"] if "all" in item else item
    g, s, c = counts["g"], counts["s"], counts["c"]
    assert (len(lists["matched"]), len(lists["missed"]), len(lists["surplus"])) == (c, g - c, s - c)
    # each tuple is drawn in the pictures with the same class (a node's row, or an arrow): once per side
    # when matched, else once
    drawn = {status: page.with_class(status, "text") + page.with_class(status, "g")
             for status in ("matched", "missed", "surplus")}
    assert (len(drawn["matched"]), len(drawn["missed"]), len(drawn["surplus"])) == (2 * c, g - c, s - c)
    assert all(text.startswith("\u2212 ") for text in lists["missed"])  # a sign, not colour alone
    assert all(text.startswith("+ ") for text in lists["surplus"])
    assert all("\u2212 " in text for text in drawn["missed"])
    assert all("+ " in text for text in drawn["surplus"])
    if metric in ("mrp", "smatch"):
        assert any("go-02" in text for text in lists["missed"])
        assert any("leave-11" in text for text in lists["surplus"])
        assert any("girl" in text for text in drawn["surplus"])
    shown = page.with_class("pf", "p")[0]
    assert f"g {g} \u00b7 s {s} \u00b7 c {c} \u00b7 F {2 * c / (g + s):.4f}" in shown
    # the system's extra node has no counterpart
    assert any("unaligned" in text for text in page.with_class("b"))


def test_the_pair_table_carries_the_json_numbers(pair_files: Tuple[Path, Path], tmp_path: Path) -> None:
    gold, system = pair_files
    report = tmp_path / "report.html"
    done = run_cli("score", ["--quiet", "--trace", "--explain", str(report), "--gold", str(gold),
                             str(system)])
    assert done.code == 0, done.err
    result = json.loads(done.out)
    page = parse(report)
    rows = [(attrs["data-id"], "".join(text)) for tag, attrs, text in page.elements
            if tag == "tr" and attrs.get("data-id")]
    assert [gid for gid, _ in rows] == ["p1", "p2"]  # worst first
    cells: Dict[str, List[str]] = {}
    current = None
    for tag, attrs, text in page.elements:
        if tag == "tr":
            current = attrs.get("data-id")
        elif tag == "td" and current:
            cells.setdefault(current, []).append("".join(text))
    for gid, row in cells.items():
        item = result["scores"]["amr"][gid]["all"]
        f = 2 * item["c"] / (item["g"] + item["s"])
        assert row[2:6] == [str(item["g"]), str(item["s"]), str(item["c"]), f"{f:.4f}"]
    templates = [attrs["data-id"] for tag, attrs, _ in page.elements if tag == "template"]
    assert templates == ["p1", "p2"]
    embedded = [text for attrs, text in page.scripts if attrs.get("type") == "application/json"]
    assert json.loads(embedded[0])["all"] == result["all"]
    assert len(page.with_class("pair", "article")) == 2


def test_hostile_labels_cannot_run_or_load_anything(tmp_path: Path) -> None:
    gold, system = tmp_path / "gold.mrp", tmp_path / "system.mrp"
    bad = HOSTILE
    gold.write_text(_graph(bad[3], [bad[0], bad[1], bad[2]], [(0, 1, bad[3]), (0, 2, bad[5])],
                           bad[4] + bad[0],
                           {1: {bad[1]: bad[3]}}) + "\n", encoding="utf-8")
    system.write_text(_graph(bad[3], [bad[0], bad[2], bad[6]], [(0, 1, bad[1]), (1, 2, bad[0])],
                             bad[4] + bad[0]) + "\n", encoding="utf-8")
    report = tmp_path / "report.html"
    done = run_cli("score", ["--quiet", "--trace", "--score", "smatch", "--explain", str(report), "--gold",
                             str(gold), str(system)])
    assert done.code == 0, done.err
    converted = tmp_path / "graphs.html"
    assert run_cli("convert", ["--to", "html", str(gold), str(converted)]).code == 0
    for path in (report, converted):
        raw = path.read_text(encoding="utf-8")
        page = parse(path)
        tags = [tag for tag, _, _ in page.elements]
        assert "img" not in tags and "iframe" not in tags and "object" not in tags and "a" in tags
        assert tags.count("script") == 2 and tags.count("style") == 1
        assert raw.count("</script") == 2 and raw.lower().count("<script") == 2
        policy = [attrs["content"] for tag, attrs, _ in page.elements
                  if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy"]
        assert len(policy) == 1 and policy[0] is not None
        assert "default-src 'none'" in policy[0] and "'unsafe-inline'" not in policy[0]
        scripts = [attrs for attrs, _ in page.scripts if attrs.get("type") != "application/json"]
        assert len(scripts) == 1 and f"'nonce-{scripts[0]['nonce']}'" in policy[0]
        for tag, attrs, _ in page.elements:
            for name, value in attrs.items():
                assert not name.startswith("on"), (tag, name)
                assert name != "style" and name != "src"
                if name == "href":
                    assert value is not None and value.startswith("#"), value
        data = json.loads(_embedded(page))
        assert isinstance(data, dict)
        # the strings arrive intact as text
        texts = "".join("".join(text) for _, _, text in page.elements)
        for word in (bad[0], bad[1], bad[2]):
            assert word in texts
    data = json.loads(_embedded(parse(report)))
    assert list(data["scores"]["amr"]) == [bad[3]]  # "</script>..." in the embedded JSON, read back intact


def test_a_single_pair_page_and_refusals(pair_files: Tuple[Path, Path], tmp_path: Path) -> None:
    gold, system = pair_files
    report = tmp_path / "one.html"
    done = run_cli("score", ["--quiet", "--explain", str(report), "--explain-id", "p2", "--gold", str(gold),
                             str(system)])
    assert done.code == 0 and done.out.startswith("{")
    page = parse(report)
    assert [tag for tag, _, _ in page.elements].count("template") == 0
    assert len(page.with_class("pair", "article")) == 1 and "Dogs bark." in page.with_class("snt")[0]
    for args, message in ((["--explain-id", "p2"], "needs --explain"),
                          (["--explain", str(report), "--explain-id", "nope"], "no gold graph of that id"),
                          (["--explain", "-"], "standard output"),
                          (["--score", "edm", "--explain", str(report)], "align(s) no nodes")):
        done = run_cli("score", [*args, "--gold", str(gold), str(system)])
        assert done.code == 2 and message in done.err and done.out == "", (args, done.err)


def test_large_graphs_are_shown_as_text() -> None:
    side = SideView("gold", [NodeView(k, f"n{k}") for k in range(TEXT_VIEW + 1)])
    view = PairView(0, "big", "amr", "", figures(None, None, {}, {}), side, SideView("system"))
    html = pair_html(view)
    assert 'class="tv"' in html and '<svg class="g"' not in html
    small = PairView(0, "small", "amr", "", figures(None, None, {}, {}),
                     SideView("gold", [NodeView(0, "a")]), SideView("system"))
    assert '<svg class="g"' in pair_html(small)


def test_plain_scoring_collects_no_detail(pair_files: Tuple[Path, Path]) -> None:
    from mrp.corpora.load import read_corpus
    from mrp.engine import driver
    from mrp.engine.pairing import pair
    from mrp.metrics.registry import metric

    gold, system = pair_files
    pairing = pair(read_corpus(str(gold)), read_corpus(str(system)))
    for name in ("mrp", "smatch"):
        plain, _ = driver.run(metric(name), pairing, Options())
        assert all(result.detail is None for result in plain.results)
        explained, _ = driver.run(metric(name), pairing, Options(explain=True))
        assert all(result.detail is not None for result in explained.results)
