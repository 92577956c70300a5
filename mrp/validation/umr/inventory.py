"""UMR's relations and attributes (the UMR guidelines' relations-attributes list, as the shared task's
validator knows it): which are participants, modifiers or attributes, which may repeat under one parent,
and the closed value sets of some attributes; and the concepts that are not events."""

from __future__ import annotations

from typing import Dict, FrozenSet, Tuple

_PARTICIPANTS_ONCE = """actor affectee ARG0 ARG1 ARG2 ARG3 ARG4 ARG5 ARG6 beneficiary causer co-actor
    companion experiencer force goal instrument material recipient source start stimulus theme undergoer"""
_PARTICIPANTS_REPEATED = "place"
_MODIFIERS_ONCE = """age apprehensive calendar consist-of domain era extent frequency group li medium
    modal-predicate name ord range scale season subevent substitute subtraction timezone topic unit vocative
    weekday according-to comparison part-of-phraseme predicative-noun"""
_MODIFIERS_REPEATED = """anchor axis cause color concession concessive-condition condition configuration
    destination direction duration example manner mod orientation other-role part path possessor
    pure-addition purpose quote reason result size temporal clausal-marker effect interjection parenthesis
    regard"""
_ATTRIBUTES_ONCE = """aspect century day dayperiod decade degree modal-strength mode month op1 polarity polite
    quarter refer-definiteness refer-number refer-person value wiki year year2"""
_ATTRIBUTES_REPEATED = "quant time"

#: relation (with ':') -> (type, may repeat)
RELATIONS: Dict[str, Tuple[str, bool]] = {}
_GROUPS = ((_PARTICIPANTS_ONCE, "participant", False), (_PARTICIPANTS_REPEATED, "participant", True),
           (_MODIFIERS_ONCE, "modifier", False), (_MODIFIERS_REPEATED, "modifier", True),
           (_ATTRIBUTES_ONCE, "attribute", False), (_ATTRIBUTES_REPEATED, "attribute", True))
for _names, _kind, _repeat in _GROUPS:
    for _name in _names.split():
        RELATIONS[":" + _name] = (_kind, _repeat)

#: the closed value sets of attributes
VALUES: Dict[str, FrozenSet[str]] = {
    ":aspect": frozenset(
        "habitual generic imperfective inceptive process atelic-process perfective state reversible-state "
        "irreversible-state inherent-state point-state activity undirected-activity directed-activity "
        "endeavor "
        "semelfactive undirected-endeavor directed-endeavor performance incremental-accomplishment "
        "nonincremental-accomplishment directed-achievement reversible-directed-achievement "
        "irreversible-directed-achievement".split()),
    ":modal-strength": frozenset("full-affirmative partial-affirmative neutral-affirmative neutral-negative "
                                 "partial-negative full-negative".split()),
    ":refer-definiteness": frozenset({"class"}),
    ":refer-number": frozenset("singular non-singular dual trial paucal plural".split()),
    ":refer-person": frozenset("1st 2nd 3rd 4th non-1st non-3rd".split()),
}

#: discourse connectives (with :opN or :ARGN children) that are no events
DISCOURSE = frozenset(
    "multi-sentence and or inclusive-disjunction exclusive-disjunction and-but consecutive additive "
    "and-unexpected and-contrast but-91 unexpected-co-occurrence-91 contrast-91 have-apprehensive-91 "
    "have-condition-91 have-pure-addition-91 have-substitution-91 have-concession-91 "
    "have-concessive-condition-91 have-subtraction-91".split())
#: rolesets that are records rather than events
NON_EVENTS = frozenset(
    "byline-91 cite-91 course-91 distribution-range-91 emit-sound-91 hyperlink-91 mean-91 proverb-91 "
    "publication-91 range-91 rate-entity-91 reference-illustration-91 score-on-scale-91 statistical-test-91 "
    "street-address-91 weather-91".split())

#: document-level relations by list
DOCUMENT = {":temporal": frozenset(":contained :contains :before :after :overlap :depends-on".split()),
            ":modal": frozenset(
                ":modal :full-affirmative :partial-affirmative :strong-partial-affirmative "
                ":weak-partial-affirmative :neutral-affirmative :strong-neutral-affirmative "
                ":weak-neutral-affirmative :full-negative :partial-negative :strong-partial-negative "
                ":weak-partial-negative :neutral-negative :strong-neutral-negative :weak-neutral-negative "
                ":unspecified".split()),
            ":coref": frozenset(":same-entity :same-event :subset-of :contains :subset".split())}
