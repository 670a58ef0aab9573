"""One response cache per shard, beside its outputs: on a local or shared file system and on an
object store (moto on loopback), a shard resumed by another machine finds every answer the last
holder of its lease was paid for. The "machines" are separate processes, each with its own
``NEGDATA_CACHE`` and host identity (``NEGDATA_HOST``)."""

from __future__ import annotations

import inspect
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from upath import UPath

from negdata.config import Config
from negdata.llm.cache import FLUSH_EVERY, ResponseCache, request_key, shard_cache, shard_folder
from negdata.shards import Location

ANSWERS = 200


def body(i: int) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": f"question {i}"}]}


def reply(i: int) -> dict[str, Any]:
    return {"choices": [{"message": {"content": f"answer {i}"}}], "usage": {"total_tokens": 3}}


# A machine answering the shard's requests one by one: it prints each answer's index once
# ``put`` has returned, and works on until it is done or killed.
_MACHINE = """
import json, pathlib, sys, time
from upath import UPath
from negdata.llm.cache import ResponseCache
folder, options = sys.argv[1], json.loads(sys.argv[2])
cache = ResponseCache(UPath(folder, **options) if "://" in folder else pathlib.Path(folder))
for i in range(int(sys.argv[3])):
    if cache.get(body(i)) is None:
        cache.put(body(i), reply(i))
    print(i, flush=True)
    time.sleep(0.01)
cache.close()
"""


def _machine(folder: str, options: dict[str, Any], host: str, tmp: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "NEGDATA_HOST": host, "NEGDATA_CACHE": str(tmp / host)}
    script = "from typing import Any\n" + inspect.getsource(body) + inspect.getsource(reply)
    script += _MACHINE
    return subprocess.Popen(
        [sys.executable, "-c", script, folder, json.dumps(options), str(ANSWERS)],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )


def _kill_after(machine: subprocess.Popen[str], answered: int) -> int:
    """SIGKILL ``machine`` once it has reported ``answered`` answers; how many it reported."""
    assert machine.stdout is not None
    done = 0
    for _ in range(answered):
        machine.stdout.readline()
        done += 1
    machine.send_signal(signal.SIGKILL)
    machine.wait()
    return done


def _resume_on_another_machine(folder: Location, options: dict[str, Any], tmp: Path) -> int:
    """Machine A is killed mid-shard; machine B finishes it. Returns how many more answers B
    found than A had reported received (negative: answers A lost)."""
    a = _machine(str(folder), options, "host-a", tmp)
    paid = _kill_after(a, 60)
    found = ResponseCache(folder)
    cached = len(found)
    for i in range(cached):  # the first answers, each A's own
        assert found.get(body(i)) == reply(i)
    found.close()
    b = _machine(str(folder), options, "host-b", tmp)
    assert b.wait(timeout=60) == 0
    whole = ResponseCache(folder)
    assert [whole.get(body(i)) for i in range(ANSWERS)] == [reply(i) for i in range(ANSWERS)]
    whole.close()
    return cached - paid


def _config(out: Path, cache: bool = True) -> Config:
    raw = yaml.safe_load(Path("configs/sample.yaml").read_text())
    raw["run"]["output_dir"] = str(out)
    raw["llm"] = {**raw.get("llm", {}), "cache": cache}
    return Config.model_validate(raw)


def test_a_shard_resumed_on_another_machine_reuses_every_answer_paid_for(tmp_path: Path) -> None:
    folder = tmp_path / "out" / "llm_cache" / "00000"
    kept = _resume_on_another_machine(folder, {}, tmp_path)
    assert kept >= 0  # every answer A had received was on disk when it died
    parts = sorted(folder.glob("*.jsonl"))  # one part per machine, the earlier first
    assert len(parts) == 2 and "-host-a-" in parts[0].name and "-host-b-" in parts[1].name


def test_on_an_object_store_answers_go_out_in_parts_as_they_arrive(
    tmp_path: Path, bucket: str, s3_options: dict[str, Any]
) -> None:
    options = {**s3_options, "use_listings_cache": False}  # as a run's output folder has it
    folder = UPath(f"s3://{bucket}/out/llm_cache/00000", **options)
    kept = _resume_on_another_machine(folder, options, tmp_path)
    # A lost at most what it had not flushed yet: FLUSH_EVERY answers or FLUSH_S seconds.
    assert -FLUSH_EVERY < kept <= 1
    assert any("-host-a-" in p.name for p in folder.glob("*.jsonl"))  # written before it died


def test_a_part_cut_short_by_a_kill_is_read_up_to_its_last_whole_line(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    cache.put(body(1), reply(1))
    cache.put(body(2), reply(2))
    [part] = tmp_path.glob("*.jsonl")
    with part.open("a") as torn:
        torn.write('{"key": "' + request_key(body(3)) + '", "reply": {"choi')
    again = ResponseCache(tmp_path)
    assert (again.get(body(1)), again.get(body(2)), again.get(body(3))) == (
        reply(1),
        reply(2),
        None,
    )
    again.put(body(3), reply(3))  # asked again and kept, in a part of its own
    assert ResponseCache(tmp_path).get(body(3)) == reply(3)


def test_the_first_answer_kept_for_a_request_is_the_one_served(tmp_path: Path) -> None:
    first, second = ResponseCache(tmp_path), ResponseCache(tmp_path)  # two openings racing
    first.put(body(1), reply(1))
    time.sleep(0.001)
    second.put(body(1), reply(2))
    assert ResponseCache(tmp_path).get(body(1)) == reply(1)


def test_a_cache_of_an_earlier_version_is_read_into_the_shards(tmp_path: Path) -> None:
    """A run-wide ``llm_cache.sqlite`` in the output folder (the form before per-shard caches):
    its answers are served, and copied into the shard's cache as they are."""
    out = tmp_path / "out"
    out.mkdir()
    with sqlite3.connect(out / "llm_cache.sqlite") as db:
        db.execute("CREATE TABLE replies (key TEXT PRIMARY KEY, reply TEXT)")
        db.execute(
            "INSERT INTO replies VALUES (?, ?)",
            (request_key(body(7), "000000007"), json.dumps(reply(7))),
        )
    cfg = _config(out)
    with shard_cache(cfg, 0) as cache:
        assert cache is not None and cache.get(body(7), "000000007") == reply(7)
        assert cache.get(body(7)) is None  # another item's answer is not this one
    (out / "llm_cache.sqlite").unlink()
    assert ResponseCache(shard_folder(out, 0)).get(body(7), "000000007") == reply(7)


def test_with_caching_off_there_is_no_cache(tmp_path: Path) -> None:
    cfg = _config(tmp_path, cache=False)
    with shard_cache(cfg, 0) as cache:
        assert cache is None
    assert not (tmp_path / "llm_cache").exists()


@pytest.mark.parametrize("shard", [0, 12])
def test_each_shard_keeps_its_own_answers(tmp_path: Path, shard: int) -> None:
    cfg = _config(tmp_path)
    with shard_cache(cfg, shard) as cache:
        assert cache is not None
        cache.put(body(shard), reply(shard))
    with shard_cache(cfg, shard + 1) as other:
        assert other is not None and other.get(body(shard)) is None
    assert [p.parent.name for p in tmp_path.glob("llm_cache/*/*.jsonl")] == [f"{shard:05d}"]
