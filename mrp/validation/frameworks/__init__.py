"""The framework rules, one module per framework (or family), found by name.

A module here declares ``FRAMEWORKS`` (the names it checks) and
``check(graph, name, found)``, which appends (where, message) pairs for the
graph's problems under the rules of framework ``name``.  Adding a framework
is adding a module: :data:`RULES` is built from every module of this package.
What every framework shares (flavor, input, anchors inside the input) is
checked in :mod:`mrp.validation.checks`.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Callable, Dict, List

from mrp.graph import Graph
from mrp.validation.common import Found

#: A framework's rules: (graph, framework name, found problems) -> None.
Rule = Callable[[Graph, str, List[Found]], None]


def _discover() -> Dict[str, Rule]:
    rules: Dict[str, Rule] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for name in module.FRAMEWORKS:
            rules[name] = module.check
    return rules


#: Framework name -> its rules.
RULES: Dict[str, Rule] = _discover()
