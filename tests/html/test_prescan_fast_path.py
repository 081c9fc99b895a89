"""The prescan's one-regex skip of ordinary tags agrees with its byte-by-byte loop.

``decode._PLAIN_TAG`` skips a whole start or end tag (not a ``<meta``) in one match;
where it matches, the byte-by-byte steps (``_at_lt``, *get an attribute*) must end
at the same ``>``, and where the steps would run out of bytes it must not match.
"""

from __future__ import annotations

import random

from stream_mf2.html import decode

PIECES = [
    b"<", b">", b"/", b"=", b'"', b"'", b" ", b"\t", b"\n", b"m", b"e", b"t", b"a", b"M", b"x", b"-", b"!",
    b"?", b"\x00", b"\xe9", b"<meta ", b"<META/", b"<meta charset=utf-8>", b"<a ", b"</a>", b"<div class=x>",
    b"http-equiv=content-type ", b"content='text/html; charset=koi8-r'", b"charset",
]


def _steps(buf: bytes, end: int) -> tuple[str | None, int] | None:
    try:
        return decode._at_lt(buf, 0, end)
    except decode._OutOfBytes:
        return None


def test_plain_tag_skip_matches_the_steps() -> None:
    rnd = random.Random(14)
    checked = 0
    for _ in range(20000):
        buf = b"<" + b"".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 24)))
        for end in (len(buf), rnd.randint(1, len(buf))):
            m = decode._PLAIN_TAG.match(buf, 0, end)
            if m is None:
                continue
            checked += 1
            assert _steps(buf, end) == (None, m.end() - 1), buf[:end]
    assert checked > 1000  # the skip is taken often enough for this to mean something


def test_prescan_unchanged_by_the_skip() -> None:
    # A whole prescan over tag-dense input, with and without the skip, gives the same answer.
    rnd = random.Random(7)
    for _ in range(3000):
        # a leading space: the UTF-16 check at the start, left out below, never applies
        buf = b" " + b"".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 40)))
        end = rnd.randint(1, len(buf))
        expected = _slow_prescan(buf, end)
        assert decode.prescan(buf, 0, end) == expected, buf[:end]


def _slow_prescan(buf: bytes, end: int) -> tuple[str | None, int]:
    """``prescan``'s loop without the skip (the UTF-16 check omitted: inputs never start so)."""
    pos = 0
    while True:
        lt = buf.find(b"<", pos, end)
        if lt < 0:
            return None, end
        try:
            found, pos = decode._at_lt(buf, lt, end)
        except decode._OutOfBytes:
            return None, lt
        pos += 1
        if found is not None:
            return found, pos


META_PIECES = [
    b"<meta", b"<META", b"<MeTa", b" ", b"\t", b"/", b"charset", b"CharSet", b"charse", b"=", b" = ", b'"', b"'",
    b"utf-8", b"UTF-8", b"koi8-r", b"x-user-defined", b"utf-16", b"UTF-16BE", b"nonsense", b"\xe9", b">", b"/>",
    b"<", b"content=x", b"http-equiv=content-type", b"a", b"-",
]


def test_meta_charset_match_agrees_with_the_steps() -> None:
    # Where the one-regex <meta charset=...> match applies, the byte-by-byte steps decide
    # the same encoding (or none) and end at the same ">"; the whole prescan agrees too.
    rnd = random.Random(21)
    checked = 0
    for _ in range(20000):
        if rnd.random() < 0.5:  # mostly well-formed, with variations
            quote = rnd.choice([b'"', b"'", b""])
            label = rnd.choice([b"utf-8", b"UTF-8", b" utf-8 ", b"koi8-r", b"x-user-defined", b"utf-16le", b"bogus",
                                b"windows-1252", b"\xe9", b"utf-8/", b""])
            buf = (rnd.choice([b"<meta", b"<META", b"<meta/"]) + rnd.choice([b" ", b"  ", b"\n", b" /"])
                   + rnd.choice([b"charset", b"CHARSET"]) + rnd.choice([b"=", b" = ", b"=\t"]) + quote + label + quote
                   + rnd.choice([b">", b"/>", b" />", b" >", b"", b" x>"]))
        else:
            buf = b"<meta " + b"".join(rnd.choice(META_PIECES) for _ in range(rnd.randint(0, 12)))
        for end in (len(buf), rnd.randint(1, len(buf))):
            m = decode._META_CHARSET.match(buf, 0, end)
            if m is not None:
                checked += 1
                found, gt = _steps(buf, end) or (None, -1)
                assert (found, gt + 1) == (decode._charset_of(m[1] if m[1] is not None else m[2] if m[2] is not None
                                                              else m[3]), m.end()), buf[:end]
            assert decode.prescan(b" " + buf, 0, end + 1) == _slow_prescan(b" " + buf, end + 1), buf[:end]
    assert checked > 3000


BANG_PIECES = [
    b"<!doctype html>", b"<!DOCTYPE html PUBLIC '-//W3C//DTD'>", b"<!", b"<!-", b"<!->", b"<!-- x -->", b"<!-->",
    b"<?x>", b"<html>", b"a", b">", b"<", b"-", b"!", b"\x00", b"<\x00?\x00x\x00", b"\x00<\x00?\x00x",
    b"<meta charset=utf-8>", b"<meta charset=bogus>",
]
_UTF16_PATTERNS = (b"<\x00?\x00x\x00", b"\x00<\x00?\x00x")


def test_prescan_bang_and_utf16_checks_agree_with_the_steps() -> None:
    # The inline skip of "<!" not followed by "-" (a doctype) and the quick test for the
    # UTF-16 patterns at the start agree with the byte-by-byte loop, wherever the input ends.
    rnd = random.Random(26)
    decided = 0
    for _ in range(4000):
        buf = b"".join(rnd.choice(BANG_PIECES) for _ in range(rnd.randint(0, 12)))
        for end in {len(buf), rnd.randint(0, len(buf))}:
            head = buf[: min(end, 6)]
            if head and any(p.startswith(head) or head == p for p in _UTF16_PATTERNS):
                continue  # the UTF-16 patterns decide (or wait): test_prescan_utf16_patterns
            expected = _slow_prescan(buf, end)
            decided += expected[0] is not None
            assert decode.prescan(buf, 0, end) == expected, buf[:end]
    assert decided > 100  # the deciding <meta> is reached after the skips often enough


def test_prescan_utf16_patterns() -> None:
    assert decode.prescan(b"<\x00?\x00x\x00m\x00l\x00") == (decode._UTF16LE, 6)
    assert decode.prescan(b"\x00<\x00?\x00x\x00m\x00l") == (decode._UTF16BE, 6)
    assert decode.prescan(b"<\x00?") == (None, 0)
    assert decode.prescan(b"\x00") == (None, 0)
    assert decode.prescan(b"<") == (None, 0)
    assert decode.prescan(b"<!doctype html><meta charset=koi8-r>") == ("KOI8-R", 36)
