"""Input: lines of a file (sources), reading limits, and whole files read into corpora."""
