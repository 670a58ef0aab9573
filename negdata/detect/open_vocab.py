"""An open-vocabulary detector as an evidence source: YOLOE or YOLO-World, prompted by text.

Its classes are a vocabulary's names (LVIS's 1,203, Objects365's 365, ...), set from their text
embeddings (``negdata.detect.text_embeddings``, cached per vocabulary) instead of through
Ultralytics' ``set_classes``, which would download CLIP or MobileCLIP. Each prompt is the
label's first name, as Ultralytics prompts LVIS ("trash can" for "trash can/garbage can/...").
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

import torch

from negdata.config import OpenVocabSource
from negdata.detect.base import Detection, ImageItem
from negdata.detect.lexicon import Lexicon, lexicon_for
from negdata.detect.text_embeddings import class_embeddings
from negdata.detect.vocab import VocabularyName, vocabulary
from negdata.detect.yolo import resolve_device, ultralytics_offline
from negdata.records import Box

log = logging.getLogger(__name__)

_MODEL_CONFIG_SUFFIXES = (".yaml", ".yml")


def prompt(label: str) -> str:
    """The text a label is prompted with: its first name."""
    return label.split("/", 1)[0]


def evidence_labels(
    names: Sequence[str], classes: VocabularyName, run_vocabulary: VocabularyName
) -> list[str]:
    """The label each class is scored under. Prompted with another vocabulary's names, a class
    that is one of the run vocabulary's labels by one of its names (LVIS's "sofa/couch/lounge" is
    COCO's "couch") is scored as that label, the max over such classes: otherwise a COCO
    detector's person and this one's "person/baby/..." would be two labels, and "no man" could
    pass on the second alone."""
    if classes == run_vocabulary:
        return list(names)
    lexicon = lexicon_for(run_vocabulary)
    return [_run_label(name, lexicon) or name for name in names]


def _run_label(name: str, lexicon: Lexicon) -> str | None:
    for term in name.split("/"):
        found = lexicon.name(term) if lexicon.is_term(term) else None
        if found in lexicon.vocabulary:
            return found
    return None


def _set_classes(model: Any, names: Sequence[str], embeddings: torch.Tensor, key: str) -> None:
    """Point a YOLOE or YOLO-World model at ``names``, embedded as ``embeddings`` (N x D)."""
    from ultralytics.nn.tasks import WorldModel, YOLOEModel

    net: Any = model.model
    feats = embeddings.unsqueeze(0)
    if isinstance(model.model, YOLOEModel):
        head = net.model[-1]
        if hasattr(head, "lrpc"):
            raise ValueError(
                f"{key}.weights: a prompt-free YOLOE model (-pf) takes no text prompts; use the "
                "text-prompt one (yoloe-11l-seg.pt)"
            )
        _check_width(feats, head.embed, key)
        param = next(net.parameters())
        with torch.inference_mode():
            text_pe = head.get_tpe(feats.to(param.device, param.dtype))
        net.set_classes(list(names), text_pe)
    elif isinstance(model.model, WorldModel):
        _check_width(feats, net.txt_feats.shape[-1], key)
        net.txt_feats = feats
        net.model[-1].nc = len(names)
        net.names = list(names)
    else:
        raise ValueError(
            f"{key}.weights: {type(net).__name__} is not an open-vocabulary model (YOLOE or "
            "YOLO-World); use kind: yolo for closed-set weights"
        )
    model.predictor = None  # the next predict sets up for the new classes


def _check_width(feats: torch.Tensor, width: int, key: str) -> None:
    if feats.shape[-1] != width:
        raise ValueError(
            f"{key}.text_encoder: gives {feats.shape[-1]}-dim embeddings, the model takes "
            f"{width}: use the encoder it was trained with (YOLOE-11/v8: mobileclip_blt.ts, "
            "YOLOE-26: mobileclip2_b.ts, YOLO-World: ViT-B-32.pt)"
        )


class OpenVocabDetector:
    """A YOLOE / YOLO-World model whose classes are the labels of one vocabulary."""

    def __init__(self, config: OpenVocabSource, run_vocabulary: VocabularyName, index: int) -> None:
        key = f"detect.sources[{index}]"
        weights = config.weights.expanduser()
        if weights.suffix not in _MODEL_CONFIG_SUFFIXES and not weights.is_file():
            raise FileNotFoundError(
                f"{key}.weights: weights file not found: {weights} "
                "(nothing is downloaded; point it at a local .pt file)"
            )
        classes = run_vocabulary if config.classes == "vocabulary" else config.classes
        if classes == "chexpert":
            raise ValueError(
                f"{key}.classes: an open-vocabulary detector sees objects, not radiology "
                "findings; prompt it with coco, lvis, objects365 or openimages"
            )
        started = time.monotonic()
        self.config = config
        self.device = resolve_device(config.device)
        names = vocabulary(classes)
        embeddings = class_embeddings(
            config.text_encoder, [prompt(n) for n in names], f"{key}.text_encoder", self.device
        )
        ultralytics_offline()
        from ultralytics.models import YOLO

        try:
            self._model: Any = YOLO(str(weights))
        except FileNotFoundError as exc:
            raise FileNotFoundError(
                f"{key}.weights: cannot build a model from {weights}: {exc}"
            ) from None
        _set_classes(self._model, names, embeddings, key)
        self.name = f"open_vocab:{weights.name}"
        self._label_of = evidence_labels(names, classes, run_vocabulary)
        self._labels = frozenset(self._label_of)
        log.info(
            "%s: %d %s classes on %s, loaded in %.2fs",
            self.name,
            len(names),
            classes,
            self.device,
            time.monotonic() - started,
        )

    @property
    def labels(self) -> frozenset[str]:
        return self._labels

    def detect(self, items: Sequence[ImageItem]) -> list[Detection]:
        detections: list[Detection] = []
        step = self.config.batch
        for start in range(0, len(items), step):
            results = self._model.predict(
                [item.image for item in items[start : start + step]],
                imgsz=self.config.imgsz,
                conf=self.config.conf,
                device=self.device,
                verbose=False,
            )
            detections.extend(self._detection(result) for result in results)
        return detections

    def _detection(self, result: Any) -> Detection:
        scores = dict.fromkeys(self._labels, 0.0)
        boxes: list[Box] = []
        found = result.boxes
        for (x0, y0, x1, y1), score, cls in zip(
            found.xyxy.tolist(), found.conf.tolist(), found.cls.tolist(), strict=True
        ):
            label = self._label_of[int(cls)]
            boxes.append(
                Box(label=label, score=score, x0=x0, y0=y0, x1=x1, y1=y1, source=self.name)
            )
            scores[label] = max(scores[label], float(score))
        return Detection(boxes=boxes, scores=scores)
