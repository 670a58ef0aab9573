"""The summary a person reads at the end of a run: counts per stage, rejects, where outputs are."""

from __future__ import annotations

from typing import Any

from negdata.config import Config
from negdata.shards import shard_spans


def format_summary(cfg: Config, summary: dict[str, Any]) -> str:
    out = cfg.run.output_dir
    shards = summary["shards"]
    head = f"shards {_spans(shards)} published" if shards else "no shard published yet"
    lines = [f"negdata run in {out}: {head}"]
    markers = summary.get("done_markers")
    if markers:
        lines.append("shards done, by stage: " + ", ".join(f"{k} {v}" for k, v in markers.items()))
    lines += ["", "stage      counts"]
    for stage, counts in summary["stages"].items():
        shown = ", ".join(f"{k}={v}" for k, v in counts.items() if not k.endswith("_s"))
        lines.append(f"  {stage:<9}{shown}")
    lines += ["", "published"]
    lines += [f"  {k:<40}{v}" for k, v in summary["published"].items()]
    lines += ["", "rejects by reason"]
    lines += [f"  {k:<40}{v}" for k, v in summary["rejects_by_reason"].items()] or ["  none"]
    lines += ["", "llm (cached replies included)"]
    lines += [f"  {k:<40}{v}" for k, v in summary.get("llm", {}).items()]
    lines += ["", f"{'diversity':<28}captions  distinct-1  distinct-2  distinct-3  frame reuse"]
    for group, d in summary.get("diversity", {}).items():
        cells = [d[k] for k in ("distinct_1", "distinct_2", "distinct_3", "frame_reuse")]
        lines.append(f"  {group:<26}{d['captions']:>8}" + "".join(f"{_num(c):>12}" for c in cells))
    this_run = summary.get("this_run")
    if this_run:
        lines += ["", f"this run: {len(this_run['ran'])} stage-shards ran, "
                      f"{len(this_run['skipped'])} were already done"]  # fmt: skip
        if this_run.get("leased_elsewhere"):
            shards = ", ".join(f"{s:05d}" for s in this_run["leased_elsewhere"])
            lines.append(f"  left to the other runs working on them: shards {shards}")
        if this_run.get("retried"):
            lines.append(f"  ingest retried {this_run['retried']} failed rows, "
                         f"recovered {this_run['recovered']}")  # fmt: skip
        sent = this_run.get("llm_sent")
        if sent and any(sent.values()):
            lines.append("  llm, this run's own requests: " +
                         ", ".join(f"{k}={v}" for k, v in sent.items()))  # fmt: skip
        server = this_run.get("llm_server")
        if server:
            lines.append("  llm server (its /metrics while this run ran; every client counts): " +
                         ", ".join(f"{k}={v}" for k, v in server.items()))  # fmt: skip
    lines += [
        "",
        "outputs",
        f"  NegCap (open_clip WebDataset) {out}/negcap/{{train,validation,test}}/*.tar, sizes.json",
        f"  NegCap Parquet                {out}/negcap_parquet/{{train,validation,test}}/*.parquet",
        f"  NegMCQ Parquet                {out}/negmcq/{{train,validation,test}}/*.parquet",
        f"  rejects                       {out}/rejects/*.parquet",
        f"  run stats                     {out}/stats.json",
    ]
    return "\n".join(lines)


def _spans(shards: list[int]) -> str:
    """``[0, 1, 2, 3, 7]`` -> ``"00000-00003, 00007"``."""
    return ", ".join(f"{a:05d}" if a == b else f"{a:05d}-{b:05d}" for a, b in shard_spans(shards))


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def print_summary(cfg: Config, summary: dict[str, Any]) -> None:
    print(format_summary(cfg, summary))
