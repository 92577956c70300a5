"""Run the reference WLK (flipz357/weisfeiler-leman-amr-metrics, ``src/main_wlk.py``'s computation, scores
not rounded) on two Penman files and print the per-pair scores as a JSON list (made the stored values of
``tests/data/wlk/testbed-2k.json``; run by ``tests/test_wlk.py`` with ``WLK_DIR`` and ``WLK_PYTHON``).

``python tests/wlk_reference.py SRC A B [K] [DIRECTION] [PATCHES]``: SRC is the reference's ``src`` folder;
PATCHES, comma-separated:

* ``ordered``: duplicate triples removed in their written order (``dict.fromkeys``) and constants made
  nodes in triple order, instead of by Python sets (the reference's node order then follows string
  hashing, which changes with ``PYTHONHASHSEED``);
* ``pernode``: each node relabelled by its own neighbourhood, instead of every node of a label by the
  last one's.

The word-vector modules the reference imports at the top (gensim, pyemd) are not used by WLK and are
stubbed.
"""

import builtins
import json
import sys
import types
from typing import Any, Dict, List


def _stub() -> None:
    sys.modules["pyemd"] = types.SimpleNamespace(emd_with_flow=None)  # type: ignore[assignment]
    gensim = types.ModuleType("gensim")
    gensim.downloader = types.SimpleNamespace(load=None)  # type: ignore[attr-defined]
    sys.modules["gensim"] = gensim
    sys.modules["gensim.downloader"] = gensim.downloader  # type: ignore[attr-defined]


class _SortedSet(set):  # type: ignore[type-arg]
    """A set that iterates in sorted order (the triple positions of constants)."""

    def __iter__(self) -> Any:
        return iter(sorted(builtins.set.__iter__(self)))


def _ordered(gh: Any) -> None:
    original = gh.GraphParser.string_graphs_to_triples

    def triples(self: Any, string_graphs: List[str]) -> Any:
        keep = self.remove_duplicates
        self.remove_duplicates = False
        try:
            tripless = original(self, string_graphs)
        finally:
            self.remove_duplicates = keep
        return [list(dict.fromkeys(t)) for t in tripless] if keep else tripless

    gh.GraphParser.string_graphs_to_triples = triples
    reify = gh.reify_nodes

    def reify_sorted(triples: Any) -> Any:
        gh.set = _SortedSet
        try:
            return reify(triples)
        finally:
            del gh.set

    gh.reify_nodes = reify_sorted


def _per_node(amrsim: Any) -> None:
    def gather_nodes(self: Any, graph: Any) -> Dict[Any, Any]:
        return {node: self.wl_gather_node(node, graph) for node in graph.nodes}

    def update(self: Any, graph: Any, new: Dict[Any, Any]) -> None:
        for node in graph.nodes:
            graph.nodes[node]["label"] = new[node]

    amrsim.WLK.wl_gather_nodes = gather_nodes
    amrsim.WLK.update_node_labels = update


def main(argv: List[str]) -> None:
    """Print the scores (the command line above)."""
    _stub()
    sys.path.insert(0, argv[0])
    import amr_similarity as amrsim  # type: ignore[import-not-found]
    import data_helpers as dh  # type: ignore[import-not-found]
    import graph_helpers as gh  # type: ignore[import-not-found]

    k = int(argv[3]) if len(argv) > 3 else 2
    direction = argv[4] if len(argv) > 4 else "both"
    patches = set(argv[5].split(",")) if len(argv) > 5 and argv[5] else set()
    if "ordered" in patches:
        _ordered(gh)
    if "pernode" in patches:
        _per_node(amrsim)
    parser = gh.GraphParser(input_format="penman", edge_to_node_transform=False)
    first, _ = parser.parse(dh.read_graph_file(argv[1]))
    second, _ = parser.parse(dh.read_graph_file(argv[2]))
    scores = amrsim.WLK(iters=k, communication_direction=direction).predict(first, second)
    print(json.dumps([float(score) for score in scores]))


if __name__ == "__main__":
    main(sys.argv[1:])
