"""Flags that only mean something with another one are refused without it (status 2).

``--microdata-form whatwg`` without microdata among ``--syntaxes`` and ``--stream-children``
without ``--jsonl`` (page command) were accepted and changed nothing: a user asking for the
WHATWG form, or for children as they close, got the default output and no word. Now each is a
bad command line naming what it needs, as ``--syntaxes`` without ``--items`` is for ``wpt``.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import assert_user_error, run_cli
from tests.support.suites import REPO

#: A shop page with microdata (an itemref'd offer) and an h-feed of reviews.
PRODUCT = b"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><base href="https://shop.example/"><title>Anvil - ACME shop</title></head>
<body>
<main itemscope itemtype="https://schema.org/Product" itemref="offer">
  <h1 itemprop="name">Anvil</h1>
  <p itemprop="description">A 50 kg anvil for blacksmiths.</p>
</main>
<div id="offer" itemprop="offers" itemscope itemtype="https://schema.org/Offer">
  <span itemprop="price">129.00</span> <meta itemprop="priceCurrency" content="EUR">
</div>
<section class="h-feed"><h2 class="p-name">Reviews</h2>
  <article class="h-entry"><p class="p-name">Sturdy</p><a class="u-url" href="https://shop.example/r/1">#</a></article>
  <article class="h-entry"><p class="p-name">Heavy</p><a class="u-url" href="https://shop.example/r/2">#</a></article>
</section>
</body></html>
"""
URL = "https://shop.example/anvil"


@pytest.fixture
def page(tmp_path: Path) -> str:
    path = tmp_path / "anvil.html"
    path.write_bytes(PRODUCT)
    return str(path)


def _ok(r: subprocess.CompletedProcess[bytes]) -> bytes:
    assert r.returncode == 0, r.stderr.decode()
    return r.stdout


@pytest.mark.parametrize("syntaxes", [[], ["--syntaxes", "json-ld"], ["--syntaxes", "mf2,opengraph"]])
def test_microdata_form_without_microdata_is_refused(page: str, syntaxes: list[str]) -> None:
    r = run_cli(page, "--url", URL, "--microdata-form", "whatwg", *syntaxes)
    assert_user_error(r, 2, "--microdata-form")
    assert "--syntaxes microdata" in r.stderr.decode() and r.stdout == b""


def test_microdata_form_with_microdata_changes_the_items(page: str) -> None:
    whatwg = json.loads(_ok(run_cli(page, "--url", URL, "--syntaxes", "microdata", "--microdata-form", "whatwg")))
    extruct = json.loads(_ok(run_cli(page, "--url", URL, "--syntaxes", "all", "--microdata-form", "extruct")))
    assert whatwg["microdata"] and extruct["microdata"] and whatwg["microdata"] != extruct["microdata"]


def test_microdata_form_is_refused_by_warc_and_wpt_too(page: str, tmp_path: Path) -> None:
    assert_user_error(run_cli("warc", str(tmp_path / "x.warc.gz"), "--microdata-form", "whatwg"), 2, "--syntaxes microdata")
    template = str(REPO / "fixtures" / "wpt" / "readme.xml")
    assert_user_error(
        run_cli("wpt", template, page, "--template", "Artist", "--items", "--microdata-form", "whatwg"),
        2,
        "--syntaxes microdata",
    )


@pytest.mark.parametrize("flag", ["--stream-children", "--stream-children=h-feed"])
def test_stream_children_without_jsonl_is_refused(page: str, flag: str) -> None:
    r = run_cli(flag, page, "--url", URL)
    assert_user_error(r, 2, "--stream-children")
    assert "--jsonl" in r.stderr.decode() and r.stdout == b""
    # with --jsonl the children of the feed are item lines as they close
    lines = [json.loads(x) for x in _ok(run_cli("--jsonl", flag, page, "--url", URL)).splitlines()]
    assert [x["path"] for x in lines if "path" in x] == [[0, 0], [0, 1]]


def test_warc_run_flags_without_what_they_need_are_refused(tmp_path: Path) -> None:
    """``--input-prefix`` without ``--input-list`` and ``--checkpoint-records`` without ``--resume``
    were accepted and ignored by ``warc`` and ``wpt``; over HTML pages ``wpt`` also ignored the
    WARC body limits ``--max-decoded-bytes`` and ``--max-expansion``."""
    from tests.support.warc_records import html_archive

    archive = str(html_archive(tmp_path / "shop.warc.gz", [PRODUCT], uri=URL + "{}"))
    template = str(REPO / "fixtures" / "wpt" / "artist.xml")
    out = str(tmp_path / "out.jsonl")
    for command in (("warc", archive), ("wpt", template, archive)):
        r = run_cli(*command, "--input-prefix", "https://data.commoncrawl.org/")
        assert_user_error(r, 2, "--input-prefix goes before the names read from --input-list files")
        r = run_cli(*command, "-o", out, "--checkpoint-records", "50")
        assert_user_error(r, 2, "--checkpoint-records sets how often --resume checkpoints: give it with --resume")
        r = run_cli(*command, "-o", out, "--checkpoint-records", "50", "--resume")
        assert r.returncode == 0, r.stderr.decode()
    page = tmp_path / "anvil.html"
    page.write_bytes(PRODUCT)
    for flag in (("--max-decoded-bytes", "1000"), ("--max-expansion", "5")):
        r = run_cli("wpt", template, str(page), *flag)
        assert_user_error(r, 2, f"{flag[0]} applies to WARC inputs")
        r = run_cli("wpt", template, archive, *flag)  # where it means something
        assert r.returncode == 0, r.stderr.decode()
