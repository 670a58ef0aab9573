"""The cluster, on loopback: a real Prefect server with basic auth, `make deploy`'s pools and
deployments, and real process workers, one per GPU, all holding the server's credentials, as on
a cluster. The GPUs are fake (CUDA_VISIBLE_DEVICES=0 and 1 on a machine without one: detection
runs on the CPU); everything else is what a cluster runs.

The runs are of the session's sample run's input and settings (tests/conftest.py), shards 0-3 in
chunks of two, into output folders of their own holding a copy of its response cache: they pay
no LLM time, and must write what it wrote. The Prefect server is the session's: a test looks at
its own runs' artifacts, and starts from no leftover run or GPU slot of another test."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import httpx
import psutil
import pytest

from negdata.config import load_config
from negdata.stages import STAGES as PIPELINE_STAGES
from negdata.stages import stage_done
from tests.conftest import sample_run_config, written_outputs

if TYPE_CHECKING:
    from tests.conftest import PrefectServer, SampleRun

SHARDS = "0-3"  # of the sample run: 4 per shard, in 2 chunks of 2 (the kill test: 1 of 2)
COUNT = 4
STAGES = ("ingest", "detect", "plan", "compose", "publish")
WORKED = re.compile(r"(ingest|detect|plan|compose|publish) shard (\d{5}):")


def _config(root: Path, name: str, sample_run: SampleRun, chunk: int = 2) -> Path:
    return sample_run_config(sample_run, root, name, lease_ttl_s=8, shards_per_chunk=chunk)


def _run(command: list[str], env: dict[str, str], timeout: float = 900) -> str:
    done = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stderr


class Workers:
    """``flows/workers.py`` processes, each in a process group of its own, logging to files."""

    def __init__(self, env: dict[str, str], folder: Path) -> None:
        self.env = env
        self.folder = folder
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: dict[str, IO[bytes]] = {}

    def start(self, name: str, *args: str) -> None:
        self.logs[name] = (self.folder / f"{name}.log").open("wb")
        self.procs[name] = subprocess.Popen(
            [sys.executable, "flows/workers.py", *args],
            env=self.env, stdout=self.logs[name], stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(errors="replace")

    def kill(self, name: str) -> list[psutil.Process]:
        """SIGKILL the worker's process group, as an operator or an out-of-memory kill does;
        returns the processes it had started in sessions of their own (its flow runs), which
        the signal missed."""
        proc = self.procs[name]
        family = psutil.Process(proc.pid).children(recursive=True)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return [p for p in family if p.is_running() and os.getsid(p.pid) != proc.pid]

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        for log in self.logs.values():
            log.close()


def _clean_slate(server: PrefectServer) -> None:
    """No deployment run left waiting or running by another test, no GPU slot held by one of
    its workers that was killed: every worker here starts from what `make deploy` makes."""
    live = {"state": {"type": {"any_": ["SCHEDULED", "PENDING", "RUNNING"]}}}
    for run in server.post("/flow_runs/filter", {"flow_runs": live}):
        if run["deployment_id"]:
            server.post(f"/flow_runs/{run['id']}/set_state",
                        {"state": {"type": "CANCELLED"}, "force": True})  # fmt: skip
    for limit in server.post("/v2/concurrency_limits/filter"):
        if limit["name"].startswith("negdata-gpu-"):
            httpx.delete(f"{server.url}/v2/concurrency_limits/{limit['id']}",
                         auth=server.basic_auth, timeout=10.0).raise_for_status()  # fmt: skip


@pytest.fixture
def cluster(
    prefect_server: PrefectServer, tmp_path: Path
) -> Iterator[tuple[dict[str, str], Workers]]:
    _clean_slate(prefect_server)
    env = {**os.environ, **prefect_server.env, "PREFECT_WORKER_QUERY_SECONDS": "1"}
    workers = Workers(env, tmp_path)
    yield env, workers
    workers.stop()


def test_the_server_refuses_whoever_lacks_its_credentials(prefect_server: PrefectServer) -> None:
    def status(auth: tuple[str, str] | None) -> int:
        reply = httpx.post(f"{prefect_server.url}/flow_runs/filter", json={}, auth=auth,
                           timeout=10.0)  # fmt: skip
        return reply.status_code

    user, password = prefect_server.auth.split(":", 1)
    assert status(None) == 401
    assert status((user, "not-the-password")) == 401
    assert status((user, password)) == 200
    assert httpx.get(f"{prefect_server.url}/health", timeout=10.0).status_code == 200  # probes

    anonymous = {**os.environ, "PREFECT_API_URL": prefect_server.url}
    anonymous.pop("PREFECT_API_AUTH_STRING", None)
    refused = subprocess.run(
        [sys.executable, "flows/workers.py", "--gpus", "0"], env=anonymous,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert refused.returncode != 0
    [line] = refused.stderr.strip().splitlines()
    assert "401" in line and "PREFECT_API_AUTH_STRING" in line

    # NEGDATA_PREFECT_AUTH alone: make's targets pass it on, a program started without make
    # is told so, in the variable's own name.
    make_user = {**anonymous, "NEGDATA_PREFECT_AUTH": prefect_server.auth}
    refused = subprocess.run(
        [sys.executable, "flows/workers.py", "--gpus", "0"], env=make_user,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    [line] = refused.stderr.strip().splitlines()
    assert "401" in line and 'PREFECT_API_AUTH_STRING="$NEGDATA_PREFECT_AUTH"' in line
    listed = subprocess.run(
        ["make", "-s", "prefect", "ARGS=work-pool ls"], env=make_user,
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr[-2000:]


def test_a_config_that_would_start_a_vllm_per_chunk_run_is_refused_at_deploy() -> None:
    """`configs/sample.yaml` serves SmolLM2 itself (llm.local: true): fine for one process, but
    every chunk run of a cluster would start one on the same port. Refused before any server
    is reached."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_API")}
    refused = subprocess.run(
        [sys.executable, "flows/deploy.py", "--config", "configs/sample.yaml", "--shards", "0"],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert refused.returncode == 1
    [line] = refused.stderr.strip().splitlines()
    assert "llm.local: true would start a vLLM in every chunk run" in line


def test_a_worker_that_exits_leaves_the_others_running() -> None:
    """`make worker GPUS=0,1`: one worker dying (its GPU lost, say) does not stop the other."""
    import logging

    from flows.workers import log, watch

    def worker(code: int, seconds: float) -> subprocess.Popen[bytes]:
        script = f"import sys, time; time.sleep({seconds}); sys.exit({code})"
        return subprocess.Popen([sys.executable, "-c", script])

    class Heard(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.WARNING)
            self.said: list[str] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.said.append(record.getMessage())

    heard = Heard()
    dying, living = worker(3, 0.1), worker(0, 3.0)
    log.addHandler(heard)
    try:
        watch({"gpu0@here": dying, "gpu1@here": living}, every_s=0.1)
    finally:
        log.removeHandler(heard)
    assert living.returncode == 0  # it ran to its own end
    assert heard.said == [
        "worker gpu0@here exited (code 3); 1 other(s) go on",
        "worker gpu1@here exited (code 0); 0 other(s) go on",
    ]


def _worked(*logs: str) -> Counter[tuple[str, str]]:
    return Counter(m.groups() for text in logs for m in WORKED.finditer(text))


def _artifacts(server: PrefectServer, out: Path) -> dict[str, dict[str, Any]]:
    """The latest artifact of every key on the server that is about the run into ``out``."""
    found = server.post("/artifacts/latest/filter")
    return {a["key"]: a for a in found if (a["description"] or "").endswith(f" of {out}")}


def _crons(server: PrefectServer) -> list[str]:
    """The parent deployment's schedules, as cron strings."""
    [deployment] = [d for d in server.post("/deployments/filter") if d["name"] == "cluster"]
    return [s["schedule"]["cron"] for s in deployment["schedules"]]


def test_deploying_again_keeps_the_schedule_unless_told_to_remove_it(
    prefect_server: PrefectServer,
    tmp_path: Path,
    sample_run: SampleRun,
    cluster: tuple[dict[str, str], Workers],
) -> None:
    """README says to run `make deploy` again after changing the config: that must not drop
    the nightly schedule an earlier `make deploy CRON=...` made."""
    env, _ = cluster
    config = _config(tmp_path, "scheduled", sample_run)
    deploy = [sys.executable, "flows/deploy.py", "--config", str(config), "--shards", SHARDS]
    _run([*deploy, "--cron", "0 2 * * *"], env)
    assert _crons(prefect_server) == ["0 2 * * *"]
    _run([*deploy[:-1], "0-1"], env)  # the config or the shards changed
    assert _crons(prefect_server) == ["0 2 * * *"]
    _run([*deploy, "--cron", "30 3 * * *"], env)
    assert _crons(prefect_server) == ["30 3 * * *"]
    _run([*deploy, "--no-schedule"], env)
    assert _crons(prefect_server) == []


def test_a_cluster_run_does_every_stage_of_every_shard_once_and_matches_one_process(
    prefect_server: PrefectServer,
    tmp_path: Path,
    sample_run: SampleRun,
    cluster: tuple[dict[str, str], Workers],
) -> None:
    """The reference is the session's run of the sample, made by one process."""
    env, workers = cluster
    config = _config(tmp_path, "cluster", sample_run)

    _run([sys.executable, "flows/deploy.py", "--config", str(config), "--shards", SHARDS], env)
    workers.start("gpus", "--gpus", "0,1")
    followed = _run(
        [sys.executable, "flows/generate.py", "--shards", SHARDS, "--config", str(config),
         "--cluster"], env,
    )  # fmt: skip

    assert f"{COUNT} of {COUNT} shards finished" in followed
    assert _worked(workers.log("gpus")) == {
        (st, f"{s:05d}"): 1 for st in STAGES for s in range(COUNT)
    }
    artifacts = _artifacts(prefect_server, tmp_path / "cluster")  # a table per chunk run
    assert sorted(artifacts) == [
        "negdata-run", "negdata-shards-00000-00001", "negdata-shards-00002-00003",
    ]  # fmt: skip
    table = json.loads(artifacts["negdata-shards-00002-00003"]["data"])
    assert [(row["shard"], row["stage"], row["status"]) for row in table] == [
        (shard, st, "ran") for shard in ("00002", "00003") for st in STAGES
    ]
    assert f"finished: {COUNT}" in artifacts["negdata-run"]["data"]
    assert "gpu0@" in workers.log("gpus") and "gpu1@" in workers.log("gpus")
    reference_outputs = written_outputs(sample_run.out, range(COUNT))
    assert len(reference_outputs) > COUNT * 4
    assert written_outputs(tmp_path / "cluster") == reference_outputs


def test_a_worker_killed_mid_shard_loses_its_shards_to_the_other_after_the_lease_expires(
    prefect_server: PrefectServer,
    tmp_path: Path,
    sample_run: SampleRun,
    cluster: tuple[dict[str, str], Workers],
) -> None:
    """Shards 0-1 in one chunk, two GPU workers waiting for it: whichever takes it is killed
    once it has finished a stage of a shard, and the other, already polling, gets the chunk's
    next child run (one child run to do, not two in a row)."""
    env, workers = cluster
    shards, count = "0-1", 2
    config = _config(tmp_path, "cluster", sample_run, chunk=count)
    _run([sys.executable, "flows/deploy.py", "--config", str(config), "--shards", shards], env)
    workers.start("parent", "--role", "parent")
    for gpu in ("0", "1"):
        workers.start(f"gpu{gpu}", "--gpus", gpu, "--role", "chunks")
    follow = subprocess.Popen(
        [sys.executable, "flows/generate.py", "--shards", shards, "--config", str(config),
         "--cluster"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 300
    while not (working := [n for n in ("gpu0", "gpu1") if WORKED.search(workers.log(n))]):
        assert time.monotonic() < deadline and follow.poll() is None
        time.sleep(0.1)
    [doomed] = working  # it has finished a stage of a shard; the other has done nothing
    survivor = "gpu1" if doomed == "gpu0" else "gpu0"
    orphans = workers.kill(doomed)
    doomed_log = workers.log(doomed)
    assert orphans  # its chunk run, in a session of its own
    _, alive = psutil.wait_procs(orphans, timeout=60)
    assert not alive  # the chunk run ended with its worker

    _, err = follow.communicate(timeout=900)

    assert follow.returncode == 0, err[-3000:]
    cfg = load_config(config)
    assert all(stage_done(cfg, st, s) for st in PIPELINE_STAGES for s in range(count))  # none lost
    # What a worker's flow runs print reaches its log through the worker, so the doomed one's
    # last lines may die with it: the logs show what ran twice, the done markers what is done.
    assert max(_worked(doomed_log, workers.log(survivor)).values()) == 1  # nothing done twice
    assert WORKED.search(workers.log(survivor))  # the survivor did the rest
    parent_log = workers.log("parent")
    assert "its worker went silent" in parent_log or "its child run crashed" in parent_log
    published = sorted((tmp_path / "cluster" / "publish").glob("*_stats.json"))
    assert len(published) == count
    # The child run the dead worker had said it crashed, not left "Running" forever.
    crashed = prefect_server.post(
        "/flow_runs/filter", {"flow_runs": {"state": {"type": {"any_": ["CRASHED"]}}}}
    )
    assert any("its worker" in (r["state"]["message"] or "") for r in crashed)
