"""The layout keeps its promises: no import circle, no module over 400 lines, no module importing a private
name of another package, and data flowing one way between the layers."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set, Tuple

from conftest import ROOT

PACKAGE = ROOT / "mrp"
MAX_LINES = 400

#: the layer of each part of mrp (the longest matching prefix counts): a module may import from its own
#: layer and the layers below only
LAYERS: Dict[str, int] = {
    "errors": 0, "rules": 0, "memo": 0, "graph": 1, "io": 2, "process": 2, "codecs": 3, "io.load": 4,
    "process.ahead": 5, "normalize": 5, "standardize": 5, "validation": 6, "solver": 6, "metrics": 7,
    "report": 8,
    # explain draws scored pairs (metrics' details, graphs, codecs' token spans): above the metrics and the
    # report it may use, below api (a library entry point may call it) and cli (mrp-score --explain)
    "explain": 9,
    # allpairs runs blocks of pairs through the metrics (similarity matrices, top-k, ensemble selection):
    # beside explain, below api (mrp.similarity, mrp.ensemble) and cli (mrp-similarity, mrp-ensemble)
    "allpairs": 9,
    "api": 10,
    # the shared-task kit (mrp-evaluate) scores through the metrics, ranks with the report's statistics and
    # draws pairs with explain: above them and api, below cli
    "task": 11, "cli": 12, "__main__": 13,
}


def _layer(module: str) -> int:
    """The layer of a module named from mrp down (-1: not in mrp, or not placed)."""
    parts = module.split(".")
    if parts[0] != "mrp":
        return -1
    for end in range(len(parts), 1, -1):
        layer = LAYERS.get(".".join(parts[1:end]))
        if layer is not None:
            return layer
    return -1


def _modules() -> Dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(path: Path) -> List[Tuple[str, List[str], bool]]:
    """(module, names, at top level) of every ``import``/``from ... import`` in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, [alias.name for alias in node.names], id(node) in top))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, [], id(node) in top) for alias in node.names)
    return found


def test_no_module_is_over_400_lines() -> None:
    long = {name: n for name, path in _modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_no_relative_imports() -> None:
    """Absolute imports name where a thing lives (the rewriting of a move needs them too)."""
    relative = [name for name, path in _modules().items()
                if any(isinstance(node, ast.ImportFrom) and node.level
                       for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))]
    assert not relative


def test_no_import_circle() -> None:
    """Imports inside functions count too: a circle through a deferred import is still a circle."""
    modules = _modules()
    graph: Dict[str, Set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for module, names, _ in _imports(path):
            if not module.startswith("mrp"):
                continue
            targets = [f"{module}.{n}" for n in names if f"{module}.{n}" in modules] or [module]
            graph[name].update(t for t in targets if t in modules and t != name)
    state: Dict[str, int] = {}
    cycle: List[str] = []

    def visit(node: str, trail: List[str]) -> bool:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if nxt.startswith(node + "."):  # a package importing its own modules is how packages are made
                continue
            if state.get(nxt) == 1:
                cycle.extend(trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt])
                return True
            if state.get(nxt) is None and visit(nxt, trail + [nxt]):
                return True
        state[node] = 2
        return False

    for name in sorted(graph):
        if state.get(name) is None and visit(name, [name]):
            break
    assert not cycle, " -> ".join(cycle)


def test_no_module_imports_a_private_name_of_another_package() -> None:
    offences = []
    for name, path in _modules().items():
        package = name.rsplit(".", 1)[0] if path.name != "__init__.py" else name
        for module, names, _ in _imports(path):
            if not module.startswith("mrp"):
                continue
            is_package = (PACKAGE.parent / Path(*module.split("."))).is_dir()
            home = module if is_package else module.rsplit(".", 1)[0]
            for imported in names:
                if imported.startswith("_") and not imported.startswith("__") and home != package:
                    offences.append(f"{name}: {module}.{imported}")
    assert not offences, offences


def test_data_flows_one_way_between_the_layers() -> None:
    upward = []
    for name, path in _modules().items():
        mine = _layer(name)
        for module, _, _ in _imports(path):
            if mine >= 0 and _layer(module) > mine:
                upward.append(f"{name} imports {module}")
    assert not upward, upward


def test_every_metric_owns_its_facts() -> None:
    """Each registry line names a module whose METRIC carries the facts the CLI, the API, signatures and
    leaderboards read; its parameters set Options fields, with flags no other metric uses (unless it is the
    very same Parameter, shared: --doc-align of SMATCH and MRP)."""
    import dataclasses

    from mrp.metrics.options import Options
    from mrp.metrics.registry import METRICS, metric

    fields = {f.name for f in dataclasses.fields(Options)}
    flags: Dict[str, object] = {}
    for name in METRICS:
        measure = metric(name)
        assert measure.name == name and measure.summary and measure.normalization
        assert measure.primary is None or isinstance(measure.primary, tuple)
        for parameter in measure.parameters:
            assert parameter.field in fields, (name, parameter.field)
            assert parameter.flag.startswith("--")
            assert flags.setdefault(parameter.flag, parameter) is parameter, (name, parameter.flag)
