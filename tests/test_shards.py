import stat
import subprocess
import sys
from pathlib import Path

import pytest

from negdata.shards import (
    ShardError,
    atomic_path,
    is_done,
    parse_shards,
    remove_unfinished,
    sample_key,
    shard_spec,
    write_stats,
)


def test_parse_shards_ranges_and_singles() -> None:
    assert parse_shards("0-3,7,10-11") == [0, 1, 2, 3, 7, 10, 11]
    assert parse_shards("5") == [5]
    assert parse_shards("2-2, 1") == [1, 2]


@pytest.mark.parametrize("spec", ["", "a", "3-1", "-1", "1-b"])
def test_parse_shards_rejects_nonsense(spec: str) -> None:
    with pytest.raises(ValueError, match="shard spec"):
        parse_shards(spec)


def test_a_selection_past_the_last_shard_is_refused_naming_it() -> None:
    assert parse_shards("0-3", count=4) == [0, 1, 2, 3]
    with pytest.raises(ShardError, match=r"shard 4 is past the input's last shard, 3"):
        parse_shards("0-4", count=4)
    with pytest.raises(ShardError, match="no rows"):
        parse_shards("0", count=0)


def test_a_huge_selection_is_refused_before_it_is_expanded() -> None:
    # A set of 10**12 shard numbers would exhaust memory long before the check.
    with pytest.raises(ShardError, match="999999999999"):
        parse_shards("0-999999999999", count=100)


def test_a_shard_list_round_trips_through_its_spec() -> None:
    shards = [0, 1, 2, 3, 7, 10, 11, 20]
    assert shard_spec(shards) == "0-3,7,10-11,20"
    assert parse_shards(shard_spec(shards)) == shards


def test_sample_key_is_img2dataset_nine_digits() -> None:
    assert sample_key(12, 7) == "000120007"


def test_atomic_path_leaves_nothing_on_failure(tmp_path: Path) -> None:
    final = tmp_path / "out.bin"
    with pytest.raises(RuntimeError), atomic_path(final) as tmp:
        tmp.write_text("half")
        raise RuntimeError("killed")
    assert list(tmp_path.iterdir()) == []


def test_done_marker_requires_matching_hash(tmp_path: Path) -> None:
    assert not is_done(tmp_path, 3, "abc")
    write_stats(tmp_path, 3, "abc", {"count": 1})
    assert is_done(tmp_path, 3, "abc")
    assert not is_done(tmp_path, 3, "other")


def test_a_stop_removes_the_temporary_file_of_a_write_in_progress(tmp_path: Path) -> None:
    final = tmp_path / "out.bin"
    with atomic_path(final) as tmp:
        tmp.write_text("half")
        assert tmp.exists()
        remove_unfinished()  # what a stop on SIGTERM does while this write is in flight
        assert not tmp.exists()
        tmp.write_text("whole")  # a write that goes on publishes as usual
    assert final.read_text() == "whole"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_published_files_get_the_mode_the_umask_gives(
    tmp_path: Path, umask: int, mode: int
) -> None:
    """As any tool's output: a training job running as another user reads what umask 022 allows."""
    script = (
        "import os, sys\n"
        f"os.umask({umask})\n"
        "from pathlib import Path\n"
        "from negdata.shards import atomic_path, write_json_atomic\n"
        "out = Path(sys.argv[1])\n"
        "write_json_atomic(out / 'a.json', {})\n"
        "with atomic_path(out / 'b.bin') as tmp:\n"
        "    tmp.write_bytes(b'x')\n"
    )
    subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=True)
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()} == {
        "a.json": mode,
        "b.bin": mode,
    }
