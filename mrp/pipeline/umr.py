"""``mrp-umr-compare``'s comparison of UMR files as the shared task's ``compare_umr.pl`` compares them: the
files read by its reading (or, ``exact``, as every other door reads them, paired by the one pairing), its
greedy node correspondence or the exact one, and its layouts; messages go to the caller's ``warn`` (one
line each, in order) and ``report`` (lines quoted as they are: repairs and unreadable sentences)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Sequence

from mrp.corpora import read_corpus
from mrp.engine import pair
from mrp.errors import MRPError
from mrp.metrics.umatch import compare, reading
from mrp.metrics.umatch.graphs import files as sentence_files
from mrp.metrics.umatch.triples import Selection
from mrp.report.umatch import figures

__all__ = ["Comparison", "compare_umr"]

Say = Callable[[str], None]


@dataclass
class Comparison:
    """What is compared and how (compare_umr.pl's options, and mrp's own: ``exact``, the caps)."""

    only: List[str] = field(default_factory=list)
    excluded: List[str] = field(default_factory=list)
    document_level: bool = True
    top: bool = False
    exact: bool = False
    timeout: Optional[float] = None
    max_memory: Optional[int] = None
    quiet: bool = False
    tsv: bool = False
    verbose: bool = False


def compare_umr(how: Comparison, labels: Sequence[str], paths: Sequence[str], warn: Say, report: Say) -> str:
    """The comparator's output for one set of files, the first the gold.

    Args:
        how: the comparison's options.
        labels: each file's label.
        paths: the files.
        warn: where each warning goes (one line).
        report: where lines quoted as they are go (repairs, unreadable sentences: ``--exact``).

    Returns:
        The output (the summary, ``--tsv`` rows or ``--quiet``'s figure; ``--verbose``: per sentence first).

    Raises:
        MRPError: for a file that cannot be compared.
    """
    selection = Selection.of(how.only, how.excluded)
    settings = compare.Settings(selection, how.document_level, how.top)
    files = _read_as_scored(labels, paths, how.top, warn, report) if how.exact else []
    for label, path in zip(labels, paths) if not how.exact else ():
        try:
            umr = reading.read(path, label, how.top)
        except OSError as error:
            raise MRPError(f"{path}: {error.strerror or error}") from None
        for message in umr.messages:
            warn(message)
        if umr.failed:
            warn(f"{path}: reading of {umr.failed} out of {len(umr.sentences)} sentences stopped early "
                 "(compared as far as read, as compare_umr.pl does)")
        files.append(umr)
    mapper = None
    if how.exact:
        from mrp.metrics.umatch.exact import ExactMapper

        mapper = ExactMapper(timeout=how.timeout, max_memory=how.max_memory, compiling=lambda: warn(
            "compiling the solver's kernels, once for this installation (about 30-60 s; no sentence pair's "
            "time runs meanwhile)"))
    out: List[str] = []
    show = None
    if how.verbose:
        from mrp.report.umatch.verbose import Verbose

        show = Verbose(out)
        out.append(show.found(files))
    result = compare.run(files, settings, mapper, show, max_memory=how.max_memory)
    for warning in result.warnings:
        warn(warning)
    beyond = sorted(result.capped)  # sentence numbers
    if mapper is not None:
        capped = {key for key, proof in mapper.proofs.items() if proof.trivial and proof.cut == "limit"}
        beyond = sorted({key[2] for key in capped})  # a greedy start the clock stopped: not proved, below
        open_pairs = [key for key, proof in mapper.proofs.items() if not proof.exact and key not in capped]
        if open_pairs:
            warn(f"{len(open_pairs)} sentence pairs not proved optimal within --timeout")
    if beyond:
        shown = ", ".join(str(number) for number in beyond[:10]) + (" ..." if len(beyond) > 10 else "")
        how_mapped = "the exact search" if mapper is not None else "compare_umr.pl's greedy"
        warn(f"{len(beyond)} sentence(s) beyond --max-memory mapped in linear time, not by {how_mapped} "
             f"(sentence {shown})")
    found = figures.figures(result)
    sentences = {umr.label: len(umr.sentences) for umr in files}
    if how.quiet:
        out.append(figures.quiet(found, how.tsv))
    elif how.tsv:
        out.append(figures.tsv(result, found, sentences))
    else:
        out.append(figures.summary(result, found))
    return "".join(out)


def _read_as_scored(labels: Sequence[str], paths: Sequence[str], top: bool, warn: Say, report: Say
                    ) -> List[Any]:
    """``exact``: the files read as mrp-score reads them (mrp's UMR reader: sentences by their ``# :: snt``
    headers, repairs reported one line each, unreadable sentences compared as empty), each later file's
    sentences paired with the first's by id as mrp-score pairs them."""
    corpora = [read_corpus(path, "umr") for path in paths]
    for corpus in corpora:
        for item in corpus.repaired:
            report(str(item))
        for error in corpus.errors:
            report(f"{error}{' (compared as an empty graph)' if corpus is not corpora[0] else ''}")
    if corpora[0].errors:
        raise MRPError(f"{paths[0]}: {len(corpora[0].errors)} sentence(s) cannot be read; nothing compared")
    out: List[Any] = []
    for label, path, corpus in zip(labels[1:], paths[1:], corpora[1:]):
        pairing = pair(corpora[0], corpus)
        for note in pairing.notes:
            warn(note)
        gold, system, notes = sentence_files([(p.gold, p.system) for p in pairing.pairs], top)
        for graph, note in notes:
            warn(f"{paths[0]}:{graph.line or '?'}: graph {graph.id}: {note}")
        if not out:
            gold.label, gold.path = labels[0], paths[0]
            out.append(gold)
        system.label, system.path = label, path
        out.append(system)
    return out
