"""The invariants one HTML document must satisfy, as plain functions that raise :class:`Finding`.

:func:`check_document` runs every check on one input (bytes, options and the
chunking seeds); it is deterministic given its arguments, so a failing case
can be replayed and reduced.
"""

from __future__ import annotations

import json
import random
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import stream_mf2
from stream_mf2.errors import StreamMF2Error
from stream_mf2.html.testing import parse_document
from stream_mf2.io import json_output as _json
from stream_mf2.mf2 import Options, parse_dom

URL = "http://example.com/dir/page.html"

#: Options of the mf2 layer (the rest are parser limits and switches).
MF2_OPTIONS = (
    "text",
    "lang",
    "metaformats",
    "filter_roots",
    "max_nested_html_chars",
    "max_item_chars",
    "max_output_ratio",
    "output_floor_chars",
)
#: Byte-by-byte feeding only up to this size (it is the slowest chunking).
ONE_BY_ONE_MAX = 3000


@dataclass
class Finding(Exception):
    """An invariant does not hold. ``signature`` groups findings of one cause."""

    check: str
    detail: str
    signature: str
    data: bytes = b""
    options: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.check}: {self.detail}"


Outcome = tuple[str, Any]


def _origin(exc: BaseException) -> str:
    """Where an exception was raised inside stream_mf2 (file:function), for signatures."""
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in reversed(frames):
        if "stream_mf2" in frame.filename:
            name = frame.filename.split("stream_mf2", 1)[1].lstrip("/")
            return f"{name}:{frame.name}"
    return frames[-1].name if frames else "?"


def outcome(run: Callable[[], Any], what: str, data: bytes, options: dict[str, Any]) -> Outcome:
    """``("ok", result)`` or ``("error", (type, limit))`` for a documented error; an
    undocumented exception is a finding."""
    try:
        return ("ok", run())
    except StreamMF2Error as exc:
        return ("error", (type(exc).__name__, getattr(exc, "limit", None)))
    except Exception as exc:
        raise Finding(
            "undocumented-exception",
            f"{what}: {type(exc).__name__}: {exc}"[:500],
            f"undocumented-exception:{type(exc).__name__}@{_origin(exc)}",
            data,
            options,
            {"traceback": "".join(traceback.format_exception(exc))[-4000:]},
        ) from exc


def stream(chunks: list[bytes] | list[str], options: dict[str, Any]) -> dict[str, Any]:
    """What a :class:`~stream_mf2.Parser` fed ``chunks`` gives, in ``parse()``'s shape."""
    parser = stream_mf2.Parser(URL, **options)
    events: list[Any] = []
    for chunk in chunks:
        events.extend(parser.feed_events(chunk))
    events.extend(parser.close_events())
    out: dict[str, Any] = {"items": stream_mf2.reassemble(events), "rels": parser.rels, "rel-urls": parser.rel_urls}
    if parser.meta_item is not None:
        out["meta-item"] = parser.meta_item
    return out


def random_chunks(data: bytes | str, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out: list[Any] = []
    i = 0
    while i < len(data):
        size = rng.choice((1, 1, 2, 3, 5, 8, 13, 64, 700))
        out.append(data[i : i + size])
        i += size
    return out


def first_difference(a: Any, b: Any, path: str = "$") -> str:
    """The JSON path of the first difference, indices as ``[*]`` (a signature's part)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{path}.{key}")
        return path
    if isinstance(a, list) and isinstance(b, list):
        for x, y in zip(a, b, strict=False):
            if x != y:
                return first_difference(x, y, f"{path}[*]")
        return f"{path}(length)"
    return path


def _compare(check: str, label: str, want: Outcome, got: Outcome, data: bytes, options: dict[str, Any]) -> None:
    if want == got:
        return
    where = first_difference(want[1], got[1]) if want[0] == got[0] == "ok" else f"{want[0]}/{got[0]}"
    raise Finding(
        check,
        f"{label}: {where}: expected {_short(want)}, got {_short(got)}",
        f"{check}:{where}",
        data,
        options,
        {"label": label, "expected": _short(want, 4000), "got": _short(got, 4000)},
    )


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


#: The note of a document language that arrived after items inheriting another were built.
LATE_LANG_NOTE = "the document language came from a"
#: The note of mf1 include targets inside children streamed before their container ended.
STREAMED_TARGET_NOTE = "were in children already streamed (stream_children)"
#: The note of a later <body> tag that gave the body an mf2 class after children of the
#: <html> item had streamed (the whole parse builds them inside the body).
LATE_BODY_CLASS_NOTE = "had been streamed (stream_children): they stay children of the <html> item"


def streamed_early(data: bytes, options: dict[str, Any]) -> bool:
    """Did children stream (``options`` has ``stream_children``) before something the
    default parse, which builds them at their container's end, gives them or takes
    from them: a late document language, or an include marker naming an element
    inside one, or a later ``<body>`` tag that gives the body an mf2 class?
    Documented: the notes say so."""
    parser = stream_mf2.Parser(URL, **options)
    try:
        parser.feed(data)
        parser.close()
    except StreamMF2Error:
        return False
    return any(
        e.startswith(LATE_LANG_NOTE) or STREAMED_TARGET_NOTE in e or LATE_BODY_CLASS_NOTE in e for e in parser.errors
    )


#: The documented cases where the bounded result may differ from the full DOM's
#: (docs/guides/streaming.md): not defects, and never widened.
def full_dom_applies(text: str, errors: list[str]) -> bool:
    # a <base> only applies to items completed after it (the full DOM applies the first everywhere)
    if re.search(r"<base[\s/>]", text, re.IGNORECASE):
        return False
    # mf1 include targets seen before their item outside any kept subtree are gone; errors says so.
    # A late <body>/<html> class merged after the early content was released (max_prefix_nodes,
    # or a kept element first) gives an item with only what follows; errors says so too.
    return not any(
        e.startswith("include target")
        or "became an item root through attributes of a later" in e
        or "item root class after items inside it" in e
        # a later <html lang> / <body lang> / Content-Language <meta> cannot reach items
        # already yielded that inherit the document's language
        or e.startswith(LATE_LANG_NOTE)
        # an option cloned into an item <selectedcontent> had content outside items moved into
        # it, or an option's items cloned into a <selectedcontent> outside items are not given
        or e.startswith("an <option> cloned into an item <selectedcontent> had content outside items")
        or e.startswith("an <option> holding items was cloned into a <selectedcontent> outside items")
        or e.startswith("a <select> had some of its <option> elements replaced with a copy of one")
        for e in errors
    )


def check_json(result: dict[str, Any], data: bytes, options: dict[str, Any]) -> None:
    """The project's JSON output of ``result`` is strict JSON that reads back as ``result``."""
    try:
        raw = _json.dumps(result)
        back = json.loads(raw)
    except Exception as exc:
        raise Finding(
            "json-invalid", f"{type(exc).__name__}: {exc}"[:300], f"json-invalid:{type(exc).__name__}", data, options
        ) from exc
    if back != result:
        raise Finding("json-invalid", "JSON does not read back as the result", "json-invalid:roundtrip", data, options)


def _past_kept_nodes(got: Outcome) -> bool:
    """Could ``got`` (stream_children) follow a default parse stopped by max_kept_nodes?"""
    return got[0] == "ok" or (got[0] == "error" and got[1][0] == "LimitExceeded")


def check_document(data: bytes, options: dict[str, Any], seeds: tuple[int, int], split: int) -> None:
    """Every invariant of one document; raises :class:`Finding` on the first that fails."""
    whole = outcome(lambda: stream_mf2.parse(data, URL, **options), "parse(bytes)", data, options)
    if whole[0] == "ok":
        check_json(whole[1], data, options)
    chunkings: list[tuple[str, list[bytes]]] = []
    if len(data) <= ONE_BY_ONE_MAX:
        chunkings.append(("one-by-one", [data[i : i + 1] for i in range(len(data))]))
    if len(data) > 1:
        at = 1 + split % (len(data) - 1)
        chunkings.append((f"split@{at}", [data[:at], data[at:]]))
    for s in seeds:
        chunkings.append((f"random(seed={s})", random_chunks(data, s)))
    for label, chunks in chunkings:
        got = outcome(lambda c=chunks: stream(c, options), f"feed {label}", data, options)  # type: ignore[misc]
        _compare("chunking-differs", label, whole, got, data, options)
    if not options.get("stream_children"):
        children = dict(options, stream_children=True)
        got = outcome(lambda: stream_mf2.parse(data, URL, **children), "parse(stream_children)", data, options)
        # documented: streaming a container's children keeps fewer nodes, so a document that
        # reaches max_kept_nodes by default may parse with stream_children (not the reverse),
        # or read on until another limit stops it;
        # documented too: children streamed before a late <body lang> (or <html lang>) lack it,
        # and an include marker after them cannot copy what they held, and a later <body> tag
        # that gives the body an mf2 class cannot take them back into it
        if not (whole == ("error", ("LimitExceeded", "max_kept_nodes")) and _past_kept_nodes(got)) and not (
            whole != got and streamed_early(data, children)
        ):
            _compare("stream-children-differs", "stream_children=True", whole, got, data, options)
    check_text(data.decode("utf-8", "replace"), data, options, seeds)


def check_text(text: str, data: bytes, options: dict[str, Any], seeds: tuple[int, int]) -> None:
    """Text input: chunkings agree, and the bounded result equals the full DOM's."""
    parser = stream_mf2.Parser(URL, **options)
    whole = outcome(lambda: stream([text], options), "parse(str)", data, options)
    got = outcome(lambda: stream(random_chunks(text, seeds[0]), options), "feed str", data, options)
    _compare("chunking-differs-str", f"str random(seed={seeds[0]})", whole, got, data, options)
    if whole[0] != "ok":
        return
    parser = stream_mf2.Parser(URL, **options)
    try:
        parser.feed(text)
        parser.close()
    except StreamMF2Error:
        return
    if not full_dom_applies(text, parser.errors):
        return
    mf2_options = Options(**{k: v for k, v in options.items() if k in MF2_OPTIONS})
    full = outcome(lambda: parse_dom(parse_document(text), URL, mf2_options), "parse_dom", data, options)
    _compare("full-dom-differs", "bounded vs full DOM", full, whole, data, options)
