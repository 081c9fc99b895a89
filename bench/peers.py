"""Uniform runners for every parser the benchmarks compare: stream_mf2 and its peers.

Each runner takes the document as ``bytes`` plus a base URL and does the whole
job that parser does for a caller: encoding detection, HTML parsing and, for
the mf2 parsers, microformats extraction. All runners see the same input.

* mf2 parsers return the list of top-level items.
* HTML-parse-only floors (``html5lib.parse``, ``justhtml``, the stream_mf2
  tokenizer and tree builder on their own) return the parsed document or a
  count; they show how much of a peer's time is HTML parsing.

Every import is guarded: a parser that is not installed (or, for stream_mf2,
a stage that is not written yet) becomes a :class:`Runner` with ``run=None``
and a human-readable ``missing`` reason instead of an ``ImportError``.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

RunFn = Callable[[Any, str], Any]
PrepareFn = Callable[[bytes], Any]
Kind = Literal["mf2", "html"]


@dataclass(frozen=True)
class Runner:
    """One parser configuration under test.

    ``name`` is the label in reports; ``kind`` says whether it extracts mf2
    (``"mf2"``) or only parses HTML (``"html"``); ``run`` is ``None`` when the
    parser is unavailable, and ``missing`` then says why; ``subject`` is true
    for stream_mf2's own runners (the numerators of the reported ratios).
    ``prepare``, when set, turns the document bytes into the runner's input
    outside the timed region (the stage-only runners take decoded text); the
    harness then calls ``run(prepare(data), url)``.
    """

    name: str
    kind: Kind
    run: RunFn | None
    missing: str | None = None
    version: str | None = None
    subject: bool = False
    prepare: PrepareFn | None = None

    @property
    def available(self) -> bool:
        return self.run is not None


def _import(module: str) -> tuple[ModuleType | None, str | None]:
    try:
        return importlib.import_module(module), None
    except ImportError as exc:
        return None, f"not installed ({exc})"


def dist_version(dist: str) -> str | None:
    """The installed version of a distribution, or ``None``."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


# ---------------------------------------------------------------------------
# Peers


def mf2py_runner(builder: Literal["html5lib", "lxml"]) -> Runner:
    """mf2py 2.x with a chosen BeautifulSoup tree builder.

    ``mf2py.parse(doc=..., url=..., html_parser=...)`` hands the document to
    ``BeautifulSoup(doc, html_parser)``; bytes let BeautifulSoup (or html5lib)
    detect the encoding, as for a fetched page.
    """
    name = f"mf2py[{builder}]"
    mf2py, why = _import("mf2py")
    if mf2py is None:
        return Runner(name, "mf2", None, why)
    builder_mod, why = _import(builder)
    if builder_mod is None:
        return Runner(name, "mf2", None, f"{builder} {why}")

    def run(data: bytes, url: str) -> list[Any]:
        result = mf2py.parse(doc=data, url=url, html_parser=builder)
        return list(result["items"])

    return Runner(name, "mf2", run, version=dist_version("mf2py"))


def mf2dom_runner() -> Runner:
    """mf2dom: ``mf2dom.parse(html, base_url=...)`` on top of justhtml."""
    mf2dom, why = _import("mf2dom")
    if mf2dom is None:
        return Runner("mf2dom", "mf2", None, why)

    def run(data: bytes, url: str) -> list[Any]:
        return list(mf2dom.parse(data, base_url=url)["items"])

    return Runner("mf2dom", "mf2", run, version=dist_version("mf2dom"))


def html5lib_runner() -> Runner:
    """``html5lib.parse`` into its default etree: the pure-Python HTML parse floor."""
    html5lib, why = _import("html5lib")
    if html5lib is None:
        return Runner("html5lib.parse", "html", None, why)

    def run(data: bytes, url: str) -> Any:
        return html5lib.parse(data)

    return Runner("html5lib.parse", "html", run, version=dist_version("html5lib"))


def justhtml_runner() -> Runner:
    """``justhtml.JustHTML(bytes, sanitize=False)``: full parse with encoding sniffing.

    Sanitising is on by default in justhtml; it is switched off so the number
    is a parse, as mf2dom uses it.
    """
    justhtml, why = _import("justhtml")
    if justhtml is None:
        return Runner("justhtml", "html", None, why)

    def run(data: bytes, url: str) -> Any:
        return justhtml.JustHTML(data, sanitize=False).root

    return Runner("justhtml", "html", run, version=dist_version("justhtml"))


def selectolax_runner() -> Runner:
    """``selectolax.lexbor.LexborHTMLParser(bytes)``: a full HTML5 parse in C (lexbor).

    No mf2 and not Python: the physical reference, how fast a page can be turned
    into a DOM on this machine at all. It detects the encoding from the bytes itself.
    """
    lexbor, why = _import("selectolax.lexbor")
    if lexbor is None:
        return Runner(SELECTOLAX, "html", None, why)

    def run(data: bytes, url: str) -> Any:
        return lexbor.LexborHTMLParser(data).root

    return Runner(SELECTOLAX, "html", run, version=dist_version("selectolax"))


SELECTOLAX = "selectolax (C)"


def peer_runners() -> list[Runner]:
    """Every peer, in report order (available or not)."""
    return [mf2py_runner("html5lib"), mf2py_runner("lxml"), mf2dom_runner(), html5lib_runner(), justhtml_runner(),
            selectolax_runner()]


# ---------------------------------------------------------------------------
# stream_mf2 itself


def stream_mf2_runner() -> Runner:
    """The whole pipeline: ``stream_mf2.parse(data, url)``."""
    mod, why = _import("stream_mf2")
    if mod is None:
        return Runner("stream_mf2", "mf2", None, why, subject=True)
    if not hasattr(mod, "parse"):
        return Runner("stream_mf2", "mf2", None, "not available yet (stream_mf2.parse missing)", subject=True)
    parse = mod.parse

    def run(data: bytes, url: str) -> list[Any]:
        result = parse(data, url)
        # parse() returns an mf2 JSON document; accept a bare item list as well.
        if isinstance(result, dict):
            return list(result["items"])
        return list(result)

    return Runner("stream_mf2", "mf2", run, version=dist_version("stream-mf2"), subject=True)


class _NullTokenSink:
    """A :class:`stream_mf2.html.tokenizer.TokenSink` that only counts calls: the tokenizer alone."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0

    def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool) -> None:
        self.count += 1

    def end_tag(self, name: str) -> None:
        self.count += 1

    def characters(self, data: str) -> None:
        self.count += 1

    def comment(self, data: str) -> None:
        self.count += 1

    def doctype(self, name: str | None, public_id: str | None, system_id: str | None, force_quirks: bool) -> None:
        self.count += 1

    def eof(self) -> None:
        pass

    def cdata_allowed(self) -> bool:
        return False


def decode_for_stage(data: bytes) -> str:
    """Bytes -> str for the stage-only runners (their ``prepare`` step, not timed).

    Uses the project's decoder when it exists, so the tokenizer sees the same
    text the full pipeline would; otherwise UTF-8 with replacement.
    """
    decode, _ = _import("stream_mf2.html.decode")
    decoder_cls = getattr(decode, "Decoder", None) if decode is not None else None
    if decoder_cls is not None:
        decoder = decoder_cls()
        return str(decoder.feed(data)) + str(decoder.close())
    return data.decode("utf-8", "replace")


def stream_mf2_tokenizer_runner() -> Runner:
    """``stream_mf2.html.tokenizer`` alone, driving a sink that only counts tokens."""
    name = "stream_mf2 tokenizer (str in)"
    mod, _ = _import("stream_mf2.html.tokenizer")
    if mod is None:
        return Runner(name, "html", None, "not available yet", subject=True)
    cls = getattr(mod, "Tokenizer", None)
    if cls is None:
        return Runner(name, "html", None, "not available yet (no Tokenizer class)", subject=True)

    def run(text: str, url: str) -> int:
        sink = _NullTokenSink()
        tokenizer = cls(sink)
        tokenizer.feed(text)
        tokenizer.close()
        return sink.count

    return Runner(name, "html", run, version=dist_version("stream-mf2"), subject=True, prepare=decode_for_stage)


def stream_mf2_tree_runner() -> Runner:
    """Tokenizer + tree builder + full DOM sink: stream_mf2's HTML-parse-only number."""
    name = "stream_mf2 tree (str in)"
    tok_mod, _ = _import("stream_mf2.html.tokenizer")
    tb_mod, _ = _import("stream_mf2.html.treebuilder")
    sink_mod, _ = _import("stream_mf2.html.sink")
    if tok_mod is None or tb_mod is None or sink_mod is None:
        return Runner(name, "html", None, "not available yet", subject=True)
    tok_cls = getattr(tok_mod, "Tokenizer", None)
    tb_cls = getattr(tb_mod, "TreeBuilder", None)
    sink_cls = getattr(sink_mod, "DomSink", None)
    if tok_cls is None or tb_cls is None or sink_cls is None:
        return Runner(name, "html", None, "not available yet (Tokenizer/TreeBuilder/DomSink missing)",
                      subject=True)

    def run(text: str, url: str) -> Any:
        sink = sink_cls()
        builder = tb_cls(sink)
        # (introduces itself to the builder, which switches its state: RCDATA, RAWTEXT, ...)
        tokenizer = tok_cls(builder)
        tokenizer.feed(text)
        tokenizer.close()
        return sink.document

    return Runner(name, "html", run, version=dist_version("stream-mf2"), subject=True, prepare=decode_for_stage)


def subject_runners() -> list[Runner]:
    """stream_mf2's runners: full pipeline, then the HTML stages alone."""
    return [stream_mf2_runner(), stream_mf2_tokenizer_runner(), stream_mf2_tree_runner()]


def all_runners(names: Iterable[str] | None = None) -> list[Runner]:
    """Subjects then peers; restricted to ``names`` when given."""
    runners = subject_runners() + peer_runners()
    if names is None:
        return runners
    wanted = set(names)
    return [r for r in runners if r.name in wanted]


# ---------------------------------------------------------------------------
# Every structured-data syntax: stream_mf2.extract against extruct (bench/syntaxes_bench.py)

#: extruct's name of each syntax, by this library's name (``mf2`` is extruct's ``microformat``).
EXTRUCT_NAMES = {"microdata": "microdata", "json-ld": "json-ld", "opengraph": "opengraph", "mf2": "microformat",
                 "rdfa": "rdfa", "dublincore": "dublincore"}


def extruct_runner(label: str, syntaxes: tuple[str, ...]) -> Runner:
    """``extruct.extract(bytes, base_url=url, syntaxes=[...])``: the page parsed by lxml once per
    syntax family (mf2py re-parses it for microformats, pyrdfa3 walks it for RDFa)."""
    name = f"extruct [{label}]"
    extruct, why = _import("extruct")
    if extruct is None:
        return Runner(name, "mf2", None, why)
    names = [EXTRUCT_NAMES[s] for s in syntaxes]

    def run(data: bytes, url: str) -> dict[str, Any]:
        result: dict[str, Any] = extruct.extract(data, base_url=url, syntaxes=names)
        return result

    return Runner(name, "mf2", run, version=dist_version("extruct"))


def stream_mf2_extract_runner(label: str, syntaxes: tuple[str, ...]) -> Runner:
    """``stream_mf2.extract(bytes, url, syntaxes=...)``: the same syntaxes in one streaming pass,
    in extruct's result shape."""
    name = f"stream_mf2.extract [{label}]"
    mod, why = _import("stream_mf2")
    if mod is None:
        return Runner(name, "mf2", None, why, subject=True)
    extract = mod.extract
    wanted = frozenset(syntaxes)

    def run(data: bytes, url: str) -> dict[str, Any]:
        result: dict[str, Any] = extract(data, url, syntaxes=wanted)
        return result

    return Runner(name, "mf2", run, version=dist_version("stream-mf2"), subject=True)
