"""URL resolution that never raises on broken input."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urljoin

# HTML strips leading and trailing ASCII whitespace from URL attributes and
# removes tabs and newlines inside them (WHATWG URL parser).
_STRIP = " \t\n\f\r"
_TAB_NL = re.compile(r"[\t\n\r]")


def resolve(url: str, base: str | None) -> str:
    """Resolve ``url`` against ``base``; a URL that cannot be parsed is returned as written."""
    url = _TAB_NL.sub("", url.strip(_STRIP))
    if not base:
        return url
    return _join(base, url)


# Pages repeat the same few URLs (author links, icons, tags): remember recent joins.
@lru_cache(maxsize=4096)
def _join(base: str, url: str) -> str:
    try:
        return urljoin(base, url)
    except ValueError:
        return url
