"""NegPairs: look-alike images that differ by one verified object, present in one image and
absent in the other (``negdata pairs``): mined from the evidence, among an image encoder's
nearest neighbours where the run has one, captioned and published by split."""

from negdata.pairs.labels import ImageLabels, image_labels, read_labels
from negdata.pairs.mine import Pair, mine, pair_id
from negdata.pairs.stage import run_pairs

__all__ = ["ImageLabels", "Pair", "image_labels", "mine", "pair_id", "read_labels", "run_pairs"]
