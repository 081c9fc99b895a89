"""URL resolution that never raises on broken input."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urljoin, urlsplit

# HTML strips leading and trailing ASCII whitespace from URL attributes and
# removes tabs and newlines inside them (WHATWG URL parser).
_STRIP = " \t\n\f\r"
_TAB_NL = re.compile(r"[\t\n\r]")


# An absolute http(s) URL with a host and without ``;``, ``?`` or ``#`` is its
# own resolution: ``urljoin`` would only split it and put the same parts back
# together (or fail on a broken host, and then it is kept as written too).
_SELF_RESOLVED = re.compile(r"https?://[^/;?#][^;?#]*\Z")


def resolve(url: str, base: str | None) -> str:
    """Resolve ``url`` against ``base``; a URL that cannot be parsed is returned as written."""
    url = _TAB_NL.sub("", url.strip(_STRIP))
    if not base or _SELF_RESOLVED.match(url) is not None:
        return url
    return _join(base, url)


# Pages repeat the same few URLs (author links, icons, tags): remember recent joins.
@lru_cache(maxsize=4096)
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
