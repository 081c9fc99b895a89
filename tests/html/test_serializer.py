"""Unit tests for :mod:`stream_mf2.html.serialize` on DOM trees and token streams."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stream_mf2.html.dom import (
    HTML_NS,
    MATHML_NS,
    SVG_NS,
    Comment,
    Doctype,
    Document,
    DocumentFragment,
    Element,
    Node,
    ParentNode,
    Text,
)
from stream_mf2.html.serialize import (
    HTML5LIB_OPTIONS,
    WHATWG_OPTIONS,
    Characters,
    EndTag,
    SerializerOptions,
    StartTag,
    Token,
    serialize_children,
    serialize_outer,
    serialize_tokens,
)


def add(parent: ParentNode, *children: Node) -> ParentNode:
    for child in children:
        child.parent = parent
        parent.children.append(child)
    return parent


def el(name: str, attrs: dict[str, str] | None = None, *children: Node, ns: str | None = None) -> Element:
    e = Element(name, ns, attrs) if ns else Element(name, attrs=attrs)
    add(e, *children)
    return e


def frag(*children: Node) -> DocumentFragment:
    f = DocumentFragment()
    add(f, *children)
    return f


# --------------------------------------------------------------------------- escaping


def test_text_escaping() -> None:
    assert serialize_children(frag(Text("a & b < c > d \u00a0 \"q\" 's'"))) == (
        "a &amp; b &lt; c &gt; d &nbsp; \"q\" 's'"
    )


def test_attribute_escaping_includes_lt_and_gt() -> None:
    # Since the 2025 change, attribute mode escapes "<" and ">" as well.
    p = el("p", {"title": "a&b \"c\" 'd' <e> \u00a0"})
    assert serialize_outer(p) == "<p title=\"a&amp;b &quot;c&quot; 'd' &lt;e&gt; &nbsp;\"></p>"


def test_attribute_escaping_pre_2025_option() -> None:
    p = el("p", {"title": "<e>"})
    assert serialize_outer(p, WHATWG_OPTIONS.with_(escape_lt_in_attrs=False)) == '<p title="<e>"></p>'


def test_attributes_keep_source_order_and_are_always_quoted() -> None:
    assert serialize_outer(el("a", {"z": "1", "href": "x", "b": ""})) == '<a z="1" href="x" b=""></a>'


# --------------------------------------------------------------------------- elements


def test_void_elements_have_no_end_tag_and_no_solidus() -> None:
    tree = frag(el("br"), el("img", {"src": "x.png", "alt": ""}), el("input", {"disabled": ""}), el("wbr"))
    assert serialize_children(tree) == '<br><img src="x.png" alt=""><input disabled=""><wbr>'


def test_void_element_children_are_skipped_and_inner_html_is_empty() -> None:
    br = el("br", None, Text("ignored"))
    assert serialize_children(br) == ""
    assert serialize_outer(br) == "<br>"
    assert serialize_children(frag(br, Text("x"))) == "<br>x"


def test_void_names_in_foreign_content_are_not_void() -> None:
    svg = el("svg", None, el("image", None, ns=SVG_NS), el("br", None, ns=SVG_NS), ns=SVG_NS)
    assert serialize_outer(svg) == "<svg><image></image><br></br></svg>"


@pytest.mark.parametrize("name", ["style", "script", "xmp", "iframe", "noembed", "noframes", "plaintext"])
def test_raw_text_elements_are_not_escaped(name: str) -> None:
    e = el(name, None, Text("a < b && c > d"))
    assert serialize_outer(e) == f"<{name}>a < b && c > d</{name}>"
    assert serialize_children(e) == "a < b && c > d"


def test_noscript_is_escaped_with_scripting_disabled() -> None:
    e = el("noscript", None, Text("<img src=x>"))
    assert serialize_outer(e) == "<noscript>&lt;img src=x&gt;</noscript>"
    assert serialize_outer(e, WHATWG_OPTIONS.with_(scripting=True)) == "<noscript><img src=x></noscript>"


def test_rcdata_elements_are_escaped() -> None:
    tree = frag(el("textarea", None, Text("a<b&")), el("title", None, Text("<x>")))
    assert serialize_children(tree) == "<textarea>a&lt;b&amp;</textarea><title>&lt;x&gt;</title>"


def test_raw_text_only_for_html_namespace() -> None:
    svg = el("svg", None, el("style", None, Text("a<b"), ns=SVG_NS), ns=SVG_NS)
    assert serialize_outer(svg) == "<svg><style>a&lt;b</style></svg>"


def test_foreign_attributes_use_qualified_names() -> None:
    use = el("use", {"xlink:href": "#a&b", "xml:lang": "en", "xmlns:xlink": "http://www.w3.org/1999/xlink"}, ns=SVG_NS)
    svg = el("svg", {"viewBox": "0 0 1 1"}, use, ns=SVG_NS)
    math = el("math", None, el("mi", None, Text("x"), ns=MATHML_NS), ns=MATHML_NS)
    assert serialize_children(frag(svg, math)) == (
        '<svg viewBox="0 0 1 1"><use xlink:href="#a&amp;b" xml:lang="en" '
        'xmlns:xlink="http://www.w3.org/1999/xlink"></use></svg><math><mi>x</mi></math>'
    )


def test_template_contents_are_serialised() -> None:
    template = el("template", {"id": "t"})
    contents = DocumentFragment()
    add(contents, el("p", None, Text("in contents")))
    template.template_contents = contents
    assert serialize_children(template) == "<p>in contents</p>"
    assert serialize_outer(template) == '<template id="t"><p>in contents</p></template>'
    assert serialize_children(frag(template)) == '<template id="t"><p>in contents</p></template>'


def test_comments_doctype_and_document() -> None:
    doc = Document()
    html = el("html", None, el("head"), el("body", None, Comment(" c "), Text("x")))
    add(doc, Doctype("html", "", ""), html)
    assert serialize_children(doc) == "<!DOCTYPE html><html><head></head><body><!-- c -->x</body></html>"


def test_inner_html_of_script_context_is_raw() -> None:
    assert serialize_children(el("script", None, Text("if (a < b) {}"))) == "if (a < b) {}"
    assert serialize_children(el("div", None, Text("a < b"))) == "a &lt; b"


def test_outer_html_in_raw_text_parent_context() -> None:
    outer = el("p", {"class": "x"}, Text("hi"), el("b", None, Text("!")))
    assert serialize_outer(outer) == '<p class="x">hi<b>!</b></p>'


def test_100000_deep_tree_without_recursion() -> None:
    depth = 100_000
    root = el("div")
    node = root
    for _ in range(depth - 1):
        child = el("div")
        add(node, child)
        node = child
    add(node, Text("leaf <"))
    html = serialize_outer(root)
    assert html == "<div>" * depth + "leaf &lt;" + "</div>" * depth
    # Break the chain before teardown, so freeing it does not go deep either.
    cur: Node = root
    while isinstance(cur, ParentNode) and cur.children:
        nxt = cur.children[0]
        cur.children = []
        cur = nxt


# --------------------------------------------------------------------------- options


def test_whatwg_defaults_never_omit_tags() -> None:
    doc = Document()
    add(doc, el("html", None, el("head"), el("body", None, el("p", None, Text("x")))))
    assert serialize_children(doc) == "<html><head></head><body><p>x</p></body></html>"


def test_optional_tags_on_a_dom() -> None:
    ul = el("ul", None, el("li", None, Text("a")), el("li", None, Text("b")))
    table = el(
        "table",
        None,
        el("tbody", None, el("tr", None, el("td", None, Text("1")), el("td", None, Text("2")))),
    )
    doc = Document()
    add(doc, el("html", None, el("head"), el("body", None, ul, table)))
    assert serialize_children(doc, HTML5LIB_OPTIONS) == "<ul><li>a<li>b</ul><table><tr><td>1<td>2</table>"


def test_p_end_tag_kept_inside_a() -> None:
    opts = HTML5LIB_OPTIONS
    assert serialize_outer(el("a", None, el("p", None, Text("x"))), opts) == "<a><p>x</p></a>"
    assert serialize_outer(el("div", None, el("p", None, Text("x"))), opts) == "<div><p>x</div>"
    assert serialize_outer(el("x-y", None, el("p", None, Text("x"))), opts) == "<x-y><p>x</p></x-y>"
    assert serialize_outer(el("div", None, el("p", None, Text("x")), Text("y")), opts) == "<div><p>x</p>y</div>"


def test_tfoot_before_tbody_only_with_legacy_rules() -> None:
    toks: list[Token] = [EndTag("tfoot"), StartTag("tbody"), Characters("x")]
    spec = HTML5LIB_OPTIONS.with_(html5lib_legacy=False)
    assert serialize_tokens(toks, spec) == "</tfoot><tbody>x"
    assert serialize_tokens(toks, HTML5LIB_OPTIONS) == "<tbody>x"


def test_start_tag_with_attributes_is_never_omitted() -> None:
    toks: list[Token] = [StartTag("body", (("class", "c"),)), Characters("x")]
    assert serialize_tokens(toks, HTML5LIB_OPTIONS) == "<body class=c>x"


def test_boolean_attribute_minimisation() -> None:
    inp = el("input", {"disabled": "", "checked": "CHECKED", "required": "false", "value": "v"})
    assert serialize_outer(inp, HTML5LIB_OPTIONS) == "<input disabled checked required=false value=v>"
    svg = el("svg", {"disabled": ""}, ns=SVG_NS)
    assert serialize_outer(svg, HTML5LIB_OPTIONS) == '<svg disabled=""></svg>'


@pytest.mark.parametrize(
    ("mode", "value", "expected"),
    [
        ("spec", "a\x0bb", "<p t=a\x0bb></p>"),
        ("legacy", "a\x0bb", '<p t="a\x0bb"></p>'),
        ("spec", "a/b", "<p t=a/b></p>"),
        ("legacy", "a/b", '<p t="a/b"></p>'),
        ("spec", "a<b", "<p t=a&lt;b></p>"),
        ("spec", "a>b", '<p t="a&gt;b"></p>'),
        ("spec", "a`b", '<p t="a`b"></p>'),
        ("spec", "", '<p t=""></p>'),
        ("always", "ab", '<p t="ab"></p>'),
    ],
)
def test_quote_modes(mode: str, value: str, expected: str) -> None:
    opts = WHATWG_OPTIONS.with_(quote_attr_values=mode)
    assert serialize_outer(el("p", {"t": value}), opts) == expected


def test_quote_char_and_best_quote() -> None:
    p = el("p", {"t": "it's"})
    assert serialize_outer(p, WHATWG_OPTIONS.with_(quote_char="'")) == "<p t='it&#39;s'></p>"
    # An explicit quote_char turns best-quote off unless that is given too.
    assert serialize_outer(p, WHATWG_OPTIONS.with_(use_best_quote_char=True).with_(quote_char="'")) == (
        "<p t='it&#39;s'></p>"
    )
    best = WHATWG_OPTIONS.with_(quote_char="'", use_best_quote_char=True)
    assert serialize_outer(p, best) == '<p t="it\'s"></p>'


def test_trailing_solidus() -> None:
    tree = frag(el("br"), el("p"))
    assert serialize_children(tree, WHATWG_OPTIONS.with_(use_trailing_solidus=True)) == "<br /><p></p>"
    no_space = WHATWG_OPTIONS.with_(use_trailing_solidus=True, space_before_trailing_solidus=False)
    assert serialize_children(tree, no_space) == "<br/><p></p>"


def test_strip_whitespace_keeps_pre() -> None:
    tree = frag(Text(" a \n\t b "), el("pre", None, Text(" x \n y ")), el("script", None, Text(" s  t ")))
    opts = WHATWG_OPTIONS.with_(strip_whitespace=True)
    assert serialize_children(tree, opts) == " a b <pre> x \n y </pre><script> s  t </script>"


def test_escape_rcdata() -> None:
    opts = WHATWG_OPTIONS.with_(escape_rcdata=True)
    assert serialize_outer(el("script", None, Text("a<b")), opts) == "<script>a&lt;b</script>"


def test_alphabetical_attributes() -> None:
    opts = WHATWG_OPTIONS.with_(alphabetical_attributes=True)
    assert serialize_outer(el("a", {"z": "1", "b": "2"}), opts) == '<a b="2" z="1"></a>'


def test_encoding_writes_unencodable_characters_as_references() -> None:
    opts = WHATWG_OPTIONS.with_(encoding="ascii")
    assert serialize_children(frag(el("p", {"t": "\u00e9"}, Text("caf\u00e9 \u2603"))), opts) == (
        '<p t="&#233;">caf&#233; &#9731;</p>'
    )


def test_inject_meta_charset_on_a_dom() -> None:
    head = el("head", None, el("title", None, Text("t")))
    doc = Document()
    add(doc, el("html", None, head, el("body")))
    opts = WHATWG_OPTIONS.with_(inject_meta_charset=True, encoding="utf-8")
    assert serialize_children(doc, opts) == (
        '<html><head><meta charset="utf-8"><title>t</title></head><body></body></html>'
    )


def test_doctype_ids_option() -> None:
    doc = Document()
    add(doc, Doctype("html", "-//W3C//DTD HTML 4.01//EN", ""))
    assert serialize_children(doc) == "<!DOCTYPE html>"
    assert serialize_children(doc, WHATWG_OPTIONS.with_(doctype_ids=True)) == (
        '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN">'
    )


def test_invalid_options_rejected() -> None:
    with pytest.raises(ValueError):
        SerializerOptions(quote_attr_values="sometimes")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SerializerOptions(quote_char="`")  # type: ignore[arg-type]


def test_unbalanced_token_stream() -> None:
    # A stray end tag does not pop unrelated open elements.
    toks: list[Token] = [StartTag("script"), EndTag("div"), Characters("a<b"), EndTag("script")]
    assert serialize_tokens(toks) == "<script></div>a<b</script>"


# --------------------------------------------------------------------------- property: spec transcription

_NAMES = ["div", "p", "br", "img", "script", "style", "noscript", "textarea", "template", "plaintext", "li"]
_TEXTS = ["", "a", "<", ">", "&", "\u00a0", '"', "'", "x y", "</p>"]


def _reference_inner(node: ParentNode) -> str:
    """A direct, recursive transcription of the fragment serialisation algorithm (small trees only)."""
    if isinstance(node, Element) and node.namespace == HTML_NS and node.name in VOID:
        return ""
    if isinstance(node, Element) and node.template_contents is not None:
        node = node.template_contents
    s = ""
    for child in node.children:
        if isinstance(child, Element):
            s += "<" + child.name
            for k, v in child.attrs.items():
                v = v.replace("&", "&amp;").replace("\u00a0", "&nbsp;").replace('"', "&quot;")
                s += f' {k}="' + v.replace("<", "&lt;").replace(">", "&gt;") + '"'
            s += ">"
            if child.namespace == HTML_NS and child.name in VOID:
                continue
            s += _reference_inner(child) + f"</{child.name}>"
        elif isinstance(child, Text):
            parent = child.parent
            if isinstance(parent, Element) and parent.namespace == HTML_NS and parent.name in RAW:
                s += child.data
            else:
                s += (
                    child.data.replace("&", "&amp;")
                    .replace("\u00a0", "&nbsp;")
                    .replace("<", "&lt;")
                    .replace(">", "&gt;")
                )
        elif isinstance(child, Comment):
            s += f"<!--{child.data}-->"
    return s


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
RAW = {"style", "script", "xmp", "iframe", "noembed", "noframes", "plaintext"}


@st.composite
def _trees(draw: st.DrawFn, depth: int = 0) -> Element:
    name = draw(st.sampled_from(_NAMES))
    ns = draw(st.sampled_from([HTML_NS, HTML_NS, SVG_NS]))
    attrs = draw(st.dictionaries(st.sampled_from(["a", "title", "xlink:href"]), st.sampled_from(_TEXTS), max_size=2))
    e = Element(name, ns, attrs)
    kids: list[Node] = []
    if depth < 4:
        for kind in draw(st.lists(st.sampled_from(["el", "text", "comment"]), max_size=3)):
            if kind == "el":
                kids.append(draw(_trees(depth + 1)))
            elif kind == "text":
                kids.append(Text(draw(st.sampled_from(_TEXTS))))
            else:
                kids.append(Comment(draw(st.sampled_from(["", "c", "<x>"]))))
    if name == "template" and ns == HTML_NS:
        e.template_contents = DocumentFragment()
        add(e.template_contents, *kids)
    else:
        add(e, *kids)
    return e


@settings(max_examples=300, deadline=None)
@given(_trees())
def test_matches_a_direct_transcription_of_the_algorithm(tree: Element) -> None:
    root = frag(tree)
    assert serialize_children(root) == _reference_inner(root)
    assert serialize_children(tree) == _reference_inner(tree)
