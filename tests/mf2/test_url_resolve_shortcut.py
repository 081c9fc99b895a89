"""``resolve`` skips ``urljoin`` for absolute http(s) URLs: the answer must be what ``urljoin`` gives."""

from __future__ import annotations

import random
from urllib.parse import urljoin

from stream_mf2.mf2 import urls

PIECES = ["http://", "https://", "HTTP://", "a.example", "[::1]", "[", "/", "//", "?", "#", ";", "=", "x", "%20",
          "é", ":8080", ":99999", "@", ".", "..", " ", "\\", "q=1", "frag"]


def _expected(url: str, base: str) -> str:
    try:
        return urljoin(base, url)
    except ValueError:
        return url


def test_shortcut_agrees_with_urljoin() -> None:
    rnd = random.Random(14)
    taken = 0
    for _ in range(30000):
        url = rnd.choice(["http://", "https://"]) + "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 8)))
        url = url.strip(" ")
        for base in ("https://base.example/dir/page", "http://base.example/"):
            if urls._SELF_RESOLVED.match(url) is not None:
                taken += 1
                assert url == _expected(url, base), (url, base)
    assert taken > 1000


def test_resolve_keeps_urljoin_answers_for_empty_parts() -> None:
    base = "https://base.example/dir/page"
    for url in ("https://a.example/p?", "https://a.example/p#", "https://a.example/p;", "https://a.example/p;?q#f",
                "https://a.example/p?q=1#respond", "https://a.example/p;x?y#z", "https://a.example?#"):
        assert urls.resolve(url, base) == _expected(url, base)
