"""The UMR shared task validator's checks (ufal/umrtools ``validate.py``), levels 1 to 3, in mrp's words:
each problem names the file line, the sentence, the level, the class and validate.py's test id.

Level 1 (:mod:`.blocks`): the technical backbone (sentences of four blocks, line kinds, empty lines,
trailing whitespace, Unicode normalization, line ends).  Level 2 (:mod:`.metadata`, :mod:`.graph`,
:mod:`.alignment`, :mod:`.document`): the UMR format (sentence ids and interlinear glosses, the
sentence graph's syntax and node ids, alignments, the document-level annotation and its nodes).  Level 3
(:mod:`.content`, and :mod:`.clusters` and :mod:`.temporal` after the last sentence): the content checks
that need no language-specific tables.  Only the sentences that pass level 1 get the checks of the higher
levels, as in validate.py.
"""

from mrp.validation.umr.check import LEVELS, Checks, LevelProblem, check_levels

__all__ = ["LEVELS", "Checks", "LevelProblem", "check_levels"]
