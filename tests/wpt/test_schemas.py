"""The published schemas (issue 25, item 12): the RELAX NG schema of templates
(``docs/schemas/wpt.rng``) accepts every template of the repository and refuses what the
loader refuses or warns of; the JSON Schema of ``stream-mf2 wpt``'s lines
(``docs/schemas/wpt-lines.schema.json``) holds for the real output of the command, pages,
matches and errors, over HTML pages and WARC archives."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_cli
from tests.support.suites import REPO

lxml_etree = pytest.importorskip("lxml.etree")
jsonschema = pytest.importorskip("jsonschema")

SCHEMAS = REPO / "docs" / "schemas"
FIX = REPO / "fixtures" / "wpt"
OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'
TEMPLATES = sorted(FIX.glob("*.xml"))


def _relaxng() -> Any:
    return lxml_etree.RelaxNG(lxml_etree.parse(str(SCHEMAS / "wpt.rng")))


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_every_repository_template_is_valid(path: Path) -> None:
    schema = _relaxng()
    assert schema.validate(lxml_etree.parse(str(path))), schema.error_log


def _wpt(body: str, *, template: str = 'ow:name="T" ow:url="http://h/"', after: str = "") -> bytes:
    return f'<ow:wpt {OW} ow:host="h"><ow:template {template}>{body}</ow:template>{after}</ow:wpt>'.encode()


VALID = [
    _wpt('<ow:block ow:tagid="a">menu</ow:block>'),
    _wpt('<ow:block tagid="a" type="repeatable">x<ow:block xpath="p">y</ow:block></ow:block>'),
    _wpt(
        '<ow:block ow:tagid="a" xml:lang="en"><rdf:Description xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"'
        ' rdf:about="http://h/"/></ow:block>'
    ),
    _wpt(
        '<ow:block ow:tagid="a"/>',
        template='ow:name="T"',
        after='<ow:urls ow:template="T"><ow:url>http://h/</ow:url></ow:urls>',
    ),
    _wpt(
        '<ow:block ow:tagid="a"/>',
        after='<ow:ontology ow:name="o"><ow:concept>logo</ow:concept>'
        '<ow:concept ow:name="artist"><ow:inherit>person</ow:inherit><ow:has>name</ow:has></ow:concept></ow:ontology>',
    ),
]
INVALID = {
    "unknown ow: attribute": _wpt('<ow:block ow:tagid="a" ow:xpth="/html"/>'),
    "unknown block type": _wpt('<ow:block ow:tagid="a" ow:type="list"/>'),
    "no template": f'<ow:wpt {OW} ow:host="h"/>'.encode(),
    "no host": f'<ow:wpt {OW}><ow:template ow:name="T"><ow:block ow:tagid="a"/></ow:template></ow:wpt>'.encode(),
    "template without block": _wpt(""),
    "template without name": _wpt('<ow:block ow:tagid="a"/>', template='ow:url="http://h/"'),
    "ontology without name": _wpt(
        '<ow:block ow:tagid="a"/>', after="<ow:ontology><ow:concept>x</ow:concept></ow:ontology>"
    ),
    "urls without url": _wpt('<ow:block ow:tagid="a"/>', after='<ow:urls ow:template="T"/>'),
    "unknown ow: element": _wpt('<ow:block ow:tagid="a"><ow:blok/></ow:block>'),
}


@pytest.mark.parametrize("xml", VALID)
def test_templates_the_loader_takes_without_a_warning_are_valid(xml: bytes) -> None:
    from stream_mf2.wpt import load

    assert load(xml).warnings == () or all("is not declared" in w for w in load(xml).warnings)
    schema = _relaxng()
    assert schema.validate(lxml_etree.fromstring(xml).getroottree()), schema.error_log


@pytest.mark.parametrize("name", sorted(INVALID))
def test_templates_the_loader_refuses_or_warns_of_are_invalid(name: str) -> None:
    from stream_mf2.wpt import TemplateError, load

    xml = INVALID[name]
    try:
        refused = bool(load(xml).warnings)
    except TemplateError:
        refused = True
    assert refused, name
    assert not _relaxng().validate(lxml_etree.fromstring(xml).getroottree()), name


# -- the output lines --------------------------------------------------------------------------------


def _validator() -> Any:
    schema = json.loads((SCHEMAS / "wpt-lines.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _lines(*args: str) -> list[dict[str, Any]]:
    r = run_cli("wpt", *args)
    assert r.returncode == 0, r.stderr.decode()
    return [json.loads(line) for line in r.stdout.splitlines()]


def _check(lines: list[dict[str, Any]]) -> None:
    validator = _validator()
    for line in lines:
        errors = [e.message for e in validator.iter_errors(line)]
        assert not errors, (line["kind"], errors)


@pytest.mark.parametrize("name", [p.stem for p in TEMPLATES])
@pytest.mark.parametrize("form", [[], ["--matches"], ["--records", "--jsonld"]])
def test_the_lines_of_every_fixture_are_valid(name: str, form: list[str]) -> None:
    lines = _lines(str(FIX / f"{name}.xml"), str(FIX / f"{name}.html"), *form)
    assert lines
    kinds = {"wpt-record", "wpt-jsonld"} if form == ["--records", "--jsonld"] else {"wpt", "wpt-match", "wpt-errors"}
    assert {x["kind"] for x in lines} <= kinds
    _check(lines)


def test_error_lines_are_valid() -> None:
    # A page-source pattern past a tiny window: the page has errors.
    args = (str(FIX / "markup-pattern.xml"), str(FIX / "markup-pattern.html"), "--max-pattern-chars", "8")
    pages = _lines(*args)
    errors = _lines(*args, "--matches")
    recs = _lines(*args, "--records", "--jsonld")
    assert any(p.get("errors") for p in pages)
    assert any(x["kind"] == "wpt-errors" for x in errors)
    assert any(x["kind"] == "wpt-record" and x.get("errors") for x in recs)
    _check(pages + errors + recs)


def test_warc_lines_are_valid(tmp_path: Path) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    archive = tmp_path / "crawl.warc.gz"
    with archive.open("wb") as f:
        writer = WARCWriter(f, gzip=True)
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        body = io.BytesIO((FIX / "readme.html").read_bytes())
        writer.write_record(
            writer.create_warc_record("https://records.example/ar-42", "response", payload=body, http_headers=http)
        )
    for extra in ([], ["--matches"], ["--records", "--jsonld"]):
        lines = [x for x in _lines(str(FIX / "readme.xml"), str(archive), *extra) if x["kind"].startswith("wpt")]
        assert lines and all("warc_file" in x for x in lines)
        _check(lines)


def test_the_schema_refuses_a_line_of_another_shape() -> None:
    [page] = _lines(str(FIX / "readme.xml"), str(FIX / "readme.html"), "--url", "https://records.example/ar-42")
    validator = _validator()
    assert validator.is_valid(page)
    assert not validator.is_valid({k: v for k, v in page.items() if k != "blocks"})
    assert not validator.is_valid({**page, "extra": 1})
    assert not validator.is_valid({**page, "blocks": [{**page["blocks"][0], "matches": [{"xpath": 1}]}]})
    args = (str(FIX / "readme.xml"), str(FIX / "readme.html"), "--url", "https://records.example/ar-42")
    rec, *_, ld = _lines(*args, "--records", "--jsonld")
    assert validator.is_valid(rec) and validator.is_valid(ld)
    assert not validator.is_valid({**rec, "data": {"artist": {"name": 1}}})
    assert not validator.is_valid({**rec, "block": "x"})
    assert not validator.is_valid({**ld, "jsonld": {"@graph": []}})
