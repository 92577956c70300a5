"""A plain Penman text read by the compiled scan (:mod:`.scanner`): its :class:`Scanned` form, from which
SMATCH codes its triples straight (:meth:`mrp.metrics.smatch.coded.Coder.coded_scan`), the text's
:class:`~.fast.Plain` form made only when something asks for it (:func:`plain_of`).

The scan is used only once the solver's warm-up has made it ready (:func:`use`, from
:func:`.scanner.warm_scan`): a reader never compiles.  This module imports neither numba nor numpy, nor the
present reader (:mod:`.amr`, :mod:`.fast`) until a scanned text asks for it: the warm-up marks the scan
usable in processes that never read a Penman text (EDS, UMR) without importing them.  A
text the scan declines is read the present way (:func:`.fast.plain_form`), with its errors as they are;
``tests/test_penman_scan.py`` proves the two the same wherever the scan reads a text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, List, NamedTuple, Optional, Tuple

if TYPE_CHECKING:
    from mrp.codecs.penman.fast import Plain

__all__ = ["Scanned", "constant", "plain_of", "role_label", "scanned", "scanned_all", "scanned_root", "use"]

#: the compiled scan once made ready (:func:`use`): texts -> their integers and each text's start (-1:
#: declined)
_SCAN: List[Callable[[List[str]], Tuple[List[int], List[int]]]] = []


#: the present reader's module (:mod:`.amr`) once a token's value was first asked for (:func:`_reader`)
_READER: List[Any] = []


def _reader() -> Any:
    """The present reader's module, imported at the first token whose value is asked for."""
    from mrp.codecs.penman import amr

    _READER[:] = [amr]
    return amr


class Scanned(NamedTuple):
    """A plain Penman text read by the scan: the text and its integers (:func:`.scanner.scan_kernel`):
    ``[nodes, branches, edges]``, each node's ``(concept start, concept end, its branches)``, then each
    branch node by node in the order written, ``(target node or -1 for a constant, role start, role end,
    constant start, constant end)``, each offset in the text (its own: a graph pickled or kept holds no
    other text's)."""

    text: str
    codes: List[int]
    #: ``:wiki`` constants to be left out (``ReadOptions.no_wiki``)
    no_wiki: bool


def use(scan: Optional[Callable[[List[str]], Tuple[List[int], List[int]]]]) -> None:
    """Read plain texts with ``scan`` from now on (None: the present way again, as before the warm-up).

    Args:
        scan: texts -> their integers and each text's start (-1: declined).
    """
    _SCAN[:] = [scan] if scan is not None else []


def scanned_all(texts: List[str], no_wiki: bool = False) -> List[Optional[Scanned]]:
    """Texts read by the compiled scan at once, each None where the scan declines it (all of them while the
    scan is not ready).

    Args:
        texts: graph texts, each on one line (as :func:`.reading.one_line_graphs` takes them).
        no_wiki: leave ``:wiki`` constants out.

    Returns:
        Each text's form, or None.
    """
    if not _SCAN or not texts:
        return [None] * len(texts)
    codes, where = _SCAN[0](texts)
    if len(texts) == 1:
        return [Scanned(texts[0], codes, no_wiki) if where[0] >= 0 else None]
    return [None if at < 0 else Scanned(text, codes[at:at + 3 + 3 * codes[at] + 5 * codes[at + 1]], no_wiki)
            for text, at in zip(texts, where)]


def scanned(text: str, no_wiki: bool = False) -> Optional[Scanned]:
    """A text read by the compiled scan, or None (the scan not ready, or declining the text).

    Args:
        text: a graph text on one line.
        no_wiki: leave ``:wiki`` constants out.

    Returns:
        Its form, or None.
    """
    return scanned_all([text], no_wiki)[0]


def plain_of(form: Scanned) -> Plain:
    """The :class:`~.fast.Plain` form of a scanned text, made from its integers (:func:`.fast.scanned_plain`:
    what the present reading gives, without reading the text again).

    Args:
        form: the scanned text.

    Returns:
        Its Plain form.
    """
    from mrp.codecs.penman.fast import scanned_plain

    return scanned_plain(form.text, form.codes, form.no_wiki)


def constant(token: str) -> str:
    """A concept or constant as the reader makes it from its token (a Symbol or Quoted string).

    Args:
        token: the token as written.

    Returns:
        Its value.
    """
    reader = _READER[0] if _READER else _reader()
    found = reader._CONSTANTS.get(token)
    return found if found is not None else reader._value(token)


def role_label(token: str) -> str:
    """An edge's label as the reader makes it from its role as written (``:ARG0-of`` -> ``ARG0-of``).

    Args:
        token: the role as written.

    Returns:
        Its label.
    """
    reader = _READER[0] if _READER else _reader()
    return reader._role(token)[0]


def scanned_root(form: Scanned) -> str:
    """The label of a scanned text's root (its concept: the scan reads only nodes with one).

    Args:
        form: the scanned text.

    Returns:
        The label.
    """
    return constant(form.text[form.codes[3]:form.codes[4]])
