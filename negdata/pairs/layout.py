"""Where ``negdata pairs`` writes, under the run's output folder::

pairs/pairs.parquet                          every mined pair (PairRecord)
pairs/neighbours.npz                         with detect.encoder: the nearest neighbours found
pairs/negpairs.parquet                       the published pairs (NegPairRecord)
pairs/negpairs/{split}/negpairs.parquet      the same, by split
pairs/negpairs_wds/{split}/{n:05d}.tar       WebDataset, each pair's two images adjacent
pairs/rejects.parquet                        the mined pairs not published, with reasons
pairs/stats.json                             the done marker
"""

from __future__ import annotations

FOLDER = "pairs"
PAIRS_FILE = "pairs.parquet"
NEIGHBOURS_FILE = "neighbours.npz"
NEGPAIRS_FILE = "negpairs.parquet"
REJECTS_FILE = "rejects.parquet"
STATS_FILE = "stats.json"
PARQUET = "negpairs"  # the split datasets' folders
WDS = "negpairs_wds"
