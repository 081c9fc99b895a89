"""The documentation: the site builds, and what it says matches the code.

* ``mkdocs build --strict`` succeeds (broken links and anchors, unrendered API, bad markers fail);
* README.md is short and opens with the two commands CI runs literally;
* LICENSE and CHANGELOG.md exist, and the changelog names the current version;
* the README's Python examples run, and so do the examples in ``docs/`` marked runnable
  (``<!-- runnable -->`` on the line before a ```` ```python ```` or ```` ```sh ```` block);
* what is written by hand agrees with the code: the options table covers every option, the
  limits page every limit with its default, the errors page every exit status and exception,
  the WARC schema page every field and the schema version, and every ``stream_mf2.…`` name a
  page mentions exists.

Self-contained: the repository root is found from this file, and the generated reference
pages are checked through ``docs/hooks.py``, the same module the site build uses.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import stream_mf2


def _repo() -> Path:
    here = Path(__file__).resolve().parent
    for folder in (here, *here.parents):
        if (folder / "pyproject.toml").is_file() and (folder / "stream_mf2").is_dir():
            return folder
    raise RuntimeError("repository root not found above tests/architecture/test_docs.py")


REPO = _repo()
DOCS = REPO / "docs"
README = REPO / "README.md"

#: The pages this suite checks name by name (the internals pages are checked by the build only).
OWN_PAGES = [
    "index.md",
    "development.md",
    "guides/indieweb.md",
    "guides/web-archives.md",
    "guides/wpt-authoring.md",
    "guides/from-mf2py.md",
    "guides/streaming.md",
    "reference/api.md",
    "reference/options.md",
    "reference/cli.md",
    "reference/warc-schema.md",
    "reference/errors.md",
    "reference/limits.md",
]

RUNNABLE = "<!-- runnable -->"


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("stream_mf2_docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _page(name: str) -> str:
    return (DOCS / name).read_text("utf-8")


# -- code blocks -----------------------------------------------------------------------------------


def code_blocks(text: str) -> Iterator[tuple[str, str, bool, int]]:
    """``(language, code, marked runnable, line number)`` of each top-level fenced block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = re.fullmatch(r"(`{3,})(\w*).*", lines[i])
        if not opening:
            i += 1
            continue
        fence, language = opening.group(1), opening.group(2)
        previous = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        start = i
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i].rstrip() != fence:
            body.append(lines[i])
            i += 1
        i += 1
        yield language, "\n".join(body) + "\n", previous == RUNNABLE, start + 1


def _write_crawl(path: Path) -> None:
    """``crawl.warc.gz`` of the docs' examples: three HTML responses (docs/development.md)."""
    _write_warc(
        path,
        [
            ("https://jane.example/", (REPO / "fixtures" / "example.html").read_bytes()),
            (
                "https://jane.example/about",
                b'<!doctype html><title>About</title><p class="h-card"><a class="p-name u-url" href="/">Jane</a></p>',
            ),
            ("https://records.example/ar-42", (REPO / "fixtures" / "wpt" / "readme.html").read_bytes()),
        ],
    )


def _write_news(path: Path) -> None:
    """``news.warc.gz`` of the docs' examples: three pages with every syntax (docs/development.md)."""
    _write_warc(
        path,
        [
            ("https://news.example/", (REPO / "fixtures" / "bench" / "news-no-microformats.html").read_bytes()),
            ("https://shop.example/", (REPO / "fixtures" / "bench" / "product.html").read_bytes()),
            (
                "https://notiz.example/reply",
                (REPO / "fixtures" / "realworld" / "wordpress-autonomie-post.html").read_bytes(),
            ),
        ],
    )


def _write_warc(path: Path, pages: list[tuple[str, bytes]]) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=True)
        for uri, body in pages:
            head = StatusAndHeaders(
                "200 OK",
                [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))],
                protocol="HTTP/1.1",
            )
            record = writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=head)
            writer.write_record(record)


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch folder with ``fixtures/``, ``crawl.warc.gz`` and ``news.warc.gz``, made the working directory."""
    try:
        (tmp_path / "fixtures").symlink_to(REPO / "fixtures", target_is_directory=True)
    except OSError:
        shutil.copytree(REPO / "fixtures", tmp_path / "fixtures")
    _write_crawl(tmp_path / "crawl.warc.gz")
    _write_news(tmp_path / "news.warc.gz")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run_shell(code: str, where: str, cwd: Path) -> None:
    """A shell block, with ``stream-mf2`` being this checkout's command (``python -m stream_mf2``)."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    script = f'stream-mf2() {{ "{sys.executable}" -m stream_mf2 "$@"; }}\n' + code
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run([bash, "-euo", "pipefail", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{where} failed ({r.returncode}):\n{code}\n{r.stdout}\n{r.stderr}"


def _run_blocks(blocks: list[tuple[str, str, int]], name: str, cwd: Path) -> None:
    """Run a page's blocks in order, the Python ones in one namespace (as a reader would paste them)."""
    namespace: dict[str, Any] = {"__name__": "__docs_example__"}
    for language, code, line in blocks:
        where = f"{name}:{line}"
        if language == "python":
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(code, where, "exec"), namespace)
        elif language in ("sh", "bash", "shell"):
            _run_shell(code, where, cwd)
        else:
            raise AssertionError(f"{where}: only python and sh blocks can be runnable, not {language!r}")


# -- the site --------------------------------------------------------------------------------------


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("mkdocstrings") is None:
        message = "mkdocs and mkdocstrings are not installed (pip install -e '.[docs]')"
        if _in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    r = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    api = (tmp_path / "site" / "reference" / "api" / "index.html").read_text("utf-8")
    for name in stream_mf2.__all__:
        assert f'id="stream_mf2.{name}"' in api, f"stream_mf2.{name} is not rendered in the API reference"
    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text("utf-8")
    assert "--max-decoded-bytes" in cli and "generated:" not in cli


def test_every_page_is_in_the_nav() -> None:
    config = (REPO / "mkdocs.yml").read_text("utf-8")
    for name in [*OWN_PAGES, "changelog.md", "performance.md", *(f"internals/{n}.md" for n in (
        "index", "layout", "pipeline", "bounded-sink", "linear-time", "decisions"))]:
        assert f" {name}\n" in config, f"{name} is not in the nav of mkdocs.yml"


# -- README, LICENSE, CHANGELOG --------------------------------------------------------------------


def test_readme_is_short_and_opens_with_the_ci_commands() -> None:
    text = README.read_text("utf-8")
    assert len(text.splitlines()) <= 200
    assert text.startswith("# stream_mf2\n\n```sh\n")
    first = text.split("```sh\n", 1)[1].split("\n```", 1)[0]
    assert first.splitlines() == [
        "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/stream-mf2 fixtures/example.html",
        ".venv/bin/python -m pytest",
    ]


def test_readme_links_resolve() -> None:
    text = README.read_text("utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    local = [link.split("#", 1)[0] for link in links if not re.match(r"[a-z]+://", link)]
    assert "docs/index.md" in local
    for link in local:
        if link.startswith(("docs/internals/", "docs/performance.md")):
            continue  # written by the internals pages' owner; the site build checks them
        assert (REPO / link).exists(), f"README links to {link}, which does not exist"


def test_license_and_changelog() -> None:
    license_text = (REPO / "LICENSE").read_text("utf-8")
    assert license_text.startswith("MIT License") and "Copyright (c) 2026 the stream_mf2 authors" in license_text
    changelog = (REPO / "CHANGELOG.md").read_text("utf-8")
    assert "keepachangelog.com" in changelog
    assert re.search(rf"^## \[{re.escape(stream_mf2.__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.M), (
        f"CHANGELOG.md has no entry for {stream_mf2.__version__}"
    )
    assert "--8<-- \"CHANGELOG.md\"" in _page("changelog.md")


# -- examples that run -----------------------------------------------------------------------------


def test_readme_python_examples_run(workspace: Path) -> None:
    blocks = [(lang, code, line) for lang, code, _, line in code_blocks(README.read_text("utf-8")) if lang == "python"]
    assert len(blocks) >= 3, "the README should show a page, a stream and a WARC archive"
    _run_blocks(blocks, "README.md", workspace)


def _markers(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip() == RUNNABLE)


RUNNABLE_PAGES = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md") if _markers(p.read_text("utf-8")))


@pytest.mark.parametrize("name", RUNNABLE_PAGES)
def test_runnable_doc_examples_run(name: str, workspace: Path) -> None:
    blocks = [(lang, code, line) for lang, code, runnable, line in code_blocks(_page(name)) if runnable]
    assert blocks, f"{name}: {RUNNABLE} must come right before a fenced block"
    _run_blocks(blocks, f"docs/{name}", workspace)


def test_the_guides_have_runnable_examples() -> None:
    for name in ("indieweb", "web-archives", "wpt-authoring", "from-mf2py", "streaming"):
        blocks = [b for b in code_blocks(_page(f"guides/{name}.md")) if b[2]]
        assert blocks, f"guides/{name}.md has no runnable example"
    total = sum(1 for name in OWN_PAGES for b in code_blocks(_page(name)) if b[2])
    assert total >= 20


def test_marker_only_before_code() -> None:
    for name in RUNNABLE_PAGES:
        text = _page(name)
        marked = sum(1 for b in code_blocks(text) if b[2])
        assert marked == _markers(text), f"docs/{name}: a {RUNNABLE} marker is not right before a code block"


# -- generated reference pages ---------------------------------------------------------------------


def test_cli_reference_covers_every_command_and_flag() -> None:
    from stream_mf2.cli import COMMANDS

    hooks = _hooks()
    assert "<!-- generated: cli -->" in _page("reference/cli.md")
    parsers = hooks.command_parsers()
    # (``wpt lint`` is a command of ``wpt``, documented with the others)
    assert set(parsers) == {"stream-mf2", *(f"stream-mf2 {name}" for name in COMMANDS), "stream-mf2 wpt lint"}
    markdown = hooks.cli_markdown()
    for prog, parser in parsers.items():
        assert f"## `{prog}`" in markdown
        for action in parser._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}" in markdown, f"{prog} {flag} is missing from the CLI reference"
        # the command table at the top of the page names every command too
    listed = _page("reference/cli.md")
    for name in COMMANDS:
        assert f"`stream-mf2 {name}" in listed, f"stream-mf2 {name} is not in the command table"


def test_options_reference_covers_every_option() -> None:
    from stream_mf2.core.options import OPTION_NAMES

    hooks = _hooks()
    assert "<!-- generated: options -->" in _page("reference/options.md")
    table = hooks.options_table()  # raises when the docstring table and ParseOptions disagree
    assert [name for name, _, _ in table] == list(OPTION_NAMES)
    markdown = hooks.options_markdown()
    for name in OPTION_NAMES:
        assert f"| `{name}` |" in markdown
    assert set(hooks.option_defaults()) == set(OPTION_NAMES)


def test_markers_render() -> None:
    hooks = _hooks()
    rendered = hooks.render("a\n<!-- generated: options -->\nb\n")
    assert "<!--" not in rendered and "| `max_depth` |" in rendered
    with pytest.raises(RuntimeError, match="unknown marker"):
        hooks.render("<!-- generated: nothing -->\n")


# -- pages written by hand, checked against the code ------------------------------------------------


def _table(text: str, heading: str) -> dict[str, list[str]]:
    """The rows of the first table after ``heading``, by the code in their first cell."""
    section = text.split(heading, 1)[1]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        first = re.fullmatch(r"`([^`]+)`", cells[0])
        if first:
            rows[first.group(1)] = cells[1:]
    return rows


def _number(cell: str) -> float:
    match = re.match(r"[\d,]+(\.\d+)?", cell)
    assert match, f"no number in {cell!r}"
    return float(match.group(0).replace(",", ""))


def test_limits_page_names_every_limit_with_its_default() -> None:
    from stream_mf2.core.options import OPTION_NAMES
    from stream_mf2.io import fetch, payload
    from stream_mf2.warc import prefilter
    from stream_mf2.wpt import _load as wpt_load

    hooks = _hooks()
    rows = _table(_page("reference/limits.md"), "## Every keyword")
    limits = [n for n in OPTION_NAMES if n.startswith("max_")] + ["output_floor_chars"]
    defaults: dict[str, object] = {name: hooks.option_defaults()[name] for name in limits}
    defaults.update(
        max_bytes=fetch.DEFAULT_MAX_BYTES,
        max_redirects=fetch.DEFAULT_MAX_REDIRECTS,
        max_decoded_bytes=payload.DEFAULT_MAX_DECODED_BYTES,
        max_expansion=payload.DEFAULT_MAX_EXPANSION,
        max_prefilter_bytes=prefilter.DEFAULT_MAX_PREFILTER_BYTES,
        timeout=fetch.DEFAULT_TIMEOUT,
        deadline=fetch.DEFAULT_DEADLINE,
        max_template_depth=wpt_load.DEFAULT_MAX_TEMPLATE_DEPTH,
        max_template_blocks=wpt_load.DEFAULT_MAX_TEMPLATE_BLOCKS,
        max_template_pattern_chars=wpt_load.DEFAULT_MAX_TEMPLATE_PATTERN_CHARS,
    )
    assert set(rows) == set(defaults), f"limits.md table: missing {set(defaults) - set(rows)}, extra {set(rows) - set(defaults)}"
    for name, value in defaults.items():
        assert isinstance(value, int | float), name
        assert _number(rows[name][0]) == value, f"limits.md says {name} defaults to {rows[name][0]}, the code {value}"
        assert rows[name][1] in ("limit", "budget"), name


def test_errors_page_names_every_exit_status_and_exception() -> None:
    import pkgutil

    from stream_mf2.cli._common import EXIT_BROKEN_PIPE
    from stream_mf2.errors import StreamMF2Error
    from stream_mf2.warc import schema

    text = _page("reference/errors.md")
    statuses = {name: value for name, value in vars(schema).items() if name.startswith("EXIT_")}
    assert statuses, "stream_mf2.warc.schema defines no EXIT_* constants"
    rows = {cells[0]: cells for cells in (
        [c.strip() for c in line.strip().strip("|").split("|")] for line in text.split("### `stream-mf2 warc`", 1)[1].splitlines()
        if line.startswith("|")
    )}
    for name, value in statuses.items():
        assert str(value) in rows and rows[str(value)][1] == f"`{name}`", f"errors.md: exit status {value} should be {name}"
    assert f"| {EXIT_BROKEN_PIPE} |" in text and "| 130 |" in text and "| 2 |" in text

    for info in pkgutil.walk_packages(stream_mf2.__path__, "stream_mf2."):
        if not info.name.endswith("__main__"):
            with contextlib.suppress(ImportError):
                importlib.import_module(info.name)

    def subclasses(cls: type) -> Iterator[type]:
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    for cls in [StreamMF2Error, *subclasses(StreamMF2Error)]:
        if cls.__module__.startswith("stream_mf2") and not cls.__name__.startswith("_"):
            assert f"| `{cls.__name__}`" in text, f"errors.md does not list {cls.__module__}.{cls.__name__}"


def test_warc_schema_page_matches_the_schema(tmp_path: Path) -> None:
    from stream_mf2.warc.runner import Options, process_input, run
    from stream_mf2.warc.schema import SCHEMA_VERSION

    text = _page("reference/warc-schema.md")
    (version,) = re.findall(r"^Schema version (\d+)\.$", text, re.M)
    assert int(version) == SCHEMA_VERSION

    class Lines(list[dict[str, Any]]):
        def write(self, line: dict[str, Any]) -> None:
            self.append(line)

    crawl = tmp_path / "crawl.warc.gz"
    _write_crawl(crawl)
    lines = Lines()
    process_input(str(crawl), lines, Options(parser={"metaformats": True, "stream_children": True}))
    process_input(str(tmp_path / "missing.warc.gz"), lines, Options())
    result = run([str(crawl)], str(tmp_path / "out.jsonl"), Options())
    summary = (tmp_path / "out.jsonl").read_text("utf-8").splitlines()[-1]
    import json

    lines.append(json.loads(summary))
    assert result.status == 0
    seen: dict[str, set[str]] = {}
    for line in lines:
        seen.setdefault(line["kind"], set()).update(line)
    assert set(seen) == {"item", "record", "error", "summary"}
    assert "children-streamed" in seen["item"] and "meta-item" in seen["record"]
    for kind, keys in seen.items():
        rows = _table(text, f"## `{kind}`")
        assert set(rows) == keys, f"warc-schema.md, {kind}: missing {keys - set(rows)}, not written {set(rows) - keys}"


_NAME = re.compile(r"\bstream_mf2(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


@pytest.mark.parametrize("name", ["README.md", *OWN_PAGES])
def test_named_code_exists(name: str) -> None:
    text = README.read_text("utf-8") if name == "README.md" else _page(name)
    for dotted in sorted(set(_NAME.findall(text))):
        if dotted.endswith((".md", ".py")) or dotted == "stream_mf2.schema":  # file names, a Parquet metadata key
            continue
        assert _resolves(dotted), f"{name} mentions {dotted}, which does not exist"
