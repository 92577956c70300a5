"""Perturbed and merged AMR files made from a Penman file (the shared wsj.amr), deterministically, for
comparing mrp's Penman writer with penman's CLI where the input's placement is unusual: a reentrant node
defined at another of its mentions (after a reference to it, or deeper), duplicate triples (an edge, a
constant, an edge written once each way), and graphs merged under a ``multi-sentence`` root with
references across sentences.  Run as a script to write the files:
``python tests/penman_perturb.py ../shared/data/wsj/amr/wsj.amr DIRECTORY``; with ``--reference`` instead of
a directory, the digests of penman's CLI output for each file and option of :data:`OPTIONS` (JSON, on stdout:
tests/data/penman/cli.json, made with penman 1.3.1)."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import penman
from penman.tree import is_atomic

Node = Tuple[str, List[Any]]

#: the options of penman's CLI the comparison runs (each with the same options of ``mrp-convert --penman``)
OPTIONS = ["", "--indent 6", "--indent no", "--indent 3 --compact", "--triples", "--indent 0 --triples",
           "--make-variables {prefix}{i}", "--make-variables x{j} --indent 2"]


def _nodes(node: Node, parent: Optional[Node] = None, out: Optional[List[Tuple[Node, Optional[Node]]]] = None
           ) -> List[Tuple[Node, Optional[Node]]]:
    """Each node of a tree with its parent, in preorder."""
    out = [] if out is None else out
    out.append((node, parent))
    for _, target in node[1]:
        if not is_atomic(target):
            _nodes(target, node, out)
    return out


def _inside(node: Node, other: Node) -> bool:
    """``other`` is ``node`` or one of its descendants."""
    return any(found is other for found, _ in _nodes(node))


def _move_reentrancy(root: Node, rng: random.Random) -> bool:
    """Define a reentrant node at one of its references instead (and refer to it where it was defined)."""
    found = _nodes(root)
    variables = {node[0]: (node, parent) for node, parent in found}
    choices = []
    for holder, _ in found:
        for k, (role, target) in enumerate(holder[1]):
            if role != "/" and isinstance(target, str) and target in variables:
                node, parent = variables[target]
                if parent is not None and not _inside(node, holder):
                    choices.append((holder, k, node, parent))
    if not choices:
        return False
    holder, k, node, parent = rng.choice(choices)
    where = next(j for j, (_, target) in enumerate(parent[1]) if target is node)
    parent[1][where] = (parent[1][where][0], node[0])
    holder[1][k] = (holder[1][k][0], node)
    return True


def _duplicate(root: Node, rng: random.Random) -> bool:
    """Write one triple twice: the same branch again, a nested node's edge again as a reference, or an
    edge again from its other end (inverted)."""
    found = [node for node, _ in _nodes(root)]
    holder = rng.choice(found)
    branches = [(role, target) for role, target in holder[1] if role != "/"]
    if not branches:
        return False
    role, target = rng.choice(branches)
    if not is_atomic(target):
        if rng.random() < 0.5:
            inverted = role[:-3] if role.endswith("-of") else role + "-of"
            target[1].insert(rng.randint(1, len(target[1])), (inverted, holder[0]))
            return True
        target = target[0]
    holder[1].insert(rng.randint(1, len(holder[1])), (role, target))
    return True


def perturb(tree: penman.Tree, rng: random.Random) -> penman.Tree:
    """A tree with one to three perturbations (moved reentrancies, duplicate triples)."""
    for _ in range(rng.randint(1, 3)):
        if not (rng.random() < 0.6 and _move_reentrancy(tree.node, rng)):
            _duplicate(tree.node, rng)
    return tree


def _renamed(node: Node, suffix: str) -> Node:
    names = {found[0] for found, _ in _nodes(node)}

    def rename(current: Node) -> Node:
        branches = []
        for role, target in current[1]:
            if not is_atomic(target):
                target = rename(target)
            elif role != "/" and target in names:
                target = target + suffix
            branches.append((role, target))
        return (current[0] + suffix, branches)

    return rename(node)


def merge(trees: List[penman.Tree], number: int, rng: random.Random) -> penman.Tree:
    """Trees under one ``multi-sentence`` root, with references across sentences and a moved reentrancy."""
    parts = [_renamed(tree.node, f"x{k + 1}") for k, tree in enumerate(trees)]
    for later in range(1, len(parts)):
        earlier = parts[rng.randrange(later)]
        target = rng.choice([node for node, _ in _nodes(earlier)])[0]
        holder = rng.choice([node for node, _ in _nodes(parts[later])])
        holder[1].insert(rng.randint(1, len(holder[1])), (":coref", target))
    root: Node = ("m", [("/", "multi-sentence")] + [(f":snt{k + 1}", part) for k, part in enumerate(parts)])
    for _ in range(2):
        _move_reentrancy(root, rng)
    metadata: Dict[str, str] = {"id": f"merged.{number}",
                                "snt": " ".join(t.metadata.get("snt", "") for t in trees)}
    return penman.Tree(root, metadata=metadata)


def _trees(path: Path) -> List[penman.Tree]:
    return [tree for tree in penman.iterparse(path.read_text(encoding="utf-8"))]


def perturbed_text(path: Path, seed: int = 65) -> str:
    """The perturbed file of a Penman file: each graph perturbed, with its id and sentence."""
    rng = random.Random(seed)
    trees = []
    for tree in _trees(path):
        tree.metadata = {key: tree.metadata[key] for key in ("id", "snt") if key in tree.metadata}
        trees.append(penman.format(perturb(tree, rng), indent=6))
    return "\n\n".join(trees) + "\n"


def merged_text(path: Path, seed: int = 65, size: int = 4) -> str:
    """The merged file of a Penman file: each ``size`` graphs in turn as one ``multi-sentence`` graph."""
    rng = random.Random(seed)
    trees = _trees(path)
    merged = [merge(trees[k:k + size], k // size + 1, rng) for k in range(0, len(trees), size)]
    return "\n\n".join(penman.format(tree, indent=6) for tree in merged) + "\n"


def files(source: Path) -> Dict[str, str]:
    """The texts compared: the file itself, its perturbed and its merged file, by name."""
    return {"wsj.amr": source.read_text(encoding="utf-8"), "perturbed.amr": perturbed_text(source),
            "merged.amr": merged_text(source)}


def digest(text: str) -> str:
    """The digest the reference keeps of an output."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _reference(source: Path) -> Dict[str, Dict[str, str]]:
    found: Dict[str, Dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as directory:
        for name, text in files(source).items():
            path = Path(directory) / name
            path.write_text(text, encoding="utf-8")
            found[name] = {"input": digest(text)}
            for options in OPTIONS:
                run = subprocess.run(["penman", *options.split(), str(path)], capture_output=True, text=True,
                                     check=True)
                found[name][options] = digest(run.stdout)
    return found


if __name__ == "__main__":
    if sys.argv[1] == "--reference":
        print(json.dumps({"penman": "1.3.1", "files": _reference(Path(sys.argv[2]))}, indent=1))
    else:
        source, directory = Path(sys.argv[1]), Path(sys.argv[2])
        (directory / "perturbed.amr").write_text(perturbed_text(source), encoding="utf-8")
        (directory / "merged.amr").write_text(merged_text(source), encoding="utf-8")
