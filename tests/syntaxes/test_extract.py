"""stream_mf2.extract and the extruct drop-in against extruct itself, on the same pages."""

from __future__ import annotations

import glob
import importlib.util
import io
from pathlib import Path
from typing import Any

import extruct
import pytest
from extruct.uniform import _umicrodata_microformat

import stream_mf2
import stream_mf2.mf2py
from stream_mf2 import SyntaxUnavailable, UnknownSyntax
from stream_mf2.extruct import extract as dropin_extract
from tests.syntaxes.pages import PAGES

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted(glob.glob(str(ROOT / "fixtures" / "**" / "*.html"), recursive=True))
URL = "https://blog.example.com/2024/05/static-hosting/"
# extruct raises on a JSON-LD block of these two pages (test_jsonld compares them block by block)
EXTRUCT_READS_JSONLD = sorted(set(PAGES) - {"shop-product", "recipe"})
MINE = ["json-ld", "opengraph", "dublincore"]


def _inputs() -> list[tuple[str, str | bytes, list[str]]]:
    out: list[tuple[str, str | bytes, list[str]]] = []
    for name, html in sorted(PAGES.items()):
        syntaxes = MINE if name in EXTRUCT_READS_JSONLD else ["opengraph", "dublincore"]
        out.append((name, html, syntaxes))
        out.append((name + "-bytes", html.encode(), syntaxes))
    out += [(Path(p).name, Path(p).read_bytes(), MINE) for p in FIXTURES]
    return out


INPUTS = _inputs()


@pytest.mark.parametrize(("name", "html", "syntaxes"), INPUTS, ids=[i[0] for i in INPUTS])
@pytest.mark.parametrize("uniform", [False, True])
def test_dropin_equals_extruct(name: str, html: str | bytes, syntaxes: list[str], uniform: bool) -> None:
    expected = extruct.extract(html, base_url=URL, syntaxes=syntaxes, uniform=uniform)
    got = dropin_extract(html, base_url=URL, syntaxes=syntaxes, uniform=uniform)
    assert list(got) == list(expected)
    for key in expected:
        assert got[key] == expected[key], key


@pytest.mark.parametrize("name", sorted(PAGES))
def test_og_arrays_uniform(name: str) -> None:
    html = PAGES[name]
    for with_og_array in (False, True):
        kw: dict[str, Any] = {"syntaxes": ["opengraph"], "uniform": True, "with_og_array": with_og_array}
        assert dropin_extract(html, **kw) == extruct.extract(html, **kw)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_microformat_is_the_mf2py_dropin(name: str) -> None:
    html = PAGES[name]
    got = dropin_extract(html, base_url=URL, syntaxes=["microformat"])
    assert got == {"microformat": stream_mf2.mf2py.parse(html, url=URL)["items"]}
    uniform = dropin_extract(html, base_url=URL, syntaxes=["microformat"], uniform=True)
    assert uniform["microformat"] == _umicrodata_microformat(got["microformat"], "http://microformats.org/wiki/")


def test_extract_names_and_sources(tmp_path: Path) -> None:
    html = PAGES["wordpress-post"]
    result = stream_mf2.extract(html, URL, syntaxes={"mf2", "json-ld", "twitter", "opengraph"})
    assert list(result) == ["json-ld", "opengraph", "microformat", "twitter"]
    path = tmp_path / "page.html"
    path.write_text(html, encoding="utf-8")
    syntaxes = {"json-ld", "opengraph", "dublincore"}
    whole = stream_mf2.extract(html, URL, syntaxes=syntaxes)
    assert stream_mf2.extract(path, URL, syntaxes=syntaxes) == whole
    assert stream_mf2.extract(io.BytesIO(html.encode()), URL, syntaxes=syntaxes) == whole
    assert stream_mf2.extract(iter([html[:100], html[100:]]), URL, syntaxes=syntaxes) == whole


def test_dropin_arguments() -> None:
    with pytest.raises(ValueError, match="syntaxes"):
        dropin_extract("<p>", syntaxes=["json-ld", "mf2"])
    with pytest.raises(ValueError, match="syntaxes"):
        dropin_extract("<p>", syntaxes=("json-ld",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="error"):
        dropin_extract("<p>", syntaxes=["json-ld"], errors="loud")
    with pytest.raises(ValueError, match="return_html_node"):
        dropin_extract("<p>", syntaxes=["json-ld"], return_html_node=True)
    with pytest.raises(TypeError):
        dropin_extract(extruct.utils.parse_html("<p>", "UTF-8"), syntaxes=["json-ld"])  # type: ignore[arg-type]
    with pytest.deprecated_call():
        assert dropin_extract("<p>", url="https://x.example/", syntaxes=["opengraph"]) == {"opengraph": []}
    with pytest.raises(UnknownSyntax):
        stream_mf2.extract("<p>", syntaxes={"microformat"})


def test_dropin_errors_on_a_limit() -> None:
    html = "<div>" * 50
    with pytest.raises(stream_mf2.LimitExceeded):
        stream_mf2.extract(html, syntaxes={"json-ld"}, max_depth=20)
    assert dropin_extract(html, syntaxes=["json-ld"]) == {"json-ld": []}  # (no limit given here)


def test_encoding_is_the_transport_charset() -> None:
    html = '<html><head><meta charset="windows-1252"><meta name="DC.title" content="caf\u00e9"></head></html>'
    data = html.encode("utf-8")
    got = dropin_extract(data, syntaxes=["dublincore"])
    assert got == extruct.extract(data, syntaxes=["dublincore"])
    assert got["dublincore"][0]["elements"][0]["content"] == "caf\u00e9"


@pytest.mark.parametrize("name", ["microdata", "rdfa"])
def test_default_syntaxes_need_every_package(name: str) -> None:
    if importlib.util.find_spec(f"stream_mf2.{name}") is not None:
        pytest.skip(f"stream_mf2.{name} is installed")
    with pytest.raises(SyntaxUnavailable):
        dropin_extract("<p>")
    with pytest.raises(SyntaxUnavailable):
        stream_mf2.extract("<p>")


EDGE_CASES = {
    "og-in-body": '<html><head><title>t</title></head><body><meta property="og:title" content="b"></body></html>',
    "noscript-in-head": (
        '<html><head><noscript><meta property="og:x" content="n"></noscript>'
        '<meta property="og:title" content="t"></head><body></body></html>'
    ),
    "div-ends-head": (
        '<html><head><meta property="og:a" content="1"><div>x</div><meta property="og:b" content="2"></head></html>'
    ),
    "no-head-tag": '<meta property="og:a" content="1"><p>x</p>',
    "uppercase": '<HTML><HEAD><META PROPERTY="og:title" CONTENT="u"><META NAME="DC.Title" CONTENT="d"></HEAD></HTML>',
    "prefixes": (
        '<html prefix="a: http://a/"><head prefix="b: http://b/ og: http://x/"><meta property="a:x" content="1">'
        '<meta property="b:y" content="2"><meta property="og:z" content="3"><meta property="c:w" content="4"></head></html>'
    ),
    "dc-types": (
        '<head><meta name="DC.type" content="Text"><meta name="DC.title" content="t">'
        '<meta name="dc.type" content="Image"></head>'
    ),
    "title-then-meta": '<title>x</title><meta property="og:title" content="t"><body>',
    "entities": '<head><meta property="og:title" content="a &amp; b &eacute;"></head>',
}


@pytest.mark.parametrize("name", sorted(EDGE_CASES))
@pytest.mark.parametrize("syntax", ["opengraph", "dublincore", "json-ld"])
@pytest.mark.parametrize("uniform", [False, True])
def test_edge_cases_equal_extruct(name: str, syntax: str, uniform: bool) -> None:
    html = EDGE_CASES[name]
    assert dropin_extract(html, syntaxes=[syntax], uniform=uniform) == extruct.extract(
        html, syntaxes=[syntax], uniform=uniform
    )


def test_documented_differences() -> None:
    # A schema link without href: extruct raises KeyError; here it declares nothing.
    html = '<head><link rel="schema.DC"><meta name="DC.title" content="t"></head>'
    with pytest.raises(KeyError):
        extruct.extract(html, syntaxes=["dublincore"])
    assert dropin_extract(html, syntaxes=["dublincore"])["dublincore"][0]["namespaces"] == {}
    # A script inside <svg> is SVG's, not a JSON-LD block (libxml2 knows no SVG).
    html = '<body><svg><script type="application/ld+json">{"a":1}</script></svg></body>'
    assert extruct.extract(html, syntaxes=["json-ld"]) == {"json-ld": [{"a": 1}]}
    assert dropin_extract(html, syntaxes=["json-ld"]) == {"json-ld": []}
