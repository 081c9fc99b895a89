"""``stream-mf2 wpt lint``: check a Website Parse Template, and its blocks on pages.

::

    stream-mf2 wpt lint TEMPLATE.xml [PAGE...] [--url URL] [--strict] [--max-pattern-seconds S]

Everything the loader checks (:func:`stream_mf2.wpt.load`: errors and warnings, each with
its line and column), plus what only shows when the template meets pages: a template whose
URL patterns name another host than ``ow:host`` can never apply, and, for each PAGE (an HTML
file, an ``http(s)://`` URL or ``-``), each top-level block that matches nothing on it. Every
finding is one line ``TEMPLATE:LINE:COLUMN: error|warning: message`` (a page's findings name
the page) on standard output, as compilers write them.

Exit status: 0 nothing found, 1 findings (the template does not load, has warnings, or a block
never matches on a page given), 2 bad command line.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from stream_mf2.cli._common import PROG, ArgumentParser, UserError, positive_seconds

__all__ = ["cmd_lint"]

LINT_PROG = f"{PROG} wpt lint"

#: No finding.
EXIT_CLEAN = 0
#: The template does not load, has warnings, or a block never matches on a page given.
EXIT_FINDINGS = 1


def _parser() -> argparse.ArgumentParser:
    p = ArgumentParser(
        prog=LINT_PROG,
        description="Check a Website Parse Template: everything the loader checks, whether a template can "
        "ever apply, and, given pages, which blocks never match on them.",
        epilog="exit status: 0 nothing found, 1 findings, 2 bad command line",
    )
    p.add_argument("template", metavar="TEMPLATE.xml", help="the WPT file")
    p.add_argument("pages", nargs="*", metavar="PAGE", help="HTML files, http(s):// URLs or - to try the blocks on")
    p.add_argument("--url", help="the pages' URL (chooses the templates; default: every template applies)")
    p.add_argument("--strict", action="store_true", help="report warnings as errors (as load(strict=True))")
    p.add_argument(
        "--max-pattern-seconds",
        type=positive_seconds,
        default=None,
        metavar="S",
        help="CPU time the patterns may take on one page (default 1.0)",
    )
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for a URL's server (default 30)")
    return p


def _never_applies(wpt: Any) -> list[tuple[int, int, str]]:
    """Templates whose every URL pattern starts with a literal URL on another host than ``ow:host``."""
    from stream_mf2.wpt.model import host_key

    found: list[tuple[int, int, str]] = []
    for t in wpt.templates:
        patterns = ([t.url] if t.url is not None else []) + [
            p for s in wpt.urls if s.template == t.name for p in s.urls
        ]
        hosts: list[str] = []
        for p in patterns:
            literal = p.source.split("(", 1)[0]
            if "://" not in literal or "/" not in literal.split("://", 1)[1]:
                hosts = []  # the host is (partly) a capture: it may match
                break
            hosts.append(literal)
        if hosts and not any(wpt.host_matches(h) for h in hosts):
            where = ", ".join(sorted({host_key(h)[1] for h in hosts}))
            found.append(
                (
                    t.line,
                    t.column,
                    f"template {t.name!r} can never apply: its URLs are on {where}, not on ow:host {wpt.host!r}",
                )
            )
    return found


def _page_findings(
    wpt: Any, page: str, url: str | None, timeout: float, seconds: float | None
) -> list[tuple[int, int, str]]:
    from stream_mf2.cli.wpt import _open
    from stream_mf2.core.parser import Parser
    from stream_mf2.wpt import collect_pages

    opts: dict[str, Any] = {} if seconds is None else {"max_pattern_seconds": seconds}
    source, page_url, close = _open(page, url, timeout, opts)
    try:
        data = source.read() if hasattr(source, "read") else b"".join(source)
    finally:
        close()
    parser = Parser(page_url, wpt=wpt, **opts)
    events = parser.feed_events(data) + parser.close_events()
    found: list[tuple[int, int, str]] = []
    pages = collect_pages(events)
    if not pages:
        found.append((1, 1, f"no template applies to {page} at {page_url!r}"))
    for p in pages:
        template = wpt.template(p["template"])
        for block, value in zip(template.blocks, p["blocks"], strict=True):
            if not value["matches"]:
                ref = " ".join(f"ow:{k}={v!r}" for k, v in block.ref().items() if v is not None)
                found.append(
                    (block.line, block.column, f"block {ref} of template {template.name!r} never matches on {page}")
                )
        for error in p.get("errors", []):
            found.append((template.line, template.column, f"{page}: {error}"))
    return found


def cmd_lint(argv: Sequence[str], out: IO[bytes]) -> int:
    """``stream-mf2 wpt lint``."""
    ns = _parser().parse_args(argv)
    from stream_mf2.wpt import TemplateError, load

    try:
        data = Path(ns.template).read_bytes()
    except OSError as e:
        raise UserError(f"cannot open {ns.template}: {e.strerror or e}") from None
    try:
        wpt = load(data, strict=ns.strict)
    except TemplateError as e:
        out.write(f"{ns.template}:{e.line}:{e.column}: error: {e.message}\n".encode())
        out.flush()
        return EXIT_FINDINGS
    kind = "error" if ns.strict else "warning"
    found: list[tuple[int, int, str]] = []
    for w in wpt.warnings:
        at_line, at_column, text = w.split(":", 2)
        found.append((int(at_line), int(at_column), text.strip()))
    found.extend(_never_applies(wpt))
    # The template's own findings in the order of the file, as a compiler lists them.
    lines = [f"{ns.template}:{line}:{column}: {kind}: {message}" for line, column, message in sorted(found)]
    for page in ns.pages:
        for line, column, message in _page_findings(wpt, page, ns.url, ns.timeout, ns.max_pattern_seconds):
            lines.append(f"{ns.template}:{line}:{column}: warning: {message}")
    for text in lines:
        out.write(text.encode() + b"\n")
    out.flush()
    return EXIT_FINDINGS if lines else EXIT_CLEAN
