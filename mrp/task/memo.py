r"""What one evaluation computes from a file's content, computed once per distinct content.

A shared task's gold files are the same bytes for every team, and a submission may repeat a file; each
reading, validation and scoring that depends only on the bytes of its files (and on options) is kept here
under the SHA-256 digests of those files and every option it reads, so that a figure cannot depend on
whether it was computed or found: the key is everything the computation reads.  A memo lives for one
evaluation (nothing is written to disk); :attr:`EvaluationMemo.enabled` False computes every time (the tests
compare both).

A cache of its own kind (see :mod:`mrp.memo`): unbounded, as every result of an evaluation is needed again
for its pages and a figure must never be computed twice in two ways; keyed by the digests of whole files,
not by objects or texts; and it gives each warning of a kept computation once per submission.

Computed ahead elsewhere: a memo :meth:`~EvaluationMemo.recording` keeps, for each result it computes at the
top (not inside another computation), the warnings the computation gave; another memo
:meth:`~EvaluationMemo.adopt` takes those results and gives the warnings again when a result is first asked
for, where the computation would have given them (:mod:`mrp.task.pool` computes an evaluation's files
in worker processes so).
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Hashable, Optional, Set, Tuple, Type, TypeVar

__all__ = ["EvaluationMemo", "Found", "Slot", "file_digest"]

T = TypeVar("T")

#: what a result is kept under: (kind, key)
Slot = Tuple[str, Hashable]
#: a result computed ahead, with the warnings its computation gave (category, text), in order
Found = Tuple[Any, Tuple[Tuple[Type[Warning], str], ...]]

#: bytes read at a time while hashing
_CHUNK = 1 << 20


def file_digest(path: str) -> Optional[str]:
    """The SHA-256 of a file's bytes, or None when it cannot be read (the caller then reads it itself and
    reports what it finds).

    Args:
        path: the file.

    Returns:
        The hexadecimal digest, or None.
    """
    hashed = hashlib.sha256()
    try:
        with open(path, "rb") as stream:
            for chunk in iter(lambda: stream.read(_CHUNK), b""):
                hashed.update(chunk)
    except OSError:
        return None
    return hashed.hexdigest()


@dataclass
class EvaluationMemo:
    """Results by (kind, key): the key names the digests of the files read and every option used."""

    enabled: bool = True
    _digests: Dict[str, Optional[str]] = field(default_factory=dict, repr=False)
    _found: Dict[Tuple[str, Hashable], Any] = field(default_factory=dict, repr=False)
    #: adopted results whose computation's warnings are still to be given (at their first use)
    _untold: Dict[Slot, Tuple[Tuple[Type[Warning], str], ...]] = field(default_factory=dict, repr=False)
    #: while recording: the results computed at the top, with their computation's warnings
    _recorded: Optional[Dict[Slot, Found]] = field(default=None, repr=False)
    _depth: int = field(default=0, repr=False)
    _said: Set[Tuple[Type[Warning], str]] = field(default_factory=set, repr=False)

    def begin_submission(self) -> None:
        """Start a submission's messages: a warning of a computation kept here is given again to the next
        submission it concerns (its notes must not depend on the submissions scored before it in this
        process, or on how many processes share the evaluation)."""
        self._said.clear()

    def warn(self, category: Type[Warning], message: str) -> None:
        """A warning of a computation kept here, given once per submission (as Python's default filter gives
        a warning once per text and place; recording it for the memo resets that filter's registry).

        Args:
            category: the warning's class.
            message: its text, naming the file it is about.
        """
        if (category, message) not in self._said:
            self._said.add((category, message))
            warnings.warn(message, category, stacklevel=3)

    def digest(self, path: str) -> Optional[str]:
        """The digest of a file's content (hashed once per path; None when unreadable or disabled).

        Args:
            path: the file.

        Returns:
            The digest, or None (then nothing computed from the file is kept).
        """
        if not self.enabled:
            return None
        if path not in self._digests:
            self._digests[path] = file_digest(path)
        return self._digests[path]

    def get(self, kind: str, key: Optional[Hashable], compute: Callable[[], T]) -> T:
        """The result kept under ``(kind, key)``, computed (and kept) the first time.

        Args:
            kind: what is kept (``read``, ``validated``, ``scored``), so that keys of two kinds never meet.
            key: the digests and options the computation reads; None computes without keeping.
            compute: the computation.

        Returns:
            The result (the same object each time: callers must not change it).
        """
        if key is None or not self.enabled:
            return compute()
        slot = (kind, key)
        if slot in self._found:
            for category, message in self._untold.pop(slot, ()):
                warnings.warn(message, category, stacklevel=2)
        elif self._recorded is not None and self._depth == 0:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                self._found[slot] = self._computed(compute)
            self._recorded[slot] = (self._found[slot], tuple((w.category, str(w.message)) for w in caught))
        else:
            self._found[slot] = self._computed(compute)
        result: T = self._found[slot]
        return result

    def _computed(self, compute: Callable[[], T]) -> T:
        self._depth += 1
        try:
            return compute()
        finally:
            self._depth -= 1

    @contextmanager
    def recording(self) -> Iterator[Dict[Slot, Found]]:
        """Meanwhile, each result computed at the top (not inside another computation) kept with the
        warnings its computation gave (which are not given here): the dictionary yielded fills.

        Yields:
            The results computed meanwhile, by slot, in the order computed.
        """
        self._recorded = {}
        try:
            yield self._recorded
        finally:
            self._recorded = None

    def adopt(self, found: Mapping[Slot, Found]) -> None:
        """Results computed ahead (by a memo :meth:`recording` them) kept here, each warning of a result's
        computation given when the result is first asked for (a result kept already stays as it is).

        Args:
            found: the results and their computations' warnings by slot.
        """
        if not self.enabled:
            return
        for slot, (result, said) in found.items():
            if slot not in self._found:
                self._found[slot] = result
                if said:
                    self._untold[slot] = said

    def digests(self) -> Dict[str, Optional[str]]:
        """The digests hashed so far, by path (a copy)."""
        return dict(self._digests)

    def knows(self, paths: Mapping[str, Optional[str]]) -> None:
        """Digests hashed elsewhere (by :meth:`digests` of a memo of the same evaluation) taken as known.

        Args:
            paths: digests by path.
        """
        for path, digest in paths.items():
            self._digests.setdefault(path, digest)
