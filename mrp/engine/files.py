"""Files paired by name: the files of two directories (UMR documents), or of a submission and its gold.

One rule for every command and the library (:func:`pair_files`): the same name, else the same name ignoring
case where that pairs one file with one file; what stays apart is counted and named.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Sequence, Set, Tuple

from mrp.corpora import Corpus, entries, live
from mrp.errors import FormatError

__all__ = ["FilePairing", "by_file", "pair_files"]


@dataclass
class FilePairing:
    """Files of two directories paired by name: exactly, else ignoring case where that pairs one file with
    one file; what stays apart is listed (``missing``: gold files without a system file, ``unpaired``:
    system files without a gold file)."""

    #: (gold name, system name), in the order of the gold names
    pairs: List[Tuple[str, str]] = field(default_factory=list)
    missing: List[str] = field(default_factory=list)
    unpaired: List[str] = field(default_factory=list)

    def notes(self, gold: str = "gold", system: str = "system") -> List[str]:
        """What the user must be told (one line each): names paired across a difference in case, and the
        files left apart, with counts."""
        out = []
        differ = [f"{theirs} as {ours}" for ours, theirs in self.pairs if ours != theirs]
        if differ:
            out.append(f"{system}: files paired with {gold}'s, their names differing in case: "
                       f"{', '.join(differ)}")
        if self.missing:
            total = len(self.pairs) + len(self.missing)
            out.append(f"{gold}: {len(self.missing)} of {total} file(s) have no file of the same name in "
                       f"{system}: {', '.join(self.missing)}")
        if self.unpaired:
            out.append(f"{system}: {len(self.unpaired)} file(s) have no file of the same name in {gold}: "
                       f"{', '.join(self.unpaired)}")
        return out


def pair_files(gold: Sequence[str], system: Sequence[str]) -> FilePairing:
    """Pair file names (of a gold and a system directory, or a submission) by the one rule every command
    follows: the same name, else the same name ignoring case when just one file on each side has it."""
    result = FilePairing()
    left = [name for name in system if name not in set(gold)]
    folded: Dict[str, List[str]] = {}
    for name in left:
        folded.setdefault(name.casefold(), []).append(name)
    alone = [name for name in gold if name not in set(system)]
    counts: Dict[str, int] = {}
    for name in alone:
        counts[name.casefold()] = counts.get(name.casefold(), 0) + 1
    taken: Set[str] = set()
    for name in gold:
        if name in set(system):
            result.pairs.append((name, name))
            continue
        found = folded.get(name.casefold(), [])
        if len(found) == 1 and counts[name.casefold()] == 1:
            result.pairs.append((name, found[0]))
            taken.add(found[0])
        else:
            result.missing.append(name)
    result.unpaired = [name for name in left if name not in taken]
    return result


def _files(corpus: Corpus) -> List[str]:
    """The files of a corpus read from a directory of UMR files (each id ``FILE/dK.sN``), in order; [] for
    a corpus of one file."""
    if corpus.format != "umr":
        return []
    ids = [entry.id for entry in entries(corpus.graphs)] + [error.graph_id or "" for error in corpus.errors]
    if not ids or not all("/" in gid for gid in ids):
        return []
    return list(dict.fromkeys(gid.split("/", 1)[0] for gid in ids))


def by_file(gold: Corpus, system: Corpus, notes: List[str]) -> Corpus:
    """The system corpus of a directory with each file renamed to the gold file it pairs with by name
    (:func:`pair_files`); the files left apart are named in ``notes`` (their sentences count as missing or
    unpaired)."""
    ours, theirs = _files(gold), _files(system)
    if not ours or not theirs:
        return system
    files = pair_files(ours, theirs)
    notes.extend(files.notes(gold.name, system.name))
    renamed = {other: name for name, other in files.pairs if other != name}
    if not renamed:
        return system

    def moved(name: Optional[str]) -> Optional[str]:
        head, slash, tail = (name or "").partition("/")
        return f"{renamed[head]}/{tail}" if slash and head in renamed else name

    graphs = []
    for entry in entries(system.graphs):
        graph = live(entry)
        placement = graph.document and replace(graph.document, document=moved(graph.document.document) or "")
        graphs.append(replace(graph, id=moved(graph.id) or graph.id, document=placement))
    errors = [FormatError(error.message, error.file, error.line, moved(error.graph_id), error.framework)
              for error in system.errors]
    repaired = [replace(item, graph_id=moved(item.graph_id) or item.graph_id) for item in system.repaired]
    return Corpus(system.name, system.format, graphs, errors, repaired)
