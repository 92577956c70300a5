"""WLK (Opitz et al. 2021): the Weisfeiler-Leman kernel similarity of two graphs, without word vectors.

As ``src/main_wlk.py`` of ``flipz357/weisfeiler-leman-amr-metrics`` (MIT licence; its defaults: 2
iterations, messages in both directions, edge labels kept on the edges) computes it:

* A graph is read as Smatch++ 1.5's ``PenmanReader`` and ``GenericStandardizer`` read it: everything
  lowercased, ``"`` and ``'`` removed, every role containing ``-of`` inverted to the part before it
  (``consist-of`` and ``prep-on-behalf-of`` too), the root left out, duplicate triples removed; a constant
  whose text is a variable's name refers to that variable.  Each remaining constant becomes a node of its
  own, labelled with its text, unless its text is some node's concept: then its edge goes to the last such
  node in the graph's order, or is lost when that is the first node (the reference's reading, kept).  An
  inverted role on a constant is lost.
* Level 0: the set of node labels and the set of ``source_role_target`` label triples.  Each iteration
  relabels every node with ``" ::: "``-joined sorted items: its label and ``role_label`` of each neighbour
  (targets of its edges for ``fromout``, sources for ``fromin``, both for ``both``); level i is the set of
  labels after i iterations.
* Score: the cosine of the two graphs' binary feature vectors, level i weighted by ``1 / (1 + i)``:
  ``sum_i w_i^2 |A_i & B_i| / sqrt(sum_i w_i^2 |A_i| * sum_i w_i^2 |B_i|)`` (0 where undefined); the corpus
  figure is the mean of the pairs' scores, as the reference's ``score_corpus``.  The reference prints
  scores rounded to 3 decimals; these are not rounded.

Where mrp differs by default (``--wlk-compat`` reproduces it): the reference keys each iteration's new
labels by the node's *label*, so all nodes that share a label get the label of the last of them (in the
order of a Python set of strings, which changes with ``PYTHONHASHSEED``: 53 of the 2,000 testbed pairs
move between two seeds, by up to 0.017).  Here every node takes its own neighbourhood, as
Weisfeiler-Leman relabelling is defined; ``--wlk-compat`` keeps the reference's rule, in the graph's
written order.
"""

from __future__ import annotations

import math
from hashlib import blake2b
from typing import Any, Dict, FrozenSet, Iterator, List, Tuple

from mrp.engine import SCORES_FIRST, Cost, Metric, Options, Pair, PairCounts, Parameter, Run, Sizes
from mrp.engine import check_limits as check
from mrp.graph import Graph
from mrp.memo import ByObject

__all__ = ["DIRECTIONS", "METRIC", "Features", "features", "similarity", "wl_graph"]

DIRECTIONS = ("both", "fromout", "fromin")
#: a graph's feature sets by level (level 0: node labels, then label triples, as text; then one per
#: iteration, as integers)
Features = Tuple[FrozenSet[Any], ...]
#: an end of a triple: ("node", position) or ("const", text)
End = Tuple[str, Any]


def _clean(text: Any) -> str:
    """A label as the reference compares it: lowercased, without ``"`` and ``'``."""
    return str(text).lower().replace('"', "").replace("'", "")


def _written(graph: Graph) -> Iterator[Tuple[Any, ...]]:
    """The graph's relations in the order Smatch++'s reader writes them (a node's concept, the relation
    that leads to it, then its branches in written order; by node order where there is no layout), as
    ``(source id, role, ("node", id) or ("const", value))``."""
    layout = graph.layout
    ids = {node.id for node in graph.nodes}
    if layout is None:
        for node in graph.nodes:
            for name, value in zip(node.properties, node.values):
                yield (node.id, name, ("const", value))
        for edge in graph.edges:
            yield (edge.source, edge.label or "", ("node", edge.target))
        return
    seen: set = set()
    order = list(graph.tops) + [node.id for node in graph.nodes]
    for root in order:
        if root in seen or root not in ids:
            continue
        stack: List[Tuple[bool, Any, Any]] = [(True, root, None)]
        while stack:
            visit, what, leading = stack.pop()
            if not visit:
                yield what
                continue
            if what in seen:
                if leading is not None:
                    yield leading
                continue
            seen.add(what)
            if leading is not None:
                yield leading
            work: List[Tuple[bool, Any, Any]] = []
            for role, target, nested in layout.get(what, ()):
                if nested:
                    work.append((True, target, (what, role, ("node", target))))
                else:
                    constant = isinstance(target, str) or target not in ids
                    end = ("const", target) if constant else ("node", target)
                    work.append((False, (what, role, end), None))
            stack.extend(reversed(work))


def wl_graph(graph: Graph) -> Tuple[List[str], List[Tuple[int, str, int]]]:
    """The labelled nodes and (source, role, target) edges WLK reads off a graph (see the module).

    Args:
        graph: the graph.

    Returns:
        Node labels (concepts, then constants made nodes) and edges by node position.
    """
    position = {node.id: k for k, node in enumerate(graph.nodes)}
    labels = [_clean(node.label if node.label is not None else "") for node in graph.nodes]
    names = {_clean(name): node for node, name in (graph.variables or {}).items() if node in position}
    triples: Dict[Tuple[Any, ...], None] = {}
    for source, role, end in _written(graph):
        ends: List[End] = [("node", position[source]), end]
        if end[0] == "node":
            ends[1] = ("node", position[end[1]])
        else:
            text = _clean(end[1])
            ends[1] = ("node", position[names[text]]) if text in names else ("const", text)
        name = ":" + _clean(role)
        parts = name.split("-of")
        if len(parts) > 1:
            name = parts[0]
            ends.reverse()
        triples[(ends[0], name, ends[1])] = None
    concepts = set(labels)
    last = {label: k for k, label in enumerate(labels)}
    edges: List[Tuple[int, str, int]] = []
    for (source, name, target) in triples:
        if source[0] != "node":
            continue  # an inverted role on a constant: lost
        if target[0] == "node":
            edges.append((source[1], name, target[1]))
        elif target[1] in concepts:
            k = last[target[1]]
            if k:
                edges.append((source[1], name, k))
        else:
            labels.append(target[1])
            edges.append((source[1], name, len(labels) - 1))
    return labels, edges


def _digest(data: bytes) -> int:
    """A label as an integer: 128 bits of BLAKE2b (the same in every process; two labels that differ
    collide with probability about 2**-128)."""
    return int.from_bytes(blake2b(data, digest_size=16).digest(), "big")


def features(graph: Graph, iterations: int = 2, direction: str = "both", compat: bool = False) -> Features:
    """The feature sets of a graph by level.

    Each iteration relabels every node with an integer (Weisfeiler-Leman compression): a digest of its
    label and the sorted ``(role, label)`` of its neighbours, which is what the reference's ``" ::: "``
    joined text of them is made of, so labels are equal exactly where those texts are (barring a
    separator written into a label or role, where the texts of two different neighbourhoods can
    coincide).  A label's size does not grow with the iterations: memory is flat in ``iterations``.

    Args:
        graph: the graph.
        iterations: Weisfeiler-Leman iterations.
        direction: ``both``, ``fromout`` or ``fromin``.
        compat: relabel as the reference does (by label, the last node winning).

    Returns:
        Node labels, label triples, then the labels (integers) after each iteration.
    """
    texts, edges = wl_graph(graph)
    levels: List[FrozenSet[Any]] = [frozenset(texts), frozenset(f"{texts[s]}_{r}_{texts[t]}"
                                                                for s, r, t in edges)]
    labels = [_digest(b"0" + text.encode("utf-8", "surrogatepass")) for text in texts]
    roles: Dict[str, bytes] = {}
    coded = [(s, roles.setdefault(r, r.encode("utf-8", "surrogatepass")), t) for s, r, t in edges]
    hears_out, hears_in = direction in ("both", "fromout"), direction in ("both", "fromin")
    for _ in range(iterations):
        check()
        items: List[List[Tuple[bytes, int]]] = [[] for _ in labels]
        for s, r, t in coded:
            if hears_out:
                items[s].append((r, labels[t]))
            if hears_in:
                items[t].append((r, labels[s]))
        new = []
        for own, mine in zip(labels, items):
            mine.sort()
            parts = [own.to_bytes(16, "big")]
            for role, label in mine:
                parts += (len(role).to_bytes(4, "big"), role, label.to_bytes(16, "big"))
            new.append(_digest(b"".join(parts)))
        if compat:
            by_label = {label: new[k] for k, label in enumerate(labels)}
            labels = [by_label[label] for label in labels]
        else:
            labels = new
        levels.append(frozenset(labels))
    return tuple(levels)


def _weights(levels: int) -> List[float]:
    """The squared weight of each level's features: (1 / (1 + i))^2, both level-0 sets at i = 0."""
    weights = [1.0, 1.0] + [1 / (1 + i) for i in range(1, levels - 1)]
    return [w * w for w in weights]


def similarity(a: Features, b: Features) -> float:
    """The weighted cosine of two graphs' binary feature vectors, as the reference computes it (0 where
    it is undefined).

    Args:
        a: one graph's features.
        b: the other's.

    Returns:
        The similarity, in [0, 1].
    """
    weights = _weights(len(a))
    dot = math.fsum(w * len(x & y) for w, x, y in zip(weights, a, b))
    aa = math.fsum(w * len(x) for w, x in zip(weights, a))
    bb = math.fsum(w * len(y) for w, y in zip(weights, b))
    if aa * bb == 0:
        return 0.0
    distance = min(max(1.0 - dot / math.sqrt(aa * bb), 0.0), 2.0)
    return 1.0 - distance


def _iterations(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError("at least 0")
    return value


def _value(result: PairCounts) -> float:
    """A pair's score (0 for a pair that not even the fallback could count)."""
    return result.counts.get(("pair",), (0.0,))[0]  # type: ignore[no-any-return]


#: bytes of one label of one iteration: a 128-bit int (44 bytes), its place in the level's set and in the
#: list of the graph's labels
BYTES_PER_LABEL = 120

#: graphs whose features a process keeps (an all-pairs block meets each graph many times)
MEMO = 10_000


class WLK(Metric):
    """WLK: Weisfeiler-Leman kernel similarity (no word vectors)."""

    name = "wlk"
    preparation_per_cell = 0
    layout = SCORES_FIRST
    symmetric = True
    summary = "WLK: Weisfeiler-Leman kernel similarity of the graphs (Opitz et al. 2021; no alignment)"
    normalization = "case"
    primary = None
    headlines = (("wlk",),)
    parameters = (
        Parameter("wlk_iterations", "--wlk-iterations", "wlk: Weisfeiler-Leman iterations (default 2, the "
                  "reference's -k)", kind=_iterations, metavar="K", default=2),
        Parameter("wlk_direction", "--wlk-direction", "wlk: which neighbours a node hears: both (default), "
                  "fromout (its edges' targets), fromin (its edges' sources)", kind=str, metavar="DIR",
                  default="both", choices=DIRECTIONS),
        Parameter("wlk_compat", "--wlk-compat", "wlk: relabel as the reference does (nodes that share a "
                  "label all take the last one's neighbourhood)"),
    )

    def __init__(self) -> None:
        self.memo = ByObject(MEMO)

    def signature_fields(self, options: Options) -> List[str]:
        return [f"k:{options.wlk_iterations}", f"dir:{options.wlk_direction}"] + \
            (["compat"] if options.wlk_compat else [])

    def preparation(self, sizes: Sizes, options: Options) -> Cost:
        """Per iteration, a label per node of both graphs (constants become nodes: at most one per edge),
        kept in the level's set: :data:`BYTES_PER_LABEL` each."""
        return Cost(0.0, BYTES_PER_LABEL * options.wlk_iterations * sizes.items)

    def features_of(self, graph: Graph, options: Options) -> Features:
        """A graph's features under the options, kept for the graph while the memo has room."""
        key = (options.wlk_iterations, options.wlk_direction, options.wlk_compat)
        return self.memo.get(graph, key, lambda g: features(g, *key))  # type: ignore[no-any-return]

    def score(self, pair: Pair, options: Options) -> PairCounts:
        value = similarity(self.features_of(pair.gold, options), self.features_of(pair.system, options))
        return PairCounts({("pair",): (value,)})

    def fallback(self, pair: Pair, options: Options, failure: str) -> PairCounts:
        """A pair whose scoring failed (e.g. out of memory) scores 0, with the failure named (its features
        are not made again: they may be what failed)."""
        return PairCounts({("pair",): (0.0,)}, exact=False, cut="error", failure=failure)

    def cut(self, pair: Pair, options: Options, why: str) -> PairCounts:
        result = PairCounts({("pair",): (0.0,)}, exact=False, cut=why)
        result.note = f"wlk: stopped at the pair's {'clock' if why == 'timeout' else 'memory cap'}: scored 0"
        return result

    def item(self, pair: Pair, result: PairCounts) -> Dict[str, Any]:
        return {"wlk": _value(result)}

    def report(self, run: Run) -> Dict[str, Any]:
        scores = [_value(result) for result in run.results]
        out: Dict[str, Any] = {"wlk": math.fsum(scores) / run.n if run.n else 0.0}
        out["iterations"] = run.options.wlk_iterations
        out["direction"] = run.options.wlk_direction
        out["compat"] = run.options.wlk_compat
        return out


METRIC = WLK()
