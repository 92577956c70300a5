"""AMR standardization: rewrite AMR graphs into a normal form before scoring.

The same meaning can be written as different AMR graphs: ``(a :ARG0-of b)``
is ``(b :ARG0 a)``, ``:domain-of`` is ``:mod``, and a relation of the AMR
guidelines' reification table can be a relation or a node
(``x :location y`` is ``x :ARG1-of (b / be-located-at-91 :ARG2 y)``).  Scoring
two such graphs against each other gives less than 1.0 although they mean the
same.  :func:`standardize` rewrites a graph into a normal form chosen by a
:class:`Standardization` (a set of options); the roles, the inversions and the
reification table are those of the ``penman`` library's AMR model
(``penman.models.amr.model``), applied with ``penman.transform``.

Options:

* ``roles``: canonical roles.  Multiple inversions collapse (``:ARG0-of-of`` is
  ``:ARG0``), the model's normalizations apply (``:domain-of`` is ``:mod``,
  ``:mod-of`` is ``:domain``), and ``x :domain y`` becomes ``y :mod x``, so
  that ``:mod`` is the one canonical name of that relation (as in Smatch++).
  Roles whose canonical form ends in ``-of`` (``:consist-of``, ``:prep-out-of``,
  ``:prep-on-behalf-of``) are not inverted.
* ``reify``: every relation of the reification table becomes its node (the
  first concept the table gives for it).  Nodes of the table are dereified
  first where that is possible, so that each relation has one reified form
  (``have-03`` and ``own-01`` both mean ``:poss``; both end as ``own-01``).
* ``dereify``: every node of the table becomes its relation where that is
  possible (below).  Relations are reified first, so that each has one
  dereified form (``x :superset y`` ends as ``y :subset x``).
* ``attributes``: constants become nodes whose label is the constant
  (``:polarity -`` becomes an edge to a node labelled ``-``).
* ``dedupe``: identical triples (same source, role and target) are kept once.
* ``no_wiki``: ``:wiki`` constants are dropped.

With any option set, relations between nodes are written in their normal
direction (penman's ``deinvert``: ``a :ARG0-of b`` is the edge ``b -ARG0-> a``),
which the scorers do anyway.  The result has new node ids ``0..n-1`` (the tops
first, then in order of first mention), and each edge's ``normal`` is what the
AMR reader sets for its label (``mod`` -> ``domain``, else None for a relation
in normal direction), so that the scorers read every edge in the direction it
is written.  Node labels, anchors and constant values are kept as they are
(:class:`~mrp.codecs.penman.Quoted` and :class:`~mrp.codecs.penman.Symbol` included);
edge attributes, edge anchors and edge ids are not kept.

When is dereification possible?  penman's ``dereify_edges`` dereifies a node
whose concept is in the table, that is not the graph's top, that is the target
of no triple, that has exactly two outgoing triples (constants included) and
whose two roles are the table's argument roles for that concept.  It misses
two conditions, which are added here: no node of the graph's tops (penman
knows one top) is dereified, and a node whose relation would start at a
constant (``(b / be-located-at-91 :ARG1 "Paris" :ARG2 x)``) stays a node
(penman returns a triple whose source is the constant ``"Paris"``).

Presets (:data:`PRESETS`):

* ``none``: nothing; the graph as it is.
* ``smatchpp``: ``roles+dereify+dedupe``, the AMR standardization of Smatch++
  (Opitz, 2023; ``formalism/amr/tools.py`` ``AMRStandardizer`` and its
  ``score.sh``): ``:domain`` as inverted ``:mod``, deinverted edges,
  dereification and duplicate removal.  Its lowercasing and quote removal are
  left out because the scorers here already compare labels and values
  lowercased and without quotes; its concept-as-root step is what their
  ``TOP`` triple does.  It equals the ``dereify`` preset.
* ``reify``: ``roles+reify+dedupe``: every relation of the table as a node.
* ``dereify``: ``roles+dereify+dedupe``: every node of the table as a relation
  where possible (the form of the AMR releases).
* ``structure``: Penman structure preservation (:mod:`mrp.standardize.structure`): triples
  recording which occurrence of a node holds its definition and the order of
  every node's branches are added; it combines with no other option.

A graph standardized as ``reify`` scores 1.0 against the same graph
standardized as ``dereify`` once both sides are standardized by the same
preset (``reify`` or ``dereify``).
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List, Sequence

from penman import transform
from penman.exceptions import ModelError
from penman.models.amr import model as AMR

from mrp.errors import MRPError
from mrp.graph import Graph, check_references
from mrp.standardize.options import PRESETS, Standardization, parse
from mrp.standardize.structure import preserve_structure
from mrp.standardize.triples import (
    GUARD_ROLE,
    GUARD_VARIABLE,
    INSTANCE,
    Triple,
    is_variable,
    penman_graph,
    to_graph,
    to_triples,
)

__all__ = ["PRESETS", "Standardization", "parse", "standardize"]


def standardize(graph: Graph, std: Standardization) -> Graph:
    """A new graph: ``graph`` standardized as ``std`` says; the input is not modified.

    Graphs of another framework than AMR (or None) and standardization
    ``none`` give an unchanged copy.  Tops, id, input, framework and flavor are
    kept.  MRPError for a graph whose edges or tops name no node.
    """
    if std.structure:
        return preserve_structure(graph)
    if graph.framework not in (None, "amr") or not std.active() or not graph.nodes:
        return copy.deepcopy(graph)
    problem = check_references(graph)
    if problem is not None:
        raise MRPError(f"graph {graph.id}: cannot be standardized: {problem}")
    names = {node.id: f"v{k}" for k, node in enumerate(graph.nodes)}
    tops = list(dict.fromkeys(names[top] for top in graph.tops))
    triples = to_triples(graph, names, std.no_wiki)
    for step in _steps(std, tops):
        triples = step(triples)
    origin = {names[node.id]: node for node in graph.nodes}
    return to_graph(graph, triples, tops, origin)


# --------------------------------------------------------------------------- the steps

Step = Callable[[List[Triple]], List[Triple]]


def _steps(std: Standardization, tops: List[str]) -> List[Step]:
    """The transformations of a standardization, in the order they apply."""
    steps: List[Step] = []
    if std.roles:
        steps.append(_canonical_roles)
    if std.reify:
        steps += [lambda t: _dereify(t, tops), lambda t: _reify(t, tops)]
    if std.dereify:
        steps += [lambda t: _reify(t, tops), lambda t: _dereify(t, tops)]
    if std.attributes:
        steps.append(lambda t: _reify_attributes(t, tops))
        if std.roles:
            steps.append(_canonical_roles)
    if not std.dedupe:
        return steps
    # duplicates go before each step (a duplicate relation would become two reified nodes) and at the end
    deduped: List[Step] = [_dedupe]
    for step in steps:
        deduped += [step, _dedupe]
    return deduped


def _dedupe(triples: List[Triple]) -> List[Triple]:
    """Each triple once, at its first place."""
    return list(dict.fromkeys(triples))


def _canonical_role(triple: Triple) -> Triple:
    """A triple with its canonical role, a relation in normal direction, :domain as inverted :mod."""
    source, role, target = triple
    if role == INSTANCE:
        return triple
    role = AMR.canonicalize_role(role)
    if not is_variable(target):
        return (source, role, target)
    if AMR.is_role_inverted(role):
        source, role, target = target, AMR.invert_role(role), source
    if role == ":domain":
        source, role, target = target, ":mod", source
    return (source, role, target)


def _canonical_roles(triples: List[Triple]) -> List[Triple]:
    return [_canonical_role(triple) for triple in triples]


def _reify(triples: List[Triple], tops: Sequence[str]) -> List[Triple]:
    """Every relation of the reification table as its node (penman's ``reify_edges``)."""
    return list(transform.reify_edges(penman_graph(triples, tops), AMR).triples)


def _reify_attributes(triples: List[Triple], tops: Sequence[str]) -> List[Triple]:
    """Every constant as a node labelled with it (penman's ``reify_attributes``)."""
    return list(transform.reify_attributes(penman_graph(triples, tops)).triples)


def _dereify(triples: List[Triple], tops: Sequence[str]) -> List[Triple]:
    """Nodes of the reification table as relations where possible (penman's ``dereify_edges``).

    The nodes that penman would dereify but must stay (``_keep_reified``) are
    made the target of a guard triple, which penman takes as an incoming
    relation; the guard triples are removed afterwards.
    """
    guards = [(GUARD_VARIABLE, GUARD_ROLE, variable) for variable in _keep_reified(triples, tops)]
    result = transform.dereify_edges(penman_graph(triples + guards, tops), AMR)
    return [triple for triple in result.triples if triple[1] != GUARD_ROLE]


def _keep_reified(triples: Sequence[Triple], tops: Sequence[str]) -> List[str]:
    """Nodes that must not be dereified although penman would: every top, and a node whose
    relation would start at a constant.  In triple order."""
    concepts: Dict[str, Triple] = {}
    outgoing: Dict[Any, List[Triple]] = {}
    for triple in triples:
        if triple[1] == INSTANCE:
            concepts[triple[0]] = triple
        else:
            outgoing.setdefault(triple[0], []).append(triple)
    keep = list(tops)
    for variable, concept in concepts.items():
        others = outgoing.get(variable, [])
        if len(others) == 2 and _constant_source(concept, others):
            keep.append(variable)
    return list(dict.fromkeys(keep))


def _constant_source(concept: Triple, others: List[Triple]) -> bool:
    """True when dereifying this node by the table would give a relation whose source is a constant."""
    try:
        if not AMR.is_concept_dereifiable(concept[2]):
            return False
        source = AMR.dereify(concept, others[0], others[1])[0]
    except (ModelError, TypeError):
        return False
    return not is_variable(source)
