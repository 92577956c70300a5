"""The triples a SMATCH correspondence leaves unmatched (``--errors``): the missing gold triples and the
surplus system triples, by node id."""

from __future__ import annotations

from typing import Any, Dict, Hashable, List, Tuple

from mrp.graph import Graph
from mrp.metrics.smatch.penman import Local, Relations

__all__ = ["differences"]


def _plain(key: Hashable) -> List[Any]:
    """A triple's name and value as JSON values (an anchor set as its sorted positions)."""
    parts = key if isinstance(key, tuple) else (key,)
    return [sorted(part) if isinstance(part, frozenset) else part for part in parts]


def differences(gold: Graph, system: Graph, mapping: List[int], tg: Tuple[Local, Relations, int],
                ts: Tuple[Local, Relations, int]) -> Dict[str, Any]:
    """The triples unmatched under a map: ``{"correspondences": [[gold id, system id]...], "triples":
    {"missing": [[gold node id(s)..., name, value]...], "surplus": [[system node id(s)...]...]}}``."""
    (local_g, rel_g, _), (local_s, rel_s, _) = tg, ts
    inverse = {j: i for i, j in enumerate(mapping) if j >= 0}

    def unmatched(local_a: Local, rel_a: Relations, local_b: Local, rel_b: Relations,
                  to: Dict[int, int], ids: List[Any]) -> List[List[Any]]:
        out: List[List[Any]] = []
        for i, keys in enumerate(local_a):
            j = to.get(i, -1)
            for key, copies in keys.items():
                if copies > (local_b[j].get(key, 0) if j >= 0 else 0):
                    out.append([ids[i], *_plain(key)])
        for (a, b, key), copies in rel_a.items():
            c, d = to.get(a, -1), to.get(b, -1)
            if copies > (rel_b.get((c, d, key), 0) if c >= 0 and d >= 0 else 0):
                out.append([ids[a], ids[b], *_plain(key)])
        return out

    gold_ids = [node.id for node in gold.nodes]
    system_ids = [node.id for node in system.nodes]
    forward = {i: j for i, j in enumerate(mapping) if j >= 0}
    return {"correspondences": [[gold_ids[i], system_ids[j]] for i, j in forward.items()],
            "triples": {"missing": unmatched(local_g, rel_g, local_s, rel_s, forward, gold_ids),
                        "surplus": unmatched(local_s, rel_s, local_g, rel_g, inverse, system_ids)}}
