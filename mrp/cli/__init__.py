"""The command-line tools: mrp-score, mrp-convert, mrp-validate, mrp-mtool and mrp-umr-compare."""

import os

# numpy's OpenBLAS starts a busy thread per core when it is imported; mrp does no linear algebra that
# would use them (about 0.07 s of CPU per run on two cores)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
