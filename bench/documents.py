"""Document graphs from sentence pairs: k consecutive AMR graphs merged into one multi-sentence graph.

Every k consecutive graphs of a Penman file become one graph
``(m / multi-sentence :snt1 G1 :snt2 G2 ... :sntk Gk)``, the gold and the
system file alike, so that document i of the gold file pairs with document i
of the system file.  Variables are renamed ``s<i>x<var>`` (unique across the
document); everything else, the layout included, is kept as written.  Only
whole groups are written (``len // k`` documents), so the output is a pure
function of the input and k; ``limit`` keeps the first documents only.

    python bench/documents.py K OUTDIR [--limit N]

writes ``OUTDIR/coli.k<K>.gold.amr`` and ``OUTDIR/coli.k<K>.system.amr`` from the
shared coli pairs.
"""

from __future__ import annotations

import argparse
import logging
import re
from pathlib import Path
from typing import List, Optional, Tuple

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


def merged(sentences: List[str], doc: int) -> str:
    """One multi-sentence graph of the sentences (variables renamed per sentence)."""
    parts = [f"(m{doc} / multi-sentence"]
    for i, text in enumerate(sentences, 1):
        parts.append(f"\n   :snt{i} " + renamed(text, f"s{i}x").replace("\n", "\n      "))
    return "".join(parts) + ")"


def documents(path: Path, k: int, limit: Optional[int] = None) -> List[str]:
    """The documents of k consecutive graphs each (whole groups only, at most ``limit``)."""
    sentences = graphs(path)
    count = len(sentences) // k if limit is None else min(limit, len(sentences) // k)
    return [f"# ::id doc{d + 1}.k{k}\n" + merged(sentences[d * k:(d + 1) * k], d + 1) for d in range(count)]


def write(k: int, directory: Path, limit: Optional[int] = None, shared: Path = SHARED) -> Tuple[Path, Path]:
    """The gold and system document files for k, written into directory."""
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for source, side in zip(COLI, ("gold", "system")):
        target = directory / f"coli.k{k}.{side}.amr"
        target.write_text("\n\n".join(documents(shared / source, k, limit)) + "\n", encoding="utf-8")
        out.append(target)
    return out[0], out[1]


def main(argv: Optional[List[str]] = None) -> None:
    """Write the merged coli document pairs for one k."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("k", type=int, help="sentences per document")
    p.add_argument("directory", type=Path)
    p.add_argument("--limit", type=int, default=None, help="write the first N documents only")
    args = p.parse_args(argv)
    gold, system = write(args.k, args.directory, args.limit)
    print(gold, system)


if __name__ == "__main__":
    main()
