"""What start-up imports: ``import stream_mf2`` and a prefiltered ``stream-mf2 warc`` run.

Start-up is a tenth of a prefiltered crawl run's time (docs/internals/speed.md, "Start-up"):
``import stream_mf2`` loads the parse path (the HTML engine, the mf2 consumer, the parser)
and nothing that a parse of text or bytes does not use; ``stream-mf2 warc --type ...
--prefilter`` adds the WARC reader, the runner and its outputs. Neither imports the
consumers of syntaxes not asked for, the event union that names them all, the WPT model, the
``email`` package (Content-Type values are read without it), the network and async front ends,
or the worker pools. Each is checked in a fresh interpreter (a subprocess), after a run
that parses one record and skips another, so the names below are what a real run loads.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import stream_mf2
from tests.support.warc_records import response, write_record

REPO = Path(stream_mf2.__file__).resolve().parents[1]

#: Never imported at start-up, by ``import stream_mf2`` nor by a prefiltered WARC run (each
#: name and its submodules).
NEVER_AT_START = (
    "stream_mf2.core.events",  # the event union: it imports every consumer's events
    "stream_mf2.jsonld",
    "stream_mf2.metadata",
    "stream_mf2.microdata",
    "stream_mf2.rdfa",
    "stream_mf2.wpt.model",
    "stream_mf2.wpt.events",
    "stream_mf2.wpt._match",
    "stream_mf2.extraction",
    "stream_mf2.io.sources",
    "stream_mf2.io.fetch",
    "stream_mf2._compiled",  # the folder walk behind COMPILED_MODULES
    "email",
    "http",
    "urllib.request",
    "asyncio",
    "socket",
    "multiprocessing",
    "concurrent",
)

#: Never imported by ``import stream_mf2``: besides those, what only the command line and
#: the WARC reader use.
NOT_AT_IMPORT = (
    *NEVER_AT_START,
    "stream_mf2.io.payload",
    "stream_mf2.warc",
    "stream_mf2.cli",
    "logging",
    "threading",
    "orjson",
)

#: Never imported by a prefiltered ``stream-mf2 warc --type h-entry,h-card`` run: besides
#: those, the worker pools and the outputs not asked for.
NOT_IN_WARC_RUN = (
    *NEVER_AT_START,
    "stream_mf2.warc.parallel",
    "stream_mf2.warc.dask",
    "dask",
    "pyarrow",
    "hashlib",  # the output checksum: only a run that takes checkpoints (--resume) hashes
)

_POST = b"""<!DOCTYPE html>
<html lang="en-US"><head><meta charset="UTF-8"><title>Notes from the garden &#8211; Ann's blog</title>
<link rel="stylesheet" href="/wp-content/themes/twentytwentyone/style.css"></head>
<body class="post-template-default single single-post">
<div id="page" class="site"><header id="masthead" class="site-header"><p class="site-title">Ann's blog</p></header>
<main id="main" class="site-main">
<article id="post-42" class="post-42 post type-post status-publish h-entry">
<header class="entry-header"><h1 class="entry-title p-name">Notes from the garden</h1></header>
<div class="entry-content e-content"><p>The tomatoes are late this year.</p></div>
<footer class="entry-footer"><span class="byline"><span class="author vcard h-card">
<a class="url fn n u-url p-name" href="https://ann.example/">Ann</a></span></span>
<a href="https://ann.example/2026/12/garden/" class="u-url"><time class="dt-published" datetime="2026-12-07T09:00:00+00:00">December 7, 2026</time></a>
</footer></article></main></div></body></html>"""

_PLAIN = b"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Opening hours</title></head>
<body><div class="wrapper"><h1>Opening hours</h1><p>Monday to Friday, 9 to 5.</p></div></body></html>"""


def _archive(path: Path) -> None:
    html = [("Content-Type", "text/html; charset=UTF-8")]
    records = [
        response("https://ann.example/2026/12/garden/", _POST, html, html=_POST),
        response("https://shop.example/hours", _PLAIN, html, html=_PLAIN),
    ]
    path.write_bytes(b"".join(write_record(r, compress=True) for r in records))


def _modules_after(code: str) -> list[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [sys.executable, "-c", code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    modules: list[str] = json.loads(done.stdout.splitlines()[-1])
    return modules


def _imported(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == n or m.startswith(n + ".") for n in names)]


def test_import_stream_mf2_loads_the_parse_path_only() -> None:
    modules = _modules_after("import stream_mf2")
    assert "stream_mf2.core.parser" in modules and "stream_mf2.mf2.capture" in modules
    assert _imported(modules, NOT_AT_IMPORT) == []


def test_public_names_still_load_on_first_use() -> None:
    modules = _modules_after(
        "import stream_mf2\n"
        "assert all(getattr(stream_mf2, name) is not None for name in stream_mf2.__all__)\n"
        "from stream_mf2 import Event, JsonLdItem, WarcRecord\n"
        "from stream_mf2.wpt import Wpt, WptMatchEvent, records\n"
        "assert callable(records) and Wpt.__module__ == 'stream_mf2.wpt.model'"
    )
    assert _imported(modules, ("stream_mf2.core.events", "stream_mf2.wpt.model", "stream_mf2.warc.entries")) == [
        "stream_mf2.core.events",
        "stream_mf2.warc.entries",
        "stream_mf2.wpt.model",
    ]


def test_a_prefiltered_warc_run_loads_no_other_syntax_and_no_network_code(tmp_path: Path) -> None:
    archive, out = tmp_path / "crawl.warc.gz", tmp_path / "items.jsonl"
    _archive(archive)
    modules = _modules_after(
        "from stream_mf2.cli import main\n"
        f"status = main(['warc', {str(archive)!r}, '--type', 'h-entry,h-card', '--prefilter',"
        f" '-o', {str(out)!r}, '--no-progress'])\n"
        "assert status == 0, status"
    )
    lines = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    items = [line for line in lines if line["kind"] == "item"]
    assert [item["item"]["type"] for item in items] == [["h-entry"], ["h-card"]]
    assert [line.get("parsed") for line in lines if line["kind"] == "record"] == [True, False]
    assert "stream_mf2.warc.prefilter" in modules and "stream_mf2.core.parser" in modules
    assert _imported(modules, NOT_IN_WARC_RUN) == []
