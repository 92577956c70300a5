"""Hard pairs keep their promises (issue 17): identical graphs at once, a map whenever one scores, a
valid bound when cut; and the reduced-cost fixing bound against brute force on small random pairs.

Adversarial cases, small enough for CI: uniform labels, a complete graph against itself and against a
perturbed copy (too many candidate edge matches: solved on node rewards), a wide graph, 40-node uniform
graphs.  Times are not asserted here (the bench reports them).
"""

from __future__ import annotations

import itertools
import random
from typing import List, Tuple

import numpy as np
import pytest

from mrp.engine.options import Options
from mrp.graph import Edge, Graph, Node
from mrp.metrics.mrp.pair import score_pair
from mrp.metrics.smatch.metric import score_pair as smatch_pair
from mrp.normalize import normalize
from mrp.solver.problem import MAX_CANDIDATES, Problem, build, from_triples
from mrp.solver.solve import solve_problem


def graph(gid: str, labels: List[str], edges: List[Tuple[int, int, str]]) -> Graph:
    return Graph(id=gid, framework="eds", tops=[0], nodes=[Node(k, label) for k, label in enumerate(labels)],
                 edges=[Edge(a, b, label) for a, b, label in edges])


def complete(n: int) -> Graph:
    return graph("complete", ["x"] * n, [(a, b, "e") for a in range(n) for b in range(n) if a != b])


def uniform(n: int, seed: int, extra: int = 1) -> Graph:
    """A random tree plus extra * n random edges, one node label and one edge label."""
    rng = random.Random(seed)
    edges = {(rng.randrange(k), k, "e") for k in range(1, n)}
    ends = [(rng.randrange(n), rng.randrange(n)) for _ in range(extra * n)]
    edges |= {(a, b, "e") for a, b in ends if a != b}
    return graph("uniform", ["x"] * n, sorted(edges))


def check_promises(gold: Graph, system: Graph, timeout: float) -> None:
    """Exact, or cut with a non-empty map (when one scores) and c <= bound <= min(g, s)."""
    result = score_pair(gold, system, timeout=timeout)
    g, s, c = result.counts["all"]
    assert c <= result.bound <= min(g, s)
    if result.exact:
        assert result.bound == c
    else:
        assert result.cut in ("timeout", "limit")
    assert result.correspondence, "an empty correspondence although matching any two nodes scores"
    assert c > 0


@pytest.mark.parametrize("n", [150])
def test_a_complete_graph_against_itself_is_proved_at_once(n: int) -> None:
    gold = complete(n)
    result = score_pair(gold, complete(n), timeout=5)
    g, s, c = result.counts["all"]
    assert result.exact and result.steps == 0 and g == s == c == result.bound
    assert len(result.correspondence) == n
    options = Options(timeout=5)
    item = smatch_pair(gold, complete(n), options)
    assert item["exact"] and item["c"] == item["g"] == item["s"] == item["bound"]


def test_a_complete_graph_against_a_perturbed_copy_is_solved_on_its_nodes() -> None:
    gold = complete(60)
    system = complete(60)
    system.nodes[3].label = "y"
    del system.edges[::7]
    problem = build(normalize(gold), normalize(system))
    assert not problem.complete  # more than MAX_CANDIDATES candidate edge matches
    assert len(gold.edges) * len(system.edges) > MAX_CANDIDATES
    check_promises(gold, system, timeout=5)


def test_a_wide_graph_against_a_perturbed_copy() -> None:
    gold = graph("wide", ["root"] + ["x"] * 99, [(0, k, "e") for k in range(1, 100)])
    system = graph("wide", ["root"] + ["x"] * 99, [(0, k, "e") for k in range(1, 100) if k % 10])
    check_promises(gold, system, timeout=2)


@pytest.mark.parametrize("seed", [1, 2])
def test_uniform_forty_node_graphs(seed: int) -> None:
    check_promises(uniform(40, seed), uniform(40, seed + 100), timeout=1)


def test_symmetric_rings() -> None:
    ring = [(k, (k + 1) % 30, "e") for k in range(30)]
    chords = [(k, (k + 15) % 30, "e") for k in range(0, 30, 3)]
    check_promises(graph("ring", ["x"] * 30, ring + chords), graph("ring", ["x"] * 30, ring), timeout=2)


def test_out_of_time_while_building_still_gives_a_greedy_map() -> None:
    gold, system = normalize(uniform(30, 5)), normalize(uniform(30, 6))
    stopped = np.ones(1, np.int64)
    assert not build(gold, system, stopped).complete
    local = [{("instance", "x"): 1} for _ in range(30)]
    assert not from_triples(local, local, {(0, 1, "e"): 1}, {(1, 0, "e"): 1}, stopped).complete
    # a timeout of 0: the build stops at once, the solver still returns a map on the rewards
    solution = solve_problem(lambda stop: build(gold, system, stop), timeout=0)
    assert not solution.exact and not solution.complete and solution.cut == "timeout"
    assert sum(j >= 0 for j in solution.mapping) == 30


# --------------------------------------------------------------------------------------------------
# The reduced-cost fixing bound against brute force


def random_problem(rng: random.Random, n: int, m: int) -> Problem:
    """A random Problem with small rewards and one or two edge labels."""
    local_g = [{("l", rng.randrange(2)): 1} for _ in range(n)]
    local_s = [{("l", rng.randrange(2)): rng.choice([1, 1, 2])} for _ in range(m)]
    rel_g = {(rng.randrange(n), rng.randrange(n), rng.randrange(2)): 1 for _ in range(2 * n)}
    rel_s = {(rng.randrange(m), rng.randrange(m), rng.randrange(2)): rng.choice([1, 2]) for _ in range(2 * m)}
    return from_triples(local_g, local_s, rel_g, rel_s)


def value(problem: Problem, pi: Tuple[int, ...]) -> int:
    """The objective of a map, straight from the arrays (not the solver's code)."""
    total = sum(int(problem.U[i, j]) for i, j in enumerate(pi) if j >= 0)
    for e in range(len(problem.src)):
        c, d = pi[problem.src[e]], pi[problem.tgt[e]]
        for q in range(problem.cptr[e], problem.cptr[e + 1]):
            if c >= 0 and (problem.cc[q], problem.cd[q]) == (c, d):
                total += int(problem.cw[q])
    return total


def every_map(n: int, m: int):
    for chosen in itertools.product(range(-1, m), repeat=n):
        used = [j for j in chosen if j >= 0]
        if len(used) == len(set(used)):
            yield chosen


def best_through(problem: Problem, n: int, m: int) -> Tuple[np.ndarray, int]:
    """By brute force: the best value of a map through each pair (-1: none), and the optimum."""
    through = np.full((n, m), -1)
    optimum = 0
    for pi in every_map(n, m):
        v = value(problem, pi)
        optimum = max(optimum, v)
        for i, j in enumerate(pi):
            if j >= 0:
                through[i, j] = max(through[i, j], v)
    return through, optimum


@pytest.mark.parametrize("seed", range(60))
def test_reduced_cost_fixing_never_bans_a_pair_of_a_better_map(seed: int) -> None:
    from mrp.solver.arrays import index
    from mrp.solver.kernel import fixing, solve
    from mrp.solver.potential import SCALE, scratch

    rng = random.Random(seed)
    n, m = rng.randint(2, 5), rng.randint(2, 5)
    problem = random_problem(rng, n, m)
    through, optimum = best_through(problem, n, m)
    found, bound, _, exact, _ = solve(problem, 10**6, 700, np.zeros(1, np.int64), np.zeros(0, np.int64))
    assert found == optimum and exact and bound == optimum
    ix = index(problem)
    sc = scratch(m, len(problem.ssrc))
    for trial in range(4):  # any split of the edge weights gives a valid bound
        share = np.array([rng.randint(0, w * SCALE) if trial else w * SCALE // 2 for w in problem.cw],
                         np.int64)
        for best in (optimum - 1, optimum - 2):
            banned = fixing(problem, ix, share, best, np.zeros(1, np.int64), sc, np.zeros((n, m), np.bool_))
            for i, j in zip(*np.nonzero(banned)):
                assert through[i, j] <= best, f"{i}->{j} banned but a map through it is worth {through[i, j]}"
