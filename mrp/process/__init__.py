"""Process plumbing: forked children that keep off standard output, a child started with exec, and a
process kept for repeated work."""
