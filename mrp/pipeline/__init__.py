"""The one pipeline under every door: ``mrp-score``, ``mrp-mtool``, ``mrp-umr-compare``, ``mrp-evaluate`` (per
file), ``--explain``, :func:`mrp.score` and :class:`mrp.Scorer` score through these steps, in this order:

1. inputs: what a door is given (a path, text, bytes, a list of graphs) and its read options, one
   resolution for every kind (:func:`corpus_of`, :func:`read_options`; files: :func:`input_format`,
   :func:`read_options_for`, :func:`read_file`);
2. validate: the gold refused when any graph is unreadable or repeated (:func:`gold_problems`);
3. standardize: the AMR standardization, one function and its warning (:func:`standardized`,
   :class:`LayoutWarning`);
4. pair: one pairing and its counts (:func:`paired`, :func:`unanswered`);
5. metric: the options made in one place (:func:`run_options`, :func:`with_penman`,
   :func:`compat_values`; the "score Penman triples" rule: :func:`penman_triples`, :func:`penman_corpora`)
   and the metric run on the one driver (:func:`run_pairing`; :func:`score_pairing`, giving
   :class:`Scored`: the run, the result object, the ``--errors`` data);
6. render: the doors render the result (:mod:`mrp.report`) or wrap it (:class:`mrp.Result`).

The keyword table (:func:`mrp.pipeline.keywords.keywords`) is the library's keywords and the commands'
flags at once: every run's options and each metric's parameters.  Importing this package imports none of
its steps; each name is loaded on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Tuple

from mrp.lazy import exports

if TYPE_CHECKING:
    from mrp.pipeline.inputs import Graphs, corpus_of, is_path, read_options
    from mrp.pipeline.keywords import (
        CLI_ONLY,
        READING,
        Flag,
        Keyword,
        metric_keywords,
        respelled,
        run_keywords,
        sign,
        spelled,
    )
    from mrp.pipeline.options import compat_values, run_options, with_penman
    from mrp.pipeline.reading import COMPRESSED, input_format, read_file, read_options_for
    from mrp.pipeline.steps import (
        LayoutWarning,
        Scored,
        gold_problems,
        load_solver,
        paired,
        penman_corpora,
        penman_triples,
        run_pairing,
        score_pairing,
        standardized,
        unanswered,
    )

__all__ = ["CLI_ONLY", "COMPRESSED", "READING", "Flag", "Graphs", "Keyword", "LayoutWarning", "Scored",
           "compat_values", "corpus_of", "gold_problems", "input_format", "is_path", "load_solver",
           "metric_keywords", "paired",
           "penman_corpora", "penman_triples", "read_file", "read_options", "read_options_for", "respelled",
           "run_keywords", "run_options", "run_pairing", "score_pairing", "sign", "spelled", "standardized",
           "unanswered", "with_penman"]

#: each exported name -> (the module of the pipeline it comes from, its name there), loaded on first use
_HOMES: Dict[str, Tuple[str, str]] = {name: (home, name) for home, names in (
    ("inputs", ("Graphs", "corpus_of", "is_path", "read_options")),
    ("keywords", ("CLI_ONLY", "READING", "Flag", "Keyword", "metric_keywords", "respelled", "run_keywords",
                  "sign", "spelled")),
    ("options", ("compat_values", "run_options", "with_penman")),
    ("reading", ("COMPRESSED", "input_format", "read_file", "read_options_for")),
    ("steps", ("LayoutWarning", "Scored", "gold_problems", "load_solver", "paired", "penman_corpora",
               "penman_triples", "run_pairing", "score_pairing", "standardized", "unanswered")),
) for name in names}

__getattr__ = exports(__name__, globals(), _HOMES)
