"""open_clip's training loader on webdataset 1.x, for the benchmarks that run it.

open_clip_train 3.3.0 wants webdataset <= 0.2.86 (its ``training`` extra); webdataset 1.x,
installed here, ends every shard with an empty marker that open_clip's sample grouping cannot
read (``KeyError: 'fname'``). Inside ``webdataset_1_markers_dropped()`` the shards are expanded
without it; everything else is open_clip's pipeline as it is.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock


@contextmanager
def webdataset_1_markers_dropped() -> Iterator[None]:
    from open_clip_train import data as open_clip_data
    from webdataset.tariterators import tar_file_expander

    expander = functools.partial(tar_file_expander, eof_value=None)
    with mock.patch.object(open_clip_data, "tar_file_expander", expander):
        yield
