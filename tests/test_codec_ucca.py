"""The UCCA XML codec: each conversion rule on a hand-written passage, a sample passage against the MRP
2019 graph made from it, bad input, and a round trip through mrp-score."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mrp.codecs import ReadOptions, infer_format, reader
from mrp.corpora.load import read_text
from mrp.errors import FormatError
from mrp.graph import Graph, check_references
from mrp.metrics.mrp.pair import score_pair

from conftest import budget, canonical, lines, run_cli
from conftest import shared_file as shared

#: A unit: (id, type, attributes, [(child id, tags, remote)]); tags "A|P" give one category each.
Unit = Tuple[str, str, Dict[str, str], List[Tuple[str, str, bool]]]


def passage(pid: str, tokens: Sequence[str], units: Sequence[Unit], punct: Sequence[int] = ()) -> str:
    """Standard UCCA XML for terminals (1-based positions in ``punct`` are punctuation) and units."""
    out = [f'<root annotationID="0" passageID="{pid}">', "  <attributes />", '  <layer layerID="0">',
           "    <attributes />"]
    for k, token in enumerate(tokens, start=1):
        kind = "Punctuation" if k in punct else "Word"
        out += [f'    <node ID="0.{k}" type="{kind}">',
                f'      <attributes paragraph="1" paragraph_position="{k}" text="{token}" />', "    </node>"]
    out += ["  </layer>", '  <layer layerID="1">', "    <attributes />"]
    for uid, kind, attributes, edges in units:
        attrs = "".join(f' {k}="{v}"' for k, v in attributes.items())
        out += [f'    <node ID="{uid}" type="{kind}">', f"      <attributes{attrs} />"]
        for child, tags, remote in edges:
            first = tags.split("|")[0]
            out.append(f'      <edge toID="{child}" type="{first}">')
            out.append('        <attributes remote="True" />' if remote else "        <attributes />")
            out += [f'        <category tag="{tag}" />' for tag in tags.split("|")]
            out.append("      </edge>")
        out.append("    </node>")
    out += ["  </layer>", "</root>"]
    return "\n".join(out)


def term(*positions: int) -> List[Tuple[str, str, bool]]:
    return [(f"0.{k}", "Terminal", False) for k in positions]


def read_ucca(text: str, table: Optional[Dict[str, str]] = None) -> List[Any]:
    return list(reader("ucca")(lines(text), "<ucca>", ReadOptions(framework="ucca", text=table)))


def one(text: str, table: Optional[Dict[str, str]] = None) -> Graph:
    items = read_ucca(text, table)
    assert len(items) == 1 and isinstance(items[0], Graph), [str(i) for i in items]
    return items[0]


def edges(graph: Graph) -> List[Tuple[int, int, Optional[str], List[str]]]:
    return sorted((e.source, e.target, e.label, e.attributes) for e in graph.edges)


# "John came home and left": scene 1.2 = [A John] [P came] [A home]; [L and]; scene 1.3 = [A* John] [P left]
# with John a remote participant of the second scene, and an implicit unit 1.10.
SCENES: List[Unit] = [
    ("1.1", "FN", {}, [("1.2", "H", False), ("1.3", "H", False), ("1.9", "L", False), ("1.11", "U", False)]),
    ("1.2", "FN", {}, [("1.4", "A", False), ("1.5", "P", False), ("1.6", "A", False)]),
    ("1.3", "FN", {}, [("1.4", "A", True), ("1.7", "P", False), ("1.10", "A", False)]),
    ("1.4", "FN", {}, term(1)),
    ("1.5", "FN", {}, term(2)),
    ("1.6", "FN", {}, term(3)),
    ("1.7", "FN", {}, term(5)),
    ("1.9", "FN", {}, term(4)),
    ("1.10", "FN", {"implicit": "True"}, []),
    ("1.11", "PNCT", {}, term(6)),
]
TOKENS = ["John", "came", "home", "and", "left", "."]


def test_preterminals_first_in_token_order_then_units_by_span() -> None:
    graph = one(passage("p1", TOKENS, SCENES, punct=[6]))
    assert graph.id == "p1" and graph.framework == "ucca" and graph.flavor == 1
    assert graph.input == "John came home and left ."
    # nodes 0..5: the units holding John, came, home, and, left, "." (1.4, 1.5, 1.6, 1.9, 1.7, 1.11)
    assert [n.anchors for n in graph.nodes[:6]] == [[(0, 4)], [(5, 9)], [(10, 14)], [(15, 18)], [(19, 23)],
                                                     [(24, 25)]]
    # then by span: 1.2 (1..3), 1.1 (1..6), 1.3 (5..5: the remote John does not count); 1.10 is implicit
    assert [n.anchors for n in graph.nodes[6:]] == [None, None, None]
    assert len(graph.nodes) == 9
    assert graph.tops == [7]


def test_remote_edges_and_implicit_units() -> None:
    graph = one(passage("p1", TOKENS, SCENES, punct=[6]))
    first, root, second = 6, 7, 8
    assert edges(graph) == sorted([
        (root, first, "H", []), (root, second, "H", []), (root, 3, "L", []), (root, 5, "U", []),
        (first, 0, "A", []), (first, 1, "P", []), (first, 2, "A", []),
        (second, 0, "A", ["remote"]), (second, 4, "P", []),
    ])
    remote = [e for e in graph.edges if e.attributes]
    assert remote[0].values == [True]


def test_units_with_equal_spans_keep_unit_id_order() -> None:
    units: List[Unit] = [
        ("1.1", "FN", {}, [("1.3", "H", False)]),
        ("1.3", "FN", {}, [("1.2", "P", False)]),
        ("1.2", "FN", {}, term(1, 2)),
    ]
    graph = one(passage("p", ["go", "away"], units))
    # 1.2 holds the terminals (node 0, two anchors); 1.1 and 1.3 both span 1..2: 1.1 then 1.3
    assert graph.nodes[0].anchors == [(0, 2), (3, 7)]
    assert edges(graph) == [(1, 2, "H", []), (2, 0, "P", [])]
    assert graph.tops == [1]


def test_several_categories_give_several_edges() -> None:
    units: List[Unit] = [("1.1", "FN", {}, [("1.2", "P|A", False)]), ("1.2", "FN", {}, term(1))]
    graph = one(passage("p", ["director"], units))
    assert edges(graph) == [(1, 0, "A", []), (1, 0, "P", [])]


def test_linkage_is_left_out() -> None:
    units = SCENES + [("1.12", "LKG", {}, [("1.9", "LR", False), ("1.2", "LA", False), ("1.3", "LA", False)])]
    graph = one(passage("p1", TOKENS, units, punct=[6]))
    assert len(graph.nodes) == 9
    assert not any(e.label in ("LR", "LA") for e in graph.edges)
    assert graph.tops == [7]


def test_anchors_follow_the_text_table_with_mtools_fallbacks() -> None:
    units: List[Unit] = [
        ("1.1", "FN", {}, [("1.2", "H", False), ("1.3", "U", False), ("1.4", "U", False)]),
        ("1.2", "FN", {}, term(2, 3)),
        ("1.3", "PNCT", {}, term(1)),
        ("1.4", "PNCT", {}, term(4)),
    ]
    tokens = ["&#8220;", "Hi", "there", "&#8230;"]
    text = "``Hi  there..."
    graph = one(passage("wsj_0002.7", tokens, units, punct=[1, 4]), {"20002007": text})
    assert graph.id == "20002007" and graph.input == text
    # the curly quote is spelled `` and the ellipsis ... in the text; whitespace is skipped
    assert [n.anchors for n in graph.nodes[:3]] == [[(0, 2)], [(2, 4), (6, 11)], [(11, 14)]]


def _gold(gid: str) -> Dict[str, Any]:
    with open(shared("data", "wsj", "ucca", "wsj.mrp"), encoding="utf-8") as stream:
        for line in stream:
            obj = json.loads(line)
            if obj["id"] == gid:
                for edge in obj["edges"]:  # the 2019 sample spells edge attributes "properties"
                    if "properties" in edge:
                        edge["attributes"] = edge.pop("properties")
                return obj
    raise AssertionError(gid)


# Three passages of the MRP 2019 sample, their units written out here from the sample's UCCA XML.
WSJ_0001_1: List[Unit] = [
    ("1.1", "FN", {}, [("1.2", "H", False)]),
    ("1.2", "FN", {}, [("1.3", "A", False), ("1.10", "F", False), ("1.11", "P", False),
                       ("1.12", "A", False), ("1.15", "A", False), ("1.21", "T", False),
                       ("1.23", "U", False), ("1.24", "U", False)]),
    ("1.3", "FN", {}, [("1.4", "C", False), ("1.5", "E", False), ("1.22", "U", False)]),
    ("1.4", "FN", {}, term(1, 2)),
    ("1.5", "FN", {}, [("1.6", "T", False), ("1.9", "S", False)]),
    ("1.6", "FN", {}, [("1.7", "Q", False), ("1.8", "C", False)]),
    ("1.7", "FN", {}, term(4)), ("1.8", "FN", {}, term(5)), ("1.9", "FN", {}, term(6)),
    ("1.10", "FN", {}, term(8)), ("1.11", "FN", {}, term(9)),
    ("1.12", "FN", {}, [("1.13", "F", False), ("1.14", "C", False)]),
    ("1.13", "FN", {}, term(10)), ("1.14", "FN", {}, term(11)),
    ("1.15", "FN", {}, [("1.16", "R", False), ("1.17", "F", False), ("1.18", "E", False),
                        ("1.19", "C", False)]),
    ("1.16", "FN", {}, term(12)), ("1.17", "FN", {}, term(13)), ("1.18", "FN", {}, term(14)),
    ("1.19", "FN", {}, [("1.20", "P|A", False)]),
    ("1.20", "FN", {}, term(15)), ("1.21", "FN", {}, term(16, 17)),
    ("1.22", "PNCT", {}, term(3)), ("1.23", "PNCT", {}, term(7)), ("1.24", "PNCT", {}, term(18)),
]
# 1.9 (E of "our products") has the remote A 1.11; the last token '' is spelled " in the text
WSJ_0003_7: List[Unit] = [
    ("1.1", "FN", {}, [("1.2", "H", False)]),
    ("1.2", "FN", {}, [("1.3", "S", False), ("1.4", "F", False), ("1.5", "D", False),
                       ("1.6", "A", False), ("1.7", "A", False), ("1.12", "T", False),
                       ("1.13", "U", False), ("1.14", "U", False)]),
    ("1.3", "FN", {}, term(1)), ("1.4", "FN", {}, term(2)), ("1.5", "FN", {}, term(3)),
    ("1.6", "FN", {}, term(4)),
    ("1.7", "FN", {}, [("1.8", "R", False), ("1.9", "E", False), ("1.11", "C", False)]),
    ("1.8", "FN", {}, term(5)),
    ("1.9", "FN", {}, [("1.10", "S", False), ("1.11", "A", True)]),
    ("1.10", "FN", {}, term(6)), ("1.11", "FN", {}, term(7)), ("1.12", "FN", {}, term(8)),
    ("1.13", "PNCT", {}, term(9)), ("1.14", "PNCT", {}, term(10)),
]
# the final "." hangs below the E unit 1.9; 1.11 and 1.13 both have the remote A 1.15
WSJ_0001_2: List[Unit] = [
    ("1.1", "FN", {}, [("1.2", "H", False)]),
    ("1.2", "FN", {}, [("1.3", "A", False), ("1.4", "F", False), ("1.5", "S", False), ("1.6", "A", False)]),
    ("1.3", "FN", {}, term(1, 2)), ("1.4", "FN", {}, term(3)), ("1.5", "FN", {}, term(4)),
    ("1.6", "FN", {}, [("1.7", "R", False), ("1.8", "C", False), ("1.9", "E", False), ("1.16", "U", False)]),
    ("1.7", "FN", {}, term(5)), ("1.8", "FN", {}, term(6, 7)),
    ("1.9", "FN", {}, [("1.10", "F", False), ("1.11", "E", False), ("1.13", "E", False),
                       ("1.15", "C", False), ("1.17", "U", False)]),
    ("1.10", "FN", {}, term(9)),
    ("1.11", "FN", {}, [("1.12", "S", False), ("1.15", "A", True)]),
    ("1.12", "FN", {}, term(10)),
    ("1.13", "FN", {}, [("1.14", "P", False), ("1.15", "A", True)]),
    ("1.14", "FN", {}, term(11)), ("1.15", "FN", {}, term(12)),
    ("1.16", "PNCT", {}, term(8)), ("1.17", "PNCT", {}, term(13)),
]
SAMPLE = [
    ("wsj_0001.2", "20001002", "Mr. Vinken is chairman of Elsevier N.V. , the Dutch publishing group .",
     WSJ_0001_2, [8, 13]),
    ("wsj_0001.1", "20001001",
     "Pierre Vinken , 61 years old , will join the board as a nonexecutive director Nov. 29 .", WSJ_0001_1,
     [3, 7, 18]),
    ("wsj_0003.7", "20003007", "There is no asbestos in our products now . &apos;&apos;", WSJ_0003_7,
     [9, 10]),
]


@pytest.mark.parametrize("pid, gid, tokens, units, punct", SAMPLE)
def test_sample_passages_give_the_mrp_graphs(pid: str, gid: str, tokens: str, units: List[Unit],
                                             punct: List[int]) -> None:
    table = read_text(str(shared("data", "wsj", "wsj.txt")))
    graph = one(passage(pid, tokens.split(), units, punct=punct), table)
    assert canonical(graph) == canonical(_gold(gid))


def test_xml_files_are_ucca_and_several_passages_read_in_order() -> None:
    assert infer_format("corpus/wsj_0001.1.XML") == "ucca"
    text = passage("a", TOKENS, SCENES, punct=[6]) + "\n" + passage("b", TOKENS, SCENES, punct=[6])
    items = read_ucca('<?xml version="1.0" encoding="utf-8"?>\n' + text)
    assert [g.id for g in items] == ["a", "b"]
    assert items[1].line == text.count("\n") // 2 + 3


@pytest.mark.parametrize("xml, problem", [
    ('<root passageID="x"><layer layerID="1"><node ID="1.1" type="FN"><attributes />'
     '<edge toID="1.9" type="A"><attributes /></edge></node></layer></root>', "unknown node 1.9"),
    ('<root passageID="x"><layer layerID="0"><node ID="0.1" type="Word"><attributes /></node></layer></root>',
     "terminal 0.1 has no text"),
    ('<root passageID="x"><layer layerID="1"><node ID="1.1" type="FN"><attributes />'
     '<edge toID="1.1" type="A"><attributes /></edge></node></layer></root>', "contains itself"),
    ('<root passageID="x"><layer layerID="1"><node ID="1.1" type="FN"><attributes /></node>'
     '<node ID="1.1" type="FN"><attributes /></node></layer></root>', "occurs twice"),
    ('<root passageID="x"><layer layerID="1"><node ID="1.1" type="FN"></layer></root>', "not well-formed"),
    ("<root><layer /></root>", "no passageID"),
    ("<graph>nothing</graph>", "expected a UCCA XML passage"),
])
def test_bad_passages_are_one_line_errors(xml: str, problem: str) -> None:
    items = read_ucca(xml + "\n" + passage("good", TOKENS, SCENES, punct=[6]))
    assert isinstance(items[0], FormatError) and problem in str(items[0]), str(items[0])
    assert str(items[0]).startswith("<ucca>:1: ")
    assert isinstance(items[-1], Graph) and items[-1].id == "good"


def test_terminal_missing_from_the_text_is_an_error() -> None:
    items = read_ucca(passage("p1", TOKENS, SCENES, punct=[6]), {"p1": "John came home and went."})
    assert isinstance(items[0], FormatError) and "terminal 5: token 5 'left' does not match" in str(items[0])


def test_xml_to_mrp_scores_itself_perfectly(tmp_path: Any) -> None:
    path = tmp_path / "passages.xml"
    path.write_text(passage("a", TOKENS, SCENES, punct=[6]) + "\n"
                    + passage("b", TOKENS[:3], SCENES[1:2] + SCENES[3:6]), encoding="utf-8")
    converted = tmp_path / "passages.mrp"
    done = run_cli("convert", [str(path), str(converted)])
    assert done.code == 0, done.err
    for metric in ("mrp", "ucca"):
        done = run_cli("score", ["--score", metric, "--gold", str(path), str(converted)])
        assert done.code == 0, done.err
        result = json.loads(done.out)
        f = result["all"]["f"] if metric == "mrp" else result["labeled"]["primary"]["f"]
        assert result["n"] == 2 and f == 1.0


def test_deep_unit_chains_and_unclosed_passages() -> None:
    depth = 20000
    units: List[Unit] = [(f"1.{k}", "FN", {}, [(f"1.{k + 1}", "E", False)]) for k in range(1, depth)]
    units.append((f"1.{depth}", "FN", {}, term(1)))
    graph = one(passage("deep", ["x"], units))
    assert len(graph.nodes) == depth and graph.tops == [1] and graph.nodes[0].anchors == [(0, 1)]
    good = passage("good", TOKENS, SCENES, punct=[6])
    items = read_ucca(good + '\n<root passageID="cut">' * 3)
    assert len(items) == 2 and isinstance(items[0], Graph)
    assert isinstance(items[1], FormatError) and "an unclosed <root>" in str(items[1])
    assert str(items[1]).startswith(f"<ucca>:{good.count(chr(10)) + 2}: ")


FRAGMENTS = ["", "<", ">", "/>", '"', "</root>", "<root passageID=\"z\">", '<edge toID="1.1" type="A">',
             '<edge toID="0.9" type="A">', 'remote="True"', 'implicit="True"', 'type="LKG"', 'type="PNCT"',
             '<category tag="Terminal" />', 'ID="1.2"', 'ID="0.1"', "&amp;", "&bogus;", "\u00e9", "\n"]


@budget(60)
@given(st.lists(st.tuples(st.integers(0, 10 ** 5), st.integers(0, 30), st.sampled_from(FRAGMENTS)),
                max_size=4))
def test_damaged_passages_give_graphs_or_one_line_errors(damage: List[Tuple[int, int, str]]) -> None:
    text = passage("a", TOKENS, SCENES, punct=[6]) + "\n" + passage("b", ["go"], [("1.1", "FN", {}, term(1))])
    for where, cut, fragment in damage:
        at = where % (len(text) + 1)
        text = text[:at] + fragment + text[at + cut:]
    for item in read_ucca(text):
        if isinstance(item, FormatError):
            assert "\n" not in str(item) and str(item).startswith("<ucca>:")
            continue
        assert check_references(item) is None
        assert all(g == s == c for g, s, c in score_pair(item, item).counts.values())
