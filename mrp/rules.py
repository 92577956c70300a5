"""The normalization rules of mrp, each written once, with the variants of the tools it follows.

Every place that needs a rule asks this module: the AMR codec (the ``normal`` of an
inverted edge), standardization, the MRP metric (:mod:`mrp.normalize`), SMATCH and the
aspects.  Where the established tools genuinely differ, a rule has named variants, each
naming its source; nothing here depends on any other part of mrp.

Inverted roles (:data:`ROLE_RULES`): ``X-of`` is the role ``X`` in the other direction,
``mod`` is the inverse of ``domain``.  The tools disagree only on which ``-of`` roles
are roles of their own (not inverted):

========  ==================================================  ======================================
variant   not inverted                                        source
========  ==================================================  ======================================
mtool     ``prep-*`` (``consist-of``, ``subset-of`` are       mtool ``codec/amr.py`` and
          inverted: a missing comma in mtool makes one        ``graph.py: Edge.normalize``; the MRP
          string ``"consist-ofsubset-of"`` of its list)       2019 AMR data were made with it
mrp       ``prep-*``, ``consist-of``, ``subset-of``           mtool's list as its code means it
                                                              (the MRP metric's fallback when an
                                                              edge has no ``normal``)
smatch    ``prep-on-behalf-of``, ``prep-out-of``,             SMATCH 1.0.4 ``amr.py:
          ``consist-of``                                      parse_AMR_line`` (its ``exceptions``)
ancast    none: every ``-of`` role is inverted                AnCast, as described for this project
                                                              (its ``mod`` handling not verified)
========  ==================================================  ======================================

In every variant ``mod`` is ``domain`` inverted, a doubly inverted ``X-of-of`` is
``X-of`` inverted, and names compare as written (``MOD`` is not ``mod``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, Optional, Tuple

# --------------------------------------------------------------------------- inverted roles


@dataclass(frozen=True)
class RoleRule:
    """One tool's inverted-role rule: which ``-of`` roles are roles of their own."""

    name: str
    #: ``-of`` roles that are not inverted
    kept: FrozenSet[str] = frozenset()
    #: prefixes of ``-of`` roles that are not inverted
    kept_prefixes: Tuple[str, ...] = ()
    #: where the rule comes from
    source: str = ""


MTOOL = RoleRule("mtool", frozenset(), ("prep-",),
                 "mtool codec/amr.py and graph.py Edge.normalize (the MRP 2019 AMR data)")
MRP = RoleRule("mrp", frozenset({"consist-of", "subset-of"}), ("prep-",),
               "mtool's exception list as its code means it (without the missing-comma bug)")
SMATCH = RoleRule("smatch", frozenset({"prep-on-behalf-of", "prep-out-of", "consist-of"}), (),
                  "SMATCH 1.0.4 amr.py parse_AMR_line")
ANCAST = RoleRule("ancast", frozenset(), (), "AnCast: every -of role is inverted")

#: variant name -> rule
ROLE_RULES: Dict[str, RoleRule] = {rule.name: rule for rule in (MTOOL, MRP, SMATCH, ANCAST)}


def normal_role(label: Optional[str], rule: RoleRule = MRP) -> Optional[str]:
    """The role in normal direction of an inverted role under ``rule``, else None.

    ``mod`` -> ``domain``; ``X-of-of`` -> ``X-of``; ``X-of`` -> ``X`` unless the rule
    keeps ``X-of`` as a role of its own.
    """
    if label is None:
        return None
    if label == "mod":
        return "domain"
    if not label.endswith("-of"):
        return None
    if not label.endswith("-of-of"):
        if label in rule.kept or label.startswith(rule.kept_prefixes):
            return None
    return label[:-3] or None


def inverse_role(label: str) -> str:
    """The role written the other way round: ``X-of`` <-> ``X`` (syntax only, no exceptions)."""
    return label[:-3] if label.endswith("-of") else label + "-of"


# --------------------------------------------------------------------------- edge attributes

#: Edge attribute values that mean "absent" and are dropped (mtool's ``normalize``).
ATTRIBUTE_DEFAULTS: Dict[str, str] = {"remote": "false", "effective": "false", "member": "false"}


def is_default_attribute(name: str, value: str) -> bool:
    """True when an edge attribute (already lowercased) holds its default value and is dropped."""
    return ATTRIBUTE_DEFAULTS.get(name) == value


# --------------------------------------------------------------------------- case


def lower(value: Any) -> str:
    """A value as the reference compares it: ``str(value).lower()`` (JSON true -> 'true')."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value).lower()


# --------------------------------------------------------------------------- anchors

#: Whitespace in the reference scorer's sense.
SPACE = frozenset(" \t\n\f")
#: The 22 characters trimmed at both ends of an anchor span (18 marks and 4 whitespace).
PUNCTUATION = frozenset(".?!;,:\u201c\"\u201d\u2018'\u2019()[]{}") | SPACE
