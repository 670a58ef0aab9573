"""End to end: the Prefect flow over the bundled sample (plus bad rows) with real YOLO weights and
the real vLLM server; the outputs are then re-checked independently of the gate code path."""

from __future__ import annotations

import ast
import hashlib
import json
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import datasets
import pandas as pd
import pyarrow.parquet as pq
import pytest
import webdataset as wds
import yaml
from PIL import Image

from bench.layout import batches_in_open_clip
from flows.generate import generate
from negdata.cli import main as cli
from negdata.clip_text import fits_clip
from negdata.config import load_config
from negdata.detect.lexicon import Lexicon, lexicon_for
from negdata.export import export_negbench
from negdata.export.negbench_rows import negcap_row
from negdata.export.run_inputs import published_shards, shard_records
from negdata.leases import ShardLease
from negdata.llm.cache import FOLDER
from negdata.records import SPLITS, CaptionRecord, Evidence, read_parquet
from negdata.stages import STAGES, stage_hash
from negdata.validate.claims import meta_text
from negdata.validate.exclusivity import exclusive
from negdata.validate.gates import nonsense
from negdata.validate.negation import analyze
from negdata.wds import caption_for_epoch
from tests.conftest import (
    SAMPLE_SHARDS,
    PrefectServer,
    SampleRun,
    copy_sample_run,
    run_flow,
    using_prefect,
)

SHARDS = SAMPLE_SHARDS  # 14 sample rows + 3 bad rows at 4 per shard -> shards 0-4


TINY_CLIP = "tests/data/tiny-clip.json"  # two layers per tower, 32-pixel images


def _snapshot(root: Path) -> dict[str, tuple[int, str]]:
    return {
        str(p.relative_to(root)): (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def run(sample_run: SampleRun, prefect_server: PrefectServer) -> dict[str, Any]:
    """The session's run of the sample (tests/conftest.py), and a rerun of it."""
    out = sample_run.out
    before = _snapshot(out)
    with using_prefect(prefect_server):
        rerun = generate(shards=SHARDS, config=str(sample_run.config))
    return {
        "config": sample_run.config,
        "cfg": load_config(sample_run.config),
        "summary": sample_run.summary,
        "rerun": rerun,
        "before": before,
        "after": _snapshot(out),
    }


def _evidence(out: Path) -> dict[str, Evidence]:
    return {
        e.key: e
        for p in sorted((out / "evidence").glob("*.parquet"))
        for e in read_parquet(p, Evidence)
    }


def _parquet(out: Path, dataset: str) -> list[Path]:
    """A Parquet dataset's files over every split."""
    return sorted((out / dataset).glob("*/*.parquet"))


def _tars(out: Path) -> dict[str, list[Path]]:
    return {split: sorted((out / "negcap" / split).glob("*.tar")) for split in SPLITS}


def test_negcap_stores_each_image_once_with_all_its_captions(run: dict[str, Any]) -> None:
    out = run["cfg"].run.output_dir
    tars = _tars(out)
    assert all(tars.values())  # configs/sample.yaml's fractions give every split an image
    samples = list(wds.WebDataset([str(t) for ts in tars.values() for t in ts], shardshuffle=False))
    rows = pq.read_table(_parquet(out, "negcap_parquet")).to_pylist()
    images = [s["__key__"] for s in samples]
    assert len(images) == len(set(images)) == len({r["image_key"] for r in rows}) > 0
    assert len(rows) > len(images)  # several captions per image, the image stored once
    by_image: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_image.setdefault(row["image_key"], []).append(row)
    for sample in samples:
        record = json.loads(sample["json"])
        mine = by_image[sample["__key__"]]
        assert [c["text"] for c in record["captions"]] == [r["caption"] for r in mine]
        assert record["caption"] == sample["txt"].decode()
        assert sample["txt"].decode() in [r["caption"] for r in mine]
        assert caption_for_epoch(record, 0, run["cfg"].run.seed) == sample["txt"].decode()
        assert {r["split"] for r in mine} == {record["split"]}
        assert record["sha256"] == hashlib.sha256(_original(run, sample["__key__"])).hexdigest()
    for split, paths in tars.items():
        sizes = json.loads((out / "negcap" / split / "sizes.json").read_text())
        assert sizes == {
            p.name: len(list(wds.WebDataset(str(p), shardshuffle=False))) for p in paths
        }
    negmcq = pq.read_table(_parquet(out, "negmcq")).num_rows
    published = run["summary"]["published"]
    assert len(rows) == sum(v for k, v in published.items() if k.startswith("captions_by_split."))
    assert len(rows) == sum(v for k, v in published.items() if k.startswith("captions_by_gen"))
    assert len(images) == sum(v for k, v in published.items() if k.startswith("images_by_split."))
    assert negmcq == run["summary"]["stages"]["publish"]["mcq"] > 0


def _original(run: dict[str, Any], key: str) -> bytes:
    """The bytes of the input file ingest read for sample ``key``."""
    rows = pq.read_table(sorted((run["cfg"].run.output_dir / "shards").glob("*.parquet")))
    url = {r["key"]: r["url"] for r in rows.to_pylist()}[key]
    return Path(url.removeprefix("file://")).read_bytes()


def test_splits_are_disjoint_by_image_and_agree_across_datasets(run: dict[str, Any]) -> None:
    out = run["cfg"].run.output_dir
    captions = pq.read_table(_parquet(out, "negcap_parquet")).to_pylist()
    questions = pq.read_table(_parquet(out, "negmcq")).to_pylist()
    split_of_image = {c["image_key"]: c["split"] for c in captions}
    for path in _parquet(out, "negcap_parquet") + _parquet(out, "negmcq"):
        assert {r["split"] for r in pq.read_table(path).to_pylist()} <= {path.parent.name}
    for q in questions:
        assert split_of_image.get(q["image_key"], q["split"]) == q["split"]
    hashes = {
        s["__key__"]: (split, json.loads(s["json"])["sha256"])
        for split, paths in _tars(out).items()
        for s in wds.WebDataset([str(p) for p in paths], shardshuffle=False)
    }
    by_split = {split: {h for sp, h in hashes.values() if sp == split} for split in SPLITS}
    assert not (by_split["train"] & (by_split["validation"] | by_split["test"]))
    assert not by_split["validation"] & by_split["test"]
    assert {k: split for k, (split, _) in hashes.items()} == split_of_image


def test_open_clip_trains_from_the_train_tars_without_an_image_twice_in_a_batch(
    run: dict[str, Any],
) -> None:
    """open_clip's own webdataset loader, as `python -m open_clip_train.main --dataset-type
    webdataset` builds it: the sample count from sizes.json, shard and sample shuffling."""
    paths = _tars(run["cfg"].run.output_dir)["train"]
    images = sum(json.loads((paths[0].parent / "sizes.json").read_text()).values())
    batches = batches_in_open_clip(paths, batch_size=3)
    assert len(batches) == -(-images // 3) > 1  # what open_clip takes from sizes.json
    assert all(len(b) == 3 for b in batches)
    assert [b for b in batches if len(set(b)) < len(b)] == []


def test_hugging_face_datasets_loads_every_dataset_with_its_splits(
    run: dict[str, Any], tmp_path: Path
) -> None:
    out = run["cfg"].run.output_dir
    tars = _tars(out)
    folder = _load(tmp_path, str(out / "negcap"))
    assert set(folder) == set(SPLITS)
    for split in SPLITS:
        assert folder[split].num_rows == sum(
            json.loads((out / "negcap" / split / "sizes.json").read_text()).values()
        )
    files = _load(
        tmp_path, "webdataset", data_files={s: [str(p) for p in ps] for s, ps in tars.items()}
    )
    for loaded in (folder, files):
        train = loaded["train"]
        assert isinstance(train.features["jpg"], datasets.Image)
        assert train.features["json"]["captions"].feature["text"].dtype == "string"
        assert train.features["json"]["captions"].feature["prompt"].dtype == "string"
        row = train[0]
        assert row["txt"] == row["json"]["caption"] and row["jpg"].size[0] > 0
    for name, dataset in (("negcap_parquet", "negcap_parquet"), ("negmcq", "negmcq")):
        loaded = _load(tmp_path, str(out / name))
        plain = _load(tmp_path, "parquet", data_files=[str(p) for p in _parquet(out, dataset)])
        assert set(loaded) == set(SPLITS)
        for split in SPLITS:
            assert set(loaded[split]["split"]) <= {split}
        assert sum(d.num_rows for d in loaded.values()) == plain["train"].num_rows > 0
    questions = _load(tmp_path, str(out / "negmcq"))["train"]
    assert questions.features["correct_answer"].dtype == "int64"
    # The run folder itself, with no config name: its card's default, NegCap.
    default = _load(tmp_path, str(out))
    assert sum(d.num_rows for d in default.values()) == sum(
        pq.read_metadata(p).num_rows for p in _parquet(out, "negcap_parquet")
    )


def test_the_negbench_export_keeps_evaluation_to_test_images(
    run: dict[str, Any], tmp_path: Path
) -> None:
    """NegBench's training CSVs hold train images only and its evaluation CSVs test images only,
    each image file written once and readable."""
    out = run["cfg"].run.output_dir
    questions = pq.read_table(_parquet(out, "negmcq")).to_pylist()
    split_of = {q["image_key"]: q["split"] for q in questions}
    counts = export_negbench(out, tmp_path / "negbench")

    def images(name: str, column: str) -> list[str]:
        frame = pd.read_csv(tmp_path / "negbench" / name, sep=",")
        return [Path(p).stem for p in frame[column]]

    assert counts["mcq_eval.csv"] == sum(s == "test" for s in split_of.values()) > 0
    assert {split_of[k] for k in images("mcq_eval.csv", "image_path")} == {"test"}
    assert {split_of[k] for k in images("mcq_train.csv", "image_path")} == {"train"}
    negcap = pd.read_csv(tmp_path / "negbench" / "negcap.csv", sep=",")
    objects = [o for column in ("positive_objects", "negative_objects") for o in negcap[column]]
    names = {name for listed in objects for name in ast.literal_eval(listed)}
    coco = lexicon_for("coco")
    assert names and names <= set(coco.names())  # never the LLM's nouns
    people = [  # "A picture of people, but there is no football.": people affirmed
        row
        for row in negcap.itertuples()
        if "people" in row.negative_captions
        and "person" not in ast.literal_eval(row.negative_objects)
    ]
    assert all("person" in ast.literal_eval(row.positive_objects) for row in people)
    # The source captions without the alt text's noise ("IMG_2047.JPG ... | Canon EOS 20D"), in
    # negcap.csv and in the row it would hold of every published image, whatever its split: the
    # LLM's plan (unseeded here) decides whether an image with noisy alt text keeps a caption.
    noise = re.compile(r"\.jpe?g\b|\||stock image", re.IGNORECASE)
    assert not any(noise.search(caption) for caption in negcap["caption"])
    by_image: dict[str, list[CaptionRecord]] = {}
    for shard in published_shards(out):
        for caption, _ in shard_records(out / "negcap_parquet", shard, CaptionRecord):
            by_image.setdefault(caption.image_key, []).append(caption)
    sources = [str(negcap_row("", captions, coco)[1]) for captions in by_image.values()]
    assert any(noise.search(captions[0].original_caption) for captions in by_image.values())
    assert sources and not any(noise.search(source) for source in sources)
    written = sorted((tmp_path / "negbench" / "images").rglob("*.jpg"))
    assert len(written) == len({p.stem for p in written})
    assert all(Image.open(p).size[0] > 0 for p in written)


def test_the_samples_negbench_export_on_every_split_is_big_enough_for_recall_at_5(
    run: dict[str, Any], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The sample's test split is too small for NegBench's retrieval evaluator (recall@5 over
    fewer than 5 images stops it with an index error), and the export says so; evaluated on
    every split, as docs/outputs.md shows for the sample, it has enough."""
    out = run["cfg"].run.output_dir
    with caplog.at_level(logging.WARNING, logger="negdata"):
        test_only = export_negbench(out, tmp_path / "test")
    too_small = min(test_only["negated_retrieval.csv"], test_only["negated_retrieval_captions"]) < 5
    assert too_small == ("recall@5" in caplog.text)
    caplog.clear()

    with caplog.at_level(logging.WARNING, logger="negdata"):
        every = export_negbench(out, tmp_path / "all", eval_splits=SPLITS)

    frame = pd.read_csv(tmp_path / "all" / "negated_retrieval.csv", sep=",")
    assert len(frame) == every["negated_retrieval.csv"] >= 5
    assert sum(len(ast.literal_eval(c)) for c in frame["captions"]) >= 5
    assert "recall@5" not in caplog.text


def test_the_run_passes_verify_and_trains_and_scores_with_open_clip(
    run: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a training job does with the sample's run: verify it, fine-tune open_clip on its train
    split for two steps (a tiny random-init model: no weights here), and score the checkpoint
    on its test split."""
    out = run["cfg"].run.output_dir
    cli(["verify", str(out), "--config", str(run["config"])])
    assert capsys.readouterr().out.strip().endswith(": OK")
    smoke = subprocess.run(
        [sys.executable, "-m", "bench.finetune_smoke", "--run", str(out), "--model", TINY_CLIP,
         "--image-size", "0", "--steps", "2", "--batch-size", "2", "--out", str(tmp_path)],
        capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"}, check=False,
    )  # fmt: skip
    assert smoke.returncode == 0, smoke.stderr[-3000:]
    assert "before fine-tuning:" in smoke.stdout and "after 2 steps of 2" in smoke.stdout
    checkpoint = tmp_path / "finetune-smoke" / "checkpoints" / "epoch_1.pt"
    cli(["eval-clip", str(out), "--model", TINY_CLIP, "--pretrained", str(checkpoint)])
    scores = capsys.readouterr().out
    questions = pq.read_table(out / "negmcq" / "test").num_rows
    assert f"NegMCQ: {questions} questions" in scores and "recall@5" in scores


def test_bad_rows_are_counted_rejects(run: dict[str, Any]) -> None:
    rejects = run["summary"]["rejects_by_reason"]
    assert rejects["decode_error"] == 1
    assert rejects["missing_file"] == 1
    assert rejects["empty_caption"] == 1
    assert run["summary"]["stages"]["ingest"]["successes"] == 14


def _absent(name: str, scores: dict[str, float], lexicon: Lexicon, t_absent: float) -> bool:
    members = lexicon.members(name)
    return bool(members) and all(scores.get(m, 1.0) < t_absent for m in members)


def _present(name: str, scores: dict[str, float], lexicon: Lexicon, t_present: float) -> bool:
    return any(scores.get(m, 0.0) >= t_present for m in lexicon.members(name))


def test_every_published_caption_negates_a_verified_absent_object(run: dict[str, Any]) -> None:
    cfg = run["cfg"]
    evidence = _evidence(cfg.run.output_dir)
    lexicon = lexicon_for("coco")
    rows = pq.read_table(_parquet(cfg.run.output_dir, "negcap_parquet")).to_pylist()
    assert rows
    for row in rows:
        scores = evidence[row["image_key"]].score_map()
        polarities = analyze(row["caption"], lexicon)
        assert polarities.get(row["negated_label"]) == "negated", row
        assert _absent(row["negated_label"], scores, lexicon, cfg.detect.t_absent), row
        assert row["caption"].strip().lower() != row["original_caption"].strip().lower()
        for name, pol in polarities.items():
            if pol == "affirmed":
                assert not _absent(name, scores, lexicon, cfg.detect.t_absent), (name, row)
            else:
                assert not _present(name, scores, lexicon, cfg.detect.t_present), (name, row)


def test_every_mcq_has_exactly_one_correct_option(run: dict[str, Any]) -> None:
    cfg = run["cfg"]
    evidence = _evidence(cfg.run.output_dir)
    lexicon = lexicon_for("coco")
    rows = pq.read_table(_parquet(cfg.run.output_dir, "negmcq")).to_pylist()
    assert rows
    for row in rows:
        scores = evidence[row["image_key"]].score_map()
        truths = []
        for option in (row[f"caption_{i}"] for i in range(4)):
            polarities = analyze(option, lexicon)
            assert polarities, option
            truths.append(
                all(
                    _present(n, scores, lexicon, cfg.detect.t_present)
                    if p == "affirmed"
                    else _absent(n, scores, lexicon, cfg.detect.t_absent)
                    for n, p in polarities.items()
                )
            )
        assert truths.count(True) == 1 and truths[row["correct_answer"]], row


def _truth(cfg: Any) -> dict[str, set[str]]:
    """The sample's own labels (every COCO object in each photo), by sample key."""
    labels = json.loads(Path(cfg.detect.sources[0].path).read_text())
    rows = pq.read_table(sorted((cfg.run.output_dir / "shards").glob("*.parquet"))).to_pylist()
    return {r["key"]: set(labels[r["url"]]) for r in rows if r["url"] in labels}


def test_nothing_published_contradicts_the_labels(run: dict[str, Any]) -> None:
    """The person weights score a person on the retina photo near t_present; the labels say
    there is none. No caption, MCQ positive or correct answer may affirm it, nor anything else
    the labels deny, nor negate anything the labels show, nor say "only" beside a labelled
    object it does not name ("No truck here, only a motorcycle" by a bench and a bicycle). Every
    other option of a question is false of the labels, and no option is nonsense."""
    cfg = run["cfg"]
    truth, lexicon = _truth(cfg), lexicon_for("coco")

    def denied(text: str, image_key: str) -> list[str]:
        """Objects ``text`` affirms that the labels deny, or negates that they show, and with
        an exclusive claim ("only a bench") the labelled objects it leaves out."""
        polarities = analyze(text, lexicon).items()
        wrong = [
            n
            for n, p in polarities
            if (p == "affirmed") != bool(lexicon.members(n) & truth[image_key])
        ]
        affirmed = {m for n, p in polarities if p == "affirmed" for m in lexicon.members(n)}
        left = sorted(truth[image_key] - affirmed) if exclusive(text, lexicon) else []
        return wrong + left

    out = cfg.run.output_dir
    captions = pq.read_table(_parquet(out, "negcap_parquet")).to_pylist()
    questions = pq.read_table(_parquet(out, "negmcq")).to_pylist()
    assert captions and questions
    verdicts = [(c["caption"], denied(c["caption"], c["image_key"])) for c in captions]
    assert [(caption, names) for caption, names in verdicts if names] == []
    for q in questions:
        options = [q[f"caption_{i}"] for i in range(4)]
        assert [o for o in options if meta_text(o) or nonsense(o, lexicon)] == [], q
        if q["image_key"] not in truth:  # an image the labels do not cover
            continue
        # The key is true of the labelled objects, and every other option is false of them.
        said = [bool(denied(o, q["image_key"])) for o in options]
        assert said == [i != q["correct_answer"] for i in range(4)], q
        assert all(lexicon.name(p) in truth[q["image_key"]] for p in q["positives"]), q


def test_every_published_record_carries_the_hash_the_card_names(run: dict[str, Any]) -> None:
    """A fresh run's card warned that its records carried a hash its config did not give: they
    carried compose's, the card named publish's."""
    cfg = run["cfg"]
    out = cfg.run.output_dir
    want = stage_hash(cfg, STAGES[-1])
    found = set(pq.read_table(_parquet(out, "negcap_parquet")).column("config_hash").to_pylist())
    found |= set(pq.read_table(_parquet(out, "negmcq")).column("config_hash").to_pylist())
    assert found == {want}
    card = (out / "README.md").read_text()
    assert f"records' `config_hash`: `{want}` (the hash" in card
    assert "it is not the run's own" not in card


def test_no_published_caption_carries_alt_text_noise(run: dict[str, Any]) -> None:
    """The sample's captions hold a file name, a stock-photo id, keyword lists, camera settings
    and name placeholders; the captions built on them keep none."""
    out = run["cfg"].run.output_dir
    captions = pq.read_table(_parquet(out, "negcap_parquet")).to_pylist()
    noise = ("<PERSON>", "royalty free", "stock photo", "#38219385", "IMG_2047", "Canon EOS", "|")
    assert any(n in c["original_caption"] for c in captions for n in noise)
    assert [c["caption"] for c in captions if any(n in c["caption"] for n in noise)] == []


# Article and number errors a template could make: "there is boats", "a umbrella", "a broccoli".
_ENGLISH_ERROR = re.compile(
    # a singular noun may end in s: "a minibus", "a cactus", "a glass", "an iris"
    r"\b(?:there|here) is (?:no )?(?!this\b|\w*(?:ss|us|is)\b)\w+s(?= *(?:[.,;]|in |here))"
    r"|\bthere are (?:no )?an? \w+\.|\ban [^aeiouh\W]\w*|\ban? broccoli\b"
    # "a" before a vowel letter, unless it sounds "you" or "wun": "a utility car", "a one-way"
    r"|\ba (?!u[bcdfgklmnprstvz][aeiouy]|eu|one\b)[aeiou]\w*",
    re.IGNORECASE,
)


def test_published_text_fits_clip_and_reads_as_english(run: dict[str, Any]) -> None:
    """Every caption and MCQ option: inside CLIP's 77 tokens, no raw class name with an
    underscore, no article or number-agreement error."""
    out = run["cfg"].run.output_dir
    captions = pq.read_table(_parquet(out, "negcap_parquet")).to_pylist()
    questions = pq.read_table(_parquet(out, "negmcq")).to_pylist()
    texts = [c["caption"] for c in captions]
    texts += [q[f"caption_{i}"] for q in questions for i in range(4)]
    assert len(texts) > 40
    assert [t for t in texts if not fits_clip(t)] == []
    assert [t for t in texts if "_" in t or _ENGLISH_ERROR.search(t)] == []


def test_rerun_of_a_finished_run_does_no_work_and_changes_no_file(run: dict[str, Any]) -> None:
    assert run["rerun"]["this_run"]["ran"] == []
    assert len(run["rerun"]["this_run"]["skipped"]) == 5 * 5
    assert run["after"] == run["before"]


def test_the_run_ends_with_its_data_card_and_report(run: dict[str, Any]) -> None:
    """Written after stats.json (and left as they are by the rerun, above)."""
    out = run["cfg"].run.output_dir
    publish = run["summary"]["stages"]["publish"]
    card = (out / "README.md").read_text()
    assert card.startswith("---\n")
    assert f"| captions published | {publish['captions']} |" in card
    assert f"| MCQs published | {publish['mcq']} |" in card
    report = (out / "report.html").read_text()
    assert "<title>negdata report: out</title>" in report
    assert report.count('<div class="item"') == len(_shown_images(out))  # 14 images: all shown


def _shown_images(out: Path) -> set[str]:
    """Images with a published caption or question: those the gallery shows, up to its cap."""
    return {
        row["image_key"]
        for folder in ("negcap_parquet", "negmcq")
        for row in pq.read_table(sorted((out / folder).glob("*/*.parquet"))).to_pylist()
    }


def test_server_counters_match_the_requests_the_stages_counted(run: dict[str, Any]) -> None:
    server = run["summary"]["this_run"]["llm_server"]
    stages = run["summary"]["stages"]
    sent = sum(stages[name].get("llm_requests", 0) for name in ("plan", "compose", "publish"))
    assert sent > 0 and server["requests"] == sent
    assert run["summary"]["this_run"]["llm_sent"]["requests"] == sent  # its own count
    assert 0 < server["prefix_cache_hit_rate"] <= 1  # the shared prompt prefix is reused
    assert run["rerun"]["this_run"]["llm_server"] is None  # nothing to do: no server needed
    llm = run["summary"]["llm"]
    assert 0 < llm["calls_per_image"] <= 3  # against NegBench's 11
    assert llm["tokens_per_image"] > 0 and llm["cache_hit_rate"] == 0.0


def test_diversity_is_reported_per_generator_and_style(run: dict[str, Any]) -> None:
    published = run["summary"]["published"]
    report = run["summary"]["diversity"]
    for key in ("captions_by_generator", "captions_by_style"):
        part = 0 if key == "captions_by_generator" else 1
        counted: dict[str, int] = {}
        for group, figures in report.items():
            name = group.split("/")[part]
            counted[name] = counted.get(name, 0) + figures["captions"]
        assert {f"{key}.{k}": v for k, v in counted.items()} == {
            k: v for k, v in published.items() if k.startswith(f"{key}.")
        }
    for figures in report.values():
        assert 0 < figures["distinct_1"] <= 1 and 0 < figures["distinct_2"] <= 1
        assert 0 <= figures["frame_reuse"] <= 1


def test_a_shard_whose_machine_died_is_rebuilt_on_another_from_its_cache_identically(
    sample_run: SampleRun,
    tmp_path: Path,
    prefect_server: PrefectServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a copy of the run: machine A was paid for every answer of shard 0 and died holding
    its lease before writing the LLM stages' outputs. Machine B (another host identity and
    NEGDATA_CACHE) takes the lease over once it expires and builds them again from the cache
    beside the shard, asking the server nothing."""
    config, out = copy_sample_run(sample_run, tmp_path)
    published = ("negcap/*/", "negcap_parquet/*/", "negmcq/*/", "rejects/", "publish/")
    before = {p: p.read_bytes() for d in published for p in out.glob(f"{d}00000*")}
    assert {p.suffix for p in before} == {".tar", ".parquet", ".json"}
    for pattern in ("objects/", "captions/", *published):
        for path in out.glob(f"{pattern}00000*"):
            path.unlink()
    ShardLease(out, 0, ttl_s=0.5, owner="host-a:1:dead").acquire()  # never renewed or released
    time.sleep(0.6)  # expired: no process on this host can tell that host-a's is gone
    monkeypatch.setenv("NEGDATA_HOST", "host-b")
    monkeypatch.setenv("NEGDATA_CACHE", str(tmp_path / "host-b"))

    summary = run_flow(prefect_server, shards="0", config=str(config))

    assert sorted(summary["this_run"]["ran"]) == [
        "compose/00000",
        "plan/00000",
        "publish/00000",
    ]
    for stage_dir in ("objects", "captions"):
        stats = json.loads((out / stage_dir / "00000_stats.json").read_text())
        assert stats["llm_requests"] == 0 and stats["llm_cache_hits"] > 0  # 100% cache hits
    assert summary["this_run"]["llm_server"]["requests"] == 0  # the server generated nothing
    after = {p: p.read_bytes() for d in published for p in out.glob(f"{d}00000*")}
    stats = [p for p in before if p.name.endswith("_stats.json")]
    assert {p: b for p, b in after.items() if p not in stats} == {
        p: b for p, b in before.items() if p not in stats
    }
    assert not (out / "leases" / "00000.json").exists()  # B took it over and let it go
    assert not [p for p in (out / FOLDER / "00000").glob("*.jsonl") if "-host-b-" in p.name]


def test_a_run_to_an_object_store_writes_what_a_local_run_writes(
    run: dict[str, Any],
    bucket: str,
    s3_options: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    prefect_server: PrefectServer,
) -> None:
    """The same flow with ``run.output_dir`` on S3 (moto on loopback). The local run's LLM
    replies are handed over through the response cache, which lives beside each shard's
    outputs on the store, so the two runs must agree byte for byte."""
    monkeypatch.setenv("NEGDATA_CACHE", str(tmp_path / "cache"))
    raw = yaml.safe_load(run["config"].read_text())
    raw["run"] = {"output_dir": f"s3://{bucket}/out", "storage_options": s3_options}
    config = tmp_path / "s3.yaml"
    config.write_text(yaml.safe_dump(raw))
    cfg = load_config(config)
    local = run["cfg"].run.output_dir
    remote = cfg.run.output_dir / FOLDER
    remote.fs.put(str(local / FOLDER), remote.path, recursive=True)

    summary = run_flow(prefect_server, shards=SHARDS, config=str(config))

    assert summary["this_run"]["llm_server"]["requests"] == 0  # every reply came from the cache
    assert summary["shards"] == run["summary"]["shards"]
    assert summary["published"] == run["summary"]["published"]
    data = [p for p in sorted(local.rglob("*")) if p.suffix in (".tar", ".parquet")]
    assert len(data) > 20
    for path in data:
        relative = path.relative_to(local).as_posix()
        assert (cfg.run.output_dir / relative).read_bytes() == path.read_bytes(), relative
    rerun = run_flow(prefect_server, shards=SHARDS, config=str(config))
    assert rerun["this_run"]["ran"] == []  # the done markers on S3 are found again


def _load(tmp_path: Path, *args: Any, **kwargs: Any) -> Any:
    """``datasets.load_dataset`` with its cache in the test's folder."""
    return datasets.load_dataset(*args, cache_dir=str(tmp_path / "hf"), **kwargs)
