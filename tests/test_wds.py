"""negdata writes WebDataset tars without webdataset: the bytes must be what webdataset writes."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import webdataset as wds

from negdata.wds import read_tar, tar_writer, write_tar


def _samples() -> list[dict[str, object]]:
    return [
        {
            "__key__": f"00003{i:04d}",
            "txt": f"a café with no chairs {i}",
            "jpg": bytes(range(i, i + 200)),
            "json": {"key": f"00003{i:04d}", "caption": "ünïcode", "width": None, "s": [0.5]},
        }
        for i in range(12)
    ]


def test_tars_are_byte_for_byte_what_webdataset_writes(tmp_path: Path) -> None:
    expected = io.BytesIO()
    writer = wds.TarWriter(expected, mtime=0)
    for sample in _samples():
        writer.write(sample)
    writer.close()

    assert write_tar(tmp_path / "00003.tar", _samples()) == 12

    assert (tmp_path / "00003.tar").read_bytes() == expected.getvalue()
    back = list(read_tar(tmp_path / "00003.tar"))
    assert [s["__key__"] for s in back] == [s["__key__"] for s in _samples()]
    assert (
        back[3]["json"]["caption"] == "ünïcode"
        and back[3]["txt"] == "a café with no chairs 3".encode()
    )


def test_a_key_with_a_dot_or_an_unknown_member_type_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="must not contain"):
        write_tar(tmp_path / "a.tar", [{"__key__": "a.b", "txt": "x"}])
    with pytest.raises(TypeError, match=r"no encoding for \.npy"):
        write_tar(tmp_path / "b.tar", [{"__key__": "k", "npy": object()}])
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing half-written stays


def test_a_streamed_tar_appears_whole_or_not_at_all(tmp_path: Path) -> None:
    """``tar_writer`` appends a sample at a time; the tar is there only once the block ends, and
    an error part-way leaves the one written before untouched."""
    path = tmp_path / "00003.tar"
    write_tar(path, _samples()[:2])
    before = path.read_bytes()
    with pytest.raises(RuntimeError), tar_writer(path) as write:
        for sample in _samples():
            write(sample)
            assert path.read_bytes() == before
        raise RuntimeError("the process dies here")
    assert path.read_bytes() == before
    with tar_writer(path) as write:
        for sample in _samples():
            write(sample)
    assert [s["__key__"] for s in read_tar(path)] == [s["__key__"] for s in _samples()]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["00003.tar"]
