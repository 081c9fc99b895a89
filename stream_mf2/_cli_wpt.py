"""``stream-mf2 wpt`` and ``stream-mf2 xpath``: Website Parse Template from the command line.

::

    stream-mf2 wpt TEMPLATE.xml INPUT... [--url URL] [--strict] [--template NAME] [--matches]
    stream-mf2 xpath PAGE [--id X] [--text T]

``wpt`` reads each INPUT (a file, an ``http(s)://`` URL or ``-``) and writes
JSON Lines: one page object per page and applied template
(``{"kind": "wpt", "template", "host", "url", "url_captures", "blocks"}``), or
with ``--matches`` one line per block match as soon as it is final
(``{"kind": "wpt-match", "template", "url", "block", "concept", "match"}``). The
template is chosen by the page URL (``--url``, else the fetched URL); without
one every template applies. ``xpath`` prints the full and id-anchored XPaths
of the elements with that id or text, to help write templates.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import IO, Any

from stream_mf2.cli import PROG, UserError, _add_parser_options, _ArgumentParser, _dump, _parser_options

__all__ = ["cmd_wpt", "cmd_xpath"]


def _wpt_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog=f"{PROG} wpt",
        description="Extract Website Parse Template blocks (and nothing else) from HTML pages, in one streaming "
        "pass. Writes JSON Lines: one page object per page and applied template.",
    )
    p.add_argument("template", metavar="TEMPLATE.xml", help="the WPT file")
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="HTML files, http(s):// URLs, or - for standard input")
    p.add_argument("--strict", action="store_true", help="undeclared concepts are errors, not warnings")
    p.add_argument("--template", dest="use_template", metavar="NAME",
                   help="apply this template to every page, whatever its URL")
    p.add_argument("--matches", action="store_true", help="one line per block match, as soon as it is final")
    p.add_argument("--max-pattern-chars", type=int, default=None, metavar="N",
                   help="window of page-source patterns, in characters (default 65536)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for a URL's server (default 30)")
    _add_parser_options(p)
    return p


def _open(src: str, url: str | None, timeout: float, opts: dict[str, Any]) -> tuple[Any, str | None, Any]:
    from stream_mf2 import _http

    if _http.is_url(src):
        resp = _http.fetch(src, timeout=timeout)
        if resp.charset and "encoding" not in opts:
            opts["encoding"] = resp.charset
        return resp, url or resp.url, resp.close
    if src == "-":
        return sys.stdin.buffer, url, lambda: None
    try:
        f = open(src, "rb")  # noqa: SIM115  # closed by the returned closer
    except OSError as e:
        raise UserError(f"cannot open {src}: {e.strerror or e}") from None
    return f, url, f.close


def cmd_wpt(argv: Sequence[str], out: IO[bytes]) -> int:
    """``stream-mf2 wpt``."""
    ns = _wpt_parser().parse_args(argv)
    from stream_mf2.sources import iter_events
    from stream_mf2.wpt import TemplateError, WptMatchEvent, WptPageEnd, load
    from stream_mf2.wpt.events import page_header

    try:
        wpt = load(ns.template, strict=ns.strict)
    except OSError as e:
        raise UserError(f"cannot open {ns.template}: {e.strerror or e}") from None
    except TemplateError as e:
        raise UserError(f"{ns.template}:{e}") from None
    for w in wpt.warnings:
        print(f"{PROG} wpt: warning: {ns.template}:{w}", file=sys.stderr)
    spec: Any = wpt
    opts_base = _parser_options(ns)
    if ns.max_pattern_chars is not None:
        opts_base["max_pattern_chars"] = ns.max_pattern_chars
    chosen = getattr(ns, "use_template", None)
    if chosen:
        try:
            spec = wpt.template(chosen)
        except KeyError:
            raise UserError(f"no template named {chosen!r} in {ns.template}") from None
    for src in ns.inputs:
        opts = dict(opts_base)
        source, url, close = _open(src, ns.url, ns.timeout, opts)
        pages: dict[int, dict[str, Any]] = {}
        try:
            for event in iter_events(source, url, wpt=spec, **opts):
                if isinstance(event, WptMatchEvent):
                    if ns.matches:
                        block = event.page.template.blocks[event.block]
                        out.write(_dump({"kind": "wpt-match", "template": event.page.template.name,
                                         "url": event.page.url, "block": event.block, "concept": block.concept,
                                         "match": event.match}))
                        out.flush()
                    else:
                        page = pages.get(id(event.page))
                        if page is None:
                            page = pages[id(event.page)] = page_header(event.page)
                        page["blocks"][event.block]["matches"].append(event.match)
                elif isinstance(event, WptPageEnd):
                    if not ns.matches:
                        page = pages.pop(id(event.page), None) or page_header(event.page)
                        if event.errors:
                            page["errors"] = list(event.errors)
                        out.write(_dump(page))
                        out.flush()
                    elif event.errors:
                        out.write(_dump({"kind": "wpt-errors", "template": event.page.template.name,
                                         "url": event.page.url, "errors": list(event.errors)}))
        finally:
            close()
    return 0


def _xpath_parser() -> argparse.ArgumentParser:
    p = _ArgumentParser(
        prog=f"{PROG} xpath",
        description="Print the full XPath (and the id-anchored one) of the elements of PAGE with an id or a "
        "text, as JSON Lines, to help write WPT blocks. Paths are those of the WHATWG DOM (tbody inserted).",
    )
    p.add_argument("page", metavar="PAGE", help="an HTML file, an http(s):// URL, or -")
    p.add_argument("--id", help="elements whose id is this")
    p.add_argument("--text", help="innermost elements whose whitespace-collapsed text is this")
    p.add_argument("--encoding", help="character encoding label (default: detected)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for a URL's server (default 30)")
    return p


def cmd_xpath(argv: Sequence[str], out: IO[bytes]) -> int:
    """``stream-mf2 xpath``."""
    ns = _xpath_parser().parse_args(argv)
    if ns.id is None and ns.text is None:
        raise UserError("give --id or --text (or both)")
    from stream_mf2.html.decode import Decoder
    from stream_mf2.wpt.find import element_paths

    opts: dict[str, Any] = {}
    source, _, close = _open(ns.page, None, ns.timeout, opts)
    try:
        data = source.read()
    finally:
        close()
    decoder = Decoder(ns.encoding or opts.get("encoding"))
    html = decoder.feed(data) + decoder.close()
    found = element_paths(html, id=ns.id, text=ns.text)
    for f in found:
        out.write(_dump(f))
    out.flush()
    return 0 if found else 1
