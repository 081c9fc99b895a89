"""URL resolution that never raises on broken input."""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import urljoin, urlsplit

# HTML strips leading and trailing ASCII whitespace from URL attributes and
# removes tabs and newlines inside them (WHATWG URL parser).
_STRIP: Final = " \t\n\f\r"
_TAB_NL: Final = re.compile(r"[\t\n\r]")


# An absolute http(s) URL with a host is its own resolution: ``urljoin`` would
# only split it and put the same parts back together (or fail on a broken host,
# and then it is kept as written too). Putting them back drops only *empty*
# parts: a ``?`` without a query, a ``#`` without a fragment, a ``;`` ending the
# path (empty ``params``), so those go through ``urljoin``. The query runs to the
# first ``#``, the fragment to the end.
_SELF_RESOLVED: Final = re.compile(r"https?://[^/;?#][^?#]*+(?<!;)(?:\?[^#]++)?(?:#.+)?\Z", re.DOTALL)


# Pages repeat the same few URLs (author links, icons, tags): remember recent
# answers, keyed by the attribute value as written. A plain dict emptied when
# full; long values (data: URLs) are not kept, so the memory stays small.
_RESOLVED: Final[dict[tuple[str, str | None], str]] = {}
_RESOLVED_MAX: Final = 4096
_RESOLVED_MAX_LEN: Final = 2048


def resolve(url: str, base: str | None) -> str:
    """Resolve ``url`` against ``base``; a URL that cannot be parsed is returned as written."""
    # Only values up to _RESOLVED_MAX_LEN are remembered: a longer one (a data: URL) is not
    # looked for, which would hash all of it for nothing.
    short = len(url) <= _RESOLVED_MAX_LEN
    if short:
        found = _RESOLVED.get((url, base))
        if found is not None:
            return found
    clean = url.strip(_STRIP)
    if "\t" in clean or "\n" in clean or "\r" in clean:  # rare: skip the regex pass over long data: URLs
        clean = _TAB_NL.sub("", clean)
    # A data: URL is its own resolution too: urljoin returns a URL whose scheme
    # is not relative-capable as it is, after parsing all of it.
    if base and _SELF_RESOLVED.match(clean) is None and clean[:5].lower() != "data:":
        clean = _join(base, clean)
    if short:
        if len(_RESOLVED) >= _RESOLVED_MAX:
            _RESOLVED.clear()
        _RESOLVED[(url, base)] = clean
    return clean


def _join(base: str, url: str) -> str:
    try:
        return urljoin(base, url)
    except ValueError:
        return url


def parse_url(url: str, base: str | None) -> str | None:
    """Resolve ``url`` against ``base`` like :func:`resolve`, but ``None`` when it fails to parse.

    Failure is what the URL parser rejects and the standard library notices: a
    malformed IPv6 host (``http://[::1``) or a port out of range. Used for
    ``<base href>``, where HTML falls back to the document URL on failure.
    """
    url = _TAB_NL.sub("", url.strip(_STRIP))
    try:
        joined = urljoin(base, url) if base else url
        _ = urlsplit(joined).port  # raises ValueError for a port out of range
    except ValueError:
        return None
    return joined
