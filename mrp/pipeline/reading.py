"""Reading files for a run, one rule for every door: the format of an input (the option, else the extension,
else the content), the read options of each file, and the file read into a corpus (its repairs counted)."""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any, Iterable, Optional, Sequence

from mrp.codecs import ReadOptions, resolve_format
from mrp.corpora import Corpus, read_corpus, umr_files
from mrp.errors import InputError

__all__ = ["COMPRESSED", "input_format", "read_file", "read_options_for"]

#: Extensions of compressed files, which no reader reads directly.
COMPRESSED = (".gz", ".bz2", ".xz", ".zip", ".zst", ".lzma", ".7z")


def input_format(path: str, given: Optional[str], option: str, default: Optional[str] = None) -> str:
    """The format of an input file: ``given``, else its extension, else its content (the one rule,
    :func:`mrp.codecs.resolve_format`; ``default`` for standard input and files without graph text).

    A missing file, a directory or a compressed file is named as such
    (InputError), not as a file of unknown format; ``option`` is the option
    that names the format in the calling tool (for the message).

    Args:
        path: the file (``-``: standard input).
        given: the format named by the caller, if any.
        option: the option that names it (``--format``, ``--gold-format``, ``--read``).
        default: the format of standard input and of files that give no sign (default mrp).

    Returns:
        The format's name.

    Raises:
        InputError: for a missing file, a directory that holds no UMR files, or a compressed file.
    """
    if path != "-":
        if not os.path.exists(path):
            raise InputError(f"{path}: no such file")
        if os.path.isdir(path):
            if given in (None, "umr") and umr_files(path):
                return "umr"  # a directory of UMR documents, read as one corpus
            raise InputError(f"{path}: is a directory, not a file")
        if path.lower().endswith(COMPRESSED):
            raise InputError(f"{path}: is a compressed file; decompress it first")
    return resolve_format(path, given, option, default or "mrp")


def read_options_for(fmt: str, base: ReadOptions, frameworks: Optional[Sequence[str]]) -> ReadOptions:
    """Read options for one file: the framework goes only to a format that cannot name it itself (SDP).

    Args:
        fmt: the file's format.
        base: the run's read options.
        frameworks: the frameworks the run scores (``--framework``).

    Returns:
        The file's read options.
    """
    framework = frameworks[0] if fmt == "sdp" and frameworks else None
    return replace(base, framework=framework)


def read_file(path: str, fmt: Optional[str] = None, options: Optional[ReadOptions] = None,
              items: Optional[Iterable[Any]] = None) -> Corpus:
    """Every graph of a file (:func:`mrp.corpora.load.read_corpus`): the graphs, those that could not be
    read, and one :class:`~mrp.corpora.corpus.Repaired` per graph read by a repair.

    Args:
        path: the file, or a directory of UMR files.
        fmt: its format (None: :func:`mrp.codecs.resolve_format`).
        options: the read options (None: the defaults).
        items: the file's graphs and errors as its reader gives them, read already (a UMR file's parsed
            documents, read once for the validator and the scorer).

    Returns:
        The corpus.
    """
    return read_corpus(path, fmt, options, items=items)
