"""Input sources: every format CC12M users start from, and hostile rows kept in place."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from negdata.config import InputConfig
from negdata.ingest.sources import SourceRow, read_rows, shard_count, shard_rows


def _input(path: Path | str, **fields: Any) -> InputConfig:
    return InputConfig.model_validate({"path": str(path), **fields})


def _pairs(rows: list[SourceRow]) -> list[tuple[str, str, str | None]]:
    return [(r.url, r.caption, r.error) for r in rows]


def _rejects(rows: list[SourceRow]) -> list[tuple[str | None, str]]:
    return [(r.error, r.detail) for r in rows]


def _tsv(tmp_path: Path, content: bytes, **fields: Any) -> list[SourceRow]:
    path = tmp_path / "in.tsv"
    path.write_bytes(content)
    return read_rows(_input(path, **fields))


def test_tsv_without_header(tmp_path: Path) -> None:
    rows = _tsv(tmp_path, b"http://a/1.jpg\ta cat\nhttp://a/2.jpg\ta dog\n")
    assert _pairs(rows) == [("http://a/1.jpg", "a cat", None), ("http://a/2.jpg", "a dog", None)]


def test_tsv_with_header_and_custom_columns(tmp_path: Path) -> None:
    content = b"id\ttext\tlink\n7\ta cat\thttp://a/1.jpg\n"
    rows = _tsv(tmp_path, content, has_header=True, url_column="link", caption_column="text")
    assert _pairs(rows) == [("http://a/1.jpg", "a cat", None)]


def test_tsv_crlf_line_endings(tmp_path: Path) -> None:
    rows = _tsv(tmp_path, b"http://a/1.jpg\ta cat\r\nhttp://a/2.jpg\ta dog\r\n")
    assert _pairs(rows) == [("http://a/1.jpg", "a cat", None), ("http://a/2.jpg", "a dog", None)]


def test_tsv_missing_field_and_blank_line_are_bad_rows_in_place(tmp_path: Path) -> None:
    rows = _tsv(tmp_path, b"http://a/1.jpg\ta cat\nhttp://a/2.jpg\n\nhttp://a/3.jpg\tan owl\n")
    assert _pairs(rows) == [
        ("http://a/1.jpg", "a cat", None),
        ("http://a/2.jpg", "", "bad_row"),
        ("", "", "bad_row"),
        ("http://a/3.jpg", "an owl", None),
    ]
    assert [r.detail for r in rows[1:3]] == ["1 tab-separated field, expected 2", "blank line"]


def test_tsv_extra_fields_are_a_bad_row_not_a_cut_caption(tmp_path: Path) -> None:
    rows = _tsv(tmp_path, b"http://a/1.jpg\ta cat\tsitting on a mat\nhttp://a/2.jpg\ta dog\n")
    assert _pairs(rows) == [
        ("http://a/1.jpg", "a cat", "bad_row"),
        ("http://a/2.jpg", "a dog", None),
    ]
    assert rows[0].detail == "3 tab-separated fields, expected 2"


def test_every_line_is_a_row_and_keys_stay_line_aligned(tmp_path: Path) -> None:
    lines = [
        "" if i % 7 == 3 else " \t " if i == 11 else f"http://a/{i}.jpg\tcaption {i}"
        for i in range(50)
    ]
    path = tmp_path / "in.tsv"
    path.write_text("\n".join(lines) + "\n")
    cfg = _input(path, samples_per_shard=8)
    rows = [row for shard in range(shard_count(cfg)) for row in shard_rows(cfg, shard)]
    assert len(rows) == 50 and shard_count(cfg) == 7
    for i, row in enumerate(rows):
        if i % 7 == 3 or i == 11:
            assert (row.url, row.error, row.detail) == ("", "bad_row", "blank line")
        else:
            assert (row.url, row.caption, row.error) == (f"http://a/{i}.jpg", f"caption {i}", None)


def test_tsv_with_header_counts_fields_against_the_header(tmp_path: Path) -> None:
    content = b"url\tcaption\twidth\nhttp://a/1.jpg\ta cat\t640\nhttp://a/2.jpg\ta dog\n\n"
    rows = _tsv(tmp_path, content, has_header=True)
    assert _pairs(rows) == [
        ("http://a/1.jpg", "a cat", None),
        ("http://a/2.jpg", "a dog", "bad_row"),
        ("", "", "bad_row"),
    ]
    assert _rejects(rows)[1:] == [
        ("bad_row", "2 tab-separated fields, expected 3"),
        ("bad_row", "blank line"),
    ]


def test_tsv_invalid_utf8_spoils_only_its_line(tmp_path: Path) -> None:
    rows = _tsv(
        tmp_path, b"http://a/1.jpg\ta cat\nhttp://a/2.jpg\ta \xff\xfe dog\nhttp://a/3.jpg\tan owl\n"
    )
    assert _pairs(rows) == [
        ("http://a/1.jpg", "a cat", None),
        ("http://a/2.jpg", "a \ufffd\ufffd dog", "invalid_utf8"),
        ("http://a/3.jpg", "an owl", None),
    ]


def test_caption_length_limit(tmp_path: Path) -> None:
    long = "a" * 100_000
    content = f"http://a/1.jpg\t{long}\nhttp://a/2.jpg\ta dog\n".encode()
    assert [r.error for r in _tsv(tmp_path, content)] == ["caption_too_long", None]
    accepted = _tsv(tmp_path, content, max_caption_chars=200_000)
    assert accepted[0].caption == long and accepted[0].error is None


def test_empty_caption_stays_a_row(tmp_path: Path) -> None:
    rows = _tsv(tmp_path, b"http://a/1.jpg\t\n")
    assert _pairs(rows) == [("http://a/1.jpg", "", None)]


def test_duplicate_urls_marked_within_a_shard_only(tmp_path: Path) -> None:
    urls = ["http://a/1.jpg", "http://a/2.jpg", "http://a/1.jpg", "http://a/2.jpg"]
    path = tmp_path / "in.tsv"
    path.write_text("".join(f"{u}\tcaption {i}\n" for i, u in enumerate(urls)))
    cfg = _input(path, samples_per_shard=3)
    assert _pairs(shard_rows(cfg, 0)) == [
        ("http://a/1.jpg", "caption 0", None),
        ("http://a/2.jpg", "caption 1", None),
        ("http://a/1.jpg", "caption 2", "duplicate_url"),
    ]
    assert _pairs(shard_rows(cfg, 1)) == [("http://a/2.jpg", "caption 3", None)]


def test_data_and_file_urls_pass_through(tmp_path: Path) -> None:
    rows = _tsv(tmp_path, b"data:image/png;base64,AAAA\ta pixel\nfile:///etc/passwd\tsecrets\n")
    assert _pairs(rows) == [
        ("data:image/png;base64,AAAA", "a pixel", None),
        ("file:///etc/passwd", "secrets", None),
    ]


def test_parquet_and_csv_with_custom_columns(tmp_path: Path) -> None:
    parquet = tmp_path / "in.parquet"
    pq.write_table(pa.table({"img": ["http://a/1.jpg", None], "alt": ["a cat", "a dog"]}), parquet)
    csv = tmp_path / "in.csv"
    csv.write_bytes(b'alt,img\r\n"a dog, running",http://a/2.jpg\r\nonly one field\r\n')
    columns = {"url_column": "img", "caption_column": "alt"}
    assert _pairs(read_rows(_input(parquet, format="parquet", **columns))) == [
        ("http://a/1.jpg", "a cat", None),
        ("", "a dog", None),
    ]
    rows = read_rows(_input(csv, format="csv", **columns))
    assert _pairs(rows) == [
        ("http://a/2.jpg", "a dog, running", None),
        ("", "only one field", "bad_row"),
    ]
    assert rows[1].detail == "1 comma-separated field, expected 2"


def test_csv_blank_lines_and_extra_fields_are_bad_rows_in_place(tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    path.write_text(
        "url,caption\n"
        "http://a/1.jpg,a cat\n"
        "\n"
        "http://a/2.jpg,a dog,sitting\n"
        '"http://a/3.jpg","an owl,\non a branch"\n'
        "http://a/4.jpg,a fox\n"
    )
    rows = read_rows(_input(path, format="csv"))
    assert _pairs(rows) == [
        ("http://a/1.jpg", "a cat", None),
        ("", "", "bad_row"),
        ("http://a/2.jpg", "a dog", "bad_row"),
        ("http://a/3.jpg", "an owl,\non a branch", None),  # one record over two lines
        ("http://a/4.jpg", "a fox", None),
    ]
    assert _rejects(rows)[1:3] == [
        ("bad_row", "blank line"),
        ("bad_row", "3 comma-separated fields, expected 2"),
    ]


def test_credentials_are_cut_from_the_url_and_the_row_is_refused(tmp_path: Path) -> None:
    content = (
        b"https://user:hunter2@a.example/1.jpg?size=2\ta cat\n"
        b"http://token@a.example:8080/2.jpg#x\ta dog\n"
        b"https://user:hunter2@a.example/3.jpg\tan owl\textra\n"
        b"http://a.example/4.jpg?mail=me@a.example\ta fox\n"
    )
    rows = _tsv(tmp_path, content)
    assert [(r.url, r.error) for r in rows] == [
        ("https://a.example/1.jpg?size=2", "credentials_in_url"),
        ("http://a.example:8080/2.jpg#x", "credentials_in_url"),
        ("https://a.example/3.jpg", "bad_row"),  # rejected anyway, and still cut
        ("http://a.example/4.jpg?mail=me@a.example", None),  # an @ outside the authority
    ]
    assert all("hunter2" not in repr(r) and "token" not in repr(r) for r in rows)


def test_malformed_urls_stay_rows(tmp_path: Path) -> None:
    rows = _tsv(tmp_path, b"http://[::1/1.jpg\ta cat\nfile://[x/2.jpg\ta dog\n", files_root=".")
    assert _pairs(rows) == [
        ("http://[::1/1.jpg", "a cat", None),  # the fetcher refuses it as unsupported_url
        ("file://[x/2.jpg", "a dog", "unsupported_url"),
    ]


def test_shard_assignment_is_deterministic(tmp_path: Path) -> None:
    content = "".join(f"http://a/{i}.jpg\tcaption {i}\n" for i in range(7))
    path, copy = tmp_path / "in.tsv", tmp_path / "copy.tsv"  # a copy: a fresh read, not the cache
    path.write_text(content)
    copy.write_text(content)
    cfg = _input(path, samples_per_shard=3)
    first = [shard_rows(cfg, shard) for shard in range(shard_count(cfg))]
    again = [shard_rows(_input(copy, samples_per_shard=3), shard) for shard in range(3)]
    assert first == again and [len(rows) for rows in first] == [3, 3, 1]
    for i, row in enumerate(read_rows(cfg)):
        assert first[i // 3][i % 3] == row and row.caption == f"caption {i}"


def test_files_folder_with_sidecar_captions(tmp_path: Path) -> None:
    root = tmp_path / "photos"
    (root / "b" / "c").mkdir(parents=True)
    (root / "b" / "c" / "3.PNG").write_bytes(b"png")
    (root / "b" / "2.jpg").write_bytes(b"jpg")
    (root / "b" / "2.txt").write_text("a dog\n")
    (root / "1.webp").write_bytes(b"webp")
    (root / "1.txt").write_text("a cat")
    (root / "notes.md").write_text("not an image")
    rows = read_rows(_input(root, format="files"))
    assert _pairs(rows) == [
        ((root / "1.webp").as_uri(), "a cat", None),
        ((root / "b" / "2.jpg").as_uri(), "a dog", None),
        ((root / "b" / "c" / "3.PNG").as_uri(), "", None),
    ]


def test_files_root_confines_local_paths(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "in.jpg").write_bytes(b"jpg")
    outside = tmp_path / "outside.jpg"
    outside.write_bytes(b"jpg")
    (root / "link.jpg").symlink_to(outside)
    lines = [
        f"{outside}\toutside",
        f"{root / 'link.jpg'}\ta symlink out",
        "sub/in.jpg\trelative",
        "../outside.jpg\tescaping",
        f"{(root / 'sub' / 'in.jpg').as_uri()}\tinside",
        "http://a/1.jpg\ton the web",
        f"file://localhost{root / 'sub' / 'in.jpg'}\tlocalhost is this machine",
        f"file://files.example{root / 'sub' / 'in.jpg'}\tanother host",
    ]
    path = tmp_path / "in.tsv"
    path.write_text("".join(f"{line}\n" for line in lines))
    rows = read_rows(_input(path, files_root=str(root)))
    assert [(r.url, r.error) for r in rows] == [
        (str(outside), "outside_root"),
        (str(root / "link.jpg"), "outside_root"),
        ("sub/in.jpg", None),  # relative to the root
        ("../outside.jpg", "outside_root"),
        ((root / "sub" / "in.jpg").as_uri(), None),
        ("http://a/1.jpg", None),
        (f"file://localhost{root / 'sub' / 'in.jpg'}", None),
        (f"file://files.example{root / 'sub' / 'in.jpg'}", "unsupported_url"),
    ]
    assert rows[1].detail == f"{root / 'link.jpg'} resolves outside {root}"
    folder = read_rows(_input(root, format="files"))
    assert [(r.url, r.error) for r in folder] == [
        ((root / "link.jpg").as_uri(), "outside_root"),
        ((root / "sub" / "in.jpg").as_uri(), None),
    ]


def _write_tar(path: Path, first: int, count: int, *, drop_image: int | None = None) -> None:
    with tarfile.open(path, "w") as tar:
        for i in range(first, first + count):
            key = f"{i:09d}"
            members = {
                "jpg": f"image {i}".encode(),
                "txt": f"caption {i}".encode(),
                "json": json.dumps({"url": f"http://a/{i}.jpg", "key": key}).encode(),
            }
            if i == drop_image:
                del members["jpg"]
            for ext, data in members.items():
                info = tarfile.TarInfo(f"{key}.{ext}")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))


@pytest.fixture
def tars(tmp_path: Path) -> Path:
    """Three img2dataset-layout tars of 3, 2 and 4 samples; sample 6 lacks its image."""
    folder = tmp_path / "wds"
    folder.mkdir()
    _write_tar(folder / "00000.tar", 0, 3)
    _write_tar(folder / "00001.tar", 3, 2)
    _write_tar(folder / "00002.tar", 5, 4, drop_image=6)
    return folder


def test_webdataset_shards_span_tars(tars: Path) -> None:
    cfg = _input(f"{tars}/{{00000..00002}}.tar", format="webdataset", samples_per_shard=4)
    assert shard_count(cfg) == 3
    first = shard_rows(cfg, 0)
    assert _pairs(first) == [(f"http://a/{i}.jpg", f"caption {i}", None) for i in range(4)]
    assert [r.data for r in first] == [f"image {i}".encode() for i in range(4)]
    assert _pairs(shard_rows(cfg, 1)) == [
        ("http://a/4.jpg", "caption 4", None),
        ("http://a/5.jpg", "caption 5", None),
        ("http://a/6.jpg", "", "bad_row"),
        ("http://a/7.jpg", "caption 7", None),
    ]
    last = shard_rows(cfg, 2)
    assert _pairs(last) == [("http://a/8.jpg", "caption 8", None)]
    assert last[0].data == b"image 8"


def test_webdataset_over_file_urls_and_without_json(tmp_path: Path, tars: Path) -> None:
    cfg = _input(f"{tars.as_uri()}/{{00000..00001}}.tar", format="webdataset", samples_per_shard=4)
    assert [r.url for r in shard_rows(cfg, 1)] == ["http://a/4.jpg"]
    bare = tmp_path / "bare.tar"
    with tarfile.open(bare, "w") as tar:
        for name, data in [("x/k.jpg", b"img"), ("x/k.txt", b" a cat ")]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    rows = shard_rows(_input(bare, format="webdataset"), 0)
    assert _pairs(rows) == [(f"{bare}#x/k", "a cat", None)] and rows[0].data == b"img"


def test_local_formats_refuse_urls() -> None:
    with pytest.raises(ValueError, match="local path"):
        _input("s3://bucket/in.tsv")
