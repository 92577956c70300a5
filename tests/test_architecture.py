"""The layout keeps its promises: no import circle, no module over 400 lines, no module importing a private
name of another package, subpackages used through their own API, and data flowing one way between the
layers, each package in one layer."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

from conftest import ROOT

PACKAGE = ROOT / "mrp"
MAX_LINES = 400

#: the layer of each package (or top-level module) of mrp, from the bottom up: a module may import from its
#: own layer and the layers below only. Whole packages only: a package that would need two layers is two
#: packages (io and process below the codecs, corpora above them).
LAYERS: Dict[str, int] = {
    "errors": 0, "rules": 0, "memo": 0, "lazy": 0, "graph": 1,
    # io: numbered lines of a file, limits, tables, the one writer; process: forked, spawned and kept
    # processes. Both below the codecs, which read through io.source and io.limits
    "io": 2, "process": 2,
    # compiled: numba's njit with its cache and fallbacks, and the route of kernels not loaded yet: below the
    # codecs (the Penman scan is a kernel) and the solver, which both compile through it
    "compiled": 2,
    "codecs": 3,
    # corpora: whole files read through the codecs (load, read ahead, packed): above them
    "corpora": 4,
    "normalize": 5, "standardize": 5, "validation": 6, "solver": 6,
    # the engine every metric runs on (Metric, options, pairing, the driver and a pair's limits, the
    # envelope, counting): above the solver and the corpora it hands pairs from, below the metric plug-ins
    "engine": 7,
    # one module or subpackage per metric (its METRIC), and the registry naming them
    "metrics": 8,
    # report renders results, compare_umr.pl's layouts (report.umatch) among them: above the metrics
    "report": 9,
    # explain draws scored pairs (metrics' details, graphs, codecs' token spans): above the metrics and the
    # report it may use, below api (a library entry point may call it) and cli (mrp-score --explain)
    "explain": 10,
    # allpairs runs blocks of pairs through the metrics (similarity matrices, top-k, ensemble selection):
    # beside explain, below api (mrp.similarity, mrp.ensemble) and cli (mrp-similarity, mrp-ensemble)
    "allpairs": 10,
    # the one pipeline under every door (inputs, read, validate, standardize, pair, metric, result): above
    # what it composes (corpora, metrics, report, explain), below every door (api, task, cli)
    "pipeline": 11,
    "api": 12,
    # the shared-task kit (mrp-evaluate) scores through the pipeline, ranks with the report's statistics and
    # draws pairs with explain: above them and api, below cli
    "task": 13, "cli": 14, "__main__": 15,
    # integrations: other frameworks' metric interfaces (Hugging Face evaluate, torchmetrics) over the public
    # api; their libraries imported only when used
    "integrations": 13,
}

#: the doors: packages that reach the engine only through the pipeline and the public names (``__init__``)
#: of the packages below, never one of their modules
DOORS = ("mrp.cli", "mrp.task")
#: the packages whose modules the doors do not import
ENGINE = ("mrp.engine", "mrp.metrics", "mrp.corpora", "mrp.codecs", "mrp.solver")

#: the package's own face (mrp/__init__.py) stands outside the layers: every layer may read its
#: ``__version__``, and its public names come from api on first use
FACE = "mrp"

#: subpackages with an API of their own: their modules share names among themselves; every module outside
#: imports only the names the package's ``__init__`` exports (its ``__all__``), never one of its modules
#: (the engine: a metric plug-in takes ``from mrp.engine import Metric, PairCounts``, never
#: ``mrp.engine.base``)
SEALED = ("mrp.codecs.penman", "mrp.codecs.umr", "mrp.solver", "mrp.engine", "mrp.corpora")


def _layer(module: str) -> int:
    """The layer of a module named from mrp down (-1: not in mrp, or not placed)."""
    parts = module.split(".")
    if parts[0] != "mrp" or len(parts) < 2:
        return -1
    return LAYERS.get(parts[1], -1)


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


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _home(module: str) -> str:
    """The package a module belongs to (a package is its own home)."""
    is_package = (PACKAGE.parent / Path(*module.split("."))).is_dir()
    return module if is_package else module.rsplit(".", 1)[0]


def _dotted(node: ast.expr) -> Optional[List[str]]:
    """``a.b.c`` as ["a", "b", "c"]; None for anything but names and attributes."""
    names: List[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    names.append(node.id)
    return names[::-1]


def _private_parts(module: str) -> List[Tuple[str, str]]:
    """(package, private module) of each private part of a dotted module name (``mrp.x._impl``)."""
    parts = module.split(".")
    return [(".".join(parts[:k]), part) for k, part in enumerate(parts) if _private(part)]


def _private_uses(path: Path, modules: Dict[str, Path]) -> List[Tuple[str, str]]:
    """(module, private name) of every private name of an mrp module that a file takes: ``from mrp.x import
    _name``, ``from mrp.x._module import ...``, and ``mrp.x._name`` or ``alias._name`` for a module imported
    whole (``import mrp.x``, ``import mrp.x as alias``, ``from mrp import x``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: List[Tuple[str, str]] = []
    aliases: Dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("mrp"):
            assert node.module is not None
            found.extend(_private_parts(node.module))
            for alias in node.names:
                if f"{node.module}.{alias.name}" in modules:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                if _private(alias.name):
                    found.append((node.module, alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("mrp"):
                    found.extend(_private_parts(alias.name))
                    aliases[alias.asname or "mrp"] = alias.name if alias.asname else "mrp"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            chain = _dotted(node.value)
            if chain and chain[0] in aliases:
                target = ".".join([aliases[chain[0]], *chain[1:]])
                if target in modules:
                    found.append((target, node.attr))
    return found


def test_no_module_imports_a_private_name_of_another_package() -> None:
    """Imported or reached as an attribute of an imported module, inside a function too."""
    modules = _modules()
    offences = []
    for name, path in modules.items():
        package = name.rsplit(".", 1)[0] if path.name != "__init__.py" else name
        for module, private in _private_uses(path, modules):
            if _home(module) != package:
                offences.append(f"{name}: {module}.{private}")
    assert not offences, offences


def _targets(module: str, names: List[str], modules: Dict[str, Path]) -> List[str]:
    """The modules of mrp that an import names: ``from mrp import rules`` imports mrp.rules, not mrp."""
    return [f"{module}.{n}" for n in names if f"{module}.{n}" in modules] or [module]


def test_every_package_sits_in_one_layer() -> None:
    """The layer table places whole packages and top-level modules, and every module of mrp is placed."""
    assert all("." not in name for name in LAYERS), [name for name in LAYERS if "." in name]
    tops = {path.stem if path.is_file() else path.name
            for path in PACKAGE.iterdir() if path.suffix == ".py" or (path / "__init__.py").is_file()}
    assert tops - {"__init__"} == set(LAYERS), (tops - {"__init__"}) ^ set(LAYERS)
    unplaced = [name for name in _modules() if name != FACE and _layer(name) < 0]
    assert not unplaced, unplaced


def test_data_flows_one_way_between_the_layers() -> None:
    """No module imports from a higher layer, at the top of a file or inside a function."""
    modules = _modules()
    upward = []
    for name, path in modules.items():
        mine = _layer(name)
        for module, names, _ in _imports(path):
            for target in _targets(module, names, modules):
                if mine >= 0 and _layer(target) > mine:
                    upward.append(f"{name} (layer {mine}) imports {target} (layer {_layer(target)})")
    assert not upward, upward


def _sealed(module: str) -> Optional[str]:
    """The sealed package a module lies in (or is), if any."""
    return next((package for package in SEALED if module == package or module.startswith(f"{package}.")),
                None)


def _exported(package: str) -> Set[str]:
    """The names of a package's ``__all__``."""
    init = PACKAGE.parent / Path(*package.split(".")) / "__init__.py"
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__"
                                                for t in node.targets):
            return {ast.literal_eval(element) for element in node.value.elts}  # type: ignore[attr-defined]
    return set()


def test_sealed_subpackages_are_used_through_their_own_api() -> None:
    modules = _modules()
    for package in SEALED:
        assert package in modules and _exported(package), f"{package} exports no __all__"
    offences = []
    for name, path in modules.items():
        for module, names, _ in _imports(path):
            for target in _targets(module, names, modules):
                sealed = _sealed(target)
                if sealed is None or _sealed(name) == sealed:
                    continue
                if target != sealed:
                    offences.append(f"{name} imports {target}, a module inside {sealed}")
                else:
                    offences.extend(f"{name} imports {sealed}.{n}, not exported by {sealed}"
                                    for n in names if n not in _exported(sealed))
    assert not offences, offences


def test_sealed_subpackages_give_every_name_they_export() -> None:
    """Every name of a sealed package's __all__ is there (mrp.codecs.penman imports each on first use)."""
    import importlib

    for package in SEALED:
        module = importlib.import_module(package)
        missing = [name for name in _exported(package) if getattr(module, name, None) is None]
        assert not missing, (package, missing)


def test_every_metric_owns_its_facts() -> None:
    """Each registry line names a module whose METRIC carries the facts the CLI, the API, signatures and
    leaderboards read; its parameters set Options fields, with flags no other metric uses (unless it is the
    very same Parameter, shared: --doc-align of SMATCH and MRP)."""
    import dataclasses

    from mrp.engine.options import Options
    from mrp.metrics.registry import METRICS, metric

    fields = {f.name for f in dataclasses.fields(Options)}
    flags: Dict[str, object] = {}
    for name in METRICS:
        measure = metric(name)
        assert measure.name == name and measure.summary and measure.normalization
        assert measure.primary is None or isinstance(measure.primary, tuple)
        for parameter in measure.parameters:
            # an Options field, or a newer metric's own (named after it, kept in Options.parameters)
            assert parameter.field in fields or parameter.field.startswith(name.replace("-", "_") + "_"), \
                (name, parameter.field)
            assert parameter.flag.startswith("--")
            assert flags.setdefault(parameter.flag, parameter) is parameter, (name, parameter.flag)


def test_the_doors_reach_the_engine_through_public_names_only() -> None:
    """mrp-score, mrp-mtool, mrp-umr-compare, mrp-evaluate and every other command read, pair and score
    through mrp.pipeline; from metrics, corpora, codecs and solver they take only what each package's
    ``__init__`` exports (``from mrp.metrics import canonical``), at the top of a file or inside a
    function."""
    offences = []
    for name, path in _modules().items():
        if not name.startswith(DOORS):
            continue
        for module, _, _ in _imports(path):
            if any(module.startswith(f"{package}.") for package in ENGINE):
                offences.append(f"{name} imports {module}")
    assert not offences, offences


def _calls(path: Path, name: str) -> List[ast.Call]:
    """Every call of ``name`` (``name(...)`` or ``x.name(...)``) in a file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) \
                else None
            if called == name:
                found.append(node)
    return found


def test_options_are_made_in_one_module() -> None:
    """A run's Options are made by mrp.pipeline.options for every door (the library, the commands, the kit);
    elsewhere only ``Options()``, the defaults of a function given none."""
    makers = {name for name, path in _modules().items()
              if any(call.args or call.keywords for call in _calls(path, "Options"))}
    assert makers == {"mrp.pipeline.options"}, makers


def test_each_metric_is_one_module_or_subpackage() -> None:
    """mrp/metrics/ holds the registry and the metrics, nothing else: each of its modules and subpackages is
    a registered metric (its satellites inside its subpackage: metrics/smatch/penman.py, not
    metrics/smatch_penman.py; the engine they run on is mrp.engine)."""
    from mrp.metrics.registry import METRICS

    homes = {module for module, _ in METRICS.values()}
    folder = PACKAGE / "metrics"
    tops = {f"mrp.metrics.{path.stem}" for path in folder.iterdir()
            if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").is_file()}
    strays = [top for top in sorted(tops - {"mrp.metrics.registry"})
              if not any(home == top or home.startswith(f"{top}.") for home in homes)]
    assert not strays, strays
