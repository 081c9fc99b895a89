"""Every structured-data syntax of a document in one streaming pass, in extruct's result shape.

:func:`extract` parses once, with every syntax asked for
(:mod:`stream_mf2.core.syntaxes`), and returns extruct's dictionary: a list per
syntax under extruct's key (``"json-ld"``, ``"microdata"``, ``"opengraph"``,
``"microformat"``, ``"rdfa"``, ``"dublincore"``; ``"twitter"`` has none in
extruct and keeps its own name). The microformats2 items are given as extruct
gives mf2py's: with mf2py's text rules (``text="normalized"``, ``lang=True``) and its
choices where the spec is silent (``mf2py_compat=True``), as the mf2py drop-in gives them.
``uniform=True`` gives extruct's uniform shape (``@context``/``@type`` objects)
for microdata, microformats, OpenGraph and Dublin Core (:mod:`stream_mf2._uniform`).

:mod:`stream_mf2.extruct` is the drop-in for extruct's own ``extract`` signature.
"""

from __future__ import annotations

from typing import Any, Final, Unpack

from stream_mf2._uniform import uniform_dublincore, uniform_items, uniform_opengraph
from stream_mf2.core.events import Event
from stream_mf2.core.options import ParseOptions, check_options
from stream_mf2.core.parser import document_result, parse_events
from stream_mf2.core.syntaxes import entry, resolve_syntaxes, result_function
from stream_mf2.events import DocumentEnd
from stream_mf2.io.notes import log_notes

__all__ = ["EXTRUCT_SYNTAXES", "MICROFORMATS_CONTEXT", "extract", "extract_events"]

#: The syntaxes extruct extracts by default, by this library's names (extruct's order).
EXTRUCT_SYNTAXES: Final = ("microdata", "json-ld", "opengraph", "mf2", "rdfa", "dublincore")
#: The ``@context`` extruct's uniform shape gives microformats2 items.
MICROFORMATS_CONTEXT: Final = "http://microformats.org/wiki/"
# The order of the result's keys: extruct's, then the syntaxes it does not have.
_KEY_ORDER: Final = (*EXTRUCT_SYNTAXES, "twitter")


def extract_events(doc: object, url: str | None = None, **options: Unpack[ParseOptions]) -> list[Event]:
    """Every event of ``doc`` with ``syntaxes`` on (default: extruct's six; mf2py's text rules
    and choices for the mf2 items), :class:`~stream_mf2.events.DocumentEnd` last; the notes are logged
    (:mod:`stream_mf2.io.notes`)."""
    names = resolve_syntaxes(options.get("syntaxes", EXTRUCT_SYNTAXES))
    given: dict[str, Any] = {"text": "normalized", "lang": True, "mf2py_compat": True} if "mf2" in names else {}
    given.update(options)
    given["syntaxes"] = names
    check_options(given, "extract")
    if isinstance(doc, str | bytes | bytearray | memoryview):
        events = parse_events(doc if isinstance(doc, str | bytes) else bytes(doc), url, **given)
        end = events[-1]
        assert isinstance(end, DocumentEnd)
        log_notes(end, url)
        return events
    from stream_mf2.io.sources import iter_events

    return list(iter_events(doc, url, stall_timeout=None, **given))


def extract(
    doc: object,
    url: str | None = None,
    *,
    uniform: bool = False,
    schema_context: str = "http://schema.org",
    with_og_array: bool = False,
    **options: Unpack[ParseOptions],
) -> dict[str, list[Any]]:
    """The structured data of ``doc`` in extruct's result shape, from one streaming parse.

    ``doc`` follows the input rule (:mod:`stream_mf2.io.sources`: text, bytes, a
    path, a file object, an HTTP response, ...); ``url`` is the document's URL.
    ``syntaxes`` (a parse option): the names of :mod:`stream_mf2.core.syntaxes`
    (default here: extruct's six, ``"mf2"`` for its ``"microformat"``). ``uniform``, ``schema_context``
    and ``with_og_array`` as extruct's. ``options``: the other parse options
    (:class:`~stream_mf2.ParseOptions`). An unknown syntax raises
    :class:`~stream_mf2.errors.UnknownSyntax`; one not installed
    :class:`~stream_mf2.errors.SyntaxUnavailable`.
    """
    names = resolve_syntaxes(options.get("syntaxes", EXTRUCT_SYNTAXES))
    options["syntaxes"] = names
    events = extract_events(doc, url, **options)
    result: dict[str, list[Any]] = {}
    for name in _KEY_ORDER:
        if name not in names:
            continue
        key = entry(name).extruct_key or name
        if name == "mf2":
            result[key] = document_result(events)["items"]
        else:
            result[key] = result_function(name)(events)
    if uniform:
        if "microdata" in names:
            result["microdata"] = uniform_items(result["microdata"], schema_context)
        if "mf2" in names:
            result["microformat"] = uniform_items(result["microformat"], MICROFORMATS_CONTEXT)
        if "opengraph" in names:
            result["opengraph"] = uniform_opengraph(result["opengraph"], with_og_array=with_og_array)
        if "dublincore" in names:
            result["dublincore"] = uniform_dublincore(result["dublincore"])
    return result
