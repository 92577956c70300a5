"""Reports: rendering results, signatures, statistics (macro, intervals, tests) and leaderboards."""
