"""Names a package exports without importing their modules with it: each module is imported when one of its
names is first asked for (``import mrp.metrics`` stays light; the registry, the driver, numpy load on use)."""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any, Callable, Dict, MutableMapping, Tuple

__all__ = ["exports", "forwarded"]


def exports(package: str, space: MutableMapping[str, Any], homes: Dict[str, Tuple[str, str]]
            ) -> Callable[[str], Any]:
    """A package's module ``__getattr__`` for its exported names.

    Args:
        package: the package's name (``mrp.metrics``).
        space: the package's globals (each name is kept there once loaded).
        homes: each exported name -> (its module under the package, or named from mrp down (``mrp.engine``),
            and its name there).

    Returns:
        The ``__getattr__`` to assign in the package.
    """
    def attribute(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = home[0] if home[0].startswith("mrp.") else f"{package}.{home[0]}"
        value = space[name] = getattr(import_module(module), home[1])
        return value

    return attribute


def forwarded(package: str, homes: Dict[str, Tuple[str, str]]) -> Callable[[str], Any]:
    """A sealed package's module ``__getattr__`` for its exported names (:mod:`mrp.solver`,
    :mod:`mrp.engine`): each name from its module, imported on first use, and looked up there on every use
    rather than kept in the package, so that a test that replaces a name in its module
    (``monkeypatch.setattr(mrp.engine.driver, "run", ...)``) replaces it for every caller that imports it
    inside a function.

    Args:
        package: the package's name (``mrp.solver``).
        homes: each exported name -> (its module inside the package, its name there).

    Returns:
        The ``__getattr__`` to assign in the package.
    """
    def attribute(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(_module(f"{package}.{home[0]}"), home[1])

    return attribute


def _module(name: str) -> Any:
    """The module ``name``, imported if it is not yet: ``sys.modules``'s entry when its import has ended
    (what :func:`importlib.import_module` returns then, without its machinery's cost at each of a sealed
    package's lookups, two a ``from package import name`` inside a function), else the import's."""
    module = sys.modules.get(name)
    if module is None or getattr(getattr(module, "__spec__", None), "_initializing", False):
        return import_module(name)
    return module
