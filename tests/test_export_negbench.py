"""``negdata export negbench``: every file read back the way NegBench's loaders read it
(``pd.read_csv`` with their separator and columns, list columns evaluated as Python literals,
``Image.open`` of the path as written), from a small run folder made with negdata's writers."""

from __future__ import annotations

import ast
import io
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PIL import Image

from negdata.compose.mcq import McqBalancer, build_mcq
from negdata.export import RunError, export_negbench
from negdata.records import (
    SPLITS,
    CaptionRecord,
    McqRecord,
    Record,
    arrow_schema,
    write_parquet,
)
from negdata.shards import sample_key, write_stats
from negdata.wds import write_tar

# Two published shards of three and two images, and a third shard only ingested so far.
IMAGES = {0: 3, 1: 2}
IMAGES_KEYS = [sample_key(shard, i) for shard, count in IMAGES.items() for i in range(count)]
COLOURS = ["red", "green", "blue", "orange", "purple"]
PARAPHRASED = sample_key(1, 0)  # its question's options were paraphrased
NEGBENCH_TEMPLATES = {"affirmation": "positive", "negation": "negative", "hybrid": "hybrid"}
# What NegBench's MCQ evaluation calls a wrong pick, by the slot it is in (non-synthetic sets).
WRONG_ANSWER_TO_TYPE = {1: "hybrid", 2: "positive", 3: "negative"}


def _jpeg(colour: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), colour).save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


# Alt text as the web has it, for two images; the others' is plain.
ORIGINALS = {
    sample_key(0, 1): "IMG_2047.JPG: a puppy with a ball | Canon EOS 20D, 24mm",
    sample_key(1, 1): "DSC_0042.jpg",  # nothing but noise: exported as given
}


def _captions(key: str) -> list[CaptionRecord]:
    """An image's two captions, affirming and negating nouns as the LLM wrote them."""
    return [
        CaptionRecord(
            key=f"{key}_{i}",
            image_key=key,
            caption=text,
            negated=negated,
            negated_label=label,
            style="affirmation_first",
            generator="llm",
            original_caption=ORIGINALS.get(key, f"a puppy with a ball and its kite string, {key}"),
            affirmed=["puppy", "ball", "kite string"],
            prompt="captions@1#abc",
            model="smollm2",
            config_hash="h",
        )
        for i, (negated, label, text) in enumerate(
            [
                ("kitty", "cat", "A puppy plays with a ball, but there is no kitty."),
                ("car", "car", "No car here."),
            ]
        )
    ]


def _paraphrased(mcq: McqRecord) -> McqRecord:
    options = [mcq.caption_0, mcq.caption_1, mcq.caption_2, mcq.caption_3]
    return mcq.model_copy(
        update={
            **{f"caption_{i}": f"In other words: {o}" for i, o in enumerate(options)},
            "template_options": options,
            "paraphrased": [True] * 4,
        }
    )


def _write_with_split(
    path: Path, model: type[Record], records: list[Any], splits: list[str]
) -> None:
    """Records as the splitting change will write them: a ``split`` column beside the rest."""
    schema = arrow_schema(model).append(pa.field("split", pa.string()))
    rows = [{**r.model_dump(mode="json"), "split": s} for r, s in zip(records, splits, strict=True)]
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)


def _make_run(root: Path, splits: dict[str, str] | None = None) -> dict[str, Any]:
    """A run folder: ingested tars, NegCap and NegMCQ Parquet, publish done markers. With
    ``splits`` (image key -> split) the records carry a ``split`` field."""
    run = root / "run"
    jpegs: dict[str, bytes] = {}
    mcqs: dict[str, McqRecord] = {}
    colours = iter(COLOURS)
    for shard, count in IMAGES.items():
        keys = [sample_key(shard, i) for i in range(count)]
        samples = []
        for key in keys:
            jpegs[key] = _jpeg(next(colours))
            samples.append({"__key__": key, "jpg": jpegs[key], "txt": "a dog with a ball"})
        write_tar(run / "shards" / f"{shard:05d}.tar", samples)
        write_stats(run / "shards", shard, "h", {"successes": count})
        balancer = McqBalancer(f"shard {shard}")
        questions = [build_mcq(k, ["dog", "ball"], "cat", balancer, "h") for k in keys]
        questions = [_paraphrased(q) if q.key == PARAPHRASED else q for q in questions]
        mcqs.update({q.image_key: q for q in questions})
        captions = [c for k in keys for c in _captions(k)]
        name = f"{shard:05d}"
        if splits is None:
            write_parquet(run / "negcap_parquet" / f"{name}.parquet", CaptionRecord, captions)
            write_parquet(run / "negmcq" / f"{name}.parquet", McqRecord, questions)
        else:
            caption_splits = [splits[c.image_key] for c in captions]
            _write_with_split(
                run / "negcap_parquet" / f"{name}.parquet", CaptionRecord, captions, caption_splits
            )
            _write_with_split(
                run / "negmcq" / f"{name}.parquet", McqRecord, questions, [splits[k] for k in keys]
            )
        write_stats(run / "publish", shard, "h", {"captions": len(captions)})
    write_tar(run / "shards" / "00002.tar", [])
    write_stats(run / "shards", 2, "h", {"successes": 0})
    return {"run": run, "jpegs": jpegs, "mcqs": mcqs}


def _read_csv(path: Path) -> pd.DataFrame:
    """As every NegBench loader of these files reads them (sep=","; ``--csv-separator=,``)."""
    return pd.read_csv(path, sep=",")


def _key(path: str) -> str:
    return Path(path).stem


@pytest.fixture
def exported(tmp_path: Path) -> dict[str, Any]:
    made = _make_run(tmp_path)
    out = tmp_path / "negbench"
    counts = export_negbench(made["run"], out)
    return {**made, "out": out, "counts": counts}


def test_eval_mcq_has_the_right_answer_first_and_each_distractor_in_its_slot(
    exported: dict[str, Any],
) -> None:
    df = _read_csv(exported["out"] / "mcq_eval.csv")

    assert list(df.columns) == [
        "correct_answer",
        *[f"caption_{i}" for i in range(4)],
        "correct_answer_template",
        "image_path",
    ]
    assert len(df) == 5 and set(df["correct_answer"]) == {0}
    for _, row in df.iterrows():
        mcq = exported["mcqs"][_key(row["image_path"])]
        prefix = "In other words: " if mcq.key == PARAPHRASED else ""
        right = {
            "positive": "This image features a dog and a ball.",
            "negative": "This image does not feature a cat.",
            "hybrid": "This image features a dog, but not a cat.",
        }[row["correct_answer_template"]]
        assert row["correct_answer_template"] == NEGBENCH_TEMPLATES[mcq.correct_answer_template]
        assert [row[f"caption_{i}"] for i in range(4)] == [
            prefix + right,
            prefix + "This image features a cat, but not a dog.",  # slot 1: hybrid
            prefix + "This image features a cat.",  # slot 2: positive
            prefix + "This image does not feature a dog.",  # slot 3: negative
        ]
        # NegBench's accounting of any wrong pick finds a type for it (no KeyError).
        assert {WRONG_ANSWER_TO_TYPE[p] for p in range(4) if p != row["correct_answer"]}


def test_training_mcq_keeps_the_shuffled_options_and_names_templates_as_negbench(
    exported: dict[str, Any],
) -> None:
    df = _read_csv(exported["out"] / "mcq_train.csv")

    assert len(df) == 5
    assert set(df["correct_answer_template"]) == {"positive", "negative", "hybrid"}
    assert set(df["correct_answer"]) > {0}  # not the evaluation layout
    for idx in range(len(df)):  # as CsvMCQDataset.__getitem__ reads a row
        row = df.iloc[idx]
        mcq = exported["mcqs"][_key(row["image_path"])]
        captions = [row[f"caption_{i}"] for i in range(4)]
        assert captions == [mcq.caption_0, mcq.caption_1, mcq.caption_2, mcq.caption_3]
        assert row["correct_answer"] == mcq.correct_answer
        assert row["correct_answer_template"] == NEGBENCH_TEMPLATES[mcq.correct_answer_template]


def test_negcap_csv_has_one_row_per_image_with_literal_lists(exported: dict[str, Any]) -> None:
    df = _read_csv(exported["out"] / "negcap.csv")

    assert list(df.columns) == [
        "filepath",
        "caption",
        "positive_objects",
        "negative_objects",
        "negative_captions",
    ]
    assert [_key(p) for p in df["filepath"]] == list(exported["jpegs"])
    row = df.iloc[0]
    assert row["caption"] == "a puppy with a ball and its kite string, 000000000"
    captions = dict(zip([_key(p) for p in df["filepath"]], df["caption"], strict=True))
    assert captions[sample_key(0, 1)] == "a puppy with a ball"  # the file name and camera gone
    assert captions[sample_key(1, 1)] == "DSC_0042.jpg"
    # Names of the vocabulary, not the nouns the captions use ("puppy" is a dog); the
    # unverifiable "kite string" resolves to none.
    assert ast.literal_eval(row["positive_objects"]) == ["dog", "sports ball"]
    assert ast.literal_eval(row["negative_objects"]) == ["cat", "car"]
    assert ast.literal_eval(row["negative_captions"]) == [
        "A puppy plays with a ball, but there is no kitty.",
        "No car here.",
    ]


def test_negated_retrieval_lists_each_images_negated_captions(exported: dict[str, Any]) -> None:
    df = _read_csv(exported["out"] / "negated_retrieval.csv")

    assert list(df.columns) == ["filepath", "captions"]
    assert len(df) == 5
    for idx in range(len(df)):  # as CsvImageCaptionDataset.__getitem__ reads a row
        captions = ast.literal_eval(df.iloc[idx]["captions"])
        assert captions == [c.caption for c in _captions(_key(df.iloc[idx]["filepath"]))]


def test_every_path_opens_from_another_directory_and_each_image_is_written_once(
    exported: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = exported["out"]
    paths = set()
    for name, column in [
        ("negcap.csv", "filepath"),
        ("negated_retrieval.csv", "filepath"),
        ("mcq_train.csv", "image_path"),
        ("mcq_eval.csv", "image_path"),
    ]:
        paths |= set(_read_csv(out / name)[column])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # NegBench runs from its own checkout

    for path in paths:
        assert Path(path).is_absolute()
        with Image.open(path) as image:
            image.load()
            assert image.size == (64, 48)
        assert Path(path).read_bytes() == exported["jpegs"][_key(path)]
    written = sorted(p for p in (out / "images").rglob("*") if p.is_file())
    assert sorted(Path(p) for p in paths) == written
    assert [p.relative_to(out).as_posix() for p in written][:2] == [
        "images/00000/000000000.jpg",
        "images/00000/000000001.jpg",
    ]
    assert exported["counts"]["images"] == len(written) == 5


def test_a_second_export_is_byte_identical_and_rewrites_no_image(
    exported: dict[str, Any],
) -> None:
    out = exported["out"]
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}

    export_negbench(exported["run"], out)

    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}
    assert {p: b for p, (b, _) in after.items()} == {p: b for p, (b, _) in before.items()}
    images = [p for p in after if p.suffix == ".jpg"]
    assert images and all(after[p][1] == before[p][1] for p in images)


def test_shards_exported_in_parallel_give_the_bytes_of_one_process(tmp_path: Path) -> None:
    made = _make_run(tmp_path)
    outs = {n: tmp_path / f"negbench-{n}" for n in (1, 2)}
    for n, out in outs.items():
        export_negbench(made["run"], out, image_root="/data/images", workers=n)

    def files(out: Path) -> dict[str, bytes]:
        return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    assert files(outs[1]) == files(outs[2])
    assert len([f for f in files(outs[2]) if f.endswith(".jpg")]) == len(made["jpegs"])


def test_image_root_names_where_negbench_will_find_the_images(tmp_path: Path) -> None:
    made = _make_run(tmp_path)

    export_negbench(made["run"], tmp_path / "out", image_root="/mnt/negbench/images/")

    paths = list(_read_csv(tmp_path / "out" / "mcq_eval.csv")["image_path"])
    assert paths[0] == "/mnt/negbench/images/00000/000000000.jpg"
    assert (tmp_path / "out" / "images" / "00000" / "000000000.jpg").is_file()


def test_records_with_a_split_go_to_training_or_evaluation_files(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    splits = dict(zip(IMAGES_KEYS, ["train", "train", "test", "validation", "test"], strict=True))
    made = _make_run(tmp_path, splits)
    out = tmp_path / "out"

    with caplog.at_level(logging.WARNING, logger="negdata"):
        counts = export_negbench(made["run"], out)

    def keys(name: str, column: str) -> list[str]:
        return [_key(p) for p in _read_csv(out / name)[column]]

    train, test = ["000000000", "000000001"], ["000000002", "000010001"]
    assert keys("negcap.csv", "filepath") == keys("mcq_train.csv", "image_path") == train
    assert keys("negated_retrieval.csv", "filepath") == keys("mcq_eval.csv", "image_path") == test
    assert not (out / "images" / "00001" / "000010000.jpg").exists()  # validation: no file
    assert counts["images"] == 4
    assert "carry no split" not in caplog.text


def test_records_without_a_split_go_to_both_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    made = _make_run(tmp_path)

    with caplog.at_level(logging.WARNING, logger="negdata"):
        counts = export_negbench(made["run"], tmp_path / "out")

    assert "15 records carry no split" in caplog.text  # 10 captions, 5 questions
    assert "ingested shards are not published yet (first 00002)" in caplog.text
    assert counts["negcap.csv"] == counts["negated_retrieval.csv"] == 5
    assert counts["mcq_train.csv"] == counts["mcq_eval.csv"] == 5


def test_an_export_too_small_for_recall_at_5_says_so_and_all_splits_can_be_evaluated(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """NegBench's retrieval evaluator takes the top 5 images of each caption and the top 5
    captions of each image; a test split of 2 images makes it stop with an index error, so the
    export says so. Evaluating on every split (a sample too small to hold out 5 test images)
    gives it 5, and says that the train split is in the evaluation files."""
    splits = dict(zip(IMAGES_KEYS, ["train", "train", "test", "validation", "test"], strict=True))
    made = _make_run(tmp_path, splits)

    with caplog.at_level(logging.WARNING, logger="negdata"):
        export_negbench(made["run"], tmp_path / "test")
    [line] = [r.getMessage() for r in caplog.records if "recall@5" in r.getMessage()]
    assert line.startswith("negated_retrieval.csv holds 2 images and 4 captions of split test")
    assert "--eval-splits" in line
    caplog.clear()

    with caplog.at_level(logging.WARNING, logger="negdata"):
        counts = export_negbench(made["run"], tmp_path / "all", eval_splits=SPLITS)

    assert counts["negated_retrieval.csv"] == counts["mcq_eval.csv"] == 5
    assert counts["negated_retrieval_captions"] == 10
    assert "recall@5" not in caplog.text
    assert "the evaluation CSVs hold the train split too" in caplog.text
    frame = _read_csv(tmp_path / "all" / "negated_retrieval.csv")
    assert sorted(_key(p) for p in frame["filepath"]) == sorted(IMAGES_KEYS)
    assert counts["negcap.csv"] == 2  # training files: the train split alone, as before


@pytest.mark.parametrize(
    ("given", "evaluated"),
    [("validation,test", ["000000002", "000010000", "000010001"]), ("all", sorted(IMAGES_KEYS))],
)
def test_the_command_line_takes_the_evaluation_splits(
    tmp_path: Path, given: str, evaluated: list[str]
) -> None:
    splits = dict(zip(IMAGES_KEYS, ["train", "train", "test", "validation", "test"], strict=True))
    made = _make_run(tmp_path, splits)
    command = [sys.executable, "-c", "from negdata.cli import main; main()", "export", "negbench"]

    done = subprocess.run(
        [*command, str(made["run"]), str(tmp_path / "out"), "--eval-splits", given],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    frame = _read_csv(tmp_path / "out" / "negated_retrieval.csv")
    assert sorted(_key(p) for p in frame["filepath"]) == evaluated


def test_an_unknown_evaluation_split_is_a_usage_error_in_one_line(tmp_path: Path) -> None:
    made = _make_run(tmp_path)
    command = [sys.executable, "-c", "from negdata.cli import main; main()", "export", "negbench"]

    done = subprocess.run(
        [*command, str(made["run"]), str(tmp_path / "out"), "--eval-splits", "test,dev"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip

    assert done.returncode == 2 and not (tmp_path / "out").exists()
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("negdata: argument --eval-splits: unknown split 'dev'")


def test_a_missing_or_unfinished_run_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="no such run folder"):
        export_negbench(tmp_path / "nope", tmp_path / "out")
    made = _make_run(tmp_path)
    for marker in (made["run"] / "publish").glob("*_stats.json"):
        marker.unlink()

    command = [sys.executable, "-c", "from negdata.cli import main; main()", "export"]
    result = subprocess.run(
        [*command, "negbench", str(made["run"]), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        f"negdata: {made['run']}: no shard has finished the publish stage "
        "(no publish/NNNNN_stats.json): run the pipeline to the end first"
    ]
    assert not (tmp_path / "out").exists()


def test_a_question_whose_options_are_not_its_templates_is_left_out_of_evaluation(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An option's kind (and so its evaluation slot) is known only by its template text."""
    made = _make_run(tmp_path)
    path = made["run"] / "negmcq" / "00000.parquet"
    questions = [made["mcqs"][k] for k in IMAGES_KEYS[:3]]
    edited = questions[0].model_copy(update={"caption_0": "Something else entirely."})
    write_parquet(path, McqRecord, [edited, *questions[1:]])

    with caplog.at_level(logging.WARNING, logger="negdata"):
        counts = export_negbench(made["run"], tmp_path / "out")

    assert counts["mcq_eval.csv"] == 4 and counts["mcq_eval_left_out"] == 1
    assert counts["mcq_train.csv"] == 5  # training needs only the right answer's index
    assert "1 questions left out of mcq_eval.csv" in caplog.text
    assert "(first: 000000000)" in caplog.text
