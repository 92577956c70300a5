"""Deterministic synthetic MRP corpora for `make bench`: one big graph pair and a 100,000-graph corpus.

Both generators write MRP JSON lines (one graph per line, ``ensure_ascii=False``)
into a directory given (a temporary one: never the repository) and return the
paths of the gold and the system file.  They use seeded ``random.Random``
objects only, so the same arguments give byte-identical files on every machine
and Python >= 3.2 (string seeds are hashed with SHA-512, not ``hash()``).

``big_pair``
    One EDS (flavor 1) graph of ``nodes`` nodes per file, with MANY IDENTICAL
    LABELS (20 node labels, 5 edge labels, ``carg`` on one node in twenty):
    a random recursive tree plus as many extra random edges (about two edges
    per node).  The graphs are **unanchored** on purpose: an anchor is nearly
    a unique name for a node, so anchors would hand the solver most of the
    correspondence; without them it has only the 20 labels and the structure,
    which is the hard case (AMR-like) the time limit has to hold for.  The
    system graph is a perturbed copy (5% of node labels changed, 10% of edges
    dropped, 2% relabelled, 2% added), renumbered by a random permutation and
    listed in a random order, so neither ids nor order give the identity map.
    ``big.planted.json`` holds the counts the planted correspondence matches:
    a lower bound on the optimum, against which the scorer's result and upper
    bound can be checked.

``corpus``
    ``graphs`` small graphs of 5-40 nodes (a skewed, sentence-like size
    distribution, mean about 17), frameworks mixed like the MRP 2019 training
    data (dm 20%, psd 20%, eds 20%, ucca 15%, amr 25%) with their flavors
    (dm, psd 0; eds, ucca 1; amr 2), labels from Zipf-distributed
    vocabularies (a few non-ASCII words), anchors into a generated input
    string for the anchored frameworks, UCCA remote edges.  The system file
    is a perturbed copy (labels, properties, anchors, tops and edges changed
    at small rates, now and then a node dropped), with one graph in a
    thousand missing, one in two thousand extra (an id with no gold graph),
    and one in ten thousand invalid (an edge to a node that does not exist;
    mrp-score counts it in "invalid" and scores its gold graph against an
    empty graph).  Ids are unique.  The work is split into blocks of 5,000
    graphs, each with its own seed, generated in worker processes; the
    output does not depend on the number of workers.

Run as ``python bench/synthetic.py DIR [--pair-nodes N] [--graphs N] [--seed S]``
to write both into DIR and print sizes and times.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

PathLike = Union[str, "os.PathLike[str]"]
Graph = Dict[str, Any]

#: Graphs per generation block (each block has its own seed).
BLOCK = 5000
#: (framework, flavor, share of the corpus)
MIX: List[Tuple[str, int, float]] = [("dm", 0, 0.20), ("psd", 0, 0.20), ("eds", 1, 0.20),
                                     ("ucca", 1, 0.15), ("amr", 2, 0.25)]
#: Version and time stamp written into every graph (fixed, for reproducible files).
VERSION = 1.0
STAMP = "2020-06-01 (00:00)"


# --------------------------------------------------------------------------- vocabularies


class Zipf:
    """Items drawn with probability proportional to 1 / rank ** exponent."""

    def __init__(self, items: Sequence[Any], exponent: float = 1.0) -> None:
        self.items = list(items)
        weights = [1.0 / (rank + 1) ** exponent for rank in range(len(self.items))]
        self.cum = list(itertools.accumulate(weights))

    def draw(self, rng: random.Random, k: int) -> List[Any]:
        """``k`` items, with replacement."""
        return rng.choices(self.items, cum_weights=self.cum, k=k)

    def one(self, rng: random.Random) -> Any:
        """One item."""
        return self.items[bisect.bisect(self.cum, rng.random() * self.cum[-1])]


def _words(count: int, seed: str) -> List[str]:
    """``count`` distinct pronounceable pseudo-words, a few of them non-ASCII."""
    rng = random.Random(seed)
    onsets = ["", "b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w",
              "br", "ch", "st", "tr", "pl", "sh", "th"]
    vowels = ["a", "e", "i", "o", "u", "ea", "ou", "ai"]
    codas = ["", "", "n", "r", "s", "t", "l", "nd", "ng", "ck"]
    special = ["café", "naïve", "zürich", "señor", "résumé", "façade", "straße", "œuvre", "øre", "ångström"]
    seen = set(special)
    words = list(special)
    while len(words) < count:
        word = "".join(rng.choice(onsets) + rng.choice(vowels) + rng.choice(codas)
                       for _ in range(rng.choice((1, 1, 2, 2, 2, 3))))
        if word not in seen:
            seen.add(word)
            words.append(word)
    rng.shuffle(words)
    return words


WORDS = Zipf(_words(5000, "mrp-bench-words"), 1.05)
NAMES = Zipf([w.capitalize() for w in _words(400, "mrp-bench-names")], 1.0)
PUNCT = [",", ".", ";", ":", "(", ")", "\u201c", "\u201d"]
POS = Zipf(["NN", "IN", "DT", "NNP", "JJ", "NNS", "VBD", "CC", "RB", "VB", "VBZ", "CD", "PRP", "VBN", "TO",
            "VBG", "VBP", "MD", "POS", "PRP$", "WDT", "JJR", "NNPS", "RP", "WP", "JJS", "RBR", "EX"], 0.8)
DM_FRAMES = Zipf(["n:x", "q:i-h-h", "p:e-u-i", "a:e-p", "v:e-i-p", "n_of:x-i", "named:x-c", "v:e-i",
                  "c:i-i-i", "card:i-i-c", "x:e-h-h", "v:e-i-i", "a:e-i", "pron:x", "n:x-i"], 1.0)
DM_EDGES = Zipf(["ARG1", "ARG2", "BV", "compound", "_and_c", "ARG3", "poss", "loc", "times", "mwe",
                 "_or_c", "subord", "appos", "measure", "neg", "_but_c", "temp", "manner"], 1.2)
PSD_EDGES = Zipf(["RSTR", "ACT-arg", "PAT-arg", "CONJ.member", "APP", "LOC", "TWHEN", "ADDR-arg",
                  "EXT", "MANN", "PAT", "BEN", "CPR", "ACMP", "EFF-arg", "DIR3", "AIM", "CAUS", "MEANS",
                  "TSIN", "REG", "ID", "COND", "CRIT", "DPHR", "FPHR", "ORIG-arg", "DIR1"], 1.1)
PSD_FRAMES = Zipf([f"ev-w{k}f{j}" for k in range(100, 3000, 37) for j in (1, 2, 3)], 1.0)
EDS_ABSTRACT = Zipf(["udef_q", "compound", "proper_q", "named", "card", "_a_q", "_the_q", "pron",
                     "pronoun_q", "def_explicit_q", "poss", "loc_nonsp", "parg_d", "neg", "nominalization",
                     "subord", "appos", "times", "measure", "implicit_conj", "of_p", "focus_d"], 1.0)
EDS_SUFFIX = Zipf(["_n_1", "_v_1", "_a_1", "_p", "_n_of", "_v_to", "_q", "_x_deg", "_v_2", "_c"], 1.0)
EDS_EDGES = Zipf(["ARG1", "BV", "ARG2", "L-INDEX", "R-INDEX", "ARG3", "L-HNDL", "R-HNDL", "ARG4"], 1.0)
UCCA_EDGES = Zipf(["E", "C", "A", "P", "F", "U", "D", "H", "L", "S", "T", "R", "N", "G"], 0.7)
AMR_ROLES = Zipf(["ARG0", "ARG1", "mod", "ARG2", "op1", "op2", "name", "time", "poss", "quant",
                  "location", "ARG1-of", "ARG0-of", "manner", "degree", "purpose", "domain",
                  "condition", "part-of", "consist-of", "ARG3", "topic", "example", "op3"], 1.1)
EDGE_LABELS = {"dm": DM_EDGES, "psd": PSD_EDGES, "eds": EDS_EDGES, "ucca": UCCA_EDGES, "amr": AMR_ROLES}
AMR_SENSES = ["", "", "", "-01", "-01", "-02", "-03", "-91"]


# --------------------------------------------------------------------------- small helpers


def _sentence(rng: random.Random, tokens: int) -> Tuple[str, List[Tuple[int, int]], List[str]]:
    """An input string of ``tokens`` tokens (words, names, punctuation): text, token spans, tokens."""
    parts: List[str] = []
    for word in WORDS.draw(rng, tokens):
        r = rng.random()
        parts.append(NAMES.one(rng) if r < 0.08 else rng.choice(PUNCT) if r < 0.16 else word)
    if parts:
        parts[-1] = "."
    spans: List[Tuple[int, int]] = []
    at = 0
    for part in parts:
        spans.append((at, at + len(part)))
        at += len(part) + 1
    return " ".join(parts), spans, parts


def _tree_edges(rng: random.Random, ids: List[int], extra: float) -> List[Tuple[int, int]]:
    """A random tree over ``ids`` (rooted at ids[0]) plus about ``extra`` * len(ids) further edges."""
    edges = [(ids[rng.randrange(k)], ids[k]) for k in range(1, len(ids))]
    seen = set(edges)
    for _ in range(int(extra * len(ids) + rng.random())):
        a, b = rng.choice(ids), rng.choice(ids)
        if a != b and (a, b) not in seen and (b, a) not in seen:
            seen.add((a, b))
            edges.append((a, b))
    return edges


def _node(nid: int, label: Optional[str] = None, properties: Optional[List[str]] = None,
          values: Optional[List[Any]] = None,
          anchors: Optional[List[Tuple[int, int]]] = None) -> Dict[str, Any]:
    """One MRP node object (keys left out when empty)."""
    node: Dict[str, Any] = {"id": nid}
    if label is not None:
        node["label"] = label
    if properties:
        node["properties"] = properties
        node["values"] = values
    if anchors:
        node["anchors"] = [{"from": a, "to": b} for a, b in anchors]
    return node


def _graph(gid: str, framework: str, flavor: int, text: Optional[str], tops: List[int],
           nodes: List[Dict[str, Any]], edges: List[Dict[str, Any]]) -> Graph:
    """One MRP graph object, keys in the order of the shared-task files."""
    graph: Graph = {"id": gid, "flavor": flavor, "framework": framework, "version": VERSION, "time": STAMP}
    if text is not None:
        graph["input"] = text
    graph.update(tops=tops, nodes=nodes, edges=edges)
    return graph


# --------------------------------------------------------------------------- one graph per framework


def _dm_psd(rng: random.Random, gid: str, size: int, framework: str) -> Graph:
    """Bilexical (dm or psd, flavor 0): nodes are tokens, ids are token positions."""
    text, spans, tokens = _sentence(rng, size + size // 6 + 1)
    positions = [k for k, t in enumerate(tokens) if t not in PUNCT and t != "."][:size]
    if not positions:
        positions = [0]
    pos = POS.draw(rng, len(positions))
    nodes = []
    for k, p in enumerate(positions):
        word = tokens[p] if framework == "dm" else tokens[p].lower()
        if framework == "dm":
            nodes.append(_node(p, word, ["pos", "frame"], [pos[k], DM_FRAMES.one(rng)], [spans[p]]))
        elif pos[k].startswith("VB"):
            nodes.append(_node(p, word, ["pos", "frame"], [pos[k], PSD_FRAMES.one(rng)], [spans[p]]))
        else:
            nodes.append(_node(p, word, ["pos"], [pos[k]], [spans[p]]))
    order = positions[:]
    rng.shuffle(order)
    labels = DM_EDGES if framework == "dm" else PSD_EDGES
    pairs = _tree_edges(rng, order, 0.1)
    edges = [{"source": a, "target": b, "label": labels.one(rng)} for a, b in pairs]
    return _graph(gid, framework, 0, text, [order[0]], nodes, edges)


def _eds(rng: random.Random, gid: str, size: int) -> Graph:
    """EDS (flavor 1): predicates over (sub)spans, quantifiers and abstract nodes over wider spans."""
    text, spans, tokens = _sentence(rng, max(2, size * 2 // 3))
    words = [k for k, t in enumerate(tokens) if t not in PUNCT and t != "."] or [0]
    nodes = []
    for nid in range(size):
        k = rng.choice(words)
        if rng.random() < 0.55:
            label = tokens[k].lower()
            nodes.append(_node(nid, f"_{label}{EDS_SUFFIX.one(rng)}", anchors=[spans[k]]))
        else:
            label = EDS_ABSTRACT.one(rng)
            end = min(len(words) - 1, words.index(k) + rng.randrange(3))
            anchor = [(spans[k][0], spans[words[end]][1])]
            if label in ("named", "card"):
                nodes.append(_node(nid, label, ["carg"], [tokens[k]], anchor))
            else:
                nodes.append(_node(nid, label, anchors=anchor))
    order = list(range(size))
    rng.shuffle(order)
    pairs = _tree_edges(rng, order, 0.05)
    edges = [{"source": a, "target": b, "label": EDS_EDGES.one(rng)} for a, b in pairs]
    return _graph(gid, "eds", 1, text, [order[0]], nodes, edges)


def _ucca(rng: random.Random, gid: str, size: int) -> Graph:
    """UCCA (flavor 1): anchored unlabeled terminals, unlabeled units above, labeled edges, remotes.

    Valid by mrp-validate's UCCA rules: every leaf is an anchored terminal, and every
    target of a remote edge has a primary parent."""
    terminals = max(2, size * 3 // 5)
    text, spans, _ = _sentence(rng, terminals)
    units = max(1, size - terminals)
    nodes = [_node(k, anchors=[spans[k]]) for k in range(terminals)]
    nodes += [_node(k) for k in range(terminals, terminals + units)]
    unit_ids = list(range(terminals, terminals + units))
    edges = [{"source": unit_ids[rng.randrange(k)], "target": unit_ids[k], "label": UCCA_EDGES.one(rng)}
             for k in range(1, units)]
    for k in range(terminals):  # every unit gets a terminal (units < terminals): no unanchored leaf
        parent = unit_ids[k] if k < units else rng.choice(unit_ids)
        edges.append({"source": parent, "target": k, "label": UCCA_EDGES.one(rng)})
    for _ in range(units // 6):  # remote edges into units that have a primary parent (not the root)
        a, b = rng.choice(unit_ids), rng.choice(unit_ids[1:])
        if a != b:
            edges.append({"source": a, "target": b, "label": "A", "attributes": ["remote"], "values": [True]})
    return _graph(gid, "ucca", 1, text, [unit_ids[0]], nodes, edges)


def _amr(rng: random.Random, gid: str, size: int) -> Graph:
    """AMR (flavor 2): unanchored concepts, names with op properties, polarity, re-entrancies."""
    text, _, tokens = _sentence(rng, size + size // 3)
    nodes = []
    for nid in range(size):
        r = rng.random()
        if r < 0.07:
            nodes.append(_node(nid, "name", ["op1"], [NAMES.one(rng)]))
        elif r < 0.09:
            nodes.append(_node(nid, WORDS.one(rng), ["polarity"], ["-"]))
        elif r < 0.11:
            nodes.append(_node(nid, "date-entity", ["month", "day"], [str(rng.randint(1, 12)),
                                                                     str(rng.randint(1, 28))]))
        else:
            nodes.append(_node(nid, WORDS.one(rng) + rng.choice(AMR_SENSES)))
    order = list(range(size))
    rng.shuffle(order)
    edges = []
    for a, b in _tree_edges(rng, order, 0.08):
        role = AMR_ROLES.one(rng)
        edge = {"source": a, "target": b, "label": role}
        if role.endswith("-of") and role not in ("part-of", "consist-of"):
            edge["normal"] = role[:-3]
        edges.append(edge)
    return _graph(gid, "amr", 2, text, [order[0]], nodes, edges)


def _size(rng: random.Random) -> int:
    """A sentence-like graph size in 5..40 (skewed right, mean about 17)."""
    return min(40, 5 + int(rng.gammavariate(2.2, 5.5)))


# --------------------------------------------------------------------------- perturbation


def _perturb(rng: random.Random, gold: Graph, rate: float) -> Graph:
    """A system graph: a copy of ``gold`` with labels, properties, anchors, tops and edges changed."""
    framework = gold["framework"]
    nodes = []
    dropped = set()
    if len(gold["nodes"]) > 6 and rng.random() < 0.1:
        dropped.add(rng.choice(gold["nodes"])["id"])
    for node in gold["nodes"]:
        if node["id"] in dropped:
            continue
        node = dict(node)
        if "label" in node and rng.random() < rate:
            node["label"] = WORDS.one(rng) if framework != "eds" else EDS_ABSTRACT.one(rng)
        if "values" in node and rng.random() < rate:
            values = list(node["values"])
            if framework in ("dm", "psd"):
                values[0] = POS.one(rng)
            else:
                values[-1] = NAMES.one(rng)
            node["values"] = values
        if "anchors" in node and rng.random() < rate / 2:
            anchor = node["anchors"][0]
            node["anchors"] = [{"from": anchor["from"], "to": anchor["to"] + rng.choice((-1, 1, 2))}]
        nodes.append(node)
    ids = [node["id"] for node in nodes]
    roles = EDGE_LABELS[framework]
    edges = []
    for edge in gold["edges"]:
        if edge["source"] in dropped or edge["target"] in dropped or rng.random() < rate:
            continue
        if rng.random() < rate:
            edge = dict(edge, label=roles.one(rng))
            edge.pop("normal", None)
        edges.append(edge)
    for _ in range(int(rate * len(edges) + rng.random())):
        a, b = rng.choice(ids), rng.choice(ids)
        if a != b:
            edges.append({"source": a, "target": b, "label": roles.one(rng)})
    tops = [t for t in gold["tops"] if t not in dropped]
    if not tops or rng.random() < rate:
        tops = [rng.choice(ids)]
    return dict(gold, nodes=nodes, edges=edges, tops=tops)


# --------------------------------------------------------------------------- the corpus


def _block(seed: int, block: int, first: int, count: int, total: int) -> Tuple[str, str]:
    """Gold and system JSON lines of graphs ``first`` .. ``first + count - 1`` (one seeded block)."""
    rng = random.Random(f"mrp-bench-corpus:{seed}:{block}")
    shares = [share for _, _, share in MIX]
    gold_lines: List[str] = []
    system_lines: List[str] = []
    dumps = json.dumps
    for k in range(first, first + count):
        framework, flavor, _ = rng.choices(MIX, weights=shares)[0]
        gid = f"2{k:07d}"
        size = _size(rng)
        if framework in ("dm", "psd"):
            graph = _dm_psd(rng, gid, size, framework)
        elif framework == "eds":
            graph = _eds(rng, gid, size)
        elif framework == "ucca":
            graph = _ucca(rng, gid, size)
        else:
            graph = _amr(rng, gid, size)
        gold_lines.append(dumps(graph, ensure_ascii=False))
        r = rng.random()
        if r < 0.001:  # missing from the system file
            continue
        system = _perturb(rng, graph, rng.choice((0.02, 0.05, 0.1)))
        if r < 0.0011:  # invalid: an edge to a node that does not exist
            dangling = {"source": system["tops"][0], "target": 10_000, "label": "ARG1"}
            system["edges"] = system["edges"] + [dangling]
        system_lines.append(dumps(system, ensure_ascii=False))
        if r > 0.9995:  # an extra system graph with no gold graph
            system_lines.append(dumps(dict(system, id=f"9{k:07d}"), ensure_ascii=False))
    return "\n".join(gold_lines) + "\n", ("\n".join(system_lines) + "\n") if system_lines else ""


def corpus(directory: PathLike, graphs: int = 100_000, seed: int = 2020,
           workers: Optional[int] = None) -> Tuple[Path, Path]:
    """Write ``corpus.gold.mrp`` and ``corpus.system.mrp`` (``graphs`` gold graphs) into ``directory``.

    Deterministic in ``graphs`` and ``seed`` whatever ``workers`` (default: the CPU count)."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    gold_path, system_path = out / "corpus.gold.mrp", out / "corpus.system.mrp"
    blocks = [(seed, b, first, min(BLOCK, graphs - first), graphs)
              for b, first in enumerate(range(0, graphs, BLOCK))]
    workers = max(1, min(workers or os.cpu_count() or 1, len(blocks)))
    with open(gold_path, "w", encoding="utf-8") as gold_file, \
            open(system_path, "w", encoding="utf-8") as system_file:
        if workers == 1:
            results = (_block(*args) for args in blocks)
            for gold_text, system_text in results:
                gold_file.write(gold_text)
                system_file.write(system_text)
        else:
            with ProcessPoolExecutor(workers) as pool:
                for gold_text, system_text in pool.map(_block, *zip(*blocks)):
                    gold_file.write(gold_text)
                    system_file.write(system_text)
    return gold_path, system_path


# --------------------------------------------------------------------------- the big pair


def big_pair(directory: PathLike, nodes: int = 2000, seed: int = 2000, node_labels: int = 20,
             edge_labels: int = 5) -> Tuple[Path, Path]:
    """Write ``big.gold.mrp`` and ``big.system.mrp``: one unanchored EDS graph of ``nodes`` nodes each.

    ``node_labels`` node labels and ``edge_labels`` edge labels (uniform), a random tree plus
    ``nodes`` extra random edges; the system graph perturbed, renumbered and shuffled.  Also
    writes ``big.planted.json``: the tuple counts matched by the planted correspondence
    (see ``planted``)."""
    rng = random.Random(f"mrp-bench-big:{seed}:{nodes}")
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    labels = [f"_{w}_n_1" for w in _words(node_labels, f"mrp-bench-big-labels:{seed}")]
    roles = [f"ARG{k + 1}" for k in range(edge_labels)]
    cargs = [w.capitalize() for w in _words(50, f"mrp-bench-big-cargs:{seed}")]
    gold_nodes = []
    for nid in range(nodes):
        if rng.random() < 0.05:
            gold_nodes.append(_node(nid, "named", ["carg"], [rng.choice(cargs)]))
        else:
            gold_nodes.append(_node(nid, rng.choice(labels)))
    pairs = _tree_edges(rng, list(range(nodes)), 1.0)
    gold_edges: List[Dict[str, Any]] = [{"source": a, "target": b, "label": rng.choice(roles)}
                                        for a, b in pairs]
    gold = _graph("big", "eds", 1, None, [0], gold_nodes, gold_edges)

    renumber = list(range(nodes))
    rng.shuffle(renumber)
    system_nodes = []
    for node in gold_nodes:
        node = dict(node, id=renumber[node["id"]])
        if rng.random() < 0.05:
            node["label"] = rng.choice(labels)
            node.pop("properties", None)
            node.pop("values", None)
        system_nodes.append(node)
    rng.shuffle(system_nodes)
    system_edges = []
    for edge in gold_edges:
        r = rng.random()
        if r < 0.10:
            continue
        label = rng.choice(roles) if r < 0.12 else edge["label"]
        system_edges.append({"source": renumber[edge["source"]], "target": renumber[edge["target"]],
                             "label": label})
    for _ in range(len(gold_edges) // 50):
        a, b = rng.randrange(nodes), rng.randrange(nodes)
        if a != b:
            system_edges.append({"source": a, "target": b, "label": rng.choice(roles)})
    rng.shuffle(system_edges)
    system = _graph("big", "eds", 1, None, [renumber[0]], system_nodes, system_edges)

    gold_path, system_path = out / "big.gold.mrp", out / "big.system.mrp"
    for path, graph in ((gold_path, gold), (system_path, system)):
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(json.dumps(graph, ensure_ascii=False) + "\n")
    with open(out / "big.planted.json", "w", encoding="utf-8") as stream:
        json.dump(planted(gold, system, renumber), stream)
        stream.write("\n")
    return gold_path, system_path


def planted(gold: Graph, system: Graph, renumber: List[int]) -> Dict[str, int]:
    """The MRP tuples matched by the planted correspondence (gold node k -> system node renumber[k]).

    Any correspondence the scorer finds should match at least as many ("c"), and its
    upper bound must not be below it.  Counted for what big_pair writes: tops, labels,
    properties and edges (no anchors, no edge attributes; labels and values compared as
    written, which the scorer's lowercasing does not change here).
    """
    by_id = {node["id"]: node for node in system["nodes"]}
    labels = properties = 0
    for node in gold["nodes"]:
        partner = by_id[renumber[node["id"]]]
        labels += node.get("label") == partner.get("label")
        theirs = set(zip(partner.get("properties", ()), partner.get("values", ())))
        properties += len(set(zip(node.get("properties", ()), node.get("values", ()))) & theirs)
    system_edges = {(e["source"], e["target"], e["label"]) for e in system["edges"]}
    edges = len({(renumber[e["source"]], renumber[e["target"]], e["label"]) for e in gold["edges"]}
                & system_edges)
    tops = len({renumber[t] for t in gold["tops"]} & set(system["tops"]))
    counts = {"tops": tops, "labels": labels, "properties": properties, "edges": edges}
    counts["c"] = sum(counts.values())
    return counts


def main(argv: Optional[List[str]] = None) -> None:
    """Write both into a directory and print the sizes and the generation times."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("directory")
    p.add_argument("--pair-nodes", type=int, default=2000)
    p.add_argument("--graphs", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=None, help="default: each generator's own (as in the bench)")
    p.add_argument("--workers", type=int, default=None)
    args = p.parse_args(argv)
    seeds: Dict[str, int] = {} if args.seed is None else {"seed": args.seed}
    for what, make in (("big pair", lambda: big_pair(args.directory, args.pair_nodes, **seeds)),
                       ("corpus", lambda: corpus(args.directory, args.graphs, workers=args.workers,
                                                 **seeds))):
        start = time.perf_counter()
        paths = make()
        took = time.perf_counter() - start
        sizes = ", ".join(f"{path.name} {path.stat().st_size / 1e6:.1f} MB" for path in paths)
        print(f"{what}: {took:.1f} s; {sizes}", file=sys.stderr)


if __name__ == "__main__":
    main()
