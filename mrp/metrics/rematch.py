"""Rematch (Kachwala et al., NAACL 2024 Findings): the Jaccard overlap of two graphs' motifs, no alignment.

As ``methods/rematch/rematch.py`` of ``osome-iu/Rematch-RARE`` (commit 41e1834) computes it from the
original SMATCH tool's reading of AMR (its ``amr.py``):

* A graph's nodes have a concept; a constant (an AMR attribute) hangs on its node as ``(role, value)``;
  relations between nodes are ``(role, source, target)`` with inverted roles restored as the SMATCH tool
  restores them (``X-of`` -> ``X`` except ``prep-on-behalf-of``, ``prep-out-of``, ``consist-of``;
  ``mod`` -> ``domain``).  An inverted role on a constant is lost, as in the tool.
* Concepts, attribute names and values are lowercased without trailing ``_`` (the tool's mark of a quoted
  string); an attribute whose value the tool reads as ``top`` is dropped (with the root's ``TOP``).
  Relation roles keep their case (``ARG0``).
* A quoted value with spaces is kept whole (``:mode "a b c"`` is the constant ``a b c``).  Rematch's reader
  keeps its first word only, and where that word is a variable of the graph, reads a relation to that
  node instead of the constant (``:mode "b c"`` beside a node ``b``); ``--rematch-compat`` reproduces
  that reading (and so Rematch's score on every pair).
* With a PropBank-to-VerbAtlas table (``--rematch-frames PATH``: a JSON object ``{"frame-01": {"label":
  "verbatlas_class", ...}}``, as Rematch's ``pb2va.json``), a concept found in it is replaced by its
  VerbAtlas class.
* Motifs: every attribute ``(role, value)``; per node, ``(concept, attribute)`` for each of its attributes,
  or ``(concept,)`` without any; per relation, ``(m1, role, m2)`` for every node motif ``m1`` of its source
  and ``m2`` of its target.  A pair's score is ``|A & B| / |A | B|`` over the two motif sets (0 when
  nothing is shared); the corpus score (Rematch without ``--ms``) is the summed intersections over the
  summed unions.

Graphs not read from Penman (MRP input) are read the same way from their labels, properties and edges,
with each anchored node's spans as one more attribute ``("anchor", "start:end,...")``.

Rematch's repository carries no licence, so its table is not shipped: the user names the file.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, Dict, FrozenSet, Hashable, List, Optional, Tuple

from mrp import rules
from mrp.codecs.penman import Quoted
from mrp.engine import SCORES_FIRST, Metric, Options, Pair, PairCounts, Parameter, Run, prf
from mrp.engine import CountPath as Path
from mrp.errors import MRPError
from mrp.graph import Graph
from mrp.io.option_files import json_of, read_option_bytes
from mrp.memo import ByObject, Memo
from mrp.normalize import normalize_anchors

__all__ = ["METRIC", "Frames", "frames", "jaccard", "motifs"]

#: a concept -> its VerbAtlas class
Frames = Dict[str, str]
Motifs = FrozenSet[Hashable]

#: loaded tables by (path, modification time, size): (table, digest)
_LOADED: Memo[Tuple[str, int, int], Tuple[Frames, str]] = Memo(16)


def frames(path: str) -> Tuple[Frames, str]:
    """The PropBank-to-VerbAtlas table of a JSON file and the first 12 hex digits of its SHA-256.

    Args:
        path: a JSON object mapping frames (``"abandon-01"``) to objects with a ``"label"``.

    Returns:
        The concept -> class table, and the file's digest (for the signature).

    Raises:
        MRPError: the file cannot be read or is not such a table.
    """
    try:
        stat = os.stat(path)
    except OSError as error:
        raise MRPError(f"--rematch-frames {path}: cannot read the frame table: {error}") from None
    key = (os.path.abspath(path), stat.st_mtime_ns, stat.st_size)
    if key in _LOADED:
        return _LOADED[key]
    data = read_option_bytes(path, "--rematch-frames")
    table = json_of(data, f"--rematch-frames {path}")
    if not isinstance(table, dict):
        raise MRPError(f"--rematch-frames {path}: expected a JSON object of frames")
    out: Frames = {}
    for frame, entry in table.items():
        label = entry.get("label") if isinstance(entry, dict) else None
        if not isinstance(label, str):
            raise MRPError(f"--rematch-frames {path}: frame {frame!r} has no \"label\" string")
        out[frame] = label
    found = _LOADED.keep(key, (out, hashlib.sha256(data).hexdigest()[:12]))
    return found


def _norm(text: Any) -> str:
    """A name or value as Rematch compares it: lowercased, without trailing ``_``."""
    return str(text).lower().rstrip("_")


def _raw(value: Any) -> str:
    """A constant as the SMATCH tool's reader keeps it: a quoted string gets a ``_`` after its last
    character and only its first word is kept."""
    if type(value) is Quoted:
        return (value + "_").split()[0]
    words = str(value).split()
    return words[0] if words else ""


def motifs(graph: Graph, table: Optional[Frames] = None, compat: bool = False) -> Motifs:
    """The motif set of a graph (see the module's description).

    Args:
        graph: the graph.
        table: the PropBank-to-VerbAtlas classes, or None.
        compat: read constants as Rematch's reader does (a quoted value's first word; a relation where
            that word is a variable).

    Returns:
        Its motifs.
    """
    out: set = set()
    position: Dict[Any, int] = {}
    local: List[List[Tuple[Any, ...]]] = []
    variables = {name: node for node, name in (graph.variables or {}).items()} if compat else {}
    #: (source, role, target) of the constants Rematch's reader takes for relations
    relations: List[Tuple[Any, str, Any]] = []
    for node in graph.nodes:
        position[node.id] = len(local)
        concept = _norm(node.label if node.label is not None else "")
        if table is not None:
            concept = table.get(concept, concept)
        attributes = []
        for name, value in zip(node.properties, node.values):
            kept = _raw(value)  # as the tool reads it (a quoted "top" is "top_")
            raw = kept if compat else str(value)
            if raw in variables:  # the first word of a quoted value names a node: a relation to it
                relations.append((node.id, name, variables[raw]))
                continue
            if rules.normal_role(name, rules.SMATCH) is not None:
                continue  # the tool files it under the constant, which is no node: lost
            if kept == "top" and raw == "top":
                continue  # dropped with the root's TOP (the whole value, unless compat)
            attributes.append((_norm(name), _norm(raw)))
        spans = normalize_anchors(node.anchors, graph.input) if node.anchors else None
        if spans:
            attributes.append(("anchor", ",".join(f"{start}:{end}" for start, end in spans)))
        out.update(attributes)
        mine = [(concept, attribute) for attribute in attributes] if attributes else [(concept,)]
        out.update(mine)
        local.append(mine)
    for source, label, target in [(edge.source, edge.label, edge.target) for edge in graph.edges] + relations:
        a, b = position.get(source), position.get(target)
        if a is None or b is None:
            continue
        role = label or ""
        normal = rules.normal_role(role, rules.SMATCH)
        if normal is not None:
            a, b, role = b, a, normal
        for first in local[a]:
            for second in local[b]:
                out.add((first, role, second))
    return frozenset(out)


def jaccard(common: int, union: int) -> float:
    """Rematch's pair score: ``common / union``, 0 when nothing is shared.

    Args:
        common: motifs in both graphs.
        union: motifs in either.

    Returns:
        The Jaccard overlap.
    """
    return common / union if common else 0.0


#: graphs whose motifs a process keeps (an all-pairs block meets each graph many times)
MEMO = 10_000


class Rematch(Metric):
    """Rematch: the Jaccard overlap of two graphs' motifs."""

    name = "rematch"
    #: preparation beyond reading the pair (mrp.engine.limits): none n x m;
    #: motif sets per graph: linear in the pair
    preparation_per_cell = 0
    layout = SCORES_FIRST
    symmetric = True
    summary = "Rematch: Jaccard overlap of the graphs' motifs (Kachwala et al. 2024; no alignment)"
    normalization = "case"
    primary = None
    headlines = (("rematch",),)
    parameters = (
        Parameter("rematch_frames", "--rematch-frames",
                  "rematch: the PropBank-to-VerbAtlas table (Rematch's methods/rematch/pb2va.json) that "
                  "generalises frames to their VerbAtlas class, as Rematch does by default (not shipped: "
                  "Rematch has no licence); without it concepts are compared as written", kind=str,
                  metavar="PATH", file=True),
        Parameter("rematch_compat", "--rematch-compat",
                  "rematch: read constants as Rematch's reader does (a quoted value with spaces cut to its "
                  "first word, and a relation where that word is a variable of the graph)"),
    )

    def __init__(self) -> None:
        self.memo = ByObject(MEMO)

    def prepare(self, options: Options) -> None:
        if options.rematch_frames:
            frames(options.rematch_frames)

    def signature_fields(self, options: Options) -> List[str]:
        compat = ["compat"] if self.parameters[1].value(options) else []
        if not options.rematch_frames:
            return ["frames:none", *compat]
        return ["frames:" + frames(options.rematch_frames)[1], *compat]

    def motifs_of(self, graph: Graph, options: Options) -> Motifs:
        """A graph's motifs under the options, kept for the graph while the memo has room."""
        table, key = frames(options.rematch_frames) if options.rematch_frames else (None, None)
        compat = bool(self.parameters[1].value(options))
        # by the table's content, not its path
        return self.memo.get(graph, (key, compat),  # type: ignore[no-any-return]
                             lambda g: motifs(g, table, compat))

    def score(self, pair: Pair, options: Options) -> PairCounts:
        gold, system = self.motifs_of(pair.gold, options), self.motifs_of(pair.system, options)
        common = len(gold & system)
        union = len(gold) + len(system) - common
        counts: Dict[Path, Tuple[Any, ...]] = {("motifs",): (len(gold), len(system), common),
                                               ("union",): (union,),
                                               ("pair",): (jaccard(common, union),)}
        return PairCounts(counts)

    def item(self, pair: Pair, result: PairCounts) -> Dict[str, Any]:
        return {"rematch": result.counts[("pair",)][0], "motifs": prf(*result.counts[("motifs",)])}

    def report(self, run: Run) -> Dict[str, Any]:
        g, s, c = run.totals.get(("motifs",), (0, 0, 0))
        union = run.totals.get(("union",), [0])[0]
        out: Dict[str, Any] = {"rematch": jaccard(c, union)}
        out["mean"] = run.totals.get(("pair",), [0.0])[0] / run.n if run.n else 0.0
        out["motifs"] = prf(g, s, c)
        out["frames"] = run.options.rematch_frames is not None
        out["compat"] = bool(self.parameters[1].value(run.options))
        return out


METRIC = Rematch()
