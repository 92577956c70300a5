"""Process plumbing: forked children that keep off standard output, reading a file ahead, packed corpora."""
