"""``wpt lint --encoding``: lint a saved page in the encoding ``wpt`` is told.

A page saved from a server that sent its charset in the HTTP header (and has no ``<meta
charset>``) is read by ``stream-mf2 wpt --encoding LABEL``; ``wpt lint`` had no such flag, so it
decoded the page by detection and warned that blocks the run matches "never match". An unknown
label is ignored with a warning, as by every other command (``xpath`` ignored it silently).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import run_cli

pytest.importorskip("defusedxml")
pytest.importorskip("regex")

TEMPLATE = """<?xml version="1.0" encoding="UTF-8"?>
<ow:wpt xmlns:ow="http://www.omfica.org/schemas/ow/0.9" ow:host="https://magazin.example">
<ow:template ow:name="Product" ow:url="https://magazin.example/tovar/(product.id[[0-9]+])" ow:ontology="shop">
<ow:block ow:pattern="Цена: (product.price[[0-9]+]) руб">product</ow:block>
<ow:block ow:tagid="title">product.name</ow:block>
</ow:template>
<ow:ontology ow:name="shop">
<ow:concept ow:name="product"><ow:has>name</ow:has><ow:has>price</ow:has><ow:has>id</ow:has></ow:concept>
</ow:ontology>
</ow:wpt>
"""
PAGE = (
    "<!doctype html><html lang=ru><head><title>Чайник</title></head><body>"
    '<nav><a href="/">Главная</a> / <a href="/kuhnya">Кухня</a></nav>'
    '<h1 id="title">Чайник электрический</h1><p class="price">Цена: 1290 руб.</p>'
    "<p>В наличии: 12 шт.</p></body></html>"
)
URL = "https://magazin.example/tovar/7"


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Path, Path]:
    template = tmp_path / "shop.xml"
    template.write_text(TEMPLATE, "utf-8")
    page = tmp_path / "tovar-7.html"
    page.write_bytes(PAGE.encode("koi8-r"))  # the server said charset=koi8-r; the page says nothing
    return template, page


def test_lint_decodes_the_page_as_wpt_does(saved: tuple[Path, Path]) -> None:
    template, page = saved
    r = run_cli("wpt", str(template), str(page), "--url", URL, "--records", "--encoding", "koi8-r")
    assert r.returncode == 0, r.stderr.decode()
    (record,) = [json.loads(line) for line in r.stdout.splitlines()]
    assert record["data"]["product"]["price"] == "1290"
    r = run_cli("wpt", "lint", str(template), str(page), "--url", URL, "--encoding", "koi8-r")
    assert r.returncode == 0, (r.stdout + r.stderr).decode()
    assert r.stdout == b""
    # detected instead (windows-1252): the price pattern cannot match, and lint says so
    r = run_cli("wpt", "lint", str(template), str(page), "--url", URL)
    assert r.returncode == 1
    assert "never matches on" in r.stdout.decode()


def test_an_unknown_label_is_ignored_with_a_warning_by_lint_and_xpath(saved: tuple[Path, Path]) -> None:
    template, page = saved
    r = run_cli("wpt", "lint", str(template), str(page), "--url", URL, "--encoding", "koi8-x")
    assert "warning: unknown encoding label 'koi8-x', ignored" in r.stderr.decode()
    r = run_cli("xpath", str(page), "--id", "title", "--encoding", "koi8-x")
    assert r.returncode == 0, r.stderr.decode()
    assert "warning: unknown encoding label 'koi8-x', ignored" in r.stderr.decode()
    r = run_cli("xpath", str(page), "--id", "title", "--encoding", "koi8-r")
    assert json.loads(r.stdout)["text"] == "Чайник электрический"


@pytest.mark.network_local
def test_lint_goes_on_past_a_page_it_cannot_read(saved: tuple[Path, Path], tmp_path: Path) -> None:
    """One page of several that could not be fetched (a 404) stopped the lint with that error
    alone: the other pages' findings and the template's own were never printed."""
    from tests.support.servers import range_server

    template, page = saved
    (tmp_path / "www").mkdir()
    with range_server(tmp_path / "www") as server:
        gone = server.url("tovar/8")
        r = run_cli("wpt", "lint", str(template), gone, str(page), str(tmp_path / "tovar-9.html"), "--url", URL)
    assert r.returncode == 1
    out = r.stdout.decode().splitlines()
    assert out[0] == f"{gone}: error: HTTP 404 Not Found"
    assert any("never matches on " + str(page) in line for line in out)  # the next page was linted
    assert out[-1].startswith(f"{tmp_path / 'tovar-9.html'}: error: cannot open")
    assert "Traceback" not in r.stderr.decode()
