"""Which templates apply to a URL: both the page URL and the URL patterns normalised first.

A browser, a crawler and a WARC file write the same page's URL in several ways
(``HTTPS://Shop.Example:443/list#top``). Before a template's ``ow:url`` (or an
``ow:urls`` entry) is matched against a page URL, both are brought to one form,
after the WHATWG URL standard's serialisation:

* scheme and host in lower case; the scheme's default port dropped (``:80`` for
  ``http``/``ws``, ``:443`` for ``https``/``wss``, ``:21`` for ``ftp``);
* an empty path is ``/`` (for those schemes);
* the fragment dropped (it never reaches the server: it does not choose a page);
* the hexadecimal digits of percent-encodings in upper case (``%c3%a9`` → ``%C3%A9``).

On the pattern's side only its literal text before the first ``(`` (where
captures start) is rewritten, when ``compile_pattern(..., whole=True)`` builds its
expression: what a capture's expression matches is the author's, and
``Pattern.source`` stays as written. This module imports nothing of the package
(the model and the pattern compiler both use it).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

__all__ = ["normalize_pattern", "normalize_url"]

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21}
_PCT = re.compile(r"%[0-9A-Fa-f]{2}")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")


def _upper_pct(text: str) -> str:
    return _PCT.sub(lambda m: m.group().upper(), text)


def _authority(scheme: str, netloc: str) -> str:
    """``netloc`` with the host in lower case and the scheme's default port dropped."""
    userinfo, at, hostport = netloc.rpartition("@")
    host, port = hostport, ""
    if hostport.startswith("["):  # an IPv6 literal
        end = hostport.find("]")
        if end >= 0:
            host, port = hostport[: end + 1], hostport[end + 1 :].lstrip(":")
    elif ":" in hostport:
        host, _, port = hostport.rpartition(":")
    if port and port.isdigit() and DEFAULT_PORTS.get(scheme) == int(port):
        port = ""
    return f"{userinfo}{at}{host.lower()}" + (f":{port}" if port else "")


def normalize_url(url: str) -> str:
    """``url`` in the form URL patterns are matched against (see the module docs)."""
    text = url.strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        return text  # (an invalid IPv6 literal): matched as written
    scheme = parts.scheme.lower()
    netloc = _authority(scheme, parts.netloc) if parts.netloc else parts.netloc
    path = parts.path
    if not path and scheme in DEFAULT_PORTS and netloc:
        path = "/"
    return urlunsplit((scheme, netloc, _upper_pct(path), _upper_pct(parts.query), ""))


def normalize_pattern(source: str) -> str:
    """A URL pattern's source with its literal text before the first ``(`` normalised as URLs are."""
    text = source.strip()
    first = text.find("(")
    if first < 0:
        first = len(text)
    head, rest = text[:first], text[first:]
    m = _SCHEME.match(head)
    if m is not None:
        scheme = head[: m.end() - 3].lower()
        after = head[m.end() :]
        cut = min((k for k in (after.find("/"), after.find("?"), after.find("#")) if k >= 0), default=-1)
        if cut >= 0:  # the whole authority is literal
            authority, tail = after[:cut], after[cut:]
            if tail.startswith(("?", "#")) and scheme in DEFAULT_PORTS:
                tail = "/" + tail
            head = f"{scheme}://{_authority(scheme, authority)}{tail}"
        elif not rest:  # a literal URL without a path
            head = f"{scheme}://{_authority(scheme, after)}" + ("/" if scheme in DEFAULT_PORTS else "")
    if not rest:
        hash_at = head.find("#")
        if hash_at >= 0:
            head = head[:hash_at]
        return _upper_pct(head)
    return _upper_pct(head) + rest
