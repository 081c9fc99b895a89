"""MkDocs hook: reference pages generated from the code at build time.

A page asks for generated Markdown with a marker on a line of its own:

``<!-- generated: cli -->``
    every command of ``stream-mf2`` with every flag, read from the real argparse
    parsers (each subcommand module of :mod:`stream_mf2.cli` builds its own);
``<!-- generated: options -->``
    the parse options table of :mod:`stream_mf2.core.options` (its module docstring),
    checked against :class:`stream_mf2.ParseOptions`, with the CLI flag of each option
    read from the parsers.

An unknown marker, or a table that does not name every option, stops the build.
``tests/architecture/test_docs.py`` imports this module to check the same things without MkDocs.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# Document the package next to this file, whichever stream_mf2 the interpreter would find first
# (the `mkdocs` script's own folder is first on sys.path, not the working directory).
ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

MARKER = re.compile(r"^<!-- generated: (?P<name>[a-z-]+) -->$", re.MULTILINE)


# -- the command line ------------------------------------------------------------------------------


class _Captured(BaseException):
    """Raised in place of ``parse_args`` to hand the command's parser back."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        super().__init__()
        self.parser = parser


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """``{"stream-mf2": parser, "stream-mf2 warc": parser, ...}``: the parsers the commands use.

    Each command builds its parser and calls ``parse_args`` first thing; that call is
    intercepted, so what is documented is exactly what runs, with no copy of it.
    """
    import stream_mf2.cli as cli

    def grab(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        raise _Captured(self)

    parsers: dict[str, argparse.ArgumentParser] = {}
    original = argparse.ArgumentParser.parse_args
    argparse.ArgumentParser.parse_args = grab  # type: ignore[method-assign,assignment]
    try:
        for argv in ([], *([name] for name in cli.COMMANDS), ["wpt", "lint"]):  # (lint: a command of wpt)
            try:
                # main() writes to sys.stdout.buffer: give it one, whatever stdout is here.
                with contextlib.redirect_stdout(io.TextIOWrapper(io.BytesIO())):
                    cli.main(argv)
            except _Captured as captured:
                parsers[captured.parser.prog] = captured.parser
            else:  # pragma: no cover - a command that no longer parses its arguments first
                raise RuntimeError(f"stream-mf2 {' '.join(argv)} did not build an argparse parser")
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
    return parsers


def _pipes(markdown: str) -> str:
    """Escape ``|`` for a table cell, outside code spans (inside them it is literal already)."""
    parts = markdown.split("`")
    return "`".join(part if i % 2 else part.replace("|", "\\|") for i, part in enumerate(parts))


def _cell(text: str) -> str:
    return _pipes(html.escape(" ".join(text.split()), quote=False))


def _flag(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest}`"
    if action.nargs == 0:
        return ", ".join(f"`{s}`" for s in action.option_strings)
    metavar = action.metavar or ("{" + ",".join(map(str, action.choices)) + "}" if action.choices else action.dest.upper())
    value = f"[{metavar}]" if action.nargs == "?" else metavar
    return ", ".join(f"`{s} {value}`" for s in action.option_strings)


def _default(action: argparse.Action, parse_defaults: dict[str, object]) -> str:
    value = action.default
    if value is None and type(parse_defaults.get(action.dest)) is int:
        return format_default(parse_defaults[action.dest])  # a limit flag: the parser's default applies
    if action.nargs == 0 or value in (None, argparse.SUPPRESS, [], False):
        return ""
    return f"`{value}`"


def _actions(group: argparse._ArgumentGroup) -> list[argparse.Action]:
    return [a for a in group._group_actions if not isinstance(a, argparse._HelpAction)]


def _command_markdown(prog: str, parser: argparse.ArgumentParser, parse_defaults: dict[str, object]) -> Iterator[str]:
    yield f"## `{prog}`"
    yield ""
    if parser.description:
        yield " ".join(parser.description.split())
        yield ""
    usage = parser.format_usage().removeprefix("usage: ").strip()
    yield "```text"
    yield from (line.rstrip() for line in usage.splitlines())
    yield "```"
    yield ""
    for group in parser._action_groups:
        actions = _actions(group)
        if not actions:
            continue
        title = group.title or "options"
        yield f"**{title[:1].upper()}{title[1:]}**"
        yield ""
        yield "| argument | default | meaning |"
        yield "| --- | --- | --- |"
        for action in actions:
            yield f"| {_flag(action)} | {_default(action, parse_defaults)} | {_cell(action.help or '')} |"
        yield ""
    if parser.epilog:
        yield "```text"
        yield from (line.rstrip() for line in parser.epilog.rstrip().splitlines())
        yield "```"
        yield ""


def cli_markdown() -> str:
    parsers = command_parsers()
    parse_defaults = option_defaults()
    lines: list[str] = []
    for prog, parser in parsers.items():
        lines.extend(_command_markdown(prog, parser, parse_defaults))
    return "\n".join(lines)


# -- the parse options -----------------------------------------------------------------------------


def _rest_inline(text: str) -> str:
    """reST inline markup of the options docstring as Markdown."""
    text = re.sub(r":(?:class|func|mod|data|attr|meth):`~?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def options_table() -> list[tuple[str, str, str]]:
    """``(option, default, meaning)`` rows of the reST table in :mod:`stream_mf2.core.options`."""
    import ast

    import stream_mf2.core.options as options

    # From the source file: a module compiled by mypyc keeps no docstring.
    source = Path(options.__file__ or "").with_name("options.py").read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(source)) or ""
    lines = doc.splitlines()
    rules = [i for i, line in enumerate(lines) if re.fullmatch(r"=+(\s+=+)+", line.strip())]
    if len(rules) != 3:
        raise RuntimeError("stream_mf2.core.options: expected one reST simple table in the module docstring")
    spans = [(m.start(), m.end()) for m in re.finditer(r"=+", lines[rules[0]])]
    rows: list[list[str]] = []
    for line in lines[rules[1] + 1 : rules[2]]:
        cells = [line[a : (spans[i + 1][0] if i + 1 < len(spans) else None)].strip() for i, (a, _) in enumerate(spans)]
        if cells[0]:
            rows.append(cells)
        elif rows:
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)]
    table = [(r[0].strip("`"), _rest_inline(r[1]), _rest_inline(r[2])) for r in rows]
    names = [name for name, _, _ in table]
    if sorted(names) != sorted(options.OPTION_NAMES):
        missing = sorted(set(options.OPTION_NAMES) - set(names))
        extra = sorted(set(names) - set(options.OPTION_NAMES))
        raise RuntimeError(f"options table out of date: missing {missing}, not options {extra}")
    return table


def option_flags() -> dict[str, str]:
    """Option name -> the command-line flag that sets it (page command first, then the others)."""
    flags: dict[str, str] = {}
    for prog, parser in command_parsers().items():
        for action in parser._actions:
            if action.option_strings and action.dest not in flags:
                long = [s for s in action.option_strings if s.startswith("--")]
                command = "" if prog == "stream-mf2" else prog + " "
                flags[action.dest] = f"`{command}{long[0] if long else action.option_strings[0]}`"
    flags["wpt"] = "`stream-mf2 wpt TEMPLATE.xml`"
    return flags


#: Where the defaults of the options whose keyword default is ``None`` are defined.
DEFAULT_MODULES = (
    "stream_mf2.core.parser",
    "stream_mf2.html.treebuilder",
    "stream_mf2.html.bounded.sink",
    "stream_mf2.mf2.capture",
    "stream_mf2.mf2.options",
    "stream_mf2.wpt._source",
    "stream_mf2.wpt._misnest",
    "stream_mf2.jsonld.consumer",
    "stream_mf2.microdata.consumer",
    "stream_mf2.rdfa.consumer",
)


def option_defaults() -> dict[str, object]:
    """Option name -> the value the parser uses when the option is not given.

    The keyword default of :class:`stream_mf2.Parser`; for a limit whose keyword default is
    ``None`` (the stage's own default), the ``DEFAULT_<NAME>`` constant of that stage.
    """
    import importlib
    import inspect

    from stream_mf2 import Parser

    modules = [importlib.import_module(m) for m in DEFAULT_MODULES]
    defaults: dict[str, object] = {}
    for name, param in inspect.signature(Parser).parameters.items():
        if param.kind is not inspect.Parameter.KEYWORD_ONLY:
            continue
        value = param.default
        if value is None and name.startswith("max_"):
            found = [getattr(m, f"DEFAULT_{name.upper()}") for m in modules if hasattr(m, f"DEFAULT_{name.upper()}")]
            if found:
                value = found[0]
        defaults[name] = value
    return defaults


def format_default(value: object) -> str:
    """``16,777,216 (16 Mi)``, ``64``, ``"spec"``, ``None``."""
    if isinstance(value, bool) or value is None:
        return f"`{value}`"
    if isinstance(value, str):
        return f'`"{value}"`'
    if isinstance(value, int):
        for unit, size in (("Mi", 1024 * 1024), ("Ki", 1024)):
            if value >= size and value % size == 0:
                return f"{value:,} ({value // size} {unit})"
        return f"{value:,}"
    return f"`{value!r}`"


def options_markdown() -> str:
    flags = option_flags()
    defaults = option_defaults()
    lines = ["| option | default | CLI | meaning |", "| --- | --- | --- | --- |"]
    for name, _documented, meaning in options_table():
        # reST code became `code`, and there is no raw HTML outside it: only pipes need escaping.
        lines.append(f"| `{name}` | {format_default(defaults[name])} | {flags.get(name, '')} | {_pipes(meaning)} |")
    return "\n".join(lines)


# -- MkDocs ----------------------------------------------------------------------------------------

GENERATORS = {"cli": cli_markdown, "options": options_markdown}


def render(markdown: str) -> str:
    """The page with every marker replaced by its generated Markdown."""

    def one(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in GENERATORS:
            raise RuntimeError(f"docs/hooks.py: unknown marker <!-- generated: {name} -->")
        return GENERATORS[name]()

    return MARKER.sub(one, markdown)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return render(markdown)

