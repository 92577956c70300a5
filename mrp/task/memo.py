"""What one evaluation computes from a file's content, computed once per distinct content.

A shared task's gold files are the same bytes for every team, and a submission may repeat a file; each
reading, validation and scoring that depends only on the bytes of its files (and on options) is kept here
under the SHA-256 digests of those files and every option it reads, so that a figure cannot depend on
whether it was computed or found: the key is everything the computation reads.  A memo lives for one
evaluation (nothing is written to disk); :attr:`EvaluationMemo.enabled` False computes every time (the tests
compare both).

A cache of its own kind (see :mod:`mrp.memo`): unbounded, as every result of an evaluation is needed again
for its pages and a figure must never be computed twice in two ways; keyed by the digests of whole files,
not by objects or texts; and it gives each warning of a kept computation once per evaluation.
"""

from __future__ import annotations

import hashlib
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Hashable, Optional, Set, Tuple, Type, TypeVar

__all__ = ["EvaluationMemo", "file_digest"]

T = TypeVar("T")

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
        if slot not in self._found:
            self._found[slot] = compute()
        result: T = self._found[slot]
        return result
