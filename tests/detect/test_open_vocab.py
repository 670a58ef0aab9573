"""Open-vocabulary sources (YOLOE, YOLO-World) prompted with a vocabulary's names, offline.

The real weights (yoloe-11l-seg.pt with mobileclip_blt.ts, yolov8x-worldv2.pt with OpenAI's
ViT-B-32.pt) are not available here. These tests run the real code on random-weight stand-ins:
the detectors are built from Ultralytics' model yamls, and the text encoders are open_clip text
towers with random weights (seeded), saved in the two formats the real encoders come in. They
prove the plumbing (embeddings, cache, classes, evidence), not what the models find.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import warnings
from pathlib import Path

import open_clip
import pytest
import torch
from open_clip.model import CLIP, CLIPTextCfg, CLIPVisionCfg
from open_clip.transformer import TextTransformer

from negdata.config import Config, ConfigError, DetectConfig, OpenVocabSource, load_config
from negdata.detect.base import ImageItem, combine
from negdata.detect.detectors import build_detectors
from negdata.detect.open_vocab import OpenVocabDetector, evidence_labels, prompt
from negdata.detect.text_embeddings import class_embeddings
from negdata.detect.vocab import COCO80, vocabulary
from negdata.records import Evidence, read_parquet
from negdata.sample import package_file
from tests.detect.conftest import IngestTwoPhotos


class _UnitText(torch.nn.Module):
    def __init__(self, tower: TextTransformer) -> None:
        super().__init__()
        self.tower = tower

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        features = self.tower(tokens)
        return features / features.norm(dim=-1, keepdim=True)


def random_mobileclip_stand_in(path: Path, width: int = 512) -> Path:
    """A random-weight stand-in for Ultralytics' mobileclip_blt.ts: a small open_clip text tower
    (seed 0), traced to TorchScript, that maps CLIP tokens to unit ``width``-dim embeddings."""
    torch.manual_seed(0)
    tower = TextTransformer(width=64, heads=1, layers=1, output_dim=width).eval()
    _trace(tower, path)
    return path


def _trace(tower: TextTransformer, path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracing's own notes on the attention mask
        torch.jit.trace(_UnitText(tower), open_clip.tokenize(["a cat", "a dog"])).save(str(path))


def random_openai_clip_stand_in(path: Path) -> Path:
    """A random-weight stand-in for OpenAI's ViT-B-32.pt: a small CLIP (seed 0) saved as an
    OpenAI-format state dict, which open_clip reads as it reads the real one."""
    torch.manual_seed(0)
    clip = CLIP(
        embed_dim=512,
        vision_cfg=CLIPVisionCfg(layers=1, width=64, head_width=64, patch_size=32, image_size=64),
        text_cfg=CLIPTextCfg(layers=1, width=64, heads=1),
        quick_gelu=True,
    )
    torch.save(clip.state_dict(), path)
    return path


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("NEGDATA_CACHE", str(cache))
    return cache


def _source(weights: str, encoder: Path, **extra: object) -> OpenVocabSource:
    return OpenVocabSource.model_validate(
        {"kind": "open_vocab", "weights": weights, "text_encoder": str(encoder), **extra}
    )


LVIS_RUN = """
import json, sys
from pathlib import Path
from negdata.config import DetectConfig
from negdata.detect.detectors import build_detectors
from negdata.detect.stage import run_detect

detect = DetectConfig.model_validate_json(sys.argv[1])
stats = run_detect(detect, Path(sys.argv[2]), 0, "h")
model = build_detectors(detect)[0]._model
print(json.dumps({
    "stats": stats,
    "names": list(model.names.values()),
    "prompts": list(model.model.pe.shape),
    "text_model": "ultralytics.nn.text_model" in sys.modules,
}))
"""


def test_random_yoloe_prompted_with_lvis_writes_evidence_for_all_1203_labels(
    tmp_path: Path, own_cache: Path, ingest_two_photos: IngestTwoPhotos
) -> None:
    """In a python of its own: a YOLOE head for 1,203 classes and their prompts' embeddings
    take half a GB that pytest would otherwise keep."""
    encoder = random_mobileclip_stand_in(tmp_path / "mobileclip_blt.ts")
    cfg = ingest_two_photos(
        {
            "vocabulary": "lvis",
            "sources": [
                {
                    "kind": "open_vocab",
                    "weights": "yoloe-11s-seg.yaml",  # random weights
                    "text_encoder": str(encoder),
                    "imgsz": 320,
                }
            ],
        }
    )

    done = subprocess.run(
        [sys.executable, "-c", LVIS_RUN, cfg.detect.model_dump_json(), str(cfg.run.output_dir)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.splitlines()[-1])
    stats = found["stats"]
    assert stats["count"] == 2 and stats["sources"] == ["open_vocab:yoloe-11s-seg.yaml"]
    lvis = set(vocabulary("lvis"))
    assert len(lvis) == 1203
    for evidence in read_parquet(cfg.run.output_dir / "evidence/00000.parquet", Evidence):
        assert set(evidence.score_map()) == lvis
    assert found["names"] == list(vocabulary("lvis"))
    assert found["prompts"] == [1, 1203, 512]  # the prompts' embeddings, through YOLOE's head
    # Ultralytics' text-model module (which downloads CLIP / MobileCLIP) was never imported.
    assert not found["text_model"]
    assert len(list((own_cache / "text-embeddings").glob("*.pt"))) == 1


def test_a_second_build_takes_the_embeddings_from_the_cache_without_the_encoder(
    tmp_path: Path, own_cache: Path
) -> None:
    encoder = random_mobileclip_stand_in(tmp_path / "mobileclip_blt.ts")
    source = _source("yoloe-11s-seg.yaml", encoder, imgsz=64)
    prompts = [prompt(name) for name in vocabulary("lvis")]
    first = OpenVocabDetector(source, "lvis", 0)
    computed = class_embeddings(encoder, prompts, "k", "cpu")

    encoder.unlink()  # a second build that opened the encoder would fail now
    second = OpenVocabDetector(source, "lvis", 0)

    assert second.labels == first.labels == set(vocabulary("lvis"))
    assert torch.equal(class_embeddings(encoder, prompts, "k", "cpu"), computed)
    assert computed.shape == (1203, 512)
    assert torch.allclose(computed.norm(dim=-1), torch.ones(1203))
    # Other class names were never embedded: without the encoder they cannot be.
    not_cached = r"^detect\.sources\[0\]\.text_encoder: .*not cached"
    with pytest.raises(FileNotFoundError, match=not_cached):
        OpenVocabDetector(_source("yoloe-11s-seg.yaml", encoder, classes="coco"), "lvis", 0)


def test_embeddings_are_keyed_by_the_encoder_file(tmp_path: Path) -> None:
    """Another encoder at the same path (new sha256) gets its own embeddings, not the cached."""
    encoder = random_mobileclip_stand_in(tmp_path / "enc.ts")
    before = class_embeddings(encoder, ["cat", "dog"], "k", "cpu")
    torch.manual_seed(1)
    _trace(TextTransformer(width=64, heads=1, layers=1, output_dim=512).eval(), encoder)

    after = class_embeddings(encoder, ["cat", "dog"], "k", "cpu")

    assert after.shape == before.shape and not torch.allclose(after, before)


def test_random_yolo_world_with_an_openai_clip_checkpoint_covers_the_run_vocabulary(
    tmp_path: Path,
) -> None:
    encoder = random_openai_clip_stand_in(tmp_path / "ViT-B-32.pt")
    cfg = DetectConfig.model_validate(
        {
            "sources": [
                {
                    "kind": "open_vocab",
                    "weights": "yolov8s-worldv2.yaml",  # random weights
                    "text_encoder": str(encoder),
                    "imgsz": 320,
                }
            ]
        }
    )
    bus = package_file("ultralytics", "assets/bus.jpg")
    from PIL import Image

    item = ImageItem("k", bus.as_uri(), "a bus", Image.open(bus).convert("RGB"))

    detectors = build_detectors(cfg)
    evidence = combine("k", [d.name for d in detectors], [d.detect([item])[0] for d in detectors])

    assert detectors[0].name == "open_vocab:yolov8s-worldv2.yaml"
    assert set(evidence.score_map()) == set(COCO80)
    world = detectors[0]._model.model  # type: ignore[attr-defined]
    embeddings = class_embeddings(encoder, list(COCO80), "k", "cpu")
    assert torch.equal(world.txt_feats[0], embeddings)  # the prompts' embeddings drive the head


def test_missing_weights_name_their_config_key(tmp_path: Path) -> None:
    encoder = random_mobileclip_stand_in(tmp_path / "enc.ts")
    source = _source(str(tmp_path / "yoloe-11l-seg.pt"), encoder)

    with pytest.raises(FileNotFoundError) as raised:
        OpenVocabDetector(source, "lvis", 1)

    message = str(raised.value)
    assert message.startswith("detect.sources[1].weights: weights file not found")
    assert "\n" not in message


def test_a_missing_text_encoder_names_its_config_key(tmp_path: Path) -> None:
    source = _source("yoloe-11s-seg.yaml", tmp_path / "mobileclip_blt.ts")

    with pytest.raises(FileNotFoundError) as raised:
        OpenVocabDetector(source, "lvis", 1)

    message = str(raised.value)
    assert message.startswith("detect.sources[1].text_encoder: text encoder not found")
    assert "nothing is downloaded" in message and "\n" not in message


def test_an_encoder_of_the_wrong_width_names_the_text_encoder_key(tmp_path: Path) -> None:
    encoder = random_mobileclip_stand_in(tmp_path / "wide.ts", width=768)

    with pytest.raises(ValueError, match=r"^detect\.sources\[0\]\.text_encoder: gives 768-dim"):
        OpenVocabDetector(_source("yoloe-11s-seg.yaml", encoder, imgsz=64), "coco", 0)


def test_an_unreadable_text_encoder_is_one_clear_line(tmp_path: Path) -> None:
    encoder = tmp_path / "mobileclip_blt.ts"
    encoder.write_bytes(b"not a torchscript archive")

    with pytest.raises(ValueError) as raised:
        OpenVocabDetector(_source("yoloe-11s-seg.yaml", encoder), "coco", 0)

    message = str(raised.value)
    assert message.startswith("detect.sources[0].text_encoder: cannot load a text encoder")
    assert "\n" not in message


def test_closed_set_weights_are_refused_as_an_open_vocabulary_source(tmp_path: Path) -> None:
    encoder = random_mobileclip_stand_in(tmp_path / "enc.ts")

    with pytest.raises(ValueError, match=r"^detect\.sources\[0\]\.weights: .*not an open-vocab"):
        OpenVocabDetector(_source("yolo11n.yaml", encoder), "coco", 0)


@pytest.mark.parametrize(
    ("classes", "run_vocabulary"), [("chexpert", "coco"), ("vocabulary", "chexpert")]
)
def test_radiology_findings_are_refused_as_prompts(
    tmp_path: Path, classes: str, run_vocabulary: str
) -> None:
    encoder = random_mobileclip_stand_in(tmp_path / "enc.ts")
    source = _source("yoloe-11s-seg.yaml", encoder, classes=classes)

    with pytest.raises(ValueError) as raised:
        OpenVocabDetector(source, run_vocabulary, 2)  # type: ignore[arg-type]

    message = str(raised.value)
    assert message.startswith("detect.sources[2].classes: ") and "radiology" in message
    assert "\n" not in message


def test_config_errors_in_an_open_vocab_source_name_the_key(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(
        "input: {path: in.tsv}\n"
        "detect:\n"
        "  sources:\n"
        "    - {kind: open_vocab, weights: w.pt, text_encoder: t.ts, classes: wordnet}\n"
    )

    with pytest.raises(ConfigError, match=r"detect\.sources\.0\.classes: "):
        load_config(path)


def test_the_provenance_of_an_open_vocab_source_names_its_text_encoder(tmp_path: Path) -> None:
    from negdata.publish.provenance import detector_sources

    encoder = random_mobileclip_stand_in(tmp_path / "mobileclip_blt.ts")
    weights = tmp_path / "yoloe-11l-seg.pt"
    weights.write_bytes(b"weights")
    cfg = Config.model_validate(
        {
            "input": {"path": "in.tsv"},
            "detect": {"sources": [_source(str(weights), encoder).model_dump()]},
        }
    )

    (source,) = detector_sources(cfg)

    assert (source.kind, source.file) == ("open_vocab", "yoloe-11l-seg.pt")
    assert source.sha256 == hashlib.sha256(b"weights").hexdigest()
    expected = hashlib.sha256(encoder.read_bytes()).hexdigest()
    assert source.settings["text_encoder_sha256"] == expected
    assert source.settings["classes"] == "vocabulary"


def test_another_vocabularys_classes_are_scored_under_the_run_vocabularys_labels() -> None:
    """Prompted with LVIS in a COCO run, LVIS's person is COCO's person (one label, so a COCO
    detector's person blocks "no man"); what COCO lacks keeps LVIS's name."""
    lvis = vocabulary("lvis")
    labels = dict(zip(lvis, evidence_labels(lvis, "lvis", "coco"), strict=True))

    assert labels["person/baby/child/boy/girl/man/woman/human"] == "person"
    assert labels["sofa/couch/lounge"] == "couch"
    assert labels["puppy"] == "dog" and labels["dog"] == "dog"
    assert labels["laptop computer/notebook computer"] == "laptop"
    assert labels["jacket"] == "jacket" and labels["sausage"] == "sausage"
    assert set(COCO80) - set(labels.values()) == {"hot dog"}
    assert evidence_labels(lvis, "lvis", "lvis") == list(lvis)


def test_an_unreadable_cache_entry_is_computed_again(tmp_path: Path, own_cache: Path) -> None:
    encoder = random_mobileclip_stand_in(tmp_path / "enc.ts")
    computed = class_embeddings(encoder, ["cat", "dog"], "k", "cpu")
    (entry,) = (own_cache / "text-embeddings").glob("*.pt")
    entry.write_bytes(b"truncated")

    again = class_embeddings(encoder, ["cat", "dog"], "k", "cpu")

    assert torch.equal(again, computed)
    assert torch.equal(torch.load(entry, weights_only=True)["embeddings"], computed)
