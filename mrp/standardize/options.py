"""Which AMR standardizations to apply: the options, the presets and their names (:mod:`mrp.standardize.graph`
describes them and applies them; this module imports nothing heavy, so that a run without
standardization does not load penman)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Dict

from mrp.errors import MRPError

__all__ = ["PRESETS", "Standardization", "parse"]


@dataclass(frozen=True)
class Standardization:
    """Which AMR standardizations to apply (all off: the graph is left as it is)."""

    roles: bool = False  #: canonical roles: collapse multiple inversions, :domain-of -> :mod
    reify: bool = False  #: relations of the reification table become nodes
    dereify: bool = False  #: nodes of the reification table become relations where possible
    attributes: bool = False  #: constants become nodes
    dedupe: bool = False  #: identical triples are kept once
    no_wiki: bool = False  #: :wiki constants are dropped
    structure: bool = False  #: triples recording the Penman layout are added (mrp.standardize.structure)

    def __post_init__(self) -> None:
        if self.reify and self.dereify:
            raise MRPError("a standardization cannot both reify and dereify")
        if self.structure and any(getattr(self, f.name) for f in fields(self) if f.name != "structure"):
            raise MRPError("structure preservation cannot be combined with other standardizations "
                           "(they change the graph that the Penman layout describes)")

    def name(self) -> str:
        """'none', or the options that are on joined by '+' in a fixed order (for a signature)."""
        names = [_NAMES[f.name] for f in fields(self) if getattr(self, f.name)]
        return "+".join(names) if names else "none"

    def active(self) -> bool:
        """True when at least one option is on."""
        return any(getattr(self, name) for name in _OPTION_NAMES)


#: the option fields of a Standardization, in order
_OPTION_NAMES = tuple(f.name for f in fields(Standardization))
#: option field -> its name in a specification ("roles+dedupe")
_NAMES: Dict[str, str] = {
    "roles": "roles",
    "reify": "reify",
    "dereify": "dereify",
    "attributes": "attributes",
    "dedupe": "dedupe",
    "no_wiki": "no-wiki",
    "structure": "structure",
}
_FIELDS: Dict[str, str] = {**{name: key for key, name in _NAMES.items()}, "no_wiki": "no_wiki"}

#: The named standardizations (see the module docstring).
PRESETS: Dict[str, Standardization] = {
    "none": Standardization(),
    "smatchpp": Standardization(roles=True, dereify=True, dedupe=True),
    "reify": Standardization(roles=True, reify=True, dedupe=True),
    "dereify": Standardization(roles=True, dereify=True, dedupe=True),
    "structure": Standardization(structure=True),
}


def parse(spec: str) -> Standardization:
    """A preset name, or option names joined by '+' ("roles+dedupe"); MRPError for anything else."""
    text = spec.strip().lower()
    if text in PRESETS:
        return PRESETS[text]
    chosen: Dict[str, bool] = {}
    for part in text.split("+"):
        name = part.strip()
        if name not in _FIELDS:
            what = f"unknown standardization '{name}'" if name else "empty standardization name"
            raise MRPError(f"{what} in '{spec}' (presets: {', '.join(PRESETS)}; "
                           f"or options joined by '+': {', '.join(_NAMES.values())})")
        chosen[_FIELDS[name]] = True
    return Standardization(**chosen)
