"""mf2 parsing rules on hand-built DOM trees (no HTML parser involved)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from stream_mf2.html.dom import Element
from stream_mf2.mf2 import Mf2Context, Options, collect_rels, is_root, items_from_subtree, keeps, parse_dom
from tests.support.builds import pure_only
from tests.support.mf2_suite import document, el
from tests.support.work import lines_executed

BASE = "http://example.com/dir/page"


def items(*children: Element | str, options: Options | None = None, url: str = BASE) -> list[dict[str, Any]]:
    result = parse_dom(document(el("html", None, el("body", None, *children))), url, options)
    found: list[dict[str, Any]] = result["items"]
    return found


def one(*children: Element | str, options: Options | None = None) -> dict[str, Any]:
    found = items(*children, options=options)
    assert len(found) == 1
    return found[0]


# -- roots and class names ------------------------------------------------------------


def test_root_and_property_names() -> None:
    item = one(
        el(
            "div",
            {"class": "h-card h-x-y h-card\tfoo H-bad h-Bad h-1 h-"},
            el("span", {"class": "p-name p-TEST p--x"}, "Jo"),
            el("span", {"class": "p-org-name"}, "Org"),
        )
    )
    assert item["type"] == ["h-card", "h-x-y"]
    assert item["properties"] == {"name": ["Jo"], "org-name": ["Org"]}


def test_unicode_whitespace_does_not_split_classes() -> None:
    assert items(el("div", {"class": "h-card\u00a0"}, "x")) == []


def test_filter_roots() -> None:
    tree = [el("div", {"class": "h-full h-screen"}, "x"), el("div", {"class": "h-card h-auto"}, "y")]
    assert [i["type"] for i in items(*tree)] == [["h-full", "h-screen"], ["h-auto", "h-card"]]
    filtered = items(*tree, options=Options(filter_roots=True))
    assert [i["type"] for i in filtered] == [["h-card"]]
    assert items(el("div", {"class": "h-full vcard"}, "x"), options=Options(filter_roots=True))[0]["type"] == ["h-card"]
    custom = items(*tree, options=Options(filter_roots=frozenset({"h-full"})))
    assert [i["type"] for i in custom] == [["h-screen"], ["h-auto", "h-card"]]
    bare = items(*tree, options=Options(filter_roots=frozenset({"full", "auto"})))
    assert [i["type"] for i in bare] == [["h-screen"], ["h-card"]]


def test_keep_predicate() -> None:
    ctx = Mf2Context(BASE)
    assert keeps(el("div", {"class": "x h-entry"}), ctx)
    assert keeps(el("div", {"class": "vcard"}), ctx)
    assert keeps(el("a", {"rel": "me", "href": "/"}), ctx)
    assert keeps(el("link", {"rel": "me", "href": "/"}), ctx)
    assert not keeps(el("a", {"href": "/"}), ctx)
    assert not keeps(el("div", {"class": "p-name"}), ctx)
    assert not is_root(el("span"), ctx)


def test_id_and_children() -> None:
    item = one(
        el(
            "div",
            {"class": "h-feed", "id": "feed"},
            el("p", {"class": "p-name"}, "F"),
            el("div", {"class": "h-entry"}, "E"),
        )
    )
    assert item["id"] == "feed"
    assert item["children"] == [{"type": ["h-entry"], "properties": {"name": ["E"]}}]
    assert "id" not in one(el("div", {"class": "h-card", "id": ""}, "x"))


def test_items_from_subtree_outermost_only() -> None:
    ctx = Mf2Context(BASE)
    inner = el("div", {"class": "h-card"}, "Inner")
    tree = el("section", None, el("div", {"class": "h-entry"}, inner), el("div", {"class": "h-card"}, "Other"))
    found = items_from_subtree(tree, ctx)
    assert [i["type"] for i in found] == [["h-entry"], ["h-card"]]
    assert found[0]["children"][0]["properties"]["name"] == ["Inner"]
    # a subtree whose top element is the root
    assert items_from_subtree(inner, ctx)[0]["properties"]["name"] == ["Inner"]


def test_template_is_ignored() -> None:
    item = one(
        el("div", {"class": "h-card"}, el("span", {"class": "p-name"}, "Jan"), el("template", {"class": "p-note"}, "x"))
    )
    assert item["properties"] == {"name": ["Jan"]}


# -- property parsing -------------------------------------------------------------------


def test_p_sources() -> None:
    item = one(
        el(
            "div",
            {"class": "h-x"},
            el("abbr", {"class": "p-a", "title": " T "}, "x"),
            el("data", {"class": "p-b", "value": "V"}, "x"),
            el("input", {"class": "p-c", "value": "I"}),
            el("img", {"class": "p-d", "alt": "A", "src": "s.png"}),
            el(
                "div",
                {"class": "p-e"},
                " text ",
                el("img", {"alt": "alt"}),
                el("img", {"src": "i.png"}),
                el("script", None, "s"),
            ),
        )
    )
    props = item["properties"]
    assert props["a"] == [" T "]
    assert props["b"] == ["V"]
    assert props["c"] == ["I"]
    assert props["d"] == ["A"]
    assert props["e"] == ["text alt http://example.com/dir/i.png"]


def test_u_sources_and_resolution() -> None:
    item = one(
        el(
            "div",
            {"class": "h-x"},
            el("a", {"class": "u-a", "href": "../up"}, "x"),
            el("img", {"class": "u-b", "src": "i.png"}),
            el("img", {"class": "u-c", "src": "i.png", "alt": ""}),
            el("video", {"class": "u-d", "poster": "p.jpg"}),
            el("object", {"class": "u-e", "data": "o.swf"}),
            el("abbr", {"class": "u-f", "title": "t"}),
            el("span", {"class": "u-g"}, " rel/path "),
            el("a", {"class": "u-h", "href": "http://[::1"}, "broken"),
            el("img", {"class": "u-i", "alt": "no src"}),
        )
    )
    props = item["properties"]
    assert props["a"] == ["http://example.com/up"]
    assert props["b"] == ["http://example.com/dir/i.png"]
    assert props["c"] == [{"value": "http://example.com/dir/i.png", "alt": ""}]
    assert props["d"] == ["http://example.com/dir/p.jpg"]
    assert props["e"] == ["http://example.com/dir/o.swf"]
    assert props["f"] == ["http://example.com/dir/t"]
    assert props["g"] == ["http://example.com/dir/rel/path"]
    assert props["h"] == ["http://[::1"]  # unparseable: kept as written, no exception
    assert props["i"] == ["http://example.com/dir/page"]


def test_srcset() -> None:
    item = one(
        el(
            "div",
            {"class": "h-x"},
            el(
                "img",
                {"class": "u-photo", "src": "a.jpg", "alt": "A", "srcset": "a.jpg 1x, b.jpg 2x,c.jpg 640w, d.jpg"},
            ),
        )
    )
    assert item["properties"]["photo"] == [
        {
            "value": "http://example.com/dir/a.jpg",
            "alt": "A",
            "srcset": {
                "1x": "http://example.com/dir/a.jpg",
                "2x": "http://example.com/dir/b.jpg",
                "640w": "http://example.com/dir/c.jpg",
            },
        }
    ]


def test_dt_sources_and_vcp() -> None:
    item = one(
        el(
            "div",
            {"class": "h-event"},
            el("span", {"class": "p-name"}, "E"),
            el("time", {"class": "dt-start", "datetime": "2009-06-26T19:00-08:00"}, "x"),
            el(
                "span",
                {"class": "dt-end"},
                el("time", {"class": "value", "datetime": "2009-06-26"}, "26 July"),
                ", ",
                el("span", {"class": "value"}, "7pm"),
                el("span", {"class": "value-title", "title": "-08:00"}),
            ),
            el("span", {"class": "dt-later"}, el("span", {"class": "value"}, "22:00")),
            el("span", {"class": "dt-text"}, " 26 July "),
        )
    )
    props = item["properties"]
    assert props["start"] == ["2009-06-26T19:00-08:00"]  # as written
    assert props["end"] == ["2009-06-26 19:00-0800"]  # assembled and normalised
    assert props["later"] == ["2009-06-26 22:00"]  # time only: date implied from an earlier dt-*
    assert props["text"] == ["26 July"]


def test_vcp_text_concatenation_and_boundaries() -> None:
    item = one(
        el(
            "div",
            {"class": "h-x"},
            el(
                "p",
                {"class": "p-tel"},
                "ignored ",
                el("span", {"class": "value"}, "+1"),
                el("span", None, el("b", {"class": "value"}, "555")),
                el("span", {"class": "p-other"}, el("span", {"class": "value"}, "NOT")),
                el("abbr", {"class": "value", "title": "-0100"}, "x"),
            ),
        )
    )
    assert item["properties"]["tel"] == ["+1555-0100"]
    assert item["properties"]["other"] == ["NOT"]


def test_e_property_html_and_value() -> None:
    item = one(
        el(
            "div",
            {"class": "h-entry"},
            el(
                "div",
                {"class": "e-content", "lang": "de"},
                " ",
                el("a", {"href": "/x"}, "link"),
                el("a", {"href": "#fn"}, ""),
                el("br"),
                el("img", {"src": "i.png"}),
                " ",
            ),
        ),
        options=Options(lang=True),
    )
    assert item["properties"]["content"] == [
        {
            "html": '<a href="http://example.com/x">link</a><a href="#fn"></a><br><img src="http://example.com/dir/i.png">',
            "value": "link http://example.com/dir/i.png",
            "lang": "de",
        }
    ]


# -- nested items -----------------------------------------------------------------------


def test_nested_property_values() -> None:
    item = one(
        el(
            "div",
            {"class": "h-entry"},
            el("span", {"class": "p-name"}, "Post"),
            el(
                "a", {"class": "p-author h-card", "href": "/jo"}, el("img", {"alt": "Jo photo", "src": "jo.png"}), " Jo"
            ),
            el("a", {"class": "u-in-reply-to h-cite", "href": "/orig"}, "Orig"),
            el(
                "div",
                {"class": "u-like-of h-cite"},
                el("span", {"class": "p-name"}, "N"),
                el("a", {"class": "u-url", "href": "/liked"}, "l"),
            ),
        )
    )
    author = item["properties"]["author"][0]
    assert author["type"] == ["h-card"]
    # the nested item's first name: implied from the only child img's alt
    assert author["value"] == "Jo photo"
    assert author["properties"]["url"] == ["http://example.com/jo"]
    assert item["properties"]["in-reply-to"][0]["value"] == "http://example.com/orig"  # implied u-url
    assert item["properties"]["like-of"][0]["value"] == "http://example.com/liked"
    assert "children" not in item


def test_nested_value_ignores_name_from_other_prefix() -> None:
    item = one(
        el(
            "div",
            {"class": "h-x"},
            el("span", {"class": "p-name"}, "X"),
            el("div", {"class": "p-test h-y"}, "Va", el("span", {"class": "u-name"}, "l"), "id"),
        )
    )
    nested = item["properties"]["test"][0]
    assert nested["value"] == "Valid"
    assert nested["properties"]["name"] == ["http://example.com/dir/l"]


def test_nested_e_property_merges_html() -> None:
    item = one(
        el(
            "div",
            {"class": "h-x"},
            el("span", {"class": "p-name"}, "X"),
            el("div", {"class": "e-c h-y"}, el("b", {"class": "p-name"}, "B")),
        )
    )
    nested = item["properties"]["c"][0]
    assert nested["html"] == '<b class="p-name">B</b>'
    assert nested["value"] == "B"
    assert nested["properties"] == {"name": ["B"]}


# -- implied properties -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("tree", "name"),
    [
        (el("img", {"class": "h-x", "alt": " A "}), "A"),
        (el("abbr", {"class": "h-x", "title": "T"}, "x"), "T"),
        (el("div", {"class": "h-x"}, el("img", {"alt": "Only"}), "text"), "Only"),
        (el("div", {"class": "h-x"}, el("img", {"alt": ""}), "text"), "text"),
        (el("div", {"class": "h-x"}, el("span", None, el("abbr", {"title": "Deep"}, "x"))), "Deep"),
        (el("div", {"class": "h-x"}, el("hr"), el("img", {"alt": "Alt"}), " Valid"), "Alt Valid"),
        (el("div", {"class": "h-x"}, " plain ", el("style", None, "x")), "plain"),
    ],
)
def test_implied_name(tree: Element, name: str) -> None:
    assert one(tree)["properties"]["name"] == [name]


def test_no_implied_name_with_p_e_or_nested() -> None:
    assert "name" not in one(el("div", {"class": "h-x"}, el("span", {"class": "p-org"}, "O")))["properties"]
    assert "name" not in one(el("div", {"class": "h-x"}, el("span", {"class": "e-note"}, "O")))["properties"]
    assert "name" not in one(el("div", {"class": "h-x"}, el("span", {"class": "h-y"}, "O")))["properties"]
    assert one(el("div", {"class": "h-x"}, "Jo", el("a", {"class": "u-url", "href": "/"}, "x")))["properties"][
        "name"
    ] == ["Jox"]


def test_implied_photo_and_url() -> None:
    props = one(el("a", {"class": "h-card", "href": "/me"}, el("img", {"src": "me.png", "alt": "Me"})))["properties"]
    assert props["photo"] == [{"value": "http://example.com/dir/me.png", "alt": "Me"}]
    assert props["url"] == ["http://example.com/me"]
    assert props["name"] == ["Me"]
    deep = one(
        el("div", {"class": "h-card"}, el("span", None, el("object", {"data": "o.png"}), el("a", {"href": "/x"}, "x")))
    )
    assert deep["properties"]["photo"] == ["http://example.com/dir/o.png"]
    assert deep["properties"]["url"] == ["http://example.com/x"]
    two = one(el("div", {"class": "h-card"}, el("img", {"src": "a.png"}), el("img", {"src": "b.png"})))
    assert "photo" not in two["properties"]
    nested_root = one(el("div", {"class": "h-card"}, el("a", {"class": "h-cite", "href": "/c"}, "c")))
    assert "url" not in nested_root["properties"]
    with_u = one(
        el("div", {"class": "h-card"}, el("img", {"src": "a.png"}), el("a", {"class": "u-uid", "href": "/u"}, "u"))
    )
    assert "photo" not in with_u["properties"] and "url" not in with_u["properties"]


# -- document-level: base, lang, text modes -------------------------------------------


def test_base_href_first_wins_and_relative() -> None:
    doc = document(
        el(
            "html",
            None,
            el("head", None, el("base", {"href": "/other/"}), el("base", {"href": "http://ignored.example/"})),
            el("body", None, el("a", {"class": "h-card", "href": "x"}, "X")),
        )
    )
    result = parse_dom(doc, "http://example.com/a/b")
    assert result["items"][0]["properties"]["url"] == ["http://example.com/other/x"]


def test_lang_option() -> None:
    doc = document(
        el(
            "html",
            {"lang": "en"},
            el(
                "body",
                None,
                el("div", {"class": "h-card"}, "A"),
                el("div", {"lang": "fr"}, el("div", {"class": "h-card"}, "B")),
            ),
        )
    )
    assert "lang" not in parse_dom(doc, BASE)["items"][0]
    langs = [i.get("lang") for i in parse_dom(doc, BASE, Options(lang=True))["items"]]
    assert langs == ["en", "fr"]
    meta = document(
        el(
            "html",
            None,
            el("head", None, el("meta", {"http-equiv": "Content-Language", "content": "es"})),
            el("body", None, el("div", {"class": "h-card"}, "A")),
        )
    )
    assert parse_dom(meta, BASE, Options(lang=True))["items"][0]["lang"] == "es"


def test_lang_of_nested_items_and_e_values() -> None:
    doc = document(
        el(
            "html",
            {"lang": "en"},
            el(
                "body",
                None,
                el(
                    "div",
                    {"class": "h-entry"},
                    el("div", {"class": "e-content"}, "hello"),
                    el(
                        "div",
                        {"lang": "de"},
                        el("div", {"class": "p-author h-card"}, el("span", {"class": "e-note"}, "n")),
                    ),
                    el("div", {"class": "p-comment h-cite", "lang": ""}, "c"),
                ),
            ),
        )
    )
    entry = parse_dom(doc, BASE, Options(lang=True))["items"][0]
    assert entry["lang"] == "en"
    assert entry["properties"]["content"][0]["lang"] == "en"
    author = entry["properties"]["author"][0]
    assert author["lang"] == "de"
    assert author["properties"]["note"][0]["lang"] == "de"
    assert "lang" not in entry["properties"]["comment"][0]  # lang="" means unknown


def test_text_modes() -> None:
    tree = el(
        "div",
        {"class": "h-x"},
        el(
            "p",
            {"class": "p-name"},
            "  one\n   two ",
            el("br"),
            " three ",
            el("p", None, "four"),
            el("img", {"alt": " A "}),
        ),
    )
    assert one(tree)["properties"]["name"] == ["one\n   two  three four A "[:-1]]
    normalized = one(tree, options=Options(text="normalized"))["properties"]["name"]
    assert normalized == ["one two\nthree\nfour\nA"]


# -- rels -----------------------------------------------------------------------------


def test_rels() -> None:
    doc = document(
        el(
            "html",
            None,
            el(
                "head", None, el("link", {"rel": "me", "href": "https://a.example/", "title": "A", "type": "text/html"})
            ),
            el(
                "body",
                None,
                el(
                    "a",
                    {"rel": "me  nofollow", "href": "https://a.example/", "hreflang": "en", "title": "ignored"},
                    "\nA text",
                ),
                el("a", {"rel": "me", "href": "/b", "media": "print"}, "B"),
                el("a", {"rel": "tag", "href": "/b"}, "B2"),
                el("a", {"rel": "", "href": "/c"}, "no rel"),
                el("a", {"rel": "me"}, "no href"),
                el("a", {"rel": "bad", "href": "http://[::1"}, "broken"),
            ),
        )
    )
    result = parse_dom(doc, "http://example.com/")
    assert result["rels"] == {
        "me": ["https://a.example/", "http://example.com/b"],
        "nofollow": ["https://a.example/"],
        "tag": ["http://example.com/b"],
        "bad": ["http://[::1"],
    }
    assert result["rel-urls"]["https://a.example/"] == {
        "rels": ["me", "nofollow"],
        "title": "A",
        "type": "text/html",
        "text": "",
        "hreflang": "en",
    }
    assert result["rel-urls"]["http://example.com/b"] == {"rels": ["me", "tag"], "media": "print", "text": "B"}


# -- robustness -------------------------------------------------------------------------


def _nested(depth: int) -> Element:
    root = el("div", {"class": "h-entry"}, el("span", {"class": "p-name"}, "0"))
    current = root
    for i in range(1, depth):
        child = el("div", {"class": "p-comment h-entry"}, el("span", {"class": "p-name"}, str(i)))
        current.children.append(child)
        child.parent = current
        current = child
    return root


@pytest.mark.parametrize("depth", [1_000, 5_000])
def test_deeply_nested_items_without_recursion(depth: int) -> None:
    item = one(_nested(depth))
    n = 0
    while "comment" in item["properties"]:
        item = item["properties"]["comment"][0]
        n += 1
        assert item["value"] == str(n)
    assert n == depth - 1


def test_deeply_nested_plain_elements() -> None:
    top = el("div", {"class": "h-card"})
    current = top
    for _ in range(20_000):
        child = el("div")
        current.children.append(child)
        child.parent = current
        current = child
    current.children.append(el("span", {"class": "p-name"}, "deep"))
    assert one(top)["properties"]["name"] == ["deep"]


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
def test_many_items_linear_time() -> None:
    def page(n: int) -> list[Element]:
        return [
            el("div", {"class": "h-entry"}, el("a", {"class": "u-url p-name", "href": f"/{i}"}, f"e{i}"))
            for i in range(n)
        ]

    # lines of the package executed (deterministic, see tests/support/work.py) at n, 2n, 4n:
    # linear work doubles per step
    found: list[list[dict[str, Any]]] = []

    def run(children: list[Element]) -> None:
        found.append(items(*children))

    work = [lines_executed(partial(run, page(n)), ("/stream_mf2/",)) for n in (500, 1_000, 2_000)]
    assert [len(f) for f in found] == [500, 1_000, 2_000]
    assert found[-1][-1]["properties"]["url"] == ["http://example.com/1999"]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert max(ratios) < 2.6, (work, ratios)


# -- the functions the streaming layer calls --------------------------------------------


def test_streaming_style_calls() -> None:
    """A kept subtree still attached to its open ancestors, parsed with a hand-made context."""
    ctx = Mf2Context("http://example.com/a/b", Options(lang=True))
    ctx.set_base("../base/")
    ctx.set_base("http://ignored.example/")  # only the first base counts
    ctx.html_lang = "en"
    assert ctx.base_url == "http://example.com/base/"
    kept = el("div", {"class": "h-entry"}, el("a", {"class": "u-url", "href": "x", "rel": "bookmark"}, "X"))
    ancestors = el("html", {"lang": "en"}, el("body", None, el("section", {"lang": "nl"}, kept)))
    assert ancestors.name == "html"
    found = items_from_subtree(kept, ctx)
    assert found == [
        {"type": ["h-entry"], "properties": {"url": ["http://example.com/base/x"], "name": ["X"]}, "lang": "nl"}
    ]
    collect_rels(kept, ctx)
    collect_rels(el("link", {"rel": "bookmark", "href": "x"}), ctx)
    assert ctx.rels.rels == {"bookmark": ["http://example.com/base/x"]}
    assert ctx.rels.rel_urls == {"http://example.com/base/x": {"rels": ["bookmark"], "text": "X"}}


def test_broken_base_url_does_not_raise() -> None:
    ctx = Mf2Context("http://[::1", Options())
    ctx.set_base("x")
    found = items_from_subtree(el("a", {"class": "h-card", "href": "/y"}, "Y"), ctx)
    assert found[0]["properties"]["url"] == ["/y"]


def test_broken_base_href_uses_document_url() -> None:
    base = "http://example.com/dir/"
    ctx = Mf2Context(base)
    ctx.set_base("http://[::1")
    assert ctx.has_base
    assert ctx.base_url == base
    ctx.set_base("http://other.example/")  # only the first base element counts
    assert ctx.base_url == base
    ok = Mf2Context(base)
    ok.set_base("/b/")
    assert ok.base_url == "http://example.com/b/"
