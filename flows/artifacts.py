"""What the Prefect UI shows of a run besides its logs: Prefect artifacts.

- ``negdata-shards-00040-00043``, a table per flow run that works on shards (a cluster's chunk
  run, or a run in one process), keyed by its first and last shard: per shard and stage,
  whether the stage ran or was already done, its seconds, its items, its LLM requests and what
  it dropped, by reason. Found under the flow run, and under Artifacts by key, with its
  history. One table per chunk, not per shard: CC12M's 1,100 shards make 275 tables in
  chunks of 4, not 1,100 keys on the Artifacts page.
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


def shard_rows(shard: int, stages: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per stage of a shard, from the stats ``run_stage`` returned."""
    return [
        {
            "shard": f"{shard:05d}",
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


def table_key(shards: list[int]) -> str:
    """``negdata-shards-00040-00043``: the first and last of the run's shards (one: just it)."""
    first, last = min(shards), max(shards)
    return f"negdata-shards-{first:05d}" + (f"-{last:05d}" if last != first else "")


def publish_shards(cfg: Config, worked: dict[int, dict[str, dict[str, Any]]]) -> None:
    """The table of the shards this flow run worked on (shard -> its stages' stats), when it
    did any stage of any of them."""
    from prefect.artifacts import create_table_artifact

    if all(stats.get("skipped") for stages in worked.values() for stats in stages.values()):
        return
    rows = [row for shard, stages in sorted(worked.items()) for row in shard_rows(shard, stages)]
    create_table_artifact(
        table=rows,
        key=table_key(list(worked)),
        description=f"shards {shard_spec(sorted(worked))} of {cfg.run.output_dir}",
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
