"""Smatch++'s triples: SMATCH as Smatch++ 1.8.0 reads and standardizes AMR (``--smatchpp-compat``).

Smatch++ (Opitz 2023; PyPI ``smatchpp``) solves the same alignment problem exactly (its ILP), so every
difference from mrp's SMATCH lies in the triples it counts.  ``smatchpp_compat`` ("generic" or "amr",
its ``-graph_type``) builds them by its rules, each restated here from reading its source:

* **Reading** (``PenmanReader``): a triple per concept ``(x, :instance, c)``, per relation and per
  constant as written (inverted roles unchanged), and the root triple ``(ROOT_OF_GRAPH, :root, x)``;
  a quoted string is one token with its quotes, each run of white space inside it one space.
* **Both graph types**: everything lowercased, every ``"`` and ``'`` removed (from concepts, roles,
  constants and variables), variables renamed (a constant, after the two steps above, that equals a
  variable's name becomes a reference to that node: ``:op1 "I"`` beside ``(i / i)``), and every
  ``-of`` role inverted, ``consist-of`` and ``prep-*-of`` too (an odd number of ``-of``: the triple
  turns around, constants included).
* **amr** in addition: ``:domain`` is ``:mod`` inverted; the root triple becomes ``(x, :root,
  concept)`` (a TOP valued with the concept); nodes of its reification table (:data:`DEREIFY`, one
  concept per relation) that are no root, have no incoming triple and exactly the two argument roles
  become their relation; duplicate triples are removed.
* **generic** keeps duplicates: two triples match at most as often as the fewer copies.
* **none** (no ``-graph_type``, Smatch++'s default) standardizes nothing: case, quotes, inverted roles and
  duplicates stay as read.

Triples whose two ends are both constants count in the totals and match when identical, whatever
the alignment (they sit on a node of their own that only its counterpart can match).  A pair's
F is then Smatch++'s own (it prints percent with two decimals).

What mrp's Penman reader reads differently stays as mrp reads it: alignment markers (``~e.3``, which
Smatch++ keeps as part of a concept or constant), string escapes (``\"``), and graphs mrp refuses (a
variable defined twice), which Smatch++ reads its own way.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Dict, Hashable, List, Sequence, Tuple

from mrp.codecs.penman import Quoted
from mrp.engine import Options, Parameter, Run
from mrp.errors import MRPError
from mrp.graph import Graph
from mrp.metrics.smatch.penman import Local, Relations

__all__ = ["DEREIFY", "GRAPH_TYPES", "SMATCHPP_COMPAT", "STEPS", "Triple", "check_compat", "concept_root",
           "deduplicated", "deinverted", "dereified", "domain_as_mod", "read", "renamed", "smatchpp_status",
           "smatchpp_triples", "solver_triples", "standardize", "unquoted"]

#: Smatch++'s graph types (its ``-graph_type``) that the option reproduces ("none": no graph type, its
#: command line's default: nothing standardized)
GRAPH_TYPES = ("generic", "amr", "none")

SMATCHPP_COMPAT = Parameter("smatchpp_compat", "--smatchpp-compat",
                            "smatch: count the triples of Smatch++ 1.8.0 with this -graph_type (generic: "
                            "lowercased, quotes removed, every -of role inverted; amr: also :domain as "
                            ":mod-of, the root valued with its concept, dereification, duplicates "
                            "removed; none: its default, nothing standardized), so that its F is Smatch++'s "
                            "ILP score", str, "TYPE", None,
                            GRAPH_TYPES)

Triple = Tuple[str, str, str]

#: the root triple's source and role as Smatch++'s reader writes them
ROOT_SOURCE, ROOT = "ROOT_OF_GRAPH", ":root"
INSTANCE = ":instance"

#: Smatch++'s dereification table (its formalism/amr/resource/reify_table.txt, the AMR guidelines' table
#: as it keeps it: the first concept of each relation, roles lowercased): concept -> (relation, role to
#: the relation's source, role to its target)
DEREIFY: Dict[str, Tuple[str, str, str]] = {concept: (":" + relation, ":arg" + a, ":arg" + b) for
                                            relation, concept, a, b in (
    ("accompanier", "accompany-01", "1", "0"), ("age", "age-01", "1", "2"),
    ("beneficiary", "benefit-01", "0", "1"), ("concession", "have-concession-91", "1", "2"),
    ("condition", "have-condition-91", "1", "2"), ("degree", "have-degree-91", "1", "2"),
    ("destination", "be-destined-for-91", "1", "2"), ("duration", "last-01", "1", "2"),
    ("example", "exemplify-01", "1", "0"), ("extent", "have-extent-91", "1", "2"),
    ("frequency", "have-frequency-91", "1", "2"), ("instrument", "have-instrument-91", "1", "2"),
    ("li", "have-li-91", "1", "2"), ("location", "be-located-at-91", "1", "2"),
    ("manner", "have-manner-91", "1", "2"), ("mod", "have-mod-91", "1", "2"),
    ("name", "have-name-91", "1", "2"), ("ord", "have-ord-91", "1", "2"),
    ("part", "have-part-91", "1", "2"), ("polarity", "have-polarity-91", "1", "2"),
    ("poss", "own-01", "1", "0"), ("purpose", "have-purpose-91", "1", "2"),
    ("quant", "have-quant-91", "1", "2"), ("source", "be-from-91", "1", "2"),
    ("subevent", "have-subevent-91", "1", "2"), ("time", "be-temporally-at-91", "1", "2"),
    ("topic", "concern-02", "0", "1"), ("value", "have-value-91", "1", "2"))}


def _text(value: object) -> str:
    """A constant as Smatch++'s reader keeps it: a quoted string with its quotes, white space runs as one
    space."""
    return '"' + _spaced(value) + '"' if isinstance(value, Quoted) else str(value)


def _spaced(text: str) -> str:
    """Each run of white space as one space (leading and trailing runs too), as joining split tokens does."""
    out: List[str] = []
    blank = False
    for char in text:
        if char.isspace():
            if not blank:
                out.append(" ")
            blank = True
        else:
            out.append(char)
            blank = False
    return "".join(out)


def read(graph: Graph) -> List[Triple]:
    """The triples of a graph as Smatch++'s Penman reader gives them (variables as the file named them)."""
    names = graph.variables or {}
    name = {node.id: names.get(node.id, f"v{node.id}") for node in graph.nodes}
    triples: List[Triple] = []
    if graph.nodes:
        root = graph.tops[0] if graph.tops else graph.nodes[0].id
        triples.append((ROOT_SOURCE, ROOT, name[root]))
    for node in graph.nodes:
        if node.label is not None:
            triples.append((name[node.id], INSTANCE, _text(node.label)))
        for role, value in zip(node.properties, node.values):
            triples.append((name[node.id], ":" + str(role), _text(value)))
    for edge in graph.edges:
        role = ":" + str(edge.label or "")
        if role == ROOT:  # the reader keeps ":root" for the graph's root
            role += "_but_not_the_graph_root"
        triples.append((name[edge.source], role, name[edge.target]))
    return triples


def unquoted(triples: List[Triple]) -> List[Triple]:
    """Everything lowercased, every ``"`` and ``'`` removed (Smatch++'s first two steps)."""
    return [(_plain(s), _plain(r), _plain(t)) for s, r, t in triples]


def _plain(text: str) -> str:
    return text.lower().replace('"', "").replace("'", "")


def _concepts(triples: List[Triple]) -> Dict[str, str]:
    return {source: target for source, role, target in triples if role == INSTANCE}


def renamed(triples: List[Triple]) -> List[Triple]:
    """Variables renamed as Smatch++ renames them (first letter of the concept, numbered; never a constant):
    a constant that equals a variable's old name is taken for that variable."""
    concepts = _concepts(triples)
    constants = set(concepts.values())
    for source, role, target in triples:
        if role != INSTANCE:
            constants.update(end for end in (source, target) if end not in concepts)
    new: Dict[str, str] = {}
    used: Dict[str, int] = {}
    for variable, concept in concepts.items():
        stem = concept[:1]
        name = stem if stem not in used else stem + str(used[stem])
        used[stem] = used.get(stem, 0) + 1
        while name in constants:
            name += "x"
        new[variable] = name
    return [(new.get(source, source), role, target if role == INSTANCE else new.get(target, target))
            for source, role, target in triples]


def deinverted(triples: List[Triple]) -> List[Triple]:
    """Every role ending in ``-of`` loses each ``-of``; an odd number of them turns the triple around."""
    out = []
    for source, role, target in triples:
        flips = 0
        while role.endswith("-of"):
            role, flips = role[:-3], flips + 1
        out.append((target, role, source) if flips % 2 else (source, role, target))
    return out


def domain_as_mod(triples: List[Triple]) -> List[Triple]:
    """amr: ``:domain`` is ``:mod-of`` and ``:domain-of`` is ``:mod``."""
    names = {":domain": ":mod-of", ":domain-of": ":mod"}
    return [(source, names.get(role, role), target) for source, role, target in triples]


def concept_root(triples: List[Triple]) -> List[Triple]:
    """amr: the first root triple becomes (root, :root, its concept)."""
    concepts = _concepts(triples)
    for k, (_, role, target) in enumerate(triples):
        if role == ROOT and target in concepts:
            return triples[:k] + [(target, ROOT, concepts[target])] + triples[k + 1:]
        if role == ROOT:
            break
    return triples


def dereified(triples: List[Triple]) -> List[Triple]:
    """amr: nodes of :data:`DEREIFY` become their relation where Smatch++ dereifies them: no root, no
    incoming triple, exactly one triple of each argument role and no other (decided on the triples as
    they were; the new relations after the others)."""
    concepts = _concepts(triples)
    incoming = Counter(target for _, _, target in triples)
    rooted = {target for _, role, target in triples if role == ROOT}
    dropped: set = set()
    added: List[Triple] = []
    for variable in dict.fromkeys(source for source, _, _ in triples):
        rule = DEREIFY.get(concepts.get(variable, ""))
        if rule is None or variable in rooted or incoming[variable]:
            continue
        relation, first, second = rule
        ends: Dict[str, List[int]] = {first: [], second: []}
        other = False
        for k, (source, role, _) in enumerate(triples):
            if source == variable and role != INSTANCE:
                if role in ends:
                    ends[role].append(k)
                else:
                    other = True
        if other or len(ends[first]) != 1 or len(ends[second]) != 1:
            continue
        instance = next(k for k, (source, role, _) in enumerate(triples) if source == variable
                        and role == INSTANCE)
        a, b = ends[first][0], ends[second][0]
        dropped.update((a, b, instance))
        added.append((triples[a][2], relation, triples[b][2]))
    return [triple for k, triple in enumerate(triples) if k not in dropped] + added


def deduplicated(triples: List[Triple]) -> List[Triple]:
    """amr: each triple once."""
    return list(dict.fromkeys(triples))


Step = Callable[[List[Triple]], List[Triple]]

#: Smatch++'s standardization steps per graph type, in its order
STEPS: Dict[str, Tuple[Step, ...]] = {
    "generic": (unquoted, renamed, deinverted),
    "amr": (unquoted, renamed, domain_as_mod, deinverted, concept_root, dereified, deduplicated),
    "none": (),
}


def standardize(triples: List[Triple], steps: Sequence[Step]) -> List[Triple]:
    """A graph's triples after these steps (``STEPS[graph_type]``: Smatch++'s standardization)."""
    for step in steps:
        triples = step(triples)
    return triples


def smatchpp_triples(graph: Graph, graph_type: str) -> Tuple[Local, Relations, int]:
    """SMATCH's node-local triples, relations and triple count of a graph under Smatch++'s rules.

    A triple's k-th copy is a key of its own, so two graphs' copies match at most min(a, b) times, as
    Smatch++ counts them.
    """
    return solver_triples(standardize(read(graph), STEPS[graph_type]))


def solver_triples(triples: List[Triple]) -> Tuple[Local, Relations, int]:
    """Node-local triples, relations and the triple count of standardized triples (the nodes: the
    variables, those with a concept)."""
    concepts = _concepts(triples)
    position = {variable: k for k, variable in enumerate(concepts)}
    local: Local = [{} for _ in position]
    relations: Relations = {}
    fixed: Dict[Hashable, int] = {}
    seen: Counter = Counter()
    for triple in triples:
        seen[triple] += 1
        copy = seen[triple]
        source, role, target = triple
        a = position.get(source)
        b = position.get(target) if role != INSTANCE else None
        if a is not None and b is not None:
            relations[(a, b, (role, copy))] = 1
        elif a is not None:
            local[a][("out", role, target, copy)] = 1
        elif b is not None:
            local[b][("in", source, role, copy)] = 1
        else:
            fixed[("fixed", source, role, target, copy)] = 1
    if fixed:
        local.append(fixed)
    return local, relations, len(triples)


def check_compat(options: Options) -> None:
    """Refuse ``smatchpp_compat`` with an unknown graph type or beside another definition of the triples
    (Smatch++ standardizes by its own rules)."""
    kind = options.smatchpp_compat
    if not kind:
        return
    if kind not in GRAPH_TYPES:
        raise MRPError(f"smatchpp_compat: unknown graph type '{kind}' (choose from {', '.join(GRAPH_TYPES)})")
    if options.smatch_compat:
        raise MRPError("--smatchpp-compat and --smatch-compat define the triples differently: choose one")
    if options.doc_align != "none":
        raise MRPError("--smatchpp-compat aligns whole graphs, as Smatch++ does: leave --doc-align out")
    if options.standardization != "none":
        raise MRPError(f"--smatchpp-compat applies Smatch++'s own standardization; --standardize "
                       f"{options.standardization} would change the graphs first: leave it out")


def smatchpp_status(run: Run) -> Dict[str, object]:
    """What Smatch++ logs after a run, from the same items: the graph type, the summed lower (the triples
    matched) and upper bounds of the alignments (its ILP's "Optimal status, lower & upper bound"), and the
    pairs whose optimum is not proved (upper above lower by more than 1, its rule)."""
    lower = upper = unproved = 0
    for result in run.results:
        g, s, c = result.counts.get((), (0, 0, 0))[:3]
        bound = min(g, s, max(result.bound, c))
        lower, upper = lower + c, upper + bound
        unproved += bound - c > 1
    return {"graph_type": run.options.smatchpp_compat, "status": [lower, upper], "not_optimal": unproved}
