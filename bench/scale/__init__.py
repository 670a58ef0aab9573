"""`make bench-scale`: the real pipeline on a synthetic CC12M-like corpus, stage by stage."""
