"""The layouts of the UMR shared task's comparator (``compare_umr.pl``) and of its ``micro_average.pl``:
the figures of a comparison with the ``--tsv`` rows, the summary and ``--quiet`` (``figures``), the
``--verbose`` layout (``verbose``), and micro-averaged ``--tsv`` outputs (``micro``)."""
