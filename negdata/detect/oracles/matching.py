"""What oracles share: how a file's image is found among the samples, and how labels map."""

from __future__ import annotations

from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

from negdata.config import OracleMatch


class OracleFileError(ValueError):
    """An oracle file that cannot be trusted: the message names the config key and the place."""


def file_name(url: str) -> str:
    """The last path segment of a URL or path, unquoted (``.../a%201.jpg?x=1`` -> ``a 1.jpg``)."""
    path = urlsplit(url).path if "://" in url else url
    return PurePosixPath(unquote(path)).name


def match_key(url: str, match: OracleMatch) -> str:
    """The key an image is looked up by: the URL itself, or its file name."""
    return url if match == "url" else file_name(url)


def vocabulary_label(
    name: str, class_map: dict[str, str], vocabulary: frozenset[str]
) -> str | None:
    """``name`` through ``class_map``, or None when the result is not a vocabulary label."""
    label = class_map.get(name, name)
    return label if label in vocabulary else None
