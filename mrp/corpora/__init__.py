"""Corpora: whole files read through the codecs into a Corpus (the graphs of one file and those that could
not be read), read ahead in a forked child while the process does other work, and kept packed when large."""
