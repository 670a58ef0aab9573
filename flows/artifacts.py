"""What the Prefect UI shows of a run besides its logs: Prefect artifacts.

- ``negdata-shard-00042``, a table per shard each time a run works on it: every stage, whether
  it ran or was already done, its seconds, its items, its LLM requests and what it dropped, by
  reason. Found under the shard task's run, and under Artifacts by key, with its history.
- ``negdata-run``, a markdown summary at the end of every ``negdata-generate`` run: shards
  finished, what this run did, what the output folder holds.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from negdata.config import Config
from negdata.shards import shard_spec

DROP_KEYS = ("failures_by_reason", "rejected", "rejects")  # reason -> count, by stage


def _dropped(stats: dict[str, Any]) -> str:
    reasons: Counter[str] = Counter()
    for key in DROP_KEYS:
        reasons.update(stats.get(key) or {})
    return ", ".join(f"{reason} {n}" for reason, n in reasons.most_common()) or "-"


def shard_rows(stages: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per stage of a shard, from the stats ``run_stage`` returned."""
    return [
        {
            "stage": name,
            "status": "done before" if stats.get("skipped") else "ran",
            "seconds": stats.get("duration_s"),
            "items": stats.get("count", stats.get("images")),
            "llm requests": stats.get("llm_requests", 0),
            "llm cache hits": stats.get("llm_cache_hits", 0),
            "dropped": _dropped(stats),
        }
        for name, stats in stages.items()
    ]


def publish_shard(cfg: Config, shard: int, stages: dict[str, dict[str, Any]]) -> None:
    """The shard's table, when this run did any of its stages."""
    from prefect.artifacts import create_table_artifact

    if all(stats.get("skipped") for stats in stages.values()):
        return
    create_table_artifact(
        table=shard_rows(stages),
        key=f"negdata-shard-{shard:05d}",
        description=f"shard {shard:05d} of {cfg.run.output_dir}",
    )


def run_markdown(cfg: Config, shards: list[int], summary: dict[str, Any]) -> str:
    this_run = summary.get("this_run") or {}
    published = summary.get("shards") or []
    done = sorted(set(shards) & set(published))
    lines = [
        f"# negdata: {cfg.run.output_dir}",
        "",
        f"- shards asked for: {shard_spec(shards)} ({len(shards)}); finished: {len(done)}",
        f"- stage-shards run: {len(this_run.get('ran', []))}, "
        f"already done: {len(this_run.get('skipped', []))}",
    ]
    for key, label in (
        ("failed_shards", "failed"),
        ("leased_elsewhere", "left to other runs"),
    ):
        if this_run.get(key):
            lines.append(f"- {label}: {shard_spec(this_run[key])}")
    if this_run.get("child_runs"):
        lines.append(f"- chunk runs: {len(this_run['child_runs'])}")
    stages = summary.get("stages") or {}
    publish = stages.get("publish") or {}
    lines += [
        "",
        f"The output folder holds {len(published)} published shards: "
        f"{publish.get('images', 0)} images, {publish.get('captions', 0)} NegCap captions, "
        f"{publish.get('mcq', 0)} NegMCQ questions.",
    ]
    rejects = summary.get("rejects_by_reason") or {}
    if rejects:
        lines += ["", "| dropped at publish | samples |", "| --- | --- |"]
        lines += [f"| {reason} | {n} |" for reason, n in sorted(rejects.items())]
    return "\n".join(lines) + "\n"


def publish_run(cfg: Config, shards: list[int], summary: dict[str, Any]) -> None:
    from prefect.artifacts import create_markdown_artifact

    create_markdown_artifact(
        markdown=run_markdown(cfg, shards, summary),
        key="negdata-run",
        description=f"the run over shards {shard_spec(shards)} of {cfg.run.output_dir}",
    )
