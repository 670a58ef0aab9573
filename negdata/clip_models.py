"""open_clip models as negdata loads them: by name or model config JSON, with a local checkpoint
or random weights, never downloaded. Used by ``negdata eval-clip`` and the detect stage's image
encoder."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Clip:
    """An open_clip model ready to encode: its eval transform and tokenizer, where it runs, and
    where its weights came from (None: random initialisation)."""

    name: str
    model: Any
    preprocess: Callable[[Any], Any]
    tokenizer: Callable[[list[str]], Any]
    device: str
    weights: str | None


def load_clip(
    name: str, pretrained: str | None, device: str = "cpu", image_size: int | None = None
) -> Clip:
    """``name``: an open_clip model name, or the path of a model config JSON (registered under
    its file name). ``pretrained``: a local checkpoint file (open_clip's, or the trainer's);
    None initialises randomly. Nothing is downloaded."""
    import open_clip

    if name.endswith(".json"):
        open_clip.add_model_config(Path(name))
        name = Path(name).stem
    if pretrained is not None and not Path(pretrained).is_file():
        raise ValueError(
            f"--pretrained {pretrained}: no such checkpoint file (only local files are read; "
            "a hub tag would need a download)"
        )
    model, _, preprocess = open_clip.create_model_and_transforms(
        name, pretrained=pretrained, device=device, force_image_size=image_size
    )
    model.eval()
    return Clip(name, model, preprocess, open_clip.get_tokenizer(name), device, pretrained)
