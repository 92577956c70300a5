"""Process plumbing: forked children that keep off standard output, a process kept for repeated work,
packed corpora."""
