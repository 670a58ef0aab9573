from pathlib import Path

import pytest

from negdata.shards import atomic_path, is_done, parse_shards, sample_key, write_stats


def test_parse_shards_ranges_and_singles() -> None:
    assert parse_shards("0-3,7,10-11") == [0, 1, 2, 3, 7, 10, 11]
    assert parse_shards("5") == [5]
    assert parse_shards("2-2, 1") == [1, 2]


@pytest.mark.parametrize("spec", ["", "a", "3-1", "-1", "1-b"])
def test_parse_shards_rejects_nonsense(spec: str) -> None:
    with pytest.raises(ValueError, match="shard spec"):
        parse_shards(spec)


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
