"""Run the official microformats test suite through :func:`stream_mf2.parse`.

The suite (https://github.com/microformats/tests) is a folder of
``tests/<suite>/<format>/<case>.html`` inputs, each with the expected mf2 JSON
in ``<case>.json``::

    from stream_mf2.cli.conformance import run_microformats_suite
    report = run_microformats_suite("path/to/microformats-tests")
    print(report.format())

What is run
    Every ``.html`` file that has a ``.json`` next to it (so each folder's
    ``change-log.html``, an h-entry log with no expected output, is skipped),
    in the suites ``microformats-v2``, ``microformats-v2-unit``,
    ``microformats-mixed`` and ``microformats-v1``. The file's bytes are given
    to :func:`stream_mf2.parse` with the base URL the suite assumes:
    ``http://example.test`` for ``microformats-v2-unit`` (its README says so),
    ``http://example.com`` for the others.

How it is scored
    Per file: the whole ``items``, ``rels`` and ``rel-urls`` must match the
    expected JSON (as data: key order never matters, list order does).
    ``microformats-v2-unit`` files hold many independent top-level items with
    unique types (``h-test-…``), so that suite is also scored per item: each
    expected item is compared with the parsed item of the same ``type``.
    The other suites count a file's items as passed only when the whole file
    passes.

The one normalisation
    The suite says its outputs should pass without URL normalisation, and no
    URL is normalised here except for one case where the suite contradicts
    itself. Resolving the empty reference (``href=""``) against a base URL
    written without a path gives ``http://example.com/`` (with the slash, as
    the URL standard serialises it) in
    ``microformats-v2/h-card/impliedurlempty.json`` but ``http://example.test``
    (without) in 60 places of ``microformats-v2-unit``. No output can satisfy
    both, so an expected string that is *exactly* the case's base URL, with or
    without the trailing ``/``, equals an actual string that is exactly the
    other spelling. Every other string, including every other URL, must match
    character for character.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from stream_mf2.cli._common import PROG, ArgumentParser, UserError

__all__ = [
    "SUITES",
    "CaseFailure",
    "SuiteReport",
    "SuiteResult",
    "base_url",
    "find_suite_root",
    "json_diff",
    "run_microformats_suite",
]

#: The suites run, in the order reported.
SUITES = ("microformats-v2", "microformats-v2-unit", "microformats-mixed", "microformats-v1")
#: The suite scored per top-level item as well as per file.
UNIT_SUITE = "microformats-v2-unit"
#: How many differences a failure keeps (the rest are counted, not listed).
MAX_DIFFS = 8
_MAX_VALUE_CHARS = 80


def base_url(suite: str) -> str:
    """The base URL the expected output of ``suite`` assumes."""
    return "http://example.test" if suite == UNIT_SUITE else "http://example.com"


@dataclass(frozen=True)
class CaseFailure:
    """One failing file, or one failing item of a ``microformats-v2-unit`` file.

    ``case`` is ``"<format>/<name>"`` (e.g. ``"h-card/impliedname"``); ``item``
    the top-level ``type`` of the failing item (``microformats-v2-unit`` only,
    else ``None``); ``diffs`` short lines ``"<JSON path>: expected …, got …"``.
    """

    suite: str
    case: str
    item: str | None
    diffs: tuple[str, ...]

    @property
    def id(self) -> str:
        """``suite/case`` or ``suite/case#item``."""
        where = f"{self.suite}/{self.case}"
        return f"{where}#{self.item}" if self.item else where


@dataclass
class SuiteResult:
    """Pass counts for one suite."""

    name: str
    files_total: int = 0
    files_passed: int = 0
    items_total: int = 0
    items_passed: int = 0


@dataclass
class SuiteReport:
    """The outcome of :func:`run_microformats_suite`."""

    root: Path
    suites: dict[str, SuiteResult] = field(default_factory=dict)
    failures: list[CaseFailure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """True when every file (and so every item) passed."""
        return all(s.files_passed == s.files_total for s in self.suites.values())

    def format(self, *, max_failures: int | None = 50) -> str:
        """A text table of the counts, then each failure with its differences."""
        rows = [("suite", "files", "items")]
        for s in self.suites.values():
            rows.append((s.name, f"{s.files_passed}/{s.files_total}", f"{s.items_passed}/{s.items_total}"))
        rows.append(
            (
                "total",
                f"{sum(s.files_passed for s in self.suites.values())}/{sum(s.files_total for s in self.suites.values())}",
                f"{sum(s.items_passed for s in self.suites.values())}/{sum(s.items_total for s in self.suites.values())}",
            )
        )
        widths = [max(len(r[i]) for r in rows) for i in range(3)]
        lines = [f"microformats test suite: {self.root}"]
        for n, row in enumerate(rows):
            lines.append(f"{row[0]:<{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]:>{widths[2]}}")
            if n == 0 or n == len(rows) - 2:
                lines.append("-" * (sum(widths) + 4))
        shown = self.failures if max_failures is None else self.failures[:max_failures]
        if shown:
            lines.append("")
            lines.append(f"failures ({len(self.failures)}):")
            for failure in shown:
                lines.append(f"  {failure.id}")
                lines.extend(f"      {d}" for d in failure.diffs)
            if len(shown) < len(self.failures):
                lines.append(f"  … and {len(self.failures) - len(shown)} more")
        return "\n".join(lines)


def find_suite_root(path: str | Path) -> Path:
    """The folder holding the suite folders, from any of the accepted spellings.

    Accepts the ``microformats-tests`` checkout (holding ``tests/``), its
    ``tests/`` folder itself, or a folder that contains ``microformats-tests/``.
    Raises :class:`FileNotFoundError` when none of them holds a suite.
    """
    start = Path(path)
    for candidate in (start, start / "tests", start / "microformats-tests" / "tests", start / "microformats-tests"):
        if any((candidate / suite).is_dir() for suite in SUITES):
            return candidate
    raise FileNotFoundError(f"no microformats test suite under {start} (expected one of {', '.join(SUITES)})")


def _cases(folder: Path) -> Iterator[tuple[str, Path, Path]]:
    for html in sorted(folder.rglob("*.html")):
        expected = html.with_suffix(".json")
        if expected.is_file():
            yield html.relative_to(folder).with_suffix("").as_posix(), html, expected


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= _MAX_VALUE_CHARS else text[: _MAX_VALUE_CHARS - 1] + "…"


def json_diff(
    expected: Any, actual: Any, path: str = "$", *, base: str | None = None, normalise_keys: bool = False
) -> list[str]:
    """Short lines naming each difference between two JSON values (empty when equal).

    With ``base``, a string that is exactly ``base`` or ``base + "/"`` equals
    the other spelling (see the module docstring). ``normalise_keys`` extends
    that to dictionary keys (``rel-urls`` is keyed by URL): a key spelled one
    way matches the same key spelled the other way. Walks with an explicit
    stack, so any nesting depth is fine.
    """
    spellings = (base, base + "/") if base is not None else ()
    keyed = normalise_keys and base is not None
    out: list[str] = []
    stack: list[tuple[Any, Any, str]] = [(expected, actual, path)]
    while stack:
        exp, act, where = stack.pop()
        if isinstance(exp, dict) and isinstance(act, dict):
            if keyed:
                exp, act = _one_spelling(exp, spellings), _one_spelling(act, spellings)
            for key in sorted(exp.keys() - act.keys()):
                out.append(f"{where}.{key}: missing, expected {_short(exp[key])}")
            for key in sorted(act.keys() - exp.keys()):
                out.append(f"{where}.{key}: unexpected {_short(act[key])}")
            for key in sorted(exp.keys() & act.keys(), reverse=True):
                stack.append((exp[key], act[key], f"{where}.{key}"))
        elif isinstance(exp, list) and isinstance(act, list) and len(exp) == len(act):
            stack.extend((e, a, f"{where}[{i}]") for i, (e, a) in reversed(list(enumerate(zip(exp, act, strict=True)))))
        elif isinstance(exp, str) and isinstance(act, str) and exp in spellings and act in spellings:
            continue
        elif type(exp) is not type(act) or exp != act:
            out.append(f"{where}: expected {_short(exp)}, got {_short(act)}")
    return out


def _one_spelling(d: dict[Any, Any], spellings: tuple[str, ...]) -> dict[Any, Any]:
    """``d`` with a key spelled as either base URL spelling renamed to the one with the slash."""
    if not any(k in spellings for k in d):
        return d
    return {spellings[-1] if k in spellings else k: v for k, v in d.items()}


def _item_type(item: Any) -> str:
    if isinstance(item, dict):
        return " ".join(str(t) for t in item.get("type", []))
    return repr(item)


def _failure(suite: str, case: str, item: str | None, diffs: list[str]) -> CaseFailure:
    kept = diffs[:MAX_DIFFS]
    if len(diffs) > MAX_DIFFS:
        kept.append(f"… {len(diffs) - MAX_DIFFS} more differences")
    return CaseFailure(suite, case, item, tuple(kept))


def _parse(data: bytes, base: str, chunk_size: int | None) -> dict[str, Any]:
    # imported here so that importing this module stays cheap for the CLI's help
    from stream_mf2.core.parser import Parser
    from stream_mf2.io.api import parse

    if chunk_size is None:
        return parse(data, base)
    parser = Parser(base)
    items: list[Any] = []
    for offset in range(0, len(data), chunk_size):
        items.extend(parser.feed(data[offset : offset + chunk_size]))
    items.extend(parser.close())
    return {"items": items, "rels": parser.rels, "rel-urls": parser.rel_urls}


def _run_case(
    suite: str, case: str, html: Path, expected_path: Path, report: SuiteReport, chunk_size: int | None
) -> None:
    base = base_url(suite)
    expected = json.loads(expected_path.read_bytes())
    actual = _parse(html.read_bytes(), base, chunk_size)
    result = report.suites[suite]
    result.files_total += 1
    exp_items: list[Any] = expected.get("items", [])
    act_items: list[Any] = actual["items"]
    result.items_total += len(exp_items)
    file_diffs: list[str] = []
    if suite == UNIT_SUITE:
        # match by the unique top-level type, so that one failure does not shift the rest
        by_type: dict[str, list[Any]] = {}
        for item in act_items:
            by_type.setdefault(_item_type(item), []).append(item)
        for n, exp_item in enumerate(exp_items):
            key = _item_type(exp_item)
            candidates = by_type.get(key)
            if not candidates:
                diffs = [f"$.items[{n}]: missing item {key}"]
            else:
                diffs = json_diff(exp_item, candidates.pop(0), f"$.items[{n}]", base=base)
            if diffs:
                report.failures.append(_failure(suite, case, key, diffs))
                file_diffs.extend(diffs)
            else:
                result.items_passed += 1
        for key, left in by_type.items():
            file_diffs.extend(f"$.items: unexpected item {key}" for _ in left)
    else:
        file_diffs.extend(json_diff(exp_items, act_items, "$.items", base=base))
        if not file_diffs:
            result.items_passed += len(exp_items)
    page_diffs: list[str] = []
    for key in ("rels", "rel-urls"):
        page_diffs.extend(json_diff(expected.get(key, {}), actual.get(key, {}), f"$.{key}", base=base))
    if suite == UNIT_SUITE:
        extra = [d for d in file_diffs if d.startswith("$.items: unexpected")] + page_diffs
        if extra:
            report.failures.append(_failure(suite, case, None, extra))
    elif file_diffs or page_diffs:
        report.failures.append(_failure(suite, case, None, file_diffs + page_diffs))
    if not file_diffs and not page_diffs:
        result.files_passed += 1


def run_microformats_suite(path: str | Path, *, chunk_size: int | None = None) -> SuiteReport:
    """Run the official microformats test suite found at ``path``; return the report.

    ``path`` is the ``microformats-tests`` folder, its ``tests/`` subfolder, or
    a folder containing ``microformats-tests/`` (see :func:`find_suite_root`).
    Suites missing from the folder are reported with zero cases. Each file is
    parsed with the default options (``text="spec"``, the plain textContent
    the main suites' expected values use). With ``chunk_size`` the bytes are
    fed to a :class:`~stream_mf2.Parser` that many at a time instead of in one
    piece, which must not change any result.
    """
    if chunk_size is not None and chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    root = find_suite_root(path)
    report = SuiteReport(root)
    for suite in SUITES:
        report.suites[suite] = SuiteResult(suite)
        folder = root / suite
        if folder.is_dir():
            for case, html, expected in _cases(folder):
                _run_case(suite, case, html, expected, report, chunk_size)
    return report


def cmd_conformance(argv: Sequence[str], out: IO[bytes]) -> int:
    p = ArgumentParser(
        prog=f"{PROG} conformance",
        description="Run the official microformats test suites (a checkout of github.com/microformats/tests) "
        "through the streaming parser and print pass counts per suite.",
    )
    p.add_argument(
        "path",
        nargs="?",
        metavar="PATH",
        help="the microformats-tests folder, its tests/ folder, or a folder holding microformats-tests/ "
        "(default: $STREAM_MF2_TESTSUITES, else ../shared/testsuites if it exists)",
    )
    p.add_argument("--failures", type=int, default=0, metavar="N", help="also list the first N failures (default 0)")
    p.add_argument("--strict", action="store_true", help="exit with status 1 when any case fails")
    ns = p.parse_args(argv)
    root = ns.path or os.environ.get("STREAM_MF2_TESTSUITES")
    if not root and os.path.isdir(os.path.join("..", "shared", "testsuites")):
        root = os.path.join("..", "shared", "testsuites")
    if not root:
        raise UserError("give the path of the microformats test suite (or set STREAM_MF2_TESTSUITES)")
    try:
        find_suite_root(root)
    except FileNotFoundError as e:
        raise UserError(str(e)) from None
    report = run_microformats_suite(root)
    out.write((report.format(max_failures=max(ns.failures, 0)) + "\n").encode("utf-8"))
    out.flush()
    return 1 if ns.strict and not report.passed else 0
