"""docker/: the worker image and the compose file, checked without a Docker engine.

What could break unseen: a service whose command the script's own parser refuses, a config the
deploy step cannot load or that names other hosts and paths than compose provides, a secret
written into a file, a GPU given to the wrong service, a COPY of a path that moved. hadolint
checks the Dockerfile itself (``make lint``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from negdata.config import ServeConfig, load_config
from negdata.console import Parser

ROOT = Path(__file__).resolve().parents[1]
DOCKER = ROOT / "docker"
COMPOSE: dict[str, Any] = yaml.safe_load((DOCKER / "compose.yaml").read_text())
SERVICES: dict[str, dict[str, Any]] = COMPOSE["services"]
IMAGE_ROOT = "/app"  # WORKDIR of docker/Dockerfile, where the checkout is copied

# ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?message}, ${NAME?message}
VARIABLE = re.compile(r"\$\{(?P<name>\w+)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}")
REQUIRED = re.compile(r"^\$\{(?P<name>NEGDATA_\w+):\?(?P<message>[^}]+)\}$")
SECRET_KEY = re.compile(r"AUTH|API_KEY|PASSWORD|TOKEN|SECRET")
# What an operator sets: sample values for the variables compose requires.
OPERATOR_ENV = {
    "NEGDATA_PREFECT_AUTH": "user:password",
    "NEGDATA_LLM_API_KEY": "a-key",
    "NEGDATA_WORKER_GPUS": "1,2,3",
}
SECRETS = {"NEGDATA_PREFECT_AUTH", "NEGDATA_LLM_API_KEY"}


def interpolate(value: str, env: dict[str, str]) -> str:
    """``value`` as compose substitutes it, the variables taken from ``env``."""

    def substitute(match: re.Match[str]) -> str:
        name, op, arg = match["name"], match["op"], match["arg"]
        given = env.get(name)
        if given or (given is not None and op in ("-", "?")):
            return given
        if op in (":-", "-"):
            return arg
        if op in (":?", "?"):
            raise AssertionError(f"compose would stop: {name}: {arg}")
        return ""

    return VARIABLE.sub(substitute, value)


def environment(service: str) -> dict[str, str]:
    env = SERVICES[service].get("environment", {})
    assert isinstance(env, dict), f"{service}: environment as a mapping, so that keys are unique"
    return {key: str(value) for key, value in env.items()}


def gpu_devices(service: str) -> list[dict[str, Any]]:
    resources = SERVICES[service].get("deploy", {}).get("resources", {})
    devices = resources.get("reservations", {}).get("devices", [])
    return [d for d in devices if "gpu" in d.get("capabilities", [])]


def mount_points(service: str) -> set[str]:
    """Where the service's volumes are mounted in its container."""
    volumes = [interpolate(v, OPERATOR_ENV) for v in SERVICES[service].get("volumes", [])]
    return {volume.split(":")[1] for volume in volumes}


def dockerfile_instructions() -> Iterator[tuple[str, str]]:
    """(INSTRUCTION, arguments) of docker/Dockerfile, continuation lines joined."""
    text = (DOCKER / "Dockerfile").read_text()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    for instruction in re.split(r"\n(?=\S)", "\n".join(lines).replace("\\\n", " ")):
        if instruction.strip():
            keyword, _, arguments = instruction.strip().partition(" ")
            yield keyword.upper(), arguments.strip()


def dockerfile(keyword: str) -> list[str]:
    return [arguments for key, arguments in dockerfile_instructions() if key == keyword]


def exec_form(arguments: str) -> list[str]:
    parsed = json.loads(arguments)
    assert isinstance(parsed, list), f"exec form expected, got {arguments}"
    return [str(a) for a in parsed]


IMAGE_ENTRYPOINT = exec_form(dockerfile("ENTRYPOINT")[-1])
IMAGE_CMD = exec_form(dockerfile("CMD")[-1])
WORKER_SERVICES = [name for name, s in SERVICES.items() if "build" in s]


def command_line(service: str) -> list[str]:
    """What the service's container runs: its entrypoint and command, or the worker image's;
    for another image, its arguments (``vllm serve`` is that image's entrypoint)."""
    spec = SERVICES[service]
    own_image = "build" in spec
    entrypoint = spec.get("entrypoint", IMAGE_ENTRYPOINT if own_image else [])
    command = spec.get("command", IMAGE_CMD if own_image and "entrypoint" not in spec else [])
    if isinstance(command, str):
        command = shlex.split(command)
    return [interpolate(str(part), OPERATOR_ENV) for part in [*entrypoint, *command]]


class _Parsed(BaseException):
    def __init__(self, namespace: argparse.Namespace) -> None:
        self.namespace = namespace


def parse_with_script(
    script: str, argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> argparse.Namespace:
    """``argv`` as ``python <script>`` parses it: the script's own ``main``, stopped as soon as
    its parser has answered, before it reaches a server or the data."""
    module = importlib.import_module(script.removesuffix(".py").replace("/", "."))
    parse = Parser.parse_args

    def parse_then_stop(self: Parser, args: Any = None, namespace: Any = None) -> Any:
        raise _Parsed(parse(self, args, namespace))

    monkeypatch.setattr(Parser, "parse_args", parse_then_stop)
    try:
        module.main(argv)
    except _Parsed as parsed:
        return parsed.namespace
    except SystemExit as exit_:
        pytest.fail(f"python {script} {shlex.join(argv)}: its parser refused it ({exit_.code})")
    pytest.fail(f"python {script} returned without parsing its arguments")


def config_of(service: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The config file a service names, as a path in this checkout."""
    _, script, *argv = command_line(service)
    config = Path(parse_with_script(script, argv, monkeypatch).config)
    in_image = config if config.is_absolute() else Path(IMAGE_ROOT) / config
    return ROOT / in_image.relative_to(IMAGE_ROOT)


# --- images and what the Dockerfile copies ----------------------------------------------------


def test_every_service_has_a_pinned_image_or_a_build_that_exists() -> None:
    for name, spec in SERVICES.items():
        if "build" in spec:
            context = (DOCKER / spec["build"]["context"]).resolve()
            assert context == ROOT, f"{name}: the build context is the checkout"
            assert (context / spec["build"]["dockerfile"]).is_file(), name
        else:
            repository, _, tag = spec["image"].rpartition(":")
            assert repository and tag and tag != "latest", f"{name}: pin {spec['image']}"


def test_the_prefect_server_is_the_prefect_the_workers_run() -> None:
    lines = (ROOT / "constraints.txt").read_text().splitlines()
    pins = dict(line.split("==") for line in lines if "==" in line)
    assert SERVICES["prefect"]["image"] == f"prefecthq/prefect:{pins['prefect']}-python3.11"


def test_every_flow_running_service_uses_the_worker_image() -> None:
    assert set(WORKER_SERVICES) >= {"deploy", "gpu-workers", "parent-worker"}
    builds = {json.dumps(SERVICES[name]["build"], sort_keys=True) for name in WORKER_SERVICES}
    assert builds == {json.dumps({"context": "..", "dockerfile": "docker/Dockerfile"})}


def test_every_path_the_dockerfile_copies_exists_and_is_sent_to_the_build() -> None:
    ignore = (DOCKER / "Dockerfile.dockerignore").read_text().splitlines()
    sent = {line[1:] for line in ignore if line.startswith("!")}
    copies = dockerfile("COPY")
    assert copies
    for arguments in copies:
        *sources, _destination = arguments.split()
        for source in sources:
            assert not source.startswith("--"), f"COPY {arguments}: no --from or --chown here"
            assert (ROOT / source).exists(), f"COPY {source}: not in the checkout"
            assert source in sent, f"COPY {source}: excluded by Dockerfile.dockerignore"


def test_the_image_runs_the_workers_from_app_as_a_user_that_is_not_root(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert dockerfile("WORKDIR") == [IMAGE_ROOT]
    assert IMAGE_ENTRYPOINT == ["python", "flows/workers.py"]
    assert dockerfile("USER")[-1].split(":")[0] not in ("root", "0")
    assert parse_with_script("flows/workers.py", IMAGE_CMD, monkeypatch).role == "all"
    env = " ".join(dockerfile("ENV"))
    for offline in ("YOLO_OFFLINE=1", "HF_HUB_OFFLINE=1"):
        assert offline in env


# --- what the services run ---------------------------------------------------------------------


@pytest.mark.parametrize("service", WORKER_SERVICES)
def test_the_service_command_is_a_script_whose_parser_accepts_it(
    service: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    python, script, *argv = command_line(service)
    assert python == "python"
    assert (ROOT / script).is_file(), f"{service}: {script} is not in the checkout"
    parse_with_script(script, argv, monkeypatch)


def test_the_workers_take_their_roles_and_the_gpus_the_operator_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    roles = {}
    for service in ("gpu-workers", "parent-worker"):
        _, script, *argv = command_line(service)
        assert script == "flows/workers.py"
        roles[service] = parse_with_script(script, argv, monkeypatch)
    assert roles["gpu-workers"].role == "chunks"
    assert roles["gpu-workers"].gpus == OPERATOR_ENV["NEGDATA_WORKER_GPUS"]
    assert roles["parent-worker"].role == "parent"


def test_the_deploy_step_names_a_config_that_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    _, script, *_ = command_line("deploy")
    assert script == "flows/deploy.py"
    config = config_of("deploy", monkeypatch)
    assert config.is_file(), f"{config} is not in the checkout, so not in the image"
    load_config(config)
    assert config_of("generate", monkeypatch) == config  # the run follows what was deployed


def test_the_config_names_the_hosts_and_paths_compose_provides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cfg = load_config(config_of("deploy", monkeypatch))
    assert not cfg.llm.local
    endpoint = urlsplit(cfg.llm.base_url)
    vllm = command_line("vllm")
    assert endpoint.hostname == "vllm"
    assert str(endpoint.port) == vllm[vllm.index("--port") + 1]
    assert cfg.llm.model == vllm[vllm.index("--served-model-name") + 1]
    for service in ("gpu-workers", "parent-worker", "deploy"):
        assert {"/data", "/models"} <= mount_points(service), service
    assert str(cfg.input.path).startswith("/data/")
    assert str(cfg.run.output_dir).startswith("/data/")
    assert all(str(source.weights).startswith("/models/") for source in cfg.detect.sources)
    assert vllm[0].startswith("/models/"), "vLLM serves a model from the mounted volume"
    assert "/models" in mount_points("vllm")


# --- secrets -----------------------------------------------------------------------------------


def test_every_secret_comes_from_a_required_variable() -> None:
    for name in SERVICES:
        for key, value in environment(name).items():
            if SECRET_KEY.search(key):
                match = REQUIRED.match(value)
                assert match, f"{name}: {key} must be ${{NEGDATA_...:?message}}, not {value!r}"
                assert match["name"] in SECRETS, f"{name}: {key} from {match['name']}"


def test_the_server_and_every_client_share_one_auth_variable() -> None:
    def source(service: str, key: str) -> str:
        match = REQUIRED.match(environment(service).get(key, ""))
        assert match, f"{service}: {key} missing or not a required variable"
        return match["name"]

    assert source("prefect", "PREFECT_SERVER_API_AUTH_STRING") == "NEGDATA_PREFECT_AUTH"
    assert "PREFECT_API_AUTH_STRING" not in environment("prefect")
    for service in WORKER_SERVICES:  # every Prefect client
        assert "PREFECT_API_URL" in environment(service), service
        assert source(service, "PREFECT_API_AUTH_STRING") == "NEGDATA_PREFECT_AUTH"
        assert "PREFECT_SERVER_API_AUTH_STRING" not in environment(service)


def test_vllm_and_the_workers_share_one_api_key_variable() -> None:
    assert "--api-key" not in command_line("vllm"), "not on a command line, where ps shows it"
    for service, key in [
        ("vllm", "VLLM_API_KEY"),
        ("gpu-workers", "NEGDATA_LLM_API_KEY"),
        ("parent-worker", "NEGDATA_LLM_API_KEY"),
    ]:
        match = REQUIRED.match(environment(service).get(key, ""))
        assert match and match["name"] == "NEGDATA_LLM_API_KEY", f"{service}: {key}"


def _files_in_the_repo() -> list[Path]:
    """Tracked files and those git would add, not the ignored ones (docker/.env); tests hold
    made-up keys on purpose and are left out."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    return [ROOT / p for p in listed if not p.startswith("tests/") and (ROOT / p).is_file()]


def test_no_file_in_the_repo_holds_a_secret_value() -> None:
    names = "|".join(
        ["NEGDATA_PREFECT_AUTH", "NEGDATA_LLM_API_KEY", "VLLM_API_KEY", r"PREFECT_\w*AUTH_STRING"]
    )
    assignment = re.compile(rf"\b({names})\s*[=:]\s*(?P<value>[^\s#]*)")
    flag = re.compile(r"--api-key[= ](?P<value>\S+)")
    found = []
    for path in _files_in_the_repo():
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for match in [*assignment.finditer(line), *flag.finditer(line)]:
                value = match["value"].strip("'\"`")
                if value and "$" not in value and not value.isupper():
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "literal secrets:\n" + "\n".join(found)


def test_the_env_example_leaves_the_secrets_empty_and_env_is_ignored() -> None:
    example = dict(
        line.split("=", 1)
        for line in (DOCKER / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert {name: example[name] for name in SECRETS} == dict.fromkeys(SECRETS, "")
    gpus = example["NEGDATA_WORKER_GPUS"].split(",")
    assert example["NEGDATA_VLLM_GPU"] not in gpus, "detection and vLLM on one GPU"
    ignored = subprocess.run(["git", "check-ignore", "-q", "docker/.env"], cwd=ROOT, check=False)
    assert ignored.returncode == 0, "docker/.env must be ignored by git"
    assert not any(SECRET_KEY.search(a) for a in [*dockerfile("ENV"), *dockerfile("ARG")])


# --- GPUs and start-up order -------------------------------------------------------------------


def test_vllm_and_the_gpu_workers_reserve_gpus_and_nothing_else_does() -> None:
    for service in ("vllm", "gpu-workers"):
        devices = gpu_devices(service)
        assert devices and all(d["driver"] == "nvidia" for d in devices), service
    assert gpu_devices("gpu-workers")[0]["count"] == "all"
    assert len(gpu_devices("vllm")[0]["device_ids"]) == 1
    for service in set(SERVICES) - {"vllm", "gpu-workers"}:
        assert not gpu_devices(service), f"{service} holds no GPU"


def test_services_start_in_order() -> None:
    def conditions(service: str) -> dict[str, str]:
        depends = SERVICES[service].get("depends_on", {})
        return {name: spec["condition"] for name, spec in depends.items()}

    assert conditions("deploy") == {"prefect": "service_healthy"}
    assert conditions("gpu-workers") == {
        "deploy": "service_completed_successfully",
        "vllm": "service_healthy",
    }
    assert conditions("parent-worker") == {"deploy": "service_completed_successfully"}
    assert conditions("generate") == {"deploy": "service_completed_successfully"}
    for service in ("prefect", "vllm"):  # service_healthy needs a health check
        assert SERVICES[service]["healthcheck"]["test"][0] == "CMD"
    assert "/api/health" in SERVICES["prefect"]["healthcheck"]["test"][-1]
    assert SERVICES["deploy"]["restart"] == "no"
    assert SERVICES["generate"]["profiles"] == ["run"], "`up` does not start a run"


def test_vllm_accepts_its_flags() -> None:
    """vLLM's own parser, from the vLLM venv of ``make llm-env`` (the CPU build of the same
    version as the image)."""
    python = ServeConfig().python
    assert python.exists(), f"no vLLM venv at {python}: make test installs it (make llm-env)"
    check = (
        "import json, sys\n"
        "from vllm.utils.argparse_utils import FlexibleArgumentParser\n"
        "from vllm.entrypoints.launchers.cli_args import make_arg_parser, "
        "validate_parsed_serve_args\n"
        "args = make_arg_parser(FlexibleArgumentParser()).parse_args(json.loads(sys.argv[1]))\n"
        "validate_parsed_serve_args(args)\n"
        "print(json.dumps({'model': args.model_tag or args.model, 'port': args.port}))\n"
    )
    argv = command_line("vllm")
    done = subprocess.run(
        [str(python), "-c", check, json.dumps(argv)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    parsed = json.loads(done.stdout.strip().splitlines()[-1])
    assert parsed == {"model": argv[0], "port": 8000}
