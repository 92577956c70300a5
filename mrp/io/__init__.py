"""Input and output below the codecs: lines of a file (sources), reading limits, tables and the one
writer."""
