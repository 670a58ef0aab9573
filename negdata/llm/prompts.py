"""Prompts live in prompts/*.yaml: id, version, system text, few-shot turns, user template.

The system prompt and few-shot block come first and are identical for every image, so a
vLLM server's prefix cache serves them; only the last user turn differs per image.
"""

from __future__ import annotations

import hashlib
import zlib
from functools import cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict

from negdata.config import Config


class FewShot(BaseModel):
    user: str
    assistant: str


class Prompt(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    version: int
    system: str
    few_shot: tuple[FewShot, ...] = ()
    user: str

    @property
    def ref(self) -> str:
        """``id@version#hash``: recorded in every output so that a record names its prompt."""
        digest = hashlib.sha256(self.model_dump_json().encode()).hexdigest()[:8]
        return f"{self.id}@{self.version}#{digest}"

    def messages(self, shift: int = 0, **fields: str) -> list[dict[str, str]]:
        """System, few-shot turns (rotated left by ``shift``), then the filled user template."""
        turns = [{"role": "system", "content": self.system.strip()}]
        k = shift % len(self.few_shot) if self.few_shot else 0
        for shot in (*self.few_shot[k:], *self.few_shot[:k]):
            turns.append({"role": "user", "content": shot.user.strip()})
            turns.append({"role": "assistant", "content": shot.assistant.strip()})
        turns.append({"role": "user", "content": self.user.format(**fields).strip()})
        return turns


@cache
def load_prompt(prompts_dir: Path, prompt_id: str) -> Prompt:
    path = prompts_dir / f"{prompt_id}.yaml"
    if not path.exists():
        raise FileNotFoundError(f"prompt {prompt_id!r} not found at {path} (compose.prompts_dir)")
    prompt = Prompt.model_validate(yaml.safe_load(path.read_text()))
    if prompt.id != prompt_id:
        raise ValueError(f"{path}: id is {prompt.id!r}, expected {prompt_id!r}")
    return prompt


def few_shot_shift(cfg: Config, key: str) -> int:
    """How far an image's few-shot block is rotated: 0 unless ``compose.few_shot_order`` is
    ``rotate``, then a stable function of the image key."""
    return zlib.crc32(key.encode()) if cfg.compose.few_shot_order == "rotate" else 0
