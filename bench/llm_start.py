"""`make bench-llm-start`: the local vLLM server with its model in the engine process (negdata's
default, ``llm.serve.worker_process: false``) against a worker process of its own (the CPU
build's own choice), in one run, on one port, taking turns.

Each start is timed from launch to the first answer of /v1/models, and each server then
generates the same batch (``--requests`` completions of ``--tokens`` tokens each, the end of text
ignored, at once). Printed: the median of each, and the ratio default / baseline.

Usage: ``python -m bench.llm_start [--starts 3] [--requests 8] [--tokens 100]``
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from negdata.config import LLMConfig
from negdata.llm import LocalServer

MODES = {"engine process (default)": False, "worker process (baseline)": True}


def _generate(server: LocalServer, requests: int, tokens: int) -> float:
    """Seconds for ``requests`` completions of ``tokens`` tokens each, sent at once."""
    body = {"model": server.cfg.model, "prompt": "A photo of", "max_tokens": tokens,
            "ignore_eos": True, "temperature": 0.0}  # fmt: skip

    def one(_: int) -> None:
        httpx.post(f"{server.base_url}/completions", json=body, timeout=300).raise_for_status()

    started = time.monotonic()
    with ThreadPoolExecutor(requests) as pool:
        list(pool.map(one, range(requests)))
    return time.monotonic() - started


def measure(port: int, worker_process: bool, requests: int, tokens: int) -> tuple[float, float]:
    """One start and one batch: (start seconds, batch seconds)."""
    base = LLMConfig()
    serve = base.serve.model_copy(update={"port": port, "worker_process": worker_process})
    started = time.monotonic()
    with LocalServer(base.model_copy(update={"serve": serve})) as server:
        start = time.monotonic() - started
        return start, _generate(server, requests, tokens)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--starts", type=int, default=3, help="starts of each kind")
    parser.add_argument("--requests", type=int, default=8)
    parser.add_argument("--tokens", type=int, default=100)
    parser.add_argument("--port", type=int, default=8797)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)

    times: dict[str, list[tuple[float, float]]] = {mode: [] for mode in MODES}
    for turn in range(args.starts):
        for mode, worker_process in MODES.items():
            times[mode].append(measure(args.port, worker_process, args.requests, args.tokens))
            start, batch = times[mode][-1]
            print(f"start {turn + 1}, {mode}: ready in {start:.1f} s, batch in {batch:.1f} s")
    medians = {
        mode: (statistics.median(s for s, _ in runs), statistics.median(b for _, b in runs))
        for mode, runs in times.items()
    }
    print(f"\nmedians of {args.starts} starts each "
          f"({args.requests} x {args.tokens} tokens per batch):")  # fmt: skip
    for mode, (start, batch) in medians.items():
        print(f"  {mode:<26} start {start:6.1f} s   batch {batch:6.1f} s")
    (default_start, default_batch), (base_start, base_batch) = medians.values()
    print(f"ratio default / baseline: start {default_start / base_start:.2f}, "
          f"batch {default_batch / base_batch:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
