"""README.md and docs/ say only what is true of this checkout: the configuration page is what
the config models generate, every relative link lands on a file (and heading) that exists, every
command in a ``bash`` block is one that make, the CLI or the repo's scripts accept, and every
YAML snippet of config sections is a valid one."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel, ValidationError

from negdata.cli import parser
from negdata.config import Config
from negdata.config_docs import render, sections

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# Programs of other projects that the docs tell people to run on their own machines.
OTHER_PROGRAMS = {"cp", "export", "docker", "dask", "vllm"}
# Modules of other projects: open_clip's trainer.
OTHER_MODULES = {"open_clip_train.main"}
PYTHONS = {"python", "python3", ".venv/bin/python"}

FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```", re.M | re.S)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
INLINE_COMMAND = re.compile(r"`((?:make|negdata) [^`]+)`")


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def _prose(text: str) -> str:
    """The page without its fenced blocks, where links and inline code are not Markdown."""
    return FENCE.sub("", text)


def blocks(language: str) -> list[tuple[Path, str]]:
    return [
        (page, match.group(3))
        for page in PAGES
        for match in FENCE.finditer(page.read_text())
        if match.group(2) == language
    ]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for line in _prose(page.read_text()).splitlines():
        if match := re.match(r"#{1,6} (.+)", line):
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def test_the_configuration_page_is_what_the_models_generate() -> None:
    committed = (ROOT / "docs" / "configuration.md").read_text()
    assert committed == render(), "docs/configuration.md is stale: run `make docs`"


def test_every_config_section_and_field_is_described() -> None:
    undescribed = [
        f"{heading}.{name}" if name else heading
        for heading, model, _ in sections(Config, "config")
        for name in ["", *model.model_fields]
        if not (model.model_fields[name].description if name else model.__doc__)
    ]
    assert not undescribed, f"no description: {undescribed}"


def broken_links(page: Path) -> list[str]:
    """Each relative link (or image) of ``page`` whose file, or heading, does not exist."""
    broken = []
    for match in LINK.finditer(_prose(page.read_text())):
        target = match.group(1) or match.group(2)
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and anchor not in anchors(resolved):
            broken.append(f"{target}: no such heading")
    return broken


def test_every_relative_link_resolves() -> None:
    broken = [f"{_name(page)}: {why}" for page in PAGES for why in broken_links(page)]
    assert not broken, "\n".join(broken)


def test_the_link_check_finds_a_missing_file_or_heading(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## A part\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#a-part) [here](#top) [web](https://example.org/x.md)\n"
        "[gone](missing.md) [no part](other.md#b-part) ![pic](images/none.png)\n\n# Top\n"
        "```bash\n[not a link](nowhere.md)\n```\n"
    )
    assert broken_links(page) == [
        "missing.md: no such file",
        "other.md#b-part: no such heading",
        "images/none.png: no such file",
    ]


def test_the_pages_link_each_other() -> None:
    readme = (ROOT / "README.md").read_text()
    unlinked = [p.name for p in PAGES[1:] if f"(docs/{p.name})" not in readme]
    assert not unlinked, f"README.md links no {unlinked}"


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([A-Za-z][\w.-]*)\s*:(?!=)", text, re.M))


def commands(script: str) -> list[list[str]]:
    """Each simple command of a shell snippet, as words, with ``VAR=value`` prefixes and
    comments gone; an assignment from ``$(...)`` counts as no command."""
    found = []
    for line in script.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        current: list[str] = []
        for word in [*words, ";"]:
            if word in {"&&", "||", ";", "|"}:
                while current and re.match(r"[A-Za-z_]\w*=", current[0]):
                    if "$(" in current.pop(0):
                        current = []
                if current:
                    found.append(current)
                current = []
            else:
                current.append(word)
    return found


def is_subcommand(args: list[str]) -> bool:
    """Whether ``args`` are a chain of ``negdata`` subcommand names (``detect export``), as prose
    names a command without its arguments."""
    current = parser()
    for word in args:
        choices = [a for a in current._actions if isinstance(a, argparse._SubParsersAction)]
        if not choices or word not in choices[0].choices:
            return False
        current = choices[0].choices[word]
    return bool(args)


def refusal(words: list[str], targets: set[str], inline: bool = False) -> str | None:
    """Why the repo would not run this command, or None when it would. ``inline``: a command
    named in prose, where ``...`` stands for any arguments and a subcommand may stand alone."""
    program, args = words[0], words[1:]
    if inline and args[:1] == ["..."]:
        return None
    for arg in args:
        value = arg.partition("=")[2] or arg
        if value.startswith("configs/") and not (ROOT / value).exists():
            return f"no file {value}"
    if program == "make":
        goals = [a for a in args if "=" not in a and not a.startswith("-")]
        unknown = [goal for goal in goals if goal not in targets]
        return f"no make target {unknown}" if unknown or not goals else None
    if program == "negdata":
        if inline and is_subcommand(args):
            return None
        try:
            parser().parse_args([a.strip("[]") for a in args if a.strip("[]")])
        except SystemExit as stop:
            return None if stop.code == 0 else "the negdata CLI refuses it"
        return None
    if program in PYTHONS:
        if args[:1] == ["-m"]:
            module = args[1]
            path = ROOT / module.replace(".", "/")
            known = path.with_suffix(".py").exists() or (path / "__main__.py").exists()
            return None if known or module in OTHER_MODULES else f"no module {module}"
        if args[:1] == ["-c"]:
            return None
        return None if (ROOT / args[0]).is_file() else f"no script {args[0]}"
    return None if program in OTHER_PROGRAMS else f"{program} is not a program the docs may name"


def test_every_command_shown_is_one_the_repo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    targets = make_targets()
    shown = [(page, words, False) for page, script in blocks("bash") for words in commands(script)]
    shown += [
        (page, shlex.split(match.group(1)), True)
        for page in PAGES
        for match in INLINE_COMMAND.finditer(_prose(page.read_text()))
    ]
    refused = [
        f"{_name(page)}: {shlex.join(words)}: {why}"
        for page, words, inline in shown
        if (why := refusal(words, targets, inline))
    ]
    capsys.readouterr()  # argparse's usage lines
    assert len(shown) > 40, "the command scan found almost nothing: is the pattern broken?"
    assert not refused, "\n".join(refused)


def test_the_two_commands_are_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "make generate" in readme and "make test" in readme
    assert len(readme.splitlines()) <= 250


def test_every_yaml_snippet_of_config_sections_is_valid() -> None:
    checked, invalid = 0, []
    for page, text in blocks("yaml"):
        snippet = yaml.safe_load(text)
        if not isinstance(snippet, dict) or not set(snippet) <= set(Config.model_fields):
            continue
        for name, value in snippet.items():
            section = Config.model_fields[name].annotation
            assert isinstance(section, type) and issubclass(section, BaseModel)
            try:
                section.model_validate(value)
            except ValidationError as exc:
                invalid.append(f"{_name(page)}: {name}: {exc.errors()[0]['msg']}")
            checked += 1
    assert checked, "no YAML snippet of config sections found"
    assert not invalid, "\n".join(invalid)


@pytest.mark.parametrize(
    ("script", "why"),
    [
        ("make no-such-target", "no make target"),
        ("negdata no-such-command", "refuses"),
        ("python flows/missing.py", "no script"),
        ("python -m bench.missing", "no module"),
        ("rm -rf /", "not a program"),
        ("negdata verify runs/x --config configs/missing.yaml", "no file"),
        ("negdata verify", "refuses"),
        ("make ...", "no make target"),
    ],
)
def test_the_command_check_refuses_what_the_repo_does_not_run(
    script: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (words,) = commands(script)
    assert why in (refusal(words, make_targets()) or "")
    capsys.readouterr()


def test_anchors_are_the_ids_github_gives_headings(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# The `house`, in short\n\n## detect.sources: open_vocab\n\n## A b\n## A b\n")
    assert anchors(page) == {"the-house-in-short", "detectsources-open_vocab", "a-b", "a-b-1"}


def test_prose_may_name_a_subcommand_without_its_arguments() -> None:
    targets = make_targets()
    assert refusal(["negdata", "detect", "export"], targets, inline=True) is None
    assert refusal(["negdata", "detect", "exports"], targets, inline=True)
    assert refusal(["make", "..."], targets, inline=True) is None
