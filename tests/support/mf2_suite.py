"""Runner for the official microformats test suite (microformats/tests).

Layout: ``tests/<suite>/<format>/<case>.html`` with the expected mf2 JSON in
``<case>.json``. Only an ``.html`` file with a matching ``.json`` is a case
(every ``change-log.html`` is an h-entry log, not a case). Base URLs:
``http://example.test`` for ``microformats-v2-unit``, ``http://example.com``
for the others.

Comparison is :func:`stream_mf2.cli.conformance.json_diff`, the one ``stream-mf2
conformance`` uses: on data (dict key order never matters), with one allowance
where the suite contradicts itself: resolving an empty reference
(``href=""``) against the slash-less base URL gives ``http://example.com/``
in ``microformats-v2/h-card/impliedurlempty.json`` but
``http://example.test`` (no slash) in 60 places of ``microformats-v2-unit``.
So a string that is exactly the case's base URL, with or without the
trailing slash, compares equal to the other spelling; here that holds for
dictionary keys too (``rel-urls`` is keyed by URL). No other URL is
normalised.

``microformats-v2-unit`` files hold many independent top-level items; they
are scored per item (matched by their unique ``type``) as well as per file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from stream_mf2.cli.conformance import SUITES as SUITES
from stream_mf2.cli.conformance import UNIT_SUITE as UNIT_SUITE
from stream_mf2.cli.conformance import base_url as base_url
from stream_mf2.cli.conformance import json_diff
from stream_mf2.html.dom import Document, Element, Node, ParentNode, Text
from stream_mf2.mf2 import Options, parse_dom


@dataclass(frozen=True)
class Case:
    """One ``.html`` + ``.json`` pair."""

    suite: str
    name: str  # "<format>/<case>", e.g. "h-card/impliedname"
    html: Path
    expected: Path

    @property
    def id(self) -> str:
        return f"{self.suite}/{self.name}"


@dataclass
class CaseResult:
    """The outcome of one case; ``items_passed``/``items_total`` count top-level items."""

    case: Case
    diffs: list[str] = field(default_factory=list)
    items_passed: int = 0
    items_total: int = 0

    @property
    def passed(self) -> bool:
        return not self.diffs


def iter_cases(root: Path, suites: tuple[str, ...] = SUITES) -> Iterator[Case]:
    """Every case of ``suites`` under ``root`` (the suite folder holding ``tests/``), sorted."""
    for suite in suites:
        folder = root / "tests" / suite
        for html in sorted(folder.rglob("*.html")):
            expected = html.with_suffix(".json")
            if expected.is_file():
                yield Case(suite, html.relative_to(folder).with_suffix("").as_posix(), html, expected)


def diff(expected: Any, actual: Any, path: str = "$", *, base: str | None = None) -> list[str]:
    """Differences between two JSON values (empty when equal), with the one allowance for ``base``.

    The comparison of ``stream-mf2 conformance`` (:func:`stream_mf2.cli.conformance.json_diff`), with
    dictionary keys normalised as well, since ``rel-urls`` is keyed by URL.
    """
    return json_diff(expected, actual, path, base=base, normalise_keys=True)


def item_key(item: Any) -> str:
    return " ".join(item.get("type", [])) if isinstance(item, dict) else repr(item)


def run_case(case: Case, parse_html: Callable[[str], Document], options: Options | None = None) -> CaseResult:
    """Parse ``case.html`` with ``parse_html`` and compare with ``case.expected``."""
    base = base_url(case.suite)
    expected = orjson.loads(case.expected.read_bytes())
    document = parse_html(case.html.read_text(encoding="utf-8"))
    actual = parse_dom(document, base, options)
    result = CaseResult(case)
    exp_items: list[Any] = expected.get("items", [])
    act_items: list[Any] = actual.get("items", [])
    result.items_total = len(exp_items)
    if case.suite == UNIT_SUITE:
        # match items by their unique type so that one failure does not shift the rest
        by_type: dict[str, list[Any]] = {}
        for item in act_items:
            by_type.setdefault(item_key(item), []).append(item)
        for n, exp_item in enumerate(exp_items):
            key = item_key(exp_item)
            candidates = by_type.get(key)
            act_item = candidates.pop(0) if candidates else None
            if act_item is None:
                result.diffs.append(f"$.items[{n}] ({key}): missing")
                continue
            d = diff(exp_item, act_item, f"$.items[{n}] ({key})", base=base)
            result.diffs.extend(d)
            result.items_passed += not d
        for key, left in by_type.items():
            result.diffs.extend(f"$.items: unexpected item {key}" for _ in left)
    else:
        d = diff(exp_items, act_items, "$.items", base=base)
        result.diffs.extend(d)
        result.items_passed = result.items_total if not d else 0
    for key in ("rels", "rel-urls"):
        result.diffs.extend(diff(expected.get(key, {}), actual.get(key, {}), f"$.{key}", base=base))
    return result


def run_all(
    root: Path, parse_html: Callable[[str], Document], suites: tuple[str, ...] = SUITES
) -> dict[str, list[CaseResult]]:
    """Run every case; results grouped by suite."""
    out: dict[str, list[CaseResult]] = {s: [] for s in suites}
    for case in iter_cases(root, suites):
        out[case.suite].append(run_case(case, parse_html))
    return out


def summary(results: dict[str, list[CaseResult]]) -> str:
    """One line per suite: files passed/total, items passed/total."""
    lines = []
    for suite, rows in results.items():
        files = sum(r.passed for r in rows)
        items = sum(r.items_passed for r in rows)
        total_items = sum(r.items_total for r in rows)
        lines.append(f"{suite}: files {files}/{len(rows)}, items {items}/{total_items}")
    return "\n".join(lines)


def parse_html(html: str) -> Document:
    """Parse a whole document with this project's HTML parser (full DOM)."""
    from stream_mf2.html.testing.tree import parse_document  # re-exported by html.testing

    return parse_document(html)


def el(name: str, attrs: dict[str, str] | None = None, *children: Node | str) -> Element:
    """Build an element by hand (mf2 unit tests do not depend on the HTML parser)."""
    element = Element(name, attrs=dict(attrs) if attrs else {})
    _adopt(element, children)
    return element


def document(*children: Node | str) -> Document:
    """A document node holding ``children``."""
    doc = Document()
    _adopt(doc, children)
    return doc


def _adopt(parent: ParentNode, children: tuple[Node | str, ...]) -> None:
    for child in children:
        node = Text(child) if isinstance(child, str) else child
        node.parent = parent
        parent.children.append(node)
