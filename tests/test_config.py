from pathlib import Path

import pytest

from negdata.config import ConfigError, load_config


def test_sample_and_cluster_configs_load() -> None:
    sample = load_config("configs/sample.yaml")
    cluster = load_config("configs/cc12m.yaml")
    assert sample.llm.local and not cluster.llm.local
    assert sample.compose.template_fallback and not cluster.compose.template_fallback
    assert [s.kind for s in sample.detect.sources] == ["labels", "yolo"]


def test_bad_key_is_one_clear_error_naming_it(tmp_path: Path) -> None:
    text = Path("configs/sample.yaml").read_text().replace("t_absent: 0.1", "t_absent: lots")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    with pytest.raises(ConfigError, match=r"detect\.t_absent"):
        load_config(bad)


def test_unknown_key_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(Path("configs/sample.yaml").read_text() + "\nextra_section: 1\n")
    with pytest.raises(ConfigError, match="extra_section"):
        load_config(bad)


def test_missing_file_names_the_path() -> None:
    with pytest.raises(ConfigError, match=r"nope\.yaml"):
        load_config("nope.yaml")


def test_section_hash_tracks_only_named_sections() -> None:
    cfg = load_config("configs/sample.yaml")
    changed = cfg.model_copy(
        update={"compose": cfg.compose.model_copy(update={"captions_per_image": 2})}
    )
    assert cfg.section_hash("input", "detect") == changed.section_hash("input", "detect")
    assert cfg.section_hash("compose") != changed.section_hash("compose")


def test_shards_at_once_fills_the_llm_budget_unless_set() -> None:
    cfg = load_config(Path("configs/sample.yaml"))  # 4 samples per shard, 16 in flight
    cluster = load_config(Path("configs/cc12m.yaml"))  # 10,000 per shard, 256 in flight
    pinned = cfg.model_copy(update={"run": cfg.run.model_copy(update={"shards_in_flight": 3})})

    assert cfg.shards_at_once == 8  # capped
    assert cluster.shards_at_once == 2  # at least two, so shard boundaries overlap
    assert pinned.shards_at_once == 3
