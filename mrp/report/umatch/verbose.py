"""The comparator's ``--verbose`` layout: per sentence, the graphs side by side, the token-node alignments,
the aligned token sets, the ambiguous projections and their winners, the node correspondence and every
mismatched concept, relation and document-level relation."""

from __future__ import annotations

from collections import Counter
from typing import Dict, List, Sequence

from mrp.metrics.umatch.compare import Comparison, Settings, attributes, token_sets
from mrp.metrics.umatch.links import text
from mrp.metrics.umatch.model import Node, Sentence, UmrFile
from mrp.metrics.umatch.triples import UNMAPPED, compare

Row = List[str]


def table(rows: Sequence[Row]) -> str:
    """Rows padded to their columns' widths (a row's last cell unpadded), cells one space apart."""
    widths: Dict[int, int] = {}
    for row in rows:
        for k, cell in enumerate(row):
            widths[k] = max(widths.get(k, 0), len(cell))
    out = []
    for row in rows:
        cells = [cell if k == len(row) - 1 else cell.ljust(widths[k]) for k, cell in enumerate(row)]
        out.append(" ".join(cells) + "\n")
    return "".join(out)


def _percent(part: int, whole: int) -> int:
    return int(part / whole * 100 + 0.5) if whole > 0 else 0


class Verbose:
    """Collects the --verbose text of a comparison, sentence by sentence."""

    def __init__(self, out: List[str]) -> None:
        self.out = out

    @staticmethod
    def found(files: Sequence[UmrFile]) -> str:
        """What was found in each file (line ranges of its sentences)."""
        parts = []
        for umr in files:
            parts.append(f"Found {len(umr.sentences)} sentences in {umr.label}:\n")
            parts.append(", ".join(f"{s.line0}-{s.line1}" for s in umr.sentences) + "\n")
        return "".join(parts) + "\n"

    def __call__(self, number: int, sentences: Sequence[Sentence], result: Comparison) -> None:
        out = self.out
        labels = result.labels
        tokens = sentences[0].tokens
        out.append("-" * 79 + "\n")
        out.append(f"Comparing sentence {number}:\n")
        out.append(" ".join(tokens) + "\n")
        rows: List[Row] = [list(labels)]
        depth = max(len(s.graph_lines) for s in sentences)
        rows.extend([s.graph_lines[k] if k < len(s.graph_lines) else "" for s in sentences]
                    for k in range(depth))
        out.append("\n" + table(rows) + "\n")
        out.append("Node-token alignments:\n")
        for label, sentence in zip(labels, sentences):
            loose = [v for v in sorted(sentence.nodes) if sentence.nodes[v].alignment is None]
            shown = ", ".join(f"{v}/{sentence.nodes[v].econcept or ''}" for v in loose)
            out.append(f"File {label}: {len(loose)} nodes unaligned: {shown}.\n")
        rows = [["", "", *labels]]
        for k, token in enumerate(tokens):
            rows.append([str(k + 1), token, *(", ".join(
                v for v in sorted(s.nodes) if k in (s.nodes[v].alignment or ())) for s in sentences)])
        out.append(table(rows) + "\n")
        out.append("Node-node correspondences:\n\n")
        for a in range(len(sentences)):
            for b in range(a + 1, len(sentences)):
                self._pair(result, a, b, sentences[a], sentences[b])

    def _pair(self, result: Comparison, a: int, b: int, sentence0: Sentence, sentence1: Sentence) -> None:
        out = self.out
        label0, label1 = result.labels[a], result.labels[b]
        out.append(f"Comparing aligned tokens in {label0} and {label1}.\n")
        sets0, sets1 = token_sets(sentence0), token_sets(sentence1)
        rows = [[f"{label0} alignment {key}", f"not found in {label1}"] for key in sorted(sets0 - sets1)]
        rows += [[f"{label1} alignment {key}", f"not found in {label0}"] for key in sorted(sets1 - sets0)]
        correct = len(sets0 & sets1)
        out.append(table(rows) + "\n")
        out.append(f"Matched {correct} out of {len(sets0)} {label0} token sets => recall    "
                   f"{_percent(correct, len(sets0))}%.\n")
        out.append(f"Matched {correct} out of {len(sets1)} {label1} token sets => precision "
                   f"{_percent(correct, len(sets1))}%.\n\n")
        self._ambiguity(sentence0, sentence1, label0, label1)
        self._ambiguity(sentence1, sentence0, label1, label0)
        self._correspondences(sentence0, sentence1, label0, label1)
        files = result.files
        self._attributes(result.settings, sentence0, sentence1, files[a], files[b], label0, label1)
        self._attributes(result.settings, sentence1, sentence0, files[b], files[a], label1, label0)

    def _ambiguity(self, sentence0: Sentence, sentence1: Sentence, label0: str, label1: str) -> None:
        nodes = [sentence0.nodes[v] for v in sorted(sentence0.nodes)]
        ambiguous = [node for node in nodes if label1 in node.ambiguous]
        for node in ambiguous:
            targets = node.ambiguous[label1]
            shown = ", ".join(f"{v} ({text(sentence1.nodes[v])})" for v in targets)
            self.out.append(f"Ambiguous projection of {label0} node {node.variable} ({text(node)}) to "
                            f"{len(targets)} {label1} nodes [{shown}]\n")
        if ambiguous:
            for node in nodes:
                if label1 in node.winner:
                    self.out.append(f"  The winner is {node.winner[label1]}.\n")
            self.out.append("\n")

    def _correspondences(self, sentence0: Sentence, sentence1: Sentence, label0: str, label1: str) -> None:
        both: List[Row] = []
        first: List[Row] = []
        second: List[Row] = []
        counts = Counter()  # type: Counter[str]
        for variable in sorted(sentence0.nodes):
            node = sentence0.nodes[variable]
            linked = node.mapped(label1)
            counts["total0"] += 1
            if len(linked) == 1:
                other = sentence1.nodes[linked[0]]
                row = [f"Correspondence {label0} {variable}", f"({text(node)})", f"= {label1} {linked[0]}",
                       f"({text(other)})"]
                counts["aligned0"] += 1
                if variable in other.cross.get(label0, {}):
                    counts["aligned1"] += 1
                    counts["total1"] += 1
                    both.append(row)
                else:
                    first.append(row)
            else:
                counts["aligned0"] += bool(linked)
                first.append([f"Correspondence {label0} {variable}", f"({text(node)})",
                              f"= {label1} {', '.join(linked)}"])
        for variable in sorted(sentence1.nodes):
            node = sentence1.nodes[variable]
            linked = node.mapped(label0)
            if len(linked) == 1:
                other = sentence0.nodes[linked[0]]
                if variable not in other.cross.get(label1, {}):
                    second.append([f"Correspondence {label0} {linked[0]}", f"({text(other)})",
                                   f"= {label1} {variable}", f"({text(node)})"])
                    counts["aligned1"] += 1
                    counts["total1"] += 1
            else:
                second.append([f"Correspondence {label0} {', '.join(linked)}", "", f"= {label1} {variable}",
                               f"({text(node)})"])
                counts["aligned1"] += bool(linked)
                counts["total1"] += 1
        self.out.append(table(both + first + second) + "\n")
        for side, label in (("0", label0), ("1", label1)):
            aligned, total = counts["aligned" + side], counts["total" + side]
            self.out.append(f"Aligned {aligned} out of {total} {label} nodes, that is "
                            f"{_percent(aligned, total)}%.\n")
        self.out.append("\n")

    def _attributes(self, settings: Settings, sentence0: Sentence, sentence1: Sentence, file0: UmrFile,
                    file1: UmrFile, label0: str, label1: str) -> None:
        out = self.out
        selection = settings.selection
        out.append(f"Comparing attributes of {label0} nodes with their {label1} counterparts.\n")
        rows: List[Row] = []
        for variable in sorted(sentence0.nodes):
            node = sentence0.nodes[variable]
            linked = node.mapped(label1)
            if linked:
                candidates = [compare(node, sentence0.nodes, sentence1.nodes[v], sentence1.nodes, label1,
                                      selection, True) for v in linked]
                best = candidates[0]
                for item in candidates[1:]:
                    if item.correct > best.correct:
                        best = item
            else:
                best = compare(node, sentence0.nodes, None, sentence1.nodes, None, selection, True)
            rows.extend(_mismatch(label0, label1, node, item) for item in best.mismatches)
        for variable in sorted(sentence1.nodes):
            node = sentence1.nodes[variable]
            if not node.mapped(label0):
                found = compare(node, sentence1.nodes, None, sentence0.nodes, None, selection, True)
                rows.extend(_mismatch(label1, label0, node, (n, v, UNMAPPED)) for n, v, _ in found.mismatches)
        out.append(table(rows))
        if settings.document_level:
            out.append(table(_docrel_rows(sentence0, sentence1, file0, file1, label0, label1, settings)))
        counts = Counter()  # type: Counter[str]
        attributes(counts, sentence0, sentence1, file0, file1, label0, label1, settings)
        correct, total0, total1 = counts["correct"], counts["total0"], counts["total1"]
        out.append(f"\nCorrect {correct} out of {total0} non-empty {label0} values => recall    "
                   f"{_percent(correct, total0)}%.\n")
        out.append(f"Correct {correct} out of {total1} non-empty {label1} values => precision "
                   f"{_percent(correct, total1)}%.\n\n")


def _mismatch(label0: str, label1: str, node: Node, item: tuple) -> Row:  # type: ignore[type-arg]
    aligned = f" ({node.aligned_text})" if node.aligned_text and node.aligned_text != "0" else ""
    name, mine, theirs = item
    return [f"Node {label0} {node.variable} / {node.concept}{aligned}", f"mismatch in {name}:",
            f"{label0} = {mine}", f"{label1} = {theirs}"]


def _docrel_rows(sentence0: Sentence, sentence1: Sentence, file0: UmrFile, file1: UmrFile, label0: str,
                 label1: str, settings: Settings) -> List[Row]:
    from mrp.metrics.umatch.compare import single

    rows: List[Row] = []
    for first, second, nodes, a, b in ((sentence0, sentence1, file0.nodes, label0, label1),
                                       (sentence1, sentence0, file1.nodes, label1, label0)):
        for triple in sorted(first.docrels):
            x, relation, y = triple.split(" ")
            if settings.selection.ignored(relation):
                continue
            x1, y1 = single(x, b, nodes), single(y, b, nodes)
            if f"{x1} {relation} {y1}" in second.docrels:
                continue
            rows.append([f"Document-level relation from node {a} {x}{_debug(x, nodes)} ({b} {x1})", relation,
                         f"to node {a} {y}{_debug(y, nodes)} ({b} {y1})", f"not found in {b}"])
    return rows


def _debug(name: str, nodes: Dict[str, Node]) -> str:
    node = nodes.get(name)
    if node is None:
        return ""
    aligned = f" ({node.aligned_text})" if node.aligned_text and node.aligned_text != "0" else ""
    return f" / {node.concept}{aligned}"
