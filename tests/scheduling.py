"""How ``make test`` spreads the suite over two pytest-xdist workers (``--dist loadgroup``).

Each test file is one unit of work, so that a module's fixtures are built once. The files that
need the session's vLLM server, its Prefect server or its run of the sample are one unit
together, so that those start once. That unit is the suite's longest chain and has the most
tests: it goes first, to one worker, and the other files fill in around it on both. (Two
units, one with the run of the sample and one with the servers alone, each on a worker of its
own, took longer: 1,086 s against 845 s; a second vLLM and Prefect server cost more than they
spared.)

The controller collects nothing: each worker writes down which file is in which unit when it
collects (every worker collects the same), and the controller's scheduler reads that."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

# The session fixtures that put a test file in the servers' unit.
SERVERS = frozenset({"sample_run", "vllm_process", "vllm_server", "prefect_server"})
UNIT = "servers"
_WRITTEN = "negdata_units"  # the workers' input: where they write each file's unit
_FOLDER = pytest.StashKey[Path]()
_READ = pytest.StashKey[dict[str, str]]()


def _file(nodeid: str) -> str:
    return nodeid.split("::")[0]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The servers' files run first; a worker writes down which files they are."""
    units = {_file(i.nodeid): UNIT for i in items if SERVERS & set(getattr(i, "fixturenames", ()))}
    items.sort(key=lambda item: _file(item.nodeid) not in units)
    written = getattr(config, "workerinput", {}).get(_WRITTEN)
    if written is not None:
        mine = Path(written).with_suffix(f".{os.getpid()}")
        mine.write_text(json.dumps(units))
        mine.replace(written)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    if _FOLDER not in node.config.stash:
        node.config.stash[_FOLDER] = Path(tempfile.mkdtemp(prefix="negdata-units-"))
    node.workerinput[_WRITTEN] = str(node.config.stash[_FOLDER] / "units.json")


def _units(config: pytest.Config) -> dict[str, str]:
    """Each test file's unit, as the workers wrote it down (read once; the folder goes)."""
    if _READ not in config.stash:
        folder = config.stash[_FOLDER]
        config.stash[_READ] = json.loads((folder / "units.json").read_text())
        shutil.rmtree(folder)
    return config.stash[_READ]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByUnit(LoadScopeScheduling):
        """xdist's scope scheduling with this module's units as the scopes. xdist hands out the
        units with the most tests first: the one with the servers."""

        def _split_scope(self, nodeid: str) -> str:
            return _units(config).get(_file(nodeid), _file(nodeid))

    return ByUnit(config, log)
