"""What laying a ``penman.Graph`` out as ``penman.configure`` does needs of roles, atoms and variables
(:mod:`.direct` lays graphs out with these; ``tests/penman_two_pass.py`` is the plainer two-pass
statement of the same rules, the oracle it is tested against beside penman itself).

``penman.configure`` makes a tree of a graph by reading its triples in order, their
epidata deciding the nesting: a ``Push`` on a triple opens the context of a node
(the triple's target; its source, the triple then written inverted), a ``Pop``
closes one, alignments go on the role or the target as written.  A triple whose
source is the node of the current context is one of its branches; one whose
target is that node is written inverted; another closes the context, and the
enclosing one is tried.  When that leaves triples over at the top, penman
improvises, and warns where epidata cannot apply (a second context for a node,
a context for a variable not in its triple).
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from mrp.codecs.penman.amr import _role, _strip_alignment, _value
from mrp.codecs.penman.tokens import ATOM, ROLE, VARIABLE
from mrp.memo import Memo

__all__: list = []

_CONCEPT = ":instance"
#: the variable of no context (the top's context closed)
_NOWHERE = object()



def _inverted(role: Any) -> Any:
    """penman's default model's inversion of a role (``:ARG0`` <-> ``:ARG0-of``)."""
    if role.endswith("-of"):
        return role[:-3]
    return role + "-of"


def _aligned(role: Any, target: Any, aligned: List[Any], nested: bool) -> Optional[Tuple[Any, Any]]:
    """A role and target with their alignments written on (None where penman would ignore one)."""
    if type(role) is not str or not (nested or type(target) is str):
        return None
    for epi in aligned:
        if epi.mode == 1:
            role = f"{role}{epi}"
        elif epi.mode == 2 and not nested:
            target = f"{target}{epi}"
        else:
            return None
    return role, target


#: what the conversion makes of roles, atoms (constants, concepts, variables as targets) and variables that
#: are one Penman token: role -> its label and normal; atom -> its text without the alignment (a variable
#: it names, unless quoted) and its value
_ROLES: Memo[str, Tuple[str, Optional[str]]] = Memo(1 << 16)
_ATOMS: Memo[str, Tuple[str, str]] = Memo(1 << 16)
_NAMES: Memo[str, bool] = Memo(1 << 16)


def _role_of(role: Any) -> Optional[Tuple[str, Optional[str]]]:
    if type(role) is not str or role == "/" or ROLE.fullmatch(role) is None:
        return None
    return _ROLES.keep(role, _role(role))


def _atom_of(atom: Any) -> Optional[Tuple[str, str]]:
    if type(atom) is not str or ATOM.fullmatch(atom) is None:
        return None
    text = _strip_alignment(atom) if "~" in atom else atom
    return _ATOMS.keep(atom, (text, _value(text)))


def _named(var: Any) -> bool:
    if type(var) is not str or VARIABLE.fullmatch(var) is None:
        return False
    return _NAMES.keep(var, True)
