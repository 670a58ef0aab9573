"""`make bench-llm-start`: the local vLLM server as negdata starts it by default (the model in
vLLM's engine process, ``llm.serve.worker_process: false``; ``llm.serve.dtype: auto``, which is
float32 on a CPU without bfloat16 instructions, negdata/llm/dtype.py) against a worker process
of its own (the CPU build's own choice) and against ``llm.serve.dtype: bfloat16`` (vLLM's own
``auto`` on a CPU), in one run, on one port, taking turns.

And against ``llm.serve.cpu_threads: 1``, one thread bound to no core, which pays off where
other work shares the cores: ``--busy-cores N`` keeps N processes spinning while each batch runs.

Each start is timed from launch to the first answer of /v1/models, and each server then
generates the same batch (``--requests`` completions of ``--tokens`` tokens each, the end of text
ignored, at once, each after a prompt of ``--prompt-words`` words of its own, as negdata's
few-shot prompts are long). Printed: the median of each, and the ratios default / other.

Usage: ``python -m bench.llm_start [--starts 3] [--requests 8] [--tokens 100] [--prompt-words 400]
[--busy-cores 0]``
"""

from __future__ import annotations

import argparse
import logging
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from negdata.config import LLMConfig
from negdata.llm import LocalServer

DEFAULT = "default"
MODES: dict[str, dict[str, Any]] = {
    DEFAULT: {},
    "worker process": {"worker_process": True},
    "bfloat16": {"dtype": "bfloat16"},
    "one unbound thread": {"cpu_threads": 1},
}
SPIN = "while True: pass"  # a busy core's other work
SENTENCE = "a dog sleeps on the couch beside a lamp while a cat watches from the window"


def _prompt(request: int, words: int) -> str:
    """``words`` words that no other request's prompt begins with (no prefix cache hit)."""
    vocabulary = SENTENCE.split()
    return " ".join(
        [f"Request {request}:", *(vocabulary[i % len(vocabulary)] for i in range(words))]
    )


def _generate(server: LocalServer, requests: int, tokens: int, words: int) -> float:
    """Seconds for ``requests`` completions of ``tokens`` tokens each, sent at once."""

    def one(request: int) -> None:
        body = {"model": server.cfg.model, "prompt": _prompt(request, words),
                "max_tokens": tokens, "ignore_eos": True, "temperature": 0.0}  # fmt: skip
        httpx.post(f"{server.base_url}/completions", json=body, timeout=600).raise_for_status()

    started = time.monotonic()
    with ThreadPoolExecutor(requests) as pool:
        list(pool.map(one, range(requests)))
    return time.monotonic() - started


def measure(
    port: int, settings: dict[str, Any], requests: int, tokens: int, words: int, busy: int
) -> tuple[float, float]:
    """One start with ``llm.serve`` ``settings`` and one batch, while ``busy`` processes spin:
    (start s, batch s)."""
    base = LLMConfig()
    serve = base.serve.model_copy(update={"port": port, **settings})
    started = time.monotonic()
    with LocalServer(base.model_copy(update={"serve": serve})) as server:
        start = time.monotonic() - started
        spinning = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(busy)]
        try:
            return start, _generate(server, requests, tokens, words)
        finally:
            for process in spinning:
                process.kill()
                process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--starts", type=int, default=3, help="starts of each kind")
    parser.add_argument("--requests", type=int, default=8)
    parser.add_argument("--tokens", type=int, default=100)
    parser.add_argument("--prompt-words", type=int, default=400)
    parser.add_argument("--port", type=int, default=8797)
    parser.add_argument(
        "--busy-cores", type=int, default=0, help="processes spinning while each batch runs"
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)

    times: dict[str, list[tuple[float, float]]] = {mode: [] for mode in MODES}
    for turn in range(args.starts):
        for mode, settings in MODES.items():
            runs = measure(
                args.port, settings, args.requests, args.tokens, args.prompt_words,
                args.busy_cores,
            )  # fmt: skip
            times[mode].append(runs)
            start, batch = times[mode][-1]
            print(f"start {turn + 1}, {mode}: ready in {start:.1f} s, batch in {batch:.1f} s")
    medians = {
        mode: (statistics.median(s for s, _ in runs), statistics.median(b for _, b in runs))
        for mode, runs in times.items()
    }
    print(f"\nmedians of {args.starts} starts each ({args.requests} x {args.tokens} tokens "
          f"per batch, {args.busy_cores} cores busy):")  # fmt: skip
    for mode, (start, batch) in medians.items():
        print(f"  {mode:<26} start {start:6.1f} s   batch {batch:6.1f} s")
    default_start, default_batch = medians[DEFAULT]
    for mode, (start, batch) in medians.items():
        if mode != DEFAULT:
            print(f"ratio default / {mode}: start {default_start / start:.2f}, "
                  f"batch {default_batch / batch:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
