"""The medical toy sample: its build, and a real run of the flow over it (the real vLLM server)
whose published captions and MCQs are checked against the hand-written CheXpert labels with the
negation checker: only findings labelled 0 are negated, only findings labelled 1 affirmed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import yaml
from PIL import Image

from flows.generate import generate
from negdata.config import LLMConfig, load_config
from negdata.detect.base import ImageItem
from negdata.detect.chexpert import COLUMNS, ChexpertDetector, read_findings
from negdata.detect.lexicon import lexicon_for
from negdata.publish.layout import published_captions, published_mcqs
from negdata.records import IngestRow, read_parquet
from negdata.sample.medical import MIN_SIDE, build_medical_sample, load_medical_manifest
from negdata.shards import shard_name
from negdata.validate.negation import analyze
from tests.conftest import PrefectServer, using_prefect

CONFIG = Path("configs/medical-sample.yaml")
CLI = [sys.executable, "-c", "from negdata.cli import main; main()"]
TINY = Path("tests/data/tiny-clip.json").resolve()
LEXICON = lexicon_for("chexpert")
Findings = dict[str, int]


def test_the_sample_is_grayscale_pngs_a_chexpert_csv_and_a_tsv(tmp_path: Path) -> None:
    files = build_medical_sample(tmp_path / "medical")
    manifest = load_medical_manifest()
    header, *rows = files.labels.read_text().splitlines()
    assert header.split(",") == ["Path", *COLUMNS]
    assert [r.split(",")[0] for r in rows] == [f"images/{m.id}.png" for m in manifest]
    for line in files.tsv.read_text().splitlines():
        url, caption = line.split("\t")
        with Image.open(Path(url.removeprefix("file://"))) as image:
            assert image.mode == "L" and image.format == "PNG" and min(image.size) >= MIN_SIDE
        assert caption
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "medical").rglob("*") if p.is_file()}
    build_medical_sample(tmp_path / "medical")
    after = {p: p.stat().st_mtime_ns for p in (tmp_path / "medical").rglob("*") if p.is_file()}
    assert before == after  # a rebuild writes nothing


def test_the_config_reads_what_the_sample_build_writes(tmp_path: Path) -> None:
    cfg = load_config(CONFIG)
    assert cfg.detect.vocabulary == "chexpert"
    files = build_medical_sample(tmp_path / "medical")
    source = cfg.detect.sources[0].model_copy(update={"path": files.labels})
    detector = ChexpertDetector(source, cfg.detect, 0)  # type: ignore[arg-type]
    url = next(u.split("\t")[0] for u in files.tsv.read_text().splitlines() if "ct_chest" in u)
    item = ImageItem(key="000000000", url=url, caption="", image=Image.new("L", (8, 8)))
    (det,) = detector.detect([item])
    assert det.scores["cardiomegaly"] == 1.0 and det.scores["pleural effusion"] == 0.0
    assert cfg.detect.t_absent < det.scores["edema"] < cfg.detect.t_present  # labelled -1
    assert "pneumonia" not in det.scores  # blank


@pytest.fixture(scope="module")
def run(
    tmp_path_factory: pytest.TempPathFactory,
    vllm_server: LLMConfig,
    prefect_server: PrefectServer,
) -> Iterator[Any]:
    root = tmp_path_factory.mktemp("medical")
    files = build_medical_sample(root / "sample")
    raw = yaml.safe_load(CONFIG.read_text())
    raw["run"]["output_dir"] = str(root / "out")
    raw["input"]["path"] = str(files.tsv)
    raw["input"]["files_root"] = str(files.tsv.parent)
    raw["detect"]["sources"][0]["path"] = str(files.labels)
    raw["llm"] = {**vllm_server.model_dump(mode="json"), "local": False}
    raw["compose"]["prompts_dir"] = str(Path("prompts").resolve())
    config = root / "config.yaml"
    config.write_text(yaml.safe_dump(raw))
    with using_prefect(prefect_server):
        summary = generate(shards="0-3", config=str(config))
    yield load_config(config), files.labels, summary


def _labels_by_key(cfg: Any, labels: Path) -> dict[str, Findings]:
    """Image key -> its findings, through the ingested URL and the CSV's relative path."""
    findings = read_findings(labels, "Path", "labels")
    by_key: dict[str, Findings] = {}
    for shard in range(4):
        rows = read_parquet(
            cfg.run.output_dir / "shards" / f"{shard_name(shard)}.parquet", IngestRow
        )
        for row in rows:
            (path,) = [p for p in findings if row.url.endswith(f"/{p}")]
            by_key[row.key] = findings[path]
    return by_key


def _true_of(text: str, findings: Findings) -> bool | None:
    """Whether a sentence is true of the labels: every finding it affirms labelled 1 (a parent
    of the hierarchy: some finding it covers), every one it negates labelled 0 (a parent: all
    it covers, itself included). None when it names a finding the labels do not decide."""
    truth = True
    for name, polarity in analyze(text, LEXICON).items():
        values = [findings.get(label) for label in LEXICON.members(name)]
        if polarity == "affirmed":
            if 1 not in values:
                return None if 0 not in values else False
        elif polarity == "negated":
            if 1 in values:
                truth = False
            elif any(v != 0 for v in values):
                return None
    return truth


def test_published_captions_negate_only_findings_labelled_0_and_affirm_only_1(run: Any) -> None:
    cfg, labels, summary = run
    by_key = _labels_by_key(cfg, labels)
    captions = [c for s in range(4) for c in published_captions(cfg.run.output_dir, shard_name(s))]
    assert len({c.image_key for c in captions}) == 4  # every image has a finding labelled 0
    for caption in captions:
        findings = by_key[caption.image_key]
        polarities = analyze(caption.caption, LEXICON)
        assert polarities.get(caption.negated_label) == "negated", caption.caption
        assert findings[caption.negated_label] == 0, caption.caption
        assert _true_of(caption.caption, findings) is True, (caption.caption, findings)
        for label, value in findings.items():
            if value == -1:  # uncertain: never stated either way
                assert polarities.get(label, "unmentioned") == "unmentioned", caption.caption
    assert summary["stages"]["publish"]["captions"] == len(captions)


def _labelled(noun: str, findings: Findings) -> list[int | None]:
    """The labels of the findings a noun covers: "chest tube" is support devices', "lung
    opacity" those of edema, pneumonia and the rest it covers as well."""
    name = LEXICON.name(noun)
    assert name is not None, noun
    return [findings.get(label) for label in LEXICON.members(name)]


def test_mcq_answers_agree_with_the_labels(run: Any) -> None:
    cfg, labels, _ = run
    by_key = _labels_by_key(cfg, labels)
    mcqs = [m for s in range(4) for m in published_mcqs(cfg.run.output_dir, shard_name(s))]
    assert mcqs  # three images have a finding labelled 1; the phantom has none (no question)
    for mcq in mcqs:
        findings = by_key[mcq.image_key]
        assert all(1 in _labelled(p, findings) for p in mcq.positives), (mcq, findings)
        assert set(_labelled(mcq.negative, findings)) == {0}, (mcq, findings)
        options = [mcq.caption_0, mcq.caption_1, mcq.caption_2, mcq.caption_3]
        truths = [_true_of(option, findings) for option in options]
        assert truths[mcq.correct_answer] is True, options
        assert truths.count(True) == 1 and None not in truths, (options, truths)


def test_medical_pairs_differ_by_one_finding_and_read_like_a_report(
    run: Any, tmp_path: Path
) -> None:
    """The run again with an image encoder (a random-weight open_clip here, for the plumbing;
    BiomedCLIP or another local checkpoint in use): the studies mined as pairs differ by one
    finding, labelled 1 in A and 0 in B, and each published impression is true of its study."""
    cfg, labels, _ = run
    out = tmp_path / "out"
    shutil.copytree(cfg.run.output_dir, out)
    raw = yaml.safe_load((Path(cfg.run.output_dir).parent / "config.yaml").read_text())
    raw["run"]["output_dir"] = str(out)
    raw["detect"]["encoder"] = {"kind": "open_clip", "model": str(TINY)}
    raw["pairs"] = {"captions": True, "min_similarity": -1.0}
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump(raw))
    for command in (["stage", "detect", "--shards", "0-3"], ["pairs"]):
        done = subprocess.run(
            [*CLI, *command, "--config", str(config)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-3000:]
    by_key = _labels_by_key(cfg, labels)
    mined = pq.read_table(out / "pairs" / "pairs.parquet").to_pylist()
    # The abdomen's effusion against the phantom, where no other finding is present in either.
    assert {row["object"] for row in mined} == {"pleural effusion"}, mined
    for row in mined:
        a, b = by_key[row["key_a"]], by_key[row["key_b"]]
        assert a[row["object"]] == 1 and b[row["object"]] == 0, row
        present_a = {k for k, v in a.items() if v == 1} - {row["object"]}
        assert present_a == {k for k, v in b.items() if v == 1}, row
    published = pq.read_table(out / "pairs" / "negpairs.parquet").to_pylist()
    assert published, "no medical pair was published"
    for row in published:
        a, b = by_key[row["key_a"]], by_key[row["key_b"]]
        assert _true_of(row["caption_a"], a) is True, row
        assert _true_of(row["caption_b"], b) is True, row
        assert analyze(row["caption_a"], LEXICON).get(row["object"]) == "affirmed", row
        assert analyze(row["caption_b"], LEXICON).get(row["object"]) == "negated", row
        if row["generator"] == "llm":
            assert row["prompt"].startswith("pair_clinical@"), row
        else:  # the report-style template
            assert (row["caption_a"], row["caption_b"]) in (
                ("Pleural effusion.", "No pleural effusion."),
                ("Pleural effusion is present.", "No evidence of pleural effusion."),
            ), row
