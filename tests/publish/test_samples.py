"""NegCap samples: one per image with all its captions, typed for Hugging Face datasets."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import datasets
from PIL import Image

from negdata.publish.layout import card_path, negcap_card, negcap_tar, sizes_path
from negdata.publish.samples import image_sample
from negdata.records import PublishedCaption
from negdata.wds import caption_for_epoch, write_tar


def _caption(image: str, i: int, generator: str = "llm") -> PublishedCaption:
    return PublishedCaption(
        key=f"{image}{i}",
        image_key=image,
        caption=f"a photo {image}, but there is no dog {i}.",
        negated="dog",
        negated_label="dog",
        style="affirmation_first",
        generator="template" if generator == "template" else "llm",
        original_caption=f"a photo {image}",
        affirmed=[],
        prompt=None if generator == "template" else "compose@1#abc",
        model=None if generator == "template" else "m",
        config_hash="h",
        split="train",
        jpg_sha256="cd" * 32,
    )


def _jpeg(shade: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (shade, shade, shade)).save(buffer, format="JPEG")
    return buffer.getvalue()


def _samples(seed: int = 0) -> list[dict[str, object]]:
    captions = {
        "000000000": [_caption("000000000", i, "template") for i in range(3)],
        "000000001": [_caption("000000001", i) for i in range(2)],
    }
    images = {"000000000": _jpeg(10), "000000001": _jpeg(200)}
    return [image_sample(k, captions[k], images[k], "ab" * 32, seed) for k in sorted(images)]


def test_one_sample_per_image_holds_every_caption_and_trains_on_one() -> None:
    samples = _samples()
    assert [s["__key__"] for s in samples] == ["000000000", "000000001"]
    first = samples[0]["json"]
    assert isinstance(first, dict)
    assert [c["key"] for c in first["captions"]] == ["0000000000", "0000000001", "0000000002"]
    assert samples[0]["txt"] == first["caption"] in [c["text"] for c in first["captions"]]
    assert first["captions"][0]["prompt"] == "" and first["captions"][0]["model"] == ""
    assert _samples() == samples  # a rerun chooses the same caption
    chosen = {seed: [s["txt"] for s in _samples(seed)] for seed in range(8)}
    assert len({tuple(t) for t in chosen.values()}) > 1  # the seed drives the choice


def test_caption_for_epoch_goes_through_every_caption_and_starts_at_the_txt() -> None:
    for seed in (0, 7):
        for sample in _samples(seed):
            record = sample["json"]
            assert isinstance(record, dict)
            n = len(record["captions"])
            assert caption_for_epoch(record, 0, seed) == sample["txt"]
            drawn = [caption_for_epoch(record, epoch, seed) for epoch in range(n)]
            assert sorted(drawn) == sorted(c["text"] for c in record["captions"])
            assert caption_for_epoch(record, n + 1, seed) == drawn[1]


def test_datasets_types_a_shard_whose_first_sample_is_a_template_caption(tmp_path: Path) -> None:
    """No null and no empty list in the JSON: a template caption (no prompt, no model) and
    nothing affirmed, in the only sample `datasets` infers the schema from, still type it."""
    write_tar(tmp_path / "00000.tar", _samples())
    loaded = _load(tmp_path, "webdataset", data_files=str(tmp_path / "00000.tar"))["train"]
    assert loaded.num_rows == 2
    assert loaded[1]["json"]["captions"][0]["prompt"] == "compose@1#abc"
    assert loaded.features["json"]["captions"].feature["model"].dtype == "string"


def test_a_negcap_folder_loads_by_split_with_its_card(tmp_path: Path) -> None:
    """One tar beside open_clip's sizes.json: without the card, `datasets` takes the split
    for JSON (a draw, which JSON wins)."""
    out = tmp_path / "run"
    samples = _samples()
    for split, part in (("train", samples[:1]), ("test", samples[1:])):
        write_tar(negcap_tar(out, split, "00000"), part)
        sizes_path(out, split).write_text(json.dumps({"00000.tar": 1}))
    card_path(out).write_text(negcap_card(["train", "test"]))
    loaded = _load(tmp_path, str(out / "negcap"))
    assert {name: d["__key__"] for name, d in loaded.items()} == {
        "train": ["000000000"],
        "test": ["000000001"],
    }


def _load(tmp_path: Path, *args: Any, **kwargs: Any) -> Any:
    """``datasets.load_dataset`` with its cache in the test's folder."""
    return datasets.load_dataset(*args, cache_dir=str(tmp_path / "hf"), **kwargs)
