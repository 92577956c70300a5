"""Small random MRP graphs with duplicated node ids, repeated edges, loops and cycles (the inputs
``random.mrp`` and ``random.dm.mrp`` of tests/test_mtool_readings.py, whose references mtool made).

Usage: ``python random_graphs.py SEED FLAVOR > FILE`` (flavor 0: framework ``dm``, else ``ucca``).
"""

import json
import random
import sys


def graphs(seed: int, flavor: int) -> list:
    """30 graphs of 1 to 7 nodes; in 7 of 10 the ids are drawn with repetition."""
    draw = random.Random(seed)
    made = []
    for k in range(30):
        n = draw.randint(1, 7)
        ids = [draw.randint(0, n) for _ in range(n)] if draw.random() < 0.7 else list(range(n))
        nodes = [{"id": i, "label": f"l{draw.randint(0, 3)}"} if draw.random() < 0.6 else {"id": i}
                 for i in ids]
        distinct = sorted(set(ids))
        edges = []
        for _ in range(draw.randint(0, 8)):
            source, target = draw.choice(distinct), draw.choice(distinct)
            edges.append({"source": source, "target": target, "label": draw.choice("ABC")})
        tops = draw.sample(distinct, draw.randint(0, min(2, len(distinct))))
        made.append({"id": f"g{k}", "framework": "dm" if flavor == 0 else "ucca", "flavor": flavor,
                     "time": "2026-12-07", "version": "1.1", "input": "x", "tops": tops, "nodes": nodes,
                     "edges": edges})
    return made


if __name__ == "__main__":
    for graph in graphs(int(sys.argv[1]), int(sys.argv[2])):
        print(json.dumps(graph))
