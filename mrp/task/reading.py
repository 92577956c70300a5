"""The files of an evaluation read: a gold file (refused when any graph cannot be read) and each system file
of a submission (an empty corpus for a missing file, or one that cannot be used at all), each distinct
content read once per evaluation (:class:`mrp.task.memo.EvaluationMemo`)."""

from __future__ import annotations

import os
import tempfile
import warnings
from dataclasses import replace
from functools import partial
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Type, Union, overload

from mrp.codecs import Document, ReadOptions, document_items, read_documents
from mrp.corpora import Corpus
from mrp.errors import FormatError, InputError, ReadWarning, ScoreError
from mrp.graph import Graph
from mrp.io.source import display_name
from mrp.io.write import output
from mrp.pipeline import read_file as read_path
from mrp.task.definition import Task
from mrp.task.memo import EvaluationMemo
from mrp.validation.umr.reading import umr_reading

__all__ = ["EMPTY", "Reread", "handed", "parsed", "read_file", "read_gold", "read_system"]

#: the content key of an empty system corpus (a missing file, or one that cannot be used)
EMPTY = ""


def read_file(path: str, fmt: str, memo: Optional[EvaluationMemo] = None) -> Tuple[Corpus, Optional[str]]:
    """A file's graphs, read once per distinct content, under this path's name.

    Args:
        path: the file.
        fmt: its format.
        memo: the evaluation's memo (None: read every time).

    Returns:
        The corpus and its content key (its digest; None when nothing is kept).

    Raises:
        InputError: for a file that cannot be used at all.
    """
    memo = memo or EvaluationMemo(enabled=False)
    digest = memo.digest(path)
    found, said = memo.get("read", None if digest is None else (digest, fmt),
                           lambda: _read(path, fmt, parsed(path, fmt, memo)))
    name = display_name(path)
    if found.name != name and found.errors:  # an unreadable graph's error names its file: read it again
        found, said = _read(path, fmt)
        digest = None
    for category, message in said:  # the reader's warnings, each file's own (naming it)
        memo.warn(category, message.replace(found.name, name))
    if found.name != name:
        found = Corpus(name, found.format, found.graphs, found.errors,
                       [replace(item, file=name) for item in found.repaired])
    for item in found.repaired:  # each graph read by a repair said, as every door says it (and counted)
        memo.warn(ReadWarning, str(item))
    return found, digest


def parsed(path: str, fmt: str, memo: Optional[EvaluationMemo] = None) -> Optional[List[Document]]:
    """A UMR file's documents parsed once for the validator and the scorer, which read it alike
    (:func:`mrp.validation.umr.reading.umr_reading`); None for another format, a file that cannot be
    parsed (each then reads it itself and reports what it finds) or without a memo.

    Args:
        path: the file.
        fmt: its format.
        memo: the evaluation's memo.

    Returns:
        The documents, or None.
    """
    digest = memo.digest(path) if memo is not None and fmt == "umr" else None
    if memo is None or digest is None:
        return None
    return memo.get("parsed", (digest, repr(umr_reading())), partial(_parse, path))


def _parse(path: str) -> Optional[List[Document]]:
    try:
        return read_documents(path, umr_reading())
    except (InputError, FormatError):
        return None


def _read(path: str, fmt: str, documents: Optional[List[Document]] = None
          ) -> Tuple[Corpus, Tuple[Tuple[Type[Warning], str], ...]]:
    """A file read (from its parsed documents when given), and the warnings its reader gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        items = None if documents is None else document_items(documents)
        corpus = read_path(path, fmt, ReadOptions(), items=items)
    return corpus, tuple((warning.category, str(warning.message)) for warning in caught)


class Reread(Sequence[Graph]):
    """A UMR file's graphs, read again from its bytes when first used: how a forked child hands over a file
    it read (:func:`handed`).  Pickling a file's graphs back cost the child and this process more than
    reading them (the night: 35 and 26 ms for a large unit), and the evaluation uses the graphs of few files
    once it has their scores (those its pages draw).  Read again as :func:`read_file` read it, giving no
    warning (the reader's were given with the first reading) and changing no warning filter (a filter
    changed would make Python give again a warning it gives once); pickled as its bytes alone.

    Args:
        data: the file's bytes.
        name: the file's name (its base name names the scratch copy read).
    """

    def __init__(self, data: bytes, name: str) -> None:
        self._data, self._name = data, name
        self._graphs: Optional[Sequence[Graph]] = None

    def graphs(self) -> Sequence[Graph]:
        """The graphs (read the first time).

        Returns:
            The graphs, as the file's first reading gave them.
        """
        if self._graphs is None:
            with tempfile.TemporaryDirectory(prefix="mrp-reread-") as folder:
                path = os.path.join(folder, os.path.basename(self._name) or "file")
                with output(path, "wb", durable=False) as stream:
                    stream.write(self._data)
                documents = read_documents(path, umr_reading())
                self._graphs = read_path(path, "umr", ReadOptions(),
                                         items=document_items(documents, warn=False)).graphs
        return self._graphs

    def __len__(self) -> int:
        return len(self.graphs())

    @overload
    def __getitem__(self, index: int) -> Graph: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Graph]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Graph, Sequence[Graph]]:
        return self.graphs()[index]

    def __iter__(self) -> Iterator[Graph]:
        return iter(self.graphs())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> Dict[str, Any]:
        return {"_data": self._data, "_name": self._name, "_graphs": None}


def handed(corpus: Corpus, path: str, fmt: str) -> Corpus:
    """A corpus read from ``path`` as a forked child hands it over: a UMR file's graphs (a list) left to be
    read again from the file's bytes where they are used (:class:`Reread`), its errors and repairs as they
    are; any other corpus as it is (another format's reader may warn, and only a warning filter would
    keep it quiet).

    Args:
        corpus: the corpus read.
        path: the file it was read from (unchanged since).
        fmt: the format it was read as.

    Returns:
        The corpus to hand over.
    """
    if fmt != "umr" or type(corpus.graphs) is not list or not corpus.graphs:
        return corpus
    try:
        with open(path, "rb") as stream:
            data = stream.read()
    except OSError:
        return corpus
    return Corpus(corpus.name, corpus.format, Reread(data, corpus.name), corpus.errors, corpus.repaired)


def read_gold(name: str, path: str, task: Task, memo: Optional[EvaluationMemo] = None) -> Corpus:
    """A gold file, refused (ScoreError) when any of its graphs cannot be read."""
    try:
        corpus, _ = read_file(path, task.format, memo)
    except InputError as error:
        raise ScoreError(f"gold {name}: {error}") from None
    if corpus.errors:
        raise ScoreError(f"gold {name}: {len(corpus.errors)} graph(s) cannot be read, the first: "
                         f"{corpus.errors[0]}; nothing scored")
    return corpus


def _system(name: str, path: Optional[str], task: Task, notes: List[str],
            memo: Optional[EvaluationMemo]) -> Tuple[Corpus, Optional[str]]:
    if path is None:
        return Corpus(name, task.format), EMPTY
    try:
        return read_file(path, task.format, memo)
    except InputError as error:
        notes.append(f"{name}: {error} (scored as empty)")
        return Corpus(name, task.format), EMPTY


def read_system(task: Task, gold: Dict[str, Corpus], system: Dict[str, Optional[str]],
                memo: Optional[EvaluationMemo] = None
                ) -> Tuple[Dict[str, Corpus], List[str], Dict[str, Optional[str]]]:
    """The system corpus of each gold file, read once for every metric.

    Args:
        task: the task.
        gold: the gold corpora by file name.
        system: the system file of each gold file name (None: missing, or scored as empty).
        memo: the evaluation's memo (None: read every time).

    Returns:
        The system corpora by gold file name; the notes on what could not be read; per gold file name the
        system corpus's content key (:data:`EMPTY` for an empty one, None when nothing is kept).
    """
    notes: List[str] = []
    corpora: Dict[str, Corpus] = {}
    keys: Dict[str, Optional[str]] = {}
    for name in gold:
        corpora[name], keys[name] = _system(name, system.get(name), task, notes, memo)
    return corpora, notes, keys
