"""Document graphs from sentence pairs: k consecutive AMR graphs merged into one multi-sentence graph.

Every k consecutive graphs of a Penman file become one graph
``(m / multi-sentence :snt1 G1 :snt2 G2 ... :sntk Gk)``, the gold and the
system file alike, so that document i of the gold file pairs with document i
of the system file.  Variables are renamed ``s<i>x<var>`` (unique across the
document); everything else, the layout included, is kept as written.  Only
whole groups are written (``len // k`` documents), so the output is a pure
function of the input and k; ``limit`` keeps the first documents only.

Coreference-merged documents (``--coref``), as DocAMR builds them: a named
entity mentioned again in a later sentence of the document becomes the same
node.  The rule, applied to the gold and the system file alike, each on its
own: a *mention* is a node written ``(v / CONCEPT :name (n / name :op1 "A"
:op2 "B" ...))``, optionally with a ``:wiki`` value, and nothing else in its
subtree; its key is (CONCEPT, the op strings in order).  The first node of a
key in the document (any node of that concept with that name, in sentence
order, then text order) is the chain's node; every later *mention* of the key
in a later sentence is replaced by a reference to it (its name node and its
``:wiki`` go: the chain keeps the first node's), and the sentence's other
references to the mention's variable point to the chain's node.  Mentions in
the chain node's own sentence are left as written (a sentence's annotators
decided its coreference).  The merged node belongs to the sentence of its
first mention (mrp.engine.seed.sentences finds it there).

    python bench/documents.py K OUTDIR [--limit N] [--coref]

writes ``OUTDIR/coli.k<K>.gold.amr`` and ``OUTDIR/coli.k<K>.system.amr`` from the
shared coli pairs (``coli.k<K>.coref.*.amr`` with ``--coref``).
"""

from __future__ import annotations

import argparse
import logging
import re
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import penman

logging.getLogger("penman").setLevel(logging.ERROR)

SHARED = Path(__file__).resolve().parents[2] / "shared"
COLI = ("data/pairs/amr/coli.gold.amr", "data/pairs/amr/coli.system.amr")

#: a quoted string, a parenthesis, a slash, or a run of other non-space characters
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[()/]|[^\s()/"]+')


def graphs(path: Path) -> List[str]:
    """The graphs of a Penman file as written, without comment lines."""
    blocks = re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
    out = []
    for block in blocks:
        text = "\n".join(line for line in block.splitlines() if not line.lstrip().startswith("#")).strip()
        if text:
            out.append(text)
    return out


def renamed(text: str, prefix: str) -> str:
    """A Penman graph with each variable ``v`` written ``prefix + v`` (concepts and strings unchanged)."""
    variables = set(penman.decode(text).variables())
    out: List[str] = []
    previous = ""
    position = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        out.append(text[position:match.start()])
        out.append(prefix + token if token in variables and previous != "/" else token)
        position = match.end()
        previous = token
    out.append(text[position:])
    return "".join(out)


def merged(sentences: List[str], doc: int, coref: bool = False) -> str:
    """One multi-sentence graph of the sentences (variables renamed per sentence; ``coref``: named
    entities mentioned again in later sentences merged into their first node, as the module says)."""
    texts = [renamed(text, f"s{i}x") for i, text in enumerate(sentences, 1)]
    if coref:
        texts = coreferred(texts)
    parts = [f"(m{doc} / multi-sentence"]
    for i, text in enumerate(texts, 1):
        parts.append(f"\n   :snt{i} " + text.replace("\n", "\n      "))
    return "".join(parts) + ")"


Key = Tuple[str, Tuple[str, ...]]


def _mention(tokens: List[str], start: int) -> Optional[Tuple[str, Key, int]]:
    """The named-entity mention whose subtree opens at ``tokens[start]`` (a parenthesis) as (variable,
    key, index after its closing parenthesis), or None when the subtree is anything else."""
    if tokens[start:start + 1] != ["("] or len(tokens) < start + 4 or tokens[start + 2] != "/":
        return None
    variable, concept = tokens[start + 1], tokens[start + 3]
    k = start + 4
    ops: Optional[List[str]] = None
    while k < len(tokens) and tokens[k] != ")":
        role = tokens[k]
        if role == ":wiki" and k + 1 < len(tokens) and tokens[k + 1] not in "()":
            k += 2
        elif role == ":name" and ops is None and tokens[k + 1:k + 5][:1] == ["("] and tokens[k + 3:k + 5] == [
                "/", "name"]:
            k += 5
            ops = []
            while k + 1 < len(tokens) and re.fullmatch(r":op\d+", tokens[k]) and tokens[k + 1] not in "()":
                ops.append(tokens[k + 1])
                k += 2
            if tokens[k:k + 1] != [")"]:
                return None
            k += 1
        else:
            return None
    if ops is None or k >= len(tokens):
        return None
    return variable, (concept, tuple(ops)), k + 1


def _names(tokens: List[str]) -> Dict[Key, str]:
    """The key of every node written with a name in a sentence (first node of a key kept), any subtree."""
    out: Dict[Key, str] = {}
    for k, token in enumerate(tokens):
        if token == ":name" and k + 4 < len(tokens) and tokens[k + 1] == "(" and tokens[k + 3:k + 5] == [
                "/", "name"]:
            opening = k - 1  # the node's own "(": the nearest one at depth 0 going back
            depth = 0
            while opening >= 0 and not (tokens[opening] == "(" and depth == 0):
                depth += {")": 1, "(": -1}.get(tokens[opening], 0)
                opening -= 1
            ops = []
            j = k + 5
            while j + 1 < len(tokens) and re.fullmatch(r":op\d+", tokens[j]) and tokens[j + 1] not in "()":
                ops.append(tokens[j + 1])
                j += 2
            if opening >= 0 and tokens[opening + 2:opening + 3] == ["/"]:
                out.setdefault((tokens[opening + 3], tuple(ops)), tokens[opening + 1])
    return out


def coreferred(texts: List[str]) -> List[str]:
    """The sentences (variables unique across them) with later mentions of a named entity replaced by a
    reference to its first node (the rule of the module's docstring)."""
    chains: Dict[Key, str] = {}
    out = []
    for text in texts:
        matches = list(_TOKEN.finditer(text))
        tokens = [match.group() for match in matches]
        replace: Dict[int, Tuple[int, str]] = {}  # first token -> (token after, text written instead)
        renamed_to: Dict[str, str] = {}
        k = 0
        while k < len(tokens):
            found = _mention(tokens, k) if tokens[k] == "(" else None
            if found is not None and found[1] in chains:
                variable, key, after = found
                replace[k] = (after, chains[key])
                renamed_to[variable] = chains[key]
                k = after
            else:
                k += 1
        pieces: List[str] = []
        position = 0
        k = 0
        while k < len(tokens):
            match = matches[k]
            pieces.append(text[position:match.start()])
            if k in replace:
                after, written = replace[k]
                pieces.append(written)
                position = matches[after - 1].end()
                k = after
                continue
            token = tokens[k]
            previous = tokens[k - 1] if k else ""
            pieces.append(renamed_to[token] if token in renamed_to and previous != "/" else token)
            position = match.end()
            k += 1
        pieces.append(text[position:])
        result = "".join(pieces)
        for key, variable in _names([match.group() for match in _TOKEN.finditer(result)]).items():
            chains.setdefault(key, variable)
        out.append(result)
    return out


def documents(path: Path, k: int, limit: Optional[int] = None, coref: bool = False) -> List[str]:
    """The documents of k consecutive graphs each (whole groups only, at most ``limit``; ``coref``:
    named entities merged across sentences)."""
    sentences = graphs(path)
    count = len(sentences) // k if limit is None else min(limit, len(sentences) // k)
    return [f"# ::id doc{d + 1}.k{k}\n" + merged(sentences[d * k:(d + 1) * k], d + 1, coref)
            for d in range(count)]


def write(k: int, directory: Path, limit: Optional[int] = None, shared: Path = SHARED,
          coref: bool = False) -> Tuple[Path, Path]:
    """The gold and system document files for k, written into directory (``coref``: merged named
    entities, files ``coli.k<K>.coref.*.amr``)."""
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for source, side in zip(COLI, ("gold", "system")):
        target = directory / f"coli.k{k}.{'coref.' if coref else ''}{side}.amr"
        target.write_text("\n\n".join(documents(shared / source, k, limit, coref)) + "\n", encoding="utf-8")
        out.append(target)
    return out[0], out[1]


def main(argv: Optional[List[str]] = None) -> None:
    """Write the merged coli document pairs for one k."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("k", type=int, help="sentences per document")
    p.add_argument("directory", type=Path)
    p.add_argument("--limit", type=int, default=None, help="write the first N documents only")
    p.add_argument("--coref", action="store_true", help="merge named entities across sentences (DocAMR)")
    args = p.parse_args(argv)
    gold, system = write(args.k, args.directory, args.limit, coref=args.coref)
    print(gold, system)


if __name__ == "__main__":
    main()
