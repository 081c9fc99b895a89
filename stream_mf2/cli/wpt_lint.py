"""``stream-mf2 wpt lint``: check Website Parse Templates, together, and their blocks on pages.

::

    stream-mf2 wpt lint TEMPLATE.xml [PAGE...] [--url URL] [--strict] [--max-pattern-seconds S]
    stream-mf2 wpt lint --templates PATH [--templates PATH]... [PAGE...] [...]

The templates are named as ``stream-mf2 wpt`` takes them: ``TEMPLATE.xml`` is one WPT file or a
folder (every ``*.xml`` in it, in name order), or ``--templates PATH`` (a file or a folder,
repeatable) names them and every positional argument is a page. Each file gets everything the
loader checks (:func:`stream_mf2.wpt.load`: errors and warnings, each with its line and column),
plus what only shows when the template meets pages: a template whose URL patterns name another
host than ``ow:host`` can never apply, and, for each PAGE (an HTML file, an ``http(s)://`` URL
or ``-``), each top-level block of an applied template that matches nothing on it.

Across the files (and the templates of one file): two templates whose URL patterns choose one
URL (:func:`stream_mf2.wpt.overlap.shared_url` finds one) both apply to that page, by design, so
that is a note naming the URL; so is a template name found in several files (``stream-mf2 wpt
--template NAME`` then refuses to choose). With more than one template, each PAGE gets a note
per template that applies to it.

Every finding is one line ``FILE:LINE:COLUMN: error|warning|note: message`` (``FILE`` the WPT
file it is about; a page's findings name the page) on standard output, as compilers write them.
A page that cannot be read (missing, a failed fetch, empty, binary) is a line ``PAGE: error:
message`` of its own (and a message on standard error), and the lint goes on with the other pages.

Exit status: 0 nothing found but notes, 1 findings (a template does not load, has warnings, a
block never matches on a page given, or a page cannot be read), 2 bad command line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import IO, Any

from stream_mf2.cli._common import (
    PROG,
    ArgumentParser,
    UserError,
    add_fetch_arguments,
    encoding_option,
    fetch_options,
    positive_seconds,
)
from stream_mf2.errors import StreamMF2Error

__all__ = ["cmd_lint"]

LINT_PROG = f"{PROG} wpt lint"

#: No finding.
EXIT_CLEAN = 0
#: The template does not load, has warnings, or a block never matches on a page given.
EXIT_FINDINGS = 1


def _parser() -> argparse.ArgumentParser:
    p = ArgumentParser(
        prog=LINT_PROG,
        description="Check Website Parse Templates: everything the loader checks, whether a template can "
        "ever apply, which templates apply to the same URLs, and, given pages, which templates apply to "
        "each and which of their blocks never match on it.",
        epilog="exit status: 0 nothing found but notes, 1 findings, 2 bad command line",
    )
    p.add_argument(
        "files",
        nargs="*",
        metavar="TEMPLATE.xml PAGE",
        help="the WPT file (or a folder of them; left out with --templates), then HTML files, http(s):// URLs "
        "or - to try the blocks on",
    )
    p.add_argument(
        "--templates",
        action="append",
        default=[],
        metavar="PATH",
        help="a WPT file or a folder of them (*.xml); repeatable; the positional arguments are then all pages",
    )
    p.add_argument("--url", help="the pages' URL (chooses the templates; default: every template applies)")
    p.add_argument(
        "--encoding",
        help="the pages' character encoding label, as if sent by the server (as 'wpt --encoding'; default: detected)",
    )
    p.add_argument("--strict", action="store_true", help="report warnings as errors (as load(strict=True))")
    p.add_argument(
        "--max-pattern-seconds",
        type=positive_seconds,
        default=None,
        metavar="S",
        help="CPU time the patterns may take on one page (default 1.0)",
    )
    add_fetch_arguments(p)
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


def _read_page(page: str, url: str | None, fetch: dict[str, Any], opts: dict[str, Any]) -> tuple[bytes, str | None]:
    from stream_mf2.cli.wpt import read_page

    return read_page(page, url, fetch, opts)


def _page_findings(
    wpt: Any, page: str, data: bytes, page_url: str | None, opts: dict[str, Any], note_applied: bool
) -> tuple[bool, list[tuple[str, int, int, str]]]:
    """Whether a template of ``wpt`` applies to the page, and the findings: (kind, line, column, message)."""
    from stream_mf2.core.parser import Parser
    from stream_mf2.wpt import collect_pages

    parser = Parser(page_url, wpt=wpt, **opts)
    events = parser.feed_events(data) + parser.close_events()
    found: list[tuple[str, int, int, str]] = []
    pages = collect_pages(events)
    for p in pages:
        template = wpt.template(p["template"])
        if note_applied:
            at = "" if page_url is None else f" at {page_url!r}"
            found.append(("note", template.line, template.column, f"template {template.name!r} applies to {page}{at}"))
        for block, value in zip(template.blocks, p["blocks"], strict=True):
            if not value["matches"]:
                ref = " ".join(f"ow:{k}={v!r}" for k, v in block.ref().items() if v is not None)
                found.append(
                    (
                        "warning",
                        block.line,
                        block.column,
                        f"block {ref} of template {template.name!r} never matches on {page}",
                    )
                )
        for error in p.get("errors", []):
            found.append(("warning", template.line, template.column, f"{page}: {error}"))
    return bool(pages), found


def _url_patterns(wpt: Any, template: Any) -> list[Any]:
    return ([template.url] if template.url is not None else []) + [
        p for s in wpt.urls if s.template == template.name for p in s.urls
    ]


def _across(loaded: list[tuple[str, Any]]) -> list[tuple[str, int, int, str]]:
    """Notes about templates taken together: (file, line, column, message), at the later template."""
    from stream_mf2.wpt.model import host_key
    from stream_mf2.wpt.overlap import same_pattern, shared_url

    found: list[tuple[str, int, int, str]] = []
    entries = [(name, wpt, t) for name, wpt in loaded for t in wpt.templates]
    for i, (name, wpt, t) in enumerate(entries):
        mine = _url_patterns(wpt, t)
        for other_name, other_wpt, other in entries[:i]:
            where = f"{other_name}:{other.line}:{other.column}"
            if other.name == t.name and other_name != name:
                found.append(
                    (
                        name,
                        t.line,
                        t.column,
                        f"template {t.name!r} is also in {where}: 'stream-mf2 wpt --template {t.name}' "
                        "refuses to choose between them",
                    )
                )
            theirs = _url_patterns(other_wpt, other)
            if not mine or not theirs or host_key(wpt.host)[1] != host_key(other_wpt.host)[1]:
                continue
            same = next((a.source for a in mine for b in theirs if same_pattern(a, b)), None)
            if same is not None:
                shared = f"have the same URL pattern {same!r}"
            else:
                url = next((u for a in mine for b in theirs if (u := shared_url(a, b)) is not None), None)
                if url is None:
                    continue
                shared = f"both apply to URLs such as {url!r}"
            found.append(
                (
                    name,
                    t.line,
                    t.column,
                    f"template {t.name!r} and template {other.name!r} ({where}) {shared}: a page gets every "
                    "template that chooses it",
                )
            )
    return found


def _file_findings(name: str, wpt: Any, strict: bool) -> list[str]:
    """The loader's warnings and the templates that can never apply, in the order of the file."""
    kind = "error" if strict else "warning"
    found: list[tuple[int, int, str]] = []
    for w in wpt.warnings:
        at_line, at_column, text = w.split(":", 2)
        found.append((int(at_line), int(at_column), text.strip()))
    found.extend(_never_applies(wpt))
    return [f"{name}:{line}:{column}: {kind}: {message}" for line, column, message in sorted(found)]


def cmd_lint(argv: Sequence[str], out: IO[bytes]) -> int:
    """``stream-mf2 wpt lint``."""
    parser = _parser()
    ns = parser.parse_args(argv)
    from stream_mf2.cli.wpt import _template_bytes, _template_files
    from stream_mf2.wpt import TemplateError, load

    if not ns.templates:
        if not ns.files:
            parser.error("the following arguments are required: TEMPLATE.xml (or --templates PATH)")
        ns.templates, ns.files = [ns.files[0]], ns.files[1:]
    lines: list[str] = []
    findings = 0
    loaded: list[tuple[str, Any]] = []
    for name in _template_files(ns.templates):
        try:
            wpt = load(_template_bytes(name), strict=ns.strict)
        except TemplateError as e:
            lines.append(f"{name}:{e.line}:{e.column}: error: {e.message}")
            findings += 1
            continue
        own = _file_findings(name, wpt, ns.strict)
        lines += own
        findings += len(own)
        loaded.append((name, wpt))
    lines += [f"{name}:{line}:{column}: note: {message}" for name, line, column, message in _across(loaded)]
    several = sum(len(wpt.templates) for _, wpt in loaded) > 1
    opts: dict[str, Any] = {} if ns.max_pattern_seconds is None else {"max_pattern_seconds": ns.max_pattern_seconds}
    encoding = encoding_option(ns.encoding)
    if encoding is not None:
        # as 'wpt --encoding': a saved page whose server said its charset (over a fetched one's too)
        opts["encoding"] = encoding
    fetch = fetch_options(ns)
    for page in ns.files:
        page_opts = dict(opts)
        try:
            data, page_url = _read_page(page, ns.url, fetch, page_opts)
        except (StreamMF2Error, UserError, OSError) as e:
            # A page that cannot be read is a finding of its own: the others (and the template's
            # own findings, already made) are still reported, as 'wpt' goes on past such a page.
            message = " ".join(str(e).split()) or type(e).__name__
            name = "<stdin>" if page == "-" else page
            lines.append(f"{name}: error: {message.removeprefix(f'{name}: ')}")
            # and on standard error, as every command says an unreadable input
            print(f"{LINT_PROG}: error: {message if name in message else f'{name}: {message}'}", file=sys.stderr)
            findings += 1
            continue
        per_file = [(name, _page_findings(wpt, page, data, page_url, page_opts, several)) for name, wpt in loaded]
        if loaded and not any(applies for _, (applies, _) in per_file):
            for name, _ in loaded:
                lines.append(f"{name}:1:1: warning: no template applies to {page} at {page_url!r}")
                findings += 1
        for name, (_, found) in per_file:
            for kind, line, column, message in found:
                lines.append(f"{name}:{line}:{column}: {kind}: {message}")
                findings += kind != "note"
    for text in lines:
        out.write(text.encode() + b"\n")
    out.flush()
    return EXIT_FINDINGS if findings else EXIT_CLEAN
