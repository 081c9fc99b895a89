"""Property tests (hypothesis) of the syntax consumers on generated pages: JSON-LD blocks
with broken or wrapped JSON, metadata in and out of the head, tag soup around them. Never an
exception; the same events whole, in random chunkings and as UTF-8 bytes."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stream_mf2 import DocumentEnd, Parser
from stream_mf2.extruct import extract
from tests.support.chunking import random_chunks

SYNTAXES = {"mf2", "json-ld", "opengraph", "twitter", "dublincore"}

_JSON_PIECES = (
    '{"@type": "Thing"',
    "}",
    "[",
    "]",
    ",",
    '"a": 1',
    '"b": "x\ny"',
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "//",
    "/* c */",
    "\n",
    "\ufeff",
    '"',
    "\\",
    "NaN",
    "12345678901234567890123",
    "null",
    '{"@graph": [',
    "</scr",
    "</script",
    "<script>",
    "&amp;",
    "é",
    "\x00",
    "\r\n",
)
_TYPES = (
    "application/ld+json",
    "Application/LD+JSON",
    " application/ld+json; charset=utf-8",
    "application/json",
    "text/javascript",
    "",
)
_META = (
    '<meta property="og:title" content="T">',
    '<meta property="og:image" content="/a.png">',
    '<meta property="og:image" content="">',
    '<meta property="fb:app_id" content="1">',
    '<meta name="twitter:card" content="summary">',
    '<meta property="twitter:site" content="@x">',
    '<meta name="DC.title" content="D">',
    '<meta name="dcterms.modified" content="2024">',
    '<meta name="description" content="d">',
    '<link rel="schema.DC" href="http://purl.org/dc/elements/1.1/">',
    '<link rel="DCTERMS.license" href="/l">',
    "<meta>",
    '<meta property="og:x">',
)
_TAGS = (
    "<head>",
    "</head>",
    "<body>",
    "</body>",
    '<html prefix="fb: http://ogp.me/ns/fb#">',
    "<template>",
    "</template>",
    "<table>",
    "<tr>",
    "<td>",
    "<p>",
    "</p>",
    "<b>",
    "</b>",
    '<div class="h-entry">',
    "</div>",
    '<span class="p-name">n</span>',
    "<svg>",
    "</svg>",
    "<frameset>",
    "<title>t</title>",
    "<noscript>",
    "</noscript>",
    "<select>",
    "<option>",
    "text",
    " ",
    "<!-- c -->",
)


@st.composite
def _script(draw: st.DrawFn) -> str:
    body = "".join(draw(st.lists(st.sampled_from(_JSON_PIECES), max_size=12)))
    kind = draw(st.sampled_from(_TYPES))
    end = draw(st.sampled_from(("</script>", "</SCRIPT>", "")))
    return f'<script type="{kind}">{body}{end}'


@st.composite
def _page(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.one_of(_script(), st.sampled_from(_META), st.sampled_from(_TAGS)), max_size=25))
    return "".join(pieces)


def _events(chunks: list[str] | list[bytes], **options: Any) -> list[object]:
    parser = Parser(syntaxes=SYNTAXES, **options)
    events = [e for chunk in chunks for e in parser.feed_events(chunk)]
    events += parser.close_events()
    assert type(events[-1]) is DocumentEnd
    return events


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_page(), st.integers(0, 2**16))
def test_any_page_any_chunking(page: str, seed: int) -> None:
    whole = _events([page])
    assert _events(random_chunks(page, seed) or [page]) == whole
    data = page.encode("utf-8", "surrogatepass")
    as_bytes = _events(random_chunks(data, seed + 1) or [data], encoding="utf-8")
    assert as_bytes[:-1] == whole[:-1]
    assert as_bytes[-1].notes == whole[-1].notes  # type: ignore[attr-defined]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_page())
def test_dropin_never_raises(page: str) -> None:
    result = extract(page, syntaxes=["json-ld", "opengraph", "dublincore", "microformat"], uniform=True)
    assert list(result) == ["json-ld", "opengraph", "microformat", "dublincore"]
