"""`make bench-scale`'s machinery end to end at 50 URLs (a shard of 40 and one of 10): the
corpus served on loopback, every stage of both shards through the CLI, measured, the run's end
and `negdata verify`, the report and the projection; and the LLM stand-in's answers to the
real prompts, valid in their schemas and the same bytes for the same request."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from pydantic import BaseModel

from bench.scale.__main__ import measured_costs
from bench.scale.corpus import expected_failures
from bench.scale.journal import Plan
from bench.scale.projection import CC12M_URLS, Cluster, GpuFigures, Measured, project
from bench.scale.report import projection_lines, scaling_table, stage_table
from bench.scale.run import MODEL, ROOT, BenchRun, Server, run_bench
from negdata.compose.schemas import ComposeOutput, ParaphraseOutput, PlanOutput
from negdata.llm.client import response_format
from negdata.llm.prompts import load_prompt
from negdata.publish import layout
from negdata.shards import shard_name
from negdata.stages import STAGES
from negdata.validate.judge import JudgeOutput

PLAN = Plan(shards=1, per_shard=40, small=10, seed=3, bank=8, llm_tokens_per_s=0,
            verify_workers=1)  # fmt: skip


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BenchRun]:
    work = tmp_path_factory.mktemp("bench-scale")
    return work, run_bench(work, PLAN)


def test_ingest_counts_each_failure_of_the_corpus_with_its_reason(
    bench: tuple[Path, BenchRun],
) -> None:
    _, run = bench
    for stage in (r for r in run.stages if r.stage == "ingest"):
        start = stage.shard * PLAN.per_shard
        expected = expected_failures(PLAN.seed, stage.urls, start)
        assert stage.stats["failures_by_reason"] == dict(expected)
        assert stage.stats["count"] == stage.urls
    failed = sum(expected_failures(PLAN.seed, PLAN.urls).values())
    assert 0.2 < failed / PLAN.urls < 0.5  # about 35%, as CC12M today


def test_every_stage_of_every_shard_is_measured(bench: tuple[Path, BenchRun]) -> None:
    _, run = bench
    assert [(r.stage, r.shard) for r in run.stages] == [
        (stage.name, shard) for shard in (0, 1) for stage in STAGES
    ]
    for r in run.stages:
        m = r.measured
        assert m.wall_s > 0 and m.cpu_s > 0, r
        assert m.largest_rss_mib > 50 and m.tree_rss_mib >= m.largest_rss_mib * 0.5, r
        assert any(p.endswith("_stats.json") for p in m.written), (r.stage, m.written)
    assert set(run.run_end) == {"summarize", "verify-1"}


def test_published_records_exist_and_verify(bench: tuple[Path, BenchRun]) -> None:
    work, run = bench
    out = work / "out"
    for shard in (0, 1):
        captions = layout.published_captions(out, shard_name(shard))
        images = next(r.images for r in run.stages if r.stage == "ingest" and r.shard == shard)
        assert len(captions) >= images  # at least one caption per image, as a rule three
        assert all(c.generator == "llm" and c.model == MODEL for c in captions)
        assert all(c.negated in c.caption.lower() for c in captions)
    assert (work / "logs" / "verify-1.log").read_text().rstrip().endswith(": OK")


def test_the_report_and_projection_name_every_stage(bench: tuple[Path, BenchRun]) -> None:
    _, run = bench
    tables = "\n".join([*stage_table(run), *scaling_table(run)])
    for stage in STAGES:
        assert f"| {stage.name} |" in tables
    measured = measured_costs(run)
    assert measured.tokens_per_image > 0 and 0 < measured.success < 1
    projection = project(measured, GPU, CLUSTER, CC12M_URLS)
    assert {ld.stage for ld in projection.loads} >= set(measured.cpu_s)
    assert all(ld.seconds > 0 for ld in projection.loads)
    assert projection.cores_per_gpu > 0
    assert any(line.startswith("=> ") for line in projection_lines(projection))


def test_a_resumed_run_reads_back_what_ended_and_runs_the_rest(
    bench: tuple[Path, BenchRun],
) -> None:
    """The last test on ``bench``: its journal cut as a session's end would cut it, in the
    first stage of shard 1, then the run resumed."""
    work, first = bench
    journal = work / "journal.jsonl"
    lines = [json.loads(line) for line in journal.read_text().splitlines()]
    ended = [i for i, line in enumerate(lines) if line.get("stage", {}).get("shard") == 0]
    kept = [*lines[: ended[-1] + 1], {"started": "ingest 00001"}]
    journal.write_text("".join(json.dumps(line) + "\n" for line in kept))
    written = journal.read_text()
    with pytest.raises(ValueError, match="another plan"):
        run_bench(work, replace(PLAN, seed=4), resume=True)
    assert journal.read_text() == written  # refused before anything changed
    logs = {p: p.stat().st_mtime_ns for p in (work / "logs").glob("*-00000.log")}

    resumed = run_bench(work, PLAN, resume=True)

    order = [(r.stage, r.shard) for r in first.stages]
    assert [(r.stage, r.shard) for r in resumed.stages] == order
    assert resumed.stages[:5] == first.stages[:5]  # read back, not run again
    assert {p: p.stat().st_mtime_ns for p in logs} == logs
    assert [r.cut_off for r in resumed.stages] == [False] * 5 + [True] + [False] * 4
    assert all(r.measured.wall_s > 0 for r in resumed.stages[5:])
    assert resumed.server_cpu_s["llm"] > kept[-2]["servers"]["llm"]  # both sessions' servers
    assert set(resumed.run_end) == {"summarize", "verify-1"}
    assert (work / "logs" / "verify-1.log").read_text().rstrip().endswith(": OK")
    again = run_bench(work, PLAN, resume=True)  # all ended: everything read back
    assert again.stages == resumed.stages and again.run_end == resumed.run_end


GPU = GpuFigures(llm_tokens_per_s=12_000, detect_images_per_s=286, decode_cpu_s=0.002)
CLUSTER = Cluster(nodes=8, gpus_per_node=8, cores_per_node=64, node_gbps=10)


def _costs(cpu_s_per_image: float) -> Measured:
    return Measured(
        cpu_s={"ingest": 0.01, "plan": cpu_s_per_image},
        verify_cpu_s=0.001,
        tokens_per_image=2_000,
        success=0.5,
        original_bytes=100_000,
    )


@pytest.mark.parametrize(
    ("cpu_s_per_image", "bottleneck", "stage"),
    [(0.01, "gpu", "plan + compose (LLM)"), (2.0, "cpu", "plan")],
)
def test_the_projection_is_bound_by_its_busiest_resource(
    cpu_s_per_image: float, bottleneck: str, stage: str
) -> None:
    """For 10^6 images: 2,000 tokens an image at 12k tokens/s, and detection, is 0.74 h on 64
    GPUs; 2 CPU seconds an image on 512 cores is 1.1 h, a hundredth of a second 0.02 h."""
    projection = project(_costs(cpu_s_per_image), GPU, CLUSTER, 2_000_000)
    assert projection.images == 1_000_000
    assert projection.hours("gpu") == pytest.approx((1e6 * 2_000 / 12_000 + 1e6 / 286) / 64 / 3600)
    assert projection.bottleneck == bottleneck
    assert projection.bottleneck_stage.stage == stage


def _body(prompt: str, schema: type[BaseModel], **fields: str) -> dict[str, Any]:
    """A chat request as negdata's client sends it, with the repo's own prompt."""
    return {
        "model": MODEL,
        "messages": load_prompt(ROOT / "prompts", prompt).messages(**fields),
        "max_tokens": 512,
        "temperature": 0.8,
        "response_format": response_format("vllm", schema),
    }


REQUESTS = [
    (_body("plan", PlanOutput, caption="A puppy and a woman in a sunny park #travel",
           detected="dog, person"), PlanOutput),
    (_body("compose", ComposeOutput, caption="A puppy and a woman in a sunny park",
           affirm="dog, woman", requests=json.dumps([
               {"negated": "bicycle", "style": "affirmation_first"},
               {"negated": "scissors", "style": "negation_first"}])), ComposeOutput),
    (_body("paraphrase", ParaphraseOutput, option_0="This image features a dog, but not a kite.",
           option_1="This image does not feature a dog.", option_2="This image features a kite.",
           option_3="This image features a kite, but not a dog."), ParaphraseOutput),
    (_body("judge", JudgeOutput, caption="A dog in a park, but no kite.", objects="dog, kite"),
     JudgeOutput),
]  # fmt: skip


@pytest.fixture(scope="module")
def stand_in(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The stand-in, unpaced: its chat-completions URL."""
    log = tmp_path_factory.mktemp("stand-in") / "stand-in.log"
    server = Server("LLM stand-in", [sys.executable, "-m", "bench.scale.llm_standin", "0", MODEL],
                    log)  # fmt: skip
    yield f"http://127.0.0.1:{server.address['port']}/v1/chat/completions"
    server.stop()


@pytest.mark.parametrize(
    ("body", "schema"), REQUESTS, ids=["plan", "compose", "paraphrase", "judge"]
)
def test_the_llm_stand_in_answers_in_the_schema_the_same_bytes_each_time(
    body: dict[str, Any], schema: type[BaseModel], stand_in: str
) -> None:
    replies = [httpx.post(stand_in, json=body).content for _ in range(2)]
    assert replies[0] == replies[1]
    reply = json.loads(replies[0])
    content = reply["choices"][0]["message"]["content"]
    jsonschema.validate(json.loads(content), body["response_format"]["json_schema"]["schema"])
    answer = schema.model_validate_json(content)
    assert reply["usage"]["prompt_tokens"] > 100 and reply["usage"]["completion_tokens"] > 0
    if isinstance(answer, PlanOutput):
        assert answer.mentioned == ["puppy", "woman"]
        assert 5 <= len(answer.absent_candidates) <= 8
        assert not {"dog", "person"} & set(answer.absent_candidates)
    if isinstance(answer, ComposeOutput):
        assert [(c.negated, c.style) for c in answer.captions] == [
            ("bicycle", "affirmation_first"), ("scissors", "negation_first")]  # fmt: skip
        assert "no bicycle" in answer.captions[0].text
        assert answer.captions[1].text.lower().startswith(("there are no scissors", "no scissors",
                                                           "without any scissors"))  # fmt: skip
    if isinstance(answer, ParaphraseOutput):
        assert answer.options[1] in ("There is no dog in this picture.", "No dog can be seen here.")
