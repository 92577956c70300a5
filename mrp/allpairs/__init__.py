"""All pairs of a corpus scored against each other (the similarity matrix, its top-k neighbours) and the
ensemble selection built on it (MBSE), in blocks of pairs run locally or on a Dask cluster."""
