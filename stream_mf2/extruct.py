"""A drop-in for extruct's ``extract``: ``from stream_mf2.extruct import extract``.

The same signature as extruct 0.18's ``extruct.extract`` and the same result
(a list per syntax: ``"microdata"``, ``"json-ld"``, ``"opengraph"``,
``"microformat"``, ``"rdfa"``, ``"dublincore"``, in that order; ``uniform=True``
for the uniform shape), from one streaming parse instead of one parse per
syntax (:func:`stream_mf2.extract`). Every known difference
(``docs/guides/from-extruct.md``):

* the HTML is parsed with the WHATWG algorithm (what browsers build), not
  libxml2's, so markup the two repair differently may give other results (a
  ``<meta>`` between ``</head>`` and ``<body>`` is in the head here);
* a JSON-LD block that is not JSON even leniently (comments, trailing commas,
  a byte order mark and CDATA are read) is skipped with a note, logged as a
  warning of the ``stream_mf2`` logger, where extruct raises (``errors="strict"``)
  or drops the whole ``"json-ld"`` list; ``type`` is compared as HTML does
  (``application/ld+json; charset=utf-8`` is JSON-LD);
* a ``<link rel="schema.DC">`` without ``href`` declares nothing (extruct
  raises ``KeyError``);
* the microformats items are this library's (the mf2py drop-in's differences,
  ``docs/guides/from-mf2py.md``);
* ``htmlstring`` must be text or bytes (or another source of the input rule):
  an lxml tree is a :class:`TypeError`, and ``return_html_node=True`` (lxml
  nodes in microdata items) a :class:`ValueError`;
* ``errors`` applies to what can fail here: a limit exceeded
  (:class:`~stream_mf2.errors.LimitExceeded`) raises with ``"strict"``; with
  ``"log"`` (logged) or ``"ignore"`` the result is ``{}``, as extruct's when
  its parse fails.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any, Final

from stream_mf2.errors import LimitExceeded
from stream_mf2.extraction import extract as _extract

__all__ = ["SYNTAXES", "extract"]

#: extruct's syntax names (its default ``syntaxes``).
SYNTAXES: Final[list[str]] = ["microdata", "opengraph", "json-ld", "microformat", "rdfa", "dublincore"]
# extruct's names -> this library's
_NAMES: Final = {"microformat": "mf2"}
_ERRORS: Final = ("log", "ignore", "strict")

logger = logging.getLogger(__name__)


def extract(
    htmlstring: str | bytes,
    base_url: str | None = None,
    encoding: str = "UTF-8",
    syntaxes: list[str] = SYNTAXES,
    errors: str = "strict",
    uniform: bool = False,
    return_html_node: bool = False,
    schema_context: str = "http://schema.org",
    with_og_array: bool = False,
    url: str | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """extruct's ``extract``: the structured data of ``htmlstring`` per syntax.

    ``base_url``: the document's URL. ``encoding``: the encoding of bytes input
    (as a transport charset: it beats a ``<meta charset>``, as extruct's). ``url``
    is extruct's deprecated name for ``base_url``. See the module docstring for
    what differs from extruct.
    """
    if base_url is None and url is not None:
        warnings.warn('"url" argument is deprecated, please use "base_url"', DeprecationWarning, stacklevel=2)
        base_url = url
    if not (isinstance(syntaxes, list) and all(v in SYNTAXES for v in syntaxes)):
        raise ValueError(f"syntaxes must be a list with any or all (default) of these values: {SYNTAXES}")
    if errors not in _ERRORS:
        raise ValueError('Invalid error command, valid values are either "log", "ignore" or "strict"')
    if return_html_node:
        raise ValueError("return_html_node is not supported: stream_mf2 keeps no lxml tree to give nodes of")
    if not isinstance(htmlstring, str | bytes | bytearray | memoryview):
        raise TypeError(
            f"extract() takes the HTML as text or bytes, not {type(htmlstring).__name__}"
            " (a parsed tree cannot be streamed: pass the document itself)"
        )
    names = [_NAMES.get(name, name) for name in syntaxes]
    try:
        return _extract(
            htmlstring,
            base_url,
            syntaxes=names,
            uniform=uniform,
            schema_context=schema_context,
            with_og_array=with_og_array,
            encoding=encoding if not isinstance(htmlstring, str) else None,
        )
    except LimitExceeded as e:
        if errors == "strict":
            raise
        if errors == "log":
            logger.exception("Failed to parse html, raises %s", e)
        return {}
