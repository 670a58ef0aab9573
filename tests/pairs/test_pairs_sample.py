"""``negdata pairs`` on the session's run of the bundled sample: every pair's difference is real
by the sample's hand-checked labels, and so is every published pair's two captions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import yaml

from negdata.config import load_config
from negdata.detect.lexicon import lexicon_for
from negdata.publish.splits import split_of
from negdata.records import IngestRow, read_parquet
from negdata.validate.evaluate import label_polarity
from negdata.validate.negation import analyze
from negdata.wds import read_tar
from tests.conftest import SampleRun, copy_sample_run

CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]


def _sample_labels(config: Path, out: Path) -> dict[str, set[str]]:
    """Each ingested image's hand-checked labels, by key (labels.json is by URL)."""
    raw = yaml.safe_load(config.read_text())
    (source,) = [s for s in raw["detect"]["sources"] if s["kind"] == "labels"]
    by_url = json.loads(Path(source["path"]).read_text())
    return {
        row.key: set(by_url[row.url])
        for path in sorted((out / "shards").glob("*.parquet"))
        for row in read_parquet(path, IngestRow)
        if row.url in by_url
    }


def _jpegs(tar: Path) -> dict[str, bytes]:
    return {sample["__key__"]: sample["jpg"] for sample in read_tar(tar) if "jpg" in sample}


def test_every_sample_pair_differs_by_a_real_object(sample_run: SampleRun, tmp_path: Path) -> None:
    """At the default min_overlap (1: the same objects but one) the sample gives pairs such as
    zidane (person, tie) and astronaut (person), X = tie."""
    config, out = copy_sample_run(sample_run, tmp_path)
    done = subprocess.run([*CLI, "pairs", "--config", str(config)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = pq.read_table(out / "pairs" / "pairs.parquet").to_pylist()
    assert rows, "the sample gives no pair"
    labels = _sample_labels(config, out)
    for row in rows:
        a, b = labels[row["key_a"]], labels[row["key_b"]]
        assert row["object"] in a and row["object"] not in b, row
        assert set(row["present_a"]) <= a and set(row["present_b"]) <= b, row
        assert row["overlap"] == 1.0
    again = subprocess.run([*CLI, "pairs", "--config", str(config)], capture_output=True, text=True)
    assert again.returncode == 0 and "done already" in again.stderr


def test_sample_pair_captions_are_true_of_their_images_and_every_pair_is_counted(
    sample_run: SampleRun, tmp_path: Path
) -> None:
    """With ``pairs.captions``, one call per pair to the session's real LLM: each published
    pair's caption of A names X as there and is true of A, its caption of B negates X and is
    true of B, by the sample's hand-checked labels; every other mined pair is a counted reject;
    and a rerun after a crash before the done marker asks the LLM nothing (the response cache
    answers)."""
    config, out = copy_sample_run(sample_run, tmp_path)
    raw = yaml.safe_load(config.read_text())
    raw["pairs"] = {**raw.get("pairs", {}), "captions": True}
    config.write_text(yaml.safe_dump(raw))
    done = subprocess.run([*CLI, "pairs", "--config", str(config)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    folder = out / "pairs"
    mined = pq.read_table(folder / "pairs.parquet").to_pylist()
    published = pq.read_table(folder / "negpairs.parquet").to_pylist()
    rejects = pq.read_table(folder / "rejects.parquet").to_pylist()
    stats = json.loads((folder / "stats.json").read_text())
    captions = stats["captions"]
    assert mined, "the sample gives no pair"
    assert len(published) + len(rejects) == len(mined) == stats["pairs"]
    assert {r["pair_id"] for r in published} | {r["key"] for r in rejects} == {
        m["pair_id"] for m in mined
    }
    assert captions["published"] == len(published)
    assert sum(captions["dropped"].values()) == len(rejects)
    assert all(r["reason"].startswith("pair_") for r in rejects), rejects
    assert captions["llm_cache_hits"] == 0 and captions["llm_requests"] >= len(mined)
    labels = _sample_labels(config, out)
    lexicon = lexicon_for(load_config(config).detect.vocabulary)
    for row in published:
        a, b, x = labels[row["key_a"]], labels[row["key_b"]], row["object"]
        assert x in a and x not in b, row
        read_a, read_b = analyze(row["caption_a"], lexicon), analyze(row["caption_b"], lexicon)
        assert label_polarity(read_a, x, lexicon) == "affirmed", row
        assert label_polarity(read_b, x, lexicon) == "negated", row
        for read, truth in ((read_a, a), (read_b, b)):
            for name, polarity in read.items():
                there = bool(lexicon.members(name) & truth)
                assert there == (polarity == "affirmed"), (row, name, polarity)
        if row["generator"] == "llm":
            assert row["prompt"].startswith("pair@") and row["model"], row
        else:  # the sample's config lets a template stand in (compose.template_fallback)
            assert row["prompt"] is None and row["model"] is None, row
    assert published, "neither the LLM nor the template captioned a sample pair"
    # Each split's datasets hold its pairs, both images in the split of the smaller sha256.
    sha = {
        r.key: r.sha256
        for p in (out / "shards").glob("*.parquet")
        for r in read_parquet(p, IngestRow)
    }
    fractions = load_config(config).publish.splits
    for row in published:
        assert row["split"] == split_of(min(sha[row["key_a"]], sha[row["key_b"]]), fractions)
    assert sum(n["pairs"] for n in captions["splits"].values()) == len(published)
    for split, written in captions["splits"].items():
        mine = [row["pair_id"] for row in published if row["split"] == split]
        parquet = pq.read_table(folder / "negpairs" / split / "negpairs.parquet")
        assert parquet.column("pair_id").to_pylist() == mine
        samples = list(read_tar(folder / "negpairs_wds" / split / "00000.tar"))
        assert [s["__key__"] for s in samples] == [f"{i}_{side}" for i in mine for side in "ab"]
        assert written == {"pairs": len(mine), "tars": 1}
    # export negbench adds the pairs: each image with its own caption for training, and the
    # two-image question for evaluation, read as NegBench reads its CSVs.
    export = tmp_path / "negbench"
    exported = subprocess.run(
        [*CLI, "export", "negbench", str(out), str(export), "--config", str(config),
         "--eval-splits", "validation,test"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert exported.returncode == 0, exported.stderr
    train = pd.read_csv(export / "negpairs_train.csv", sep=",")
    mcq = pd.read_csv(export / "negpairs_mcq.csv", sep=",")
    by_id = {row["pair_id"]: row for row in published}
    assert list(train["pair_id"]) == [
        row["pair_id"] for row in published if row["split"] == "train" for _ in "ab"
    ]
    assert sorted(mcq["pair_id"]) == sorted(i for i, r in by_id.items() if r["split"] != "train")
    jpegs = {k: v for p in sorted((out / "shards").glob("*.tar")) for k, v in _jpegs(p).items()}
    for row in mcq.itertuples():
        pair = by_id[row.pair_id]
        assert (row.caption_0, row.caption_1) == (pair["caption_a"], pair["caption_b"])
        assert Path(row.image_0).read_bytes() == jpegs[pair["key_a"]]
        assert Path(row.image_1).read_bytes() == jpegs[pair["key_b"]]
    for row in train.itertuples():
        pair = by_id[row.pair_id]
        key = pair["key_a"] if row.side == "a" else pair["key_b"]
        assert row.caption == pair[f"caption_{row.side}"]
        assert Path(row.filepath).read_bytes() == jpegs[key]
    templates = sum(row["generator"] == "template" for row in published)
    assert sum(captions["template"].values()) == templates
    again = subprocess.run([*CLI, "pairs", "--config", str(config)], capture_output=True, text=True)
    assert again.returncode == 0 and "done already" in again.stderr
    # A crash after the LLM answered, before the done marker: the rerun asks nothing again.
    written = (folder / "negpairs.parquet").read_bytes()
    (folder / "stats.json").unlink()
    redo = subprocess.run([*CLI, "pairs", "--config", str(config)], capture_output=True, text=True)
    assert redo.returncode == 0, redo.stderr
    rerun = json.loads((folder / "stats.json").read_text())["captions"]
    assert rerun["llm_requests"] == 0, rerun
    assert rerun["llm_cache_hits"] == len(mined) - captions["dropped"].get("pair_llm_failed", 0)
    assert (folder / "negpairs.parquet").read_bytes() == written
