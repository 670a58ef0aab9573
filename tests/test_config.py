import json
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError
from upath import UPath

from negdata.config import Config, ConfigError, RunConfig, load_config
from negdata.llm.cache import shard_folder


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


def test_output_dir_may_be_an_object_store_url_with_its_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NEGDATA_CACHE", str(tmp_path / "cache"))
    raw = yaml.safe_load(Path("configs/sample.yaml").read_text())
    local = Config.model_validate(raw)
    options = {"endpoint_url": "http://127.0.0.1:9", "key": "k", "secret": "s"}
    raw["run"] = {"output_dir": "s3://bucket/negdata/run1", "storage_options": options}
    raw["input"]["storage_options"] = {"anon": True}
    remote = Config.model_validate(raw)

    out = remote.run.output_dir
    assert (out.protocol, out.path) == ("s3", "bucket/negdata/run1")
    # other workers add and remove done markers: listings are not cached unless asked for
    assert out.storage_options == {**options, "use_listings_cache": False}
    assert str(out / "negcap" / "00000.tar") == "s3://bucket/negdata/run1/negcap/00000.tar"
    assert local.run.output_dir.protocol == "" and isinstance(local.run.output_dir, Path)
    # the response cache lives beside the shard's outputs, wherever they are
    assert shard_folder(local.run.output_dir, 3) == Path("runs/sample/llm_cache/00003")
    assert str(shard_folder(out, 3)) == "s3://bucket/negdata/run1/llm_cache/00003"
    # where the data lives is not what it is: storage options leave every stage hash alone
    assert remote.section_hash("input") == local.section_hash("input")
    assert hash(remote.input) != hash(local.input)  # sections with dicts are still hashable


def test_storage_options_reach_a_given_upath_and_stay_out_of_dumps() -> None:
    options = {"endpoint_url": "http://127.0.0.1:9", "key": "k", "secret": "hunter2"}
    run = RunConfig(output_dir=UPath("s3://bucket/run"), storage_options=options)

    assert run.output_dir.storage_options["endpoint_url"] == "http://127.0.0.1:9"
    dumped = run.model_dump(mode="json", exclude={"storage_options"})
    assert dumped["output_dir"] == "s3://bucket/run"
    assert "hunter2" not in json.dumps(dumped)
    assert RunConfig.model_validate(run.model_dump()).output_dir.storage_options["key"] == "k"


@pytest.mark.parametrize("url", ["sftp://host/run", "http://host/run", "memory://run"])
def test_output_dir_must_be_local_or_an_object_store(url: str) -> None:
    with pytest.raises(ValidationError, match="object store"):
        RunConfig(output_dir=url)


def test_file_input_without_files_root_is_an_error_naming_it(tmp_path: Path) -> None:
    raw = yaml.safe_load(Path("configs/sample.yaml").read_text())
    del raw["input"]["files_root"]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(raw))
    with pytest.raises(ConfigError, match=r"bad\.yaml: .*input\.files_root is required"):
        load_config(bad)
    raw["ingest"]["allow_file_urls"] = False  # the default: no local file is read at all
    bad.write_text(yaml.safe_dump(raw))
    assert load_config(bad).input.files_root is None


def test_a_files_folder_is_its_own_root(tmp_path: Path) -> None:
    raw = yaml.safe_load(Path("configs/sample.yaml").read_text())
    del raw["input"]["files_root"]
    raw["input"].update(path=str(tmp_path), format="files")
    assert Config.model_validate(raw).input.local_root == tmp_path


def test_sample_config_reads_its_own_folder_only() -> None:
    sample = load_config("configs/sample.yaml")
    assert sample.ingest.allow_file_urls and sample.input.files_root == Path("data/sample")
    assert not load_config("configs/cc12m.yaml").ingest.allow_file_urls
