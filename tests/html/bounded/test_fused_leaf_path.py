"""The fused "start tag, text, end tag" path (``start_text_end`` / ``append_leaf``).

The tokenizer offers a leaf element written as one run (``<a href=x>text</a>``)
to its sink in one call; the tree builder takes it only when the three tokens
would just insert, fill and pop one element, and the sinks may add it in one
step. Every result must equal the one of the three separate calls.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

import stream_mf2
from stream_mf2.html.bounded.sink import BoundedSink
from stream_mf2.html.dom import Element
from stream_mf2.html.sink import DomSink
from stream_mf2.html.testing.tree import build, dump_tree
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder
from tests.support.suites import REPO

# Leaf runs next to everything that must make the tree builder decline them.
DOCS = [
    "<!doctype html><p>one</p><div>two</div><span>three</span><a href=x>four</a>",
    "<p>open<p>again</p><div>after p</div><h2>x</h2><h3>y</h3>",
    "<h1><h2>nested heading</h2></h1>",
    "<ul><li>a</li><li>b<li>c</li></ul><dl><dt>t</dt><dd>d</dd></dl><ul><li><ul><li>in</li></ul></li></ul>",
    "<b><i>x</i><b>y</b><b>z</b><b>w</b></b><em>e</em><strong>s</strong>",
    "<a href=1>a<a href=2>b</a></a><p><b>x<p><i>y</i>",
    "<b>one<p>two</b>three</p><em>four</em>",
    "<table><tr><td>1</td><td>2</td><th>h</th></tr><tr><td><span>in cell</span></td></tr></table>",
    "<table><caption>c</caption><td>no tr</td><span>foster</span></table>",
    "<table><tr><td>x</td><template><td>t</td></template></tr></table>",
    "<template><p>t</p><span>u</span></template><p>after</p>",
    "<svg><text>svg</text><desc>d</desc><foreignObject><span>html</span></foreignObject></svg>",
    "<math><mi>m</mi></math><pre>\nkeep</pre><textarea>\nt</textarea><listing>\nl</listing>",
    "<select><option>o</option></select><button>b</button><nobr>n</nobr><nobr>m</nobr>",
    "<frameset><frame></frameset>",
    "<body><span>  </span><frameset><frame></frameset>",
    "<body><li>x</li><frameset></frameset>",
    "<form><input></form><form>f</form><object>o</object><marquee>m</marquee>",
    "<div class=h-card><span class=p-name>Ann</span><a class=u-url href=/a>home</a></div>",
    "<span class=h-entry>e</span><a rel=me href=/me>me</a><link rel=alternate href=/f>",
    "<p><font color=red>f</font><font color=red>g</font><code>c</code></p>",
    "<noscript>ns</noscript><title>t</title><script>s</script><style>x</style>",
    "<html><body><section><article><header>h</header><footer>f</footer></article></section>",
]


class _NoFused:
    """A token sink that forwards to a tree builder but has no ``start_text_end``."""

    def __init__(self, builder: TreeBuilder) -> None:
        self.start_tag = builder.start_tag
        self.end_tag = builder.end_tag
        self.characters = builder.characters
        self.comment = builder.comment
        self.doctype = builder.doctype
        self.eof = builder.eof
        self.cdata_allowed = builder.cdata_allowed
        self.attach_tokenizer = builder.attach_tokenizer  # (the builder steers the tokenizer)


class _PlainDomSink:
    """A DomSink without the optional ``append_leaf`` and ``create_element_in``."""

    def __init__(self) -> None:
        self._inner = DomSink()
        self.document = self._inner.document

    def __getattr__(self, name: str) -> Any:
        if name in ("append_leaf", "create_element_in"):
            raise AttributeError(name)
        return getattr(self._inner, name)


def _separate_calls(chunks: list[str], sink: Any, depth: int | None = None) -> str:
    options: dict[str, Any] = {} if depth is None else {"max_depth": depth}
    tb = TreeBuilder(sink, **options)
    tok = Tokenizer(_NoFused(tb))
    for chunk in chunks:
        tok.feed(chunk)
    tok.close()
    return dump_tree(sink.document)


def _fused(chunks: list[str], sink: Any) -> str:
    build(chunks, sink)
    return dump_tree(sink.document)


@pytest.mark.parametrize("doc", DOCS)
def test_fused_tree_equals_separate_calls(doc: str) -> None:
    expected = _separate_calls([doc], DomSink())
    assert _fused([doc], DomSink()) == expected
    assert _fused([doc], _PlainDomSink()) == expected
    # split anywhere: the fused path sees other runs, the tree is the same
    for i in range(1, len(doc)):
        assert _fused([doc[:i], doc[i:]], DomSink()) == expected, i


class _FusedSpy:
    """The tree builder as a token sink, recording what its ``start_text_end`` answers."""

    def __init__(self, tb: TreeBuilder) -> None:
        self._tb = tb
        self.calls: list[bool] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tb, name)

    def start_text_end(self, name: str, attrs: dict[str, str], self_closing: bool, text: str, end: str) -> bool:
        taken = self._tb.start_text_end(name, attrs, self_closing, text, end)
        self.calls.append(taken)
        return taken


def test_fused_path_is_taken_and_declined() -> None:
    tb = TreeBuilder(DomSink())
    spy = _FusedSpy(tb)
    calls = spy.calls
    tok = Tokenizer(spy)  # a TokenSink by delegation
    tok.feed("<body><p>x</p><p>open<p>closes p</p><span>s</span><b>y</b>")
    tok.close()
    assert calls == [True, False, True, True]


def test_token_sink_without_fused_method() -> None:
    events: list[tuple[Any, ...]] = []

    class Recorder:
        def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool) -> None:
            events.append(("start", name, attrs))

        def end_tag(self, name: str) -> None:
            events.append(("end", name))

        def characters(self, data: str) -> None:
            events.append(("chars", data))

        def comment(self, data: str) -> None:
            events.append(("comment", data))

        def doctype(self, name: str | None, public_id: str | None, system_id: str | None, force_quirks: bool) -> None:
            events.append(("doctype", name))

        def eof(self) -> None:
            events.append(("eof",))

        def cdata_allowed(self) -> bool:
            return False

    tok = Tokenizer(Recorder())
    tok.feed('<a href="x">text</a><td>1</td>')
    tok.close()
    assert events == [
        ("start", "a", {"href": "x"}),
        ("chars", "text"),
        ("end", "a"),
        ("start", "td", {}),
        ("chars", "1"),
        ("end", "td"),
        ("eof",),
    ]


def test_max_depth_still_applies() -> None:
    from stream_mf2.errors import LimitExceeded

    doc = "<div>" * 5 + "<span>x</span>"
    with pytest.raises(LimitExceeded):
        build([doc], DomSink(), max_depth=7)
    with pytest.raises(LimitExceeded):
        _separate_calls([doc], DomSink(), depth=7)


def test_bounded_sink_leaf_equals_separate_calls() -> None:
    """The bounded sink's append_leaf keeps and hands over exactly what the three calls do."""

    def run(doc: str, fused: bool) -> list[str]:
        out: list[str] = []

        def keep(el: Element) -> bool:
            return "class" in el.attrs or "rel" in el.attrs

        def done(el: Element) -> None:
            holder = DomSink().document
            holder.children.append(el)
            out.append(dump_tree(holder))
            holder.children.clear()

        sink = BoundedSink(keep, done)
        tb = TreeBuilder(sink if fused else _WithoutLeaf(sink))  # type: ignore[arg-type]
        tok = Tokenizer(tb)
        tok.feed(doc)
        tok.close()
        return out

    for doc in DOCS:
        assert run(doc, True) == run(doc, False), doc


class _WithoutLeaf:
    """A bounded sink seen without its ``append_leaf``."""

    def __init__(self, inner: BoundedSink) -> None:
        self._inner = inner
        self.document = inner.document

    def __getattr__(self, name: str) -> Any:
        if name == "append_leaf":
            raise AttributeError(name)
        return getattr(self._inner, name)


def _pages() -> list[Path]:
    root = REPO / "fixtures" / "bench"
    return sorted(root.glob("*.html"))


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.name)
def test_parse_output_unchanged_without_fused_path(page: Path) -> None:
    data = page.read_bytes()
    opts: dict[str, Any] = {"text": "normalized", "lang": True, "metaformats": True}
    fused = orjson.dumps(stream_mf2.parse(data, "http://example.com/", **opts))
    # the state machine alone: no fast path, so no fused calls either
    separate = orjson.dumps(stream_mf2.parse(data, "http://example.com/", tokenizer_fast_path=False, **opts))
    assert fused == separate
