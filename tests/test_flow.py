"""End to end: the Prefect flow over the bundled sample (plus bad rows) with real YOLO weights and
the real vLLM server; the outputs are then re-checked independently of the gate code path."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import webdataset as wds
import yaml

from flows.generate import generate
from negdata.clip_text import fits_clip
from negdata.config import LLMConfig, load_config
from negdata.detect.lexicon import Lexicon, lexicon_for
from negdata.records import Evidence, read_parquet
from negdata.sample import build_sample
from negdata.validate.negation import analyze

SHARDS = "0-4"  # 14 sample rows + 3 bad rows at 4 per shard -> shards 0-4


def _snapshot(root: Path) -> dict[str, tuple[int, str]]:
    return {
        str(p.relative_to(root)): (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def run(
    tmp_path_factory: pytest.TempPathFactory,
    vllm_server: LLMConfig,
    sample_config: Callable[..., tuple[Path, Any]],
) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("flow")
    corrupt = root / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    images = build_sample(root / "sample").tsv.parent / "images"
    bad_rows = (
        f"{corrupt.as_uri()}\ta corrupt photo of a dog\n"
        f"{(root / 'missing.jpg').as_uri()}\ta photo that was deleted\n"
        f"{next(images.iterdir()).as_uri()}\t\n"
    )
    config, _ = sample_config(root, vllm_server, bad_rows)
    summary = generate(shards=SHARDS, config=str(config))
    before = _snapshot(root / "out")
    rerun = generate(shards=SHARDS, config=str(config))
    return {
        "config": config,
        "cfg": load_config(config),
        "summary": summary,
        "rerun": rerun,
        "before": before,
        "after": _snapshot(root / "out"),
    }


def _evidence(out: Path) -> dict[str, Evidence]:
    return {
        e.key: e
        for p in sorted((out / "evidence").glob("*.parquet"))
        for e in read_parquet(p, Evidence)
    }


def test_outputs_open_with_webdataset_and_pyarrow(run: dict[str, Any]) -> None:
    out = run["cfg"].run.output_dir
    tars = sorted((out / "negcap").glob("*.tar"))
    assert [t.name for t in tars] == [f"{i:05d}.tar" for i in range(5)]
    samples = list(wds.WebDataset([str(t) for t in tars], shardshuffle=False))
    keys = [s["__key__"] for s in samples]
    assert len(keys) == len(set(keys)) > 0
    for sample in samples:
        assert {"jpg", "txt", "json"} <= set(sample)
        assert json.loads(sample["json"])["caption"] == sample["txt"].decode()
    sizes = json.loads((out / "negcap" / "sizes.json").read_text())
    assert sum(sizes.values()) == len(samples)
    negcap = pq.read_table(sorted((out / "negcap").glob("*.parquet"))).num_rows
    negmcq = pq.read_table(sorted((out / "negmcq").glob("*.parquet"))).num_rows
    published = run["summary"]["published"]
    assert (
        negcap
        == len(samples)
        == sum(v for k, v in published.items() if k.startswith("captions_by_generator."))
    )
    assert negmcq == run["summary"]["stages"]["publish"]["mcq"] > 0


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
    rows = pq.read_table(sorted((cfg.run.output_dir / "negcap").glob("*.parquet"))).to_pylist()
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
    rows = pq.read_table(sorted((cfg.run.output_dir / "negmcq").glob("*.parquet"))).to_pylist()
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
    the labels deny, nor negate anything the labels show."""
    cfg = run["cfg"]
    truth, lexicon = _truth(cfg), lexicon_for("coco")

    def denied(text: str, image_key: str) -> list[str]:
        """Objects ``text`` affirms that the labels deny, or negates that they show."""
        polarities = analyze(text, lexicon).items()
        return [
            n
            for n, p in polarities
            if (p == "affirmed") != bool(lexicon.members(n) & truth[image_key])
        ]

    out = cfg.run.output_dir
    captions = pq.read_table(sorted((out / "negcap").glob("*.parquet"))).to_pylist()
    questions = pq.read_table(sorted((out / "negmcq").glob("*.parquet"))).to_pylist()
    assert captions and questions
    verdicts = [(c["caption"], denied(c["caption"], c["image_key"])) for c in captions]
    assert [(caption, names) for caption, names in verdicts if names] == []
    for q in questions:
        correct = q[f"caption_{q['correct_answer']}"]
        assert denied(correct, q["image_key"]) == [], (correct, q)
        assert all(lexicon.name(p) in truth[q["image_key"]] for p in q["positives"]), q


def test_no_published_caption_carries_alt_text_noise(run: dict[str, Any]) -> None:
    """The sample's captions hold a file name, a stock-photo id, keyword lists, camera settings
    and name placeholders; the captions built on them keep none."""
    out = run["cfg"].run.output_dir
    captions = pq.read_table(sorted((out / "negcap").glob("*.parquet"))).to_pylist()
    noise = ("<PERSON>", "royalty free", "stock photo", "#38219385", "IMG_2047", "Canon EOS", "|")
    assert any(n in c["original_caption"] for c in captions for n in noise)
    assert [c["caption"] for c in captions if any(n in c["caption"] for n in noise)] == []


# Article and number errors a template could make: "there is boats", "a umbrella", "a broccoli".
_ENGLISH_ERROR = re.compile(
    r"\b(?:there|here) is (?:no )?(?!bus\b|glass\b|this\b|\w+ss\b)\w+s(?= *(?:[.,;]|in |here))"
    r"|\bthere are (?:no )?an? \w+\.|\ba [aeiou]\w*|\ban [^aeiouh\W]\w*|\ban? broccoli\b",
    re.IGNORECASE,
)


def test_published_text_fits_clip_and_reads_as_english(run: dict[str, Any]) -> None:
    """Every caption and MCQ option: inside CLIP's 77 tokens, no raw class name with an
    underscore, no article or number-agreement error."""
    out = run["cfg"].run.output_dir
    captions = pq.read_table(sorted((out / "negcap").glob("*.parquet"))).to_pylist()
    questions = pq.read_table(sorted((out / "negmcq").glob("*.parquet"))).to_pylist()
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
        for folder in ("negcap", "negmcq")
        for row in pq.read_table(sorted((out / folder).glob("*.parquet"))).to_pylist()
    }


def test_server_counters_match_the_requests_the_stages_counted(run: dict[str, Any]) -> None:
    server = run["summary"]["this_run"]["llm_server"]
    stages = run["summary"]["stages"]
    sent = sum(stages[name].get("llm_requests", 0) for name in ("plan", "compose", "publish"))
    assert sent > 0 and server["requests"] == sent
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


def test_lost_llm_outputs_are_rebuilt_from_the_cache_identically(run: dict[str, Any]) -> None:
    cfg = run["cfg"]
    out = cfg.run.output_dir
    before = pq.read_table(out / "negcap" / "00000.parquet").to_pylist()
    for stage_dir in ("objects", "captions", "negcap", "negmcq", "rejects"):
        for path in (out / stage_dir).glob("00000*"):
            path.unlink()

    summary = generate(shards="0", config=str(run["config"]))

    assert sorted(summary["this_run"]["ran"]) == [
        "compose/00000",
        "plan/00000",
        "publish/00000",
    ]
    for stage_dir in ("objects", "captions"):
        stats = json.loads((out / stage_dir / "00000_stats.json").read_text())
        assert stats["llm_requests"] == 0 and stats["llm_cache_hits"] > 0  # 100% cache hits
    assert summary["this_run"]["llm_server"]["requests"] == 0  # the server generated nothing
    assert pq.read_table(out / "negcap" / "00000.parquet").to_pylist() == before


def test_a_run_to_an_object_store_writes_what_a_local_run_writes(
    run: dict[str, Any],
    bucket: str,
    s3_options: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same flow with ``run.output_dir`` on S3 (moto on loopback). The local run's LLM
    replies are handed over through the response cache, which for a remote output folder lives
    under NEGDATA_CACHE, so the two runs must agree byte for byte."""
    monkeypatch.setenv("NEGDATA_CACHE", str(tmp_path / "cache"))
    raw = yaml.safe_load(run["config"].read_text())
    raw["run"] = {"output_dir": f"s3://{bucket}/out", "storage_options": s3_options}
    config = tmp_path / "s3.yaml"
    config.write_text(yaml.safe_dump(raw))
    cfg = load_config(config)
    local = run["cfg"].run.output_dir
    assert cfg.llm_cache is not None and cfg.llm_cache.is_relative_to(tmp_path / "cache")
    cfg.llm_cache.parent.mkdir(parents=True)
    shutil.copyfile(local / "llm_cache.sqlite", cfg.llm_cache)

    summary = generate(shards=SHARDS, config=str(config))

    assert summary["this_run"]["llm_server"]["requests"] == 0  # every reply came from the cache
    assert summary["shards"] == run["summary"]["shards"]
    assert summary["published"] == run["summary"]["published"]
    data = [p for p in sorted(local.rglob("*")) if p.suffix in (".tar", ".parquet")]
    assert len(data) > 20
    for path in data:
        relative = path.relative_to(local).as_posix()
        assert (cfg.run.output_dir / relative).read_bytes() == path.read_bytes(), relative
    rerun = generate(shards=SHARDS, config=str(config))
    assert rerun["this_run"]["ran"] == []  # the done markers on S3 are found again
