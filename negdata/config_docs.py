"""The configuration reference, ``docs/configuration.md``, written from the config models.

The field descriptions and class docstrings in ``negdata/config.py`` are the one source: this
module only walks the model tree from ``Config`` (nested sections and every kind of detect
source included) and prints one Markdown table per section. ``make docs`` writes the page;
``tests/test_docs.py`` fails when the committed page differs from what this prints.

    python -m negdata.config_docs > docs/configuration.md
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Iterator
from pathlib import PurePath
from typing import Any, Literal, Union

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined
from upath import UPath

from negdata.config import Config

HEADER = (
    "<!-- Written by `make docs` (python -m negdata.config_docs) from the field descriptions in "
    "negdata/config.py: edit those, not this page. tests/test_docs.py checks it. -->"
)
_BOUNDS = (
    (annotated_types.Ge, "ge", "≥"),
    (annotated_types.Gt, "gt", ">"),
    (annotated_types.Le, "le", "≤"),
    (annotated_types.Lt, "lt", "<"),
)
_NAMES = {str: "string", int: "integer", float: "number", bool: "boolean", Any: "any"}


def _prose(text: str | None) -> str:
    """A docstring or description as one Markdown paragraph (``x`` becomes `x`)."""
    return " ".join(inspect.cleandoc(text or "").split()).replace("``", "`")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _flat(metadata: list[Any]) -> list[Any]:
    """Constraints, with those of a ``Field(...)`` inside an ``Annotated`` taken out of it."""
    flat = []
    for item in metadata:
        flat += _flat(item.metadata) if isinstance(item, FieldInfo) else [item]
    return flat


def _constraints(metadata: list[Any]) -> list[str]:
    words = []
    for item in metadata:
        if isinstance(item, annotated_types.MinLen) and item.min_length > 1:
            words.append(f"at least {item.min_length} long")
        for kind, attr, sign in _BOUNDS:
            if isinstance(item, kind):
                words.append(f"{sign} {getattr(item, attr)}")
    return words


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def type_text(annotation: Any, metadata: list[Any] | None = None) -> str:
    """A field's type in words: ``integer ≥ 1 or unset``, ```tsv`, `csv` ``, ``list of string``."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    meta = _flat(metadata or [])
    if origin is typing.Annotated:
        return type_text(args[0], [*args[1:], *(metadata or [])])
    if origin in (Union, types.UnionType):
        return " or ".join(type_text(arg) for arg in args)
    if origin is Literal:
        text = ", ".join(f"`{value}`" for value in args)
    elif annotation is type(None):
        text = "unset"
    elif origin is list:
        item = args[0]
        item_origin = typing.get_origin(item)
        if item_origin is typing.Annotated and typing.get_origin(typing.get_args(item)[0]) in (
            Union,
            types.UnionType,
        ):
            text = "list of sources (tables below)"
        else:
            text = f"list of {type_text(item)}"
    elif origin is dict:
        text = f"mapping of {type_text(args[0])} to {type_text(args[1])}"
    elif annotation is UPath:
        text = "path or URL"
    elif isinstance(annotation, type) and issubclass(annotation, PurePath):
        text = "path"
    elif _is_model(annotation):
        text = "section"
    else:
        text = _NAMES.get(annotation, getattr(annotation, "__name__", str(annotation)))
    if any(isinstance(item, annotated_types.MinLen) and item.min_length == 1 for item in meta):
        text = f"non-empty {text}"
    bounds = _constraints(meta)
    return f"{text} {', '.join(bounds)}" if bounds else text


def _value(value: Any) -> str:
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, BaseModel):
        return "(section)"
    if isinstance(value, list | dict):
        return f"`{value!r}`" if value else ("`[]`" if isinstance(value, list) else "`{}`")
    return f"`{value}`"


def default_text(field: FieldInfo) -> str:
    """The default as YAML would write it; a default computed at load time (from the
    environment or the cache folder) is left to the description, which says what it is."""
    if field.default_factory is not None:
        factory: Any = field.default_factory
        return _value(factory()) if factory in (dict, list) else "(see description)"
    if field.default is PydanticUndefined:
        return "required"
    return _value(field.default)


def _field_row(key: str, field: FieldInfo) -> str:
    cells = (f"`{key}`", type_text(field.annotation, field.metadata), default_text(field))
    return "| " + " | ".join(_cell(c) for c in (*cells, _prose(field.description))) + " |"


def _sources(annotation: Any) -> list[type[BaseModel]]:
    """The kinds of a list of discriminated sources, in declaration order."""
    (item,) = typing.get_args(annotation)
    union = typing.get_args(item)[0]
    return [arg for arg in typing.get_args(union) if _is_model(arg)]


def sections(
    model: type[BaseModel], prefix: str
) -> Iterator[tuple[str, type[BaseModel], list[str]]]:
    """Each section under ``model``: its heading, its model and its table rows, nested
    sections and source kinds after the section that holds them."""
    rows: list[str] = []
    nested: list[tuple[str, type[BaseModel]]] = []
    for name, field in model.model_fields.items():
        key = f"{prefix}.{name}"
        rows.append(_field_row(key, field))
        if _is_model(field.annotation):
            nested.append((key, typing.cast(type[BaseModel], field.annotation)))
        elif typing.get_origin(field.annotation) is list and "sources" in type_text(
            field.annotation
        ):
            for kind in _sources(field.annotation):
                tag = typing.get_args(kind.model_fields["kind"].annotation)[0]
                nested.append((f"{key}: {tag}", kind))
    yield prefix, model, rows
    for heading, child in nested:
        if ": " in heading:
            yield heading, child, [_kind_row(heading, child, n) for n in child.model_fields]
        else:
            yield from sections(child, heading)


def _kind_row(heading: str, kind: type[BaseModel], name: str) -> str:
    key = re.sub(r": .*", f"[i].{name}", heading)
    return _field_row(key, kind.model_fields[name])


def render() -> str:
    """The whole page."""
    lines = [
        "# Configuration",
        "",
        HEADER,
        "",
        _prose(Config.__doc__),
        "",
        "| section | what |",
        "| --- | --- |",
    ]
    for name, field in Config.model_fields.items():
        required = " (required)" if field.is_required() else ""
        lines.append(f"| `{name}`{required} | {_cell(_prose(field.description))} |")
    for name in Config.model_fields:
        section = typing.cast(type[BaseModel], Config.model_fields[name].annotation)
        for heading, model, rows in sections(section, name):
            lines += ["", f"## {heading}", "", _prose(model.__doc__), ""]
            lines += ["| key | type | default | description |", "| --- | --- | --- | --- |"]
            lines += rows
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
