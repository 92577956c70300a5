"""AMR standardization (Smatch++-style): options and presets, the graph rewrite, triples, structure."""
