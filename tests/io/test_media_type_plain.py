"""``media_type`` reads the Content-Type values servers send without an ``email`` message, and
answers for them what the message does (``_plain_media_type`` against ``_email_media_type``).

Every value below is built from parts that exercise each step of ``email``'s reading: case,
spaces and tabs around names, values and ``=``, empty parameters, bare names, repeated
``charset``, quoted and ``<...>`` values, ``=`` inside values, a type with no ``/`` or two, and
the characters that send a value to the ``email`` path (backslashes, ``*``, odd quotes, non-ASCII).
"""

from __future__ import annotations

import itertools

from stream_mf2.io.payload import _email_media_type, _is_plain, _parse_media_type, _plain_media_type

_TYPES = ["text/html", " TEXT/Html ", "application/xhtml+xml", "text", "a/b/c", "", "\ttext/plain", "charset=utf-8"]
_PARAMS = [
    "charset=utf-8",
    " Charset = UTF-8 ",
    'charset="windows-1252"',
    "charset=<shift_jis>",
    "charset=",
    "charset",
    "CHARSET=latin1",
    "charset='utf-8'",
    'charset=""',
    "charset=x-no-such-label",
    "charset=utf-8=x",
    "x=1",
    "",
    " ",
    'name="a;b"',
    'q=""',
    "boundary=abc",
    "charset=iso-8859-1 ",
]


def _values() -> list[str]:
    out: list[str] = []
    for kind in _TYPES:
        out.append(kind)
        for n in (1, 2):
            for params in itertools.product(_PARAMS, repeat=n):
                out.append(";".join((kind, *params)))
    return out


def test_plain_values_answer_what_email_answers() -> None:
    values = _values()
    plain = [v for v in values if _is_plain(v)]
    assert len(plain) > len(values) * 3 // 4  # (most of them take the plain path)
    for value in values:
        want = _email_media_type(value)
        assert _parse_media_type(value) == want, value
        if _is_plain(value):
            assert _plain_media_type(value) == want, value


def test_values_email_reads_otherwise_are_not_plain() -> None:
    # RFC 2231 parameters, quoted pairs, a quote spanning a ';', a character email wraps in a Header
    for value in [
        "text/html; charset*=utf-8''utf-8",
        "text/html; charset*0=ut; charset*1=f-8",
        'text/html; charset="utf\\-8"',
        'text/html; name="a; charset=latin1"; charset=utf-8',
        "text/html; charset=utf-8\udcff",
        "text/html; charset=utf-8\u00e9",
    ]:
        assert not _is_plain(value)
        assert _parse_media_type(value) == _email_media_type(value)
    assert _email_media_type("text/html; charset*=utf-8''utf-8") == ("text/html", None)  # (a tuple)
    assert _email_media_type('text/html; name="a; charset=latin1"; charset=utf-8') == ("text/html", "utf-8")
