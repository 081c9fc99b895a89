"""html5lib-tests ``serializer/*.test``: token lists in, one of the expected strings out.

The suite's implicit defaults are html5lib's serializer defaults
(:data:`HTML5LIB_OPTIONS`), and html5lib's own runner adds
``alphabetical_attributes=True``; each test's ``options`` are applied on top. The
``xhtml`` answers are ignored.

Input format: ``["StartTag", namespace, name, attrs]``, ``["EmptyTag", name, attrs]``,
``["EndTag", namespace, name]``, ``["Characters", data]``, ``["Comment", data]``,
``["Doctype", name, public?, system?]``; ``attrs`` is a list of
``{"namespace", "name", "value"}`` (or ``{}`` for none).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from stream_mf2.html.dom import HTML_NS, XLINK_NS, XML_NS, XMLNS_NS
from stream_mf2.html.serialize import (
    HTML5LIB_OPTIONS,
    Characters,
    Comment,
    Doctype,
    EndTag,
    StartTag,
    Token,
    serialize_tokens,
)
from tests.support.suites import require_suite, suite_dir

SUITE = "html5lib-tests/serializer"
FILES = ("core.test", "injectmeta.test", "optionaltags.test", "options.test", "whitespace.test")


def _attr_name(namespace: str | None, name: str) -> str:
    """The spec's *serialised name* of an attribute."""
    if namespace is None:
        return name
    if namespace == XML_NS:
        return f"xml:{name}"
    if namespace == XMLNS_NS:
        return "xmlns" if name == "xmlns" else f"xmlns:{name}"
    if namespace == XLINK_NS:
        return f"xlink:{name}"
    return name


def _attrs(raw: Any) -> tuple[tuple[str, str], ...]:
    if isinstance(raw, dict):  # "{}" stands for no attributes
        assert not raw
        return ()
    return tuple((_attr_name(a["namespace"], a["name"]), a["value"]) for a in raw)


def to_token(raw: list[Any]) -> Token:
    kind = raw[0]
    if kind == "StartTag":
        return StartTag(raw[2], _attrs(raw[3]), raw[1] or HTML_NS)
    if kind == "EmptyTag":
        return StartTag(raw[1], _attrs(raw[2]), HTML_NS, empty=True)
    if kind == "EndTag":
        return EndTag(raw[2], raw[1] or HTML_NS)
    if kind == "Characters":
        return Characters(raw[1])
    if kind == "Comment":
        return Comment(raw[1])
    if kind == "Doctype":
        return Doctype(raw[1], *(x or "" for x in raw[2:4]))
    raise ValueError(f"unknown token type {kind!r}")


def _load(name: str) -> list[dict[str, Any]]:
    root = suite_dir(SUITE)
    assert root is not None
    tests: list[dict[str, Any]] = json.loads((root / name).read_text(encoding="utf-8"))["tests"]
    return tests


def _cases() -> list[tuple[str, int]]:
    if suite_dir(SUITE) is None:
        return [("missing", 0)]
    return [(name, i) for name in FILES for i in range(len(_load(name)))]


CASES = _cases()


@pytest.mark.parametrize(("file", "index"), CASES, ids=[f"{f}#{i}" for f, i in CASES])
def test_serializer(file: str, index: int) -> None:
    require_suite(SUITE)
    test = _load(file)[index]
    options: dict[str, object] = {"alphabetical_attributes": True, **test.get("options", {})}
    # The suite still spells quote_attr_values as a boolean: true = always quote.
    if isinstance(options.get("quote_attr_values"), bool):
        options["quote_attr_values"] = "always" if options["quote_attr_values"] else "spec"
    result = serialize_tokens([to_token(t) for t in test["input"]], HTML5LIB_OPTIONS.with_(**options))
    assert result in test["expected"], f"{test['description']}: {result!r} not in {test['expected']!r}"


def test_case_count() -> None:
    require_suite(SUITE)
    counts = {name: len(_load(name)) for name in FILES}
    assert counts == {
        "core.test": 23,
        "injectmeta.test": 9,
        "optionaltags.test": 181,
        "options.test": 9,
        "whitespace.test": 8,
    }
