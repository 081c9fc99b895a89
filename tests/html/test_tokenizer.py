"""Unit tests of the push tokenizer: the contract the tree builder relies on, limits, errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_mf2.errors import LimitExceeded, ParserStateError
from stream_mf2.html.charrefs import NAMED, match_named, numeric_reference
from stream_mf2.html.testing import tokenize_for_test
from stream_mf2.html.tokenizer import Tokenizer
from tests.support.chunking import chunkings
from tests.support.suites import REPO


class RecordingSink:
    """Records every call; switches state after given start tags like a tree builder."""

    def __init__(self, switches: dict[str, str] | None = None, cdata: bool = False) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.switches = switches or {}
        self.cdata = cdata
        self.tokenizer: Tokenizer | None = None
        self.eofs = 0

    def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool) -> None:
        self.calls.append(("start", name, attrs, self_closing))
        if name in self.switches and self.tokenizer is not None:
            self.tokenizer.switch_to(self.switches[name])

    def end_tag(self, name: str) -> None:
        self.calls.append(("end", name))

    def characters(self, data: str) -> None:
        self.calls.append(("chars", data))

    def comment(self, data: str) -> None:
        self.calls.append(("comment", data))

    def doctype(self, name: str | None, public_id: str | None, system_id: str | None, force_quirks: bool) -> None:
        self.calls.append(("doctype", name, public_id, system_id, force_quirks))

    def eof(self) -> None:
        self.eofs += 1

    def cdata_allowed(self) -> bool:
        return self.cdata

    def merged(self) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        for c in self.calls:
            if c[0] == "chars" and out and out[-1][0] == "chars":
                out[-1] = ("chars", out[-1][1] + c[1])
            else:
                out.append(c)
        return out


def run(chunks: list[str], switches: dict[str, str] | None = None, **kw: Any) -> tuple[RecordingSink, Tokenizer]:
    sink = RecordingSink(switches, cdata=kw.pop("cdata", False))
    tok = Tokenizer(sink, **kw)
    sink.tokenizer = tok
    for c in chunks:
        tok.feed(c)
    tok.close()
    return sink, tok


TREE_SWITCHES = {"style": "RAWTEXT state", "title": "RCDATA state", "script": "Script data state", "plaintext": "PLAINTEXT state"}


def test_switch_state_inside_start_tag_callback() -> None:
    doc = "<p><style>a<b>&amp;</p></style><title>x<i>&amp;</title><script>if (a<b) {}</script><i>"
    for label, chunks in chunkings(doc):
        sink, _ = run(chunks, TREE_SWITCHES)
        assert sink.merged() == [
            ("start", "p", {}, False),
            ("start", "style", {}, False),
            ("chars", "a<b>&amp;</p>"),
            ("end", "style"),
            ("start", "title", {}, False),
            ("chars", "x<i>&"),
            ("end", "title"),
            ("start", "script", {}, False),
            ("chars", "if (a<b) {}"),
            ("end", "script"),
            ("start", "i", {}, False),
        ], label


def test_switch_to_plaintext_keeps_everything_after_as_text() -> None:
    sink, _ = run(["<plaintext a=b></plaintext><p>"], TREE_SWITCHES)
    assert sink.merged() == [("start", "plaintext", {"a": "b"}, False), ("chars", "</plaintext><p>")]


def test_last_start_tag_set_by_tree_builder() -> None:
    sink = RecordingSink()
    tok = Tokenizer(sink)
    tok.switch_to("RCDATA state")
    tok.last_start_tag = "textarea"
    tok.feed("</title></textarea>")
    tok.close()
    assert sink.merged() == [("chars", "</title>"), ("end", "textarea")]


def test_last_start_tag_follows_emitted_start_tags() -> None:
    _, tok = run(["<div><TextArea>"])
    assert tok.last_start_tag == "textarea"


def test_unknown_state_name() -> None:
    with pytest.raises(ValueError):
        Tokenizer(RecordingSink()).switch_to("Bogus state")


@pytest.mark.parametrize(
    ("chunks", "expected"),
    [
        (["a\r", "\nb"], "a\nb"),
        (["a\r", "b"], "a\nb"),
        (["a\r"], "a\n"),
        (["a\r\r\n", "\r"], "a\n\n\n"),
        (["\r", "\r", "\n", "\n"], "\n\n\n"),
        (["a\r\nb\rc"], "a\nb\nc"),
    ],
)
def test_newline_normalisation_across_chunks(chunks: list[str], expected: str) -> None:
    sink, _ = run(chunks)
    assert sink.merged() == [("chars", expected)]


def test_cr_at_chunk_end_inside_attribute_and_error_lines() -> None:
    tokens, errors = tokenize_for_test(['<a title="x\r', '\ny">\r', "\n\0"])
    assert tokens == [["StartTag", "a", {"title": "x\ny"}], ["Character", "\n\0"]]
    assert errors == [{"code": "unexpected-null-character", "line": 3, "col": 1}]


CHARREF_DOC = '<a href="?x=1&copy=2&copyx&amp;y&notin;z&#x41&#65;" t=&lt;>&notit; &amp &copy;&#x110000;&#128;&'


def test_charrefs_whole() -> None:
    tokens, errors = tokenize_for_test([CHARREF_DOC])
    assert tokens == [
        ["StartTag", "a", {"href": "?x=1&copy=2&copyx&y∉zAA", "t": "<"}],
        ["Character", "¬it; & ©\ufffd€&"],
    ]
    assert [e["code"] for e in errors] == [
        "missing-semicolon-after-character-reference",  # &#x41 in the attribute
        "missing-semicolon-after-character-reference",  # &not before "it;"
        "missing-semicolon-after-character-reference",  # &amp before " "
        "character-reference-outside-unicode-range",
        "control-character-reference",
    ]


def test_charrefs_split_anywhere() -> None:
    expected = tokenize_for_test([CHARREF_DOC])
    for label, chunks in chunkings(CHARREF_DOC):
        assert tokenize_for_test(chunks) == expected, label


def test_longest_match_needs_lookahead() -> None:
    # "&notin;" must not resolve as "&not" + "in;" just because the chunk ended after "&not".
    assert tokenize_for_test(["&not", "in;"])[0] == [["Character", "∉"]]
    assert tokenize_for_test(["&not", "it;"])[0] == [["Character", "¬it;"]]
    # At EOF the reference resolves with what there is.
    assert tokenize_for_test(["x&not"])[0] == [["Character", "x¬"]]
    assert tokenize_for_test(['<a b="&amp', ';">'])[0] == [["StartTag", "a", {"b": "&"}]]
    assert tokenize_for_test(['<a b="&copy', '=">'])[0] == [["StartTag", "a", {"b": "&copy="}]]


def test_named_matcher_asks_for_more_input_only_when_it_matters() -> None:
    assert match_named("&notin;", 1, at_eof=False) == 7
    assert match_named("&notit;", 1, at_eof=False) == 4  # "&not" then literal "it;"
    assert match_named("&not", 1, at_eof=False) is None  # "&notin;" may follow
    assert match_named("&not", 1, at_eof=True) == 4
    assert match_named("&zzz", 1, at_eof=False) == 1  # no name starts with "zzz"
    assert len(NAMED) == 2231


@pytest.mark.parametrize(
    ("code", "text", "error"),
    [
        (0x41, "A", None),
        (0, "\ufffd", "null-character-reference"),
        (0x80, "€", "control-character-reference"),
        (0x81, "\x81", "control-character-reference"),
        (0x0D, "\r", "control-character-reference"),
        (0x09, "\t", None),
        (0xD800, "\ufffd", "surrogate-character-reference"),
        (0xFDD0, "\ufdd0", "noncharacter-character-reference"),
        (0x10FFFF, "\U0010ffff", "noncharacter-character-reference"),
        (0x110000, "\ufffd", "character-reference-outside-unicode-range"),
    ],
)
def test_numeric_reference_replacements(code: int, text: str, error: str | None) -> None:
    assert numeric_reference(code) == (text, error)


def test_limit_on_comment_raises_typed_error() -> None:
    for chunks in (["<!--" + "x" * 200 + "-->"], ["<!--", "x" * 150, "x" * 50, "-->"]):
        with pytest.raises(LimitExceeded) as info:
            run(chunks, max_token_chars=100)
        assert info.value.limit == "max_token_chars"
        assert info.value.value == 100


@pytest.mark.parametrize(
    "doc",
    [
        '<a href="' + "v" * 300 + '">',
        "<a " + "b" * 300 + ">",
        '<a title="x" ' + " c" * 200 + ">",
        "<" + "t" * 300 + ">",
        "<!DOCTYPE html PUBLIC '" + "p" * 300 + "'>",
        "<title>" + "</titl" + "e" * 300,
    ],
)
def test_limit_on_unfinished_tokens(doc: str) -> None:
    switches = {"title": "RCDATA state"}
    for chunks in ([doc], [doc[i : i + 7] for i in range(0, len(doc), 7)]):
        with pytest.raises(LimitExceeded):
            run(chunks, switches, max_token_chars=100)


def test_tags_matched_with_the_text_between_them_are_capped_but_not_the_text() -> None:
    text = "x" * 500
    sink, _ = run([f"<b>{text}</b></i>{text}</p>"], max_token_chars=20)
    assert sink.merged() == [("start", "b", {}, False), ("chars", text), ("end", "b"), ("end", "i"),
                             ("chars", text), ("end", "p")]
    # a second end tag over the cap: the tags before it are emitted first
    with pytest.raises(LimitExceeded):
        run([f"<b>x</b></{'i' * 300}>"], max_token_chars=100)
    for chunks in (["<b>x</b></" + "i" * 300 + ">"], ["<b>x</b>", "</" + "i" * 300 + ">"]):
        sink = RecordingSink()
        tok = Tokenizer(sink, max_token_chars=100)
        with pytest.raises(LimitExceeded):
            for chunk in chunks:
                tok.feed(chunk)
        assert sink.merged() == [("start", "b", {}, False), ("chars", "x"), ("end", "b")]
    for doc in (f"<b>x</{'b' * 300}>", f"</i>x</{'b' * 300}>", f"<b {'c' * 300}>x</b>"):
        with pytest.raises(LimitExceeded):
            run([doc], max_token_chars=100)


def test_long_numeric_reference_is_read_without_lookahead() -> None:
    doc = "&#" + "0" * 300 + "65;&#x" + "0" * 300 + "10FFFF0;"
    for chunks in ([doc], [doc[i : i + 7] for i in range(0, len(doc), 7)]):
        sink = RecordingSink()
        tok = Tokenizer(sink, max_token_chars=100, collect_errors=True)
        for c in chunks:
            tok.feed(c)
            assert tok.pending_chars <= 1
        tok.close()
        assert sink.merged() == [("chars", "A\ufffd")]
        assert tok.errors == [("character-reference-outside-unicode-range", 1, len(doc) + 1)]


def test_text_is_not_capped_and_streams_in_pieces() -> None:
    sink = RecordingSink()
    tok = Tokenizer(sink, max_token_chars=100)
    piece = "abcdefghij" * 100
    for _ in range(1000):
        tok.feed(piece)
        assert tok.pending_chars == 0
    tok.feed("<p>")
    tok.close()
    texts = [c[1] for c in sink.calls if c[0] == "chars"]
    assert len(texts) == 1000
    assert max(len(t) for t in texts) == len(piece)
    assert sum(len(t) for t in texts) == 1_000_000
    assert sink.calls[-1] == ("start", "p", {}, False)


def test_long_attribute_value_is_held_once_not_as_lookahead() -> None:
    sink = RecordingSink()
    tok = Tokenizer(sink)
    tok.feed('<a title="')
    for _ in range(1000):
        tok.feed("x" * 1000)
        # A tag cut off by a chunk end is re-read whole only while it is short.
        assert tok.pending_chars <= 2048
    tok.feed('">')
    tok.close()
    assert sink.calls == [("start", "a", {"title": "x" * 1_000_000}, False)]


def test_rawtext_and_comment_like_script_stream_in_pieces() -> None:
    sink = RecordingSink(TREE_SWITCHES)
    tok = Tokenizer(sink, max_token_chars=100)
    sink.tokenizer = tok
    tok.feed("<script><!--")
    for _ in range(100):
        tok.feed("x < y -- z " * 100)
        assert tok.pending_chars <= 1
    tok.feed("--></script>")
    tok.close()
    assert sink.calls[-1] == ("end", "script")
    assert sum(len(c[1]) for c in sink.calls if c[0] == "chars") == 4 + 100 * 1100 + 3


def test_long_script_in_every_escape_state_is_not_a_token() -> None:
    # Text states never count against max_token_chars, even when a chunk ends
    # on a "<" inside an escaped or double-escaped script.
    for prefix in ("<script>", "<script><!--", "<script><!--<script>"):
        sink = RecordingSink(TREE_SWITCHES)
        tok = Tokenizer(sink, max_token_chars=50)
        sink.tokenizer = tok
        tok.feed(prefix)
        for _ in range(200):
            tok.feed("a-<")
        # In the double-escaped state the first "</script>" only leaves that state.
        tok.feed("/script></script>")
        tok.close()
        assert sink.calls[-1] == ("end", "script"), prefix


def test_close_twice_and_feed_after_close() -> None:
    sink = RecordingSink()
    tok = Tokenizer(sink)
    tok.feed("<p>")
    tok.close()
    assert sink.eofs == 1
    with pytest.raises(ParserStateError):
        tok.close()
    with pytest.raises(ParserStateError):
        tok.feed("x")
    assert sink.eofs == 1


def test_feed_after_limit_error_is_refused() -> None:
    tok = Tokenizer(RecordingSink(), max_token_chars=10)
    with pytest.raises(LimitExceeded):
        tok.feed("<!--" + "x" * 20)
    with pytest.raises(ParserStateError):
        tok.feed("-->")
    with pytest.raises(ParserStateError):
        tok.close()


def test_errors_are_recorded_not_raised() -> None:
    sink, tok = run(["<a b=1 b=2>\n</a x>\0<!-- --!>"], collect_errors=True)
    assert tok.errors == [
        ("duplicate-attribute", 1, 9),  # at the "=" that ends the second name
        ("end-tag-with-attributes", 2, 6),
        ("unexpected-null-character", 2, 7),
        ("incorrectly-closed-comment", 2, 16),  # at the ">" of "--!>"
    ]
    assert sink.calls[0] == ("start", "a", {"b": "1"}, False)
    _, quiet = run(["<a b=1 b=2>"])
    assert quiet.errors == []


def test_cdata_section_only_when_sink_allows() -> None:
    sink, _ = run(["<![CDATA[a<b]]>"], cdata=True)
    assert sink.merged() == [("chars", "a<b")]
    sink, _ = run(["<![CDATA[a<b]]>"], cdata=False)
    assert sink.merged() == [("comment", "[CDATA[a<b]]")]


def test_fast_path_agrees_with_state_machine() -> None:
    doc = (
        "<!DOCTYPE html><DIV Class='a' id=b data-X=\"C\" hidden><IMG src=x.png alt=\"\"/>"
        "<a href=/x/ title='t'>t</a></Div><br/><input value=a/b><p\tclass=\nx>y</p \n>"
    )
    whole = tokenize_for_test([doc])
    assert whole == tokenize_for_test(list(doc))
    assert whole == tokenize_for_test([doc], fast_path=False)
    assert whole == tokenize_for_test(list(doc), fast_path=False)
    assert whole[0][1] == ["StartTag", "div", {"class": "a", "id": "b", "data-x": "C", "hidden": ""}]
    assert ["StartTag", "input", {"value": "a/b"}] in whole[0]
    assert whole[1] == []


# Tag and text shapes around the fast paths' edges: attribute counts and quoting
# around the three captured attributes, duplicates at each place, capitals,
# character references in values (decoded, kept as written, or left to the states
# because they are parse errors) and in text, comments, and RAWTEXT/script ends.
_FAST_PATH_SHAPES = [
    "<p>", "<p/>", "<p >", "<p\t/>", "<br a>", "<br a b c d e>", '<i a="1">', '<i a="1" b="2" c="3">',
    '<i a="1" b="2" c="3" d="4" e=\'5\' f=6 g>', "<i a='1' b=\"2\">", '<i a=1 b="2">', '<i a="1" b=2>',
    '<i a="1" a="2">', '<i a="1" b="2" a="3">', '<i a="1" b="2" c="3" c="4">', "<i a b a>", '<i a="1" b c=\'3\' b>',
    '<I A="1">', '<svg viewBox="0 0 1 1">', '<i a = "1" b= "2" c ="3">', "<i a = '1'>", "<i a=\"1\"b>", "<i a=\"1\"/>",
    '<a href="?a=1&amp;b=2">', '<a href="?a=1&b=2">', "<a href='&copy=1'>", '<a title="&notit; &notin; &not">',
    '<a title="&#38;&#x26;&#X26;">', '<a title="&#0;">', '<a title="&#x110000;">', '<a title="&#;">',
    '<a title="&foo; &">', '<a title="&amp">', "<a title=&amp;x>", "<a title=a&b>", '<a t="&&amp;&" u="&amp-">',
    '<a t="&ampx">', '<a t="&#99999999999;">', '<a&b c&d="&amp;">', '<a x="&amp;" x="&lt;">', '<a x="\0&amp;">',
    "a &amp; b", "&rarr;&middot;", "&amp", "&ampx", "&#38;", "&foo;", "x & y", "<!-- c -->", "<!-- a & b -->",
    "<!---->", "<!-- a <!-- b -->", "</p>", "</P>", "</p x>", "</p/>", "\0", "<p>\0</p>", "text",
    "<script>a<b</script>", "<script>x</SCRIPT >", "<script><!--<script></script>--></script>",
    "<script></scripts></script>", "<style>a</stylex></style/>", "<title>&amp;<b></title>",
    "<title>a</title>", "<style>p</style>", "<script>1</script>", "<b>1</b>", "</a></b>", "</A>x</b>", "<b>x</B>",
    "<b></b >", "<b>x</b/>", "</a>x</b y>",
    # two end tags after a tag (matched with it), and what stops the second one
    "<i>x</i></b>", "<i>x</i>y</b>z", "</i></b></p>", "</i>\n</b>\n</p>", "<i>x</i></B>", "<i>x</i></b >",
    "<i>x</i></b/>", "<i>x</i>&amp;</b>", "<i>x</i>\0</b>", "<title>x</title></b>", "<b a=\"1\">x</b></i>",
    # DOCTYPEs: the plain named form takes a fast path; every other form goes through the states
    "<!doctype html>", "<!DOCTYPE HTML>", "<!DocType\n\thtml \n>", "<!doctype  h\u00c9tml>", "<!doctype html\0>",
    "<!doctype\0>", "<!doctype>", "<!doctypehtml>", "<!doctype html PUBLIC \"x\">", "<!doctype html x>",
    "<!doctype html/>", "<!doctype ht<ml>", "<!doct>", "x<!doctype html>y<!doctype a>",
]


@pytest.mark.parametrize("collect_errors", [False, True], ids=["no-errors", "errors"])
def test_fast_paths_agree_with_state_machine_on_edge_shapes(
    collect_errors: bool,
) -> None:
    switches = ("script", "style", "title")
    doc = "".join(_FAST_PATH_SHAPES) + "".join(f"</{name}>" for name in switches)
    for shape in [*_FAST_PATH_SHAPES, doc]:
        fast = {}
        for label, chunks in chunkings(shape):
            fast[label] = run(chunks, TREE_SWITCHES, collect_errors=collect_errors)
        slow_sink, slow_tok = run([shape], TREE_SWITCHES, collect_errors=collect_errors, fast_path=False)
        for label, (sink, tok) in fast.items():
            assert sink.merged() == slow_sink.merged(), (shape, label)
            assert tok.errors == slow_tok.errors, (shape, label)


def test_attribute_references_on_the_fast_path() -> None:
    sink, tok = run(['<a href="?a=1&amp;b=2&c=3" title=\'&copy=1 &notit; &#x26;\' x="&">'], collect_errors=True)
    assert sink.calls[0] == ("start", "a", {"href": "?a=1&b=2&c=3", "title": "&copy=1 &notit; &", "x": "&"}, False)
    assert tok.errors == []


_ALPHABET = st.sampled_from(
    ["<", ">", "/", "!", "-", "--", "&", "#", ";", "x", "a", "A", "amp", "not", "in", "=", '"', "'", " ", "\n", "\r",
     "\0", "[CDATA[", "]]", "DOCTYPE", "PUBLIC", "script", "?", "`", "\U0001f600", "\x01", "\ufffe"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_ALPHABET, max_size=40), st.randoms(use_true_random=False))
def test_any_split_gives_the_same_tokens(parts: list[str], rnd: Any) -> None:
    doc = "".join(parts)
    cuts = sorted(rnd.sample(range(len(doc) + 1), min(len(doc) + 1, 4)))
    chunks = [doc[i:j] for i, j in zip([0, *cuts], [*cuts, len(doc)], strict=True)]
    for state in ("Data state", "RCDATA state", "Script data state"):
        expected = tokenize_for_test([doc], state, "script")
        assert tokenize_for_test(chunks, state, "script") == expected
        assert tokenize_for_test(chunks, state, "script", fast_path=False) == expected


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=60), st.integers(min_value=1, max_value=7))
def test_arbitrary_text_tokenizes_the_same_in_small_chunks(doc: str, size: int) -> None:
    chunks = [doc[i : i + size] for i in range(0, len(doc), size)]
    assert tokenize_for_test(chunks) == tokenize_for_test([doc])


# --- differential check against html5lib's tokenizer on real-looking pages ----------------

_SWITCH = {
    "script": "Script data state",
    "style": "RAWTEXT state",
    "xmp": "RAWTEXT state",
    "iframe": "RAWTEXT state",
    "noembed": "RAWTEXT state",
    "noframes": "RAWTEXT state",
    "title": "RCDATA state",
    "textarea": "RCDATA state",
    "plaintext": "PLAINTEXT state",
}
_FIXTURES = REPO / "fixtures"
_PAGES = sorted(p for p in [*_FIXTURES.glob("*.html"), *_FIXTURES.glob("bench/*.html")] if p.stat().st_size < 200_000)


def _html5lib_tokens(text: str) -> list[tuple[Any, ...]]:
    from html5lib._tokenizer import HTMLTokenizer
    from html5lib.constants import tokenTypes

    kinds = {v: k for k, v in tokenTypes.items()}
    tk = HTMLTokenizer(text)
    states = {
        "Script data state": tk.scriptDataState,
        "RAWTEXT state": tk.rawtextState,
        "RCDATA state": tk.rcdataState,
        "PLAINTEXT state": tk.plaintextState,
    }
    out: list[tuple[Any, ...]] = []
    for t in tk:
        kind = kinds[t["type"]]
        if kind in ("Characters", "SpaceCharacters"):
            if out and out[-1][0] == "chars":
                out[-1] = ("chars", out[-1][1] + t["data"])
            else:
                out.append(("chars", t["data"]))
        elif kind == "StartTag":
            attrs: dict[str, str] = {}
            for k, v in t["data"].items() if isinstance(t["data"], dict) else t["data"]:
                attrs.setdefault(k, v)
            out.append(("start", t["name"], attrs, t["selfClosing"]))
            if t["name"] in _SWITCH:
                tk.state = states[_SWITCH[t["name"]]]
        elif kind == "EndTag":
            out.append(("end", t["name"]))
        elif kind == "Comment":
            out.append(("comment", t["data"]))
        elif kind == "Doctype":
            out.append(("doctype", t["name"], t["publicId"], t["systemId"], not t["correct"]))
    return out


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast-path", "state-machine-only"])
@pytest.mark.parametrize("path", _PAGES, ids=[p.name for p in _PAGES])
def test_same_tokens_as_html5lib_on_fixture_pages(path: Path, fast_path: bool) -> None:
    pytest.importorskip("html5lib")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("windows-1252", errors="replace")
    expected = _html5lib_tokens(text)
    for size in (len(text) or 1, 997, 61):
        sink, _ = run([text[i : i + size] for i in range(0, len(text), size)], _SWITCH, fast_path=fast_path)
        assert sink.merged() == expected, f"chunk size {size}"


# The data state's one-match tag path agrees with the tag states on attributes and duplicates.

ATTR_DOCS = [
    '<p a="1">x</p>',
    '<p a="1" b="2">x</p>',
    '<p a="1" b="2" c="3">x</p>',
    '<p a="1" b="2" c="3" d="4" e=5 f=\'6\' g>x</p>',
    '<p a="1" a="2">x</p>',
    '<p a="1" b="2" a="3">x</p>',
    '<p a="1" b="2" b="3">x</p>',
    '<p a="1" a="2" c=3>x</p>',
    '<p a="1" b="2" c="3" a=4>x</p>',
    '<p a="1" b="2" c="3" d=4 d="5">x</p>',
    "<p a=1 a=2>x</p>",
    '<P A="1" a="2">x</P>',
    '<p a="1" b="2"/><br a="1" a="2"/>',
    "<b>x</b></i><I>y</I>",
    # spaces around "=" (not captured as a pair: the further attributes take them), with duplicates
    '<p a = "1" b="2">x</p>',
    '<p a="1" b ="2" c= "3" d\t=\n"4">x</p>',
    '<p a="1" b = "2" a="3">x</p>',
    '<p a = "1" a="2">x</p>',
    # the end of the tag right after the pairs, or after space or "/"
    '<p a="1" >x</p><p a="1"\n>y</p><br a="1"/><br a="1" / >',
    '<p a="1"b="2">x</p>',
]


def _attr_tokens(doc: str, fast: bool) -> tuple[list[tuple[object, ...]], list[tuple[str, int, int]]]:
    sink = RecordingSink()
    tok = Tokenizer(sink, collect_errors=True, fast_path=fast)
    sink.tokenizer = tok
    tok.feed(doc)
    tok.close()
    return sink.merged(), tok.errors


@pytest.mark.parametrize("doc", ATTR_DOCS)
def test_fast_path_matches_the_tag_states(doc: str) -> None:
    assert _attr_tokens(doc, True) == _attr_tokens(doc, False)
