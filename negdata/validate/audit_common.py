"""What the caption audit (``validate.audit``) and the question audit (``validate.audit_mcq``)
share: the config their gates run under, and how a figure prints."""

from __future__ import annotations

from negdata.config import Config
from negdata.detect.vocab import VocabularyName


def audit_config(vocabulary: VocabularyName, readers_agree: bool = False) -> Config:
    """A config whose evidence is a label oracle over ``vocabulary``."""
    return Config.model_validate(
        {
            "input": {"path": "unused.tsv"},
            "detect": {
                "vocabulary": vocabulary,
                "sources": [{"kind": "labels", "path": "unused.json"}],
            },
            "compose": {"readers_agree": readers_agree},
        }
    )


def figure(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"
