"""The house's import graph has one direction: no module of negdata/ or flows/ imports one that
imports it back, directly or around a longer circle (imports inside functions count too)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOTS = ("negdata", "flows")


def _modules() -> dict[str, Path]:
    found = {}
    for root in ROOTS:
        for path in Path(root).rglob("*.py"):
            name = ".".join(path.with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports, each resolved to the longest module it names;
    a package's ``__init__`` is not counted (it is a namespace, not a layer)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for target in names:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name and modules[target].name != "__init__.py":
                targets.add(target)
    return targets


def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every circle a depth-first walk meets, as the modules around it."""
    found: list[list[str]] = []
    done: set[str] = set()
    stack: list[str] = []

    def walk(module: str) -> None:
        stack.append(module)
        for target in sorted(edges[module]):
            if target in stack:
                found.append([*stack[stack.index(target) :], target])
            elif target not in done:
                walk(target)
        stack.pop()
        done.add(module)

    for module in sorted(edges):
        if module not in done:
            walk(module)
    return found


def test_the_circle_finder_finds_a_circle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(edges) == [["a", "b", "c", "a"]]


def test_no_module_imports_one_that_imports_it_back() -> None:
    edges = graph()
    assert "negdata.stages" in edges["negdata.pipeline"]  # the graph is really read
    assert circles(edges) == []


def test_the_layers_read_as_the_data_flows() -> None:
    """Config and records import no stage; stages import no pipeline; nothing in negdata/
    imports flows/ (orchestration sits on top)."""
    edges = graph()
    for low in ("negdata.config", "negdata.records", "negdata.shards"):
        assert not {t for t in edges[low] if t.split(".")[1] in STAGE_PACKAGES}, low
    for module, targets in edges.items():
        if module.startswith("negdata."):
            assert not {t for t in targets if t.startswith("flows")}, module
        if module.split(".")[1:2] and module.split(".")[1] in STAGE_PACKAGES:
            assert "negdata.pipeline" not in targets, module
            assert "negdata.cli" not in targets, module


STAGE_PACKAGES = ("ingest", "compose", "validate", "publish", "llm")
